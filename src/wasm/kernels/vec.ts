// The bridge from TensorIterator's vectorised inner loops (VecOp, iter/Loops.ts) to the SIMD kernels: a
// VecOp that calls the WASM kernel when every operand's array is over linear memory and the dtype has a
// kernel, and the JS loop otherwise (Note [Kernel backends]). ATen's counterpart is the choice between
// `vectorized_loop` and `basic_loop` in native/cpu/Loops.h; here the choice is also where the bytes are.

import type { ScalarVecOp, VecOp } from '../../iter/Loops.js';
import type { StorageArray } from '../../tensor/Storage.js';
import { wasmStorage } from '../runtime/CPUAllocator.js';
import type { KernelName, Kernels } from './generated/KernelNames.js';
import type { Elements } from './reference.js';
import { getNumThreads, parallelSettings } from '../runtime/ParallelNative.js';

type BinaryKernel = (n: number, a: number, b: number, y: number) => void;

type UnaryKernel = (n: number, x: number, y: number) => void;

/** A kernel of the current table by name, resolved once per table (the table changes with the backend). */
function resolver<F>(name: KernelName | null): () => F | null {
  let table: Kernels | null = null;
  let fn: F | null = null;
  return () => {
    const k = wasmStorage.kernels;
    if (k !== table) {
      table = k;
      fn = k === null || name === null ? null : (k[name] as unknown as F);
    }
    return fn;
  };
}

/** Byte address, in linear memory, of element `i` of `a` (an array over linear memory). */
export const addressOf = (a: StorageArray, i: number): number => a.byteOffset + i * a.BYTES_PER_ELEMENT;

// Note [The twin is the fallback]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Each declared kernel has one JS twin (reference.ts): the same arithmetic in the same order, the tests' oracle
// (test/wasm/kernels.test.ts compares bits) and the loop that runs whenever the kernel cannot: the 'js' backend,
// operands in the JS heap (small storages, SMALL_BYTES), runs below `minElements`, dtypes without a kernel.
// So the JS path gives the SIMD path's bits: there is no second JS loop to drift from the kernel (a float32
// exp or sum used to differ in the last bits between a small and a large tensor). The twins of + - * / take
// every storage array (integer stores wrap as C++ does), so they are also the loops of the integer dtypes.

/** A binary twin: y[yi + i] = a[ai + i] op b[bi + i] for i < n. */
export type BinaryTwin = (n: number, a: Elements, ai: number, b: Elements, bi: number, y: Elements, yi: number) => void;

/** The VecOp of a binary twin, over any storage arrays. */
export const twinVec =
  (twin: BinaryTwin): VecOp =>
  (out, o, ins, offs, n) =>
    twin(n, ins[0] as StorageArray, offs[0] as number, ins[1] as StorageArray, offs[1] as number, out, o);

/** The binary kernels `f32` / `f64` with their twin as the fallback (Note [The twin is the fallback]). */
export function binaryVec(twin: BinaryTwin, f32: KernelName, f64: KernelName): VecOp {
  return wasmBinaryVec(twinVec(twin), f32, f64);
}

/**
 * `js` with a WASM fast path: `f32` / `f64` name the kernels for float32 / float64 arrays (int64 lives in
 * Float64Array too, and its + - * / are the double operations, Note [Typed storage of each dtype]).
 */
export function wasmBinaryVec(js: VecOp, f32: KernelName | null, f64: KernelName | null): VecOp {
  const k32 = resolver<BinaryKernel>(f32);
  const k64 = resolver<BinaryKernel>(f64);
  return (out, o, ins, offs, n) => {
    const buf = wasmStorage.buffer;
    const a = ins[0] as StorageArray;
    const b = ins[1] as StorageArray;
    if (n >= wasmStorage.minElements && out.buffer === buf && a.buffer === buf && b.buffer === buf) {
      const k = out instanceof Float32Array ? k32() : out instanceof Float64Array ? k64() : null;
      if (k !== null) {
        const pa = addressOf(a, offs[0] as number);
        const pb = addressOf(b, offs[1] as number);
        const py = addressOf(out, o);
        const threads = threadsFor(n);
        if (threads === 1) k(n, pa, pb, py);
        else splitCalls((out instanceof Float32Array ? f32 : f64) as KernelName, n, threads, out.BYTES_PER_ELEMENT, [pa, pb], py, []);
        return;
      }
    }
    js(out, o, ins, offs, n);
  };
}

