// The shared half of the upsample family (nearest, nearest-exact, linear, bilinear, bicubic, trilinear):
// argument checks, compute_output_size, the source-index helpers, the memory-format rule and the separable
// N-d interpolation loops every mode runs. Mirrors aten/src/ATen/native/UpSample.{h,cpp} (the
// upsample_{1,2,3}d_common_check, compute_scales_value, area_pixel_compute_*, nearest_idx,
// nearest_exact_idx, compute_source_index_and_lambda, get_cubic_upsample_coefficients) and the generic
// loops of native/cpu/UpSampleKernel.cpp (cpu_upsample_generic's `Interpolate`) and UpSampleMoreKernel.cpp
// (the backward scatter). The kernels per mode live in UpSampleNearest.ts, UpSampleLinear.ts and
// UpSampleBicubic2d.ts.

import { ScalarType } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';
import {
  channelsLast3dStrides,
  channelsLastStrides,
  isStridesLikeChannelsLast,
  isStridesLikeChannelsLast3d,
} from '../tensor/TensorGeometry.js';
import { reader, writer } from './FloatAccess.js';
import { contiguousOf, emptyLike, moveElement, storedElements } from './StorageAccess.js';
import { newStrided } from './TensorFactories.js';

const f32 = Math.fround;
const SPATIAL = ['W', 'H', 'D'];

/** `upsample_{1,2,3}d_common_check`: the full output size [N, C, ...output_size]. */
export function upsampleCommonCheck(k: number, inputSize: readonly number[], outputSize: readonly number[]): number[] {
  if (outputSize.length !== k) throw new Error(`It is expected output_size equals to ${k}, but got size ${outputSize.length}`);
  if (inputSize.length !== k + 2) throw new Error(`It is expected input_size equals to ${k + 2}, but got size ${inputSize.length}`);
  const ins = inputSize.slice(2);
  if (!(ins.every((s) => s > 0) && outputSize.every((s) => s > 0))) {
    const names = SPATIAL.slice(0, k).reverse();
    const list = (v: readonly number[]): string => v.map((s, i) => `${names[i]}: ${s}`).join(', ');
    throw new Error(
      k === 1
        ? `Input and output sizes should be greater than 0, but got input (W: ${ins[0]}) and output (W: ${outputSize[0]})`
        : `Input and output sizes should be greater than 0, but got input (${list(ins)}) output (${list(outputSize)})`,
    );
  }
  return [inputSize[0] as number, inputSize[1] as number, ...outputSize];
}

/** The meta functions' "Non-empty kD data tensor" check (an empty batch is allowed). */
export function checkNonEmptyInput(k: number, input: Tensor): void {
  const rest = input.sizes.slice(1);
  const ok = k === 1 ? rest.every((s) => s !== 0) : input.numel() !== 0 || rest.reduce((a, b) => a * b, 1) !== 0;
  if (!ok) throw new Error(`Non-empty ${k + 2}D data tensor expected but got a tensor with sizes [${input.sizes.join(', ')}]`);
}

/** The backward meta functions' grad_output checks (`check_dim_size` for 1-d, the shape loop for 2-d / 3-d). */
export function checkGradOutput(k: number, grad: Tensor, full: readonly number[]): void {
  const n = k + 2;
  if (k === 1) {
    for (let i = 0; i < n; i++) {
      if (grad.dim() !== n || grad.sizes[i] !== full[i]) {
        throw new Error(
          `Expected a tensor of dimension ${n} and tensor.size[${i}] == ${full[i]} but got: dimension ${grad.dim()} and tensor.size[${i}] = ${grad.sizes[i]}`,
        );
      }
    }
    return;
  }
  if (grad.dim() !== n) throw new Error(`Expected grad_output to be a tensor of dimension ${n} but got: dimension ${grad.dim()}`);
  for (let i = 0; i < n; i++) {
    if (grad.sizes[i] !== full[i]) {
      throw new Error(
        `Expected grad_output to have the same shape as output; output.size(${i}) = ${full[i]} but got grad_output.size(${i}) = ${grad.sizes[i]}`,
      );
    }
  }
}

