// upsample_nearest2d and upsample_bilinear2d (+ their .vec overloads and backwards) over storage. Mirrors
// aten/src/ATen/native/UpSample.{h,cpp} (upsample_2d_common_check, compute_output_size, the index helpers),
// UpSampleNearest2d.cpp, UpSampleBilinear2d.cpp and native/cpu/UpSampleKernel.cpp. The source indices and
// weights are computed in float32 as the CPU kernels do (`float` scales, `opmath_t` for float inputs).

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isFloatingType, notImplementedForDtype } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';
import { checkFloating, reader, writer } from './FloatAccess.js';
import { contiguousOf, emptyLike, moveElement, storedElements } from './StorageAccess.js';

const f32 = Math.fround;

/** `upsample_2d_common_check`: the full output size [N, C, OH, OW]. */
function commonCheck(inputSize: readonly number[], outputSize: readonly number[]): number[] {
  if (outputSize.length !== 2) throw new Error(`It is expected output_size equals to 2, but got size ${outputSize.length}`);
  if (inputSize.length !== 4) throw new Error(`It is expected input_size equals to 4, but got size ${inputSize.length}`);
  const [N, C, H, W] = inputSize as [number, number, number, number];
  const [OH, OW] = outputSize as [number, number];
  if (!(H > 0 && W > 0 && OH > 0 && OW > 0)) {
    throw new Error(`Input and output sizes should be greater than 0, but got input (H: ${H}, W: ${W}) output (H: ${OH}, W: ${OW})`);
  }
  return [N, C, OH, OW];
}

function checkInput(input: Tensor): void {
  if (input.numel() === 0 && input.sizes.slice(1).reduce((a, b) => a * b, 1) === 0) {
    throw new Error(`Non-empty 4D data tensor expected but got a tensor with sizes [${input.sizes.join(', ')}]`);
  }
}

function checkGrad(gradOutput: Tensor, full: number[]): void {
  if (gradOutput.dim() !== 4) throw new Error(`Expected grad_output to be a tensor of dimension 4 but got: dimension ${gradOutput.dim()}`);
  for (let i = 0; i < 4; i++) {
    if (gradOutput.sizes[i] !== full[i]) {
      throw new Error(
        `Expected grad_output to have the same shape as output; output.size(${i}) = ${full[i]} but got grad_output.size(${i}) = ${gradOutput.sizes[i]}`,
      );
    }
  }
}

/** Rounding to `opmath_t`: double for float64, float for the other float dtypes. */
const opmath = (dtype: ScalarType): ((v: number) => number) => (dtype === ScalarType.Double ? (v) => v : f32);

/** `compute_scales_value<T>` (float unless given `r`). */
function scaleValue(scale: number | null | undefined, inputSize: number, outputSize: number, r: (v: number) => number = f32): number {
  return scale !== null && scale !== undefined && scale > 0 ? r(1 / scale) : r(inputSize / outputSize);
}

/** `nearest_idx`: the input index of output index `o` (exact for equal and doubled sizes). */
function nearestIdx(o: number, inputSize: number, outputSize: number, scale: number | null | undefined): number {
  if (outputSize === inputSize) return o;
  if (outputSize === 2 * inputSize) return o >> 1;
  return Math.min(Math.floor(f32(o * scaleValue(scale, inputSize, outputSize))), inputSize - 1);
}

/** For each output index along one dim, its two input indices and their weights (`compute_indices_weights_linear`). */
function linearWeights(
  inputSize: number,
  outputSize: number,
  alignCorners: boolean,
  scale: number | null | undefined,
  r: (v: number) => number,
): { i0: Int32Array; i1: Int32Array; l0: Float64Array; l1: Float64Array } {
  // area_pixel_compute_scale<opmath_t>
  const s = alignCorners ? (outputSize > 1 ? r((inputSize - 1) / (outputSize - 1)) : 0) : scaleValue(scale, inputSize, outputSize, r);
  const i0 = new Int32Array(outputSize);
  const i1 = new Int32Array(outputSize);
  const l0 = new Float64Array(outputSize);
  const l1 = new Float64Array(outputSize);
  for (let o = 0; o < outputSize; o++) {
    // area_pixel_compute_source_index
    let real = alignCorners ? r(s * o) : r(r(s * r(o + 0.5)) - 0.5);
    if (!alignCorners && real < 0) real = 0;
    const idx = Math.floor(real);
    const lambda = Math.min(Math.max(r(real - idx), 0), 1);
    i0[o] = idx;
    i1[o] = idx + (idx < inputSize - 1 ? 1 : 0);
    l1[o] = lambda;
    l0[o] = r(1 - lambda);
  }
  return { i0, i1, l0, l1 };
}

