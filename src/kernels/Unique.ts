// torch.unique's operators: `_unique2` (over all elements) and `unique_dim` (over the slices along a dim), and
// torch.unique_consecutive's `unique_consecutive`.
// Mirrors aten/src/ATen/native/Unique.cpp (unique_cpu_sorted_template, unique_cpu_bool_template,
// unique_dim_cpu_template, unique_consecutive_cpu_template).

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isComplexType, notImplementedForDtype } from '../c10/ScalarType.js';
import type { Tensor } from '../tensor/Tensor.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';
import { aten } from '../generated/Operators.js';
import { contiguousOf, elementReader, emptyLike, moveElement, storedElements } from './StorageAccess.js';
import * as at from '../generated/TensorBody.js';

// Note [unique always sorts on CPU]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's CPU `_unique2` and `unique_dim` sort whatever `sorted` says ("the current CPU implementation of
// unique always sort due to this is faster than hash table"), so `sorted=False` gives the same ascending
// result; NaN sorts last and every NaN is its own value (equal_nan is false). The output's size is known only
// from the data, so there is no Meta kernel: a Meta input raises the dispatcher's "no Meta kernel" error, as
// PyTorch's does. Unused outputs are empty tensors of size [0] (inverse) / [0] (counts), as PyTorch returns.

function ascendingNaNLast(a: number, b: number): number {
  const na = a !== a;
  const nb = b !== b;
  if (na || nb) return na === nb ? 0 : na ? 1 : -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `_unique2(self, sorted=True, return_inverse=False, return_counts=False)`: (values, inverse, counts). */
export function unique2(
  _ks: DispatchKeySet,
  self: Tensor,
  _sorted = true,
  returnInverse = false,
  returnCounts = false,
): [Tensor, Tensor, Tensor] {
  if (isComplexType(self.scalarType)) throw notImplementedForDtype('unique', self.scalarType);
  const src = contiguousOf(self);
  const n = src.numel();
  const read = elementReader(src);
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => ascendingNaNLast(read(a), read(b)) || a - b);
  // Group runs of equal values (NaN never equals NaN). See Note [unique always sorts on CPU].
  const firsts: number[] = [];
  const group = new Float64Array(n);
  let prev = Number.NaN;
  for (let r = 0; r < n; r++) {
    const v = read(order[r] as number);
    if (r === 0 || v !== prev) firsts.push(r);
    group[order[r] as number] = firsts.length - 1;
    prev = v;
  }
  const u = firsts.length;
  const values = emptyLike(self, [u]);
  const inverse = emptyLike(self, returnInverse ? [...self.sizes] : [0], ScalarType.Long);
  const counts = emptyLike(self, returnCounts ? [u] : [0], ScalarType.Long);
  const xs = storedElements(src);
  const vs = storedElements(values);
  for (let k = 0; k < u; k++) moveElement(vs, k, xs, order[firsts[k] as number] as number);
  if (returnInverse) {
    const iv = inverse.dataView();
    for (let i = 0; i < n; i++) iv.data[iv.base + i] = group[i] as number;
  }
  if (returnCounts) {
    const cv = counts.dataView();
    for (let k = 0; k < u; k++) cv.data[cv.base + k] = (k + 1 < u ? (firsts[k + 1] as number) : n) - (firsts[k] as number);
  }
  return [values, inverse, counts];
}

/**
 * `unique_dim(self, dim, sorted=True, return_inverse=False, return_counts=False)`: the distinct slices along
 * `dim` in lexicographic order; inverse (size [self.size(dim)]) and counts are always computed, as PyTorch's.
 */
export function uniqueDim(
  _ks: DispatchKeySet,
  self: Tensor,
  dim: number,
  _sorted = true,
  _returnInverse = false,
  _returnCounts = false,
): [Tensor, Tensor, Tensor] {
  return uniqueSlices(self, dim, false);
}

/**
 * `unique_consecutive(self, return_inverse=False, return_counts=False, dim=None)`: the first element of every
 * run of equal consecutive elements (over all elements, or over the slices along `dim`), as PyTorch's
 * unique_consecutive_cpu: without a dim (or dim 0 of a 1-D input) the unused inverse/counts are empty tensors
 * of size [0]; with one, both are always computed. NaN never equals NaN. No Meta kernel (data-dependent size).
 */
