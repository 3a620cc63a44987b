// The CPU (and Meta) kernels of the three native FFT operators: `_fft_r2c`, `_fft_c2r`, `_fft_c2c`, with the
// output layout of _exec_fft and the normalisation of _fft_normalization_scale. Mirrors
// aten/src/ATen/native/mkl/SpectralOps.cpp (the pocketfft/MKL kernels; the transforms are PocketFFT.ts) and
// the Meta functions of torch/_meta_registrations.py (meta_fft_r2c / meta_fft_c2r / meta_fft_c2c).

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { isComplexType, isFloatingType, toComplexType, toRealValueType } from '../c10/ScalarType.js';
import { newStrided } from '../tensor/EmptyTensor.js';
import type { Tensor } from '../tensor/Tensor.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';
import * as at from '../generated/TensorBody.js';
import { transformDim } from './PocketFFT.js';

// Note [FFT output layout]
// ~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's CPU FFT (_exec_fft) permutes the input so that the batch dimensions come first, ordered by
// decreasing input stride, then the transformed dimensions in the order given (c2c sorts them by decreasing
// stride first, r2c all but the last); the output is contiguous in that permuted order and is returned with
// the permutation undone. So the output strides follow the input's memory order. The values are computed in a
// contiguous float64 workspace and written through those strides. Meta tensors take other layouts: See Note
// [FFT Meta layouts].

/** `fft_norm_mode`: none, by_root_n, by_n (SpectralOpsUtils.h). */
export const enum FftNorm {
  none = 0,
  by_root_n = 1,
  by_n = 2,
}

function contiguous(sizes: readonly number[]): number[] {
  const st = new Array<number>(sizes.length);
  let acc = 1;
  for (let i = sizes.length - 1; i >= 0; i--) {
    st[i] = acc;
    acc *= Math.max(sizes[i] as number, 1);
  }
  return st;
}

/** `_sort_dims`: dims by decreasing input stride (a stable sort), the last one kept last when `excludeLast`. */
function sortDims(strides: readonly number[], dim: readonly number[], excludeLast = false): number[] {
  const end = dim.length - (excludeLast ? 1 : 0);
  const head = dim.slice(0, end).sort((a, b) => (strides[b] as number) - (strides[a] as number));
  return [...head, ...dim.slice(end)];
}

/** The output strides of _exec_fft (See Note [FFT output layout]). */
function execFftStrides(inStrides: readonly number[], outSizes: readonly number[], dim: readonly number[]): number[] {
  const ndim = outSizes.length;
  const transformed = new Set(dim);
  const batch = [...Array(ndim).keys()].filter((d) => !transformed.has(d));
  batch.sort((a, b) => (inStrides[b] as number) - (inStrides[a] as number));
  const signal = contiguous(dim.map((d) => outSizes[d] as number));
  const stride0 = dim.reduce((acc, d) => acc * Math.max(outSizes[d] as number, 1), 1);
  const out = new Array<number>(ndim).fill(0);
  let batchNumel = 1;
  for (let i = batch.length - 1; i >= 0; i--) {
    const d = batch[i] as number;
    out[d] = batchNumel * stride0;
    batchNumel *= outSizes[d] as number;
  }
  dim.forEach((d, i) => (out[d] = signal[i] as number));
  return out;
}

// Note [FFT Meta layouts]
// ~~~~~~~~~~~~~~~~~~~~~~~
// meta_fft_r2c / meta_fft_c2c / meta_fft_c2r (torch/_meta_registrations.py) take their CUDA branch for a meta
// tensor (device_hint), so a Meta result's strides are those of _fft_r2c_cufft & co, not of the CPU kernels:
// r2c over all the dims of a [5, 6, 7] tensor is [24, 4, 1] on the CPU and [6, 1, 30] on Meta (the last dim
// transformed first into a buffer, then the others from it). The functions below replay those branches'
// sequence of _exec_fft layouts (each stage restrides its output from its input's strides: execFftStrides),
// with cuFFT's limits: at most 3 dims per plan, r2c/c2r in one plan unless the dims start with 0, 1.
const CUFFT_MAX_NDIM = 3;

/** `use_optimized_cufft_path(dim)`: one cuFFT plan for the whole r2c/c2r. */
function useOptimizedCufftPath(dim: readonly number[]): boolean {
  return !(dim.length > CUFFT_MAX_NDIM || (dim.length >= 2 && dim[0] === 0 && dim[1] === 1));
}

/** Stable sort of `dims` by decreasing `strides` (Python's `sort(key=..., reverse=True)`). */
const byStrideDesc = (dims: readonly number[], strides: readonly number[]): number[] =>
  [...dims].sort((a, b) => (strides[b] as number) - (strides[a] as number));

