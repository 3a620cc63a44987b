// one_hot. Mirrors aten/src/ATen/native/Onehot.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType } from '../c10/ScalarType.js';
import type { Tensor } from '../tensor/Tensor.js';
import { numberValuesOf, tensorFromValues } from './rowMajor.js';

/** `one_hot(self, num_classes=-1)`: int64 input, int64 [.., num_classes] output. */
export function oneHot(_ks: DispatchKeySet, self: Tensor, numClasses = -1): Tensor {
  if (self.dtype !== ScalarType.Long) throw new Error('one_hot is only applicable to index tensor of type LongTensor.');
  const v = numberValuesOf(self);
  for (const x of v) if (x < 0) throw new Error('Class values must be non-negative.');
  const n = numClasses === -1 ? (v.length === 0 ? 0 : Math.max(...v) + 1) : numClasses;
  for (const x of v) if (x >= n) throw new Error('Class values must be smaller than num_classes.');
  const out = new Array<number>(v.length * n).fill(0);
  v.forEach((x, i) => (out[i * n + x] = 1));
  return tensorFromValues(self, [...self.sizes, n], ScalarType.Long, out);
}
