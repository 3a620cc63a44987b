// The CompositeImplicitAutograd functions of aten/src/ATen/native/TensorAdvancedIndexing.cpp that only call
// other operators: argwhere. (TensorAdvancedIndexing.ts holds the kernels.)

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import * as at from '../generated/TensorBody.js';
import type { Tensor } from '../tensor/Tensor.js';

/** `argwhere(self)`: `nonzero(self)`, the indices of the non-zero elements as rows. */
export function argwhere(_ks: DispatchKeySet, self: Tensor): Tensor {
  return at.nonzero(self);
}
