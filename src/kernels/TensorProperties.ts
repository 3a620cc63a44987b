// contiguous (a decomposition: a copy in the requested memory format when needed). Mirrors
// aten/src/ATen/native/TensorProperties.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';

/** `contiguous`: self if already contiguous, else a contiguous copy. */
export function contiguous(_ks: DispatchKeySet, self: Tensor, memoryFormat = 0): Tensor {
  return self.isContiguous() ? self : aten().clone.call(self, memoryFormat);
}