/** meta_fft_c2c's CUDA branch: stages of at most 3 dims, each re-sorted by its input's strides. */
function metaC2cStrides(inStrides: readonly number[], sizes: readonly number[], dim: readonly number[]): number[] {
  let sorted = [...dim];
  let working = [...inStrides];
  for (;;) {
    sorted = byStrideDesc(sorted, working);
    const k = Math.min(CUFFT_MAX_NDIM, sorted.length);
    const out = execFftStrides(working, sizes, sorted.slice(sorted.length - k));
    sorted = sorted.slice(0, sorted.length - k);
    if (sorted.length === 0) return out;
    working = out;
  }
}

/** meta_fft_r2c's CUDA branch. */
function metaR2cStrides(inStrides: readonly number[], sizes: readonly number[], dim: readonly number[], onesided: boolean): number[] {
  const last = dim[dim.length - 1] as number;
  const outSizes = sizes.slice();
  const half = sizes.slice();
  half[last] = Math.floor((sizes[last] as number) / 2) + 1;
  if (onesided) outSizes[last] = half[last] as number;
  if (useOptimizedCufftPath(dim)) return execFftStrides(inStrides, outSizes, dim);
  // the last dim into `output`, then the others alternating between two buffers (`working` starts contiguous)
  let output = execFftStrides(inStrides, dim.length === 1 ? outSizes : half, [last]);
  let working = contiguous(outSizes);
  let sorted = dim.slice(0, -1);
  while (sorted.length > 0) {
    [output, working] = [working, output];
    sorted = byStrideDesc(sorted, working);
    const k = Math.min(CUFFT_MAX_NDIM, sorted.length);
    output = execFftStrides(working, half, sorted.slice(sorted.length - k));
    sorted = sorted.slice(0, sorted.length - k);
  }
  // a two-sided result is the `working` buffer resized contiguous
  return !onesided && half[last] !== outSizes[last] ? contiguous(outSizes) : output;
}

/** meta_fft_c2r's CUDA branch. */
function metaC2rStrides(
  inStrides: readonly number[],
  sizes: readonly number[],
  dim: readonly number[],
  outSizes: readonly number[],
): number[] {
  const last = dim[dim.length - 1] as number;
  if (useOptimizedCufftPath(dim)) return execFftStrides(contiguous(sizes), outSizes, dim);
  const temp = dim.length > 1 ? metaC2cStrides(inStrides, sizes, dim.slice(0, -1)) : contiguous(sizes);
  return execFftStrides(temp, outSizes, [last]);
}

/** `_fft_normalization_scale`: 1, 1/sqrt(n) or 1/n for the signal sizes of `dim`. */
function normScale(normalization: number, sizes: readonly number[], dim: readonly number[]): number {
  if (normalization === FftNorm.none) return 1;
  const n = dim.reduce((acc, d) => acc * (sizes[d] as number), 1);
  return normalization === FftNorm.by_root_n ? 1 / Math.sqrt(n) : 1 / n;
}

/** Calls f(linear index, element offset) for every element of a strided layout, in row-major order. */
function forEachOffset(sizes: readonly number[], strides: readonly number[], f: (i: number, off: number) => void): void {
  const nd = sizes.length;
  const numel = sizes.reduce((a, b) => a * b, 1);
  if (numel === 0) return;
  const idx = new Array<number>(nd).fill(0);
  let off = 0;
  for (let i = 0; i < numel; i++) {
    f(i, off);
    for (let d = nd - 1; d >= 0; d--) {
      const s = strides[d] as number;
      if ((idx[d] as number) + 1 < (sizes[d] as number)) {
        idx[d] = (idx[d] as number) + 1;
        off += s;
        break;
      }
      off -= s * (idx[d] as number);
      idx[d] = 0;
    }
  }
}

/** Whether `strides` are the row-major contiguous strides of `sizes` (size-1 dims ignored). */
function isContiguousLayout(sizes: readonly number[], strides: readonly number[]): boolean {
  let acc = 1;
  for (let d = sizes.length - 1; d >= 0; d--) {
    const n = sizes[d] as number;
    if (n !== 1 && strides[d] !== acc) return false;
    acc *= n;
  }
  return true;
}

// Note [FFT workspaces]
// ~~~~~~~~~~~~~~~~~~~~~
// The float64 workspaces of the transforms are kept between calls (two slots: c2r needs its input and the full
// spectrum at once) up to WORKSPACE_KEEP doubles each: allocating a megabyte per call made V8 collect garbage
// for its external memory on nearly every call of a large FFT. JS runs one kernel at a time, so no call sees
// another's workspace in use.
const WORKSPACE_KEEP = 1 << 22;
const workspaces: Float64Array[] = [new Float64Array(0), new Float64Array(0)];

