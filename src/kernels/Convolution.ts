// 2-D convolution and pooling: conv2d (CompositeImplicitAutograd) and convolution, max_pool2d (CompositeImplicitAutograd),
// max_pool2d_with_indices and its backward, avg_pool2d. Mirrors the shape rules and error texts of
// aten/src/ATen/native/Convolution.cpp, Pooling.cpp, DilatedMaxPool2d.cpp, Pool.h (pooling_output_shape) and
// the direct (non-im2col) CPU loops.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isFloatingType, notImplementedForDtype, scalarTypeToString } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';
import { contiguousStrides } from '../tensor/TensorImpl.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';
import { cppName } from './LinearAlgebra.js';
import { numberValuesOf, tensorFromValues } from './rowMajor.js';
import { newStrided } from './TensorFactories.js';

function pair(v: number[] | number, name: string): [number, number] {
  const a = typeof v === 'number' ? [v] : v;
  if (a.length === 1) return [a[0] as number, a[0] as number];
  if (a.length === 2) return [a[0] as number, a[1] as number];
  throw new Error(`expected ${name} to be a single integer value or a list of 2 values to match the convolution dimensions, but got ${name}=[${a.join(', ')}]`);
}

/** 4-D [N, C, H, W], adding a batch dim to a 3-D input (PyTorch accepts unbatched inputs). */
function batched(input: Tensor, op: string): { x: Tensor; unbatched: boolean } {
  if (input.dim() === 3) return { x: input.unsqueeze(0), unbatched: true };
  if (input.dim() === 4) return { x: input, unbatched: false };
  throw new Error(`Expected 3D (unbatched) or 4D (batched) input to ${op}, but got input of size: [${input.sizes.join(', ')}]`);
}

/** An int or list argument as a list (`SymInt[2] stride=1` reaches a kernel as either). */
function listOf(v: number[] | number): number[] {
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
    throw new Error(`expected ${name} to be a single integer value or a list of ${dim} values to match the convolution dimensions, but got ${name}=[${v.join(', ')}]`);
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
  if (o < groups) throw new Error(`Given groups=${groups}, expected weight to be at least ${groups} at dimension 0, but got weight of size [${ws}] instead`);
  if (o % groups !== 0) {
    throw new Error(`Given groups=${groups}, expected weight to be divisible by ${groups} at dimension 0, but got weight of size [[${ws}]] instead`);
  }
  if (cg * groups !== c) {
    throw new Error(
      `Given groups=${groups}, weight of size [${ws}], expected input[${x.sizes.join(', ')}] to have ${cg * groups} channels, but got ${c} channels instead`,
    );
  }
  if (bias !== null && (bias.dim() !== 1 || bias.sizes[0] !== o)) {
    throw new Error(`Given weight of size [${ws}], expected bias to be 1-dimensional with ${o} elements, but got bias of size [${bias.sizes.join(', ')}] instead`);
  }
  const oh = Math.floor((h + 2 * ph - dh * (kh - 1) - 1) / sh) + 1;
  const ow = Math.floor((w + 2 * pw - dw * (kw - 1) - 1) / sw) + 1;
  if (oh <= 0 || ow <= 0) {
    throw new Error(
      `Calculated padded input size per channel: (${h + 2 * ph} x ${w + 2 * pw}). Kernel size: (${dh * (kh - 1) + 1} x ${dw * (kw - 1) + 1}). Kernel size can't be greater than actual input size`,
    );
  }
  if (weight.dtype !== x.dtype) throw new Error(`expected scalar type ${scalarTypeToString(x.dtype)} but found ${scalarTypeToString(weight.dtype)}`);
  if (!isFloatingType(x.dtype)) throw notImplementedForDtype('slow_conv2d_cpu', x.dtype);
  const sizes = [n, o, oh, ow];
  if (x.isMeta()) return newStrided(sizes, contiguousStrides(sizes), x.dtype, x.device);
  const X = numberValuesOf(x);
  const W = numberValuesOf(weight);
  const B = bias === null ? null : numberValuesOf(bias);
  const out = new Float64Array(n * o * oh * ow);
  const og = o / groups;
  for (let b = 0; b < n; b++) {
    for (let oc = 0; oc < o; oc++) {
      const g = Math.floor(oc / og);
      for (let i = 0; i < oh; i++) {
        for (let j = 0; j < ow; j++) {
          let s = B === null ? 0 : (B[oc] as number);
          for (let ic = 0; ic < cg; ic++) {
            const cin = g * cg + ic;
            for (let p = 0; p < kh; p++) {
              const y = i * sh - ph + p * dh;
              if (y < 0 || y >= h) continue;
              for (let q = 0; q < kw; q++) {
                const z = j * sw - pw + q * dw;
                if (z < 0 || z >= w) continue;
                s += (X[((b * c + cin) * h + y) * w + z] as number) * (W[((oc * cg + ic) * kh + p) * kw + q] as number);
              }
            }
          }
          out[((b * o + oc) * oh + i) * ow + j] = s;
        }
      }
    }
  }
  return tensorFromValues(x, sizes, x.dtype, out);
}

