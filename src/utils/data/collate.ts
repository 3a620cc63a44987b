// default_collate and default_convert: how a DataLoader turns a list of samples into a batch. Mirrors
// torch/utils/data/_utils/collate.py.

import { stack, tensor } from '../../api/torch.js';
import { ScalarType } from '../../c10/ScalarType.js';
import { Tensor } from '../../tensor/Tensor.js';

/**
 * `default_collate(batch)`: tensors are stacked on a new first dim; numbers become one tensor (int64 when every
 * number is integral — Python ints —, else float64, as PyTorch collates Python floats; see
 * Note [JavaScript numbers as Python scalars]); booleans a bool tensor; strings stay a list; arrays (tuples)
 * are collated position by position and objects (dicts) key by key.
 */
export function default_collate(batch: readonly unknown[]): unknown {
  const elem = batch[0];
  if (elem instanceof Tensor) return stack(batch as Tensor[], 0);
  if (typeof elem === 'number') {
    const nums = batch as number[];
    return tensor(nums, { dtype: nums.every(Number.isInteger) ? ScalarType.Long : ScalarType.Double });
  }
  if (typeof elem === 'boolean') return tensor(batch as boolean[]);
  if (typeof elem === 'string') return [...batch];
  if (Array.isArray(elem)) {
    const size = elem.length;
    if (!batch.every((b) => Array.isArray(b) && b.length === size))
      throw new Error('each element in list of batch should be of equal size');
    return elem.map((_, i) => default_collate(batch.map((b) => (b as unknown[])[i])));
  }
  if (elem !== null && typeof elem === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(elem)) out[k] = default_collate(batch.map((b) => (b as Record<string, unknown>)[k]));
    return out;
  }
  throw new TypeError(`default_collate: batch must contain tensors, numbers, dicts or lists; found ${typeof elem}`);
}

/** `default_convert(data)`: what a DataLoader without batching returns per sample (here: the sample). */
export function default_convert(data: unknown): unknown {
  return data;
}

/** camelCase names. */
export const defaultCollate = default_collate;
/** camelCase name of `default_convert`. */
export const defaultConvert = default_convert;