type AxpyKernel = (n: number, a: number, b: number, alpha: number, y: number) => void;
const axpy32 = resolver<AxpyKernel>('f32_vaxpy');
const axpy64 = resolver<AxpyKernel>('f64_vaxpy');

/**
 * `js` (out = a + alpha·b) with the WASM fast path f32_vaxpy / f64_vaxpy: one pass, in place when out is a
 * (Note [axpy in double]).
 */
export function wasmAxpyVec(js: VecOp, alpha: number): VecOp {
  return (out, o, ins, offs, n) => {
    const buf = wasmStorage.buffer;
    const a = ins[0] as StorageArray;
    const b = ins[1] as StorageArray;
    if (n >= wasmStorage.minElements && out.buffer === buf && a.buffer === buf && b.buffer === buf) {
      const f32 = out instanceof Float32Array;
      const k = f32 ? axpy32() : out instanceof Float64Array ? axpy64() : null;
      if (k !== null) {
        const pa = addressOf(a, offs[0] as number);
        const pb = addressOf(b, offs[1] as number);
        const py = addressOf(out, o);
        const threads = threadsFor(n);
        if (threads === 1) k(n, pa, pb, alpha, py);
        else splitCalls(f32 ? 'f32_vaxpy' : 'f64_vaxpy', n, threads, out.BYTES_PER_ELEMENT, [pa, pb], py, [alpha]);
        return;
      }
    }
    js(out, o, ins, offs, n);
  };
}

// Note [Guided pointwise split]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// An elementwise kernel over [0, n) on `threads` threads is cut into calls of decreasing length, each a
// 1/(2·threads) share of what is left (OpenMP's `schedule(guided)`), down to half a grain, and the threads
// claim them in order (Note [Claiming calls]): when one thread starts late or is preempted (a shared
// machine), the others take its part instead of waiting for it, and the last calls, the smallest, even out
// the finish. The cuts depend on n, threads and the grain alone, each starts at a multiple of 16 elements
// (the kernels' widest step), and every element goes through the same path as on one thread, so the bits
// do not depend on the thread count or on who ran what.

/** Boundaries [0, ..., n] of the guided split of [0, n) for `threads` threads (Note [Guided pointwise split]). */
export function guidedRange(n: number, threads: number, minChunk: number, align: number): number[] {
  const out = [0];
  let from = 0;
  while (from < n) {
    const step = Math.max(minChunk, Math.ceil((n - from) / (2 * threads) / align) * align);
    from = n - from - step < minChunk ? n : from + step;
    out.push(from);
  }
  return out;
}

/**
 * Runs the elementwise kernel `name` over [0, n) on `threads` threads (Note [Guided pointwise split]): each
 * call is (count, ...inputs advanced, ...scalars, output advanced), inputs and output byte addresses of
 * `bytes`-wide elements.
 */
function splitCalls(name: KernelName, n: number, threads: number, bytes: number, inputs: number[], y: number, scalars: number[]): void {
  const cuts = guidedRange(n, threads, Math.ceil(parallelSettings.grain / 2 / 16) * 16, 16);
  const calls: number[][] = [];
  for (let t = 0; t + 1 < cuts.length; t++) {
    const [from, to] = [cuts[t] as number, cuts[t + 1] as number];
    calls.push([to - from, ...inputs.map((p) => p + from * bytes), ...scalars, y + from * bytes]);
  }
  runKernelCalls(name, calls, threads);
}

/**
 * A ScalarVecOp computing `a[i] op s` (s already cast to the dtype): the WASM kernels `f32` / `f64`
 * (`(n, a, s, y)`) where both arrays are in linear memory, else their twin (Note [The twin is the fallback]).
 */
