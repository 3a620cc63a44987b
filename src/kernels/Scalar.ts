// item(): a one-element tensor's value as a number. Mirrors aten/src/ATen/native/Scalar.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { aten } from '../generated/Operators.js';
import type { ScalarValue } from '../tensor/elements.js';
import type { Tensor } from '../tensor/Tensor.js';

/** `item`: `_local_scalar_dense`. */
export function item(_ks: DispatchKeySet, self: Tensor): ScalarValue {
  return aten()._local_scalar_dense.call(self);
}
