// CPU elementwise loops over a built TensorIterator: cpuKernel (a scalar lambda per element) and cpuKernelVec
// (plus a kernel-supplied loop over contiguous typed arrays), with dtype conversion on load and store.
// Mirrors aten/src/ATen/native/cpu/Loops.h (cpu_kernel, cpu_kernel_vec, basic_loop, vectorized_loop) and
// the 2-d loop of aten/src/ATen/TensorIteratorInternal.h (serial_for_each / DimCounter).

import { ScalarType, scalarTypeToString } from '../c10/ScalarType.js';
import type { StorageArray } from '../tensor/Storage.js';
import type { TensorImpl } from '../tensor/TensorImpl.js';
import { wrapInt64Run } from '../tensor/elements.js';
import type { TensorIterator } from './TensorIterator.js';
import { DimCounter, elementBase } from './TensorIteratorInternal.js';
import {
  CHUNK,
  castChunk,
  castValue,
  gather,
  isComplex,
  isDirect,
  isVecDtype,
  loadOne,
  scatter,
  scratchF64,
  scratchLike,
  storeReal,
} from './TypeCast.js';

/** A kernel's scalar function: JavaScript numbers in (bool as 0/1), a number out. */
export type ScalarOp = (...args: number[]) => number;

/**
 * A kernel's vectorised inner loop: `out[outOffset + i] = f(ins[0][inOffsets[0] + i], ...)` for i < n, over
 * the raw storage arrays (all of one dtype; see cpuKernelVec for which).
 */
export type VecOp = (out: StorageArray, outOffset: number, ins: StorageArray[], inOffsets: number[], n: number) => void;

/**
 * A kernel's loop with a broadcast scalar: `out[outOffset + i] = f(a[aOffset + i], s)` for i < n, float32 or
 * float64 arrays of one dtype, `s` already rounded to that precision (PyTorch casts a CPU scalar to the
 * common dtype before the loop).
 */
export type ScalarVecOp = (out: StorageArray, outOffset: number, a: StorageArray, aOffset: number, s: number, n: number) => void;

/**
 * A complex kernel's scalar function: input k is the pair `(ins[2k], ins[2k+1])` (real, imaginary; real
 * operands have 0 imaginary part); it writes its result's real and imaginary parts to `out[0]`, `out[1]`.
 * The arrays are reused from element to element (do not keep them).
 */
export type ComplexOp = (ins: Float64Array, out: Float64Array) => void;

// ---------------------------------------------------------------------------------------------------
// Row iteration: DimCounter and forEachRow (TensorIteratorInternal.ts)
// ---------------------------------------------------------------------------------------------------

export { elementBase, forEachRow, rowsOf, DimCounter } from './TensorIteratorInternal.js';

/** The operands' dtypes. */
function scalarTypesOf(tensors: readonly TensorImpl[]): ScalarType[] {
  const dtypes = new Array<ScalarType>(tensors.length);
  for (let k = 0; k < tensors.length; k++) dtypes[k] = (tensors[k] as TensorImpl).scalarType;
  return dtypes;
}

/** Inner (dimension 0) stride of operand k; 0 for 0-dim iterators. */
function innerStride(iter: TensorIterator, k: number): number {
  return iter.shape.length === 0 ? 0 : (iter.strides[k] as number);
}

// ---------------------------------------------------------------------------------------------------
// Direct loops (Note [Direct dtypes]), one per arity so that each call site stays simple
// ---------------------------------------------------------------------------------------------------

function row0(op: ScalarOp, o: StorageArray, oo: number, os: number, n: number): void {
  for (let i = 0; i < n; i++) o[oo + i * os] = op();
}

function row1(op: ScalarOp, o: StorageArray, oo: number, os: number, a: StorageArray, ao: number, as: number, n: number): void {
  if (os === 1 && as === 1) {
    for (let i = 0; i < n; i++) o[oo + i] = op(a[ao + i] as number);
  } else {
    for (let i = 0; i < n; i++) o[oo + i * os] = op(a[ao + i * as] as number);
  }
}

function row2(
  op: ScalarOp,
  o: StorageArray,
  oo: number,
  os: number,
  a: StorageArray,
  ao: number,
  as: number,
  b: StorageArray,
  bo: number,
  bs: number,
  n: number,
): void {
  if (os === 1 && as === 1 && bs === 1) {
    for (let i = 0; i < n; i++) o[oo + i] = op(a[ao + i] as number, b[bo + i] as number);
  } else if (os === 1 && as === 1 && bs === 0) {
    const bv = b[bo] as number;
    for (let i = 0; i < n; i++) o[oo + i] = op(a[ao + i] as number, bv);
  } else {
    for (let i = 0; i < n; i++) o[oo + i * os] = op(a[ao + i * as] as number, b[bo + i * bs] as number);
  }
}

