// The reductions' loops over one run of elements (a start, a stride, a count): sums, products, extrema, argmax /
// argmin, all / any, p-norms, with the SIMD kernels where the run is unit-stride float in linear memory and a
// deterministic chunked sum on several threads. Mirrors aten/src/ATen/native/cpu/ReduceOpsKernel.cpp (and
// SumKernel.cpp's cascade sum); the meta functions and operators that drive these loops are ReduceOps.ts. At the
// end, the scans cummax, cummin and logcumsumexp.

import { Device, DeviceType } from '../c10/Device.js';
import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isFloatingType, notImplementedForDtype } from '../c10/ScalarType.js';
import type { ColumnsOp, PlanesOp, ReduceOp } from '../iter/index.js';
import { toStored } from '../tensor/elements.js';
import type { Tensor } from '../tensor/Tensor.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';
import { contiguousOf, elementReader, emptyLike, linearScratchOn, storedElements } from './StorageAccess.js';
import { around } from './TensorShape.js';
import * as ref from '../wasm/kernels/reference.js';
import { STAGING_BASE, STAGING_BYTES } from '../wasm/runtime/allocator.js';
import { wasmStorage } from '../wasm/runtime/CPUAllocator.js';
import { addressOf, runKernelCalls, splitRange, threadsFor, wasmKernelFor } from '../wasm/kernels/vec.js';

// Note [Reduction order]
// ~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's CPU sum uses a cascade of partial sums in the accumulation type, so the last bits of a float32
// sum depend on the blocking. Float runs take the cascade (Note [One rule for float sums]); sumRun, for the
// integer dtypes, sums into a wider type and gathered slices, accumulates in double precision (pairwise over
// blocks of the reduced elements) and rounds once: exact for integers below 2^53. Tests compare floating
// results with a relative tolerance.
const SUM_BLOCK = 64;

/** Pairwise sum of `n` values `src[o + i*s]`, in doubles (Note [Reduction order]). */
export function sumRun(src: ArrayLike<number>, o: number, s: number, n: number): number {
  if (n <= SUM_BLOCK) {
    let acc = 0;
    if (s === 1) for (let i = 0; i < n; i++) acc += src[o + i] as number;
    else for (let i = 0, p = o; i < n; i++, p += s) acc += src[p] as number;
    return acc;
  }
  // Split at a multiple of the block, so leaves stay whole blocks.
  const h = Math.ceil(n / 2 / SUM_BLOCK) * SUM_BLOCK;
  return sumRun(src, o, s, h) + sumRun(src, o + h * s, s, n - h);
}

export function prodRun(src: ArrayLike<number>, o: number, s: number, n: number): number {
  let acc = 1;
  for (let i = 0, p = o; i < n; i++, p += s) acc *= src[p] as number;
  return acc;
}

/** max (NaN propagates); an empty slice never reaches it (the metas reject it). */
export function maxRun(src: ArrayLike<number>, o: number, s: number, n: number): number {
  let best = -Infinity;
  for (let i = 0, p = o; i < n; i++, p += s) {
    const x = src[p] as number;
    if (!(x <= best)) {
      if (x !== x) return NaN;
      best = x;
    }
  }
  return best;
}

export function minRun(src: ArrayLike<number>, o: number, s: number, n: number): number {
  let best = Infinity;
  for (let i = 0, p = o; i < n; i++, p += s) {
    const x = src[p] as number;
    if (!(x >= best)) {
      if (x !== x) return NaN;
      best = x;
    }
  }
  return best;
}

/** The index of the first maximum (the first NaN wins). */
export function argmaxRun(src: ArrayLike<number>, o: number, s: number, n: number): number {
  let bi = 0;
  let best = src[o] as number;
  if (best !== best) return 0;
  for (let i = 1, p = o + s; i < n; i++, p += s) {
    const x = src[p] as number;
    if (x !== x) return i;
    if (x > best) {
      best = x;
      bi = i;
    }
  }
  return bi;
}

export function argminRun(src: ArrayLike<number>, o: number, s: number, n: number): number {
  let bi = 0;
  let best = src[o] as number;
  if (best !== best) return 0;
  for (let i = 1, p = o + s; i < n; i++, p += s) {
    const x = src[p] as number;
    if (x !== x) return i;
    if (x < best) {
      best = x;
      bi = i;
    }
  }
  return bi;
}

export function allRun(src: ArrayLike<number>, o: number, s: number, n: number): number {
  for (let i = 0, p = o; i < n; i++, p += s) if (src[p] === 0) return 0;
  return 1;
}

