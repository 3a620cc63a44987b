// flip and roll. Mirrors aten/src/ATen/native/TensorTransformations.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import type { Tensor } from '../tensor/Tensor.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';
import { contiguousOf, emptyLike, moveElement, storedElements } from './StorageAccess.js';

/** A new tensor like `self` whose element i is `self`'s element `from(i)` (row-major indices). */
function gatherElements(self: Tensor, sizes: number[], from: (i: number) => number): Tensor {
  const out = emptyLike(self, sizes);
  if (out.isMeta()) return out;
  const src = contiguousOf(self);
  const [x, y] = [storedElements(src), storedElements(out)];
  for (let i = 0; i < out.numel(); i++) moveElement(y, i, x, from(i));
  return out;
}

/** Index arithmetic: flat index → multi-index and back, row-major. */
export function unravel(i: number, sizes: readonly number[]): number[] {
  const idx = new Array<number>(sizes.length);
  for (let k = sizes.length - 1; k >= 0; k--) {
    const s = sizes[k] as number;
    idx[k] = i % s;
    i = Math.floor(i / s);
  }
  return idx;
}
export function ravel(idx: readonly number[], sizes: readonly number[]): number {
  let i = 0;
  for (let k = 0; k < sizes.length; k++) i = i * (sizes[k] as number) + (idx[k] as number);
  return i;
}

/** `flip(self, dims)`. */
export function flip(_ks: DispatchKeySet, self: Tensor, dims: number[]): Tensor {
  const mask = new Array<boolean>(self.dim()).fill(false);
  for (const d of dims) {
    const w = maybeWrapDim(d, self.dim());
    if (mask[w]) throw new Error(`dim ${w} appears multiple times in the list of dims`);
    mask[w] = true;
  }
  return gatherElements(self, [...self.sizes], (i) =>
    ravel(
      unravel(i, self.sizes).map((x, k) => (mask[k] ? (self.sizes[k] as number) - 1 - x : x)),
      self.sizes,
    ),
  );
}

/** `roll(self, shifts, dims)`: with no dims, rolls the flattened tensor. */
export function roll(_ks: DispatchKeySet, self: Tensor, shifts: number[], dims: number[] = []): Tensor {
  if (shifts.length === 0) throw new Error('`shifts` required');
  if (dims.length === 0) {
    if (shifts.length !== 1) throw new Error(`shifts and dimensions must align. shifts: ${shifts.length}, dims:0`);
    const n = self.numel();
    const s = n === 0 ? 0 : (((shifts[0] as number) % n) + n) % n;
    return gatherElements(self, [...self.sizes], (i) => (i - s + n) % n);
  }
  if (shifts.length !== dims.length) throw new Error(`shifts and dimensions must align. shifts: ${shifts.length}, dims:${dims.length}`);
  const shift = new Array<number>(self.dim()).fill(0);
  dims.forEach((d, k) => {
    const w = maybeWrapDim(d, self.dim(), false);
    shift[w] = (shift[w] as number) + (shifts[k] as number);
  });
  return gatherElements(self, [...self.sizes], (i) => {
    const idx = unravel(i, self.sizes).map((x, k) => {
      const s = self.sizes[k] as number;
      return (((x - (shift[k] as number)) % s) + s) % s;
    });
    return ravel(idx, self.sizes);
  });
}