function row3(
  op: ScalarOp,
  o: StorageArray,
  oo: number,
  os: number,
  a: StorageArray,
  ao: number,
  as: number,
  b: StorageArray,
  bo: number,
  bs: number,
  c: StorageArray,
  co: number,
  cs: number,
  n: number,
): void {
  for (let i = 0; i < n; i++) o[oo + i * os] = op(a[ao + i * as] as number, b[bo + i * bs] as number, c[co + i * cs] as number);
}

function rowN(op: ScalarOp, arrays: StorageArray[], offsets: number[], strides: number[], args: number[], n: number): void {
  const o = arrays[0] as StorageArray;
  const oo = offsets[0] as number;
  const os = strides[0] as number;
  const nin = arrays.length - 1;
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < nin; k++)
      args[k] = (arrays[k + 1] as StorageArray)[(offsets[k + 1] as number) + i * (strides[k + 1] as number)] as number;
    o[oo + i * os] = op(...args);
  }
}

function directLoop(iter: TensorIterator, op: ScalarOp, arrays: StorageArray[]): void {
  const nt = arrays.length;
  const ts = iter.tensors;
  const o = arrays[0] as StorageArray;
  if (iter.isContiguous()) {
    const n = iter.numel();
    const oo = elementBase(ts[0] as TensorImpl);
    if (nt === 3) {
      const a = arrays[1] as StorageArray;
      const b = arrays[2] as StorageArray;
      const ao = elementBase(ts[1] as TensorImpl);
      const bo = elementBase(ts[2] as TensorImpl);
      for (let i = 0; i < n; i++) o[oo + i] = op(a[ao + i] as number, b[bo + i] as number);
      return;
    }
    if (nt === 2) {
      const a = arrays[1] as StorageArray;
      const ao = elementBase(ts[1] as TensorImpl);
      for (let i = 0; i < n; i++) o[oo + i] = op(a[ao + i] as number);
      return;
    }
  }
  const strides0 = new Array<number>(nt);
  for (let k = 0; k < nt; k++) strides0[k] = innerStride(iter, k);
  const os = strides0[0] as number;
  // cpuKernel calls this for non-empty iterators only. See Note [Row loops without closures].
  const rows = new DimCounter().reset(iter);
  const offs = rows.offsets;
  const n = rows.n;
  switch (nt) {
    case 1:
      do row0(op, o, offs[0] as number, os, n);
      while (rows.next());
      return;
    case 2: {
      const a = arrays[1] as StorageArray;
      const as = strides0[1] as number;
      do row1(op, o, offs[0] as number, os, a, offs[1] as number, as, n);
      while (rows.next());
      return;
    }
    case 3: {
      const a = arrays[1] as StorageArray;
      const b = arrays[2] as StorageArray;
      const as = strides0[1] as number;
      const bs = strides0[2] as number;
      do row2(op, o, offs[0] as number, os, a, offs[1] as number, as, b, offs[2] as number, bs, n);
      while (rows.next());
      return;
    }
    case 4: {
      const a = arrays[1] as StorageArray;
      const b = arrays[2] as StorageArray;
      const c = arrays[3] as StorageArray;
      const as = strides0[1] as number;
      const bs = strides0[2] as number;
      const cs = strides0[3] as number;
      do row3(op, o, offs[0] as number, os, a, offs[1] as number, as, b, offs[2] as number, bs, c, offs[3] as number, cs, n);
      while (rows.next());
      return;
    }
    default: {
      const args = new Array<number>(nt - 1).fill(0);
      do rowN(op, arrays, offs, strides0, args, n);
      while (rows.next());
    }
  }
}

function applyChunk(op: ScalarOp, r: Float64Array, ins: Float64Array[], args: number[], n: number): void {
  switch (ins.length) {
    case 0:
      for (let i = 0; i < n; i++) r[i] = op();
      return;
    case 1: {
      const a = ins[0] as Float64Array;
      for (let i = 0; i < n; i++) r[i] = op(a[i] as number);
      return;
    }
    case 2: {
      const a = ins[0] as Float64Array;
      const b = ins[1] as Float64Array;
      for (let i = 0; i < n; i++) r[i] = op(a[i] as number, b[i] as number);
      return;
    }
    case 3: {
      const a = ins[0] as Float64Array;
      const b = ins[1] as Float64Array;
      const c = ins[2] as Float64Array;
      for (let i = 0; i < n; i++) r[i] = op(a[i] as number, b[i] as number, c[i] as number);
      return;
    }
    default: {
      const nin = ins.length;
      for (let i = 0; i < n; i++) {
        for (let k = 0; k < nin; k++) args[k] = (ins[k] as Float64Array)[i] as number;
        r[i] = op(...args);
      }
    }
  }
}

