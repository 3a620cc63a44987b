// The composite functions of aten/src/ATen/native/TensorAdvancedIndexing.cpp that only call
// other operators: argwhere; nonzero_static over nonzero; _unsafe_masked_index and
// _unsafe_masked_index_put_accumulate. (TensorAdvancedIndexing.ts holds the kernels.)

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { Device } from '../c10/Device.js';
import { MemoryFormat } from '../c10/Layout.js';
import { ScalarType } from '../c10/ScalarType.js';
import * as at from '../generated/TensorBody.js';
import type { Tensor } from '../tensor/Tensor.js';

/** `argwhere(self)`: `nonzero(self)`, the indices of the non-zero elements as rows. */
export function argwhere(_ks: DispatchKeySet, self: Tensor): Tensor {
  return at.nonzero(self);
}

/**
 * `nonzero_static(self, *, size, fill_value=-1)`: nonzero's rows, cut or padded with fill_value to `size` rows
 * (TensorAdvancedIndexing.cpp's nonzero_static_out_cpu and its check).
 */
export function nonzeroStatic(_ks: DispatchKeySet, self: Tensor, size: number, fillValue = -1): Tensor {
  if (size < 0) throw new Error(`nonzero_static: 'size' must be an non-negative integer, but got size: ${size}`);
  const ndim = self.dim();
  if (self.isMeta()) return at.empty_memory_format([size, ndim], ScalarType.Long, null, self.device);
  const nz = at.nonzero(self);
  const n = nz.sizes[0] as number;
  if (n >= size) return at.clone(at.slice_Tensor(nz, 0, 0, size), MemoryFormat.Contiguous);
  const out = at.full([size, ndim], fillValue, ScalarType.Long, null, self.device);
  at.copy_(at.slice_Tensor(out, 0, 0, n), nz);
  return out;
}

/** The indices clamped into [-size, size - 1] of the dimension they index (the `_unsafe_masked_*` operators'). */
function clampedIndices(self: Tensor, indices: (Tensor | null)[]): (Tensor | null)[] {
  return indices.map((index, i) => {
    if (index === null) return null;
    if (index.scalarType !== ScalarType.Long && index.scalarType !== ScalarType.Int)
      throw new Error('tensors used as indices must be long or int tensors');
    const size = self.sizes[i] as number;
    return at.clamp(index, -size, size - 1);
  });
}

function checkMask(mask: Tensor): void {
  if (mask.scalarType !== ScalarType.Bool) throw new Error('tensors used as masks must be bool tensors');
}

/**
 * `_unsafe_masked_index(self, mask, indices, fill)`, CompositeExplicitAutograd: `where(mask, self[indices],
 * fill)`, where the indices a false mask covers may be out of bounds (they are clamped, then masked out).
 */
export function unsafeMaskedIndex(
  _ks: DispatchKeySet,
  self: Tensor,
  mask: Tensor,
  indices: (Tensor | null)[],
  fill: number | boolean,
): Tensor {
  checkMask(mask);
  const clamped = clampedIndices(self, indices);
  if (self.numel() === 0) {
    const shape = at.index_Tensor(at.empty_memory_format([...self.sizes], self.scalarType, null, Device.parse('meta')), clamped).sizes;
    return at.full([...shape], fill, self.scalarType, null, self.device);
  }
  return at.masked_fill_Scalar(at.index_Tensor(self, clamped), at.logical_not(mask), fill);
}

/**
 * `_unsafe_masked_index_put_accumulate(self, mask, indices, values)`, CompositeExplicitAutograd: `self` with the
 * values the mask keeps accumulated at the (clamped) indices (the backward of `_unsafe_masked_index`).
 */
export function unsafeMaskedIndexPutAccumulate(
  _ks: DispatchKeySet,
  self: Tensor,
  mask: Tensor,
  indices: (Tensor | null)[],
  values: Tensor,
): Tensor {
  checkMask(mask);
  const clamped = clampedIndices(self, indices);
  if (self.numel() === 0) return at.clone(self, null);
  return at.index_put(self, clamped, at.masked_fill_Scalar(values, at.logical_not(mask), 0), true);
}
