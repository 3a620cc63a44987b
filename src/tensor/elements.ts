// Reading and writing single elements of any dtype, with C++'s static_cast conversions. For slow paths
// (item, tolist, tensor(), fill of odd dtypes); kernels use typed arrays directly.

import { ScalarType } from '../c10/ScalarType.js';
import { bfloat16BitsToFloat, floatToBFloat16Bits, floatToHalfBits, halfBitsToFloat } from './half.js';
import type { StorageArray } from './Storage.js';

/** A scalar value as JavaScript sees it: numbers, booleans for bool, [re, im] for complex. */
export type ScalarValue = number | boolean | readonly [number, number];

const INT64_LIMIT = 9223372036854775808;

/**
 * The int64 value of a double as every int64 store computes it: truncation; NaN, ±inf and values outside
 * [-2^63, 2^63) give INT64_MIN (x86's cvttsd2si). See Note [Typed storage of each dtype] for the int64 rule.
 */
export function toInt64(v: number): number {
  if (v >= -INT64_LIMIT && v < INT64_LIMIT) {
    const t = Math.trunc(v);
    return t === 0 ? 0 : t; // no -0 in an integer tensor
  }
  return -INT64_LIMIT;
}

/**
 * Applies toInt64's range rule to a run of `n` int64 elements a vectorised loop wrote (they write raw doubles:
 * Note [cpuKernelVec contract]), so that contiguous and strided loops store the same value.
 */
export function wrapInt64Run(out: StorageArray, o: number, n: number): void {
  for (let i = o, e = o + n; i < e; i++) {
    const v = out[i] as number;
    if (!(v >= -INT64_LIMIT && v < INT64_LIMIT)) out[i] = -INT64_LIMIT;
  }
}

/** The stored representation of a real value `v` in `dtype` (what goes into the typed array). */
export function toStored(dtype: ScalarType, v: number): number {
  switch (dtype) {
    case ScalarType.Bool:
      return v !== 0 ? 1 : 0;
    case ScalarType.Long:
      // int64 holds integers (see Note [Typed storage of each dtype]); static_cast truncates.
      return toInt64(v);
    case ScalarType.Half:
      return floatToHalfBits(v);
    case ScalarType.BFloat16:
      return floatToBFloat16Bits(v);
    default:
      // Int8/16/32, uint8: the typed array store truncates and wraps like a C++ cast of an in-range value.
      return v;
  }
}

/** The value of a stored element. */
export function fromStored(dtype: ScalarType, stored: number): number {
  switch (dtype) {
    case ScalarType.Half:
      return halfBitsToFloat(stored);
    case ScalarType.BFloat16:
      return bfloat16BitsToFloat(stored);
    default:
      return stored;
  }
}

/**
 * Reads the element whose first lane is at `index` of a storage array (for complex dtypes the real part is
 * at index, the imaginary part at index + 1).
 */
export function readElement(dtype: ScalarType, data: StorageArray, index: number): ScalarValue {
  if (dtype === ScalarType.ComplexFloat || dtype === ScalarType.ComplexDouble) {
    return [data[index] as number, data[index + 1] as number];
  }
  const v = fromStored(dtype, data[index] as number);
  return dtype === ScalarType.Bool ? v !== 0 : v;
}

/** Writes a scalar into the element whose first lane is at `index`, converting as a C++ static_cast would. */
export function writeElement(dtype: ScalarType, data: StorageArray, index: number, value: ScalarValue): void {
  if (dtype === ScalarType.ComplexFloat || dtype === ScalarType.ComplexDouble) {
    const [re, im] = typeof value === 'object' ? value : [Number(value), 0];
    data[index] = re;
    data[index + 1] = im;
    return;
  }
  const real = typeof value === 'object' ? value[0] : Number(value);
  data[index] = toStored(dtype, real);
}
