// copy_, fill_, clone, _to_copy and _local_scalar_dense. Mirrors aten/src/ATen/native/Copy.cpp,
// Fill.cpp, TensorConversions.cpp and Scalar.cpp.

import { Device } from '../c10/Device.js';
import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { MemoryFormat } from '../c10/Layout.js';
import { ScalarType, isComplexType } from '../c10/ScalarType.js';
import { belowADInplaceOrView } from '../dispatch/LocalDispatchKeySet.js';
import { aten } from '../generated/Operators.js';
import { type ScalarValue, fromStored, readElement, toStored, writeElement } from '../tensor/elements.js';
import { inferSize } from '../tensor/ExpandUtils.js';
import type { StorageArray } from '../tensor/Storage.js';
import type { Tensor } from '../tensor/Tensor.js';
import { contiguousStrides } from '../tensor/TensorImpl.js';
import { channelsLast3dStrides, channelsLastStrides, isNonOverlappingAndDense } from '../tensor/TensorGeometry.js';
import { addressOf, runKernelCalls, splitRange, threadsFor, wasmKernelFor } from '../wasm/kernels/vec.js';

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

// Note [Strided copy]
// ~~~~~~~~~~~~~~~~~~~
// A copy between layouts of one dtype (contiguous() of a transpose or an expand, clone of a slice, copy_
// into a view) moves stored values, lanes included, without converting them. Dims are coalesced first, as
// TensorIterator does (size-1 dims dropped; a dim merged into the next when both operands' strides allow),
// then the outer dims advance by counter and the innermost runs as a plain loop, or as TypedArray.set when
// both inner strides are 1. One loop per element, no callback: forEachStorageIndex's closure per element
// cost ~25 ns, which made AccumulateGrad's first copy of a transposed gradient the slowest step of a small
// MLP. A dtype conversion that is the typed arrays' own store (uint8 images to float32, float32 to float64)
// takes the same loop: TypedArray stores convert as C++'s casts do for those pairs (isPlainConversion).

/** Below this many elements a strided copy stays in JS (the WASM call and its checks cost more). */
const WASM_COPY_MIN = 4096;

/**
 * The coalesced copy (at most 4 dims) as f32_copy_strided / f64_copy_strided when both float arrays are in
 * linear memory and the copy is large, the outermost dim split among threads (each element is copied once,
 * whatever the split); false when the JS loop should run.
 */
function copyInWasm(sz: number[], dst: StorageArray, dBase: number, ds: number[], src: StorageArray, sBase: number, ss: number[]): boolean {
  const f32 = dst instanceof Float32Array && src instanceof Float32Array;
  if (!f32 && !(dst instanceof Float64Array && src instanceof Float64Array)) return false;
  let numel = 1;
  for (const n of sz) numel *= n;
  if (numel < WASM_COPY_MIN || ds.some((d) => d < 0) || ss.some((d) => d < 0)) return false;
  const name = f32 ? 'f32_copy_strided' : 'f64_copy_strided';
  if (wasmKernelFor(name, dst, src) === null) return false;
  const pad = 4 - sz.length;
  const [n, d, s] = [sz, ds, ss].map((a) => [...new Array<number>(pad).fill(a === sz ? 1 : 0), ...a]) as [number[], number[], number[]];
  const [px, py] = [addressOf(src, sBase), addressOf(dst, dBase)];
  // Split the outermost dim that is not 1 among threads.
  const k = n.findIndex((v) => v > 1);
  const cuts = splitRange(n[k] as number, threadsFor(numel), 1);
  const bytes = f32 ? 4 : 8;
  const calls: number[][] = [];
  for (let t = 0; t + 1 < cuts.length; t++) {
    const [a, b] = [cuts[t] as number, cuts[t + 1] as number];
    const part = n.map((v, j) => (j === k ? b - a : v));
    calls.push([...part, ...d, ...s, px + a * (s[k] as number) * bytes, py + a * (d[k] as number) * bytes]);
  }
  runKernelCalls(name, calls);
  return true;
}

