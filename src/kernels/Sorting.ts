// sort, argsort and topk. Mirrors aten/src/ATen/native/Sorting.cpp and TensorCompare.cpp's argsort.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isComplexType } from '../c10/ScalarType.js';
import type { Tensor } from '../tensor/Tensor.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';
import { readElement, toStored } from '../tensor/elements.js';
import { contiguousOf, elementReader, emptyLike, moveElement, storedElements } from './StorageAccess.js';
import { topkRow } from './TopKImpl.js';
import { around } from './TensorShape.js';
import { aten } from '../generated/Operators.js';
import * as at from '../generated/TensorBody.js';

/**
 * `sort.stable(self, *, stable, dim=-1, descending=False)`: (values, indices). NaN sorts as the largest
 * value; ties keep their order (PyTorch's CPU sort is stable).
 */
export function sort(_ks: DispatchKeySet, self: Tensor, dim = -1, descending = false): [Tensor, Tensor] {
  const d = self.dim() === 0 ? 0 : maybeWrapDim(dim, self.dim());
  const sizes = self.dim() === 0 ? [1] : self.sizes;
  const [outer, size, inner] = around(sizes, d);
  const src = contiguousOf(self);
  const values = emptyLike(self, [...self.sizes]);
  const indices = emptyLike(self, [...self.sizes], ScalarType.Long);
  if (values.isMeta()) return [values, indices];
  const x = storedElements(src);
  const [yv, yi] = [storedElements(values), storedElements(indices)];
  // Comparisons read values through `number` (half bits decoded); results move as stored elements.
  const read = (e: number): number => {
    const v = readElement(src.scalarType, x.data, x.base + e * x.lanes);
    return typeof v === 'object' ? v[0] : Number(v);
  };
  const key = (v: number) => (v !== v ? Infinity : v);
  const order = new Array<number>(size);
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      for (let k = 0; k < size; k++) order[k] = k;
      const at = (k: number) => read((o * size + k) * inner + i);
      order.sort((a, b) => {
        const xa = at(a);
        const xb = at(b);
        const nanA = xa !== xa;
        const nanB = xb !== xb;
        if (nanA || nanB) return nanA === nanB ? 0 : (nanA ? 1 : -1) * (descending ? -1 : 1);
        return (descending ? key(xb) - key(xa) : key(xa) - key(xb)) || 0;
      });
      for (let r = 0; r < size; r++) {
        const e = (o * size + r) * inner + i;
        const from = (o * size + (order[r] as number)) * inner + i;
        moveElement(yv, e, x, from);
        yi.data[yi.base + e] = order[r] as number;
      }
    }
  }
  return [values, indices];
}

export function argsort(ks: DispatchKeySet, self: Tensor, dim = -1, descending = false): Tensor {
  return sort(ks, self, dim, descending)[1];
}

/** `topk(self, k, dim=-1, largest=True, sorted=True)`: (values, indices). */
export function topk(ks: DispatchKeySet, self: Tensor, k: number, dim = -1, largest = true, sorted = true): [Tensor, Tensor] {
  const d = self.dim() === 0 ? 0 : maybeWrapDim(dim, self.dim());
  const size = self.dim() === 0 ? 1 : (self.sizes[d] as number);
  if (k < 0 || k > size) throw new Error('selected index k out of range');
  const real = self.scalarType !== ScalarType.Bool && !isComplexType(self.scalarType);
  if (self.isMeta() || !real || self.numel() === 0 || k === 0) {
    const [values, indices] = sort(ks, self, d, largest);
    if (self.dim() === 0) return [values, indices];
    return [at.contiguous(at.narrow(values, d, 0, k)), at.contiguous(at.narrow(indices, d, 0, k))];
  }
  // rows along the last dim; PyTorch's per-row selection (./TopKImpl.ts, Note [topk's tie order])
  const x = contiguousOf(self.dim() === 0 ? at.reshape(self, [1]) : at.transpose_int(self, d, -1));
  const rows = x.numel() / size;
  const outSizes = [...x.sizes.slice(0, -1), k];
  const values = emptyLike(x, outSizes);
  const indices = emptyLike(x, outSizes, ScalarType.Long);
  const read = elementReader(x); // after the last allocation
  const picked: [number, number][][] = [];
  for (let r = 0; r < rows; r++) {
    const row = new Array<number>(size);
    for (let j = 0; j < size; j++) row[j] = read(r * size + j);
    picked.push(topkRow(row, k, largest, sorted));
  }
  const vOut = values.dataView();
  const iOut = indices.dataView();
  for (let r = 0; r < rows; r++) {
    const p = picked[r] as [number, number][];
    for (let j = 0; j < k; j++) {
      const [v, i] = p[j] as [number, number];
      vOut.data[vOut.base + r * k + j] = toStored(self.scalarType, v);
      iOut.data[iOut.base + r * k + j] = i;
    }
  }
  if (self.dim() === 0) return [at.reshape(values, []), at.reshape(indices, [])];
  return [at.contiguous(at.transpose_int(values, -1, d)), at.contiguous(at.transpose_int(indices, -1, d))];
}

/**
 * `sort.stable(self, *, stable, dim=-1, descending=False)`: this sort is always stable (equal elements keep
 * their order), so `stable` only selects the overload (SortBackward1, as in PyTorch).
 */
export function sortStable(ks: DispatchKeySet, self: Tensor, _stable: boolean | null, dim = -1, descending = false): [Tensor, Tensor] {
  return sort(ks, self, dim, descending);
}

/** `argsort.stable(self, *, stable, dim=-1, descending=False)`: the indices of `sort.stable`. */
export function argsortStable(_ks: DispatchKeySet, self: Tensor, stable: boolean, dim = -1, descending = false): Tensor {
  return aten().sort_stable.call(self, stable, dim, descending)[1];
}
