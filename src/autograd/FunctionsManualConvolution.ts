// The derivative helpers of the convolutions (Convolution.cpp, ConvolutionMM2d.ts): the bias gradient and the
// input / weight gradients through `_conv2d_backward_input` / `_conv2d_backward_weight` (transposed and 1-d
// convolutions included) or their 3-d twins, and the convolution as the derivative of both with respect to the
// output gradient; the
// convolution_backward formulas of torch/csrc/autograd/FunctionsManual.cpp and derivatives.yaml. Re-exported by
// FunctionsManual.ts, where the generated autograd code imports every helper from.

import { aten } from '../generated/Operators.js';
import * as at from '../generated/TensorBody.js';
import type { Tensor } from '../tensor/Tensor.js';

/** convolution's bias gradient: the gradient summed over batch and space (every dim but the channels). */
export function conv2dBiasBackward(grad: Tensor): Tensor {
  return at.sum_dim_IntList(grad, [0, ...Array.from({ length: grad.dim() - 2 }, (_, i) => i + 2)], false);
}

/** The backward operators of a 2-d or 3-d convolution (by its weight's rank: 4 or 5). */
function backwardOps(weight: Tensor) {
  const ops = aten();
  return weight.dim() === 5
    ? { input: ops._conv3d_backward_input, weight: ops._conv3d_backward_weight }
    : { input: ops._conv2d_backward_input, weight: ops._conv2d_backward_weight };
}

/** A 2-d or 3-d convolution's input gradient, through `_conv{2,3}d_backward_input` (Note [conv2d backward as operators]). */
export function convNdBackwardInput(
  grad: Tensor,
  input: Tensor,
  weight: Tensor,
  stride: number[],
  padding: number[],
  dilation: number[],
  groups: number,
): Tensor {
  return backwardOps(weight).input.call(grad, input, weight, stride, padding, dilation, groups);
}

/** A 2-d or 3-d convolution's weight gradient, through `_conv{2,3}d_backward_weight`. */
export function convNdBackwardWeight(
  grad: Tensor,
  input: Tensor,
  weight: Tensor,
  stride: number[],
  padding: number[],
  dilation: number[],
  groups: number,
): Tensor {
  return backwardOps(weight).weight.call(grad, input, weight, stride, padding, dilation, groups);
}

/** A 2-d or 3-d convolution without bias (the derivative of both backward operators with respect to the output gradient). */
export function convNdForward(
  input: Tensor,
  weight: Tensor,
  stride: number[],
  padding: number[],
  dilation: number[],
  groups: number,
): Tensor {
  return aten().convolution.call(input, weight, null, stride, padding, dilation, false, [0], groups);
}

/**
 * The tensors and parameters of a 1-d, 2-d or 3-d convolution as the backward operators take them: a 1-d one
 * viewed as 2-d (`view1d_as_2d`: [N, C, L] as [N, C, 1, L], a leading height entry in every parameter list), a
 * single value expanded to one per spatial dim; `back` undoes the view.
 */
function asBackwardOperands(ts: Tensor[], stride: number[], padding: number[], dilation: number[]) {
  const spatial = (ts[2] as Tensor).dim() - 2;
  if (spatial === 1) {
    return {
      ts: ts.map((t) => at.unsqueeze(t, 2)),
      stride: [1, ...stride],
      padding: [0, ...padding],
      dilation: [1, ...dilation],
      back: (t: Tensor) => at.squeeze_dim(t, 2),
    };
  }
  const all = (v: number[]): number[] => (v.length === 1 ? Array.from({ length: spatial }, () => v[0]!) : v);
  return { ts, stride: all(stride), padding: all(padding), dilation: all(dilation), back: (t: Tensor) => t };
}

/**
 * convolution's input gradient: `_conv{2,3}d_backward_input`, or for a transposed convolution the convolution of
 * the gradient with the same weight (Note [Transposed convolution as a gradient]). Both are differentiable
 * operators, so double backward works; a device registers its own kernels for them.
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
  const v = asBackwardOperands([grad, input, weight], stride, padding, dilation);
  const [g, x, w] = v.ts as [Tensor, Tensor, Tensor];
  if (transposed) {
    // With output_padding ≥ stride (allowed below the dilation) the convolution reaches past the input: keep its first rows.
    let r = convNdForward(g, w, v.stride, v.padding, v.dilation, groups);
    for (let d = 2; d < r.dim(); d++) if (r.sizes[d] !== x.sizes[d]) r = at.narrow(r, d, 0, x.sizes[d] as number);
    return v.back(r);
  }
  return v.back(convNdBackwardInput(g, x, w, v.stride, v.padding, v.dilation, groups));
}

/** convolution's weight gradient: `_conv{2,3}d_backward_weight`, input and output gradient swapped when transposed. */
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
  const v = asBackwardOperands([grad, input, weight], stride, padding, dilation);
  const [g, x, w] = v.ts as [Tensor, Tensor, Tensor];
  return v.back(convNdBackwardWeight(transposed ? x : g, transposed ? g : x, w, v.stride, v.padding, v.dilation, groups));
}
