// The CompositeImplicitAutograd functions of aten/src/ATen/native/TensorAdvancedIndexing.cpp that only call
// other operators: argwhere; and nonzero_static over nonzero. (TensorAdvancedIndexing.ts holds the kernels.)

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
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
