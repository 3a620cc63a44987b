// 2-D convolution: conv2d (CompositeImplicitAutograd), convolution with _convolution's checks, and the
// input/weight backward. Mirrors the shape rules and error texts of aten/src/ATen/native/Convolution.cpp and
// the direct (non-im2col) loops of ConvolutionMM2d.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { isFloatingType, notImplementedForDtype, scalarTypeToString } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';
import { contiguousStrides } from '../tensor/TensorImpl.js';
import { cppName } from './LinearAlgebra.js';
import { conv2dBackwardInputMM, conv2dBackwardWeightMM, conv2dForward } from './ConvolutionMM2d.js';
import { newStrided } from './TensorFactories.js';

export function pair(v: number[] | number, name: string): [number, number] {
  const a = typeof v === 'number' ? [v] : v;
  if (a.length === 1) return [a[0] as number, a[0] as number];
  if (a.length === 2) return [a[0] as number, a[1] as number];
  throw new Error(
    `expected ${name} to be a single integer value or a list of 2 values to match the convolution dimensions, but got ${name}=[${a.join(', ')}]`,
  );
}

/** 4-D [N, C, H, W], adding a batch dim to a 3-D input (PyTorch accepts unbatched inputs). */
export function batched(input: Tensor, op: string): { x: Tensor; unbatched: boolean } {
  if (input.dim() === 3) return { x: input.unsqueeze(0), unbatched: true };
  if (input.dim() === 4) return { x: input, unbatched: false };
  throw new Error(`Expected 3D (unbatched) or 4D (batched) input to ${op}, but got input of size: [${input.sizes.join(', ')}]`);
}

/** An int or list argument as a list (`SymInt[2] stride=1` reaches a kernel as either). */
export function listOf(v: number[] | number): number[] {
  return typeof v === 'number' ? [v] : v;
}

/**
 * `conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)`, CompositeImplicitAutograd as
 * in PyTorch (Convolution.cpp, conv2d_symint): the bias dtype check, an unbatched input gets a batch dim, then
 * `convolution` through the dispatcher (so autograd records ConvolutionBackward0) and the batch dim is
 * squeezed away again.
 */
export function conv2d(
  _ks: DispatchKeySet,
  input: Tensor,
  weight: Tensor,
  bias: Tensor | null = null,
  stride: number[] | number = 1,
  padding: number[] | number = 0,
  dilation: number[] | number = 1,
  groups = 1,
): Tensor {
  if (bias !== null && bias.dtype !== input.dtype) {
    throw new Error(`Input type (${cppName(input.dtype)}) and bias type (${cppName(bias.dtype)}) should be the same`);
  }
  const { x, unbatched } = batched(input, 'conv2d');
  const out = aten().convolution.call(x, weight, bias, listOf(stride), listOf(padding), listOf(dilation), false, [0, 0], groups);
  return unbatched ? out.squeeze(0) : out;
}

/** `expand_param_if_needed`: one value for every spatial dim, or exactly one per dim. */
function expandParam(v: number[], name: string, dim: number): number[] {
  if (v.length === 1) return new Array<number>(dim).fill(v[0] as number);
  if (v.length !== dim) {
    throw new Error(
      `expected ${name} to be a single integer value or a list of ${dim} values to match the convolution dimensions, but got ${name}=[${v.join(', ')}]`,
    );
  }
  return v;
}

/**
 * `convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups)`: the
 * checks of PyTorch's `_convolution` (parameter expansion, check_shape_forward) in its order, then the CPU
 * kernel's (slow_conv2d). 2-d (4-D weight), non-transposed convolutions only.
 */