export function anyRun(src: ArrayLike<number>, o: number, s: number, n: number): number {
  for (let i = 0, p = o; i < n; i++, p += s) if (src[p] !== 0) return 1;
  return 0;
}

// Note [One rule for float sums]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's CPU sum (aten/src/ATen/native/cpu/SumKernel.cpp, cascade_sum) accumulates a float32 sum in float32
// (opmath of float is float), in a cascade of vectorised partial sums whose levels keep the error near
// O(log n · eps). Here a float32 (float64) sum of a run, whatever its length, stride or backend, is that
// cascade in the input's precision: f32_rsum / f64_rsum where the run is unit-stride in linear memory, else
// their JS twin (src/wasm/kernels/reference.ts, the same order with a stride; Note [The twin is the fallback]),
// and above SUM_CHUNK elements the same chunks added in the same order (Note [Deterministic parallel sum]).
// So a sum no longer changes its last bits with the size of its tensor (the JS heap's small storages used to
// sum in doubles) or with the backend. The cascade's blocking is wasm's (Note [Cascade sum in wasm]), not
// ATen's exactly, so the last bits can still differ from PyTorch's; the sum goldens compare within their
// tolerance, and a float32 cascade meets them as the double sum did (float32 partials of at most levelStep
// terms). Left as they were: a sum into a wider dtype (`dtype=torch.float64`: sumRun in doubles, as PyTorch's
// cast-then-sum), and slices gathered from several reduced dims into a double buffer (Note [Reducing runs,
// then partials]), which sum in doubles.

/** The cascade sum of a float run (Note [One rule for float sums]); sumRun for every other array. */
export function sumRunVec(src: ArrayLike<number>, o: number, s: number, n: number): number {
  if (n > 1 && (src instanceof Float32Array || src instanceof Float64Array)) {
    const isF32 = src instanceof Float32Array;
    if (s === 1) {
      const k = wasmKernelFor<SumKernel>(isF32 ? 'f32_rsum' : 'f64_rsum', src);
      if (k !== null) return n <= SUM_CHUNK ? k(n, addressOf(src, o)) : chunkedSum(k, isF32, n, addressOf(src, o));
    }
    return isF32 ? twinSum(ref.f32_rsum, Math.fround, src, o, s, n) : twinSum(ref.f64_rsum, (v) => v, src as Float64Array, o, s, n);
  }
  return sumRun(src, o, s, n);
}

type ColumnsKernel = (n: number, x: number, s: number, cols: number, y: number) => void;

/**
 * sumRunVec over `cols` adjacent strided runs (a row-major matrix's columns) in one f32_rsum_cols call per
 * staging area's worth of columns (Note [Column sums]): the bits of sumRunVec on each run. False when the
 * kernel does not apply (not float32 in linear memory, runs over SUM_CHUNK).
 */
export const sumColumns: ColumnsOp = (src, o, s, n, cols, into) => {
  if (!(src instanceof Float32Array) || n > SUM_CHUNK || n < 2) return false;
  const k = wasmKernelFor<ColumnsKernel>('f32_rsum_cols', src);
  const buf = wasmStorage.buffer;
  if (k === null || buf === null) return false;
  const per = STAGING_BYTES >> 2;
  for (let c0 = 0; c0 < cols; c0 += per) {
    const m = Math.min(per, cols - c0);
    k(n, addressOf(src, o + c0), s, m, STAGING_BASE);
    const staged = new Float32Array(buf, STAGING_BASE, m);
    for (let c = 0; c < m; c++) into[c0 + c] = staged[c] as number;
  }
  return true;
};
(sumRunVec as ReduceOp & { columns?: ColumnsOp }).columns = sumColumns;

// Note [Per-channel sums]
// ~~~~~~~~~~~~~~~~~~~~~~~
// A convolution's bias gradient, sum over [0, 2, 3] of a contiguous [n, c, h, w], reaches the reduction loop as
// two reduced dims (runs of h·w, n of them per channel, `rs` = c·h·w apart) and one kept dim (the channels,
// `ps` = h·w apart): a plane of runs per output. One f32_rsum_planes / f64_rsum_planes call sums every
// channel's runs, each run the cascade of f32_rsum / f64_rsum, the run partials added one after another in
// the dtype from 0. That is PyTorch's order at this level (cascade_sum's vectorized_inner_sum adds each row's
// sum into the output, which starts at 0, one row after another); the runs' own cascade is wasm's blocking,
// as every float sum here (Note [One rule for float sums]). It replaced one JS-to-wasm call per run and a
// double sum of the partials (Note [Reducing runs, then partials], still the rule for three or more reduced
// dims). Channels are split among threads (each output one call) and the JS twin (rsum_planes in
// src/wasm/kernels/reference.ts) gives the same bits, so the result depends on neither the thread count nor
// the backend. The outputs go through the staging area (the bias is a JS-heap storage in a user's process).