export function upsampleNearest2d(
  _ks: DispatchKeySet,
  self: Tensor,
  outputSize: number[],
  scalesH: number | null = null,
  scalesW: number | null = null,
): Tensor {
  const full = commonCheck(self.sizes, outputSize);
  checkInput(self);
  const out = emptyLike(self, full);
  if (self.isMeta()) return out;
  if (!isFloatingType(self.scalarType) && self.scalarType !== ScalarType.Byte)
    throw notImplementedForDtype('upsample_nearest2d_channels_last', self.scalarType);
  const [N, C, H, W] = self.sizes as [number, number, number, number];
  const [OH, OW] = outputSize as [number, number];
  const hs = Array.from({ length: OH }, (_, o) => nearestIdx(o, H, OH, scalesH));
  const ws = Array.from({ length: OW }, (_, o) => nearestIdx(o, W, OW, scalesW));
  const src = contiguousOf(self);
  const [d, s] = [storedElements(out), storedElements(src)];
  for (let p = 0; p < N * C; p++) {
    for (let oh = 0; oh < OH; oh++) {
      for (let ow = 0; ow < OW; ow++) moveElement(d, (p * OH + oh) * OW + ow, s, (p * H + (hs[oh] as number)) * W + (ws[ow] as number));
    }
  }
  return out;
}

export function upsampleNearest2dBackward(
  _ks: DispatchKeySet,
  gradOutput: Tensor,
  outputSize: number[],
  inputSize: number[],
  scalesH: number | null = null,
  scalesW: number | null = null,
): Tensor {
  const full = commonCheck(inputSize, outputSize);
  checkGrad(gradOutput, full);
  const gi = emptyLike(gradOutput, [...inputSize]);
  if (gradOutput.isMeta()) return gi;
  checkFloating(gradOutput, 'upsample_nearest2d_backward');
  const [N, C, H, W] = inputSize as [number, number, number, number];
  const [OH, OW] = outputSize as [number, number];
  const acc = new Float64Array(N * C * H * W);
  const g = reader(contiguousOf(gradOutput));
  for (let p = 0; p < N * C; p++) {
    for (let oh = 0; oh < OH; oh++) {
      const h = nearestIdx(oh, H, OH, scalesH);
      for (let ow = 0; ow < OW; ow++) {
        const at = (p * H + h) * W + nearestIdx(ow, W, OW, scalesW);
        acc[at] = (acc[at] as number) + g((p * OH + oh) * OW + ow);
      }
    }
  }
  const w = writer(gi);
  for (let e = 0; e < acc.length; e++) w(e, acc[e] as number);
  return gi;
}

export function upsampleBilinear2d(
  _ks: DispatchKeySet,
  self: Tensor,
  outputSize: number[],
  alignCorners: boolean,
  scalesH: number | null = null,
  scalesW: number | null = null,
): Tensor {
  const full = commonCheck(self.sizes, outputSize);
  checkInput(self);
  const out = emptyLike(self, full);
  if (self.isMeta()) return out;
  checkFloating(self, 'upsample_bilinear2d_channels_last');
  const [N, C, H, W] = self.sizes as [number, number, number, number];
  const [OH, OW] = outputSize as [number, number];
  const r = opmath(self.scalarType);
  const hw = linearWeights(H, OH, alignCorners, scalesH, r);
  const ww = linearWeights(W, OW, alignCorners, scalesW, r);
  const x = reader(contiguousOf(self));
  const y = writer(out);
  for (let p = 0; p < N * C; p++) {
    for (let oh = 0; oh < OH; oh++) {
      const [h0, h1, a0, a1] = [hw.i0[oh] as number, hw.i1[oh] as number, hw.l0[oh] as number, hw.l1[oh] as number];
      const r0 = (p * H + h0) * W;
      const r1 = (p * H + h1) * W;
      for (let ow = 0; ow < OW; ow++) {
        const [w0, w1, b0, b1] = [ww.i0[ow] as number, ww.i1[ow] as number, ww.l0[ow] as number, ww.l1[ow] as number];
        y((p * OH + oh) * OW + ow, a0 * (b0 * x(r0 + w0) + b1 * x(r0 + w1)) + a1 * (b0 * x(r1 + w0) + b1 * x(r1 + w1)));
      }
    }
  }
  return out;
}

