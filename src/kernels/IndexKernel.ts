// The element loops of the indexing kernels: gathering, scattering, accumulating and filling elements at
// computed storage offsets. Mirrors aten/src/ATen/native/cpu/IndexKernel.cpp (index, index_put, masked_fill
// and masked_select kernels) and the loops of cpu/ScatterGatherKernel.cpp; the operators' checks and shape
// rules stay in TensorAdvancedIndexing.ts.

// Note [Indexing kernels move elements at offsets]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Every indexing operator reduces to lists of element offsets (Float64Arrays, in elements from a tensor's
// first element, so any strides work): offsetsFromTables builds them as row-major sums of one table per
// result dimension (i * stride for a plain dimension, index * stride for an indexed one), and the loops
// below move elements between those offsets in their stored form. A pure move is a copy of bits, so it runs
// on an integer view of the storage of the element's width (Uint8Array, Uint16Array, or Int32Array words):
// three array classes for every dtype, which keeps the hot loop's element accesses polymorphic instead of
// megamorphic (one loop over every typed-array class costs tens of ns per element in V8) and copies NaN
// payloads and int64 values exactly. Arithmetic (accumulation) uses the dtype's own array, whose stores round and wrap like C++.

import { ScalarType, isComplexType } from '../c10/ScalarType.js';
import { type ScalarValue, fromStored, toStored } from '../tensor/elements.js';
import type { StorageArray } from '../tensor/Storage.js';
import type { Tensor } from '../tensor/Tensor.js';
import { type StoredElements, moveElements } from './StorageAccess.js';

type WordArray = Uint8Array | Uint16Array | Int32Array;

/** A storage array seen as words of the element's width: element e's words are `data[base + e * w + k]`, k < w. */
interface Words {
  readonly data: WordArray;
  readonly base: number;
  readonly w: number;
}

function wordsOf(s: StoredElements): Words {
  const d = s.data;
  const bytes = d.BYTES_PER_ELEMENT;
  const elementBytes = bytes * s.lanes;
  if (elementBytes % 4 === 0) {
    const data = d instanceof Int32Array ? d : new Int32Array(d.buffer, d.byteOffset, d.byteLength >> 2);
    return { data, base: (s.base * bytes) >> 2, w: elementBytes >> 2 };
  }
  if (bytes === 2)
    return { data: d instanceof Uint16Array ? d : new Uint16Array(d.buffer, d.byteOffset, d.length), base: s.base, w: s.lanes };
  return { data: d instanceof Uint8Array ? d : new Uint8Array(d.buffer, d.byteOffset, d.length), base: s.base, w: s.lanes };
}

/**
 * The row-major sums `tables[0][i0] + tables[1][i1] + ...` over every index tuple (one entry, 0, for no
 * tables). A single table is returned as it is: callers pass tables they own.
 */
export function offsetsFromTables(tables: readonly Float64Array[]): Float64Array {
  if (tables.length === 1) return tables[0] as Float64Array;
  let n = 1;
  for (const t of tables) n *= t.length;
  const out = new Float64Array(n);
  if (n === 0) return out;
  let len = 1;
  for (const t of tables) {
    // Expand in place from the back: entry i becomes entries i * m .. i * m + m - 1, all at or after i.
    const m = t.length;
    for (let i = len - 1; i >= 0; i--) {
      const o = out[i] as number;
      const at = i * m;
      for (let j = m - 1; j >= 0; j--) out[at + j] = o + (t[j] as number);
    }
    len *= m;
  }
  return out;
}

/** The table of a plain dimension: `i * stride` for i < size. */
export function strideTable(size: number, stride: number): Float64Array {
  const t = new Float64Array(size);
  for (let i = 0; i < size; i++) t[i] = i * stride;
  return t;
}

/** The offsets of every element of a strided view of `sizes`, row-major. */
export function stridedOffsets(sizes: readonly number[], strides: readonly number[]): Float64Array {
  return offsetsFromTables(sizes.map((s, k) => strideTable(s, strides[k] as number)));
}

/** Element offsets, or null for the identity (offset i is i): a contiguous view needs no list. */
export type Offsets = Float64Array | null;

/** stridedOffsets, or null when the view is contiguous (large offset lists cost memory; see Offsets). */
export function viewOffsets(sizes: readonly number[], strides: readonly number[]): Offsets {
  let expected = 1;
  for (let k = sizes.length - 1; k >= 0; k--) {
    const size = sizes[k] as number;
    if (size === 0) return null;
    if (size !== 1 && strides[k] !== expected) return stridedOffsets(sizes, strides);
    expected *= size;
  }
  return null;
}

