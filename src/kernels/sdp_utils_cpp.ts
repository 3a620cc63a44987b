// Which kernel CPU scaled_dot_product_attention runs: PyTorch's
// aten/src/ATen/native/transformers/sdp_utils_cpp.cpp (select_sdp_backend_cpp, use_flash_attention_cpp) and
// the checks of sdp_utils_cpp.h it calls, in their order. aten-ts has no sdpa_kernel context yet: its backend
// flags are `sdpBackendSettings` (PyTorch's ctx.userEnabledFlashSDP / userEnabledMathSDP), both on by default.

import { ScalarType } from '../c10/ScalarType.js';
import type { Tensor } from '../tensor/Tensor.js';

/** Which SDPA backends may run (check_runtime_disabled_flash; bench/attention_ab.ts turns flash off for its B side). */
export const sdpBackendSettings = { flash: true };

/** sdp_params: the arguments the checks look at. */
export interface SdpParams {
  query: Tensor;
  key: Tensor;
  value: Tensor;
  attnMask: Tensor | null;
  dropout: number;
  isCausal: boolean;
  enableGqa: boolean;
}

/** check_tensor_shapes: all three 4-D. */
const checkTensorShapes = (p: SdpParams): boolean => p.query.dim() === 4 && p.key.dim() === 4 && p.value.dim() === 4;

/** check_batch_size_and_num_heads_dense<supports_gqa=true>: equal batches; equal heads, or grouped heads with enable_gqa. */
function checkBatchSizeAndNumHeadsDense(p: SdpParams): boolean {
  const [q, k, v] = [p.query.sizes, p.key.sizes, p.value.sizes];
  if (!(q[0] === k[0] && q[0] === v[0])) return false;
  const [qh, kh, vh] = [q[1] as number, k[1] as number, v[1] as number];
  if (qh === kh && qh === vh) return true;
  return p.enableGqa && kh === vh && kh > 0 && qh % kh === 0;
}

/** check_attn_mask_shape: a mask that does not require grad, 2-D (L|1, S|1) or 4-D (B|1, H|1, L|1, S|1). */
function checkAttnMaskShape(p: SdpParams): boolean {
  const m = p.attnMask;
  if (m === null) return true;
  if (m.requiresGrad) return false;
  const [b, h, l] = [p.query.sizes[0], p.query.sizes[1], p.query.sizes[2]];
  const s = p.key.sizes[2];
  const fits = (size: number | undefined, full: number | undefined): boolean => size === 1 || size === full;
  if (m.dim() === 2) return fits(m.sizes[0], l) && fits(m.sizes[1], s);
  if (m.dim() === 4) return fits(m.sizes[0], b) && fits(m.sizes[1], h) && fits(m.sizes[2], l) && fits(m.sizes[3], s);
  return false;
}

/** check_head_dim_size_cpp: q, k and v share their last dimension. */
const checkHeadDimSize = (p: SdpParams): boolean => p.query.sizes[3] === p.key.sizes[3] && p.query.sizes[3] === p.value.sizes[3];

/** check_nonzero_sequence_lengths_dense: L and S are not 0. */
const checkNonzeroSequenceLengths = (p: SdpParams): boolean => p.query.sizes[2] !== 0 && p.key.sizes[2] !== 0;

/** check_last_dim_stride_equals_1_dense<false>: q, k and v contiguous in their last dimension (the mask need not be on CPU). */
const checkLastDimStride = (p: SdpParams): boolean => p.query.strides[3] === 1 && p.key.strides[3] === 1 && p.value.strides[3] === 1;

/** check_tensor_dtype with cpp_supported_flash_dtypes: one dtype among float, double, bfloat16, half. */
function checkTensorDtype(p: SdpParams): boolean {
  const d = p.query.scalarType;
  if (d !== ScalarType.Float && d !== ScalarType.Double && d !== ScalarType.BFloat16 && d !== ScalarType.Half) return false;
  return p.key.scalarType === d && p.value.scalarType === d;
}

/**
 * use_flash_attention_cpp: whether CPU SDPA takes `_scaled_dot_product_flash_attention_for_cpu`. aten-ts's
 * flash kernels are float32 and float64 only, so float16 / bfloat16 stay on the math path (FEATURES.md).
 */
export function useFlashAttentionCpp(p: SdpParams): boolean {
  if (!sdpBackendSettings.flash) return false;
  if (p.dropout > 0.0) return false;
  if (!checkTensorShapes(p) || !checkBatchSizeAndNumHeadsDense(p) || !checkAttnMaskShape(p)) return false;
  if (!checkHeadDimSize(p) || !checkNonzeroSequenceLengths(p) || !checkLastDimStride(p)) return false;
  if (!checkTensorDtype(p)) return false;
  const d = p.query.scalarType;
  return d === ScalarType.Float || d === ScalarType.Double;
}