/**
 * dst[dBase + Σ iₖ·dStrides[k]] = src[sBase + Σ iₖ·sStrides[k]] over every index of `sizes` (strides in
 * array elements; two arrays of one class, not overlapping).
 */
export function copyStrided(
  sizes: readonly number[],
  dst: StorageArray,
  dBase: number,
  dStrides: readonly number[],
  src: StorageArray,
  sBase: number,
  sStrides: readonly number[],
): void {
  const sz: number[] = [];
  const ds: number[] = [];
  const ss: number[] = [];
  for (let k = 0; k < sizes.length; k++) {
    const n = sizes[k] as number;
    if (n === 0) return;
    if (n === 1) continue;
    const last = sz.length - 1;
    // Merge into the previous (outer) dim when it steps exactly over this one in both operands.
    if (last >= 0 && ds[last] === n * (dStrides[k] as number) && ss[last] === n * (sStrides[k] as number)) {
      sz[last] = (sz[last] as number) * n;
      ds[last] = dStrides[k] as number;
      ss[last] = sStrides[k] as number;
    } else {
      sz.push(n);
      ds.push(dStrides[k] as number);
      ss.push(sStrides[k] as number);
    }
  }
  const dims = sz.length;
  if (dims === 0) {
    dst[dBase] = src[sBase] as number;
    return;
  }
  if (dims <= 4 && copyInWasm(sz, dst, dBase, ds, src, sBase, ss)) return;
  const n = sz[dims - 1] as number;
  const di = ds[dims - 1] as number;
  const si = ss[dims - 1] as number;
  const counter = new Array<number>(dims).fill(0);
  let d = dBase;
  let s = sBase;
  for (;;) {
    if (di === 1 && si === 1) (dst as Float64Array).set((src as Float64Array).subarray(s, s + n), d);
    else if (di === 1 && si === 0)
      (dst as Float64Array).fill(src[s] as number, d, d + n); // an expanded dim
    else for (let i = 0; i < n; i++) dst[d + i * di] = src[s + i * si] as number;
    let k = dims - 2;
    for (; k >= 0; k--) {
      counter[k] = (counter[k] as number) + 1;
      d += ds[k] as number;
      s += ss[k] as number;
      if ((counter[k] as number) < (sz[k] as number)) break;
      d -= (counter[k] as number) * (ds[k] as number);
      s -= (counter[k] as number) * (ss[k] as number);
      counter[k] = 0;
    }
    if (k < 0) return;
  }
}

/**
 * Whether storing `from`'s stored values into `to`'s typed array is PyTorch's cast: both store the values
 * themselves (not float16/bfloat16 bits, not complex pairs), and `to` is not bool (any non-zero is 1) or
 * int64 (a float truncates), whose stores need toStored. float32 rounds to nearest as static_cast does;
 * int8/16/32 and uint8 stores of an in-range value are C++'s conversion (toStored does the same).
 */
function isPlainConversion(from: ScalarType, to: ScalarType): boolean {
  const plain = (d: ScalarType): boolean => d !== ScalarType.Half && d !== ScalarType.BFloat16 && !isComplexType(d);
  return plain(from) && plain(to) && to !== ScalarType.Bool && to !== ScalarType.Long;
}

