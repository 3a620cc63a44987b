// tril and triu. Mirrors aten/src/ATen/native/TriangularOps.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import type { Tensor } from '../tensor/Tensor.js';
import { scalarValuesOf, tensorFromValues } from './rowMajor.js';

function triangle(self: Tensor, diagonal: number, lower: boolean): Tensor {
  if (self.dim() < 2) throw new Error(`${lower ? 'tril' : 'triu'}: input tensor must have at least 2 dimensions`);
  const [rows, cols] = self.sizes.slice(-2) as [number, number];
  const v = scalarValuesOf(self);
  const out = v.map((x, i) => {
    const c = i % cols;
    const r = Math.floor(i / cols) % rows;
    const keep = lower ? c - r <= diagonal : c - r >= diagonal;
    return keep ? x : 0;
  });
  return tensorFromValues(self, [...self.sizes], self.dtype, out);
}

export function tril(_ks: DispatchKeySet, self: Tensor, diagonal = 0): Tensor {
  return triangle(self, diagonal, true);
}

export function triu(_ks: DispatchKeySet, self: Tensor, diagonal = 0): Tensor {
  return triangle(self, diagonal, false);
}
