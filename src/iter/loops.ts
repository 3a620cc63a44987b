// CPU elementwise loops over a built TensorIterator: cpuKernel (a scalar lambda per element) and cpuKernelVec
// (plus a kernel-supplied loop over contiguous typed arrays), with dtype conversion on load and store.
// Mirrors aten/src/ATen/native/cpu/Loops.h (cpu_kernel, cpu_kernel_vec, basic_loop, vectorized_loop) and
// the 2-d loop of aten/src/ATen/TensorIteratorInternal.h (serial_for_each / DimCounter).

import { ALL_SCALAR_TYPES, ScalarType, elementSize, scalarTypeToString } from '../c10/ScalarType.js';
import { bfloat16BitsToFloat, floatToBFloat16Bits, floatToHalfBits, halfBitsToFloat } from '../tensor/half.js';
import type { StorageArray } from '../tensor/Storage.js';
import type { TensorImpl } from '../tensor/TensorImpl.js';
import type { TensorIterator } from './TensorIterator.js';

/** A kernel's scalar function: JavaScript numbers in (bool as 0/1), a number out. */
export type ScalarOp = (...args: number[]) => number;

/**
 * A kernel's vectorised inner loop: `out[outOffset + i] = f(ins[0][inOffsets[0] + i], ...)` for i < n, over
 * the raw storage arrays (all of one dtype; see cpuKernelVec for which).
 */
export type VecOp = (out: StorageArray, outOffset: number, ins: StorageArray[], inOffsets: number[], n: number) => void;

/**
 * A complex kernel's scalar function: input k is the pair `(ins[2k], ins[2k+1])` (real, imaginary; real
 * operands have 0 imaginary part); it writes its result's real and imaginary parts to `out[0]`, `out[1]`.
 * The arrays are reused from element to element (do not keep them).
 */
export type ComplexOp = (ins: Float64Array, out: Float64Array) => void;

// ---------------------------------------------------------------------------------------------------
// Value conversions (c10::convert / static_cast as PyTorch's CPU kernels do them)
// ---------------------------------------------------------------------------------------------------

const INT64_MIN = -9223372036854775808;
const INT64_LIMIT = 9223372036854775808;

/** int64 conversion of a double: truncation; NaN, ±inf and out-of-range values give INT64_MIN (x86 cvttsd2si). */
export function toInt64(v: number): number {
  if (v >= -INT64_LIMIT && v < INT64_LIMIT) {
    const t = Math.trunc(v);
    return t === 0 ? 0 : t; // no -0 in an integer tensor
  }
  return INT64_MIN;
}

/**
 * The value `v` takes when converted to `dtype` (as a JavaScript number): rounding to float32/float16/
 * bfloat16, truncation and two's-complement wrapping for integers, `!= 0` for bool. Complex dtypes keep `v`
 * (the real part; the imaginary part of a real value is 0).
 */
export function castValue(v: number, dtype: ScalarType): number {
  switch (dtype) {
    case ScalarType.Bool:
      return v !== 0 ? 1 : 0;
    case ScalarType.Byte:
      return v & 0xff;
    case ScalarType.Char:
      return (v << 24) >> 24;
    case ScalarType.Short:
      return (v << 16) >> 16;
    case ScalarType.Int:
      return v | 0;
    case ScalarType.Long:
      return toInt64(v);
    case ScalarType.Half:
      return halfBitsToFloat(floatToHalfBits(v));
    case ScalarType.BFloat16:
      return bfloat16BitsToFloat(floatToBFloat16Bits(v));
    case ScalarType.Float:
    case ScalarType.ComplexFloat:
      return Math.fround(v);
    default:
      return v;
  }
}