/** copyStrided over tensors' elements, lanes included (a complex element is two array values). */
function copyElementsStrided(
  dst: Tensor,
  src: Tensor,
  dv: { data: StorageArray; base: number; lanes: number },
  sv: { data: StorageArray; base: number; lanes: number },
): void {
  const l = dv.lanes;
  if (l === 1) {
    copyStrided(dst.sizes, dv.data, dv.base, dst.strides, sv.data, sv.base, src.strides);
    return;
  }
  const lanes = (strides: readonly number[]): number[] => [...strides.map((x) => x * l), 1];
  copyStrided([...dst.sizes, l], dv.data, dv.base, lanes(dst.strides), sv.data, sv.base, lanes(src.strides));
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
  if (self.scalarType === expanded.scalarType && self.isContiguous() && expanded.isContiguous() && self.storage !== expanded.storage) {
    d.data.set(s.data.subarray(s.base, s.base + self.numel() * s.lanes), d.base);
    return self;
  }
  // Same dtype over another storage: stored values move as they are (Note [Strided copy]).
  if (self.scalarType === expanded.scalarType && self.storage !== expanded.storage) {
    copyElementsStrided(self, expanded, d, s);
    return self;
  }
  // A conversion that is the typed arrays' own store (Note [Strided copy]): one strided copy, no callback.
  if (self.storage !== expanded.storage && isPlainConversion(expanded.scalarType, self.scalarType)) {
    copyStrided(self.sizes, d.data, d.base, self.strides, s.data, s.base, expanded.strides);
    return self;
  }
  // Real dtypes into a contiguous self over another storage: one strided pass, converting per element.
  if (self.isContiguous() && self.storage !== expanded.storage && !isComplexType(self.scalarType) && !isComplexType(expanded.scalarType)) {
    const out = d.data;
    const from = s.data;
    const sd = expanded.scalarType;
    const dd = self.scalarType;
    let k = d.base;
    forEachStorageIndex(expanded.sizes, expanded.strides, s.base, (i) => (out[k++] = toStored(dd, fromStored(sd, from[i] as number))));
    return self;
  }
  // General case: read every source element first (self and src may overlap), then write.
  const values: ScalarValue[] = [];
  forEachStorageIndex(expanded.sizes, expanded.strides, 0, (i) =>
    values.push(readElement(expanded.scalarType, s.data, s.base + i * s.lanes)),
  );
  let k = 0;
  forEachStorageIndex(self.sizes, self.strides, 0, (i) =>
    writeElement(self.scalarType, d.data, d.base + i * d.lanes, values[k++] as ScalarValue),
  );
  return self;
}

/** `fill_(self, value)`. CPU kernel; Meta only checks. */
export function fill_(_ks: DispatchKeySet, self: Tensor, value: number | boolean): Tensor {
  if (self.isMeta()) return self;
  const { data, base, lanes } = self.dataView();
  const v = Number(value);
  if (isComplexType(self.scalarType)) {
    forEachStorageIndex(self.sizes, self.strides, 0, (i) => writeElement(self.scalarType, data, base + i * lanes, v));
  } else {
    const stored = toStored(self.scalarType, v);
    if (self.isContiguous()) data.fill(stored, base, base + self.numel());
    else forEachStorageIndex(self.sizes, self.strides, base, (i) => (data[i] = stored));
  }
  return self;
}

/**
 * `fill_.Tensor(self, value)`: fill_ with a 0-dim tensor's value (what `x[i] = v` runs for a 0-dim `v`, Note
 * [copy_to in setitem] in src/api/TensorIndexing.ts).
 */
export function fillTensor_(ks: DispatchKeySet, self: Tensor, value: Tensor): Tensor {
  if (value.dim() !== 0) throw new Error(`fill_ only supports 0-dimension value tensor but got tensor with ${value.dim()} dimensions.`);
  if (self.isMeta()) return self;
  return fill_(ks, self, aten().item.call(value) as number | boolean);
}

/** `zero_(self)`. */
export function zero_(ks: DispatchKeySet, self: Tensor): Tensor {
  return aten().fill__Scalar.redispatch(ks, self, 0);
}

/** `clone(self)`: a contiguous copy (preserve_format keeps dense strides; aten-ts makes it contiguous). */
export function clone(_ks: DispatchKeySet, self: Tensor, memoryFormat: number | null = null): Tensor {
  const out = aten().empty_strided.call([...self.sizes], formatStrides(self, memoryFormat), self.scalarType, null, self.device, null);
  return belowADInplaceOrView(() => aten().copy_.call(out, self, false));
}