function convertingLoop(iter: TensorIterator, op: ScalarOp, arrays: StorageArray[]): void {
  const tensors = iter.tensors;
  const nt = tensors.length;
  const dtypes = scalarTypesOf(tensors);
  const compute = iter.computeDtypes ?? dtypes;
  const strides0 = new Array<number>(nt);
  for (let k = 0; k < nt; k++) strides0[k] = innerStride(iter, k);
  const result = scratchF64(0);
  const ins: Float64Array[] = [];
  for (let k = 1; k < nt; k++) ins.push(scratchF64(k));
  const args = new Array<number>(nt - 1).fill(0);
  const outDtype = dtypes[0] as ScalarType;
  const outCompute = compute[0] as ScalarType;
  const out = arrays[0] as StorageArray;
  const rows = new DimCounter().reset(iter);
  const offs = rows.offsets;
  const n = rows.n;
  do {
    for (let start = 0; start < n; start += CHUNK) {
      const m = n - start < CHUNK ? n - start : CHUNK;
      for (let k = 1; k < nt; k++) {
        const buf = ins[k - 1] as Float64Array;
        const s = strides0[k] as number;
        const d = dtypes[k] as ScalarType;
        gather(d, arrays[k] as StorageArray, (offs[k] as number) + start * s, s, buf, m);
        const c = compute[k] as ScalarType;
        if (c !== d) castChunk(buf, m, c);
      }
      applyChunk(op, result, ins, args, m);
      if (outCompute !== outDtype) castChunk(result, m, outCompute);
      const so = strides0[0] as number;
      scatter(outDtype, result, out, (offs[0] as number) + start * so, so, m);
    }
  } while (rows.next());
}

// ---------------------------------------------------------------------------------------------------
// cpuKernel / cpuKernelVec
// ---------------------------------------------------------------------------------------------------

// The kernel's arity is not checked against the iterator (Function.length costs tens of nanoseconds per
// call in V8): a kernel with too few parameters ignores inputs, one with too many sees `undefined` (NaN).
function checkKernel(iter: TensorIterator, name: string): void {
  if (iter.numOutputs !== 1) throw new Error(`${name}: expected an iterator with exactly one output, got ${iter.numOutputs}`);
}

function storageArrays(iter: TensorIterator): StorageArray[] {
  const ts = iter.tensors;
  const arrays = new Array<StorageArray>(ts.length);
  for (let k = 0; k < ts.length; k++) {
    const t = ts[k] as TensorImpl;
    arrays[k] = t.storage.data(t.scalarType);
  }
  return arrays;
}

/**
 * `cpu_kernel(iter, op)`: `out = op(in0, in1, ...)` for every element, in the iteration order. Values are
 * loaded as numbers (bool as 0/1, float16/bfloat16 decoded), converted to each operand's compute dtype
 * (Note [Conversions instead of temporaries]), and the result is converted to the output's compute dtype and
 * stored in its dtype. Does nothing for meta iterators or empty ones. Operands computed as complex need
 * cpuKernelComplex (the lambda sees real numbers only); a complex output of a real computation gets 0
 * imaginary parts.
 */
export function cpuKernel(iter: TensorIterator, op: ScalarOp): void {
  checkKernel(iter, 'cpuKernel');
  if (iter.isMeta || iter.numel() === 0) return;
  const tensors = iter.tensors;
  const compute = iter.computeDtypes;
  let direct = compute === null;
  for (let k = 0; k < tensors.length; k++) {
    const d = (tensors[k] as TensorImpl).scalarType;
    const c = compute === null ? d : (compute[k] as ScalarType);
    if (isComplex(c)) {
      throw new Error(
        `cpuKernel: operand ${k} computes in ${scalarTypeToString(c)}, but the scalar lambda sees real numbers only; ` +
          'use cpuKernelComplex',
      );
    }
    if (!isDirect(d)) direct = false;
  }
  const arrays = storageArrays(iter);
  if (direct) directLoop(iter, op, arrays);
  else convertingLoop(iter, op, arrays);
}

