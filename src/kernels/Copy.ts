// copy_, fill_, clone, _to_copy and _local_scalar_dense. Mirrors aten/src/ATen/native/Copy.cpp,
// Fill.cpp, TensorConversions.cpp and Scalar.cpp.

import { Device } from '../c10/Device.js';
import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isComplexType } from '../c10/ScalarType.js';
import { belowADInplaceOrView } from '../dispatch/LocalDispatchKeySet.js';
import { aten } from '../generated/Operators.js';
import { type ScalarValue, fromStored, readElement, toStored, writeElement } from '../tensor/elements.js';
import { inferSize } from '../tensor/ExpandUtils.js';
import type { Tensor } from '../tensor/Tensor.js';
import { contiguousStrides } from '../tensor/TensorImpl.js';

/** Calls `fn(index)` with the storage index of every element of a strided tensor, in row-major order. */
export function forEachStorageIndex(sizes: readonly number[], strides: readonly number[], offset: number, fn: (i: number) => void): void {
  const n = sizes.length;
  let numel = 1;
  for (const s of sizes) numel *= s;
  if (numel === 0) return;
  if (n === 0) {
    fn(offset);
    return;
  }
  const counter = new Array<number>(n).fill(0);
  let index = offset;
  const lastSize = sizes[n - 1] as number;
  const lastStride = strides[n - 1] as number;
  for (;;) {
    for (let i = 0; i < lastSize; i++) fn(index + i * lastStride);
    let d = n - 2;
    for (; d >= 0; d--) {
      counter[d] = (counter[d] as number) + 1;
      index += strides[d] as number;
      if ((counter[d] as number) < (sizes[d] as number)) break;
      index -= (counter[d] as number) * (strides[d] as number);
      counter[d] = 0;
    }
    if (d < 0) return;
  }
}

/** `copy_(self, src)`: broadcasts src to self's shape and converts its dtype. CPU kernel. */
export function copy_(ks: DispatchKeySet, self: Tensor, src: Tensor, _nonBlocking = false): Tensor {
  const shape = inferSize(self.sizes, src.sizes);
  if (shape.length !== self.sizes.length || shape.some((s, i) => s !== self.sizes[i])) {
    throw new Error(`output with shape [${self.sizes.join(', ')}] doesn't match the broadcast shape [${shape.join(', ')}]`);
  }
  const expanded =
    src.sizes.length === self.sizes.length && src.sizes.every((s, i) => s === self.sizes[i])
      ? src
      : aten().expand.redispatch(ks, src, [...self.sizes], false);
  if (self.isMeta() || src.isMeta()) {
    if (!self.isMeta()) throw new Error('copy_: cannot copy out of a meta tensor; you need to use a tensor with data');
    return self;
  }
  const d = self.dataView();
  const s = expanded.dataView();
  // Same dtype, both contiguous: a block copy.
  if (self.dtype === expanded.dtype && self.isContiguous() && expanded.isContiguous() && self.storage !== expanded.storage) {
    d.data.set(s.data.subarray(s.base, s.base + self.numel * s.lanes), d.base);
    return self;
  }
  // Real dtypes into a contiguous self over another storage: one strided pass, converting per element.
  if (self.isContiguous() && self.storage !== expanded.storage && !isComplexType(self.dtype) && !isComplexType(expanded.dtype)) {
    const out = d.data;
    const from = s.data;
    const sd = expanded.dtype;
    const dd = self.dtype;
    let k = d.base;
    if (sd === dd) forEachStorageIndex(expanded.sizes, expanded.strides, s.base, (i) => (out[k++] = from[i] as number));
    else forEachStorageIndex(expanded.sizes, expanded.strides, s.base, (i) => (out[k++] = toStored(dd, fromStored(sd, from[i] as number))));
    return self;
  }
  // General case: read every source element first (self and src may overlap), then write.
  const values: ScalarValue[] = [];
  forEachStorageIndex(expanded.sizes, expanded.strides, 0, (i) => values.push(readElement(expanded.dtype, s.data, s.base + i * s.lanes)));
  let k = 0;
  forEachStorageIndex(self.sizes, self.strides, 0, (i) =>
    writeElement(self.dtype, d.data, d.base + i * d.lanes, values[k++] as ScalarValue),
  );
  return self;
}

/** `fill_(self, value)`. CPU kernel; Meta only checks. */
export function fill_(_ks: DispatchKeySet, self: Tensor, value: number | boolean): Tensor {
  if (self.isMeta()) return self;
  const { data, base, lanes } = self.dataView();
  const v = Number(value);
  if (isComplexType(self.dtype)) {
    forEachStorageIndex(self.sizes, self.strides, 0, (i) => writeElement(self.dtype, data, base + i * lanes, v));
  } else {
    const stored = toStored(self.dtype, v);
    if (self.isContiguous()) data.fill(stored, base, base + self.numel);
    else forEachStorageIndex(self.sizes, self.strides, base, (i) => (data[i] = stored));
  }
  return self;
}

/** `zero_(self)`. */
export function zero_(ks: DispatchKeySet, self: Tensor): Tensor {
  return aten().fill__Scalar.redispatch(ks, self, 0);
}

/** `clone(self)`: a contiguous copy (preserve_format keeps dense strides; aten-ts makes it contiguous). */
export function clone(_ks: DispatchKeySet, self: Tensor, _memoryFormat: number | null = null): Tensor {
  const out = aten().empty_strided.call([...self.sizes], contiguousStrides(self.sizes), self.dtype, null, self.device, null);
  return belowADInplaceOrView(() => aten().copy_.call(out, self, false));
}

/** `_to_copy(self, dtype?, layout?, device?, ...)`: a converted copy. */
export function toCopy(
  _ks: DispatchKeySet,
  self: Tensor,
  dtype: ScalarType | null = null,
  _layout: number | null = null,
  device: Device | null = null,
): Tensor {
  const targetDevice = device ?? self.device;
  const out = aten().empty_strided.call([...self.sizes], contiguousStrides(self.sizes), dtype ?? self.dtype, null, targetDevice, null);
  if (targetDevice.isMeta()) return out;
  if (self.isMeta()) throw new Error('Cannot copy out of meta tensor; no data!');
  return belowADInplaceOrView(() => aten().copy_.call(out, self, false));
}

/** `_local_scalar_dense(self)`: the single value of a one-element tensor. */
export function localScalarDense(_ks: DispatchKeySet, self: Tensor): ScalarValue {
  if (self.numel !== 1) {
    throw new Error(`a Tensor with ${self.numel} elements cannot be converted to Scalar`);
  }
  if (self.isMeta()) throw new Error('Tensor.item() cannot be called on meta tensors');
  const { data, base } = self.dataView();
  return readElement(self.dtype, data, base);
}