type PlanesKernel = (n: number, runs: number, rs: number, planes: number, ps: number, x: number, y: number) => void;

/** sumRunVec over planes of runs (Note [Per-channel sums]); false for arrays other than float32 / float64. */
export const sumPlanes: PlanesOp = (src, o, n, runs, rs, planes, ps, into) => {
  if (!(src instanceof Float32Array || src instanceof Float64Array) || n > SUM_CHUNK || n < 2) return false;
  const isF32 = src instanceof Float32Array;
  const name = isF32 ? 'f32_rsum_planes' : 'f64_rsum_planes';
  const k = wasmKernelFor<PlanesKernel>(name, src);
  const buf = wasmStorage.buffer;
  if (k === null || buf === null) {
    const y = isF32 ? new Float32Array(planes) : new Float64Array(planes);
    ref.rsum_planes(n, runs, rs, planes, ps, src, o, y, 0);
    into.set(y);
    return true;
  }
  const bytes = isF32 ? 4 : 8;
  const per = STAGING_BYTES / bytes;
  const x = addressOf(src, o);
  for (let p0 = 0; p0 < planes; p0 += per) {
    const m = Math.min(per, planes - p0);
    const threads = Math.min(threadsFor(m * runs * n), m);
    const x0 = x + p0 * ps * bytes;
    if (threads > 1) {
      const cuts = splitRange(m, threads, 1);
      const calls: number[][] = [];
      for (let t = 0; t + 1 < cuts.length; t++) {
        const [from, to] = [cuts[t] as number, cuts[t + 1] as number];
        calls.push([n, runs, rs, to - from, ps, x0 + from * ps * bytes, STAGING_BASE + from * bytes]);
      }
      runKernelCalls(name, calls);
    } else {
      k(n, runs, rs, m, ps, x0, STAGING_BASE);
    }
    const staged = isF32 ? new Float32Array(buf, STAGING_BASE, m) : new Float64Array(buf, STAGING_BASE, m);
    for (let c = 0; c < m; c++) into[p0 + c] = staged[c] as number;
  }
  return true;
};
(sumRunVec as ReduceOp & { planes?: PlanesOp }).planes = sumPlanes;

/** The twin of chunkedSum over a strided run: the same chunks, each the cascade, added in order. */
function twinSum<A extends Float32Array | Float64Array>(
  rsum: (n: number, x: A, xi: number, s: number) => number,
  round: (v: number) => number,
  src: A,
  o: number,
  s: number,
  n: number,
): number {
  if (n <= SUM_CHUNK) return rsum(n, src, o, s);
  let total = 0;
  for (let c = 0; c * SUM_CHUNK < n; c++)
    total = round(total + rsum(Math.min(SUM_CHUNK, n - c * SUM_CHUNK), src, o + c * SUM_CHUNK * s, s));
  return total;
}

// Note [Deterministic parallel sum]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A run longer than SUM_CHUNK elements is summed as chunks of SUM_CHUNK (the last shorter), each the cascade
// sum of f32_rsum / f64_rsum, and the chunks' partial sums are then added in chunk order in the run's
// precision. The split depends on the length alone, never on the thread count: on one thread the chunks run
// one after another, on more the chunks are shared out (f32_rsum_chunks writes each chunk's partial to a
// scratch buffer in linear memory), and the same partials are added in the same order, so the bits are the
// same on any number of threads. A run of at most SUM_CHUNK is one cascade sum, as before. (PyTorch's cascade
// sum over the whole run differs in the last bits either way; so does the JS loop of the 'js' backend.)
const SUM_CHUNK = 65536;
const CPU_DEVICE = new Device(DeviceType.CPU);

type SumKernel = (n: number, x: number) => number;
type ChunksKernel = (n: number, chunk: number, x: number, out: number) => void;