// Note [Direct dtypes]
// ~~~~~~~~~~~~~~~~~~~~
// For float32, float64, int32, int16, int8 and uint8 a typed-array store *is* PyTorch's conversion of a
// computed value: Float32Array rounds to nearest-even, the integer arrays truncate and wrap modulo 2^bits
// (and C++'s float→uint8 goes through int64, which wraps the same way). Loops over operands of only these
// dtypes, with no promotion, can therefore write `out[i] = op(a[i], b[i])` directly. bool (must store
// `v != 0`), int64 (held in a Float64Array, must truncate), float16/bfloat16 (bit patterns) and complex
// (two lanes) go through the converting loop, which gathers chunks of values into Float64Array scratch
// buffers, converts them, calls the kernel, and converts and scatters the results.
function isDirect(d: ScalarType): boolean {
  return (
    d === ScalarType.Float ||
    d === ScalarType.Double ||
    d === ScalarType.Int ||
    d === ScalarType.Short ||
    d === ScalarType.Char ||
    d === ScalarType.Byte
  );
}

/** The dtypes cpuKernelVec hands to a vec loop: the direct ones plus int64 (integer-valued doubles). */
function isVecDtype(d: ScalarType): boolean {
  return isDirect(d) || d === ScalarType.Long;
}

function isComplex(d: ScalarType): boolean {
  return d === ScalarType.ComplexFloat || d === ScalarType.ComplexDouble || d === ScalarType.ComplexHalf;
}

// ---------------------------------------------------------------------------------------------------
// Scratch buffers
// ---------------------------------------------------------------------------------------------------

/** Elements per chunk of the converting and gathering loops (fits L1 with a few operands). */
const CHUNK = 512;

const f64Scratch: Float64Array[] = [];

function scratchF64(slot: number): Float64Array {
  let s = f64Scratch[slot];
  if (s === undefined) {
    s = new Float64Array(CHUNK);
    f64Scratch[slot] = s;
  }
  return s;
}

type StorageArrayCtor = new (length: number) => StorageArray;
const typedScratch = new Map<StorageArrayCtor, StorageArray[]>();

/** A CHUNK-long scratch array of the same type as `like`, for operand slot `slot`. */
function scratchLike(like: StorageArray, slot: number): StorageArray {
  const ctor = like.constructor as StorageArrayCtor;
  let list = typedScratch.get(ctor);
  if (list === undefined) {
    list = [];
    typedScratch.set(ctor, list);
  }
  let s = list[slot];
  if (s === undefined) {
    s = new ctor(CHUNK);
    list[slot] = s;
  }
  return s;
}

// ---------------------------------------------------------------------------------------------------
// Row iteration (serial_for_each with a 2-d inner step)
// ---------------------------------------------------------------------------------------------------

const ITEM_SIZE: readonly number[] = ALL_SCALAR_TYPES.map(elementSize);

/**
 * The element index, in `t.storage.data(t.dtype)`, of `t`'s first element: the storage's place in its
 * buffer (see Note [Slab allocation] in Storage.ts) plus the storage offset. For complex dtypes it counts
 * elements, i.e. lane pairs (multiply by 2 for the array index). Same as `storage.arrayOffset(dtype) / lanes
 * + storageOffset`, without the lookups (it runs for every operand of every kernel call).
 */
export function elementBase(t: TensorImpl): number {
  return t.storage.byteOffset / (ITEM_SIZE[t.dtype] as number) + t.storageOffset;
}

/**
 * Calls `row(offsets, n)` for every run of `n = shape[0]` elements along the fastest dimension, with
 * `offsets[k]` the index of the row's first element in operand k's `storage.data(dtype)` array (elements,
 * not lanes, for complex dtypes; see elementBase). `offsets` is reused between calls (do not keep it).
 * Zero-dim iterators get one row of one element; empty iterators none.
 */