/** A float64 array of `len` doubles from workspace `slot` (its contents are stale). */
function workspace(slot: number, len: number): Float64Array {
  if (len > WORKSPACE_KEEP) return new Float64Array(len);
  let w = workspaces[slot] as Float64Array;
  if (w.length < len) {
    w = new Float64Array(Math.max(len, 2 * w.length));
    workspaces[slot] = w;
  }
  return w.subarray(0, len);
}

/** The values of `t` (real or complex) as a contiguous complex float64 workspace of t's sizes. */
function loadComplex(t: Tensor): Float64Array {
  const buf = workspace(0, 2 * t.numel());
  if (buf.length === 0) return buf;
  if (t.dataView().lanes === 1) buf.fill(0);
  const { data, base, lanes } = t.dataView();
  if (isContiguousLayout(t.sizes, t.strides)) {
    const n = t.numel();
    if (lanes === 2) buf.set(data.subarray(base, base + 2 * n) as Float32Array | Float64Array);
    else for (let i = 0; i < n; i++) buf[2 * i] = data[base + i] as number;
    return buf;
  }
  forEachOffset(t.sizes, t.strides, (i, off) => {
    buf[2 * i] = data[base + off * lanes] as number;
    if (lanes === 2) buf[2 * i + 1] = data[base + off * lanes + 1] as number;
  });
  return buf;
}

function wrapDims(dim: readonly number[], ndim: number): number[] {
  return dim.map((d) => maybeWrapDim(d, ndim, false));
}

/** `_fft_c2c(self, dim, normalization, forward)`: the complex transform over `dim`. */
export function fftC2c(_ks: DispatchKeySet, self: Tensor, dim: number[], normalization: number, forward: boolean): Tensor {
  if (!isComplexType(self.scalarType)) throw new Error('Expected self.is_complex() to be true, but got false.');
  const dims = wrapDims(dim, self.dim());
  if (dims.length === 0) return at.clone(self);
  const sizes = self.sizes.slice();
  if (self.isMeta()) return newStrided(sizes, metaC2cStrides(self.strides, sizes, dims), self.scalarType, self.device);
  const sorted = sortDims(self.strides, dims);
  const out = newStrided(sizes, execFftStrides(self.strides, sizes, sorted), self.scalarType, self.device);
  if (out.numel() === 0) return out;
  const buf = loadComplex(self);
  for (const d of sorted) transformDim(buf, sizes, d, forward ? -1 : 1);
  storeComplex(out, buf, sizes, normScale(normalization, sizes, dims));
  return out;
}

/** Writes the contiguous complex workspace (of `sizes`) into `out`, scaled. */
function storeComplex(out: Tensor, buf: Float64Array, sizes: readonly number[], scale: number): void {
  const { data, base, lanes } = out.dataView();
  const src = contiguous(sizes);
  if (isContiguousLayout(out.sizes, out.strides) && isContiguousLayout(out.sizes, src)) {
    const n = 2 * out.numel();
    if (scale !== 1) for (let i = 0; i < n; i++) buf[i] = (buf[i] as number) * scale;
    (data as Float32Array | Float64Array).set(buf.subarray(0, n), base);
    return;
  }
  copyOut(out.sizes, out.strides, data, base, lanes, src, buf, scale);
}

/**
 * data[base + Σ i_d dst_d * lanes (+ 1)] = buf[2 Σ i_d src_d (+ 1)] * scale for every index i of `sizes`: the
 * workspace (complex, strides `src`) into a tensor's data (real part only when lanes is 1), the innermost dim
 * in a plain loop and the others walked as an odometer.
 */
function copyOut(
  sizes: readonly number[],
  dst: readonly number[],
  data: ArrayLike<number> & { [i: number]: number },
  base: number,
  lanes: number,
  src: readonly number[],
  buf: Float64Array,
  scale: number,
): void {
  const nd = sizes.length;
  if (sizes.some((n) => n === 0)) return;
  const inner = nd === 0 ? 1 : (sizes[nd - 1] as number);
  const ds = nd === 0 ? 0 : (dst[nd - 1] as number) * lanes;
  const ss = nd === 0 ? 0 : 2 * (src[nd - 1] as number);
  const idx = new Array<number>(Math.max(nd - 1, 0)).fill(0);
  let doff = base;
  let soff = 0;
  for (;;) {
    if (lanes === 2) {
      for (let k = 0, d = doff, q = soff; k < inner; k++, d += ds, q += ss) {
        data[d] = (buf[q] as number) * scale;
        data[d + 1] = (buf[q + 1] as number) * scale;
      }
    } else {
      for (let k = 0, d = doff, q = soff; k < inner; k++, d += ds, q += ss) data[d] = (buf[q] as number) * scale;
    }
    let d = nd - 2;
    for (; d >= 0; d--) {
      const i = (idx[d] as number) + 1;
      if (i < (sizes[d] as number)) {
        idx[d] = i;
        doff += (dst[d] as number) * lanes;
        soff += 2 * (src[d] as number);
        break;
      }
      idx[d] = 0;
      doff -= (i - 1) * (dst[d] as number) * lanes;
      soff -= 2 * (i - 1) * (src[d] as number);
    }
    if (d < 0) return;
  }
}