/** The strides of `t` expanded to `sizes` (right-aligned; broadcast dimensions get stride 0). */
export function expandedStrides(t: Tensor, sizes: readonly number[]): number[] {
  const off = sizes.length - t.dim();
  return sizes.map((_, k) => (k < off || t.sizes[k - off] === 1 ? 0 : (t.strides[k - off] as number)));
}

/** `y[i] = x[offsets[i]]` for i < n: y is contiguous from its first element. */
export function gatherElements(y: StoredElements, x: StoredElements, offsets: Offsets, n: number): void {
  if (offsets === null) moveElements(y, 0, x, 0, n);
  else gatherRuns(y, x, offsets, 1);
}

/**
 * Gathers runs of `run` consecutive elements: `y[i * run + k] = x[offsets[i] + k]` for k < run. Long runs (the
 * rows of index_select or x[idx] over a contiguous self) are block copies.
 */
export function gatherRuns(y: StoredElements, x: StoredElements, offsets: Float64Array, run: number): void {
  if (run >= 16) {
    for (let i = 0; i < offsets.length; i++) moveElements(y, i * run, x, offsets[i] as number, run);
    return;
  }
  const Y = wordsOf(y);
  const X = wordsOf(x);
  gatherWords(Y.data, Y.base, X.data, X.base, Y.w, run, offsets);
}

function gatherWords(yd: WordArray, yb: number, xd: WordArray, xb: number, w: number, run: number, offsets: Float64Array): void {
  const n = offsets.length;
  const words = w * run;
  if (words === 1) {
    for (let i = 0; i < n; i++) yd[yb + i] = xd[xb + (offsets[i] as number)] as number;
    return;
  }
  for (let i = 0; i < n; i++) {
    const s = xb + (offsets[i] as number) * w;
    const d = yb + i * words;
    for (let k = 0; k < words; k++) yd[d + k] = xd[s + k] as number;
  }
}

/**
 * How many of t's last dims (from `start` on, none of them in `skip`) form one contiguous run, and its length
 * in elements: gatherRuns copies those dims as blocks.
 */
export function trailingRun(t: Tensor, start: number, skip: (d: number) => boolean = () => false): { dims: number; run: number } {
  let run = 1;
  let dims = 0;
  for (let d = t.dim() - 1; d >= start && !skip(d); d--) {
    const size = t.sizes[d] as number;
    if (size !== 1 && t.strides[d] !== run) break;
    run *= size;
    dims++;
  }
  return { dims, run };
}

/** `y[yOffsets[i]] = x[xOffsets[i]]` for every i, in order (a later duplicate wins). */
export function scatterElements(y: StoredElements, yOffsets: Float64Array, x: StoredElements, xOffsets: Float64Array): void {
  const Y = wordsOf(y);
  const X = wordsOf(x);
  scatterWords(Y.data, Y.base, yOffsets, X.data, X.base, xOffsets, Y.w);
}

function scatterWords(yd: WordArray, yb: number, yo: Float64Array, xd: WordArray, xb: number, xo: Float64Array, w: number): void {
  const n = yo.length;
  if (w === 1) {
    for (let i = 0; i < n; i++) yd[yb + (yo[i] as number)] = xd[xb + (xo[i] as number)] as number;
    return;
  }
  for (let i = 0; i < n; i++) {
    const d = yb + (yo[i] as number) * w;
    const s = xb + (xo[i] as number) * w;
    for (let k = 0; k < w; k++) yd[d + k] = xd[s + k] as number;
  }
}

/**
 * `y[yOffsets[i]] += x[xOffsets[i]]` for every i, in order, added in `dtype` as PyTorch's CPU kernels add:
 * the typed-array store rounds float32 and wraps the integer types, float16 / bfloat16 add their decoded
 * values, bool ORs (true + true is true), complex adds each lane. int64 adds doubles (Note [Typed storage of
 * each dtype]).
 */
export function accumulateElements(
  dtype: ScalarType,
  y: StoredElements,
  yOffsets: Float64Array,
  x: StoredElements,
  xOffsets: Float64Array,
): void {
  const { data: yd, base: yb, lanes } = y;
  const { data: xd, base: xb } = x;
  const n = yOffsets.length;
  if (lanes === 2) {
    for (let i = 0; i < n; i++) {
      const d = yb + (yOffsets[i] as number) * 2;
      const s = xb + (xOffsets[i] as number) * 2;
      yd[d] = (yd[d] as number) + (xd[s] as number);
      yd[d + 1] = (yd[d + 1] as number) + (xd[s + 1] as number);
    }
  } else if (dtype === ScalarType.Half || dtype === ScalarType.BFloat16) {
    for (let i = 0; i < n; i++) {
      const d = yb + (yOffsets[i] as number);
      const sum = fromStored(dtype, yd[d] as number) + fromStored(dtype, xd[xb + (xOffsets[i] as number)] as number);
      yd[d] = toStored(dtype, sum);
    }
  } else if (dtype === ScalarType.Bool) {
    for (let i = 0; i < n; i++) {
      const d = yb + (yOffsets[i] as number);
      yd[d] = (yd[d] as number) | (xd[xb + (xOffsets[i] as number)] as number);
    }
  } else {
    for (let i = 0; i < n; i++) {
      const d = yb + (yOffsets[i] as number);
      yd[d] = (yd[d] as number) + (xd[xb + (xOffsets[i] as number)] as number);
    }
  }
}

