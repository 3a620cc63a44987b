// In-place resizing of a tensor: `resize_` and `resize_as_`. Mirrors aten/src/ATen/native/Resize.cpp
// (resize_, resize_impl_cpu_, maybe_resize_storage_cpu) and the empty_tensor_restride of c10's TensorImpl.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { MemoryFormat, memoryFormatToString } from '../c10/Layout.js';
import { sameSizes } from '../tensor/ExpandUtils.js';
import type { Tensor } from '../tensor/Tensor.js';
import {
  channelsLast3dStrides,
  channelsLastStrides,
  isStridesLikeChannelsLast,
  isStridesLikeChannelsLast3d,
} from '../tensor/TensorGeometry.js';
import { checkSizes, contiguousStrides, storageBytesNeeded } from '../tensor/TensorImpl.js';

/** `TensorImpl::empty_tensor_restride(memory_format)`: the strides of `format` for the current sizes. */
function restrideFor(self: Tensor, format: MemoryFormat): number[] {
  if (format === MemoryFormat.Contiguous) return contiguousStrides(self.sizes);
  if (format === MemoryFormat.ChannelsLast) {
    if (self.dim() !== 4) throw new Error('required rank 4 tensor to use channels_last format');
    return channelsLastStrides(self.sizes);
  }
  if (format === MemoryFormat.ChannelsLast3d) {
    if (self.dim() !== 5) throw new Error('required rank 5 tensor to use channels_last_3d format');
    return channelsLast3dStrides(self.sizes);
  }
  throw new Error(`unsupported memory format ${memoryFormatToString(format)}`);
}

/** Gives `self` new strides over its storage, grown when the geometry reaches past it. */
function setGeometry(self: Tensor, sizes: number[], strides: number[]): void {
  if (numelOf(sizes) > 0) {
    const nbytes = storageBytesNeeded(sizes, strides, self.storageOffset, self.scalarType);
    if (nbytes > self.storage.nbytes) self.storage.resize(nbytes);
  }
  self.setSizesAndStrides(sizes, strides);
}

const numelOf = (s: readonly number[]): number => s.reduce((a, b) => a * b, 1);

/**
 * `resize_(self, size, *, memory_format=None)`: contiguous strides for `size` (or those of `memory_format`),
 * the storage grown when it is too small; the elements kept are those the storage already had.
 */
export function resize_(_ks: DispatchKeySet, self: Tensor, size: number[], memoryFormat: MemoryFormat | null = null): Tensor {
  if (self.requiresGrad) throw new Error('cannot resize variables that require grad');
  checkSizes(size);
  if (!sameSizes(self.sizes, size)) setGeometry(self, [...size], contiguousStrides(size));
  if (memoryFormat !== null) {
    if (memoryFormat === MemoryFormat.Preserve) throw new Error(`Unsupported memory format${memoryFormatToString(memoryFormat)}`);
    setGeometry(self, [...self.sizes], restrideFor(self, memoryFormat));
  }
  return self;
}

/** `suggest_memory_format()` of `t`. */
function suggestMemoryFormat(t: Tensor): MemoryFormat {
  if (t.dim() === 4 && isStridesLikeChannelsLast(t)) return MemoryFormat.ChannelsLast;
  if (t.dim() === 5 && isStridesLikeChannelsLast3d(t)) return MemoryFormat.ChannelsLast3d;
  return MemoryFormat.Contiguous;
}

/** `resize_as_(self, the_template, *, memory_format=None)`: `resize_` to the template's sizes. */
export function resizeAs_(ks: DispatchKeySet, self: Tensor, template: Tensor, memoryFormat: MemoryFormat | null = null): Tensor {
  resize_(ks, self, [...template.sizes]);
  if (memoryFormat !== null) {
    const format = memoryFormat === MemoryFormat.Preserve ? suggestMemoryFormat(template) : memoryFormat;
    setGeometry(self, [...self.sizes], restrideFor(self, format));
  }
  return self;
}
