// tril and triu. Mirrors aten/src/ATen/native/TriangularOps.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import type { Tensor } from '../tensor/Tensor.js';
import { contiguousOf, emptyLike, moveElement, storedElements, zeroElement } from './StorageAccess.js';

function triangle(self: Tensor, diagonal: number, lower: boolean): Tensor {
  if (self.dim() < 2) throw new Error(`${lower ? 'tril' : 'triu'}: input tensor must have at least 2 dimensions`);
  const [rows, cols] = self.sizes.slice(-2) as [number, number];
  const out = emptyLike(self, [...self.sizes]);
  if (out.isMeta()) return out;
  const src = contiguousOf(self);
  const [x, y] = [storedElements(src), storedElements(out)];
  for (let i = 0; i < out.numel(); i++) {
    const c = i % cols;
    const r = Math.floor(i / cols) % rows;
    if (lower ? c - r <= diagonal : c - r >= diagonal) moveElement(y, i, x, i);
    else zeroElement(y, i);
  }
  return out;
}

export function tril(_ks: DispatchKeySet, self: Tensor, diagonal = 0): Tensor {
  return triangle(self, diagonal, true);
}

export function triu(_ks: DispatchKeySet, self: Tensor, diagonal = 0): Tensor {
  return triangle(self, diagonal, false);
}
