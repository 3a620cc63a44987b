// 3-D max pooling: max_pool3d (CompositeImplicitAutograd), max_pool3d_with_indices and its backward, and the
// 3-D geometry shared with AveragePool3d.ts (pool3d_shape_check of Pool.h). Mirrors
// aten/src/ATen/native/DilatedMaxPool3d.cpp and the contiguous 3-d loops of native/cpu/MaxPoolKernel.cpp:
// each window's running maximum starts at -inf with its first in-bounds index, a greater value or a NaN
// replaces it; indices are offsets t·H·W + h·W + w in the input volume. Values are read as numbers and stored
// back in the dtype (max pooling rounds nothing).

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isFloatingType, isIntegralType, notImplementedForDtype } from '../c10/ScalarType.js';
import type { Tensor } from '../tensor/Tensor.js';
import { writeElement } from '../tensor/elements.js';
import { listOf } from './Convolution.js';
import { poolOut } from './Pooling.js';
import { contiguousOf, elementReader, emptyLike, storedElements } from './StorageAccess.js';
import * as at from '../generated/TensorBody.js';

export type Triple = [number, number, number];

/** A 3-d pooling problem over `nc` volumes of t × h × w, giving volumes of ot × oh × ow. */
export interface Geometry3d {
  nc: number;
  lead: number[];
  i: Triple;
  o: Triple;
  k: Triple;
  s: Triple;
  p: Triple;
  d: Triple;
}

/** One int or three: the triple (`kernel_size.size() == 1 ? kT : kernel_size[1]`). */
export function triple(v: number[] | number, fallback?: Triple): Triple {
  const l = listOf(v);
  if (l.length === 0 && fallback !== undefined) return fallback;
  return [l[0] as number, (l.length === 3 ? l[1] : l[0]) as number, (l.length === 3 ? l[2] : l[0]) as number];
}

/** The output size per dim (`pooling_output_shape`), then `pool3d_shape_check`. */
export function geometry3d(
  input: Tensor,
  k: Triple,
  s: Triple,
  p: Triple,
  d: Triple,
  ceil: boolean,
  fn: string,
  checkInputSize: boolean,
): Geometry3d {
  const nd = input.dim();
  const z = input.sizes;
  const i: Triple = [z[nd - 3] as number, z[nd - 2] as number, z[nd - 1] as number];
  const nslices = z[nd - 4] as number;
  const o = [0, 1, 2].map((j) => poolOut(i[j] as number, k[j] as number, p[j] as number, s[j] as number, d[j] as number, ceil)) as Triple;
  if (!k.every((v) => v > 0)) throw new Error(`kernel size should be greater than zero, but got kT: ${k[0]} kH: ${k[1]} kW: ${k[2]}`);
  if (!s.every((v) => v > 0)) throw new Error(`stride should be greater than zero, but got dT: ${s[0]} dH: ${s[1]} dW: ${s[2]}`);
  if (!d.every((v) => v > 0)) {
    throw new Error(`dilation should be greater than zero, got dilationT: ${d[0]} dilationH: ${d[1]} dilationW: ${d[2]}`);
  }
  if (nd !== 4 && nd !== 5) throw new Error(`${fn}: Expected 4D or 5D tensor for input, but got: [${z.join(', ')}]`);
  for (let j = 0; j < nd; j++) {
    if (nd === 5 && j === 0) continue;
    if (!((z[j] as number) > 0)) {
      throw new Error(
        `${fn}: Expected input's non-batch dimensions to have positive length, but input has a shape of [${z.join(', ')}] and non-batch dimension ${z[j]} has length zero!`,
      );
    }
  }
  if (checkInputSize && !(i[0] >= k[0] && i[1] >= k[1] && i[2] >= k[2])) {
    throw new Error(`input image (T: ${i[0]} H: ${i[1]} W: ${i[2]}) smaller than kernel size (kT: ${k[0]} kH: ${k[1]} kW: ${k[2]})`);
  }
  if (!(Math.trunc(k[0] / 2) >= p[0] && Math.trunc(k[2] / 2) >= p[2] && Math.trunc(k[1] / 2) >= p[1])) {
    throw new Error(
      `pad should be smaller than or equal to half of kernel size, but got kT: ${k[0]} kW: ${k[2]} kH: ${k[1]} padT: ${p[0]} padW: ${p[2]} padH: ${p[1]}`,
    );
  }
  if (!(o[0] >= 1 && o[2] >= 1 && o[1] >= 1)) {
    throw new Error(
      `Given input size: (${nslices}x${i.join('x')}). Calculated output size: (${nslices}x${o.join('x')}). Output size is too small`,
    );
  }
  const lead = z.slice(0, nd - 3);
  return { nc: lead.reduce((a, b) => a * b, 1), lead, i, o, k, s, p, d };
}

