// 3-d convolution and transposed convolution: slow_conv3d and slow_conv_transpose3d. Mirrors the shape rules
// and error texts of aten/src/ATen/native/ConvolutionMM3d.cpp and NaiveConvolutionTranspose3d.cpp; the
// arithmetic runs on the 2-d kernels (See Note [3-d convolution as a 2-d one]).
//
// Note [3-d convolution as a 2-d one]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's slow_conv3d unfolds every input window into a column (vol2col) and multiplies by the weight.
// Here only the depth is unfolded: for an output depth od and a kernel depth offset a, the input plane
// x[n, c, od·sd − pd + a·dd] becomes channel c·kD + a of image n·oD + od of a 2-d batch
//   X'[N·oD, C·kD, H, W]   (unfoldDepth: an index_select of the depth-padded input at od·sd + a·dd),
// and the weight [O, Cg, kD, kH, kW] is the 2-d weight [O, Cg·kD, kH, kW] (a view: within group g the 2-d
// channel (g·Cg + cg)·kD + a is X's channel g·Cg·kD + cg·kD + a). One 2-d convolution over height and
// width (its stride, padding, dilation, groups; im2col + gemm) then gives [N·oD, O, oH, oW], the 3-d output
// with depth moved next to the batch. The gradients follow the same way: the weight gradient is the 2-d one
// of X'; the input gradient is the 2-d one of X' folded back (foldDepth, an index_add at the same depths,
// the adjoint of the index_select). A transposed 3-d convolution is a 2-d transposed one per input plane,
// whose kD output planes (channels co·kD + a) are added at depths id·sd + a·dd − pd. The two gradients are
// the operators `_conv3d_backward_input` / `_conv3d_backward_weight` (as Note [conv2d backward as operators]):
// their CPU kernels run the unfolded 2-d ones, and a device registers its own (webgpu: an implicit GEMM over
// three spatial dims).

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import * as at from '../generated/TensorBody.js';
import type { Tensor } from '../tensor/Tensor.js';
import { contiguousStrides } from '../tensor/TensorImpl.js';
import { newStrided } from './TensorFactories.js';

/** Stride, padding, dilation (and output padding) of a 3-d convolution, one entry per spatial dim. */
export interface Conv3dParams {
  stride: number[];
  padding: number[];
  dilation: number[];
  outputPadding: number[];
  groups: number;
}

/** The depths od·sd + a·dd of the depth-padded input, in (od, a) order. */
function depthIndex(oD: number, kD: number, sd: number, dd: number, device: Tensor['device']): Tensor {
  const o = at.mul_Scalar(at.arange_start_step(0, oD, 1, ScalarType.Long, null, device, null), sd);
  const a = at.mul_Scalar(at.arange_start_step(0, kD, 1, ScalarType.Long, null, device, null), dd);
  return at.reshape(at.add_Tensor(at.unsqueeze(o, 1), at.unsqueeze(a, 0)), [-1]);
}

/** X' [N·oD, C·kD, H, W] of x [N, C, D, H, W] (Note [3-d convolution as a 2-d one]). */
export function unfoldDepth(x: Tensor, kD: number, sd: number, pd: number, dd: number, oD: number): Tensor {
  const [n, c, , h, w] = x.sizes as [number, number, number, number, number];
  const xp = pd > 0 ? at.constant_pad_nd(x, [0, 0, 0, 0, pd, pd], 0) : x;
  const sel = at.index_select(xp, 2, depthIndex(oD, kD, sd, dd, x.device));
  return at.reshape(at.permute(at.view(sel, [n, c, oD, kD, h, w]), [0, 2, 1, 3, 4, 5]), [n * oD, c * kD, h, w]);
}

/**
 * The adjoint of unfoldDepth: cols [N·oD, C·kD, H, W] added into [N, C, depth, H, W] at depths
 * od·sd + a·dd − pd (those outside [0, depth) dropped), for oD output depths.
 */
export function foldDepth(
  cols: Tensor,
  n: number,
  oD: number,
  c: number,
  depth: number,
  kD: number,
  sd: number,
  pd: number,
  dd: number,
): Tensor {
  const [, , h, w] = cols.sizes as [number, number, number, number];
  const src = at.reshape(at.permute(at.view(cols, [n, oD, c, kD, h, w]), [0, 2, 1, 3, 4, 5]), [n, c, oD * kD, h, w]);
  const full = Math.max(depth + 2 * pd, (oD - 1) * sd + (kD - 1) * dd + 1);
  const zeros = aten().zeros.call([n, c, full, h, w], cols.scalarType, null, cols.device, null);
  return at.narrow(at.index_add(zeros, 2, depthIndex(oD, kD, sd, dd, cols.device), src, 1), 2, pd, depth);
}

