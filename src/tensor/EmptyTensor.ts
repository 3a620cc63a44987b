// A new tensor with its own storage: the body of `empty` / `empty_strided` for every allocator-backed device.
// Mirrors ATen/EmptyTensor.cpp (`at::detail::empty_strided_generic`, `empty_strided_cpu`, `empty_strided_meta`),
// which sits below the native kernels: TensorIterator allocates its outputs with it too.

import type { Device } from '../c10/Device.js';
import { elementSize, type ScalarType } from '../c10/ScalarType.js';
import { Storage, checkHasStorage, getAllocator, type Allocator } from './Storage.js';
import { Tensor } from './Tensor.js';
import { checkSizes, contiguousStrides, storageBytesNeeded } from './TensorImpl.js';

/** A new tensor with its own storage, after checking the sizes and that the dtype has a storage type. */
export function newStrided(sizes: number[], strides: number[], dtype: ScalarType, device: Device): Tensor {
  checkSizes(sizes);
  checkHasStorage(dtype);
  return newStridedUnchecked(sizes, strides, dtype, device);
}

/** newStrided for sizes, strides and a dtype already known to be valid (kernel outputs). */
export function newStridedUnchecked(sizes: number[], strides: number[], dtype: ScalarType, device: Device): Tensor {
  const storage = new Storage(storageBytesNeeded(sizes, strides, 0, dtype), getAllocator(device.type));
  return new Tensor(storage, dtype, sizes, strides, 0);
}

/**
 * A new contiguous tensor of `numel` elements (the product of `sizes`, which it takes as its own) for a dtype
 * known to be valid: the output of an elementwise kernel's fast path (Note [Same-shape fast path]).
 */
export function newContiguousUnchecked(sizes: number[], numel: number, dtype: ScalarType, device: Device): Tensor {
  const storage = new Storage(numel * elementSize(dtype), getAllocator(device.type));
  return new Tensor(storage, dtype, sizes, contiguousStrides(sizes), 0);
}

/**
 * `at::detail::empty_strided_generic(size, stride, allocator, ks, dtype)`: a new tensor over memory from
 * `allocator`, on the allocator's device, with these sizes and strides — the body of an out-of-tree backend's
 * `empty_strided` kernel.
 */
export function empty_strided_generic(size: readonly number[], stride: readonly number[], allocator: Allocator, dtype: ScalarType): Tensor {
  if (size.length !== stride.length) {
    throw new Error(`mismatch in length of strides and shape: ${size.length} sizes, ${stride.length} strides`);
  }
  checkSizes(size);
  checkHasStorage(dtype);
  const storage = new Storage(storageBytesNeeded(size, stride, 0, dtype), allocator);
  return new Tensor(storage, dtype, [...size], [...stride], 0);
}

/**
 * `at::detail::empty_generic(size, allocator, ks, dtype)`: a new contiguous tensor over memory from
 * `allocator` — the body of an out-of-tree backend's `empty.memory_format` kernel.
 *
 * @example
 * lib.impl('empty.memory_format', (ks, size, dtype) => empty_generic(size, myAllocator, dtype ?? torch.float32));
 */
export function empty_generic(size: readonly number[], allocator: Allocator, dtype: ScalarType): Tensor {
  return empty_strided_generic(size, contiguousStrides(size), allocator, dtype);
}
