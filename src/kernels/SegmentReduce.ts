// segment_reduce and _segment_reduce_backward (torch._segment_reduce): aten/src/ATen/native/SegmentReduce.cpp
// (the checks, lengths turned into offsets, the CPU kernels over (outer, segment, inner)) and the meta function of
// torch/_meta_registrations.py.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isFloatingType, notImplementedForDtype } from '../c10/ScalarType.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';
import * as at from '../generated/TensorBody.js';
import { toStored } from '../tensor/elements.js';
import type { Tensor } from '../tensor/Tensor.js';
import { contiguousOf, elementReader, storedElements } from './StorageAccess.js';

type Reduction = 'max' | 'mean' | 'min' | 'sum' | 'prod';

function reductionOf(reduce: string): Reduction {
  if (reduce === 'max' || reduce === 'mean' || reduce === 'min' || reduce === 'sum' || reduce === 'prod') return reduce;
  throw new Error(`unsupported reduction given! ${reduce}`);
}

/** Rounding to the data's dtype (the kernels accumulate in scalar_t). */
function rounder(dtype: ScalarType): (v: number) => number {
  if (!isFloatingType(dtype)) throw notImplementedForDtype('_segment_reduce_cpu', dtype);
  return dtype === ScalarType.Double ? (v) => v : Math.fround;
}

/** The segments' boundaries per row of `lengths` / `offsets` (all but their last dimension): [rows][count + 1]. */
function offsetRows(bounds: Tensor, isLengths: boolean): number[][] {
  const c = contiguousOf(bounds);
  const read = elementReader(c);
  const width = bounds.dim() === 0 ? 1 : (bounds.sizes[bounds.dim() - 1] as number);
  const rows = width === 0 ? 0 : c.numel() / width;
  const out: number[][] = [];
  for (let r = 0; r < rows; r++) {
    if (!isLengths) {
      out.push(Array.from({ length: width }, (_, k) => read(r * width + k)));
      continue;
    }
    const row = [0];
    for (let k = 0; k < width; k++) row.push((row[k] as number) + read(r * width + k));
    out.push(row);
  }
  return out;
}

/** The first element a reduction starts from: `initial`, else its identity. */
function initialValue(reduction: Reduction, initial: number | boolean | null, r: (v: number) => number): number {
  if (initial !== null) return r(Number(initial));
  if (reduction === 'max') return -Infinity;
  if (reduction === 'min') return Infinity;
  return reduction === 'prod' ? 1 : 0;
}

interface Layout {
  outer: number;
  inner: number;
  axisSize: number;
}

function layoutOf(data: Tensor, axis: number): Layout {
  const sizes = data.sizes;
  return {
    outer: sizes.slice(0, axis).reduce((a, b) => a * b, 1),
    inner: sizes.slice(axis + 1).reduce((a, b) => a * b, 1),
    axisSize: sizes[axis] as number,
  };
}

/**
 * `segment_reduce(data, reduce, *, lengths=None, indices=None, offsets=None, axis=0, unsafe=False, initial=None)`:
 * reduces the segments of `data` along `axis`, one row of lengths (or offsets) per index of the dimensions before it.
 */
export function segment_reduce(
  _ks: DispatchKeySet,
  data: Tensor,
  reduce: string,
  lengths: Tensor | null = null,
  indices: Tensor | null = null,
  offsets: Tensor | null = null,
  axisArg = 0,
  unsafe = false,
  initial: number | boolean | null = null,
): Tensor {
  const axis = maybeWrapDim(axisArg, data.dim());
  if (indices !== null) throw new Error('segment_reduce(): indices based reduction is not supported yet.');
  if (lengths === null && offsets === null) throw new Error('segment_reduce(): Either lengths or offsets must be defined.');
  const bounds = (offsets ?? lengths) as Tensor;
  const count = (bounds.sizes[axis] as number) - (offsets !== null ? 1 : 0);
  const outShape = [...data.sizes];
  outShape[axis] = count;
  if (data.isMeta()) return at.empty_memory_format(outShape, data.scalarType, null, data.device, null, null);
  const reduction = reductionOf(reduce);
  const what = offsets !== null ? 'offsets' : 'lengths';
  if (data.dim() < bounds.dim()) throw new Error(`Expected data.dim() >= ${what}.dim() to be true, but got false.`);
  if (axis !== bounds.dim() - 1) {
    throw new Error(`segment_reduce(): Expected axis to be the last dimension of ${what} but got ${axis}.`);
  }
  const rows = offsetRows(bounds, offsets === null);
  if (offsets === null && !unsafe) {
    const all = contiguousOf(bounds);
    const read = elementReader(all);
    for (let i = 0; i < all.numel(); i++) if (read(i) < 0) throw new Error('lengths contains negative value!');
    if (rows.some((row) => row[row.length - 1] !== data.sizes[axis])) {
      throw new Error('segment_reduce(): Expected all rows of lengths along axis to sum to data.size(lengths.dim()-1) when !unsafe.');
    }
  }
  const r = rounder(data.scalarType);
  const { outer, inner, axisSize } = layoutOf(data, axis);
  const out = at.empty_memory_format(outShape, data.scalarType, null, data.device, null, null);
  const src = contiguousOf(data);
  const read = elementReader(src);
  const ys = storedElements(out);
  for (let o = 0; o < outer; o++) {
    const row = rows[o] as number[];
    for (let s = 0; s < count; s++) {
      const start = row[s] as number;
      const len = (row[s + 1] as number) - start;
      for (let i = 0; i < inner; i++) {
        let acc = initialValue(reduction, initial, r);
        for (let j = 0; j < len; j++) {
          const v = read((o * axisSize + start + j) * inner + i);
          if (reduction === 'max') acc = Number.isNaN(v) ? v : Math.max(acc, v);
          else if (reduction === 'min') acc = Number.isNaN(v) ? v : Math.min(acc, v);
          else if (reduction === 'prod') acc = r(acc * v);
          else acc = r(acc + v);
        }
        if (len < 0) throw new Error('Expected segment_length >= 0 to be true, but got false.');
        if (reduction === 'mean') {
          if (len === 0 && initial === null) acc = Number.NaN;
          else if (len > 0 && !Number.isNaN(acc)) acc = r(acc / len);
        }
        ys.data[ys.base + (o * count + s) * inner + i] = toStored(data.scalarType, acc);
      }
    }
  }
  return out;
}