/** The chunked sum of n > SUM_CHUNK elements at byte address `x` (Note [Deterministic parallel sum]). */
function chunkedSum(k: SumKernel, isF32: boolean, n: number, x: number): number {
  const bytes = isF32 ? 4 : 8;
  const chunks = Math.ceil(n / SUM_CHUNK);
  const add = isF32 ? (a: number, b: number): number => Math.fround(a + b) : (a: number, b: number): number => a + b;
  const threads = Math.min(threadsFor(n), chunks);
  let total = 0;
  if (threads === 1) {
    for (let c = 0; c < chunks; c++) total = add(total, k(Math.min(SUM_CHUNK, n - c * SUM_CHUNK), x + c * SUM_CHUNK * bytes));
    return total;
  }
  // Threads run over a shared memory, which never detaches: `x` stays valid across this allocation. The
  // scratch is in linear memory (a float32 one of 256 elements, 1 KiB, was not: the parallel sum never ran).
  const dtype = isF32 ? ScalarType.Float : ScalarType.Double;
  const scratch = linearScratchOn(CPU_DEVICE, chunks, dtype);
  const parts = scratch.storage.data(dtype) as Float32Array | Float64Array;
  const name = isF32 ? 'f32_rsum_chunks' : 'f64_rsum_chunks';
  if (wasmKernelFor<ChunksKernel>(name, parts) === null) {
    scratch.dispose();
    for (let c = 0; c < chunks; c++) total = add(total, k(Math.min(SUM_CHUNK, n - c * SUM_CHUNK), x + c * SUM_CHUNK * bytes));
    return total;
  }
  const p0 = scratch.storage.arrayOffset(dtype);
  const out = addressOf(parts, p0);
  const cuts = splitRange(chunks, threads, 1);
  const calls: number[][] = [];
  for (let t = 0; t + 1 < cuts.length; t++) {
    const [from, to] = [cuts[t] as number, cuts[t + 1] as number];
    const start = from * SUM_CHUNK;
    calls.push([Math.min(to * SUM_CHUNK, n) - start, SUM_CHUNK, x + start * bytes, out + from * bytes]);
  }
  runKernelCalls(name, calls);
  const view = scratch.storage.data(dtype) as Float32Array | Float64Array;
  for (let c = 0; c < chunks; c++) total = add(total, view[p0 + c] as number);
  scratch.dispose();
  return total;
}

type Extreme = (n: number, x: number) => number;
export type ReduceRun = (src: ArrayLike<number>, o: number, s: number, n: number) => number;

/**
 * maxRun / minRun, or the SIMD kernel for a unit-stride float32 / float64 run in linear memory. A zero
 * result is recomputed by the scalar loop, which returns the first zero as PyTorch's scalar reduction does
 * (the kernel's lanes may meet a ±0 tie in another order).
 */
function extremeRunVec(isMax: boolean): (src: ArrayLike<number>, o: number, s: number, n: number) => number {
  const scalar = isMax ? maxRun : minRun;
  return (src, o, s, n) => {
    if (s === 1 && n > 1 && (src instanceof Float32Array || src instanceof Float64Array)) {
      const name = src instanceof Float32Array ? (isMax ? 'f32_rmax' : 'f32_rmin') : isMax ? 'f64_rmax' : 'f64_rmin';
      const k = wasmKernelFor<Extreme>(name, src);
      if (k !== null) {
        const r = k(n, addressOf(src, o));
        if (r !== 0) return r;
      }
    }
    return scalar(src, o, s, n);
  };
}
export const maxRunVec = extremeRunVec(true);
export const minRunVec = extremeRunVec(false);

/** The p-norm of `n` values `src[o + i*s]`: p = 0 counts non-zeros, ±inf take the max/min magnitude. */
export function pNormRun(p: number): ReduceOp {
  if (p === Infinity) {
    return (src, o, s, n) => {
      let m = 0;
      for (let i = 0, q = o; i < n; i++, q += s) {
        const a = Math.abs(src[q] as number);
        if (a > m || a !== a) m = a;
      }
      return m;
    };
  }
  if (p === -Infinity) {
    return (src, o, s, n) => {
      let m = Infinity;
      for (let i = 0, q = o; i < n; i++, q += s) {
        const a = Math.abs(src[q] as number);
        if (a < m || a !== a) m = a;
      }
      return m;
    };
  }
  if (p === 0) {
    return (src, o, s, n) => {
      let c = 0;
      for (let i = 0, q = o; i < n; i++, q += s) if (src[q] !== 0) c++;
      return c;
    };
  }
  return (src, o, s, n) => {
    const total = powSumRun(src, o, s, n, p);
    return p === 1 ? total : p === 2 ? Math.sqrt(total) : total ** (1 / p);
  };
}