/** Output depth, height, width of a 3-d convolution. */
function convOut(x: Tensor, weight: Tensor, p: Conv3dParams): number[] {
  return [0, 1, 2].map((i) => {
    const k = weight.sizes[i + 2] as number;
    const d = p.dilation[i] as number;
    return Math.floor(((x.sizes[i + 2] as number) + 2 * (p.padding[i] as number) - d * (k - 1) - 1) / (p.stride[i] as number)) + 1;
  });
}

/** `slow_conv3d`: x [N, C, D, H, W], weight [O, Cg, kD, kH, kW] (checked by `convolution`). */
export function conv3dForward(x: Tensor, weight: Tensor, bias: Tensor | null, p: Conv3dParams): Tensor {
  const [n] = x.sizes as [number];
  const [o, cg, kD, kH, kW] = weight.sizes as [number, number, number, number, number];
  const [oD, oH, oW] = convOut(x, weight, p) as [number, number, number];
  if (x.isMeta() || weight.isMeta()) {
    const sizes = [n, o, oD, oH, oW];
    return newStrided(sizes, contiguousStrides(sizes), x.scalarType, x.device);
  }
  const [sd, sh, sw] = p.stride as [number, number, number];
  const [pd, ph, pw] = p.padding as [number, number, number];
  const [dd, dh, dw] = p.dilation as [number, number, number];
  const x2 = unfoldDepth(x, kD, sd, pd, dd, oD);
  const w2 = at.reshape(weight, [o, cg * kD, kH, kW]);
  const y2 = aten().convolution.call(x2, w2, bias, [sh, sw], [ph, pw], [dh, dw], false, [0, 0], p.groups);
  return at.contiguous(at.permute(at.view(y2, [n, oD, o, oH, oW]), [0, 2, 1, 3, 4]));
}

/**
 * `slow_conv_transpose3d`: x [N, Cin, D, H, W], weight [Cin, Cout/groups, kD, kH, kW], its shape check
 * (`slow_conv_transpose3d_shape_check`) then the per-plane 2-d transposed convolutions.
 */
export function convTranspose3dForward(x: Tensor, weight: Tensor, bias: Tensor | null, p: Conv3dParams): Tensor {
  const [n, cin, d, h, w] = x.sizes as [number, number, number, number, number];
  const [, cog, kD, kH, kW] = weight.sizes as [number, number, number, number, number];
  const [sd, sh, sw] = p.stride as [number, number, number];
  const [pd, ph, pw] = p.padding as [number, number, number];
  const [dd, dh, dw] = p.dilation as [number, number, number];
  const [opd, oph, opw] = p.outputPadding as [number, number, number];
  if (dd <= 0 || dh <= 0 || dw <= 0) {
    throw new Error(`dilation should be greater than zero, but got dilation_depth: ${dd}, dilation_height: ${dh}, dilation_width: ${dw}`);
  }
  if (!(opd < sd || opd < dd) || !(oph < sh || oph < dh) || !(opw < sw || opw < dw)) {
    throw new Error(
      `output padding must be smaller than either stride or dilation, but got output_padding_depth: ${opd} output_padding_height: ${oph} output_padding_width: ${opw} stride_depth: ${sd} stride_height: ${sh} stride_width: ${sw} dilation_depth: ${dd} dilation_height: ${dh} dilation_width: ${dw}`,
    );
  }
  const out = [d, h, w].map(
    (v, i) =>
      (v - 1) * (p.stride[i] as number) -
      2 * (p.padding[i] as number) +
      (p.dilation[i] as number) * ((weight.sizes[i + 2] as number) - 1) +
      (p.outputPadding[i] as number) +
      1,
  ) as [number, number, number];
  if (out.some((v) => v < 1)) {
    throw new Error(
      `Given input size per channel: (${d} x ${h} x ${w}). Calculated output size per channel: (${out.join(' x ')}). Output size is too small`,
    );
  }
  const cout = cog * p.groups;
  const sizes = [n, cout, ...out];
  if (x.isMeta() || weight.isMeta()) return newStrided(sizes, contiguousStrides(sizes), x.scalarType, x.device);
  const x2 = at.reshape(at.permute(x, [0, 2, 1, 3, 4]), [n * d, cin, h, w]);
  const w2 = at.reshape(weight, [cin, cog * kD, kH, kW]);
  const y2 = aten().convolution.call(x2, w2, null, [sh, sw], [ph, pw], [dh, dw], true, [oph, opw], p.groups);
  const [, , oH, oW] = y2.sizes as [number, number, number, number];
  // The planes of input depth id land at depths id·sd + a·dd of the unpadded output: foldDepth with oD = d.
  let y = foldDepth(y2, n, d, cout, out[0], kD, sd, pd, dd);
  if (y.sizes[3] !== oH || y.sizes[4] !== oW) throw new Error('conv_transpose3d: internal size mismatch');
  if (bias !== null) y = at.add_Tensor(y, at.view(bias, [1, cout, 1, 1, 1]), 1);
  return at.contiguous(y);
}

