// _upsample_bilinear2d_aa and _upsample_bicubic2d_aa (+ .vec overloads and backwards): F.interpolate's
// antialias=True. Mirrors the antialias path of aten/src/ATen/native/cpu/UpSampleKernel.cpp
// (HelperInterpLinear/HelperInterpCubic::compute_index_ranges_weights with antialias, _compute_weights_aa,
// aa_filter) and the meta functions of aten/src/ATen/native/UpSampleBilinear2d.cpp / UpSampleBicubic2d.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';
import { checkFloating } from './FloatAccess.js';
import {
  areaPixelComputeScale,
  checkGradOutput,
  checkNonEmptyInput,
  computeOutputSize,
  type DimTable,
  emptyFormat,
  interpolateBackward,
  interpolateForward,
  isChannelsLastLike,
  opmath,
  scaleAt,
  upsampleCommonCheck,
} from './UpSample.js';

type Scale = number | null | undefined;
type Kind = 'bilinear' | 'bicubic';

/** `HelperInterpLinear::aa_filter`: the triangle. */
const linearFilter = (x: number): number => Math.max(0, 1 - Math.abs(x));

/** `HelperInterpCubic::aa_filter`: Keys' cubic with a = -0.5 (the plain bicubic kernel uses -0.75). */
function cubicFilter(x: number, r: (v: number) => number): number {
  const a = -0.5;
  const t = Math.abs(x);
  if (t < 1) return r(r(r(r((a + 2) * t) - (a + 3)) * t) * t + 1);
  if (t < 2) return r(r(r(r(r(r(t - 5) * t) + 8) * t) - 4) * a);
  return 0;
}

/**
 * Note [Antialias weights]
 * ~~~~~~~~~~~~~~~~~~~~~~~~
 * When downsampling (scale >= 1) the filter is stretched by the scale, so each output pixel averages every
 * input pixel under a support of interp_size/2 * scale (interp_size 2 for bilinear, 4 for bicubic); when
 * upsampling the support stays interp_size/2. The taps of output i run over [xmin, xmin + xsize) around
 * center = scale * (i + 0.5) (align_corners only changes the scale: PyTorch's align_corners_delta is 0 for
 * float inputs), and are normalised to sum to 1. Taps are padded to max_interp_size = ceil(support) * 2 + 1
 * with weight 0 so the generic separable evaluator (interpolateForward / interpolateBackward) applies.
 */
export function aaTable(
  kind: Kind,
  inputSize: number,
  outputSize: number,
  alignCorners: boolean,
  scaleArg: number | null,
  r: (v: number) => number,
): DimTable {
  const interpSize = kind === 'bilinear' ? 2 : 4;
  const scale = areaPixelComputeScale(inputSize, outputSize, alignCorners, scaleArg, r);
  const support = r(scale >= 1 ? r(interpSize * 0.5 * scale) : interpSize * 0.5);
  const taps = Math.ceil(support) * 2 + 1;
  const idx = new Int32Array(taps * outputSize);
  const w = new Float64Array(taps * outputSize);
  const invscale = scale >= 1 ? r(1 / scale) : 1;
  const filter = kind === 'bilinear' ? linearFilter : (x: number): number => cubicFilter(x, r);
  for (let i = 0; i < outputSize; i++) {
    const center = r(scale * r(i + 0.5));
    const xmin = Math.max(Math.trunc(r(r(center - support) + 0.5)), 0);
    let xsize = Math.min(Math.trunc(r(r(center + support) + 0.5)), inputSize) - xmin;
    xsize = Math.min(Math.max(xsize, 0), taps);
    let total = 0;
    for (let j = 0; j < xsize; j++) {
      const v = r(filter(r(r(r(j + xmin - center) + 0.5) * invscale)));
      w[i * taps + j] = v;
      total = r(total + v);
    }
    for (let j = 0; j < taps; j++) {
      idx[i * taps + j] = j < xsize ? xmin + j : xmin;
      if (j < xsize && total !== 0) w[i * taps + j] = r((w[i * taps + j] as number) / total);
    }
  }
  return { taps, idx, w };
}

