// The derivative helpers of the convolutions (Convolution.cpp, ConvolutionMM2d.ts): the bias gradient and the
// input / weight gradients through `_conv2d_backward_input` / `_conv2d_backward_weight` (transposed and 1-d
// convolutions included; 3-d ones through `_conv3d_backward_input` / `_conv3d_backward_weight`), and conv2d as the derivative of both with respect to the output gradient; the
// convolution_backward formulas of torch/csrc/autograd/FunctionsManual.cpp and derivatives.yaml. Re-exported by
// FunctionsManual.ts, where the generated autograd code imports every helper from.

import { aten } from '../generated/Operators.js';
import * as at from '../generated/TensorBody.js';
import type { Tensor } from '../tensor/Tensor.js';

/** convolution's bias gradient: the gradient summed over batch and space (every dim but the channels). */
export function conv2dBiasBackward(grad: Tensor): Tensor {
  return at.sum_dim_IntList(grad, [0, ...Array.from({ length: grad.dim() - 2 }, (_, i) => i + 2)], false);
}

/** conv2d's input gradient, through `_conv2d_backward_input` (Note [conv2d backward as operators]). */
export function conv2dBackwardInput(
  grad: Tensor,
  input: Tensor,
  weight: Tensor,
  stride: number[],
  padding: number[],
  dilation: number[],
  groups: number,
): Tensor {
  return aten()._conv2d_backward_input.call(grad, input, weight, stride, padding, dilation, groups);
}

/** conv2d's weight gradient, through `_conv2d_backward_weight`. */
export function conv2dBackwardWeight(
  grad: Tensor,
  input: Tensor,
  weight: Tensor,
  stride: number[],
  padding: number[],
  dilation: number[],
  groups: number,
): Tensor {
  return aten()._conv2d_backward_weight.call(grad, input, weight, stride, padding, dilation, groups);
}

/**
 * The 2-d view of a 1-d convolution's tensors and parameters (`view1d_as_2d`): [N, C, L] as [N, C, 1, L],
 * a leading height entry in every parameter list. 2-d convolutions pass through.
 */
function as2d(dim: number, ts: Tensor[], stride: number[], padding: number[], dilation: number[]) {
  if (dim !== 1) return { ts, stride, padding, dilation, back: (t: Tensor) => t };
  return {
    ts: ts.map((t) => at.unsqueeze(t, 2)),
    stride: [1, ...stride],
    padding: [0, ...padding],
    dilation: [1, ...dilation],
    back: (t: Tensor) => at.squeeze_dim(t, 2),
  };
}

/**
 * convolution's input gradient: `_conv2d_backward_input`, or for a transposed convolution the convolution of
 * the gradient with the same weight (Note [Transposed convolution as a gradient]).
 */
export function convolutionBackwardInput(
  grad: Tensor,
  input: Tensor,
  weight: Tensor,
  stride: number[],
  padding: number[],
  dilation: number[],
  transposed: boolean,
  groups: number,
): Tensor {
  if (weight.dim() === 5) return convolution3dBackwardInput(grad, input, weight, stride, padding, dilation, transposed, groups);
  const v = as2d(weight.dim() - 2, [grad, input, weight], stride, padding, dilation);
  const [g, x, w] = v.ts as [Tensor, Tensor, Tensor];
  if (transposed) {
    // With output_padding ≥ stride (allowed below the dilation) the convolution reaches past the input: keep its first rows.
    let r = aten().convolution.call(g, w, null, v.stride, v.padding, v.dilation, false, [0], groups);
    for (let d = 2; d < 4; d++) if (r.sizes[d] !== x.sizes[d]) r = at.narrow(r, d, 0, x.sizes[d] as number);
    return v.back(r);
  }
  return v.back(aten()._conv2d_backward_input.call(g, x, w, v.stride, v.padding, v.dilation, groups));
}