export function uniqueConsecutive(
  _ks: DispatchKeySet,
  self: Tensor,
  returnInverse = false,
  returnCounts = false,
  dim: number | null = null,
): [Tensor, Tensor, Tensor] {
  if (dim !== null && !(dim === 0 && self.dim() === 1)) return uniqueSlices(self, dim, true);
  if (isComplexType(self.scalarType)) throw notImplementedForDtype('unique_consecutive', self.scalarType);
  const src = contiguousOf(self);
  const n = src.numel();
  const read = elementReader(src);
  const firsts: number[] = [];
  const group = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (i === 0 || read(i) !== read(i - 1)) firsts.push(i);
    group[i] = firsts.length - 1;
  }
  const u = firsts.length;
  const values = emptyLike(self, [u]);
  const inverse = emptyLike(self, returnInverse ? [...self.sizes] : [0], ScalarType.Long);
  const counts = emptyLike(self, returnCounts ? [u] : [0], ScalarType.Long);
  const xs = storedElements(src);
  const vs = storedElements(values);
  for (let k = 0; k < u; k++) moveElement(vs, k, xs, firsts[k] as number);
  if (returnInverse) {
    const iv = inverse.dataView();
    for (let i = 0; i < n; i++) iv.data[iv.base + i] = group[i] as number;
  }
  if (returnCounts) {
    const cv = counts.dataView();
    for (let k = 0; k < u; k++) cv.data[cv.base + k] = (k + 1 < u ? (firsts[k + 1] as number) : n) - (firsts[k] as number);
  }
  return [values, inverse, counts];
}

/**
 * The distinct slices along `dim` (unique_dim_cpu_template): sorted lexicographically, or, `consecutive`, the
 * first of every run of equal consecutive slices. Returns (values, inverse, counts), all three computed.
 */
function uniqueSlices(self: Tensor, dim: number, consecutive: boolean): [Tensor, Tensor, Tensor] {
  const d = maybeWrapDim(dim, self.dim(), false);
  const n = self.sizes[d] as number;
  if (self.numel() === 0) {
    const zeroDims = self.sizes.filter((s) => s === 0).length;
    if (zeroDims > 1 || n !== 0)
      throw new Error(
        zeroDims > 1
          ? 'Number of zero sized dimensions is more than one, so unique cannot be applied '
          : `There are 0 sized dimensions, and they aren't selected, so unique cannot be applied`,
      );
    return [emptyLike(self, [...self.sizes]), emptyLike(self, [0], ScalarType.Long), emptyLike(self, [0], ScalarType.Long)];
  }
  // [n, rest] rows: self.moveaxis(dim, 0).contiguous().view(n, -1).
  const perm = [d, ...[...self.sizes.keys()].filter((k) => k !== d)];
  const flat = at.contiguous(aten().permute.call(self, perm));
  const rest = flat.numel() / n;
  // Allocated before the reader's view is taken: an allocation may grow linear memory and detach it.
  const inverse = emptyLike(self, [n], ScalarType.Long);
  const read = elementReader(flat);
  const cmp = (a: number, b: number): number => {
    for (let i = 0; i < rest; i++) {
      const l = read(a * rest + i);
      const r = read(b * rest + i);
      if (l < r) return -1;
      if (l > r) return 1;
    }
    return 0;
  };
  const order = Array.from({ length: n }, (_, i) => i);
  if (!consecutive) order.sort((a, b) => cmp(a, b) || a - b);
  const same = (a: number, b: number): boolean => {
    for (let i = 0; i < rest; i++) if (read(a * rest + i) !== read(b * rest + i)) return false;
    return true;
  };
  const firsts: number[] = [];
  const iv = inverse.dataView();
  for (let r = 0; r < n; r++) {
    if (r === 0 || !same(order[r] as number, order[r - 1] as number)) firsts.push(r);
    iv.data[iv.base + (order[r] as number)] = firsts.length - 1;
  }
  const u = firsts.length;
  const outSizes = [u, ...flat.sizes.slice(1)];
  const outFlat = emptyLike(self, outSizes);
  const counts = emptyLike(self, [u], ScalarType.Long);
  const xs = storedElements(flat);
  const os = storedElements(outFlat);
  const cv = counts.dataView();
  for (let k = 0; k < u; k++) {
    const row = order[firsts[k] as number] as number;
    for (let i = 0; i < rest; i++) moveElement(os, k * rest + i, xs, row * rest + i);
    cv.data[cv.base + k] = (k + 1 < u ? (firsts[k + 1] as number) : n) - (firsts[k] as number);
  }
  const back = perm.map((_, k) => perm.indexOf(k));
  return [aten().permute.call(outFlat, back), inverse, counts];
}
