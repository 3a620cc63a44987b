// The CPU flash attention operators: `_scaled_dot_product_flash_attention_for_cpu` and its backward, with
// their argument checks, as PyTorch's aten/src/ATen/native/transformers/attention.cpp
// (_scaled_dot_product_flash_attention_cpu / _scaled_dot_product_flash_attention_cpu_backward); the loops are
// FlashAttentionKernel.ts (Note [Flash attention on CPU]). Meta kernels give PyTorch's sizes and strides.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, scalarTypeToString } from '../c10/ScalarType.js';
import type { Tensor } from '../tensor/Tensor.js';
import { flashAttentionBackward, flashAttentionForward } from './FlashAttentionKernel.js';
import { newStrided } from './TensorFactories.js';

const NAME = 'scaled_dot_product_attention_flash_attention';

/** sdp::calculate_scale: the given scale, else 1/√(head dim). */
export const calculateScale = (query: Tensor, scale: number | null | undefined): number =>
  scale ?? 1 / Math.sqrt(query.sizes[query.dim() - 1] as number);

/** The checks of _scaled_dot_product_flash_attention_cpu, in its order and with its texts. */
function checkFlashInputs(query: Tensor, key: Tensor, value: Tensor, dropoutP: number, attnMask: Tensor | null): void {
  const dtype = query.scalarType;
  if (dtype !== ScalarType.Float && dtype !== ScalarType.Double && dtype !== ScalarType.BFloat16 && dtype !== ScalarType.Half)
    throw new Error(`${NAME}: Expected data type in FP32, FP64, BF16, FP16, but got ${scalarTypeToString(dtype)} instead.`);
  if (query.dim() !== 4 || key.dim() !== 4 || value.dim() !== 4)
    throw new Error(`${NAME}: Accept only 4 dims inputs shape of {B, H, T, K}`);
  if (dropoutP !== 0.0) throw new Error(`${NAME}: Currently do not support dropout > 0`);
  if (query.sizes[3] !== value.sizes[3] || key.sizes[3] !== value.sizes[3])
    throw new Error(`${NAME}: Q/K/V should have the same head size`);
  if (attnMask !== null) {
    if (attnMask.scalarType !== dtype && attnMask.scalarType !== ScalarType.Float)
      throw new Error(`${NAME}: Attention mask is the same data type as query`);
    if (attnMask.dim() !== 2 && attnMask.dim() !== 4) throw new Error(`${NAME}: Attention mask dim in {2, 4}`);
  }
}

/** data_ptr<scalar_t>'s check: every operand has the query's dtype. */
function checkSameDtype(query: Tensor, others: readonly Tensor[]): void {
  for (const t of others)
    if (t.scalarType !== query.scalarType)
      throw new Error(`expected scalar type ${scalarTypeToString(query.scalarType)} but found ${scalarTypeToString(t.scalarType)}`);
}

/** The float dtypes the kernels run (float16 / bfloat16 are PyTorch's too, not aten-ts's yet). */
function checkKernelDtype(query: Tensor): void {
  if (query.scalarType !== ScalarType.Float && query.scalarType !== ScalarType.Double)
    throw new Error(`"flash_attention" not implemented for '${scalarTypeToString(query.scalarType)}'`);
}

/** `_scaled_dot_product_flash_attention_for_cpu(query, key, value, dropout_p=0.0, is_causal=False, *, attn_mask=None, scale=None)`. */
export function scaledDotProductFlashAttentionForCpu(
  _ks: DispatchKeySet,
  query: Tensor,
  key: Tensor,
  value: Tensor,
  dropoutP = 0.0,
  isCausal = false,
  attnMask: Tensor | null = null,
  scale: number | null = null,
): [Tensor, Tensor] {
  attnMask = attnMask ?? null;
  checkFlashInputs(query, key, value, dropoutP, attnMask);
  const [b, h, l, d] = query.sizes as [number, number, number, number];
  if (query.isMeta()) {
    return [
      newStrided([b, h, l, d], [h * l * d, l * d, d, 1], query.scalarType, query.device),
      newStrided([b, h, l], [l * h, 1, h], query.scalarType, query.device),
    ];
  }
  checkSameDtype(query, [key, value]);
  checkKernelDtype(query);
  return flashAttentionForward(query, key, value, isCausal, attnMask?.numel() === 0 ? null : attnMask, calculateScale(query, scale));
}

/** `_scaled_dot_product_flash_attention_for_cpu_backward(grad_out, query, key, value, out, logsumexp, dropout_p, is_causal, *, attn_mask=None, scale=None)`. */
export function scaledDotProductFlashAttentionForCpuBackward(
  _ks: DispatchKeySet,
  gradOut: Tensor,
  query: Tensor,
  key: Tensor,
  value: Tensor,
  out: Tensor,
  logsumexp: Tensor,
  dropoutP: number,
  isCausal: boolean,
  attnMask: Tensor | null = null,
  scale: number | null = null,
): [Tensor, Tensor, Tensor] {
  attnMask = attnMask ?? null;
  if (query.dim() !== 4 || key.dim() !== 4 || value.dim() !== 4)
    throw new Error(`${NAME}_backward: Accept only 4 dims inputs shape of {B, H, T, K}`);
  if (dropoutP !== 0.0) throw new Error(`${NAME}_backward: Currently do not support dropout > 0`);
  const stored = (t: Tensor): Tensor => {
    const [b, h, n, d] = t.sizes as [number, number, number, number];
    return newStrided([b, h, n, d], [n * h * d, d, h * d, 1], t.scalarType, t.device);
  };
  if (query.isMeta()) return [stored(query), stored(key), stored(value)];
  checkSameDtype(query, [key, value, out, gradOut, logsumexp]);
  checkKernelDtype(query);
  if (attnMask !== null && attnMask.scalarType !== query.scalarType && attnMask.scalarType !== ScalarType.Float)
    throw new Error(`${NAME}: Attention mask is the same data type as query`);
  return flashAttentionBackward(
    gradOut,
    query,
    key,
    value,
    out,
    logsumexp,
    isCausal,
    attnMask?.numel() === 0 ? null : attnMask,
    calculateScale(query, scale),
  );
}
