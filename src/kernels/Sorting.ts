// sort, argsort and topk. Mirrors aten/src/ATen/native/Sorting.cpp and TensorCompare.cpp's argsort.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType } from '../c10/ScalarType.js';
import type { Tensor } from '../tensor/Tensor.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';
import { numberValuesOf, tensorFromValues } from './rowMajor.js';
import { around } from './TensorShape.js';

/**
 * `sort.stable(self, *, stable, dim=-1, descending=False)`: (values, indices). NaN sorts as the largest
 * value; ties keep their order (PyTorch's CPU sort is stable).
 */
export function sort(_ks: DispatchKeySet, self: Tensor, dim = -1, descending = false): [Tensor, Tensor] {
  const d = self.dim() === 0 ? 0 : maybeWrapDim(dim, self.dim());
  const sizes = self.dim() === 0 ? [1] : self.sizes;
  const [outer, size, inner] = around(sizes, d);
  const v = numberValuesOf(self);
  const values = new Array<number>(v.length);
  const indices = new Array<number>(v.length);
  const key = (x: number) => (x !== x ? Infinity : x);
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      const order = Array.from({ length: size }, (_, k) => k);
      const at = (k: number) => v[(o * size + k) * inner + i] as number;
      order.sort((a, b) => {
        const xa = at(a);
        const xb = at(b);
        const nanA = xa !== xa;
        const nanB = xb !== xb;
        if (nanA || nanB) return nanA === nanB ? 0 : (nanA ? 1 : -1) * (descending ? -1 : 1);
        return (descending ? key(xb) - key(xa) : key(xa) - key(xb)) || 0;
      });
      order.forEach((k, r) => {
        values[(o * size + r) * inner + i] = at(k);
        indices[(o * size + r) * inner + i] = k;
      });
    }
  }
  return [tensorFromValues(self, [...self.sizes], self.dtype, values), tensorFromValues(self, [...self.sizes], ScalarType.Long, indices)];
}

export function argsort(ks: DispatchKeySet, self: Tensor, dim = -1, descending = false): Tensor {
  return sort(ks, self, dim, descending)[1];
}

/** `topk(self, k, dim=-1, largest=True, sorted=True)`: (values, indices). */
export function topk(ks: DispatchKeySet, self: Tensor, k: number, dim = -1, largest = true): [Tensor, Tensor] {
  const d = self.dim() === 0 ? 0 : maybeWrapDim(dim, self.dim());
  const size = self.dim() === 0 ? 1 : (self.sizes[d] as number);
  if (k < 0 || k > size) throw new Error('selected index k out of range');
  const [values, indices] = sort(ks, self, d, largest);
  if (self.dim() === 0) return [values, indices];
  return [values.narrow(d, 0, k).contiguous(), indices.narrow(d, 0, k).contiguous()];
}