/**
 * `_segment_reduce_backward(grad, output, data, reduce, *, lengths=None, offsets=None, axis=0, initial=None)`: the
 * CPU backward kernel: max/min share the gradient among the elements equal to the result (or NaN), dividing only
 * the positive shares as PyTorch's kernel does; prod divides grad*output by the element, or multiplies the others
 * when the element is 0 or NaN.
 */
export function _segment_reduce_backward(
  _ks: DispatchKeySet,
  grad: Tensor,
  output: Tensor,
  data: Tensor,
  reduce: string,
  lengths: Tensor | null = null,
  offsets: Tensor | null = null,
  axisArg = 0,
  initial: number | boolean | null = null,
): Tensor {
  const axis = maybeWrapDim(axisArg, data.dim());
  if (lengths === null && offsets === null) throw new Error('segment_reduce(): Either lengths or offsets must be defined.');
  const reduction = reductionOf(reduce);
  const gradInput = at.zeros(data.sizes, grad.scalarType, null, grad.device, null);
  if (data.isMeta()) return gradInput;
  const rows = offsetRows((offsets ?? lengths) as Tensor, offsets === null);
  const count = (rows[0]?.length ?? 1) - 1;
  const r = rounder(data.scalarType);
  const { outer, inner, axisSize } = layoutOf(data, axis);
  const gC = contiguousOf(grad);
  const oC = contiguousOf(output);
  const dC = contiguousOf(data);
  const g = elementReader(gC);
  const out = elementReader(oC);
  const val = elementReader(dC);
  const initialProd = initial !== null ? r(Number(initial)) : 1;
  const gi = new Float64Array(data.numel());
  for (let o = 0; o < outer; o++) {
    const row = rows[o] as number[];
    for (let s = 0; s < count; s++) {
      const start = row[s] as number;
      const len = (row[s + 1] as number) - start;
      if (len === 0) continue;
      for (let i = 0; i < inner; i++) {
        const oi = (o * count + s) * inner + i;
        const at_ = (j: number): number => (o * axisSize + start + j) * inner + i;
        if (reduction === 'max' || reduction === 'min') {
          let counter = 0;
          for (let j = 0; j < len; j++) {
            const v = val(at_(j));
            if (Number.isNaN(v) || v === out(oi)) {
              gi[at_(j)] = g(oi);
              counter++;
            }
          }
          if (counter < 2) continue;
          for (let j = 0; j < len; j++) {
            const k = at_(j);
            if ((gi[k] as number) > 0) gi[k] = r((gi[k] as number) / counter);
          }
        } else if (reduction === 'mean') {
          const gv = r(g(oi) / len);
          for (let j = 0; j < len; j++) gi[at_(j)] = gv;
        } else if (reduction === 'sum') {
          for (let j = 0; j < len; j++) gi[at_(j)] = g(oi);
        } else {
          const gv = r(g(oi) * out(oi));
          for (let j = 0; j < len; j++) {
            const v = val(at_(j));
            if (Number.isNaN(v) || v === 0) {
              let exclusive = initialProd;
              for (let k = 0; k < len; k++) if (k !== j) exclusive = r(exclusive * val(at_(k)));
              gi[at_(j)] = r(g(oi) * exclusive);
            } else {
              gi[at_(j)] = r(gv / v);
            }
          }
        }
      }
    }
  }
  const ys = storedElements(gradInput);
  for (let k = 0; k < gi.length; k++) ys.data[ys.base + k] = toStored(grad.scalarType, gi[k] as number);
  return gradInput;
}