export function forEachRow(iter: TensorIterator, row: (offsets: number[], n: number) => void): void {
  const tensors = iter.tensors;
  const nt = tensors.length;
  const shape = iter.shape;
  const ndim = shape.length;
  const strides = iter.strides;
  if (iter.numel() === 0) return;
  const offsets = new Array<number>(nt);
  for (let k = 0; k < nt; k++) offsets[k] = elementBase(tensors[k] as TensorImpl);
  if (ndim <= 1) {
    row(offsets, ndim === 0 ? 1 : (shape[0] as number));
    return;
  }
  const n0 = shape[0] as number;
  const counter = new Array<number>(ndim).fill(0);
  for (;;) {
    row(offsets, n0);
    let d = 1;
    for (; d < ndim; d++) {
      const c = (counter[d] as number) + 1;
      const base = d * nt;
      if (c < (shape[d] as number)) {
        counter[d] = c;
        for (let k = 0; k < nt; k++) offsets[k] = (offsets[k] as number) + (strides[base + k] as number);
        break;
      }
      counter[d] = 0;
      const back = c - 1;
      for (let k = 0; k < nt; k++) offsets[k] = (offsets[k] as number) - back * (strides[base + k] as number);
    }
    if (d === ndim) return;
  }
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

function rowN(
  op: ScalarOp,
  arrays: StorageArray[],
  offsets: number[],
  strides: number[],
  args: number[],
  n: number,
): void {
  const o = arrays[0] as StorageArray;
  const oo = offsets[0] as number;
  const os = strides[0] as number;
  const nin = arrays.length - 1;
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < nin; k++) args[k] = (arrays[k + 1] as StorageArray)[(offsets[k + 1] as number) + i * (strides[k + 1] as number)] as number;
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
  switch (nt) {
    case 1:
      forEachRow(iter, (offs, n) => row0(op, o, offs[0] as number, os, n));
      return;
    case 2: {
      const a = arrays[1] as StorageArray;
      const as = strides0[1] as number;
      forEachRow(iter, (offs, n) => row1(op, o, offs[0] as number, os, a, offs[1] as number, as, n));
      return;
    }
    case 3: {
      const a = arrays[1] as StorageArray;
      const b = arrays[2] as StorageArray;
      const as = strides0[1] as number;
      const bs = strides0[2] as number;
      forEachRow(iter, (offs, n) => row2(op, o, offs[0] as number, os, a, offs[1] as number, as, b, offs[2] as number, bs, n));
      return;
    }
    case 4: {
      const a = arrays[1] as StorageArray;
      const b = arrays[2] as StorageArray;
      const c = arrays[3] as StorageArray;
      const as = strides0[1] as number;
      const bs = strides0[2] as number;
      const cs = strides0[3] as number;
      forEachRow(iter, (offs, n) =>
        row3(op, o, offs[0] as number, os, a, offs[1] as number, as, b, offs[2] as number, bs, c, offs[3] as number, cs, n),
      );
      return;
    }
    default: {
      const args = new Array<number>(nt - 1).fill(0);
      forEachRow(iter, (offs, n) => rowN(op, arrays, offs, strides0, args, n));
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Converting loop (Note [Direct dtypes])
// ---------------------------------------------------------------------------------------------------

/** Loads n values of `dtype` from `src` (element offset/stride) into `dst[0..n)` as numbers. */
function gather(dtype: ScalarType, src: StorageArray, offset: number, stride: number, dst: Float64Array, n: number): void {
  if (stride === 0) {
    dst.fill(loadOne(dtype, src, offset), 0, n);
    return;
  }
  switch (dtype) {
    case ScalarType.Half: {
      for (let i = 0, p = offset; i < n; i++, p += stride) dst[i] = halfBitsToFloat(src[p] as number);
      return;
    }
    case ScalarType.BFloat16: {
      for (let i = 0, p = offset; i < n; i++, p += stride) dst[i] = bfloat16BitsToFloat(src[p] as number);
      return;
    }
    case ScalarType.ComplexFloat:
    case ScalarType.ComplexDouble: {
      // A complex value read where a real one is expected: its real part (c10::convert drops the imaginary).
      for (let i = 0, p = 2 * offset; i < n; i++, p += 2 * stride) dst[i] = src[p] as number;
      return;
    }
    case ScalarType.Float: {
      const s = src as Float32Array;
      for (let i = 0, p = offset; i < n; i++, p += stride) dst[i] = s[p] as number;
      return;
    }
    case ScalarType.Long:
    case ScalarType.Double: {
      const s = src as Float64Array;
      for (let i = 0, p = offset; i < n; i++, p += stride) dst[i] = s[p] as number;
      return;
    }
    default: {
      for (let i = 0, p = offset; i < n; i++, p += stride) dst[i] = src[p] as number;
    }
  }
}

function loadOne(dtype: ScalarType, src: StorageArray, offset: number): number {
  switch (dtype) {
    case ScalarType.Half:
      return halfBitsToFloat(src[offset] as number);
    case ScalarType.BFloat16:
      return bfloat16BitsToFloat(src[offset] as number);
    case ScalarType.ComplexFloat:
    case ScalarType.ComplexDouble:
      return src[2 * offset] as number;
    default:
      return src[offset] as number;
  }
}

/** Converts `buf[0..n)` in place to the values `dtype` holds (castValue, one loop per dtype). */
function castChunk(buf: Float64Array, n: number, dtype: ScalarType): void {
  switch (dtype) {
    case ScalarType.Bool:
      for (let i = 0; i < n; i++) buf[i] = (buf[i] as number) !== 0 ? 1 : 0;
      return;
    case ScalarType.Byte:
      for (let i = 0; i < n; i++) buf[i] = (buf[i] as number) & 0xff;
      return;
    case ScalarType.Char:
      for (let i = 0; i < n; i++) buf[i] = ((buf[i] as number) << 24) >> 24;
      return;
    case ScalarType.Short:
      for (let i = 0; i < n; i++) buf[i] = ((buf[i] as number) << 16) >> 16;
      return;
    case ScalarType.Int:
      for (let i = 0; i < n; i++) buf[i] = (buf[i] as number) | 0;
      return;
    case ScalarType.Long:
      for (let i = 0; i < n; i++) buf[i] = toInt64(buf[i] as number);
      return;
    case ScalarType.Half:
      for (let i = 0; i < n; i++) buf[i] = halfBitsToFloat(floatToHalfBits(buf[i] as number));
      return;
    case ScalarType.BFloat16:
      for (let i = 0; i < n; i++) buf[i] = bfloat16BitsToFloat(floatToBFloat16Bits(buf[i] as number));
      return;
    case ScalarType.Float:
    case ScalarType.ComplexFloat:
      for (let i = 0; i < n; i++) buf[i] = Math.fround(buf[i] as number);
      return;
    default:
      return;
  }
}

/** Stores `src[0..n)` into `dst` (element offset/stride) as `dtype`, converting as a C++ cast does. */
function scatter(dtype: ScalarType, src: Float64Array, dst: StorageArray, offset: number, stride: number, n: number): void {
  switch (dtype) {
    case ScalarType.Bool:
      for (let i = 0, p = offset; i < n; i++, p += stride) dst[p] = (src[i] as number) !== 0 ? 1 : 0;
      return;
    case ScalarType.Long: {
      const d = dst as Float64Array;
      for (let i = 0, p = offset; i < n; i++, p += stride) d[p] = toInt64(src[i] as number);
      return;
    }
    case ScalarType.Half:
      for (let i = 0, p = offset; i < n; i++, p += stride) dst[p] = floatToHalfBits(src[i] as number);
      return;
    case ScalarType.BFloat16:
      for (let i = 0, p = offset; i < n; i++, p += stride) dst[p] = floatToBFloat16Bits(src[i] as number);
      return;
    case ScalarType.ComplexFloat:
    case ScalarType.ComplexDouble:
      for (let i = 0, p = 2 * offset; i < n; i++, p += 2 * stride) {
        dst[p] = src[i] as number;
        dst[p + 1] = 0;
      }
      return;
    case ScalarType.Float: {
      const d = dst as Float32Array;
      for (let i = 0, p = offset; i < n; i++, p += stride) d[p] = src[i] as number;
      return;
    }
    case ScalarType.Double: {
      const d = dst as Float64Array;
      for (let i = 0, p = offset; i < n; i++, p += stride) d[p] = src[i] as number;
      return;
    }
    default:
      for (let i = 0, p = offset; i < n; i++, p += stride) dst[p] = src[i] as number;
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
  const dtypes = tensors.map((t) => t.dtype);
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
  forEachRow(iter, (offs, n) => {
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
  });
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
    arrays[k] = t.storage.data(t.dtype);
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
    const d = (tensors[k] as TensorImpl).dtype;
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
 * `cpu_kernel_vec(iter, op, vec)`: like cpuKernel, but runs of contiguous elements go through `vec`, the
 * kernel's own loop over typed arrays (see Note [cpuKernelVec contract]); `op` covers everything else.
 */
export function cpuKernelVec(iter: TensorIterator, op: ScalarOp, vec: VecOp): void {
  checkKernel(iter, 'cpuKernelVec');
  if (iter.isMeta) return;
  const tensors = iter.tensors;
  const nt = tensors.length;
  const t0 = tensors[0] as TensorImpl;
  const dtype = t0.dtype;
  let eligible = iter.computeDtypes === null && isVecDtype(dtype);
  for (let k = 1; k < nt && eligible; k++) if ((tensors[k] as TensorImpl).dtype !== dtype) eligible = false;
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
    forEachRow(iter, (offs, n) => {
      for (let k = 1; k < nt; k++) inOffsets[k - 1] = offs[k] as number;
      vec(out, offs[0] as number, ins, inOffsets, n);
    });
    return;
  }
  // Broadcast inputs along the inner dimension: a chunk of copies of the value in a same-typed scratch array.
  const rowIns = ins.slice();
  const staged = new Array<StorageArray | null>(nt);
  const filledWith = new Array<number>(nt).fill(NaN);
  const filledLength = new Array<number>(nt).fill(0);
  staged[0] = null;
  for (let k = 1; k < nt; k++) staged[k] = strides0[k] === 0 ? scratchLike(ins[k - 1] as StorageArray, k) : null;
  forEachRow(iter, (offs, n) => {
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
  });
}

// ---------------------------------------------------------------------------------------------------
// cpuKernelComplex
// ---------------------------------------------------------------------------------------------------

/** Stores a real value in a real dtype's array, converting as a C++ cast does. */
function storeReal(dtype: ScalarType, arr: StorageArray, p: number, v: number): void {
  switch (dtype) {
    case ScalarType.Bool:
      arr[p] = v !== 0 ? 1 : 0;
      return;
    case ScalarType.Long:
      arr[p] = toInt64(v);
      return;
    case ScalarType.Half:
      arr[p] = floatToHalfBits(v);
      return;
    case ScalarType.BFloat16:
      arr[p] = floatToBFloat16Bits(v);
      return;
    default:
      arr[p] = v;
  }
}

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
  const dtypes = tensors.map((t) => t.dtype);
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
  forEachRow(iter, (offs, n) => {
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
  });
}

// ---------------------------------------------------------------------------------------------------
// Reductions (binary_kernel_reduce / the reduce loops of native/cpu/Reduce.h, simplified)
// ---------------------------------------------------------------------------------------------------

/**
 * A reduction's combine step: the value of one output element from the `n` input values
 * `src[offset + i * stride]` (i < n) of its reduced slice, as numbers (bool as 0/1, float16/bfloat16
 * decoded, converted to the input's compute dtype). Called with `n = 0` for an empty slice: return the
 * identity (0 for sum, 1 for prod, NaN for mean, ...). `src` may be a storage array or the shared gather
 * buffer: read it, do not keep it.
 */
export type ReduceOp = (src: ArrayLike<number>, offset: number, stride: number, n: number) => number;

// Note [Simple reduction loops]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// reduceKernel walks a reduction iterator (Note [Reduction iterators] in TensorIterator.ts) one output
// element at a time and hands the kernel that element's whole reduced slice. When the slice is one strided
// run (the reduced dims coalesced into one, as for any reduction over contiguous memory) of a dtype whose
// storage array holds the values themselves (float32/64, int8/16/32/64, uint8, bool) read in its own dtype,
// the kernel reads the storage array in place: `sum` of 10^6 float32 is one call over the Float32Array.
// Otherwise (several reduced dims left after coalescing, float16/bfloat16 bits, a conversion to another
// compute dtype) the slice is gathered, decoded and converted into one Float64Array reused for every output
// element of the call, and the kernel reads that; the storage offsets of the slice's elements (in iteration
// order, fastest dim first) are computed once per call. Unlike PyTorch's loops there is no vectorisation
// across output elements (an outer reduction, e.g. sum over dim 0 of a row-major matrix, reads each slice
// with a large stride).

/** The dtypes whose storage array holds the element values as they are (Note [Simple reduction loops]). */
function isPlainReadable(d: ScalarType): boolean {
  return isDirect(d) || d === ScalarType.Long || d === ScalarType.Bool;
}

/**
 * Whether converting every value of `from` to `to` leaves it unchanged (small integers and float32 widened to
 * int64/float64, ...): the reduction then reads the input as it is (sum of int32 into int64).
 */
function isLosslessConversion(from: ScalarType, to: ScalarType): boolean {
  if (from === to) return true;
  const small = from === ScalarType.Bool || from === ScalarType.Byte || from === ScalarType.Char || from === ScalarType.Short;
  switch (to) {
    case ScalarType.Double:
      return small || from === ScalarType.Int || from === ScalarType.Float || from === ScalarType.Half || from === ScalarType.BFloat16;
    case ScalarType.Long:
      return small || from === ScalarType.Int;
    case ScalarType.Float:
    case ScalarType.Int:
      return small;
    default:
      return false;
  }
}

const EMPTY_VALUES = new Float64Array(0);
let reduceBuffer = new Float64Array(CHUNK);

/** The reused gather buffer, grown to `n`; slices beyond 2^16 elements get a buffer of their own. */
function gatherBuffer(n: number): Float64Array {
  if (n <= reduceBuffer.length) return reduceBuffer;
  if (n > 65536) return new Float64Array(n);
  reduceBuffer = new Float64Array(n);
  return reduceBuffer;
}

/** Stores a real value in a strided tensor's every element (the identity of an empty reduction). */
function fillReal(t: TensorImpl, v: number): void {
  const n = t.numel;
  if (n === 0) return;
  const arr = t.storage.data(t.dtype);
  const sizes = t.sizes;
  const strides = t.strides;
  const nd = sizes.length;
  const counter = new Array<number>(nd).fill(0);
  let p = elementBase(t);
  const lanes = isComplex(t.dtype) ? 2 : 1;
  const value = castValue(v, t.dtype);
  for (let e = 0; e < n; e++) {
    if (lanes === 2) {
      arr[2 * p] = value;
      arr[2 * p + 1] = 0;
    } else {
      storeReal(t.dtype, arr, p, value);
    }
    for (let d = nd - 1; d >= 0; d--) {
      const c = (counter[d] as number) + 1;
      if (c < (sizes[d] as number)) {
        counter[d] = c;
        p += strides[d] as number;
        break;
      }
      counter[d] = 0;
      p -= (c - 1) * (strides[d] as number);
    }
  }
}

/**
 * `binary_kernel_reduce`: for every output element of a reduction iterator (one output, one input; see
 * makeReduction), `op` combines the element's reduced slice into its value, which is converted to the
 * output's dtype and stored. Reduced slices are walked in iteration order (fastest dim first: row-major over
 * the reduced dims for a single reduced dim or a linear iterator), so `op` may return an index (argmax). An
 * empty iteration space fills the result with `op` of an empty slice. Meta iterators do nothing. See Note
 * [Simple reduction loops].
 */
export function reduceKernel(iter: TensorIterator, op: ReduceOp): void {
  if (iter.numOutputs !== 1 || iter.tensors.length !== 2 || !iter.isReduction) {
    throw new Error('reduceKernel: expected a reduction iterator with one output and one input (makeReduction)');
  }
  if (iter.isMeta) return;
  const out = iter.tensors[0] as TensorImpl;
  const inp = iter.tensors[1] as TensorImpl;
  const outDtype = out.dtype;
  if (isComplex(outDtype)) throw new Error(`reduceKernel: complex outputs (${scalarTypeToString(outDtype)}) are not supported`);
  if (iter.numel() === 0) {
    fillReal(iter.output(), op(EMPTY_VALUES, 0, 1, 0));
    return;
  }
  const shape = iter.shape;
  const ndim = shape.length;
  const st = iter.strides;
  const inDtype0 = inp.dtype;
  const convert = !isLosslessConversion(inDtype0, iter.computeDtype(1));
  if (ndim <= 2 && isPlainReadable(inDtype0) && !convert && (ndim < 2 || (st[0] === 0 && st[2] !== 0))) {
    // The common shapes without the general bookkeeping: one run (a full reduction, or one element per output),
    // or reduced runs along dim 0 for each output along dim 1.
    const inArr = inp.storage.data(inDtype0);
    const outArr = out.storage.data(outDtype);
    const po = elementBase(out);
    const pi = elementBase(inp);
    if (ndim === 0) {
      storeReal(outDtype, outArr, po, op(inArr, pi, 0, 1));
    } else if (st[0] === 0) {
      const n = shape[0] as number;
      const s = st[1] as number;
      const rows = ndim === 2 ? (shape[1] as number) : 1;
      const os = ndim === 2 ? (st[2] as number) : 0;
      const is = ndim === 2 ? (st[3] as number) : 0;
      for (let r = 0; r < rows; r++) storeReal(outDtype, outArr, po + r * os, op(inArr, pi + r * is, s, n));
    } else {
      const n = shape[0] as number;
      const os = st[0] as number;
      const is = st[1] as number;
      for (let r = 0; r < n; r++) storeReal(outDtype, outArr, po + r * os, op(inArr, pi + r * is, 0, 1));
    }
    return;
  }
  // Reduced dims (output stride 0) and kept dims, each in iteration order.
  const redSizes: number[] = [];
  const redStrides: number[] = [];
  const keptSizes: number[] = [];
  const keptOut: number[] = [];
  const keptIn: number[] = [];
  for (let d = 0; d < ndim; d++) {
    const size = shape[d] as number;
    if (st[2 * d] === 0) {
      redSizes.push(size);
      redStrides.push(st[2 * d + 1] as number);
    } else {
      keptSizes.push(size);
      keptOut.push(st[2 * d] as number);
      keptIn.push(st[2 * d + 1] as number);
    }
  }
  let m = 1;
  for (const s of redSizes) m *= s;
  const inDtype = inp.dtype;
  const inCompute = iter.computeDtype(1);
  const inArr = inp.storage.data(inDtype);
  const outArr = out.storage.data(outDtype);
  const direct = redSizes.length <= 1 && !convert && isPlainReadable(inDtype);
  const runStride = redSizes.length === 1 ? (redStrides[0] as number) : 0;
  // The slice's element offsets, fastest reduced dim varying fastest, when it is not one strided run.
  let rel: Float64Array | null = null;
  if (redSizes.length > 1) {
    rel = new Float64Array(m);
    let len = 1;
    for (let k = 0; k < redSizes.length; k++) {
      const size = redSizes[k] as number;
      const stride = redStrides[k] as number;
      for (let i = size - 1; i >= 1; i--) for (let j = 0; j < len; j++) rel[i * len + j] = (rel[j] as number) + i * stride;
      len *= size;
    }
  }
  const buf = direct ? EMPTY_VALUES : gatherBuffer(m);
  const plain = isPlainReadable(inDtype);
  const nk = keptSizes.length;
  const counter = new Array<number>(nk).fill(0);
  let total = 1;
  for (const s of keptSizes) total *= s;
  let po = elementBase(out);
  let pi = elementBase(inp);
  for (let e = 0; e < total; e++) {
    let v: number;
    if (direct) {
      v = op(inArr, pi, runStride, m);
    } else {
      if (rel === null) {
        gather(inDtype, inArr, pi, runStride, buf, m);
      } else if (plain) {
        for (let j = 0; j < m; j++) buf[j] = inArr[pi + (rel[j] as number)] as number;
      } else {
        for (let j = 0; j < m; j++) buf[j] = loadOne(inDtype, inArr, pi + (rel[j] as number));
      }
      if (convert) castChunk(buf, m, inCompute);
      v = op(buf, 0, 1, m);
    }
    storeReal(outDtype, outArr, po, v);
    for (let d = 0; d < nk; d++) {
      const c = (counter[d] as number) + 1;
      if (c < (keptSizes[d] as number)) {
        counter[d] = c;
        po += keptOut[d] as number;
        pi += keptIn[d] as number;
        break;
      }
      counter[d] = 0;
      po -= (c - 1) * (keptOut[d] as number);
      pi -= (c - 1) * (keptIn[d] as number);
    }
  }
}
