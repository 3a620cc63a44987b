// Whether a tensor's elements alias each other, and how two tensors' memory relates: the checks in-place and
// out= operations make before writing. Mirrors ATen/MemoryOverlap.{h,cpp}.

import { elementSize } from '../c10/ScalarType.js';
import { sameSizes } from '../tensor/ExpandUtils.js';
import { isNonOverlappingAndDense } from '../tensor/TensorGeometry.js';
import type { TensorImpl } from '../tensor/TensorImpl.js';

/** MemOverlap: whether a tensor's elements can alias each other. */
export enum MemOverlap {
  No,
  Yes,
  TooHard,
}

/** MemOverlapStatus: how two tensors' memory relates. */
export enum MemOverlapStatus {
  Full,
  Partial,
  No,
  TooHard,
}

/** `has_internal_overlap(t)`. */
export function hasInternalOverlap(t: TensorImpl): MemOverlap {
  if (isNonOverlappingAndDense(t)) return MemOverlap.No;
  for (let i = 0; i < t.sizes.length; i++) {
    if ((t.sizes[i] as number) > 1 && t.strides[i] === 0) return MemOverlap.Yes;
  }
  return MemOverlap.TooHard;
}

/** `get_overlap_status(a, b)`. */
export function getOverlapStatus(a: TensorImpl, b: TensorImpl): MemOverlapStatus {
  if (a === b) return MemOverlapStatus.Full;
  if (a.numel() === 0 || b.numel() === 0) return MemOverlapStatus.No;
  if (!isNonOverlappingAndDense(a) || !isNonOverlappingAndDense(b)) return MemOverlapStatus.TooHard;
  if (a.storage === b.storage) {
    const ia = elementSize(a.scalarType);
    const ib = elementSize(b.scalarType);
    const aBegin = a.storageOffset * ia;
    const aEnd = aBegin + a.numel() * ia;
    const bBegin = b.storageOffset * ib;
    const bEnd = bBegin + b.numel() * ib;
    if (aBegin === bBegin && aEnd === bEnd) {
      return sameSizes(a.strides, b.strides) ? MemOverlapStatus.Full : MemOverlapStatus.Partial;
    }
    if (aBegin < bEnd && bBegin < aEnd) return MemOverlapStatus.Partial;
  }
  return MemOverlapStatus.No;
}

/** `assert_no_internal_overlap(t)`. */
export function assertNoInternalOverlap(t: TensorImpl): void {
  if (hasInternalOverlap(t) === MemOverlap.Yes) {
    throw new Error(
      'unsupported operation: more than one element of the written-to tensor refers to a single memory location. ' +
        'Please clone() the tensor before performing the operation.',
    );
  }
}

/** `assert_no_partial_overlap(a, b)`. */
export function assertNoPartialOverlap(a: TensorImpl, b: TensorImpl): void {
  if (getOverlapStatus(a, b) === MemOverlapStatus.Partial) {
    throw new Error(
      'unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. ' +
        'Please clone() the tensor before performing the operation.',
    );
  }
}

/** `assert_no_overlap(a, b)`: neither a partial nor a full overlap (the same memory read and written). */
export function assertNoOverlap(a: TensorImpl, b: TensorImpl): void {
  const lap = getOverlapStatus(a, b);
  if (lap === MemOverlapStatus.Partial || lap === MemOverlapStatus.Full) {
    throw new Error(
      'unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. ' +
        'Please clone() the tensor before performing the operation.',
    );
  }
}
