// Reading and writing the elements of float tensors over their storage, for the kernels of
// Normalization.ts, group_norm.ts, AdaptiveAveragePooling.ts, AdaptiveMaxPooling.ts, PadNd.ts and
// UpSample.ts: a reader and a writer per tensor, taken after the call's last allocation (a growing WebAssembly
// memory replaces its buffer). No ATen counterpart: ATen indexes `data_ptr<scalar_t>()` directly.

import { ScalarType, isFloatingType, notImplementedForDtype } from '../c10/ScalarType.js';
import { fromStored, toStored } from '../tensor/elements.js';
import type { Tensor } from '../tensor/Tensor.js';

/** Element e (row-major) of a contiguous tensor as a number (float16 / bfloat16 decoded). */
export function reader(c: Tensor): (e: number) => number {
  const { data, base } = c.dataView();
  const dtype = c.scalarType;
  if (dtype === ScalarType.Half || dtype === ScalarType.BFloat16) return (e) => fromStored(dtype, data[base + e] as number);
  return (e) => data[base + e] as number;
}

/** Stores v as element e (row-major) of a contiguous float tensor, rounding as the dtype's store does. */
export function writer(c: Tensor): (e: number, v: number) => void {
  const { data, base } = c.dataView();
  const dtype = c.scalarType;
  if (dtype === ScalarType.Half || dtype === ScalarType.BFloat16) return (e, v) => void (data[base + e] = toStored(dtype, v));
  return (e, v) => void (data[base + e] = v);
}

/** Element i of a 1-D tensor of any strides (running_mean / running_var). */
export function strided1d(t: Tensor): { get: (i: number) => number; set: (i: number, v: number) => void } {
  const { data, base, lanes } = t.dataView();
  const s = (t.strides[0] ?? 1) * lanes;
  const dtype = t.scalarType;
  return {
    get: (i) => fromStored(dtype, data[base + i * s] as number),
    set: (i, v) => void (data[base + i * s] = toStored(dtype, v)),
  };
}

/** AT_DISPATCH_FLOATING_TYPES_AND2(Half, BFloat16): the dtype, or PyTorch's "not implemented for" error. */
export function checkFloating(t: Tensor, op: string): ScalarType {
  if (!isFloatingType(t.scalarType)) throw notImplementedForDtype(op, t.scalarType);
  return t.scalarType;
}