function forward(kind: Kind, self: Tensor, outputSize: number[], alignCorners: boolean, scalesH: Scale, scalesW: Scale): Tensor {
  const full = upsampleCommonCheck(2, self.sizes, outputSize);
  checkNonEmptyInput(2, self);
  const out = emptyFormat(self, full, isChannelsLastLike(self));
  if (self.isMeta()) return out;
  checkFloating(self, 'compute_index_ranges_weights');
  if (out.numel() === 0) return out;
  const r = opmath(self.scalarType);
  const scales = [scalesH ?? null, scalesW ?? null];
  const tables = outputSize.map((os, i) => aaTable(kind, self.sizes[i + 2] as number, os, alignCorners, scales[i] ?? null, r));
  return interpolateForward(self, out, tables);
}

function backward(
  kind: Kind,
  grad: Tensor,
  outputSize: number[],
  inputSize: number[],
  alignCorners: boolean,
  scalesH: Scale,
  scalesW: Scale,
): Tensor {
  const full = upsampleCommonCheck(2, inputSize, outputSize);
  checkGradOutput(2, grad, full);
  const gi = emptyFormat(grad, [...inputSize], false);
  if (grad.isMeta()) return gi;
  checkFloating(grad, 'compute_index_ranges_weights');
  const r = opmath(grad.scalarType);
  const scales = [scalesH ?? null, scalesW ?? null];
  const tables = outputSize.map((os, i) => aaTable(kind, inputSize[i + 2] as number, os, alignCorners, scales[i] ?? null, r));
  return interpolateBackward(grad, gi, tables);
}

export function upsampleBilinear2dAA(
  _ks: DispatchKeySet,
  self: Tensor,
  os: number[],
  ac: boolean,
  sh: Scale = null,
  sw: Scale = null,
): Tensor {
  return forward('bilinear', self, os, ac, sh, sw);
}

export function upsampleBicubic2dAA(
  _ks: DispatchKeySet,
  self: Tensor,
  os: number[],
  ac: boolean,
  sh: Scale = null,
  sw: Scale = null,
): Tensor {
  return forward('bicubic', self, os, ac, sh, sw);
}

export function upsampleBilinear2dAABackward(
  _ks: DispatchKeySet,
  grad: Tensor,
  os: number[],
  is: number[],
  ac: boolean,
  sh: Scale = null,
  sw: Scale = null,
): Tensor {
  return backward('bilinear', grad, os, is, ac, sh, sw);
}

export function upsampleBicubic2dAABackward(
  _ks: DispatchKeySet,
  grad: Tensor,
  os: number[],
  is: number[],
  ac: boolean,
  sh: Scale = null,
  sw: Scale = null,
): Tensor {
  return backward('bicubic', grad, os, is, ac, sh, sw);
}

/** `_upsample_bilinear2d_aa.vec` (CompositeImplicitAutograd): compute_output_size, then the sized operator. */
export function upsampleBilinear2dAAVec(_ks: DispatchKeySet, input: Tensor, os: number[] | null, ac: boolean, sf: number[] | null): Tensor {
  return aten()._upsample_bilinear2d_aa.call(input, computeOutputSize(input, os, sf), ac, scaleAt(sf, 0), scaleAt(sf, 1));
}

/** `_upsample_bicubic2d_aa.vec` (CompositeImplicitAutograd). */
export function upsampleBicubic2dAAVec(_ks: DispatchKeySet, input: Tensor, os: number[] | null, ac: boolean, sf: number[] | null): Tensor {
  return aten()._upsample_bicubic2d_aa.call(input, computeOutputSize(input, os, sf), ac, scaleAt(sf, 0), scaleAt(sf, 1));
}
