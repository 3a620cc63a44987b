// 2-D convolution: conv2d (CompositeImplicitAutograd), convolution with _convolution's checks, and the
// input/weight backward. Mirrors the shape rules and error texts of aten/src/ATen/native/Convolution.cpp and
// the direct (non-im2col) loops of ConvolutionMM2d.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { isFloatingType, notImplementedForDtype, scalarTypeToString } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';
import { channelsLastStrides, isStridesLikeChannelsLast } from '../tensor/TensorGeometry.js';
import { contiguousStrides } from '../tensor/TensorImpl.js';
import { cppName } from './LinearAlgebra.js';
import { conv2dIntegral, convTranspose2dIntegral, hasIntegralConv } from './ConvolutionInt.js';
import { conv3dForward, convTranspose3dForward } from './ConvolutionMM3d.js';
import { conv2dBackwardInputMM, conv2dBackwardWeightMM, conv2dForward, convTranspose2dForward } from './ConvolutionMM2d.js';
import { depthwiseBackwardInput, depthwiseBackwardWeight, depthwiseForward, isDepthwise } from './DepthwiseConvolution.js';
import { newStrided } from './TensorFactories.js';
import * as at from '../generated/TensorBody.js';

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
  if (input.dim() === 3) return { x: at.unsqueeze(input, 0), unbatched: true };
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
  if (bias !== null && bias.scalarType !== input.scalarType) {
    throw new Error(`Input type (${cppName(input.scalarType)}) and bias type (${cppName(bias.scalarType)}) should be the same`);
  }
  const { x, unbatched } = batched(input, 'conv2d');
  const out = aten().convolution.call(x, weight, bias, listOf(stride), listOf(padding), listOf(dilation), false, [0, 0], groups);
  return unbatched ? at.squeeze_dim(out, 0) : out;
}

/** `conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)`: conv2d's steps for [N, C, L]. */
export function conv1d(
  _ks: DispatchKeySet,
  input: Tensor,
  weight: Tensor,
  bias: Tensor | null = null,
  stride: number[] | number = 1,
  padding: number[] | number = 0,
  dilation: number[] | number = 1,
  groups = 1,
): Tensor {
  checkBiasType(input, bias);
  const { x, unbatched } = batchify(input, 1, 'conv1d');
  const out = aten().convolution.call(x, weight, bias, listOf(stride), listOf(padding), listOf(dilation), false, [0], groups);
  return unbatched ? at.squeeze_dim(out, 0) : out;
}

/** `conv1d.padding(..., str padding="valid", ...)`: padding 'same' or 'valid' (`_convolution_mode`). */
export function conv1dPadding(
  _ks: DispatchKeySet,
  input: Tensor,
  weight: Tensor,
  bias: Tensor | null = null,
  stride: number[] | number = 1,
  padding = 'valid',
  dilation: number[] | number = 1,
  groups = 1,
): Tensor {
  checkBiasType(input, bias);
  const { x, unbatched } = batchify(input, 1, 'conv1d');
  const out = convolutionMode(x, weight, bias, listOf(stride), padding, listOf(dilation), groups);
  return unbatched ? at.squeeze_dim(out, 0) : out;
}

/** `conv2d.padding(..., str padding="valid", ...)`. */
export function conv2dPadding(
  _ks: DispatchKeySet,
  input: Tensor,
  weight: Tensor,
  bias: Tensor | null = null,
  stride: number[] | number = 1,
  padding = 'valid',
  dilation: number[] | number = 1,
  groups = 1,
): Tensor {
  checkBiasType(input, bias);
  const { x, unbatched } = batchify(input, 2, 'conv2d');
  const out = convolutionMode(x, weight, bias, listOf(stride), padding, listOf(dilation), groups);
  return unbatched ? at.squeeze_dim(out, 0) : out;
}

/**
 * `_convolution_mode`: 'valid' is padding 0; 'same' (stride 1 only) pads each dim by dilation·(k − 1) in
 * total, half on each side, and when that total is odd pads a zero column on the high side first
 * (`_conv_padding_same`, which copies the input as PyTorch does).
 */
