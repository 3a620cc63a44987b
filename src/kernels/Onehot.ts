// one_hot. Mirrors aten/src/ATen/native/Onehot.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType } from '../c10/ScalarType.js';
import type { Tensor } from '../tensor/Tensor.js';
import { contiguousOf, emptyLike, storedElements } from './StorageAccess.js';

/** `one_hot(self, num_classes=-1)`: int64 input, int64 [.., num_classes] output. */
export function oneHot(_ks: DispatchKeySet, self: Tensor, numClasses = -1): Tensor {
  if (self.scalarType !== ScalarType.Long) throw new Error('one_hot is only applicable to index tensor of type LongTensor.');
  if (self.isMeta()) {
    // PyTorch's meta path: the class count comes from self.max().item(), which a meta tensor cannot give
    if (numClasses === -1) throw new Error('Tensor.item() cannot be called on meta tensors');
    return emptyLike(self, [...self.sizes, numClasses], ScalarType.Long);
  }
  const src = contiguousOf(self);
  const count = src.numel();
  // int64 is stored as doubles (Note [Typed storage of each dtype]): the class values read as they are.
  let x = storedElements(src);
  let max = -1;
  for (let i = 0; i < count; i++) {
    const c = x.data[x.base + i] as number;
    if (c < 0) throw new Error('Class values must be non-negative.');
    if (c > max) max = c;
  }
  const n = numClasses === -1 ? max + 1 : numClasses;
  if (max >= n) throw new Error('Class values must be smaller than num_classes.');
  const out = emptyLike(self, [...self.sizes, n], ScalarType.Long);
  x = storedElements(src); // again: allocating `out` may have moved linear memory
  const y = storedElements(out);
  y.data.fill(0, y.base, y.base + count * n);
  for (let i = 0; i < count; i++) y.data[y.base + i * n + (x.data[x.base + i] as number)] = 1;
  return out;
}
