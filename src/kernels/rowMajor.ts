// Row-major value lists: the input and output form of the kernels that compute element by element with
// index arithmetic (Indexing, NNOps, Convolution). See Note [Indexing kernels work on row-major value lists].

import type { ScalarType } from '../c10/ScalarType.js';
import { readElement, writeElement, type ScalarValue } from '../tensor/elements.js';
import type { Tensor } from '../tensor/Tensor.js';
import { contiguousStrides } from '../tensor/TensorImpl.js';
import { newStrided } from './TensorFactories.js';

/** The elements of `t` in row-major order, whatever its layout (empty for a meta tensor). */
export function scalarValuesOf(t: Tensor): ScalarValue[] {
  if (t.isMeta()) return [];
  const c = t.contiguous();
  const { data, base, lanes } = c.dataView();
  const out = new Array<ScalarValue>(c.numel);
  for (let i = 0; i < c.numel; i++) out[i] = readElement(c.dtype, data, base + i * lanes);
  return out;
}

/** The elements of a real (or bool) tensor as numbers, row-major. */
export function numberValuesOf(t: Tensor): number[] {
  return scalarValuesOf(t).map((v) => (typeof v === 'object' ? v[0] : Number(v)));
}

/** A new contiguous tensor of `sizes` and `dtype` on `like`'s device holding `values` (none for meta). */
export function tensorFromValues(like: Tensor, sizes: number[], dtype: ScalarType, values: ArrayLike<ScalarValue>): Tensor {
  const out = newStrided(sizes, contiguousStrides(sizes), dtype, like.device);
  if (out.isMeta()) return out;
  const { data, base, lanes } = out.dataView();
  for (let i = 0; i < values.length; i++) writeElement(dtype, data, base + i * lanes, values[i] as ScalarValue);
  return out;
}