function maxPoolArgs(kernel: number[], stride: number[], padding: number[], dilation: number[]): [Triple, Triple, Triple, Triple] {
  if (kernel.length !== 1 && kernel.length !== 3)
    throw new Error('max_pool3d: kernel_size must either be a single int, or a tuple of three ints');
  if (stride.length !== 0 && stride.length !== 1 && stride.length !== 3) {
    throw new Error('max_pool3d: stride must either be omitted, a single int, or a tuple of three ints');
  }
  if (padding.length !== 1 && padding.length !== 3)
    throw new Error('max_pool3d: padding must either be a single int, or a tuple of three ints');
  if (dilation.length !== 1 && dilation.length !== 3)
    throw new Error('max_pool3d: dilation must be either a single int, or a tuple of three ints');
  const k = triple(kernel);
  return [k, triple(stride, k), triple(padding), triple(dilation)];
}

/** The window of output position o along one dim: its in-bounds taps start, end (exclusive) and step. */
function window(o: number, s: number, p: number, k: number, d: number, size: number): [number, number] {
  let start = o * s - p;
  const end = Math.min(start + (k - 1) * d + 1, size);
  while (start < 0) start += d;
  return [start, end];
}

/** Calls f(volume, outputOffset, inputOffset) for every tap of every output, in cpu_max_pool's order. */
function forEachWindow(g: Geometry3d, f: (n: number, oi: number, taps: number[]) => void): void {
  const [T, H, W] = g.i;
  const [OT, OH, OW] = g.o;
  const taps: number[] = [];
  for (let n = 0; n < g.nc; n++) {
    for (let ot = 0; ot < OT; ot++) {
      const [t0, t1] = window(ot, g.s[0], g.p[0], g.k[0], g.d[0], T);
      for (let oh = 0; oh < OH; oh++) {
        const [h0, h1] = window(oh, g.s[1], g.p[1], g.k[1], g.d[1], H);
        for (let ow = 0; ow < OW; ow++) {
          const [w0, w1] = window(ow, g.s[2], g.p[2], g.k[2], g.d[2], W);
          taps.length = 0;
          taps.push(t0 * H * W + h0 * W + w0);
          for (let t = t0; t < t1; t += g.d[0])
            for (let h = h0; h < h1; h += g.d[1]) for (let w = w0; w < w1; w += g.d[2]) taps.push(t * H * W + h * W + w);
          f(n, (ot * OH + oh) * OW + ow, taps);
        }
      }
    }
  }
}

/** `max_pool3d(self, kernel_size, stride=[], padding=0, dilation=1, ceil_mode=False)`: the values of max_pool3d_with_indices. */
export function maxPool3d(
  _ks: DispatchKeySet,
  self: Tensor,
  kernel: number[],
  stride: number[] = [],
  padding: number[] = [0],
  dilation: number[] = [1],
  ceil = false,
): Tensor {
  return at.max_pool3d_with_indices(self, kernel, stride, padding, dilation, ceil)[0];
}

