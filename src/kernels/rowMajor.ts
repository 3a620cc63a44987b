// Row-major value lists: the input and output form of the kernels that compute element by element with
// index arithmetic (Convolution, Pooling). See Note [Indexing kernels work on row-major value lists].

// Note [Indexing kernels work on row-major value lists]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// These kernels read their inputs into row-major lists of scalar values (any layout, any dtype), compute
// the result positions with plain index arithmetic, and write a new contiguous tensor: a few lines of
// obviously-correct arithmetic at the cost of two conversions. Kernels are moving off them (eslint's
// list of files still using them only shrinks); element moves in StorageAccess.ts replace them.

import { ScalarType } from '../c10/ScalarType.js';
import { type ScalarValue, fromStored, readElement, toStored, writeElement } from '../tensor/elements.js';
import type { Tensor } from '../tensor/Tensor.js';
import { contiguousStrides } from '../tensor/TensorImpl.js';
import { newStrided } from './TensorFactories.js';

/** The elements of `t` in row-major order, whatever its layout (empty for a meta tensor). */
export function scalarValuesOf(t: Tensor): ScalarValue[] {
  if (t.isMeta()) return [];
  const c = t.contiguous();
  const { data, base, lanes } = c.dataView();
  if (lanes === 1) {
    const numbers = numberValuesOf(c);
    return c.dtype === ScalarType.Bool ? numbers.map((v) => v !== 0) : numbers;
  }
  const out = new Array<ScalarValue>(c.numel);
  for (let i = 0; i < c.numel; i++) out[i] = readElement(c.dtype, data, base + i * lanes);
  return out;
}

// Note [Bulk conversion of storage arrays]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Storage arrays come in every typed-array class, so one loop reading or writing them element by element is
// megamorphic in V8 (tens of ns per element). These helpers move whole arrays with `TypedArray.prototype.set`
// (which converts like an element store) into or out of a Float64Array and loop only over that.

/** The elements of a real (or bool) tensor as numbers, row-major. */
export function numberValuesOf(t: Tensor): number[] {
  if (t.isMeta()) return [];
  const c = t.contiguous();
  const { data, base, lanes } = c.dataView();
  if (lanes !== 1) return scalarValuesOf(c).map((v) => (typeof v === 'object' ? v[0] : Number(v)));
  // See Note [Bulk conversion of storage arrays].
  const n = c.numel;
  const tmp = new Float64Array(n);
  tmp.set(data.subarray(base, base + n));
  const out = new Array<number>(n);
  if (c.dtype === ScalarType.Half || c.dtype === ScalarType.BFloat16)
    for (let i = 0; i < n; i++) out[i] = fromStored(c.dtype, tmp[i] as number);
  else for (let i = 0; i < n; i++) out[i] = tmp[i] as number;
  return out;
}

/** A new contiguous tensor of `sizes` and `dtype` on `like`'s device holding `values` (none for meta). */
export function tensorFromValues(like: Tensor, sizes: number[], dtype: ScalarType, values: ArrayLike<ScalarValue>): Tensor {
  const out = newStrided(sizes, contiguousStrides(sizes), dtype, like.device);
  if (out.isMeta()) return out;
  const { data, base, lanes } = out.dataView();
  if (lanes === 1) {
    // See Note [Bulk conversion of storage arrays].
    const n = values.length;
    const tmp = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const v = values[i] as ScalarValue;
      tmp[i] = toStored(dtype, typeof v === 'number' ? v : typeof v === 'boolean' ? (v ? 1 : 0) : v[0]);
    }
    data.set(tmp, base);
    return out;
  }
  for (let i = 0; i < values.length; i++) writeElement(dtype, data, base + i * lanes, values[i] as ScalarValue);
  return out;
}