function convolutionMode(
  input: Tensor,
  weight: Tensor,
  bias: Tensor | null,
  stride: number[],
  padding: string,
  dilation: number[],
  groups: number,
): Tensor {
  const dim = weight.dim() - 2;
  if (padding === 'valid') return aten().convolution.call(input, weight, bias, stride, [0], dilation, false, [0], groups);
  if (padding !== 'same') throw new Error(`Invalid padding string: '${padding}'`);
  // convolution_same's checks, in its order.
  const k = weight.dim();
  if (k <= 2) throw new Error('weight should have at least three dimensions');
  if (groups <= 0) throw new Error('non-positive groups is not supported');
  if (k !== input.dim()) {
    throw new Error(
      `Expected ${k}-dimensional input for ${k}-dimensional weight[${weight.sizes.join(', ')}], but got ` +
        `${input.dim()}-dimensional input of size [${input.sizes.join(', ')}] instead`,
    );
  }
  if (stride.length !== dim && stride.length !== 1) throw new Error(`stride cannot broadcast to ${dim} dimensions`);
  if (dilation.length !== dim && dilation.length !== 1) throw new Error(`dilation cannot broadcast to ${dim} dimensions`);
  if (stride.some((s) => s !== 1)) throw new Error("padding='same' is not supported for strided convolutions");
  const left: number[] = [];
  let x = input;
  for (let i = 0; i < dim; i++) {
    const d = (dilation.length === 1 ? dilation[0] : dilation[i]) as number;
    const total = d * ((weight.sizes[i + 2] as number) - 1);
    left.push(Math.floor(total / 2));
    if (total % 2 !== 0) {
      // One more zero on the high side of spatial dim i (padding_r − padding_l = 1).
      const zs = [...x.sizes];
      zs[i + 2] = 1;
      x = aten().cat.call([x, aten().zeros.call(zs, x.scalarType, null, x.device, null)], i + 2);
    }
  }
  return aten().convolution.call(x, weight, bias, stride, left, dilation, false, [0], groups);
}

/** `conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)`: conv2d's steps for [N, C, D, H, W]. */
export function conv3d(
  _ks: DispatchKeySet,
  input: Tensor,
  weight: Tensor,
  bias: Tensor | null = null,
  stride: number[] | number = 1,
  padding: number[] | number = 0,
  dilation: number[] | number = 1,
  groups = 1,
): Tensor {
  checkBiasType(input, bias);
  const { x, unbatched } = batchify(input, 3, 'conv3d');
  const out = aten().convolution.call(x, weight, bias, listOf(stride), listOf(padding), listOf(dilation), false, [0], groups);
  return unbatched ? at.squeeze_dim(out, 0) : out;
}

/** `conv3d.padding(..., str padding="valid", ...)`. */
export function conv3dPadding(
  _ks: DispatchKeySet,
  input: Tensor,
  weight: Tensor,
  bias: Tensor | null = null,
  stride: number[] | number = 1,
  padding = 'valid',
  dilation: number[] | number = 1,
  groups = 1,
): Tensor {
  checkBiasType(input, bias);
  const { x, unbatched } = batchify(input, 3, 'conv3d');
  const out = convolutionMode(x, weight, bias, listOf(stride), padding, listOf(dilation), groups);
  return unbatched ? at.squeeze_dim(out, 0) : out;
}

/** conv_transpose1d/2d/3d: `convolution(transposed=True)` on the batched input, unbatched back. */
function convTransposeNd(
  dims: number,
  name: string,
  input: Tensor,
  weight: Tensor,
  bias: Tensor | null,
  stride: number[] | number,
  padding: number[] | number,
  outputPadding: number[] | number,
  groups: number,
  dilation: number[] | number,
): Tensor {
  const { x, unbatched } = batchify(input, dims, name);
  const out = aten().convolution.call(
    x,
    weight,
    bias,
    listOf(stride),
    listOf(padding),
    listOf(dilation),
    true,
    listOf(outputPadding),
    groups,
  );
  return unbatched ? at.squeeze_dim(out, 0) : out;
}

/** `conv_transpose3d.input(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1)`. */
export function convTranspose3d(
  _ks: DispatchKeySet,
  input: Tensor,
  weight: Tensor,
  bias: Tensor | null = null,
  stride: number[] | number = 1,
  padding: number[] | number = 0,
  outputPadding: number[] | number = 0,
  groups = 1,
  dilation: number[] | number = 1,
): Tensor {
  return convTransposeNd(3, 'conv_transpose3d', input, weight, bias, stride, padding, outputPadding, groups, dilation);
}

