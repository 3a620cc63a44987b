// 3-D average pooling: avg_pool3d and its backward. Mirrors aten/src/ATen/native/AveragePool3d.cpp and the
// contiguous 3-d loops of native/cpu/AvgPoolKernel.cpp: the window clipped to the padded input gives
// pool_size (count_include_pad), the window clipped to the input the taps; the sum accumulates in opmath
// (float for float32/float16/bfloat16, rounded after every addition; double; int64 with C++'s truncating
// division) and is divided by divisor_override, pool_size or the tap count.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isFloatingType, notImplementedForDtype } from '../c10/ScalarType.js';
import type { Tensor } from '../tensor/Tensor.js';
import { writeElement } from '../tensor/elements.js';
import { type Geometry3d, type Triple, geometry3d, triple } from './DilatedMaxPool3d.js';
import { contiguousOf, elementReader, emptyLike, storedElements } from './StorageAccess.js';

function avgPoolArgs(kernel: number[], stride: number[], padding: number[]): [Triple, Triple, Triple] {
  if (kernel.length !== 1 && kernel.length !== 3) throw new Error('avg_pool3d: kernel_size must be a single int, or a tuple of three ints');
  if (stride.length !== 0 && stride.length !== 1 && stride.length !== 3) {
    throw new Error('avg_pool3d: stride must be omitted, a single int, or a tuple of three ints');
  }
  if (padding.length !== 1 && padding.length !== 3) throw new Error('avg_pool3d: padding must be a single int, or a tuple of three ints');
  const k = triple(kernel);
  return [k, triple(stride, k), triple(padding)];
}

function setup(
  self: Tensor,
  kernel: number[],
  stride: number[],
  padding: number[],
  ceil: boolean,
  divisorOverride: number | null,
): Geometry3d {
  const [k, s, p] = avgPoolArgs(kernel, stride, padding);
  if (self.dim() !== 4 && self.dim() !== 5) throw new Error('non-empty 4D or 5D (batch mode) tensor expected for input');
  if (divisorOverride === 0) throw new Error('divisor must be not zero');
  return geometry3d(self, k, s, p, [1, 1, 1], ceil, 'avg_pool3d()', true);
}

/** Calls f(volume, outputOffset, taps, divisor) per output, taps the in-bounds input offsets (empty window: none). */
function forEachWindow(
  g: Geometry3d,
  includePad: boolean,
  divisorOverride: number | null,
  f: (n: number, oi: number, taps: number[], div: number) => void,
): void {
  const [T, H, W] = g.i;
  const [OT, OH, OW] = g.o;
  const taps: number[] = [];
  const bounds = (o: number, j: 0 | 1 | 2, size: number): [number, number, number] => {
    const a = o * (g.s[j] as number) - (g.p[j] as number);
    const b = Math.min(a + (g.k[j] as number), size + (g.p[j] as number));
    return [Math.max(a, 0), Math.min(b, size), b - a];
  };
  for (let n = 0; n < g.nc; n++) {
    for (let ot = 0; ot < OT; ot++) {
      const [t0, t1, pt] = bounds(ot, 0, T);
      for (let oh = 0; oh < OH; oh++) {
        const [h0, h1, ph] = bounds(oh, 1, H);
        for (let ow = 0; ow < OW; ow++) {
          const [w0, w1, pw] = bounds(ow, 2, W);
          taps.length = 0;
          for (let t = t0; t < t1; t++) for (let h = h0; h < h1; h++) for (let w = w0; w < w1; w++) taps.push(t * H * W + h * W + w);
          const div = divisorOverride ?? (includePad ? pt * ph * pw : (t1 - t0) * (h1 - h0) * (w1 - w0));
          f(n, (ot * OH + oh) * OW + ow, t0 >= t1 || h0 >= h1 || w0 >= w1 ? [] : taps, div);
        }
      }
    }
  }
}

/** The opmath rounding and the division of the dtype. */
function arithmetic(dtype: ScalarType, op: string): { r: (v: number) => number; div: (a: number, b: number) => number } {
  if (!isFloatingType(dtype) && dtype !== ScalarType.Long) throw notImplementedForDtype(op, dtype);
  if (dtype === ScalarType.Long) return { r: (v) => v, div: (a, b) => Math.trunc(a / b) };
  const r = dtype === ScalarType.Double ? (v: number): number => v : Math.fround;
  return { r, div: (a, b) => r(a / b) };
}

/** `avg_pool3d(self, kernel_size, stride=[], padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None)`. */
export function avgPool3d(
  _ks: DispatchKeySet,
  self: Tensor,
  kernel: number[],
  stride: number[] = [],
  padding: number[] = [0],
  ceil = false,
  countIncludePad = true,
  divisorOverride: number | null = null,
): Tensor {
  const g = setup(self, kernel, stride, padding, ceil, divisorOverride);
  const output = emptyLike(self, [...g.lead, ...g.o]);
  if (self.isMeta() || output.numel() === 0) return output;
  const { r, div } = arithmetic(self.scalarType, 'avg_pool3d_out_frame');
  const x = elementReader(contiguousOf(self));
  const y = storedElements(output);
  const inVol = g.i[0] * g.i[1] * g.i[2];
  const outVol = g.o[0] * g.o[1] * g.o[2];
  forEachWindow(g, countIncludePad, divisorOverride, (n, oi, taps, d) => {
    let sum = 0;
    for (const t of taps) sum = r(sum + x(n * inVol + t));
    writeElement(output.scalarType, y.data, y.base + (n * outVol + oi) * y.lanes, taps.length === 0 ? 0 : div(sum, d));
  });
  return output;
}

/** `avg_pool3d_backward(grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)`. */
export function avgPool3dBackward(
  _ks: DispatchKeySet,
  gradOutput: Tensor,
  self: Tensor,
  kernel: number[],
  stride: number[],
  padding: number[],
  ceil: boolean,
  countIncludePad: boolean,
  divisorOverride: number | null,
): Tensor {
  const g = setup(self, kernel, stride, padding, ceil, divisorOverride);
  const gradInput = emptyLike(self, [...self.sizes]);
  if (self.isMeta() || gradInput.numel() === 0) return gradInput;
  const { r, div } = arithmetic(self.scalarType, 'avg_pool3d_backward_out_frame');
  const go = elementReader(contiguousOf(gradOutput));
  const inVol = g.i[0] * g.i[1] * g.i[2];
  const outVol = g.o[0] * g.o[1] * g.o[2];
  const acc = new Float64Array(self.numel());
  forEachWindow(g, countIncludePad, divisorOverride, (n, oi, taps, d) => {
    const delta = div(go(n * outVol + oi), d);
    for (const t of taps) acc[n * inVol + t] = r((acc[n * inVol + t] as number) + delta);
  });
  const y = storedElements(gradInput);
  for (let e = 0; e < acc.length; e++) writeElement(gradInput.scalarType, y.data, y.base + e * y.lanes, acc[e] as number);
  return gradInput;
}
