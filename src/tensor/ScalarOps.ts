// A JavaScript number as a tensor: the wrapped-number 0-dim tensor PyTorch makes of a Python number passed
// where a Tensor is expected. Mirrors ATen/ScalarOps.h (`scalar_to_tensor`) and `TensorImpl::set_wrapped_number`;
// the dtype rule is c10's (Note [JavaScript numbers as Python scalars] in src/c10/Scalar.ts).

import { scalarTypeOfNumber } from '../c10/Scalar.js';
import type { ScalarType } from '../c10/ScalarType.js';
import { Storage, cpuAllocator } from './Storage.js';
import { Tensor } from './Tensor.js';
import { toStored } from './elements.js';

/**
 * `scalar_to_tensor` + `set_wrapped_number`: the 0-dim tensor PyTorch makes of a number passed as a Tensor.
 * `dtype`: the Scalar's type when the schema fixes it (a `float` argument is a double even when integral).
 */
export function wrapScalar(v: number | boolean, dtype: ScalarType = scalarTypeOfNumber(v)): Tensor {
  const t = new Tensor(new Storage(8, cpuAllocator), dtype, [], [], 0);
  const { data, base } = t.dataView();
  data[base] = toStored(dtype, Number(v));
  t.isWrappedNumber = true;
  return t;
}
