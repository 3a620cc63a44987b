// upsample_nearest1d/2d/3d and _upsample_nearest_exact1d/2d/3d (+ their .vec overloads and backwards).
// Mirrors aten/src/ATen/native/UpSampleNearest{1,2,3}d.cpp (the meta functions: checks, output memory
// format) and the nearest paths of native/cpu/UpSampleKernel.cpp / UpSampleMoreKernel.cpp.
// See Note [Nearest source indices].

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isFloatingType, notImplementedForDtype } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';
import { checkFloating } from './FloatAccess.js';
import {
  type DimTable,
  areaPixelComputeScale,
  areaPixelComputeSourceIndex,
  checkGradOutput,
  checkNonEmptyInput,
  computeOutputSize,
  emptyFormat,
  indexTable,
  interpolateBackward,
  interpolateForward,
  isChannelsLastLike,
  nearestExactIdx,
  nearestIdx,
  opmath,
  scaleAt,
  upsampleCommonCheck,
} from './UpSample.js';

// Note [Nearest source indices]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch computes nearest indices two ways, and which one a call meets decides its result at the edges
// (float64 scales, a scale factor that disagrees with the sizes: scale_factor 1.3 on 3 elements gives 3
// outputs). The 1-d and 3-d forwards (HelperInterpNearest{,Exact}::compute_indices_weights) round the scale
// to opmath_t (double for float64) and floor floorf(scale * o) (nearest) or floorf(src + 0.5) with
// src = scale * (o + 0.5) - 0.5 clamped at 0 (nearest-exact), whatever the sizes. The 2-d forward (any
// memory format) and every backward use nearest_idx / nearest_exact_idx: a float scale, and nearest_idx
// copies for equal sizes and halves for doubled ones whatever the scale says. Both are kept here so each
// call picks its input elements exactly as PyTorch's (gen_upsample_nd.py has a case of each).

type Scale = number | null | undefined;

function opName(k: number, exact: boolean): string {
  return exact ? `_upsample_nearest_exact${k}d` : `upsample_nearest${k}d`;
}

/** The channels-first forward's index of output o (HelperInterpNearest{,Exact}). */
function genericIdx(
  o: number,
  inputSize: number,
  outputSize: number,
  scale: number | null,
  exact: boolean,
  r: (v: number) => number,
): number {
  const s = areaPixelComputeScale(inputSize, outputSize, false, scale, r);
  const real = exact ? r(areaPixelComputeSourceIndex(s, o, false, false, r) + 0.5) : r(s * o);
  return Math.min(Math.floor(Math.fround(real)), inputSize - 1);
}

function forward(k: number, exact: boolean, self: Tensor, outputSize: number[], scales: Scale[]): Tensor {
  const full = upsampleCommonCheck(k, self.sizes, outputSize);
  checkNonEmptyInput(k, self);
  const cl = k > 1 && isChannelsLastLike(self);
  const out = emptyFormat(self, full, cl);
  if (self.isMeta()) return out;
  if (!isFloatingType(self.scalarType) && self.scalarType !== ScalarType.Byte) {
    throw notImplementedForDtype(k === 2 ? 'upsample_nearest2d_channels_last' : 'compute_indices_weights_nearest', self.scalarType);
  }
  if (out.numel() === 0) return out;
  const r = self.scalarType === ScalarType.Double ? opmath(ScalarType.Double) : Math.fround;
  const tables: DimTable[] = outputSize.map((os, i) => {
    const is = self.sizes[i + 2] as number;
    const sc = scales[i] ?? null;
    if (k === 2) return indexTable(os, (o) => (exact ? nearestExactIdx : nearestIdx)(o, is, os, sc));
    return indexTable(os, (o) => genericIdx(o, is, os, sc, exact, r));
  });
  return interpolateForward(self, out, tables);
}

function backward(k: number, exact: boolean, grad: Tensor, outputSize: number[], inputSize: number[], scales: Scale[]): Tensor {
  const full = upsampleCommonCheck(k, inputSize, outputSize);
  checkGradOutput(k, grad, full);
  const cl = k > 1 && isChannelsLastLike(grad);
  const gi = emptyFormat(grad, [...inputSize], k === 2 && cl);
  if (grad.isMeta()) return gi;
  const name = opName(k, exact);
  checkFloating(grad, cl ? `${k === 3 && !exact ? '_' : ''}${name}_backward_cl` : `${name}_backward`);
  const tables = outputSize.map((os, i) => {
    const is = inputSize[i + 2] as number;
    const sc = scales[i] ?? null;
    return indexTable(os, (o) => (exact ? nearestExactIdx : nearestIdx)(o, is, os, sc));
  });
  return interpolateBackward(grad, gi, tables);
}

