// flip, roll, rot90, fliplr and flipud. Mirrors aten/src/ATen/native/TensorTransformations.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { aten } from '../generated/Operators.js';
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

// ---- rot90 (CompositeExplicitAutograd), fliplr, flipud (CompositeImplicitAutograd) -------------------------

/** `rot90(self, k=1, dims=[0,1])`: k quarter turns from dims[0] towards dims[1], by flips and a transpose. */
export function rot90(_ks: DispatchKeySet, self: Tensor, k = 1, dims: number[] = [0, 1]): Tensor {
  const total = self.dim();
  if (dims.length !== 2) throw new Error(`expected total rotation dims == 2, but got dims = ${dims.length}`);
  if (total < 2) throw new Error(`expected total dims >= 2, but got total dims = ${total}`);
  const [d0, d1] = dims as [number, number];
  if (!(d0 !== d1 && Math.abs(d0 - d1) !== total)) {
    throw new Error(`expected rotation dims to be different, but got dim0 = ${d0} and dim1 = ${d1}`);
  }
  if (!(d0 < total && d0 >= -total)) throw new Error(`Rotation dim0 out of range, dim0 = ${d0}`);
  if (!(d1 < total && d1 >= -total)) throw new Error(`Rotation dim1 out of range, dim1 = ${d1}`);
  const ops = aten();
  switch ((4 + (k % 4)) % 4) {
    case 1:
      return ops.transpose_int.call(ops.flip.call(self, [d1]), d0, d1);
    case 2:
      return ops.flip.call(self, [d0, d1]);
    case 3:
      return ops.transpose_int.call(ops.flip.call(self, [d0]), d0, d1);
    default:
      return ops.clone.call(self, null);
  }
}

export function fliplr(_ks: DispatchKeySet, self: Tensor): Tensor {
  if (self.dim() < 2) throw new Error('Input must be >= 2-d.');
  return aten().flip.call(self, [1]);
}
export function flipud(_ks: DispatchKeySet, self: Tensor): Tensor {
  if (self.dim() < 1) throw new Error('Input must be >= 1-d.');
  return aten().flip.call(self, [0]);
}