// Note [preserve_format strides]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// clone and _to_copy with preserve_format (their default) keep the strides of a non-overlapping and dense input
// (a transposed or permuted tensor, a channels-last one); for any other strided input they take
// infer_dense_strides (ATen/TensorUtils.cpp): dense strides in the input's dimension order, found by the same
// stable insertion sort as TensorIterator's (a 0 stride compares as ambiguous; equal strides put the smaller
// size first). contiguous / channels_last are as asked.
function formatStrides(self: Tensor, memoryFormat: number | null): number[] {
  const format = memoryFormat ?? MemoryFormat.Preserve;
  if (format === MemoryFormat.Preserve)
    return isNonOverlappingAndDense(self) ? [...self.strides] : inferDenseStrides(self.sizes, self.strides);
  if (format === MemoryFormat.ChannelsLast) {
    if (self.dim() !== 4) throw new Error('required rank 4 tensor to use channels_last format');
    return channelsLastStrides(self.sizes);
  }
  if (format === MemoryFormat.ChannelsLast3d) {
    if (self.dim() !== 5) throw new Error('required rank 5 tensor to use channels_last_3d format');
    return channelsLast3dStrides(self.sizes);
  }
  return contiguousStrides(self.sizes);
}

/** ATen's infer_dense_strides (Note [preserve_format strides]). */
function inferDenseStrides(sizes: readonly number[], strides: readonly number[]): number[] {
  const n = sizes.length;
  if (n === 0) return [];
  if (n === 1) return [1];
  const perm: number[] = [];
  for (let i = n - 1; i >= 0; i--) perm.push(i);
  const shouldSwap = (d0: number, d1: number): number => {
    const s0 = strides[d0] as number;
    const s1 = strides[d1] as number;
    if (s0 === 0 || s1 === 0) return 0;
    if (s0 !== s1) return s0 < s1 ? -1 : 1;
    return (sizes[d0] as number) > (sizes[d1] as number) ? 1 : 0;
  };
  for (let i = 1; i < n; i++) {
    let d1 = i;
    for (let j = 1; j <= i; j++) {
      const d0 = i - j;
      const c = shouldSwap(perm[d0] as number, perm[d1] as number);
      if (c > 0) {
        [perm[d0], perm[d1]] = [perm[d1] as number, perm[d0] as number];
        d1 = d0;
      } else if (c < 0) break;
    }
  }
  const out = new Array<number>(n).fill(0);
  let cur = 1;
  for (const idx of perm) {
    out[idx] = cur;
    if ((sizes[idx] as number) > 1) cur *= sizes[idx] as number;
  }
  return out;
}

/** `_to_copy(self, dtype?, layout?, device?, pin_memory?, non_blocking, memory_format?)`: a converted copy (Note [preserve_format strides]). */
export function toCopy(
  _ks: DispatchKeySet,
  self: Tensor,
  dtype: ScalarType | null = null,
  _layout: number | null = null,
  device: Device | null = null,
  _pinMemory: boolean | null = null,
  _nonBlocking = false,
  memoryFormat: number | null = null,
): Tensor {
  const targetDevice = device ?? self.device;
  const strides = formatStrides(self, memoryFormat);
  const out = aten().empty_strided.call([...self.sizes], strides, dtype ?? self.scalarType, null, targetDevice, null);
  if (targetDevice.isMeta()) return out;
  if (self.isMeta()) throw new Error('Cannot copy out of meta tensor; no data!');
  return belowADInplaceOrView(() => aten().copy_.call(out, self, false));
}

/** `_local_scalar_dense(self)`: the single value of a one-element tensor. */
export function localScalarDense(_ks: DispatchKeySet, self: Tensor): ScalarValue {
  if (self.numel() !== 1) {
    throw new Error(`a Tensor with ${self.numel()} elements cannot be converted to Scalar`);
  }
  if (self.isMeta()) throw new Error('Tensor.item() cannot be called on meta tensors');
  const { data, base } = self.dataView();
  return readElement(self.scalarType, data, base);
}
