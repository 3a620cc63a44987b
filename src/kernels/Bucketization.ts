// bucketize and searchsorted. Mirrors aten/src/ATen/native/Bucketization.cpp and BucketizationUtils.h
// (searchsorted_pre_check's checks and texts; the binary searches' comparisons, so NaN lands where PyTorch puts it).

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, scalarTypeToString } from '../c10/ScalarType.js';
import { formatSizes } from '../tensor/ExpandUtils.js';
import type { Tensor } from '../tensor/Tensor.js';
import { wrapScalar } from '../tensor/ScalarOps.js';
import { contiguousOf, elementReader, emptyLike } from './StorageAccess.js';

function preCheck(boundaries: Tensor, input: Tensor, right: boolean, side: string | null, sorter: Tensor | null): void {
  if (side !== null) {
    if (side !== 'left' && side !== 'right') throw new Error(`torch.searchsorted(): side can only be 'left' or 'right' but got ${side}`);
    if (right && side !== 'right') {
      throw new Error(`torch.searchsorted(): side and right can't be set to opposites, got side of ${side} while right was True`);
    }
  }
  if (sorter !== null) {
    if (!(sorter.sizes.length === boundaries.sizes.length && sorter.sizes.every((s, i) => s === boundaries.sizes[i]))) {
      throw new Error(
        `torch.searchsorted(): boundary and sorter must have the same size, but got boundary tensor ${formatSizes(boundaries.sizes)}and got sorter tensor ${formatSizes(sorter.sizes)}`,
      );
    }
    if (sorter.scalarType !== ScalarType.Long) {
      throw new Error(`torch.searchsorted(): sorter must be a tensor of long dtype but got dtype ${scalarTypeToString(sorter.scalarType)}`);
    }
    if (sorter.numel() > 0 && !sorter.isMeta()) {
      const last = boundaries.sizes[boundaries.dim() - 1] as number;
      const read = elementReader(contiguousOf(sorter));
      for (let i = 0; i < sorter.numel(); i++) {
        const v = read(i);
        if (v < 0 || v >= last) throw new Error('torch.searchsorted(): sorter index out of range');
      }
    }
  }
  if (!(input.dim() > 0 || (input.dim() === 0 && input.numel() === 1 && boundaries.dim() === 1))) {
    throw new Error(
      `torch.searchsorted(): input value can be a scalar only when boundaries tensor dimension is 1, but we got boundaries tensor dim(${boundaries.dim()}) and input value's dim(${input.dim()}) numel(${input.numel()})`,
    );
  }
  if (boundaries.dim() === 0)
    throw new Error('torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 dimension');
  const matched = boundaries.dim() === input.dim() && boundaries.sizes.slice(0, -1).every((s, i) => s === input.sizes[i]);
  if (boundaries.dim() !== 1 && !matched) {
    throw new Error(
      `torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries tensor and input value tensor must match, but we got boundaries tensor ${formatSizes(boundaries.sizes)} and input value tensor ${formatSizes(input.sizes)}`,
    );
  }
}

/** searchsorted_cpu_contiguous: per element, lower_bound (left) or upper_bound (right) in its boundaries row. */
function run(boundaries: Tensor, input: Tensor, outInt32: boolean, right: boolean, sorter: Tensor | null): Tensor {
  const out = emptyLike(boundaries, [...input.sizes], outInt32 ? ScalarType.Int : ScalarType.Long);
  if (input.isMeta() || boundaries.isMeta() || input.numel() === 0) return out;
  const bd = elementReader(contiguousOf(boundaries));
  const val = elementReader(contiguousOf(input));
  const srt = sorter === null ? null : elementReader(contiguousOf(sorter));
  const len = boundaries.sizes[boundaries.dim() - 1] as number;
  const inner = input.dim() === 0 ? 1 : (input.sizes[input.dim() - 1] as number);
  const oneRow = boundaries.dim() === 1;
  const { data, base } = out.dataView();
  const n = input.numel();
  for (let i = 0; i < n; i++) {
    const v = val(i);
    const start0 = oneRow ? 0 : Math.floor(i / inner) * len;
    let lo = 0;
    let hi = len;
    while (lo < hi) {
      const mid = lo + ((hi - lo) >> 1);
      const m = bd(start0 + (srt === null ? mid : srt(start0 + mid)));
      if (right ? !(m > v) : !(m >= v)) lo = mid + 1;
      else hi = mid;
    }
    data[base + i] = lo;
  }
  return out;
}

/** `searchsorted.Tensor(sorted_sequence, self, *, out_int32=False, right=False, side=None, sorter=None)`. */
export function searchsorted(
  _ks: DispatchKeySet,
  sortedSequence: Tensor,
  self: Tensor,
  outInt32 = false,
  right = false,
  side: string | null = null,
  sorter: Tensor | null = null,
): Tensor {
  preCheck(sortedSequence, self, right, side, sorter);
  return run(sortedSequence, self, outInt32, right || side === 'right', sorter);
}

/** `searchsorted.Scalar(sorted_sequence, self, ...)`: the scalar as a wrapped 0-dim tensor. */
export function searchsortedScalar(
  ks: DispatchKeySet,
  sortedSequence: Tensor,
  self: number,
  outInt32 = false,
  right = false,
  side: string | null = null,
  sorter: Tensor | null = null,
): Tensor {
  return searchsorted(ks, sortedSequence, wrapScalar(self), outInt32, right, side, sorter);
}

/** `bucketize.Tensor(self, boundaries, *, out_int32=False, right=False)`: searchsorted over 1-D boundaries. */
export function bucketize(_ks: DispatchKeySet, self: Tensor, boundaries: Tensor, outInt32 = false, right = false): Tensor {
  if (boundaries.dim() !== 1) throw new Error(`boundaries tensor must be 1 dimension, but got dim(${boundaries.dim()})`);
  preCheck(boundaries, self, right, null, null);
  return run(boundaries, self, outInt32, right, null);
}

/** `bucketize.Scalar(self, boundaries, ...)`. */
export function bucketizeScalar(ks: DispatchKeySet, self: number, boundaries: Tensor, outInt32 = false, right = false): Tensor {
  return bucketize(ks, wrapScalar(self), boundaries, outInt32, right);
}
