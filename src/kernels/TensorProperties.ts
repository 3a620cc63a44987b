// contiguous (a decomposition: a copy in the requested memory format when needed). Mirrors
// aten/src/ATen/native/TensorProperties.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { MemoryFormat } from '../c10/Layout.js';
import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';
import { isChannelsLast3dContiguous, isChannelsLastContiguous } from '../tensor/TensorGeometry.js';

/** `is_contiguous(memory_format)`: row-major, NHWC-dense for channels_last (4-d), NDHWC-dense for channels_last_3d (5-d). */
export function isContiguousIn(self: Tensor, memoryFormat: number): boolean {
  if (memoryFormat === MemoryFormat.ChannelsLast) return isChannelsLastContiguous(self);
  if (memoryFormat === MemoryFormat.ChannelsLast3d) return isChannelsLast3dContiguous(self);
  return self.isContiguous();
}

/** `contiguous(memory_format)`: self if already contiguous in that format, else a copy in it. */
export function contiguous(_ks: DispatchKeySet, self: Tensor, memoryFormat = 0): Tensor {
  if (isContiguousIn(self, memoryFormat)) return self;
  if (memoryFormat === MemoryFormat.Preserve) throw new Error('preserve memory format is unsupported by the contiguous operator');
  return aten().clone.call(self, memoryFormat);
}