export function wasmScalarVec(
  twin: (n: number, a: Elements, ai: number, s: number, y: Elements, yi: number) => void,
  f32: KernelName,
  f64: KernelName,
): ScalarVecOp {
  const k32 = resolver<BinaryKernel>(f32);
  const k64 = resolver<BinaryKernel>(f64);
  return (out, o, a, ao, s, n) => {
    const buf = wasmStorage.buffer;
    if (n >= wasmStorage.minElements && out.buffer === buf && a.buffer === buf) {
      const k = out instanceof Float32Array ? k32() : k64();
      if (k !== null) {
        const threads = threadsFor(n);
        if (threads === 1) k(n, addressOf(a, ao), s, addressOf(out, o));
        else
          splitCalls(out instanceof Float32Array ? f32 : f64, n, threads, out.BYTES_PER_ELEMENT, [addressOf(a, ao)], addressOf(out, o), [
            s,
          ]);
        return;
      }
    }
    twin(n, a, ao, s, out, o);
  };
}

/** `js` with a WASM fast path for float32 (`f32`) and float64 (`f64`) arrays. */
export function wasmUnaryVec(js: VecOp, f32: KernelName | null, f64: KernelName | null): VecOp {
  const k32 = resolver<UnaryKernel>(f32);
  const k64 = resolver<UnaryKernel>(f64);
  return (out, o, ins, offs, n) => {
    const buf = wasmStorage.buffer;
    const x = ins[0] as StorageArray;
    if (n >= wasmStorage.minElements && out.buffer === buf && x.buffer === buf) {
      const k = out instanceof Float32Array ? k32() : out instanceof Float64Array ? k64() : null;
      if (k !== null) {
        const threads = threadsFor(n);
        if (threads === 1) k(n, addressOf(x, offs[0] as number), addressOf(out, o));
        else
          splitCalls(
            (out instanceof Float32Array ? f32 : f64) as KernelName,
            n,
            threads,
            out.BYTES_PER_ELEMENT,
            [addressOf(x, offs[0] as number)],
            addressOf(out, o),
            [],
          );
        return;
      }
    }
    js(out, o, ins, offs, n);
  };
}

/** The kernel `name` of the current table when `arrays` are all over linear memory, else null. */
export function wasmKernelFor<F>(name: KernelName, ...arrays: StorageArray[]): F | null {
  const buf = wasmStorage.buffer;
  const k = wasmStorage.kernels;
  if (buf === null || k === null) return null;
  for (const a of arrays) if (a.buffer !== buf) return null;
  return k[name] as unknown as F;
}

/**
 * How many threads to give `work` units (elements, or multiply-adds): 1 without a pool or below the grain,
 * else up to get_num_threads(), each with at least a grain of work (ATen's parallel_for rule).
 */
export function threadsFor(work: number): number {
  if (wasmStorage.parallel === null || work < 2 * parallelSettings.grain) return 1;
  return Math.max(1, Math.min(getNumThreads(), Math.floor(work / parallelSettings.grain)));
}

/**
 * Boundaries of `threads` ranges splitting [0, n), each a multiple of `align` long except the last:
 * [0, b1, ..., n]. Fixed by n and threads alone, so results never depend on timing.
 */
export function splitRange(n: number, threads: number, align: number): number[] {
  const out = [0];
  const step = Math.ceil(n / threads / align) * align;
  for (let t = 1; t < threads && t * step < n; t++) out.push(t * step);
  out.push(n);
  return out;
}

/**
 * Runs kernel `name` with the independent `calls` on up to `threads` threads (default: one per call), the
 * caller among them (Note [Claiming calls]); in order on the caller without a pool.
 */
export function runKernelCalls(name: KernelName, calls: readonly (readonly number[])[], threads = calls.length): void {
  const p = wasmStorage.parallel;
  if (p !== null && calls.length > 1 && threads > 1) {
    p(name, calls, threads);
    return;
  }
  const k = wasmStorage.kernels?.[name] as unknown as (...args: number[]) => unknown;
  for (const c of calls) k(...c);
}