export function upsampleBilinear2dBackward(
  _ks: DispatchKeySet,
  gradOutput: Tensor,
  outputSize: number[],
  inputSize: number[],
  alignCorners: boolean,
  scalesH: number | null = null,
  scalesW: number | null = null,
): Tensor {
  const full = commonCheck(inputSize, outputSize);
  checkGrad(gradOutput, full);
  const gi = emptyLike(gradOutput, [...inputSize]);
  if (gradOutput.isMeta()) return gi;
  checkFloating(gradOutput, 'upsample_bilinear2d_backward_cpu');
  const [N, C, H, W] = inputSize as [number, number, number, number];
  const [OH, OW] = outputSize as [number, number];
  const r = opmath(gradOutput.scalarType);
  const hw = linearWeights(H, OH, alignCorners, scalesH, r);
  const ww = linearWeights(W, OW, alignCorners, scalesW, r);
  const acc = new Float64Array(N * C * H * W);
  const g = reader(contiguousOf(gradOutput));
  const add = (at: number, v: number): void => void (acc[at] = (acc[at] as number) + v);
  for (let p = 0; p < N * C; p++) {
    for (let oh = 0; oh < OH; oh++) {
      const [h0, h1, a0, a1] = [hw.i0[oh] as number, hw.i1[oh] as number, hw.l0[oh] as number, hw.l1[oh] as number];
      for (let ow = 0; ow < OW; ow++) {
        const [w0, w1, b0, b1] = [ww.i0[ow] as number, ww.i1[ow] as number, ww.l0[ow] as number, ww.l1[ow] as number];
        const v = g((p * OH + oh) * OW + ow);
        add((p * H + h0) * W + w0, a0 * b0 * v);
        add((p * H + h0) * W + w1, a0 * b1 * v);
        add((p * H + h1) * W + w0, a1 * b0 * v);
        add((p * H + h1) * W + w1, a1 * b1 * v);
      }
    }
  }
  const w = writer(gi);
  for (let e = 0; e < acc.length; e++) w(e, acc[e] as number);
  return gi;
}

/** `compute_output_size` (UpSample.cpp): output_size, or the input's spatial sizes times scale_factors (truncated). */
function computeOutputSize(input: Tensor, outputSize: number[] | null, scaleFactors: number[] | null): number[] {
  if (outputSize !== null && scaleFactors !== null) throw new Error('Must specify exactly one of output_size and scale_factors');
  if (outputSize !== null) return outputSize;
  if (scaleFactors === null) throw new Error('Must specify exactly one of output_size and scale_factors');
  const spatial = input.dim() - 2;
  if (scaleFactors.length !== spatial) {
    throw new Error(
      `It is expected scale_factors has the same dimension as the input spatial dimensions (${spatial}), but got ${scaleFactors.length}`,
    );
  }
  return scaleFactors.map((f, i) => Math.trunc((input.sizes[i + 2] as number) * f));
}

/** `upsample_nearest2d.vec(input, output_size, scale_factors)`, CompositeImplicitAutograd. */
export function upsampleNearest2dVec(
  _ks: DispatchKeySet,
  input: Tensor,
  outputSize: number[] | null,
  scaleFactors: number[] | null,
): Tensor {
  const osize = computeOutputSize(input, outputSize, scaleFactors);
  return aten().upsample_nearest2d.call(input, osize, scaleFactors?.[0] ?? null, scaleFactors?.[1] ?? null);
}

/** `upsample_bilinear2d.vec(input, output_size, align_corners, scale_factors)`, CompositeImplicitAutograd. */
export function upsampleBilinear2dVec(
  _ks: DispatchKeySet,
  input: Tensor,
  outputSize: number[] | null,
  alignCorners: boolean,
  scaleFactors: number[] | null,
): Tensor {
  const osize = computeOutputSize(input, outputSize, scaleFactors);
  return aten().upsample_bilinear2d.call(input, osize, alignCorners, scaleFactors?.[0] ?? null, scaleFactors?.[1] ?? null);
}