/** AT_DISPATCH_ALL_TYPES_AND2(Half, BFloat16): no bool, no complex. */
function checkDtype(self: Tensor, op: string): void {
  const t = self.scalarType;
  if (!isFloatingType(t) && !isIntegralType(t, false)) throw notImplementedForDtype(op, t);
}

/** `max_pool3d_with_indices(self, kernel_size, stride=[], padding=0, dilation=1, ceil_mode=False) -> (output, indices)`. */
export function maxPool3dWithIndices(
  _ks: DispatchKeySet,
  self: Tensor,
  kernel: number[],
  stride: number[] = [],
  padding: number[] = [0],
  dilation: number[] = [1],
  ceil = false,
): [Tensor, Tensor] {
  const [k, s, p, d] = maxPoolArgs(kernel, stride, padding, dilation);
  if (self.dim() !== 4 && self.dim() !== 5) throw new Error('non-empty 4D or 5D (batch mode) tensor expected for input');
  const g = geometry3d(self, k, s, p, d, ceil, 'max_pool3d_with_indices_out_cpu_template()', false);
  const output = emptyLike(self, [...g.lead, ...g.o]);
  const indices = emptyLike(self, [...g.lead, ...g.o], ScalarType.Long);
  if (self.isMeta() || output.numel() === 0) return [output, indices];
  checkDtype(self, 'max_pool3d');
  const x = elementReader(contiguousOf(self));
  const [y, yi] = [storedElements(output), storedElements(indices)];
  const inVol = g.i[0] * g.i[1] * g.i[2];
  const outVol = g.o[0] * g.o[1] * g.o[2];
  forEachWindow(g, (n, oi, taps) => {
    let maxIndex = taps[0] as number;
    let maxVal = -Infinity;
    for (let j = 1; j < taps.length; j++) {
      const v = x(n * inVol + (taps[j] as number));
      if (v > maxVal || Number.isNaN(v)) {
        maxVal = v;
        maxIndex = taps[j] as number;
      }
    }
    writeElement(output.scalarType, y.data, y.base + (n * outVol + oi) * y.lanes, maxVal);
    writeElement(ScalarType.Long, yi.data, yi.base + n * outVol + oi, maxIndex);
  });
  return [output, indices];
}

/** `max_pool3d_with_indices_backward(grad_output, self, kernel_size, stride, padding, dilation, ceil_mode, indices)`: each gradient added at its index. */
export function maxPool3dWithIndicesBackward(
  _ks: DispatchKeySet,
  gradOutput: Tensor,
  self: Tensor,
  kernel: number[],
  stride: number[],
  padding: number[],
  dilation: number[],
  ceil: boolean,
  indices: Tensor,
): Tensor {
  const [k, s, p, d] = maxPoolArgs(kernel, stride, padding, dilation);
  const g = geometry3d(self, k, s, p, d, ceil, 'max_pool3d_with_indices_backward_out_cpu_template()', false);
  const gradInput = emptyLike(self, [...self.sizes]);
  if (self.isMeta()) return gradInput;
  at.zero_(gradInput);
  if (gradInput.numel() === 0) return gradInput;
  const [go, idx] = [elementReader(contiguousOf(gradOutput)), elementReader(contiguousOf(indices))];
  const inVol = g.i[0] * g.i[1] * g.i[2];
  const outVol = g.o[0] * g.o[1] * g.o[2];
  const acc = new Float64Array(self.numel());
  const r = self.scalarType === ScalarType.Double ? (v: number): number => v : Math.fround;
  for (let n = 0; n < g.nc; n++) {
    for (let o = 0; o < outVol; o++) {
      const j = idx(n * outVol + o);
      if (j !== -1) acc[n * inVol + j] = r((acc[n * inVol + j] as number) + go(n * outVol + o));
    }
  }
  const y = storedElements(gradInput);
  for (let e = 0; e < acc.length; e++) writeElement(gradInput.scalarType, y.data, y.base + e * y.lanes, acc[e] as number);
  return gradInput;
}
