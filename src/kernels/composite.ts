// CompositeImplicitAutograd kernels: operators defined by decomposition into other operators, so every
// backend (and, later, autograd) gets them for free. Mirrors the corresponding functions of
// aten/src/ATen/native/TensorShape.cpp, TensorConversions.cpp and Scalar.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import type { ScalarType } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import type { ScalarValue } from '../tensor/elements.js';
import type { Tensor } from '../tensor/Tensor.js';
import { inferSizeDv } from '../tensor/InferSize.js';
import { computeStride } from '../tensor/TensorUtils.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';

/** `reshape`: a view when the strides allow one (computeStride), else a contiguous copy viewed. */
export function reshape(_ks: DispatchKeySet, self: Tensor, shape: number[]): Tensor {
  const sizes = inferSizeDv(shape, self.numel);
  if (computeStride(self.sizes, self.strides, sizes) !== null) return aten().view.call(self, sizes);
  return aten().view.call(aten().clone.call(self, null), sizes);
}

/** `flatten.using_ints`: dims start..end merged into one. */
export function flatten(_ks: DispatchKeySet, self: Tensor, startDim = 0, endDim = -1): Tensor {
  const n = self.dim();
  const start = maybeWrapDim(startDim, n);
  const end = maybeWrapDim(endDim, n);
  if (start > end) throw new Error('flatten() has invalid args: start_dim cannot come after end_dim');
  if (n === 0) return aten().reshape.call(self, [1]);
  if (start === end) return self;
  let merged = 1;
  for (let i = start; i <= end; i++) merged *= self.sizes[i] as number;
  return aten().reshape.call(self, [...self.sizes.slice(0, start), merged, ...self.sizes.slice(end + 1)]);
}

/** `unflatten.int`: one dim split into `sizes` (one of them may be -1). */
export function unflatten(_ks: DispatchKeySet, self: Tensor, dim: number, sizes: number[]): Tensor {
  const d = maybeWrapDim(dim, self.dim());
  if (sizes.length === 0) throw new Error('unflatten: sizes must be non-empty');
  let inferred: number[];
  try {
    inferred = inferSizeDv(sizes, self.sizes[d] as number);
  } catch {
    throw new Error(
      `unflatten: Provided sizes [${sizes.join(', ')}] don't multiply up to the size of dim ${d} (${self.sizes[d]}) in the input tensor`,
    );
  }
  return aten().view.call(self, [...self.sizes.slice(0, d), ...inferred, ...self.sizes.slice(d + 1)]);
}

/** `contiguous`: self if already contiguous, else a contiguous copy. */
export function contiguous(_ks: DispatchKeySet, self: Tensor, _memoryFormat = 0): Tensor {
  return self.isContiguous() ? self : aten().clone.call(self, null);
}

/** `to.dtype`: self when nothing changes and no copy is asked for, else `_to_copy`. */
export function toDtype(_ks: DispatchKeySet, self: Tensor, dtype: ScalarType, _nonBlocking = false, copy = false): Tensor {
  if (dtype === self.dtype && !copy) return self;
  return aten()._to_copy.call(self, dtype, null, null, null, false, null);
}

/** `item`: `_local_scalar_dense`. */
export function item(_ks: DispatchKeySet, self: Tensor): ScalarValue {
  return aten()._local_scalar_dense.call(self);
}
