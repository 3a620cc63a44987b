// Moving elements between tensors of one dtype in their stored form: every lane, the raw representation
// (float16 bits, complex pairs, int64 as doubles), so a move is exact for every dtype and converts nothing.
// The index-mapping kernels (flip, roll, repeat, cat, tril/triu) are built on it instead of on JS value lists
// (no kernel converts storage to JS arrays). No ATen counterpart: ATen moves bytes with memcpy and
// TensorIterator's copy kernels.

import type { Device } from '../c10/Device.js';
import { ScalarType } from '../c10/ScalarType.js';
import { fromStored } from '../tensor/elements.js';
import type { StorageArray } from '../tensor/Storage.js';
import type { Tensor } from '../tensor/Tensor.js';
import { contiguousStrides } from '../tensor/TensorImpl.js';
import { SMALL_BYTES } from '../wasm/runtime/CPUAllocator.js';
import { newStrided } from './TensorFactories.js';
import * as at from '../generated/TensorBody.js';

/** The stored elements of a contiguous tensor: element e occupies `data[base + e * lanes + l]`, l < lanes. */
export interface StoredElements {
  readonly data: StorageArray;
  readonly base: number;
  readonly lanes: number;
}

/** A contiguous tensor with `t`'s values (t itself when it is contiguous). */
export function contiguousOf(t: Tensor): Tensor {
  return t.isContiguous() ? t : at.contiguous(t);
}

/** A new contiguous tensor of `sizes` and `dtype` on `like`'s device, uninitialised. */
export function emptyLike(like: Tensor, sizes: number[], dtype: ScalarType = like.scalarType): Tensor {
  return newStrided(sizes, contiguousStrides(sizes), dtype, like.device);
}

/**
 * A contiguous float scratch of at least `elems` elements that lives in linear memory when storage does:
 * storages up to SMALL_BYTES go to the JS heap (Note [Storage lifetime]), where no WASM kernel reaches them,
 * so a kernel's workspace is never that small (a 1 KiB workspace once sent LeNet's weight gradients to the
 * JS loops).
 */
export function linearScratch(like: Tensor, elems: number, dtype: ScalarType = like.scalarType): Tensor {
  return linearScratchOn(like.device, elems, dtype);
}

/** linearScratch on `device`. */
export function linearScratchOn(device: Device, elems: number, dtype: ScalarType): Tensor {
  const bytes = dtype === ScalarType.Double ? 8 : 4;
  const n = Math.max(elems, Math.floor(SMALL_BYTES / bytes) + 4);
  return newStrided([n], [1], dtype, device);
}

/** The stored elements of a contiguous tensor. Take them after the call's last allocation. */
export function storedElements(c: Tensor): StoredElements {
  return c.dataView();
}

/** Copies `count` elements from `src` (from element `si`) to `dst` (from element `di`). */
export function moveElements(dst: StoredElements, di: number, src: StoredElements, si: number, count: number): void {
  const l = dst.lanes;
  const from = src.base + si * l;
  (dst.data as Float64Array).set((src.data as Float64Array).subarray(from, from + count * l), dst.base + di * l);
}

/** Copies one element (all its lanes). */
export function moveElement(dst: StoredElements, di: number, src: StoredElements, si: number): void {
  const l = dst.lanes;
  const d = dst.base + di * l;
  const s = src.base + si * l;
  const dd = dst.data;
  const sd = src.data;
  dd[d] = sd[s] as number;
  if (l === 2) dd[d + 1] = sd[s + 1] as number;
}

/** Stores zero in one element: all-zero bits are 0 (or false) in every dtype. */
export function zeroElement(dst: StoredElements, di: number): void {
  const l = dst.lanes;
  const d = dst.base + di * l;
  dst.data[d] = 0;
  if (l === 2) dst.data[d + 1] = 0;
}

/**
 * Reads element e (row-major) of a contiguous tensor as a number: the stored value for float, integer and
 * bool dtypes, the decoded value for float16 / bfloat16, the real part for complex ones. Take it after the
 * call's last allocation.
 */
export function elementReader(c: Tensor): (e: number) => number {
  const { data, base, lanes } = c.dataView();
  const dtype = c.scalarType;
  if (dtype === ScalarType.Half || dtype === ScalarType.BFloat16) return (e) => fromStored(dtype, data[base + e] as number);
  return lanes === 1 ? (e) => data[base + e] as number : (e) => data[base + e * lanes] as number;
}