/** Pairwise sum of `|x|^p` over a run (as sumRun). */
function powSumRun(src: ArrayLike<number>, o: number, s: number, n: number, p: number): number {
  if (n <= SUM_BLOCK) {
    let acc = 0;
    for (let i = 0, q = o; i < n; i++, q += s) {
      const a = Math.abs(src[q] as number);
      acc += p === 1 ? a : p === 2 ? a * a : a ** p;
    }
    return acc;
  }
  const h = Math.ceil(n / 2 / SUM_BLOCK) * SUM_BLOCK;
  return powSumRun(src, o, s, h, p) + powSumRun(src, o + h * s, s, n - h, p);
}

// ---------------------------------------------------------------------------------------------------
// cummax, cummin (ReduceOps.cpp's cummax_helper_cpu / cummin_helper_cpu) and logcumsumexp (this file's
// logcumsumexp_cpu_kernel in PyTorch): scans along one dim of a contiguous copy.
// ---------------------------------------------------------------------------------------------------

type Scan = (read: (k: number) => number, write: (k: number, v: number, idx: number) => void, n: number) => void;

function scanAlong(self: Tensor, dim: number, withIndices: boolean, scan: Scan): [Tensor, Tensor | null] {
  const values = emptyLike(self, [...self.sizes]);
  const indices = withIndices ? emptyLike(self, [...self.sizes], ScalarType.Long) : null;
  if (values.isMeta() || self.numel() === 0) return [values, indices];
  const d = self.dim() === 0 ? 0 : maybeWrapDim(dim, self.dim());
  const [outer, size, inner] = around(self.dim() === 0 ? [1] : self.sizes, d);
  const src = contiguousOf(self);
  const read = elementReader(src);
  const yv = storedElements(values);
  const yi = indices === null ? null : storedElements(indices);
  const dtype = self.scalarType;
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      const at = (k: number): number => (o * size + k) * inner + i;
      scan(
        (k) => read(at(k)),
        (k, v, idx) => {
          yv.data[yv.base + at(k)] = toStored(dtype, v);
          if (yi !== null) yi.data[yi.base + at(k)] = idx;
        },
        size,
      );
    }
  }
  return [values, indices];
}

/** cummax_cummin_helper: a NaN, or a value `op` prefers to the running one, becomes the running value. */
function cumExtreme(better: (x: number, cur: number) => boolean): Scan {
  return (read, write, n) => {
    let out = read(0);
    let idx = 0;
    for (let k = 0; k < n; k++) {
      const x = read(k);
      if (x !== x || (out === out && better(x, out))) {
        out = x;
        idx = k;
      }
      write(k, out, idx);
    }
  };
}

/** `cummax(self, dim)`: running maxima and the index of the last element equal to each. */
export function cummax(_ks: DispatchKeySet, self: Tensor, dim: number): [Tensor, Tensor] {
  const [v, i] = scanAlong(
    self,
    dim,
    true,
    cumExtreme((x, cur) => x >= cur),
  );
  return [v, i as Tensor];
}
/** `cummin(self, dim)`. */
export function cummin(_ks: DispatchKeySet, self: Tensor, dim: number): [Tensor, Tensor] {
  const [v, i] = scanAlong(
    self,
    dim,
    true,
    cumExtreme((x, cur) => x <= cur),
  );
  return [v, i as Tensor];
}

/** _log_add_exp_helper: log(exp(x) + exp(y)), with NaN propagated and equal infinities kept. */
function logAddExp(x: number, y: number): number {
  const min = y !== y ? y : y < x ? y : x;
  const max = y !== y ? y : x < y ? y : x;
  if (min !== max || Number.isFinite(min)) return Math.log1p(Math.exp(min - max)) + max;
  return x;
}

/** `logcumsumexp(self, dim)`: floating inputs only; accumulated in double (the CPU acc_type). */
export function logcumsumexp(_ks: DispatchKeySet, self: Tensor, dim: number): Tensor {
  if (self.dim() > 0) maybeWrapDim(dim, self.dim());
  if (!isFloatingType(self.scalarType) && !self.isMeta()) throw notImplementedForDtype('logcumsumexp_out_cpu', self.scalarType);
  return scanAlong(self, dim, false, (read, write, n) => {
    let acc = -Infinity;
    for (let k = 0; k < n; k++) {
      acc = logAddExp(read(k), acc);
      write(k, acc, 0);
    }
  })[0];
}