// Note [cpuKernelVec contract]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// `vec` is called only when every operand has the same dtype, equal to its compute dtype (no promotion in
// play), and that dtype is float32, float64, int32, int16, int8, uint8 or int64. It receives the raw storage
// arrays, so it must write values the typed array stores correctly: anything for the float and small-integer
// arrays (they round and wrap like C++ casts), but *integer-valued* numbers for int64 (a Float64Array; use
// Math.trunc / Math.floor where the operation can produce fractions). Every other case runs `op` instead.
// As in PyTorch's vectorized_loop, only runs where every operand has unit stride, or an input is broadcast
// (stride 0: it becomes a scratch run of copies of its value, in chunks), go to `vec`; iterators with a
// strided operand along the fastest dimension (a transposed input, a strided out=) run `op` instead.

/**
 * The loop of a binary kernel whose second input is one element broadcast everywhere (a wrapped number, a
 * 0-dim or 1-element tensor) over float32 / float64 operands of one dtype with unit inner strides: the value
 * is read once, cast to the dtype, and `scalarVec` runs per row. False when the shape does not fit.
 */
function scalarLoop(iter: TensorIterator, scalarVec: ScalarVecOp): boolean {
  const tensors = iter.tensors;
  const t0 = tensors[0] as TensorImpl;
  const t1 = tensors[1] as TensorImpl;
  const t2 = tensors[2] as TensorImpl;
  const dtype = t0.scalarType;
  if (
    (dtype !== ScalarType.Float && dtype !== ScalarType.Double) ||
    t1.scalarType !== dtype ||
    t2.numel() !== 1 ||
    isComplex(t2.scalarType)
  )
    return false;
  const ndim = iter.shape.length;
  const strides = iter.strides;
  for (let d = 0; d < ndim; d++) if (strides[d * 3 + 2] !== 0) return false;
  if (ndim > 0 && (strides[0] !== 1 || strides[1] !== 1)) return false;
  if (iter.numel() === 0) return true;
  const raw = loadOne(t2.scalarType, t2.storage.data(t2.scalarType), elementBase(t2));
  const value = dtype === ScalarType.Float ? Math.fround(raw) : raw;
  const out = t0.storage.data(dtype);
  const a = t1.storage.data(dtype);
  const rows = new DimCounter().reset(iter);
  const offs = rows.offsets;
  do scalarVec(out, offs[0] as number, a, offs[1] as number, value, rows.n);
  while (rows.next());
  return true;
}

/**
 * `cpu_kernel_vec(iter, op, vec)`: like cpuKernel, but runs of contiguous elements go through `vec`, the
 * kernel's own loop over typed arrays (see Note [cpuKernelVec contract]); `op` covers everything else.
 */
export function cpuKernelVec(iter: TensorIterator, op: ScalarOp, vecOp: VecOp, scalarVec?: ScalarVecOp): void {
  checkKernel(iter, 'cpuKernelVec');
  if (iter.isMeta) return;
  const tensors = iter.tensors;
  const nt = tensors.length;
  const t0 = tensors[0] as TensorImpl;
  const dtype = t0.scalarType;
  // int64 runs get the store rule the converting loop applies (Note [Typed storage of each dtype]).
  const vec: VecOp = dtype !== ScalarType.Long ? vecOp : (out, o, ins, offs, n) => (vecOp(out, o, ins, offs, n), wrapInt64Run(out, o, n));
  if (scalarVec !== undefined && nt === 3 && scalarLoop(iter, scalarVec)) return;
  let eligible = iter.computeDtypes === null && isVecDtype(dtype);
  for (let k = 1; k < nt && eligible; k++) if ((tensors[k] as TensorImpl).scalarType !== dtype) eligible = false;
  if (!eligible) {
    cpuKernel(iter, op);
    return;
  }
  const numel = iter.numel();
  if (numel === 0) return;
  const out = t0.storage.data(dtype);
  const ins = new Array<StorageArray>(nt - 1);
  const inOffsets = new Array<number>(nt - 1);
  if (iter.isContiguous()) {
    for (let k = 1; k < nt; k++) {
      const t = tensors[k] as TensorImpl;
      ins[k - 1] = t.storage.data(dtype);
      inOffsets[k - 1] = elementBase(t);
    }
    vec(out, elementBase(t0), ins, inOffsets, numel);
    return;
  }
  const strides0 = new Array<number>(nt);
  let allUnit = true;
  for (let k = 0; k < nt; k++) {
    const st = innerStride(iter, k);
    strides0[k] = st;
    if (st !== 1) {
      // Like PyTorch's vectorized_loop: only unit strides and broadcast inputs (stride 0) are vectorised;
      // a strided operand (a transposed input, a strided out=) runs the scalar op.
      if (k === 0 || st !== 0) {
        cpuKernel(iter, op);
        return;
      }
      allUnit = false;
    }
  }
  for (let k = 1; k < nt; k++) ins[k - 1] = (tensors[k] as TensorImpl).storage.data(dtype);
  if (allUnit) {
    const rows = new DimCounter().reset(iter);
    const offs = rows.offsets;
    const n = rows.n;
    do {
      for (let k = 1; k < nt; k++) inOffsets[k - 1] = offs[k] as number;
      vec(out, offs[0] as number, ins, inOffsets, n);
    } while (rows.next());
    return;
  }
  // Broadcast inputs along the inner dimension: a chunk of copies of the value in a same-typed scratch array.
  const rowIns = ins.slice();
  const staged = new Array<StorageArray | null>(nt);
  const filledWith = new Array<number>(nt).fill(NaN);
  const filledLength = new Array<number>(nt).fill(0);
  staged[0] = null;
  for (let k = 1; k < nt; k++) staged[k] = strides0[k] === 0 ? scratchLike(ins[k - 1] as StorageArray, k) : null;
  const rows = new DimCounter().reset(iter);
  const offs = rows.offsets;
  const n = rows.n;
  do {
    for (let start = 0; start < n; start += CHUNK) {
      const m = n - start < CHUNK ? n - start : CHUNK;
      for (let k = 1; k < nt; k++) {
        const buf = staged[k] as StorageArray | null;
        const src = ins[k - 1] as StorageArray;
        if (buf === null) {
          rowIns[k - 1] = src;
          inOffsets[k - 1] = (offs[k] as number) + start;
        } else {
          // Refill only when the value changes (a new row of a broadcast column) or the run grows.
          const v = src[offs[k] as number] as number;
          if (!Object.is(v, filledWith[k]) || (filledLength[k] as number) < m) {
            buf.fill(v, 0, m);
            filledWith[k] = v;
            filledLength[k] = m;
          }
          rowIns[k - 1] = buf;
          inOffsets[k - 1] = 0;
        }
      }
      vec(out, (offs[0] as number) + start, rowIns, inOffsets, m);
    }
  } while (rows.next());
}