/** `upsample::compute_output_size` (UpSample.cpp): output_size, or the spatial sizes times scale_factors (truncated). */
export function computeOutputSize(input: Tensor, outputSize: number[] | null, scaleFactors: number[] | null): number[] {
  const spatial = input.dim() - 2;
  if (outputSize !== null && scaleFactors !== null) throw new Error('Must specify exactly one of output_size and scale_factors');
  if (outputSize !== null) {
    if (outputSize.length !== spatial) {
      throw new Error(`It is expected output_size equals to ${spatial}, but got size ${outputSize.length}`);
    }
    return outputSize;
  }
  if (scaleFactors === null) throw new Error('Must specify exactly one of output_size and scale_factors');
  if (scaleFactors.length !== spatial) {
    throw new Error(
      `It is expected scale_factors has the same dimension as the input spatial dimensions (${spatial}), but got ${scaleFactors.length}`,
    );
  }
  return scaleFactors.map((f, i) => Math.trunc((input.sizes[i + 2] as number) * f));
}

/** `get_scale_value(scale_factors, i)`. */
export const scaleAt = (scaleFactors: number[] | null, i: number): number | null => scaleFactors?.[i] ?? null;

// ---------------------------------------------------------------------------------------------------------
// Source indices and weights

/** Rounding to `opmath_t`: double for float64, float for the other float dtypes. */
export const opmath = (dtype: ScalarType): ((v: number) => number) => (dtype === ScalarType.Double ? (v) => v : f32);

/** `compute_scales_value<T>` (T's rounding is `r`). */
export function computeScalesValue(scale: number | null, inputSize: number, outputSize: number, r: (v: number) => number): number {
  return scale !== null && scale > 0 ? r(1 / scale) : r(inputSize / outputSize);
}

/** `area_pixel_compute_scale<T>`. */
export function areaPixelComputeScale(
  inputSize: number,
  outputSize: number,
  alignCorners: boolean,
  scale: number | null,
  r: (v: number) => number,
): number {
  if (alignCorners) return outputSize > 1 ? r((inputSize - 1) / (outputSize - 1)) : 0;
  return computeScalesValue(scale, inputSize, outputSize, r);
}

/** `area_pixel_compute_source_index<T>`. */
export function areaPixelComputeSourceIndex(s: number, o: number, alignCorners: boolean, cubic: boolean, r: (v: number) => number): number {
  if (alignCorners) return r(s * o);
  const src = r(r(s * r(o + 0.5)) - 0.5);
  return !cubic && src < 0 ? 0 : src;
}

/** `nearest_idx` (the float-scale index of the channels-last and backward kernels; exact for equal and doubled sizes). */
export function nearestIdx(o: number, inputSize: number, outputSize: number, scale: number | null): number {
  if (outputSize === inputSize) return o;
  if (outputSize === 2 * inputSize) return o >> 1;
  return Math.min(Math.floor(f32(o * computeScalesValue(scale, inputSize, outputSize, f32))), inputSize - 1);
}

/** `nearest_exact_idx`: round((o + 0.5) * scale - 0.5) as floorf((o + 0.5) * scale). */
export function nearestExactIdx(o: number, inputSize: number, outputSize: number, scale: number | null): number {
  return Math.min(Math.floor(f32((o + 0.5) * computeScalesValue(scale, inputSize, outputSize, f32))), inputSize - 1);
}

/** One spatial dim's taps: output index o reads `idx[o * taps + j]` with weight `w[o * taps + j]`, j < taps. */
export interface DimTable {
  readonly taps: number;
  readonly idx: Int32Array;
  readonly w: Float64Array;
}

/** A one-tap table (nearest modes) from an index function. */
export function indexTable(outputSize: number, at: (o: number) => number): DimTable {
  const idx = new Int32Array(outputSize);
  for (let o = 0; o < outputSize; o++) idx[o] = at(o);
  return { taps: 1, idx, w: new Float64Array(outputSize).fill(1) };
}

/** `guard_index_and_lambda`: the floor index (floorf, clamped to the input) and the clamped fraction. */
function guardIndexAndLambda(real: number, inputSize: number, r: (v: number) => number): [number, number] {
  const i = Math.min(Math.floor(f32(real)), inputSize - 1);
  return [i, Math.min(Math.max(r(real - i), 0), 1)];
}

