// sort, argsort, msort, topk, median, nanmedian, kthvalue and mode. Mirrors aten/src/ATen/native/Sorting.cpp and
// TensorCompare.cpp's argsort and mode (cpu/TensorCompareKernel.cpp's mode_kernel).

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

// ---------------------------------------------------------------------------------------------------
// median, nanmedian, kthvalue (Sorting.cpp) and mode (TensorCompare.cpp / cpu/TensorCompareKernel.cpp)
// ---------------------------------------------------------------------------------------------------

// Note [Selecting an element per row]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch selects with std::nth_element under a comparator that orders NaN last and breaks ties by index
// (median, nanmedian) or with a quick-select (kthvalue); the chosen element is the one a stable sort by (value,
// NaN last) puts at that rank, which is what is computed here: each row's indices are sorted stably and the
// rank's element read off. median without ignore_nan returns a row's first NaN (and its index) when there is one.

interface Rows {
  outer: number;
  size: number;
  inner: number;
  read: (o: number, k: number, i: number) => number;
  src: Tensor;
}

function rowsOf(self: Tensor, d: number): Rows {
  const sizes = self.dim() === 0 ? [1] : self.sizes;
  const [outer, size, inner] = around(sizes, d);
  const src = contiguousOf(self);
  const read = elementReader(src);
  return { outer, size, inner, read: (o, k, i) => read((o * size + k) * inner + i), src };
}

/** The sizes of a reduction over dim d (kept as 1 with keepdim). */
function reducedSizes(self: Tensor, d: number, keepdim: boolean): number[] {
  if (self.dim() === 0) return [];
  const s = [...self.sizes];
  if (keepdim) s[d] = 1;
  else s.splice(d, 1);
  return s;
}

/** Row indices sorted stably by value, NaN last. */
function sortedRow(r: Rows, o: number, i: number, order: number[]): void {
  for (let k = 0; k < r.size; k++) order[k] = k;
  order.sort((a, b) => {
    const xa = r.read(o, a, i);
    const xb = r.read(o, b, i);
    if (xa !== xa || xb !== xb) return xa !== xa ? (xb !== xb ? 0 : 1) : -1;
    return xa < xb ? -1 : xa > xb ? 1 : 0;
  });
}

type RankOf = (r: Rows, o: number, i: number, order: number[]) => number;

/** (values, indices) of the element of rank `rank(row)` along dim (Note [Selecting an element per row]). */
function selectAlong(self: Tensor, dim: number, keepdim: boolean, op: string, rank: RankOf): [Tensor, Tensor] {
  const d = maybeWrapDim(dim, Math.max(self.dim(), 1));
  if (self.dim() > 0 && self.sizes[d] === 0) {
    throw new RangeError(`${op}: Expected reduction dim ${d} to have non-zero size.`);
  }
  const outSizes = reducedSizes(self, d, keepdim);
  const values = emptyLike(self, outSizes);
  const indices = emptyLike(self, outSizes, ScalarType.Long);
  if (values.isMeta()) return [values, indices];
  const r = rowsOf(self, d);
  const xs = storedElements(r.src);
  const [yv, yi] = [storedElements(values), storedElements(indices)];
  const order = new Array<number>(r.size);
  for (let o = 0; o < r.outer; o++) {
    for (let i = 0; i < r.inner; i++) {
      const k = rank(r, o, i, order);
      const e = o * r.inner + i;
      moveElement(yv, e, xs, (o * r.size + k) * r.inner + i);
      yi.data[yi.base + e] = k;
    }
  }
  return [values, indices];
}

function noComplexSort(self: Tensor, op: string): void {
  if (isComplexType(self.scalarType)) throw new Error(`${op} is not implemented for complex tensors.`);
}

const medianRank =
  (ignoreNan: boolean): RankOf =>
  (r, o, i, order) => {
    let nans = 0;
    for (let k = 0; k < r.size; k++) {
      const v = r.read(o, k, i);
      if (v !== v) {
        if (!ignoreNan) return k;
        nans++;
      }
    }
    sortedRow(r, o, i, order);
    return order[Math.trunc((r.size - nans - 1) / 2)] as number;
  };

/** `median.dim(self, dim, keepdim=False)`: the lower median and its index; a NaN row gives its first NaN. */
export function medianDim(_ks: DispatchKeySet, self: Tensor, dim: number, keepdim = false): [Tensor, Tensor] {
  noComplexSort(self, 'median()');
  return selectAlong(self, dim, keepdim, 'median()', medianRank(false));
}

/** `nanmedian.dim(self, dim, keepdim=False)`: the lower median of the non-NaN values. */
export function nanmedianDim(_ks: DispatchKeySet, self: Tensor, dim: number, keepdim = false): [Tensor, Tensor] {
  noComplexSort(self, 'nanmedian()');
  return selectAlong(self, dim, keepdim, 'nanmedian()', medianRank(true));
}

