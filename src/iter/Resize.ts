// Resizing outputs: `resize_output` of an out= tensor (with PyTorch's deprecation warning), restriding in
// place, and the structured wrappers' output allocation and `resize_out` checks. Mirrors ATen/native/Resize.cpp
// (resize_output) and the set_output / resize_out helpers torchgen generates.

import type { Device } from '../c10/Device.js';
import { typeMetaName, type ScalarType } from '../c10/ScalarType.js';
import { warn } from '../c10/Warning.js';
import { newStrided } from '../tensor/EmptyTensor.js';
import { formatSizes, sameSizes } from '../tensor/ExpandUtils.js';
import { contiguousStrides, storageBytesNeeded, type TensorImpl } from '../tensor/TensorImpl.js';

/**
 * `at::native::resize_output(t, sizes)`: resizes an `out=` tensor to `sizes` (contiguous strides, storage
 * grown as needed), warning as PyTorch does when it had elements. Returns whether it resized.
 */
export function resizeOutput(t: TensorImpl, sizes: readonly number[]): boolean {
  if (sameSizes(t.sizes, sizes)) return false;
  if (t.numel() !== 0) {
    warn(
      `An output with one or more elements was resized since it had shape ${formatSizes(t.sizes)}, which does not match ` +
        `the required output shape ${formatSizes(sizes)}. This behavior is deprecated, and in a future PyTorch release ` +
        'outputs will not be resized unless they have zero elements. You can explicitly reuse an out tensor t by resizing ' +
        'it, inplace, to zero elements with t.resize_(0).',
    );
  }
  const newSizes = sizes.slice();
  const strides = contiguousStrides(newSizes);
  const nbytes = storageBytesNeeded(newSizes, strides, t.storageOffset, t.scalarType);
  if (nbytes > t.storage.nbytes) t.storage.resize(nbytes);
  t.setSizesAndStrides(newSizes, strides);
  return true;
}

/** Restrides a tensor in place over its existing storage (`as_strided_`), growing the storage if needed. */
export function restride(t: TensorImpl, sizes: readonly number[], strides: readonly number[]): void {
  const nbytes = storageBytesNeeded(sizes, strides, t.storageOffset, t.scalarType);
  if (nbytes > t.storage.nbytes) t.storage.resize(nbytes);
  t.setSizesAndStrides(sizes.slice(), strides.slice());
}

/**
 * A functional output of a structured kernel (`set_output_raw_strided` of the functional wrapper, without
 * strides): contiguous, with its own storage (tensor/EmptyTensor.ts, as `at::empty`).
 */
export function allocateOutput(sizes: readonly number[], dtype: ScalarType, device: Device): TensorImpl {
  return newStrided(sizes.slice(), contiguousStrides(sizes), dtype, device);
}

/**
 * The structured out= wrapper's `resize_out(out, sizes, {}, options)`: the out tensor must have the dtype
 * and device the meta function asked for (PyTorch's texts), then `resize_output` (its deprecation warning).
 */
export function resizeOut(out: TensorImpl, sizes: readonly number[], dtype: ScalarType, device: Device): void {
  if (out.scalarType !== dtype) {
    throw new Error(`Expected out tensor to have dtype ${typeMetaName(dtype)}, but got ${typeMetaName(out.scalarType)} instead`);
  }
  if (!out.device.equals(device)) {
    throw new Error(`Expected out tensor to have device ${device.toString()}, but got ${out.device.toString()} instead`);
  }
  resizeOutput(out, sizes);
}