export function convolution(
  _ks: DispatchKeySet,
  input: Tensor,
  weight: Tensor,
  bias: Tensor | null,
  stride: number[],
  padding: number[],
  dilation: number[],
  transposed: boolean,
  outputPadding: number[],
  groups: number,
): Tensor {
  const dim = weight.dim() - 2;
  if (dim <= 0) throw new Error('weight should have at least three dimensions');
  if (groups <= 0) throw new Error('non-positive groups is not supported');
  const [sh, sw] = expandParam(stride, 'stride', dim) as [number, number];
  const [ph, pw] = expandParam(padding, 'padding', dim) as [number, number];
  const [dh, dw] = expandParam(dilation, 'dilation', dim) as [number, number];
  const op = expandParam(outputPadding, 'output_padding', dim);
  if (ph < 0 || pw < 0) throw new Error('negative padding is not supported');
  if (op.some((v) => v < 0)) throw new Error('negative output_padding is not supported');
  if (sh <= 0 || sw <= 0) throw new Error('non-positive stride is not supported');
  if (dh < 0 || dw < 0) throw new Error('dilation should be greater than zero');
  const ws = weight.sizes.join(', ');
  if (weight.dim() !== input.dim()) {
    throw new Error(
      `Expected ${weight.dim()}-dimensional input for ${weight.dim()}-dimensional weight [${ws}], but got ${input.dim()}-dimensional input of size [${input.sizes.join(', ')}] instead`,
    );
  }
  if (transposed) throw new Error('convolution: transposed=True is not supported yet');
  if (dim !== 2) throw new Error(`convolution: only 2-d convolutions (4-D weight) are supported yet, got a ${weight.dim()}-D weight`);
  const x = input;
  const [n, c, h, w] = x.sizes as [number, number, number, number];
  const [o, cg, kh, kw] = weight.sizes as [number, number, number, number];
  if (o < groups)
    throw new Error(
      `Given groups=${groups}, expected weight to be at least ${groups} at dimension 0, but got weight of size [${ws}] instead`,
    );
  if (o % groups !== 0) {
    throw new Error(
      `Given groups=${groups}, expected weight to be divisible by ${groups} at dimension 0, but got weight of size [[${ws}]] instead`,
    );
  }
  if (cg * groups !== c) {
    throw new Error(
      `Given groups=${groups}, weight of size [${ws}], expected input[${x.sizes.join(', ')}] to have ${cg * groups} channels, but got ${c} channels instead`,
    );
  }
  if (bias !== null && (bias.dim() !== 1 || bias.sizes[0] !== o)) {
    throw new Error(
      `Given weight of size [${ws}], expected bias to be 1-dimensional with ${o} elements, but got bias of size [${bias.sizes.join(', ')}] instead`,
    );
  }
  const oh = Math.floor((h + 2 * ph - dh * (kh - 1) - 1) / sh) + 1;
  const ow = Math.floor((w + 2 * pw - dw * (kw - 1) - 1) / sw) + 1;
  if (oh <= 0 || ow <= 0) {
    throw new Error(
      `Calculated padded input size per channel: (${h + 2 * ph} x ${w + 2 * pw}). Kernel size: (${dh * (kh - 1) + 1} x ${dw * (kw - 1) + 1}). Kernel size can't be greater than actual input size`,
    );
  }
  if (weight.dtype !== x.dtype)
    throw new Error(`expected scalar type ${scalarTypeToString(x.dtype)} but found ${scalarTypeToString(weight.dtype)}`);
  if (!isFloatingType(x.dtype)) throw notImplementedForDtype('slow_conv2d_cpu', x.dtype);
  const sizes = [n, o, oh, ow];
  if (x.isMeta()) return newStrided(sizes, contiguousStrides(sizes), x.dtype, x.device);
  const geometry = { n, c, h, w, o, cg, kh, kw, oh, ow, sh, sw, ph, pw, dh, dw, groups };
  return conv2dForward(x, weight, bias, geometry);
}

// ---- backward (convolution_backward, max_pool2d_with_indices_backward, avg_pool2d_backward) -----------

// Note [conv2d backward as operators]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch computes conv2d's gradients with one operator, convolution_backward, whose own derivative
// (_convolution_double_backward) makes double backward work. aten-ts splits it into two operators,
// `_conv2d_backward_input` (the transposed convolution of the output gradient with the weight) and
// `_conv2d_backward_weight` (the correlation of the input with the output gradient). Both are linear in each
// argument, so their derivatives are again conv2d and these two operators (src/autograd/derivatives.yaml):
// the set is closed under differentiation and gradients of any order follow.

/** `_conv2d_backward_input(grad_output, input, weight, stride, padding, dilation, groups)`: d loss / d input. */
export function conv2dBackwardInput(
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
    return newStrided([...input.sizes], contiguousStrides(input.sizes), input.dtype, input.device);
  return conv2dBackward(gradOutput, input, weight, stride, padding, dilation, groups, 'input');
}

/** `_conv2d_backward_weight(grad_output, input, weight, stride, padding, dilation, groups)`: d loss / d weight. */
export function conv2dBackwardWeight(
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
    return newStrided([...weight.sizes], contiguousStrides(weight.sizes), weight.dtype, weight.device);
  return conv2dBackward(gradOutput, input, weight, stride, padding, dilation, groups, 'weight');
}

/** Which gradients of conv2d to compute: input, weight (bias is the gradient summed by the engine's caller). */
export function conv2dBackward(
  grad: Tensor,
  input: Tensor,
  weight: Tensor,
  stride: number[] | number,
  padding: number[] | number,
  dilation: number[] | number,
  groups: number,
  which: 'input' | 'weight',
): Tensor {
  const { x, unbatched } = batched(input, 'conv2d');
  const gb = unbatched ? grad.unsqueeze(0) : grad;
  const [n, c, h, w] = x.sizes as [number, number, number, number];
  const [o, cg, kh, kw] = weight.sizes as [number, number, number, number];
  const [sh, sw] = pair(stride, 'stride');
  const [ph, pw] = pair(padding, 'padding');
  const [dh, dw] = pair(dilation, 'dilation');
  const [, , oh, ow] = gb.sizes as [number, number, number, number];
  const geometry = { n, c, h, w, o, cg, kh, kw, oh, ow, sh, sw, ph, pw, dh, dw, groups };
  if (which === 'weight') return conv2dBackwardWeightMM(gb, x, geometry);
  const r = conv2dBackwardInputMM(gb, weight, geometry);
  return unbatched ? r.squeeze(0) : r;
}
