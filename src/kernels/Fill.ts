// The functional `fill` (fill.Scalar / fill.Tensor): a new tensor like self, filled. Mirrors the functional
// half of aten/src/ATen/native/Fill.cpp; the in-place fill_ kernels live in Copy.ts.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import * as at from '../generated/TensorBody.js';
import type { Tensor } from '../tensor/Tensor.js';

/** `fill(self, value)`: `empty_like(self).fill_(value)`. */
export function fill(_ks: DispatchKeySet, self: Tensor, value: number | boolean): Tensor {
  return at.fill__Scalar(at.empty_like(self), value);
}

/** `fill(self, value)` with a 0-dim tensor value: `empty_like(self).fill_(value)`. */
export function fillTensor(_ks: DispatchKeySet, self: Tensor, value: Tensor): Tensor {
  return at.fill__Tensor(at.empty_like(self), value);
}
