// The bridge from TensorIterator's vectorised inner loops (VecOp, iter/Loops.ts) to the SIMD kernels: a
// VecOp that calls the WASM kernel when every operand's array is over linear memory and the dtype has a
// kernel, and the JS loop otherwise (Note [Kernel backends]). ATen's counterpart is the choice between
// `vectorized_loop` and `basic_loop` in native/cpu/Loops.h; here the choice is also where the bytes are.

import type { ScalarVecOp, VecOp } from '../iter/Loops.js';
import type { StorageArray } from '../tensor/Storage.js';
import { wasmStorage } from './CPUAllocator.js';
import type { KernelName, Kernels } from './kernels.js';

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
        k(n, addressOf(a, offs[0] as number), addressOf(b, offs[1] as number), addressOf(out, o));
        return;
      }
    }
    js(out, o, ins, offs, n);
  };
}

/**
 * A ScalarVecOp computing `f(a[i], s)`: the WASM kernels `f32` / `f64` (`(n, a, s, y)`) where both arrays are
 * in linear memory, else a JS loop calling `f`.
 */
export function wasmScalarVec(f: (a: number, s: number) => number, f32: KernelName, f64: KernelName): ScalarVecOp {
  const k32 = resolver<BinaryKernel>(f32);
  const k64 = resolver<BinaryKernel>(f64);
  return (out, o, a, ao, s, n) => {
    const buf = wasmStorage.buffer;
    if (n >= wasmStorage.minElements && out.buffer === buf && a.buffer === buf) {
      const k = out instanceof Float32Array ? k32() : k64();
      if (k !== null) {
        k(n, addressOf(a, ao), s, addressOf(out, o));
        return;
      }
    }
    for (let i = 0; i < n; i++) out[o + i] = f(a[ao + i] as number, s);
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
        k(n, addressOf(x, offs[0] as number), addressOf(out, o));
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
