// repeat_interleave: the index kernel of a repeats tensor (repeat_interleave.Tensor, CPU) and the
// CompositeImplicitAutograd overloads over a tensor (an index_select, or an expand and a flatten for an int).
// Mirrors aten/src/ATen/native/Repeat.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';
import { elementReader, contiguousOf, storedElements } from './StorageAccess.js';

/** `repeat_interleave.Tensor(repeats, *, output_size=None)`: i repeated repeats[i] times, in order. */
export function repeatInterleaveTensor(_ks: DispatchKeySet, repeats: Tensor, outputSize: number | null = null): Tensor {
  if (repeats.dim() !== 1) throw new Error('repeat_interleave only accept 1D vector as repeat');
  if (repeats.scalarType !== ScalarType.Long && repeats.scalarType !== ScalarType.Int) {
    throw new Error('repeats has to be Long or Int tensor');
  }
  const ops = aten();
  if (repeats.sizes[0] === 0) return ops.empty_like.call(repeats, null, null, null, null, null);
  if (repeats.isMeta()) {
    if (outputSize === null) throw new Error('cannot repeat_interleave a meta tensor without output_size');
    return ops.empty_memory_format.call([outputSize], repeats.scalarType, null, repeats.device, null, null);
  }
  const reader = elementReader(contiguousOf(repeats));
  const n = repeats.sizes[0] as number;
  const counts = Array.from({ length: n }, (_, i) => reader(i));
  const read = (i: number): number => counts[i] as number;
  let total = 0;
  for (let i = 0; i < n; i++) total += read(i);
  if (outputSize !== null) total = outputSize;
  for (let i = 0; i < n; i++) if (read(i) < 0) throw new Error('repeats can not be negative');
  const out = ops.empty_memory_format.call([total], repeats.scalarType, null, repeats.device, null, null);
  const ys = storedElements(out);
  let j = 0;
  for (let i = 0; i < n; i++) for (let k = 0; k < read(i) && j < total; k++) ys.data[ys.base + j++] = i;
  return out;
}

/** `repeat_interleave.self_Tensor(self, repeats, dim=None, *, output_size=None)`. */
export function repeatInterleaveSelfTensor(
  _ks: DispatchKeySet,
  self: Tensor,
  repeats: Tensor,
  dim: number | null = null,
  outputSize: number | null = null,
): Tensor {
  const ops = aten();
  let input = self;
  let d = dim;
  if (d === null) {
    input = ops.flatten_using_ints.call(self, 0, -1);
    d = 0;
  }
  const wd = maybeWrapDim(d, Math.max(input.dim(), 1));
  const len = input.dim() === 0 ? 1 : (input.sizes[wd] as number);
  let reps = repeats;
  if (repeats.dim() === 0 || (repeats.dim() === 1 && repeats.sizes[0] === 1)) {
    reps = ops.expand.call(ops.reshape.call(repeats, [1]), [len], false);
  } else if (repeats.dim() === 1) {
    if (repeats.sizes[0] !== len) {
      throw new Error(
        `repeats must have the same size as input along dim, but got repeats.size(0) = ${repeats.sizes[0]} and input.size(${d}) = ${len}`,
      );
    }
  } else {
    throw new Error('repeats must be 0-dim or 1-dim tensor');
  }
  return ops.index_select.call(input, d, ops.repeat_interleave_Tensor.call(reps, outputSize));
}

/**
 * `repeat_interleave.self_int(self, repeats, dim=None, *, output_size=None)`: each element expanded `repeats` times
 * along a new dimension after dim, then that pair of dimensions flattened (no data-dependent size: Meta works).
 */
export function repeatInterleaveSelfInt(
  _ks: DispatchKeySet,
  self: Tensor,
  repeats: number,
  dim: number | null = null,
  outputSize: number | null = null,
): Tensor {
  const ops = aten();
  let input = dim === null ? ops.flatten_using_ints.call(self, 0, -1) : self;
  const d = maybeWrapDim(dim ?? 0, Math.max(self.dim(), 1));
  if (repeats < 0) throw new Error('Repeats must be non-negative');
  input = ops.unsqueeze.call(input, d + 1);
  const shape = [...input.sizes];
  shape[d + 1] = repeats;
  input = ops.expand.call(input, shape, false);
  if (outputSize !== null) {
    const calculated = repeats * (shape[d] as number);
    if (outputSize !== calculated) throw new Error(`repeat_interleave: Invalid output_size, expected ${calculated} but got ${outputSize}`);
  }
  return ops.flatten_using_ints.call(ops.clone.call(input, 0), d, d + 1);
}