/** The stored lanes of a scalar in `dtype`, converted as a C++ static_cast (the imaginary lane 0 for real dtypes). */
export function storedScalar(dtype: ScalarType, v: ScalarValue): readonly [number, number] {
  if (isComplexType(dtype)) return typeof v === 'object' ? [v[0], v[1]] : [Number(v), 0];
  return [toStored(dtype, typeof v === 'object' ? v[0] : Number(v)), 0];
}

/** Stores one scalar (its stored lanes, from storedScalar) at every offset. */
export function fillElementsAt(y: StoredElements, offsets: Float64Array, stored: readonly [number, number]): void {
  const { data, base, lanes } = y;
  const [re, im] = stored;
  const n = offsets.length;
  if (lanes === 1) {
    for (let i = 0; i < n; i++) data[base + (offsets[i] as number)] = re;
    return;
  }
  for (let i = 0; i < n; i++) {
    const d = base + (offsets[i] as number) * lanes;
    data[d] = re;
    data[d + 1] = im;
  }
}

/**
 * The entries of `targets` (of n) whose mask element is true: `mask` is a bool tensor read at `maskOffsets`
 * (one per target). Read its elements after the call's last allocation.
 */
export function selectWhere(mask: Tensor, maskOffsets: Offsets, targets: Offsets, n: number): Float64Array {
  const { data, base } = mask.dataView();
  const m = data as Uint8Array; // bool storage (Note [Typed storage of each dtype])
  const out = new Float64Array(n);
  let count = 0;
  for (let i = 0; i < n; i++) {
    if (m[base + (maskOffsets === null ? i : (maskOffsets[i] as number))] !== 0) {
      out[count++] = targets === null ? i : (targets[i] as number);
    }
  }
  return out.subarray(0, count);
}

/** The row-major positions (i < n) of the non-zero elements of `x` read at `offsets`: NaN is non-zero, -0 is zero. */
export function nonzeroPositions(dtype: ScalarType, x: StoredElements, offsets: Offsets, n: number): Float64Array {
  const { data, base, lanes } = x;
  const out = new Float64Array(n);
  let count = 0;
  const at = (i: number): number => base + (offsets === null ? i : (offsets[i] as number)) * lanes;
  if (lanes === 2) {
    for (let i = 0; i < n; i++) {
      const s = at(i);
      if ((data[s] as number) !== 0 || (data[s + 1] as number) !== 0) out[count++] = i;
    }
  } else if (dtype === ScalarType.Half || dtype === ScalarType.BFloat16) {
    // The sign bit alone is -0.
    for (let i = 0; i < n; i++) if (((data[at(i)] as number) & 0x7fff) !== 0) out[count++] = i;
  } else {
    for (let i = 0; i < n; i++) if ((data[at(i)] as number) !== 0) out[count++] = i;
  }
  return out.subarray(0, count);
}

/** The values of an int32 / int64 tensor (int64 is stored as doubles): value i is `data[base + (offsets?.[i] ?? i)]`, row-major. */
export function indexValues(index: Tensor): { data: StorageArray; base: number; offsets: Offsets } {
  const { data, base } = index.dataView();
  return { data, base, offsets: viewOffsets(index.sizes, index.strides) };
}

/** The size of dimension k, 1 for a 0-dim tensor (ensure_nonempty_size). */
export function sizeOr1(t: Tensor, k: number): number {
  return t.dim() === 0 ? 1 : (t.sizes[k] as number);
}

/** The stride of dimension k, 0 for a 0-dim tensor. */
export function strideOr0(t: Tensor, k: number): number {
  return t.dim() === 0 ? 0 : (t.strides[k] as number);
}

/** The element offsets in `t` of the positions of a tensor of `sizes` (t's strides, 0 for a 0-dim t). */
export function offsetsIn(t: Tensor, sizes: readonly number[]): Float64Array {
  const tables = new Array<Float64Array>(sizes.length);
  for (let k = 0; k < sizes.length; k++) tables[k] = strideTable(sizes[k] as number, strideOr0(t, k));
  return offsetsFromTables(tables);
}