/** `pooling_output_shape`: floor or ceil mode, and a window starting in the padding does not count. */
function poolOut(size: number, k: number, pad: number, stride: number, dilation: number, ceil: boolean): number {
  const num = size + 2 * pad - dilation * (k - 1) - 1 + (ceil ? stride - 1 : 0);
  let out = Math.floor(num / stride) + 1;
  if (ceil && (out - 1) * stride >= size + pad) out--;
  return out;
}

/** PyTorch's pooling_output_shape checks (per dim, height first). */
function checkPoolDim(k: number, pad: number, stride: number, dilation: number): void {
  if (stride === 0) throw new Error('stride should not be zero');
  if (pad < 0) throw new Error(`pad must be non-negative, but got pad: ${pad}`);
  if (pad > Math.trunc(((k - 1) * dilation + 1) / 2)) {
    throw new Error(`pad should be at most half of effective kernel size, but got pad=${pad}, kernel_size=${k} and dilation=${dilation}`);
  }
}

/** PyTorch's pool2d_shape_check (before the output-size check). */
function checkPool(k: [number, number], s: [number, number], pad: [number, number], d: [number, number]): void {
  checkPoolDim(k[0], pad[0], s[0], d[0]);
  checkPoolDim(k[1], pad[1], s[1], d[1]);
  if (k[0] <= 0 || k[1] <= 0) throw new Error(`kernel size should be greater than zero, but got kH: ${k[0]} kW: ${k[1]}`);
  if (s[0] <= 0 || s[1] <= 0) throw new Error(`stride should be greater than zero, but got dH: ${s[0]} dW: ${s[1]}`);
  if (d[0] <= 0 || d[1] <= 0) throw new Error(`dilation should be greater than zero, but got dilationH: ${d[0]} dilationW: ${d[1]}`);
}