/** `median(self)` / `nanmedian(self)`: over all elements; NaN for an empty tensor. */
function medianAll(self: Tensor, ignoreNan: boolean): Tensor {
  noComplexSort(self, ignoreNan ? 'nanmedian()' : 'median()');
  const out = emptyLike(self, []);
  if (out.isMeta()) return out;
  if (self.numel() === 0) {
    const ys = storedElements(out);
    ys.data[ys.base] = toStored(self.scalarType, NaN);
    return out;
  }
  const flat = aten().reshape.call(self, [-1]);
  const [v] = selectAlong(flat, 0, false, 'median()', medianRank(ignoreNan));
  // views of storage are taken after the last allocation (a stress run grows memory on every allocation)
  moveElement(storedElements(out), 0, storedElements(v), 0);
  return out;
}
export function median(_ks: DispatchKeySet, self: Tensor): Tensor {
  return medianAll(self, false);
}
export function nanmedian(_ks: DispatchKeySet, self: Tensor): Tensor {
  return medianAll(self, true);
}

/**
 * SortingUtils.h's quick_select_template: partially orders `a` (values with their row indices `ix`) so that
 * position k holds the element of rank k under `gt` (greater, NaN greatest). kthvalue's index among equal values
 * is the one this partitioning leaves at k, so the algorithm (median-of-three pivot, Hoare partition) is PyTorch's.
 */
function quickSelect(a: number[], ix: number[], k: number): void {
  const gt = (x: number, y: number): boolean => (x !== x && y === y) || x > y;
  const swap = (i: number, j: number): void => {
    [a[i], a[j]] = [a[j] as number, a[i] as number];
    [ix[i], ix[j]] = [ix[j] as number, ix[i] as number];
  };
  let L = 0;
  let R = a.length - 1;
  for (;;) {
    if (R <= L) return;
    if (R === L + 1) {
      if (gt(a[L] as number, a[R] as number)) swap(L, R);
      return;
    }
    const P = L + Math.trunc((R - L) / 2);
    swap(P, L + 1);
    if (gt(a[L + 1] as number, a[R] as number)) swap(L + 1, R);
    if (gt(a[L] as number, a[R] as number)) swap(L, R);
    if (gt(a[L + 1] as number, a[L] as number)) swap(L + 1, L);
    let i = L + 1;
    let j = R;
    const piv = a[L] as number;
    for (;;) {
      do i++;
      while (gt(piv, a[i] as number));
      do j--;
      while (gt(a[j] as number, piv));
      if (j < i) break;
      swap(i, j);
    }
    swap(L, j);
    if (j <= k) L = i;
    if (j >= k) R = j - 1;
  }
}

/** `kthvalue(self, k, dim=-1, keepdim=False)`: the k-th smallest value (NaN largest) and its index. */
export function kthvalue(_ks: DispatchKeySet, self: Tensor, k: number, dim = -1, keepdim = false): [Tensor, Tensor] {
  const d = maybeWrapDim(dim, Math.max(self.dim(), 1));
  const size = self.dim() > 0 ? (self.sizes[d] as number) : 1;
  if (!(k >= 1 && k <= size)) throw new RangeError(`kthvalue(): selected number k out of range for dimension ${d}`);
  noComplexSort(self, 'kthvalue()');
  return selectAlong(self, dim, keepdim, 'kthvalue()', (r, o, i, order) => {
    const vals = new Array<number>(r.size);
    for (let j = 0; j < r.size; j++) {
      vals[j] = r.read(o, j, i);
      order[j] = j;
    }
    quickSelect(vals, order, k - 1);
    return order[k - 1] as number;
  });
}

/**
 * `mode(self, dim=-1, keepdim=False)`: the most frequent value of each row (the smallest among equally frequent
 * ones) and the index of its last occurrence, as mode_kernel's scan over the sorted (value, index) pairs.
 */
export function mode(_ks: DispatchKeySet, self: Tensor, dim = -1, keepdim = false): [Tensor, Tensor] {
  noComplexSort(self, 'mode()');
  return selectAlong(self, dim, keepdim, 'mode()', (r, o, i, order) => {
    sortedRow(r, o, i, order);
    let best = order[0] as number;
    let maxFreq = 0;
    let freq = 0;
    for (let j = 0; j < r.size; j++) {
      freq++;
      const cur = r.read(o, order[j] as number, i);
      if (j === r.size - 1 || cur !== r.read(o, order[j + 1] as number, i)) {
        if (freq > maxFreq) {
          best = order[j] as number;
          maxFreq = freq;
        }
        freq = 0;
      }
    }
    return best;
  });
}

/** `msort(self)`: `sort(self, 0)`'s values (CompositeImplicitAutograd; SortBackward0). */
export function msort(_ks: DispatchKeySet, self: Tensor): Tensor {
  return at.sort(self, 0, false)[0];
}
