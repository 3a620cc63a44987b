// upsample_bicubic2d (+ its .vec overload and backward). Mirrors aten/src/ATen/native/UpSampleBicubic2d.cpp
// (the meta functions, upsample_bicubic2d_backward_out_frame) and the cubic path of
// native/cpu/UpSampleKernel.cpp (HelperInterpCubic: four taps clamped to the input, A = -0.75).

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';
import { checkFloating } from './FloatAccess.js';
import {
  checkGradOutput,
  checkNonEmptyInput,
  computeOutputSize,
  cubicTable,
  emptyFormat,
  interpolateBackward,
  interpolateForward,
  isChannelsLastLike,
  opmath,
  scaleAt,
  upsampleCommonCheck,
} from './UpSample.js';

type Scale = number | null | undefined;

export function upsampleBicubic2d(
  _ks: DispatchKeySet,
  self: Tensor,
  outputSize: number[],
  alignCorners: boolean,
  scalesH: Scale = null,
  scalesW: Scale = null,
): Tensor {
  const full = upsampleCommonCheck(2, self.sizes, outputSize);
  checkNonEmptyInput(2, self);
  const out = emptyFormat(self, full, isChannelsLastLike(self));
  if (self.isMeta()) return out;
  checkFloating(self, 'compute_indices_weights_cubic');
  if (out.numel() === 0) return out;
  const r = opmath(self.scalarType);
  const scales = [scalesH ?? null, scalesW ?? null];
  const tables = outputSize.map((os, i) => cubicTable(self.sizes[i + 2] as number, os, alignCorners, scales[i] ?? null, r));
  return interpolateForward(self, out, tables);
}

export function upsampleBicubic2dBackward(
  _ks: DispatchKeySet,
  grad: Tensor,
  outputSize: number[],
  inputSize: number[],
  alignCorners: boolean,
  scalesH: Scale = null,
  scalesW: Scale = null,
): Tensor {
  const full = upsampleCommonCheck(2, inputSize, outputSize);
  checkGradOutput(2, grad, full);
  const gi = emptyFormat(grad, [...inputSize], false);
  if (grad.isMeta()) return gi;
  checkFloating(grad, 'upsample_bicubic2d_backward');
  const r = opmath(grad.scalarType);
  const scales = [scalesH ?? null, scalesW ?? null];
  const tables = outputSize.map((os, i) => cubicTable(inputSize[i + 2] as number, os, alignCorners, scales[i] ?? null, r));
  return interpolateBackward(grad, gi, tables);
}

/** `upsample_bicubic2d.vec` (CompositeImplicitAutograd): compute_output_size, then the sized operator. */
export function upsampleBicubic2dVec(
  _ks: DispatchKeySet,
  input: Tensor,
  outputSize: number[] | null,
  alignCorners: boolean,
  scaleFactors: number[] | null,
): Tensor {
  const osize = computeOutputSize(input, outputSize, scaleFactors);
  return aten().upsample_bicubic2d.call(input, osize, alignCorners, scaleAt(scaleFactors, 0), scaleAt(scaleFactors, 1));
}