function pool(
  input: Tensor,
  kernel: number[] | number,
  stride: number[] | number,
  padding: number[] | number,
  dilation: number[] | number,
  ceil: boolean,
  op: 'avg_pool2d',
  reduce: (vals: number[], windowArea: number) => number,
): Tensor {
  // avg_pool2d reads input.size(-3) first (an IndexError below 3 dims).
  if (input.dim() < 3) maybeWrapDim(-3, input.dim());
  if (input.dim() > 4) {
    throw new Error(`Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:[${input.sizes.join(', ')}]`);
  }
  const { x, unbatched } = batched(input, op);
  const k = pair(kernel, 'kernel_size');
  const s = Array.isArray(stride) && stride.length === 0 ? k : pair(stride, 'stride');
  const p = pair(padding, 'padding');
  const d = pair(dilation, 'dilation');
  checkPool(k, s, p, d);
  const [n, c, h, w] = x.sizes as [number, number, number, number];
  const oh = poolOut(h, k[0], p[0], s[0], d[0], ceil);
  const ow = poolOut(w, k[1], p[1], s[1], d[1], ceil);
  if (oh <= 0 || ow <= 0) throw new Error(`Given input size: (${c}x${h}x${w}). Calculated output size: (${c}x${oh}x${ow}). Output size is too small`);
  const sizes = [n, c, oh, ow];
  if (x.isMeta()) return newStrided(unbatched ? sizes.slice(1) : sizes, contiguousStrides(unbatched ? sizes.slice(1) : sizes), x.dtype, x.device);
  const X = numberValuesOf(x);
  const out = new Float64Array(n * c * oh * ow);
  for (let bc = 0; bc < n * c; bc++) {
    for (let i = 0; i < oh; i++) {
      for (let j = 0; j < ow; j++) {
        const vals: number[] = [];
        const y0 = i * s[0] - p[0];
        const x0 = j * s[1] - p[1];
        // avg_pool2d's count_include_pad divisor: the window clipped to the padded input
        const area = (Math.min(y0 + k[0], h + p[0]) - y0) * (Math.min(x0 + k[1], w + p[1]) - x0);
        for (let a = 0; a < k[0]; a++) {
          const y = y0 + a * d[0];
          if (y < 0 || y >= h) continue;
          for (let b2 = 0; b2 < k[1]; b2++) {
            const z = x0 + b2 * d[1];
            if (z < 0 || z >= w) continue;
            vals.push(X[(bc * h + y) * w + z] as number);
          }
        }
        out[(bc * oh + i) * ow + j] = reduce(vals, area);
      }
    }
  }
  const r = tensorFromValues(x, sizes, x.dtype, out);
  return unbatched ? r.squeeze(0) : r;
}

/**
 * `max_pool2d(self, kernel_size, stride=[], padding=0, dilation=1, ceil_mode=False)`, CompositeImplicitAutograd
 * as in PyTorch (Pooling.cpp): the values of `max_pool2d_with_indices`, which PyTorch 2.13 calls on CPU
 * whether or not a gradient is needed, so autograd records MaxPool2DWithIndicesBackward0 and saves the indices.
 */
export function maxPool2d(
  _ks: DispatchKeySet,
  self: Tensor,
  kernelSize: number[] | number,
  stride: number[] | number = [],
  padding: number[] | number = 0,
  dilation: number[] | number = 1,
  ceilMode = false,
): Tensor {
  return aten().max_pool2d_with_indices.call(self, listOf(kernelSize), listOf(stride), listOf(padding), listOf(dilation), ceilMode)[0];
}

/** max_pool2d_with_indices's parameters, checked as its meta function checks them (DilatedMaxPool2d.cpp). */
function maxPoolParams(
  input: Tensor,
  kernel: number[] | number,
  stride: number[] | number,
  padding: number[] | number,
  dilation: number[] | number,
): { k: [number, number]; s: [number, number]; p: [number, number]; d: [number, number] } {
  const two = (v: number[], what: string, allowEmpty = false): [number, number] => {
    if (v.length !== 1 && v.length !== 2 && !(allowEmpty && v.length === 0)) throw new Error(`max_pool2d: ${what}`);
    return [v[0] as number, (v.length === 2 ? v[1] : v[0]) as number];
  };
  const k = two(listOf(kernel), 'kernel_size must either be a single int, or a tuple of two ints');
  const sl = listOf(stride);
  const s = sl.length === 0 ? k : two(sl, 'stride must either be omitted, a single int, or a tuple of two ints', true);
  const p = two(listOf(padding), 'padding must either be a single int, or a tuple of two ints');
  const d = two(listOf(dilation), 'dilation must be either a single int, or a tuple of two ints');
  if (input.dim() !== 3 && input.dim() !== 4) throw new Error('non-empty 3D or 4D (batch mode) tensor expected for input');
  checkPool(k, s, p, d);
  return { k, s, p, d };
}

