// to(dtype) as a decomposition into _to_copy. Mirrors aten/src/ATen/native/TensorConversions.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { MemoryFormat } from '../c10/Layout.js';
import type { ScalarType } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';
import { isStridesLikeChannelsLast, isStridesLikeChannelsLast3d } from '../tensor/TensorGeometry.js';

/**
 * `to.dtype`: self when nothing changes (to_will_alias: same dtype, no copy asked for, and `memory_format`
 * preserve or the input's suggested format), else `_to_copy`.
 */
export function toDtype(
  _ks: DispatchKeySet,
  self: Tensor,
  dtype: ScalarType,
  nonBlocking = false,
  copy = false,
  memoryFormat: number | null = null,
): Tensor {
  const format = memoryFormat ?? MemoryFormat.Preserve;
  const suggested = isStridesLikeChannelsLast(self)
    ? MemoryFormat.ChannelsLast
    : isStridesLikeChannelsLast3d(self)
      ? MemoryFormat.ChannelsLast3d
      : MemoryFormat.Contiguous;
  if (dtype === self.scalarType && !copy && (format === MemoryFormat.Preserve || format === suggested)) return self;
  return aten()._to_copy.call(self, dtype, null, null, null, nonBlocking, memoryFormat);
}
