// upsample_linear1d, upsample_bilinear2d and upsample_trilinear3d (+ their .vec overloads and backwards).
// Mirrors aten/src/ATen/native/UpSampleLinear1d.cpp, UpSampleBilinear2d.cpp, UpSampleTrilinear3d.cpp (the
// meta functions: checks, output memory format) and the linear paths of native/cpu/UpSampleKernel.cpp
// (HelperInterpLinear, cpu_upsample_generic) and UpSampleMoreKernel.cpp (cpu_upsample_linear_backward).
// Weights are computed in opmath_t (float for float32) as the CPU kernels do. Not implemented: uint8 inputs
// to bilinear2d (and bicubic2d), which PyTorch resamples with int16 fixed-point weights (the separable
// antialias kernels, UpSampleKernelAVXAntialias.h); they raise the dtype's "not implemented" error here.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';
import { checkFloating } from './FloatAccess.js';
import {
  checkGradOutput,
  checkNonEmptyInput,
  computeOutputSize,
  emptyFormat,
  interpolateBackward,
  interpolateForward,
  isChannelsLastLike,
  linearTable,
  opmath,
  scaleAt,
  upsampleCommonCheck,
} from './UpSample.js';

type Scale = number | null | undefined;
const OPS = ['', 'upsample_linear1d', 'upsample_bilinear2d', 'upsample_trilinear3d'];

function forward(k: number, self: Tensor, outputSize: number[], alignCorners: boolean, scales: Scale[]): Tensor {
  const full = upsampleCommonCheck(k, self.sizes, outputSize);
  checkNonEmptyInput(k, self);
  const out = emptyFormat(self, full, k > 1 && isChannelsLastLike(self));
  if (self.isMeta()) return out;
  checkFloating(self, k === 2 ? 'upsample_bilinear2d_channels_last' : 'compute_indices_weights_linear');
  if (out.numel() === 0) return out;
  const r = opmath(self.scalarType);
  const tables = outputSize.map((os, i) => linearTable(self.sizes[i + 2] as number, os, alignCorners, scales[i] ?? null, r));
  return interpolateForward(self, out, tables);
}

function backward(k: number, grad: Tensor, outputSize: number[], inputSize: number[], alignCorners: boolean, scales: Scale[]): Tensor {
  const full = upsampleCommonCheck(k, inputSize, outputSize);
  checkGradOutput(k, grad, full);
  const cl = k > 1 && isChannelsLastLike(grad);
  const gi = emptyFormat(grad, [...inputSize], cl);
  if (grad.isMeta()) return gi;
  checkFloating(grad, `${OPS[k]}_backward${cl ? '_channels_last' : ''}`);
  const r = opmath(grad.scalarType);
  const tables = outputSize.map((os, i) => linearTable(inputSize[i + 2] as number, os, alignCorners, scales[i] ?? null, r));
  return interpolateBackward(grad, gi, tables);
}

export function upsampleLinear1d(
  _ks: DispatchKeySet,
  self: Tensor,
  outputSize: number[],
  alignCorners: boolean,
  scales: Scale = null,
): Tensor {
  return forward(1, self, outputSize, alignCorners, [scales]);
}
export function upsampleBilinear2d(
  _ks: DispatchKeySet,
  self: Tensor,
  outputSize: number[],
  alignCorners: boolean,
  scalesH: Scale = null,
  scalesW: Scale = null,
): Tensor {
  return forward(2, self, outputSize, alignCorners, [scalesH, scalesW]);
}
export function upsampleTrilinear3d(
  _ks: DispatchKeySet,
  self: Tensor,
  outputSize: number[],
  alignCorners: boolean,
  scalesD: Scale = null,
  scalesH: Scale = null,
  scalesW: Scale = null,
): Tensor {
  return forward(3, self, outputSize, alignCorners, [scalesD, scalesH, scalesW]);
}

export function upsampleLinear1dBackward(
  _ks: DispatchKeySet,
  grad: Tensor,
  outputSize: number[],
  inputSize: number[],
  alignCorners: boolean,
  scales: Scale = null,
): Tensor {
  return backward(1, grad, outputSize, inputSize, alignCorners, [scales]);
}
export function upsampleBilinear2dBackward(
  _ks: DispatchKeySet,
  grad: Tensor,
  outputSize: number[],
  inputSize: number[],
  alignCorners: boolean,
  scalesH: Scale = null,
  scalesW: Scale = null,
): Tensor {
  return backward(2, grad, outputSize, inputSize, alignCorners, [scalesH, scalesW]);
}
export function upsampleTrilinear3dBackward(
  _ks: DispatchKeySet,
  grad: Tensor,
  outputSize: number[],
  inputSize: number[],
  alignCorners: boolean,
  scalesD: Scale = null,
  scalesH: Scale = null,
  scalesW: Scale = null,
): Tensor {
  return backward(3, grad, outputSize, inputSize, alignCorners, [scalesD, scalesH, scalesW]);
}

// The .vec overloads (CompositeImplicitAutograd): compute_output_size, then the sized operator.
export function upsampleLinear1dVec(
  _ks: DispatchKeySet,
  input: Tensor,
  outputSize: number[] | null,
  alignCorners: boolean,
  scaleFactors: number[] | null,
): Tensor {
  const osize = computeOutputSize(input, outputSize, scaleFactors);
  return aten().upsample_linear1d.call(input, osize, alignCorners, scaleAt(scaleFactors, 0));
}
export function upsampleBilinear2dVec(
  _ks: DispatchKeySet,
  input: Tensor,
  outputSize: number[] | null,
  alignCorners: boolean,
  scaleFactors: number[] | null,
): Tensor {
  const osize = computeOutputSize(input, outputSize, scaleFactors);
  return aten().upsample_bilinear2d.call(input, osize, alignCorners, scaleAt(scaleFactors, 0), scaleAt(scaleFactors, 1));
}
export function upsampleTrilinear3dVec(
  _ks: DispatchKeySet,
  input: Tensor,
  outputSize: number[] | null,
  alignCorners: boolean,
  scaleFactors: number[] | null,
): Tensor {
  const osize = computeOutputSize(input, outputSize, scaleFactors);
  const s = [0, 1, 2].map((i) => scaleAt(scaleFactors, i));
  return aten().upsample_trilinear3d.call(input, osize, alignCorners, s[0] ?? null, s[1] ?? null, s[2] ?? null);
}