/**
 * `max_pool2d_with_indices(self, kernel_size, stride=[], padding=0, dilation=1, ceil_mode=False) -> (Tensor,
 * Tensor)`: the maximum of each window and its index in the input plane (`y * W + x`). As PyTorch's CPU kernel
 * (cpu_max_pool): the running maximum starts at -inf at the window's first in-bounds element and is replaced
 * by a greater value or by a NaN (so NaN propagates, and the last NaN's index is kept).
 */
export function maxPool2dWithIndices(
  _ks: DispatchKeySet,
  self: Tensor,
  kernelSize: number[] | number,
  stride: number[] | number = [],
  padding: number[] | number = 0,
  dilation: number[] | number = 1,
  ceilMode = false,
): [Tensor, Tensor] {
  const { k, s, p, d } = maxPoolParams(self, kernelSize, stride, padding, dilation);
  const unbatched = self.dim() === 3;
  const nc = unbatched ? (self.sizes[0] as number) : (self.sizes[0] as number) * (self.sizes[1] as number);
  const c = self.sizes[self.dim() - 3] as number;
  const h = self.sizes[self.dim() - 2] as number;
  const w = self.sizes[self.dim() - 1] as number;
  const oh = poolOut(h, k[0], p[0], s[0], d[0], ceilMode);
  const ow = poolOut(w, k[1], p[1], s[1], d[1], ceilMode);
  if (oh <= 0 || ow <= 0) throw new Error(`Given input size: (${c}x${h}x${w}). Calculated output size: (${c}x${oh}x${ow}). Output size is too small`);
  const sizes = [...self.sizes.slice(0, self.dim() - 2), oh, ow];
  if (self.isMeta()) {
    return [
      newStrided(sizes, contiguousStrides(sizes), self.dtype, self.device),
      newStrided([...sizes], contiguousStrides(sizes), ScalarType.Long, self.device),
    ];
  }
  const X = numberValuesOf(self);
  const out = new Float64Array(nc * oh * ow);
  const ind = new Float64Array(nc * oh * ow);
  const [kh, kw] = k;
  const [dh, dw] = d;
  for (let i = 0; i < oh; i++) {
    let y0 = i * s[0] - p[0];
    const y1 = Math.min(y0 + (kh - 1) * dh + 1, h);
    while (y0 < 0) y0 += dh;
    for (let j = 0; j < ow; j++) {
      let x0 = j * s[1] - p[1];
      const x1 = Math.min(x0 + (kw - 1) * dw + 1, w);
      while (x0 < 0) x0 += dw;
      for (let plane = 0; plane < nc; plane++) {
        const base = plane * h * w;
        let maxIndex = y0 * w + x0;
        let maxVal = -Infinity;
        for (let y = y0; y < y1; y += dh) {
          for (let z = x0; z < x1; z += dw) {
            const idx = y * w + z;
            const v = X[base + idx] as number;
            if (v > maxVal || v !== v) {
              maxVal = v;
              maxIndex = idx;
            }
          }
        }
        const at = (plane * oh + i) * ow + j;
        out[at] = maxVal;
        ind[at] = maxIndex;
      }
    }
  }
  return [tensorFromValues(self, sizes, self.dtype, out), tensorFromValues(self, [...sizes], ScalarType.Long, ind)];
}

/**
 * `max_pool2d_with_indices_backward(grad_output, self, kernel_size, stride, padding, dilation, ceil_mode,
 * indices)`: each output's gradient added at the input position its index names (linear in grad_output; its
 * own derivative is a gather at the indices, `max_pool_double_backward`).
 */
