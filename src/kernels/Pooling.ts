// 2-D pooling: max_pool2d (CompositeImplicitAutograd), max_pool2d_with_indices and its backward, avg_pool2d
// and its backward. Mirrors aten/src/ATen/native/Pooling.cpp, DilatedMaxPool2d.cpp, AveragePool2d.cpp and
// Pool.h (pooling_output_shape, pool2d_shape_check).

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';
import { contiguousStrides } from '../tensor/TensorImpl.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';
import { batched, listOf, pair } from './Convolution.js';
import { numberValuesOf, tensorFromValues } from './rowMajor.js';
import { newStrided } from './TensorFactories.js';

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
  if (oh <= 0 || ow <= 0)
    throw new Error(`Given input size: (${c}x${h}x${w}). Calculated output size: (${c}x${oh}x${ow}). Output size is too small`);
  const sizes = [n, c, oh, ow];
  if (x.isMeta())
    return newStrided(unbatched ? sizes.slice(1) : sizes, contiguousStrides(unbatched ? sizes.slice(1) : sizes), x.dtype, x.device);
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
  if (oh <= 0 || ow <= 0)
    throw new Error(`Given input size: (${c}x${h}x${w}). Calculated output size: (${c}x${oh}x${ow}). Output size is too small`);
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
    throw new Error(
      `Expected grad_output and indices to have the same size, but got [${gradOutput.sizes.join(', ')}] and [${indices.sizes.join(', ')}]`,
    );
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