/** `conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1)`. */
export function convTranspose1d(
  _ks: DispatchKeySet,
  input: Tensor,
  weight: Tensor,
  bias: Tensor | null = null,
  stride: number[] | number = 1,
  padding: number[] | number = 0,
  outputPadding: number[] | number = 0,
  groups = 1,
  dilation: number[] | number = 1,
): Tensor {
  return convTransposeNd(1, 'conv_transpose1d', input, weight, bias, stride, padding, outputPadding, groups, dilation);
}

/** `conv_transpose2d.input(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1)`. */
export function convTranspose2d(
  _ks: DispatchKeySet,
  input: Tensor,
  weight: Tensor,
  bias: Tensor | null = null,
  stride: number[] | number = 1,
  padding: number[] | number = 0,
  outputPadding: number[] | number = 0,
  groups = 1,
  dilation: number[] | number = 1,
): Tensor {
  return convTransposeNd(2, 'conv_transpose2d', input, weight, bias, stride, padding, outputPadding, groups, dilation);
}

function checkBiasType(input: Tensor, bias: Tensor | null): void {
  if (bias !== null && bias.scalarType !== input.scalarType) {
    throw new Error(`Input type (${cppName(input.scalarType)}) and bias type (${cppName(bias.scalarType)}) should be the same`);
  }
}

/** `batchify`: an unbatched input (one dim fewer) gets a batch dim. */
function batchify(input: Tensor, spatial: number, op: string): { x: Tensor; unbatched: boolean } {
  const d = spatial + 2;
  if (input.dim() === d - 1) return { x: at.unsqueeze(input, 0), unbatched: true };
  if (input.dim() === d) return { x: input, unbatched: false };
  throw new Error(`Expected ${d - 1}D (unbatched) or ${d}D (batched) input to ${op}, but got input of size: [${input.sizes.join(', ')}]`);
}

// Note [Channels-last convolution output]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's CPU convolutions (mkldnn, slow_conv2d, slow_conv_transpose2d) compute in channels-last when the
// input's or the weight's suggest_memory_format() is ChannelsLast (thnn_conv_use_channels_last), and their
// results then have channels-last strides. The kernels here compute in NCHW and give such results
// channels-last strides afterwards (a copy), so that strides, and everything that follows them (the
// layout of later pointwise results, of gradients), match PyTorch.