export function maxPool2dWithIndicesBackward(
  _ks: DispatchKeySet,
  gradOutput: Tensor,
  self: Tensor,
  _kernelSize: number[],
  _stride: number[],
  _padding: number[],
  _dilation: number[],
  _ceilMode: boolean,
  indices: Tensor,
): Tensor {
  if (gradOutput.dim() !== indices.dim() || gradOutput.sizes.some((v, i) => v !== indices.sizes[i])) {
    throw new Error(`Expected grad_output and indices to have the same size, but got [${gradOutput.sizes.join(', ')}] and [${indices.sizes.join(', ')}]`);
  }
  const sizes = [...self.sizes];
  if (self.isMeta() || gradOutput.isMeta()) return newStrided(sizes, contiguousStrides(sizes), self.dtype, self.device);
  const hw = (self.sizes[self.dim() - 2] as number) * (self.sizes[self.dim() - 1] as number);
  const ohw = (gradOutput.sizes[gradOutput.dim() - 2] as number) * (gradOutput.sizes[gradOutput.dim() - 1] as number);
  const G = numberValuesOf(gradOutput);
  const I = numberValuesOf(indices);
  const gx = new Float64Array(self.numel);
  const planes = ohw === 0 ? 0 : G.length / ohw;
  for (let plane = 0; plane < planes; plane++) {
    for (let q = 0; q < ohw; q++) {
      const at = plane * hw + (I[plane * ohw + q] as number);
      gx[at] = (gx[at] as number) + (G[plane * ohw + q] as number);
    }
  }
  return tensorFromValues(self, sizes, self.dtype, gx);
}

/** `avg_pool2d(self, kernel_size, stride=[], padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None)`. */
export function avgPool2d(
  _ks: DispatchKeySet,
  self: Tensor,
  kernelSize: number[] | number,
  stride: number[] | number = [],
  padding: number[] | number = 0,
  ceilMode = false,
  countIncludePad = true,
  divisorOverride: number | null = null,
): Tensor {
  if (divisorOverride === 0) throw new Error('divisor must be not zero');
  return pool(self, kernelSize, stride, padding, 1, ceilMode, 'avg_pool2d', (v, area) => {
    let s = 0;
    for (const x of v) s += x;
    const divisor = divisorOverride ?? (countIncludePad ? area : v.length);
    return s / divisor;
  });
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
  if (gradOutput.isMeta() || input.isMeta() || weight.isMeta()) return newStrided([...input.sizes], contiguousStrides(input.sizes), input.dtype, input.device);
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
  if (gradOutput.isMeta() || input.isMeta() || weight.isMeta()) return newStrided([...weight.sizes], contiguousStrides(weight.sizes), weight.dtype, weight.device);
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
  const G = numberValuesOf(gb);
  const og = o / groups;
  if (which === 'input') {
    const W = numberValuesOf(weight);
    const gx = new Float64Array(n * c * h * w);
    for (let b = 0; b < n; b++) {
      for (let oc = 0; oc < o; oc++) {
        const g = Math.floor(oc / og);
        for (let i = 0; i < oh; i++) {
          for (let j = 0; j < ow; j++) {
            const go = G[((b * o + oc) * oh + i) * ow + j] as number;
            if (go === 0) continue;
            for (let ic = 0; ic < cg; ic++) {
              const cin = g * cg + ic;
              for (let p = 0; p < kh; p++) {
                const y = i * sh - ph + p * dh;
                if (y < 0 || y >= h) continue;
                for (let q = 0; q < kw; q++) {
                  const z = j * sw - pw + q * dw;
                  if (z < 0 || z >= w) continue;
                  {
                    const at = ((b * c + cin) * h + y) * w + z;
                    gx[at] = (gx[at] as number) + go * (W[((oc * cg + ic) * kh + p) * kw + q] as number);
                  }
                }
              }
            }
          }
        }
      }
    }
    const r = tensorFromValues(x, [n, c, h, w], x.dtype, gx);
    return unbatched ? r.squeeze(0) : r;
  }
  const X = numberValuesOf(x);
  const gw = new Float64Array(o * cg * kh * kw);
  for (let b = 0; b < n; b++) {
    for (let oc = 0; oc < o; oc++) {
      const g = Math.floor(oc / og);
      for (let i = 0; i < oh; i++) {
        for (let j = 0; j < ow; j++) {
          const go = G[((b * o + oc) * oh + i) * ow + j] as number;
          if (go === 0) continue;
          for (let ic = 0; ic < cg; ic++) {
            const cin = g * cg + ic;
            for (let p = 0; p < kh; p++) {
              const y = i * sh - ph + p * dh;
              if (y < 0 || y >= h) continue;
              for (let q = 0; q < kw; q++) {
                const z = j * sw - pw + q * dw;
                if (z < 0 || z >= w) continue;
                {
                  const at = ((oc * cg + ic) * kh + p) * kw + q;
                  gw[at] = (gw[at] as number) + go * (X[((b * c + cin) * h + y) * w + z] as number);
                }
              }
            }
          }
        }
      }
    }
  }
  return tensorFromValues(weight, [o, cg, kh, kw], weight.dtype, gw);
}

