// to(dtype) as a decomposition into _to_copy. Mirrors aten/src/ATen/native/TensorConversions.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import type { ScalarType } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';

/** `to.dtype`: self when nothing changes and no copy is asked for, else `_to_copy`. */
export function toDtype(_ks: DispatchKeySet, self: Tensor, dtype: ScalarType, _nonBlocking = false, copy = false): Tensor {
  if (dtype === self.scalarType && !copy) return self;
  return aten()._to_copy.call(self, dtype, null, null, null, false, null);
}