/** `out` with channels-last strides when `x` or `weight` suggests that format (Note [Channels-last convolution output]). */
function withLayoutOf(out: Tensor, x: Tensor, weight: Tensor): Tensor {
  if (out.dim() !== 4 || !(isStridesLikeChannelsLast(x) || isStridesLikeChannelsLast(weight))) return out;
  const cl = newStrided([...out.sizes], channelsLastStrides(out.sizes), out.scalarType, out.device);
  if (out.isMeta()) return cl;
  aten().copy_.call(cl, out, false);
  out.dispose();
  return cl;
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
 * checks of PyTorch's `_convolution` (parameter expansion, check_shape_forward) in its order, then a 1-d
 * convolution is viewed as a 2-d one of height 1 (`view1d_as_2d`, as PyTorch's slow and mkldnn paths do) and
 * the CPU kernel runs: slow_conv2d, or for `transposed` slow_conv_transpose2d (See Note [Transposed
 * convolution as a gradient]).
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
  const st = expandParam(stride, 'stride', dim);
  const pd = expandParam(padding, 'padding', dim);
  const dl = expandParam(dilation, 'dilation', dim);
  const op = expandParam(outputPadding, 'output_padding', dim);
  if (pd.some((v) => v < 0)) throw new Error('negative padding is not supported');
  if (op.some((v) => v < 0)) throw new Error('negative output_padding is not supported');
  if (st.some((v) => v <= 0)) throw new Error('non-positive stride is not supported');
  if (dl.some((v) => v < 0)) throw new Error('dilation should be greater than zero');
  const ws = weight.sizes.join(', ');
  if (weight.dim() !== input.dim()) {
    throw new Error(
      `Expected ${weight.dim()}-dimensional input for ${weight.dim()}-dimensional weight [${ws}], but got ${input.dim()}-dimensional input of size [${input.sizes.join(', ')}] instead`,
    );
  }
  const wsz = weight.sizes;
  const o0 = wsz[0] as number;
  if (o0 < groups)
    throw new Error(
      `Given groups=${groups}, expected weight to be at least ${groups} at dimension 0, but got weight of size [${ws}] instead`,
    );
  if (o0 % groups !== 0) {
    throw new Error(
      `Given groups=${groups}, expected weight to be divisible by ${groups} at dimension 0, but got weight of size [[${ws}]] instead`,
    );
  }
  const c = input.sizes[1] as number;
  const xs = input.sizes.join(', ');
  if (!transposed) {
    const cg = wsz[1] as number;
    if (cg * groups !== c) {
      throw new Error(
        `Given groups=${groups}, weight of size [${ws}], expected input[${xs}] to have ${cg * groups} channels, but got ${c} channels instead`,
      );
    }
    if (bias !== null && (bias.dim() !== 1 || bias.sizes[0] !== o0)) {
      throw new Error(
        `Given weight of size [${ws}], expected bias to be 1-dimensional with ${o0} elements, but got bias of size [${bias.sizes.join(', ')}] instead`,
      );
    }
    const padded = pd.map((p, i) => (input.sizes[i + 2] as number) + 2 * p);
    const kernel = dl.map((d, i) => d * ((wsz[i + 2] as number) - 1) + 1);
    if (padded.some((p, i) => p < (kernel[i] as number))) {
      throw new Error(
        `Calculated padded input size per channel: (${padded.join(' x ')}). Kernel size: (${kernel.join(' x ')}). Kernel size can't be greater than actual input size`,
      );
    }
  } else {
    if (c !== o0) {
      throw new Error(
        `Given transposed=1, weight of size [${ws}], expected input[${xs}] to have ${o0} channels, but got ${c} channels instead`,
      );
    }
    const outC = (wsz[1] as number) * groups;
    if (bias !== null && (bias.dim() !== 1 || bias.sizes[0] !== outC)) {
      throw new Error(
        `Given transposed=1, weight of size [${ws}], expected bias to be 1-dimensional with ${outC} elements, but got bias of size [${bias.sizes.join(', ')}] instead`,
      );
    }
  }
  if (dim > 3) throw new Error(`convolution: only 1-d, 2-d and 3-d convolutions are supported, got a ${weight.dim()}-D weight`);
  if (dim === 3) {
    // slow_conv3d / slow_conv_transpose3d (See Note [3-d convolution as a 2-d one]).
    if (weight.scalarType !== input.scalarType)
      throw new Error(`expected scalar type ${scalarTypeToString(input.scalarType)} but found ${scalarTypeToString(weight.scalarType)}`);
    const p = { stride: st, padding: pd, dilation: dl, outputPadding: op, groups };
    return transposed ? convTranspose3dForward(input, weight, bias, p) : conv3dForward(input, weight, bias, p);
  }
  if (dim === 1) {
    // view1d_as_2d: [N, C, L] as [N, C, 1, L], every parameter gets a leading height entry.
    const out = convolution2d(
      at.unsqueeze(at.contiguous(input), 2),
      at.unsqueeze(weight, 2),
      bias,
      [1, ...st],
      [0, ...pd],
      [1, ...dl],
      transposed,
      [0, ...op],
      groups,
    );
    return at.squeeze_dim(out, 2);
  }
  return convolution2d(input, weight, bias, st, pd, dl, transposed, op, groups);
}

/** The 2-d CPU kernels: slow_conv2d, slow_conv_transpose2d (checks, output size, Meta). */
function convolution2d(
  x: Tensor,
  weight: Tensor,
  bias: Tensor | null,
  stride: number[],
  padding: number[],
  dilation: number[],
  transposed: boolean,
  outputPadding: number[],
  groups: number,
): Tensor {
  const [sh, sw] = stride as [number, number];
  const [ph, pw] = padding as [number, number];
  const [dh, dw] = dilation as [number, number];
  const [oph, opw] = outputPadding as [number, number];
  const [n, c, h, w] = x.sizes as [number, number, number, number];
  const [w0, w1, kh, kw] = weight.sizes as [number, number, number, number];
  if (weight.scalarType !== x.scalarType)
    throw new Error(`expected scalar type ${scalarTypeToString(x.scalarType)} but found ${scalarTypeToString(weight.scalarType)}`);
  if (!transposed) {
    const oh = Math.floor((h + 2 * ph - dh * (kh - 1) - 1) / sh) + 1;
    const ow = Math.floor((w + 2 * pw - dw * (kw - 1) - 1) / sw) + 1;
    if (!isFloatingType(x.scalarType) && !hasIntegralConv(x.scalarType, false))
      throw notImplementedForDtype('slow_conv2d_cpu', x.scalarType);
    const sizes = [n, w0, oh, ow];
    if (x.isMeta()) return withLayoutOf(newStrided(sizes, contiguousStrides(sizes), x.scalarType, x.device), x, weight);
    const geometry = { n, c, h, w, o: w0, cg: w1, kh, kw, oh, ow, sh, sw, ph, pw, dh, dw, groups };
    if (!isFloatingType(x.scalarType)) return withLayoutOf(conv2dIntegral(x, weight, bias, geometry), x, weight);
    const out = isDepthwise(geometry) ? depthwiseForward(x, weight, bias, geometry) : conv2dForward(x, weight, bias, geometry);
    return withLayoutOf(out, x, weight);
  }
  if (!(oph < sh || oph < dh) || !(opw < sw || opw < dw)) {
    throw new Error(
      `output padding must be smaller than either stride or dilation, but got output_padding_height: ${oph} output_padding_width: ${opw} stride_height: ${sh} stride_width: ${sw} dilation_height: ${dh} dilation_width: ${dw}`,
    );
  }
  if (dh <= 0 || dw <= 0) {
    throw new Error(`dilation should be greater than zero, but got dilation_height: ${dh}, dilation_width: ${dw}`);
  }
  const oh = (h - 1) * sh - 2 * ph + dh * (kh - 1) + oph + 1;
  const ow = (w - 1) * sw - 2 * pw + dw * (kw - 1) + opw + 1;
  if (oh < 1 || ow < 1) {
    throw new Error(
      `Given input size per channel: (${h} x ${w}). Calculated output size per channel: (${oh} x ${ow}). Output size is too small`,
    );
  }
  if (!isFloatingType(x.scalarType) && !hasIntegralConv(x.scalarType, true))
    throw notImplementedForDtype('slow_conv_transpose2d_out_cpu', x.scalarType);
  const sizes = [n, w1 * groups, oh, ow];
  if (x.isMeta()) return withLayoutOf(newStrided(sizes, contiguousStrides(sizes), x.scalarType, x.device), x, weight);
  // The gradient geometry of the convolution this one transposes: its input is our output.
  const geometry = { n, c: w1 * groups, h: oh, w: ow, o: c, cg: w1, kh, kw, oh: h, ow: w, sh, sw, ph, pw, dh, dw, groups };
  if (!isFloatingType(x.scalarType)) return withLayoutOf(convTranspose2dIntegral(x, weight, bias, geometry), x, weight);
  return withLayoutOf(convTranspose2dForward(x, weight, bias, geometry), x, weight);
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
    return newStrided([...input.sizes], contiguousStrides(input.sizes), input.scalarType, input.device);
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
    return newStrided([...weight.sizes], contiguousStrides(weight.sizes), weight.scalarType, weight.device);
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
  const gb = unbatched ? at.unsqueeze(grad, 0) : grad;
  const [n, c, h, w] = x.sizes as [number, number, number, number];
  const [o, cg, kh, kw] = weight.sizes as [number, number, number, number];
  const [sh, sw] = pair(stride, 'stride');
  const [ph, pw] = pair(padding, 'padding');
  const [dh, dw] = pair(dilation, 'dilation');
  const [, , oh, ow] = gb.sizes as [number, number, number, number];
  const geometry = { n, c, h, w, o, cg, kh, kw, oh, ow, sh, sw, ph, pw, dh, dw, groups };
  // See Note [Depthwise convolution without im2col].
  const depthwise = isDepthwise(geometry);
  if (which === 'weight') return depthwise ? depthwiseBackwardWeight(gb, x, geometry) : conv2dBackwardWeightMM(gb, x, geometry);
  const r = depthwise ? depthwiseBackwardInput(gb, weight, geometry) : conv2dBackwardInputMM(gb, weight, geometry);
  return unbatched ? at.squeeze_dim(r, 0) : r;
}