/**
 * `avg_pool2d_backward(grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
 * divisor_override)`: an operator, so that it has a derivative of its own (avg_pool2d again: it is linear in
 * the output gradient) and avg_pool2d is twice differentiable, as in PyTorch.
 */
export function avgPool2dBackward(
  _ks: DispatchKeySet,
  gradOutput: Tensor,
  self: Tensor,
  kernelSize: number[] | number,
  stride: number[] | number,
  padding: number[] | number,
  ceilMode: boolean,
  countIncludePad: boolean,
  divisorOverride: number | null = null,
): Tensor {
  if (gradOutput.isMeta() || self.isMeta()) return newStrided([...self.sizes], contiguousStrides(self.sizes), self.dtype, self.device);
  return pool2dBackward(gradOutput, self, kernelSize, stride, padding, 1, ceilMode, 'avg', countIncludePad, divisorOverride);
}

/**
 * Backward of avg_pool2d: each output's gradient is spread over its window by the same divisor as the forward.
 * (max_pool2d's is `max_pool2d_with_indices_backward`, above.)
 */
export function pool2dBackward(
  grad: Tensor,
  input: Tensor,
  kernel: number[] | number,
  stride: number[] | number,
  padding: number[] | number,
  _dilation: number[] | number,
  ceil: boolean,
  _mode: 'avg',
  countIncludePad = true,
  divisorOverride: number | null = null,
): Tensor {
  const { x, unbatched } = batched(input, 'avg_pool2d');
  const gb = unbatched ? grad.unsqueeze(0) : grad;
  const k = pair(kernel, 'kernel_size');
  const s = Array.isArray(stride) && stride.length === 0 ? k : pair(stride, 'stride');
  const p = pair(padding, 'padding');
  const [n, c, h, w] = x.sizes as [number, number, number, number];
  const [, , oh, ow] = gb.sizes as [number, number, number, number];
  const G = numberValuesOf(gb);
  const gx = new Float64Array(n * c * h * w);
  for (let bc = 0; bc < n * c; bc++) {
    for (let i = 0; i < oh; i++) {
      for (let j = 0; j < ow; j++) {
        const go = G[(bc * oh + i) * ow + j] as number;
        const y0 = i * s[0] - p[0];
        const x0 = j * s[1] - p[1];
        const area = (Math.min(y0 + k[0], h + p[0]) - y0) * (Math.min(x0 + k[1], w + p[1]) - x0);
        const ys = Math.max(y0, 0);
        const ye = Math.min(y0 + k[0], h);
        const xs = Math.max(x0, 0);
        const xe = Math.min(x0 + k[1], w);
        const divisor = divisorOverride ?? (countIncludePad ? area : (ye - ys) * (xe - xs));
        for (let y = ys; y < ye; y++) {
          for (let z = xs; z < xe; z++) {
            const at = (bc * h + y) * w + z;
            gx[at] = (gx[at] as number) + go / divisor;
          }
        }
      }
    }
  }
  const r = tensorFromValues(x, [n, c, h, w], x.dtype, gx);
  return unbatched ? r.squeeze(0) : r;
}
