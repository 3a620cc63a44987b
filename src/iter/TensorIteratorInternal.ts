// Walking the rows of a built TensorIterator: DimCounter, the loops' row counter, and forEachRow. Mirrors
// aten/src/ATen/TensorIteratorInternal.h (DimCounter) and the 2-d loop of TensorIteratorBase::serial_for_each.

import { ALL_SCALAR_TYPES, elementSize } from '../c10/ScalarType.js';
import { keepHiddenClassesAlive } from '../c10/HiddenClasses.js';
import type { TensorImpl } from '../tensor/TensorImpl.js';
import type { TensorIterator } from './TensorIterator.js';

const ITEM_SIZE: readonly number[] = ALL_SCALAR_TYPES.map(elementSize);

/**
 * The element index, in `t.storage.data(t.dtype)`, of `t`'s first element: the storage's place in its
 * buffer (see Note [Slab allocation] in src/tensor/Storage.ts) plus the storage offset. For complex dtypes it counts
 * elements, i.e. lane pairs (multiply by 2 for the array index). Same as `storage.arrayOffset(dtype) / lanes
 * + storageOffset`, without the lookups (it runs for every operand of every kernel call).
 */
export function elementBase(t: TensorImpl): number {
  return t.storage.byteOffset / (ITEM_SIZE[t.scalarType] as number) + t.storageOffset;
}

// Note [Row loops without closures]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The loops walk an iterator's rows with a DimCounter (`do { ...row... } while (rows.next())`) rather than
// handing a callback to forEachRow: a closure made on every call is a new function object that V8 optimizes
// again whenever its call sites see another operator's loop (bench/RESULTS.md: the element-wise
// loops' closures were compiled 15–16 times each in a steady-state MLP step). The counter is one object of
// one class (its hidden class anchored: Note [Hidden classes of short-lived objects]), the row bodies are
// plain code of module-level functions, compiled once.

/**
 * DimCounter (TensorIteratorInternal.h): the rows of an iterator, `n = shape[0]` elements each along the
 * fastest dimension; `offsets[k]` is the index of the current row's first element in operand k's
 * `storage.data(dtype)` array (elements, not lanes, for complex dtypes; see elementBase). Zero-dim iterators
 * have one row of one element. Make one with `rowsOf`.
 */
export class DimCounter {
  offsets: number[] = [];
  n = 0;
  private counter: number[] = [];
  private shape: readonly number[] = [];
  private strides: readonly number[] = [];
  private nt = 0;

  /** Moves to the next row; false after the last one. */
  next(): boolean {
    const shape = this.shape;
    const ndim = shape.length;
    const nt = this.nt;
    const offsets = this.offsets;
    const counter = this.counter;
    const strides = this.strides;
    for (let d = 1; d < ndim; d++) {
      const c = (counter[d] as number) + 1;
      const base = d * nt;
      if (c < (shape[d] as number)) {
        counter[d] = c;
        for (let k = 0; k < nt; k++) offsets[k] = (offsets[k] as number) + (strides[base + k] as number);
        return true;
      }
      counter[d] = 0;
      const back = c - 1;
      for (let k = 0; k < nt; k++) offsets[k] = (offsets[k] as number) - back * (strides[base + k] as number);
    }
    return false;
  }

  /** @internal Points the counter at the first row of `iter` (non-empty). */
  reset(iter: TensorIterator): this {
    const tensors = iter.tensors;
    const nt = tensors.length;
    const shape = iter.shape;
    const offsets = new Array<number>(nt);
    for (let k = 0; k < nt; k++) offsets[k] = elementBase(tensors[k] as TensorImpl);
    this.offsets = offsets;
    this.n = shape.length === 0 ? 1 : (shape[0] as number);
    this.counter = new Array<number>(shape.length).fill(0);
    this.shape = shape;
    this.strides = iter.strides;
    this.nt = nt;
    return this;
  }
}
keepHiddenClassesAlive(new DimCounter());

/** The rows of `iter`, positioned on the first; null for an empty iterator (Note [Row loops without closures]). */
export function rowsOf(iter: TensorIterator): DimCounter | null {
  return iter.numel() === 0 ? null : new DimCounter().reset(iter);
}

/**
 * Calls `row(offsets, n)` for every row of `iter` (see DimCounter; `offsets` is reused between calls, do not
 * keep it). Empty iterators have none. For callers outside the hot loops (Note [Row loops without closures]).
 */
export function forEachRow(iter: TensorIterator, row: (offsets: number[], n: number) => void): void {
  const rows = rowsOf(iter);
  if (rows === null) return;
  do row(rows.offsets, rows.n);
  while (rows.next());
}