// ---------------------------------------------------------------------------------------------------
// cpuKernelComplex
// ---------------------------------------------------------------------------------------------------

/**
 * `cpu_kernel` for complex computations: `op` sees every input as a (re, im) pair and returns one (see
 * ComplexOp). Values are converted to each operand's compute dtype (complex64 rounds both parts to float32;
 * a complex value converted to a real dtype keeps its real part) and stored in the output's dtype. Unlike
 * cpuKernel this loop is per element and not specialised by dtype: complex kernels are the rarer ones.
 */
export function cpuKernelComplex(iter: TensorIterator, op: ComplexOp): void {
  checkKernel(iter, 'cpuKernelComplex');
  if (iter.isMeta || iter.numel() === 0) return;
  const tensors = iter.tensors;
  const nt = tensors.length;
  const dtypes = scalarTypesOf(tensors);
  const compute = iter.computeDtypes ?? dtypes;
  const arrays = storageArrays(iter);
  const strides0 = new Array<number>(nt);
  for (let k = 0; k < nt; k++) strides0[k] = innerStride(iter, k);
  const ins = new Float64Array(2 * (nt - 1));
  const res = new Float64Array(2);
  const d0 = dtypes[0] as ScalarType;
  const c0 = compute[0] as ScalarType;
  const out = arrays[0] as StorageArray;
  const so = strides0[0] as number;
  const rows = new DimCounter().reset(iter);
  const offs = rows.offsets;
  const n = rows.n;
  do {
    for (let i = 0; i < n; i++) {
      for (let k = 1; k < nt; k++) {
        const d = dtypes[k] as ScalarType;
        const c = compute[k] as ScalarType;
        const arr = arrays[k] as StorageArray;
        const p = (offs[k] as number) + i * (strides0[k] as number);
        let re: number;
        let im = 0;
        if (isComplex(d)) {
          re = arr[2 * p] as number;
          im = arr[2 * p + 1] as number;
        } else {
          re = loadOne(d, arr, p);
        }
        if (c !== d) {
          re = castValue(re, c);
          im = isComplex(c) ? castValue(im, c) : 0;
        }
        ins[2 * k - 2] = re;
        ins[2 * k - 1] = im;
      }
      op(ins, res);
      let re = res[0] as number;
      let im = res[1] as number;
      if (c0 !== d0) {
        re = castValue(re, c0);
        im = isComplex(c0) ? castValue(im, c0) : 0;
      }
      const p = (offs[0] as number) + i * so;
      if (isComplex(d0)) {
        out[2 * p] = re;
        out[2 * p + 1] = im;
      } else {
        storeReal(d0, out, p, re);
      }
    }
  } while (rows.next());
}