/** `_fft_r2c(self, dim, normalization, onesided)`: the forward transform of a real tensor, half of the last dim when onesided. */
export function fftR2c(_ks: DispatchKeySet, self: Tensor, dim: number[], normalization: number, onesided: boolean): Tensor {
  if (!isFloatingType(self.scalarType)) throw new Error('Expected self.is_floating_point() to be true, but got false.');
  const dims = wrapDims(dim, self.dim());
  const sizes = self.sizes.slice();
  const outSizes = sizes.slice();
  const last = dims[dims.length - 1] as number;
  if (onesided) outSizes[last] = Math.floor((sizes[last] as number) / 2) + 1;
  const type = toComplexType(self.scalarType);
  if (self.isMeta()) return newStrided(outSizes, metaR2cStrides(self.strides, sizes, dims, onesided), type, self.device);
  const sorted = sortDims(self.strides, dims, true);
  const out = newStrided(outSizes, execFftStrides(self.strides, outSizes, sorted), type, self.device);
  if (out.numel() === 0) return out;
  const buf = loadComplex(self);
  // the last dim first; the other dims then only over the columns the onesided output keeps
  transformDim(buf, sizes, last, -1);
  const keep = outSizes[last] as number;
  for (const d of dims.slice(0, -1))
    transformDim(buf, sizes, d, -1, last === sizes.length - 1 && last > d ? keep : -1, sizes[last] as number);
  storeComplex(out, buf, sizes, normScale(normalization, sizes, dims));
  return out;
}

/** `_fft_c2r(self, dim, normalization, last_dim_size)`: the backward transform of a Hermitian half-spectrum to a real tensor. */
export function fftC2r(_ks: DispatchKeySet, self: Tensor, dim: number[], normalization: number, lastDimSize: number): Tensor {
  if (!isComplexType(self.scalarType)) throw new Error('Expected self.is_complex() to be true, but got false.');
  const dims = wrapDims(dim, self.dim());
  const last = dims[dims.length - 1] as number;
  const sizes = self.sizes.slice();
  const outSizes = sizes.slice();
  outSizes[last] = lastDimSize;
  const type = toRealValueType(self.scalarType);
  if (self.isMeta()) return newStrided(outSizes, metaC2rStrides(self.strides, sizes, dims, outSizes), type, self.device);
  // _fft_c2r_mkl: the c2c over the other dims lays out an intermediate, the last dim's transform the output
  const other = dims.slice(0, -1);
  const mid = other.length > 0 ? execFftStrides(self.strides, sizes, sortDims(self.strides, other)) : contiguous(sizes);
  const out = newStrided(outSizes, execFftStrides(mid, outSizes, [last]), type, self.device);
  if (out.numel() === 0) return out;
  const buf = loadComplex(self);
  for (const d of other) transformDim(buf, sizes, d, 1);
  // the full spectrum along the last dim: X[k] for k <= L/2 (zero past the input), conj(X[L-k]) above
  const L = lastDimSize;
  const m = sizes[last] as number;
  const full = workspace(1, 2 * out.numel()).fill(0);
  const inSt = contiguous(sizes);
  const fullSt = contiguous(outSizes);
  forEachOffset(outSizes, fullSt, (_i, off) => {
    let r = off;
    let src = 0;
    let k = 0;
    for (let d = 0; d < outSizes.length; d++) {
      const q = Math.floor(r / (fullSt[d] as number));
      r -= q * (fullSt[d] as number);
      if (d === last) k = q;
      else src += q * (inSt[d] as number);
    }
    const conj = k > L / 2;
    const kk = conj ? L - k : k;
    if (kk < m) {
      full[2 * off] = buf[2 * (src + kk * (inSt[last] as number))] as number;
      const im = buf[2 * (src + kk * (inSt[last] as number)) + 1] as number;
      full[2 * off + 1] = conj ? -im : im;
    }
  });
  transformDim(full, outSizes, last, 1);
  const scale = normScale(normalization, outSizes, dims);
  const { data, base } = out.dataView();
  copyOut(out.sizes, out.strides, data, base, 1, fullSt, full, scale);
  return out;
}