export function upsampleNearest1d(_ks: DispatchKeySet, self: Tensor, outputSize: number[], scales: Scale = null): Tensor {
  return forward(1, false, self, outputSize, [scales]);
}
export function upsampleNearest2d(
  _ks: DispatchKeySet,
  self: Tensor,
  outputSize: number[],
  scalesH: Scale = null,
  scalesW: Scale = null,
): Tensor {
  return forward(2, false, self, outputSize, [scalesH, scalesW]);
}
export function upsampleNearest3d(
  _ks: DispatchKeySet,
  self: Tensor,
  outputSize: number[],
  scalesD: Scale = null,
  scalesH: Scale = null,
  scalesW: Scale = null,
): Tensor {
  return forward(3, false, self, outputSize, [scalesD, scalesH, scalesW]);
}
export function upsampleNearestExact1d(_ks: DispatchKeySet, self: Tensor, outputSize: number[], scales: Scale = null): Tensor {
  return forward(1, true, self, outputSize, [scales]);
}
export function upsampleNearestExact2d(
  _ks: DispatchKeySet,
  self: Tensor,
  outputSize: number[],
  scalesH: Scale = null,
  scalesW: Scale = null,
): Tensor {
  return forward(2, true, self, outputSize, [scalesH, scalesW]);
}
export function upsampleNearestExact3d(
  _ks: DispatchKeySet,
  self: Tensor,
  outputSize: number[],
  scalesD: Scale = null,
  scalesH: Scale = null,
  scalesW: Scale = null,
): Tensor {
  return forward(3, true, self, outputSize, [scalesD, scalesH, scalesW]);
}

export function upsampleNearest1dBackward(
  _ks: DispatchKeySet,
  grad: Tensor,
  outputSize: number[],
  inputSize: number[],
  scales: Scale = null,
): Tensor {
  return backward(1, false, grad, outputSize, inputSize, [scales]);
}
export function upsampleNearest2dBackward(
  _ks: DispatchKeySet,
  grad: Tensor,
  outputSize: number[],
  inputSize: number[],
  scalesH: Scale = null,
  scalesW: Scale = null,
): Tensor {
  return backward(2, false, grad, outputSize, inputSize, [scalesH, scalesW]);
}
export function upsampleNearest3dBackward(
  _ks: DispatchKeySet,
  grad: Tensor,
  outputSize: number[],
  inputSize: number[],
  scalesD: Scale = null,
  scalesH: Scale = null,
  scalesW: Scale = null,
): Tensor {
  return backward(3, false, grad, outputSize, inputSize, [scalesD, scalesH, scalesW]);
}
export function upsampleNearestExact1dBackward(
  _ks: DispatchKeySet,
  grad: Tensor,
  outputSize: number[],
  inputSize: number[],
  scales: Scale = null,
): Tensor {
  return backward(1, true, grad, outputSize, inputSize, [scales]);
}
export function upsampleNearestExact2dBackward(
  _ks: DispatchKeySet,
  grad: Tensor,
  outputSize: number[],
  inputSize: number[],
  scalesH: Scale = null,
  scalesW: Scale = null,
): Tensor {
  return backward(2, true, grad, outputSize, inputSize, [scalesH, scalesW]);
}
export function upsampleNearestExact3dBackward(
  _ks: DispatchKeySet,
  grad: Tensor,
  outputSize: number[],
  inputSize: number[],
  scalesD: Scale = null,
  scalesH: Scale = null,
  scalesW: Scale = null,
): Tensor {
  return backward(3, true, grad, outputSize, inputSize, [scalesD, scalesH, scalesW]);
}

// The .vec overloads (CompositeImplicitAutograd): compute_output_size, then the sized operator with the
// scale factors as its scales.
export function upsampleNearest1dVec(
  _ks: DispatchKeySet,
  input: Tensor,
  outputSize: number[] | null,
  scaleFactors: number[] | null,
): Tensor {
  const osize = computeOutputSize(input, outputSize, scaleFactors);
  return aten().upsample_nearest1d.call(input, osize, scaleAt(scaleFactors, 0));
}
export function upsampleNearest2dVec(
  _ks: DispatchKeySet,
  input: Tensor,
  outputSize: number[] | null,
  scaleFactors: number[] | null,
): Tensor {
  const osize = computeOutputSize(input, outputSize, scaleFactors);
  return aten().upsample_nearest2d.call(input, osize, scaleAt(scaleFactors, 0), scaleAt(scaleFactors, 1));
}
export function upsampleNearest3dVec(
  _ks: DispatchKeySet,
  input: Tensor,
  outputSize: number[] | null,
  scaleFactors: number[] | null,
): Tensor {
  const osize = computeOutputSize(input, outputSize, scaleFactors);
  return aten().upsample_nearest3d.call(input, osize, scaleAt(scaleFactors, 0), scaleAt(scaleFactors, 1), scaleAt(scaleFactors, 2));
}
export function upsampleNearestExact1dVec(
  _ks: DispatchKeySet,
  input: Tensor,
  outputSize: number[] | null,
  scaleFactors: number[] | null,
): Tensor {
  const osize = computeOutputSize(input, outputSize, scaleFactors);
  return aten()._upsample_nearest_exact1d.call(input, osize, scaleAt(scaleFactors, 0));
}
export function upsampleNearestExact2dVec(
  _ks: DispatchKeySet,
  input: Tensor,
  outputSize: number[] | null,
  scaleFactors: number[] | null,
): Tensor {
  const osize = computeOutputSize(input, outputSize, scaleFactors);
  return aten()._upsample_nearest_exact2d.call(input, osize, scaleAt(scaleFactors, 0), scaleAt(scaleFactors, 1));
}
export function upsampleNearestExact3dVec(
  _ks: DispatchKeySet,
  input: Tensor,
  outputSize: number[] | null,
  scaleFactors: number[] | null,
): Tensor {
  const osize = computeOutputSize(input, outputSize, scaleFactors);
  return aten()._upsample_nearest_exact3d.call(input, osize, scaleAt(scaleFactors, 0), scaleAt(scaleFactors, 1), scaleAt(scaleFactors, 2));
}