/** convolution's weight gradient: `_conv2d_backward_weight`, input and output gradient swapped when transposed. */
export function convolutionBackwardWeight(
  grad: Tensor,
  input: Tensor,
  weight: Tensor,
  stride: number[],
  padding: number[],
  dilation: number[],
  transposed: boolean,
  groups: number,
): Tensor {
  if (weight.dim() === 5) return convolution3dBackwardWeight(grad, input, weight, stride, padding, dilation, transposed, groups);
  const v = as2d(weight.dim() - 2, [grad, input, weight], stride, padding, dilation);
  const [g, x, w] = v.ts as [Tensor, Tensor, Tensor];
  if (transposed) return v.back(aten()._conv2d_backward_weight.call(x, g, w, v.stride, v.padding, v.dilation, groups));
  return v.back(aten()._conv2d_backward_weight.call(g, x, w, v.stride, v.padding, v.dilation, groups));
}

/** conv2d without bias (the derivative of both backward operators with respect to the output gradient). */
export function conv2dForward(
  input: Tensor,
  weight: Tensor,
  stride: number[],
  padding: number[],
  dilation: number[],
  groups: number,
): Tensor {
  return aten().conv2d.call(input, weight, null, stride, padding, dilation, groups);
}

/**
 * A 3-d convolution's input gradient (`convolution_backward` for a 5-d weight): the convolution of the gradient
 * for a transposed one, else `_conv3d_backward_input` (its CPU kernel: Note [3-d convolution as a 2-d one]; a
 * device registers its own). Both are differentiable operators, so double backward works.
 */
export function convolution3dBackwardInput(
  grad: Tensor,
  input: Tensor,
  weight: Tensor,
  stride: number[],
  padding: number[],
  dilation: number[],
  transposed: boolean,
  groups: number,
): Tensor {
  const [s, p, d] = [three(stride), three(padding), three(dilation)];
  if (transposed) {
    let r = aten().convolution.call(grad, weight, null, s, p, d, false, [0], groups);
    for (let i = 2; i < 5; i++) if (r.sizes[i] !== input.sizes[i]) r = at.narrow(r, i, 0, input.sizes[i] as number);
    return r;
  }
  return aten()._conv3d_backward_input.call(grad, input, weight, s, p, d, groups);
}

/** A 3-d convolution's weight gradient: `_conv3d_backward_weight`, input and output gradient swapped when transposed. */
export function convolution3dBackwardWeight(
  grad: Tensor,
  input: Tensor,
  weight: Tensor,
  stride: number[],
  padding: number[],
  dilation: number[],
  transposed: boolean,
  groups: number,
): Tensor {
  const [s, p, d] = [three(stride), three(padding), three(dilation)];
  if (transposed) return aten()._conv3d_backward_weight.call(input, grad, weight, s, p, d, groups);
  return aten()._conv3d_backward_weight.call(grad, input, weight, s, p, d, groups);
}

/** conv3d without bias (the derivative of `_conv3d_backward_*` with respect to the output gradient). */
export function conv3dForwardOf(
  input: Tensor,
  weight: Tensor,
  stride: number[],
  padding: number[],
  dilation: number[],
  groups: number,
): Tensor {
  return aten().convolution.call(input, weight, null, stride, padding, dilation, false, [0, 0, 0], groups);
}

/** `_conv3d_backward_input` (the derivative of `_conv3d_backward_weight` with respect to its input). */
export function conv3dBackwardInputOf(
  grad: Tensor,
  input: Tensor,
  weight: Tensor,
  stride: number[],
  padding: number[],
  dilation: number[],
  groups: number,
): Tensor {
  return aten()._conv3d_backward_input.call(grad, input, weight, stride, padding, dilation, groups);
}

/** `_conv3d_backward_weight` (the derivative of `_conv3d_backward_input` with respect to its weight). */
export function conv3dBackwardWeightOf(
  grad: Tensor,
  input: Tensor,
  weight: Tensor,
  stride: number[],
  padding: number[],
  dilation: number[],
  groups: number,
): Tensor {
  return aten()._conv3d_backward_weight.call(grad, input, weight, stride, padding, dilation, groups);
}

/** One int or three. */
function three(v: number[]): number[] {
  return v.length === 1 ? [v[0]!, v[0]!, v[0]!] : v;
}
