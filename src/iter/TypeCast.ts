// Value conversions as PyTorch's CPU kernels do them (c10::convert, static_cast, the half/bfloat16
// round trips), the chunked converting loads and stores of the loops (fetch_and_cast / cast_and_store) and
// their scratch buffers. Mirrors c10/util/TypeCast.h and the converting paths of ATen/native/cpu/Loops.h.

import { ScalarType } from '../c10/ScalarType.js';
import { bfloat16BitsToFloat, floatToBFloat16Bits, floatToHalfBits, halfBitsToFloat } from '../tensor/half.js';
import type { StorageArray } from '../tensor/Storage.js';
import { toInt64 } from '../tensor/elements.js';

export { toInt64 };

// ---------------------------------------------------------------------------------------------------
// Value conversions (c10::convert / static_cast as PyTorch's CPU kernels do them)
// ---------------------------------------------------------------------------------------------------

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
export function isDirect(d: ScalarType): boolean {
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
export function isVecDtype(d: ScalarType): boolean {
  return isDirect(d) || d === ScalarType.Long;
}

export function isComplex(d: ScalarType): boolean {
  return d === ScalarType.ComplexFloat || d === ScalarType.ComplexDouble || d === ScalarType.ComplexHalf;
}

// ---------------------------------------------------------------------------------------------------
// Scratch buffers
// ---------------------------------------------------------------------------------------------------

/** Elements per chunk of the converting and gathering loops (fits L1 with a few operands). */
export const CHUNK = 512;

const f64Scratch: Float64Array[] = [];

export function scratchF64(slot: number): Float64Array {
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
export function scratchLike(like: StorageArray, slot: number): StorageArray {
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
// Converting loop (Note [Direct dtypes])
// ---------------------------------------------------------------------------------------------------

/** Loads n values of `dtype` from `src` (element offset/stride) into `dst[0..n)` as numbers. */
export function gather(dtype: ScalarType, src: StorageArray, offset: number, stride: number, dst: Float64Array, n: number): void {
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

export function loadOne(dtype: ScalarType, src: StorageArray, offset: number): number {
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
export function castChunk(buf: Float64Array, n: number, dtype: ScalarType): void {
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
export function scatter(dtype: ScalarType, src: Float64Array, dst: StorageArray, offset: number, stride: number, n: number): void {
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

/** Stores a real value in a real dtype's array, converting as a C++ cast does. */
export function storeReal(dtype: ScalarType, arr: StorageArray, p: number, v: number): void {
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