/** `HelperInterpLinear::compute_indices_weights` (`compute_source_index_and_lambda` per output index). */
export function linearTable(
  inputSize: number,
  outputSize: number,
  alignCorners: boolean,
  scale: number | null,
  r: (v: number) => number,
): DimTable {
  const s = areaPixelComputeScale(inputSize, outputSize, alignCorners, scale, r);
  const idx = new Int32Array(2 * outputSize);
  const w = new Float64Array(2 * outputSize);
  for (let o = 0; o < outputSize; o++) {
    if (outputSize === inputSize) {
      [idx[2 * o], idx[2 * o + 1], w[2 * o], w[2 * o + 1]] = [o, o, 1, 0];
      continue;
    }
    const [i0, l1] = guardIndexAndLambda(areaPixelComputeSourceIndex(s, o, alignCorners, false, r), inputSize, r);
    [idx[2 * o], idx[2 * o + 1], w[2 * o], w[2 * o + 1]] = [i0, i0 + (i0 < inputSize - 1 ? 1 : 0), r(1 - l1), l1];
  }
  return { taps: 2, idx, w };
}

/** `HelperInterpCubic::compute_indices_weights`: four clamped taps with `get_cubic_upsample_coefficients` (A = -0.75). */
export function cubicTable(
  inputSize: number,
  outputSize: number,
  alignCorners: boolean,
  scale: number | null,
  r: (v: number) => number,
): DimTable {
  const s = areaPixelComputeScale(inputSize, outputSize, alignCorners, scale, r);
  const idx = new Int32Array(4 * outputSize);
  const w = new Float64Array(4 * outputSize);
  const A = -0.75;
  const cc1 = (x: number): number => r(r(r(r(r(r(A + 2) * x) - r(A + 3)) * x) * x) + 1);
  const cc2 = (x: number): number => r(r(r(r(r(r(r(A * x) - r(5 * A)) * x) + r(8 * A)) * x)) - r(4 * A));
  for (let o = 0; o < outputSize; o++) {
    const [i, t] = guardIndexAndLambda(areaPixelComputeSourceIndex(s, o, alignCorners, true, r), inputSize, r);
    const coeffs = [cc2(r(t + 1)), cc1(t), cc1(r(1 - t)), cc2(r(r(1 - t) + 1))];
    for (let j = 0; j < 4; j++) {
      idx[4 * o + j] = Math.max(Math.min(i - 1 + j, inputSize - 1), 0);
      w[4 * o + j] = coeffs[j] as number;
    }
  }
  return { taps: 4, idx, w };
}

// ---------------------------------------------------------------------------------------------------------
// Memory format

/** `suggest_memory_format()` is ChannelsLast (4-d) or ChannelsLast3d (5-d). */
export function isChannelsLastLike(t: { readonly sizes: readonly number[]; readonly strides: readonly number[] }): boolean {
  return isStridesLikeChannelsLast(t) || isStridesLikeChannelsLast3d(t);
}

/** Channels-last strides of 4-d or 5-d sizes. */
function channelsLastNdStrides(sizes: readonly number[]): number[] {
  return sizes.length === 4 ? channelsLastStrides(sizes) : channelsLast3dStrides(sizes);
}

/** A new tensor of `sizes` on `like`'s device: channels-last when `channelsLast`, else contiguous. */
export function emptyFormat(like: Tensor, sizes: number[], channelsLast: boolean): Tensor {
  return channelsLast ? newStrided(sizes, channelsLastNdStrides(sizes), like.scalarType, like.device) : emptyLike(like, sizes);
}

