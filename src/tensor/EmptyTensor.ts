// A new tensor with its own storage: the body of `empty` / `empty_strided` for every allocator-backed device.
// Mirrors ATen/EmptyTensor.cpp (`at::detail::empty_strided_generic`, `empty_strided_cpu`, `empty_strided_meta`),
// which sits below the native kernels: TensorIterator allocates its outputs with it too.

import type { Device } from '../c10/Device.js';
import type { ScalarType } from '../c10/ScalarType.js';
import { Storage, checkHasStorage, getAllocator } from './Storage.js';
import { Tensor } from './Tensor.js';
import { checkSizes, storageBytesNeeded } from './TensorImpl.js';

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