/** The input gradient of a 3-d convolution: the 2-d input gradient of X' folded back. */
export function conv3dBackwardInput(grad: Tensor, input: Tensor, weight: Tensor, p: Conv3dParams): Tensor {
  const [n, c, d] = input.sizes as [number, number, number];
  const [o, cg, kD, kH, kW] = weight.sizes as [number, number, number, number, number];
  const [, , oD, oH, oW] = grad.sizes as [number, number, number, number, number];
  const x2 = unfoldDepth(input, kD, p.stride[0] as number, p.padding[0] as number, p.dilation[0] as number, oD);
  const g2 = at.reshape(at.permute(grad, [0, 2, 1, 3, 4]), [n * oD, o, oH, oW]);
  const w2 = at.reshape(weight, [o, cg * kD, kH, kW]);
  const gx2 = aten()._conv2d_backward_input.call(g2, x2, w2, p.stride.slice(1), p.padding.slice(1), p.dilation.slice(1), p.groups);
  return foldDepth(gx2, n, oD, c, d, kD, p.stride[0] as number, p.padding[0] as number, p.dilation[0] as number);
}

/** The weight gradient of a 3-d convolution: the 2-d weight gradient with X'. */
export function conv3dBackwardWeight(grad: Tensor, input: Tensor, weight: Tensor, p: Conv3dParams): Tensor {
  const [n] = input.sizes as [number];
  const [o, cg, kD, kH, kW] = weight.sizes as [number, number, number, number, number];
  const [, , oD, oH, oW] = grad.sizes as [number, number, number, number, number];
  const x2 = unfoldDepth(input, kD, p.stride[0] as number, p.padding[0] as number, p.dilation[0] as number, oD);
  const g2 = at.reshape(at.permute(grad, [0, 2, 1, 3, 4]), [n * oD, o, oH, oW]);
  const w2 = at.reshape(weight, [o, cg * kD, kH, kW]);
  const gw2 = aten()._conv2d_backward_weight.call(g2, x2, w2, p.stride.slice(1), p.padding.slice(1), p.dilation.slice(1), p.groups);
  return at.reshape(gw2, [...weight.sizes]);
}

/** Stride, padding, dilation of `_conv3d_backward_*`'s arguments: one int or three per list. */
function params3(stride: number[] | number, padding: number[] | number, dilation: number[] | number, groups: number): Conv3dParams {
  const three = (v: number[] | number): number[] => {
    const l = typeof v === 'number' ? [v] : v;
    return l.length === 1 ? [l[0]!, l[0]!, l[0]!] : [...l];
  };
  return { stride: three(stride), padding: three(padding), dilation: three(dilation), outputPadding: [0, 0, 0], groups };
}

/** `_conv3d_backward_input(grad_output, input, weight, stride, padding, dilation, groups)`: d loss / d input. */
export function conv3dBackwardInputKernel(
  _ks: DispatchKeySet,
  gradOutput: Tensor,
  input: Tensor,
  weight: Tensor,
  stride: number[] | number,
  padding: number[] | number,
  dilation: number[] | number,
  groups: number,
): Tensor {
  if (gradOutput.isMeta() || input.isMeta() || weight.isMeta())
    return newStrided([...input.sizes], contiguousStrides(input.sizes), input.scalarType, input.device);
  return conv3dBackwardInput(gradOutput, input, weight, params3(stride, padding, dilation, groups));
}

/** `_conv3d_backward_weight(grad_output, input, weight, stride, padding, dilation, groups)`: d loss / d weight. */
export function conv3dBackwardWeightKernel(
  _ks: DispatchKeySet,
  gradOutput: Tensor,
  input: Tensor,
  weight: Tensor,
  stride: number[] | number,
  padding: number[] | number,
  dilation: number[] | number,
  groups: number,
): Tensor {
  if (gradOutput.isMeta() || input.isMeta() || weight.isMeta())
    return newStrided([...weight.sizes], contiguousStrides(weight.sizes), weight.scalarType, weight.device);
  return conv3dBackwardWeight(gradOutput, input, weight, params3(stride, padding, dilation, groups));
}