/** `out` when it is contiguous, else `out` after copying the contiguous result `tmp` into it. */
function settle(out: Tensor, tmp: Tensor): Tensor {
  if (out !== tmp) aten().copy_.call(out, tmp, false);
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// The separable loops

/** Row-major strides of the spatial sizes of one plane. */
function planeStrides(spatial: readonly number[]): number[] {
  const s = new Array<number>(spatial.length).fill(1);
  for (let d = spatial.length - 2; d >= 0; d--) s[d] = (s[d + 1] as number) * (spatial[d + 1] as number);
  return s;
}

/** Calls `visit(outElement, o)` for every output position o (multi-index over `sizes`), row-major. */
function forEachPosition(sizes: readonly number[], visit: (e: number, o: Int32Array) => void): void {
  const k = sizes.length;
  const total = sizes.reduce((a, b) => a * b, 1);
  const o = new Int32Array(k);
  for (let e = 0; e < total; e++) {
    visit(e, o);
    for (let d = k - 1; d >= 0; d--) {
      const next = (o[d] as number) + 1;
      if (next < (sizes[d] as number)) {
        o[d] = next;
        break;
      }
      o[d] = 0;
    }
  }
}

/**
 * `cpu_upsample_generic` into a new tensor `out` (its memory format given): output[n, c, o] = the nested sums
 * over the dims (outermost first) of tap value × tap weight, each step rounded to `opmath_t` as
 * `Interpolate<n, ...>::eval` does. One-tap tables move elements instead (exact for uint8).
 */
export function interpolateForward(input: Tensor, out: Tensor, tables: readonly DimTable[]): Tensor {
  const k = tables.length;
  const inSp = input.sizes.slice(2);
  const outSp = out.sizes.slice(2);
  const inPlane = inSp.reduce((a, b) => a * b, 1);
  const outPlane = outSp.reduce((a, b) => a * b, 1);
  const P = (input.sizes[0] as number) * (input.sizes[1] as number);
  const str = planeStrides(inSp);
  const src = contiguousOf(input);
  const tmp = out.isContiguous() ? out : emptyLike(out, [...out.sizes]);
  if (tables.every((t) => t.taps === 1)) {
    const [d, s] = [storedElements(tmp), storedElements(src)];
    forEachPosition(outSp, (e, o) => {
      let off = 0;
      for (let i = 0; i < k; i++) off += ((tables[i] as DimTable).idx[o[i] as number] as number) * (str[i] as number);
      for (let p = 0; p < P; p++) moveElement(d, p * outPlane + e, s, p * inPlane + off);
    });
    return settle(out, tmp);
  }
  const r = opmath(input.scalarType);
  const x = reader(src);
  const y = writer(tmp);
  const evalAt = (d: number, off: number, o: Int32Array): number => {
    if (d === k) return x(off);
    const { taps, idx, w } = tables[d] as DimTable;
    const b = (o[d] as number) * taps;
    const sd = str[d] as number;
    let acc = 0;
    for (let j = 0; j < taps; j++) {
      const t = r(evalAt(d + 1, off + (idx[b + j] as number) * sd, o) * (w[b + j] as number));
      acc = j === 0 ? t : r(acc + t);
    }
    return acc;
  };
  forEachPosition(outSp, (e, o) => {
    for (let p = 0; p < P; p++) y(p * outPlane + e, evalAt(0, p * inPlane, o));
  });
  return settle(out, tmp);
}

/** The backward scatter: every output gradient times each tap's weight product, added into its input (float64 sums). */
export function interpolateBackward(gradOutput: Tensor, gradInput: Tensor, tables: readonly DimTable[]): Tensor {
  const k = tables.length;
  const inSp = gradInput.sizes.slice(2);
  const outSp = gradOutput.sizes.slice(2);
  const inPlane = inSp.reduce((a, b) => a * b, 1);
  const outPlane = outSp.reduce((a, b) => a * b, 1);
  const P = (gradInput.sizes[0] as number) * (gradInput.sizes[1] as number);
  const str = planeStrides(inSp);
  const acc = new Float64Array(P * inPlane);
  const src = contiguousOf(gradOutput);
  const tmp = gradInput.isContiguous() ? gradInput : emptyLike(gradInput, [...gradInput.sizes]);
  const g = reader(src);
  const spread = (d: number, off: number, v: number, o: Int32Array): void => {
    if (d === k) {
      acc[off] = (acc[off] as number) + v;
      return;
    }
    const { taps, idx, w } = tables[d] as DimTable;
    const b = (o[d] as number) * taps;
    for (let j = 0; j < taps; j++) spread(d + 1, off + (idx[b + j] as number) * (str[d] as number), v * (w[b + j] as number), o);
  };
  forEachPosition(outSp, (e, o) => {
    for (let p = 0; p < P; p++) spread(0, p * inPlane, g(p * outPlane + e), o);
  });
  const y = writer(tmp);
  for (let e = 0; e < acc.length; e++) y(e, acc[e] as number);
  return settle(gradInput, tmp);
}
