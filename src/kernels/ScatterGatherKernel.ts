// The reducing and indexed-write kernels of aten/src/ATen/native/cpu/ScatterGatherKernel.cpp and
// TensorAdvancedIndexing.cpp / cpu/IndexKernel.cpp beyond scatter and gather: scatter_reduce.two, index_add,
// index_copy, index_fill, index_reduce, put, take and masked_scatter (functional and in-place). The shape
// checks and error texts are PyTorch's (index_func_meta_impl, index_copy_, index_fill_, put_, take,
// masked_scatter_). See Note [Index ops as scatters along an expanded index].

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { isFloatingType, ScalarType, scalarTypeToString } from '../c10/ScalarType.js';
import * as at from '../generated/TensorBody.js';
import { assertNoInternalOverlap, assertNoOverlap } from '../iter/MemoryOverlap.js';
import { resizeOutput } from '../iter/Resize.js';
import { readElement, toStored } from '../tensor/elements.js';
import { formatSizes, inferSize } from '../tensor/ExpandUtils.js';
import type { Tensor } from '../tensor/Tensor.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';
import {
  fillElementsAt,
  indexValues,
  offsetsFromTables,
  offsetsIn,
  scatterElements,
  storedScalar,
  strideOr0,
  strideTable,
} from './IndexKernel.js';
import { emptyLike } from './StorageAccess.js';
import { contiguousCopy, indexedOffsets, scatterChecks } from './TensorAdvancedIndexing.js';

/*
 * Note [Index ops as scatters along an expanded index]
 * ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * index_add / index_copy / index_reduce(self, dim, index, source) write source's slice i into self's slice
 * index[i]: that is scatter_reduce along `dim` with index expanded to source's shape. Both kernels here turn
 * their arguments into the same pair of offset tables (where each source element lands in a contiguous copy
 * of self, where it is read in source) and run one loop, `combine`, in PyTorch's order: for one output element
 * the contributions come in increasing source position along `dim`, which is the order of PyTorch's CPU loops
 * (index_add's slice-by-slice add, the scatter kernels' inner loop over `dim`), so float sums round the same.
 * `include_self=False` starts every written element from the reduction's identity (scatter_reduce_two's
 * `self.scatter_(dim, index, init_val)`); amax/amin take the first contribution instead, which is the same value
 * (max(-inf, v) = v, NaN included) without needing an infinity in integer dtypes.
 */

type Reduce = 'sum' | 'prod' | 'mean' | 'amax' | 'amin';

/** The offsets in contiguous `out` of each element of `sizes` (row-major) with coordinate `d` replaced by index[i]. */
function expandedIndexOffsets(out: Tensor, d: number, ix: readonly number[], sizes: readonly number[]): Float64Array {
  if (sizes.length === 0) return Float64Array.of((ix[0] as number) * strideOr0(out, d));
  const tables = sizes.map((s, k) => {
    if (k !== d) return strideTable(s, strideOr0(out, k));
    return Float64Array.from(ix, (j) => j * strideOr0(out, d));
  });
  return offsetsFromTables(tables);
}

/** The index's values as numbers (row-major). */
function indexList(index: Tensor): number[] {
  const n = index.numel();
  const ix = indexValues(index);
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = ix.data[ix.base + (ix.offsets === null ? i : (ix.offsets[i] as number))] as number;
  return out;
}

function anyMeta(...ts: Tensor[]): boolean {
  return ts.some((t) => t.isMeta());
}

/**
 * Combines src's elements (at `from`) into out's (at `to`, out contiguous and a copy of self) in order; see
 * Note [Index ops as scatters along an expanded index]. `alpha` scales src (index_add).
 */
function combine(out: Tensor, to: Float64Array, src: Tensor, from: Float64Array, reduce: Reduce, includeSelf: boolean, alpha = 1): void {
  const dtype = out.scalarType;
  const y = out.dataView();
  const x = src.dataView();
  const n = to.length;
  const read = (d: typeof y, p: number): number => Number(readElement(dtype, d.data, d.base + p * d.lanes));
  const write = (p: number, v: number): void => {
    y.data[y.base + p * y.lanes] = toStored(dtype, v);
  };
  const touched = includeSelf ? null : new Set<number>();
  const counts = reduce === 'mean' ? new Map<number, number>() : null;
  const isBool = dtype === ScalarType.Bool;
  for (let i = 0; i < n; i++) {
    const p = to[i] as number;
    let b = read(x, from[i] as number);
    if (alpha !== 1) b = isBool ? (alpha !== 0 && b !== 0 ? 1 : 0) : alpha * b;
    const first = touched !== null && !touched.has(p);
    if (first) touched.add(p);
    if (counts !== null) counts.set(p, (counts.get(p) ?? (includeSelf ? 1 : 0)) + 1);
    if (first && (reduce === 'amax' || reduce === 'amin')) {
      write(p, b);
      continue;
    }
    const a = first ? (reduce === 'prod' ? 1 : 0) : read(y, p);
    let r: number;
    if (reduce === 'sum' || reduce === 'mean') r = isBool ? Number(a !== 0 || b !== 0) : a + b;
    else if (reduce === 'prod') r = a * b;
    else if (Number.isNaN(a) || Number.isNaN(b)) r = NaN;
    else r = reduce === 'amax' ? Math.max(a, b) : Math.min(a, b);
    write(p, r);
  }
  if (counts === null) return;
  const floating = isFloatingType(dtype);
  for (const [p, c] of counts) {
    const s = read(y, p);
    write(p, floating ? s / c : Math.floor(s / c));
  }
}

// ---- scatter_reduce.two -----------------------------------------------------------------------------------

const SCATTER_REDUCES = ['sum', 'prod', 'mean', 'amax', 'amin'];

/** `scatter_reduce.two(self, dim, index, src, reduce, *, include_self=True)`. */
export function scatterReduceTwo(
  _ks: DispatchKeySet,
  self: Tensor,
  dim: number,
  index: Tensor,
  src: Tensor,
  reduce: string,
  includeSelf = true,
): Tensor {
  if (!SCATTER_REDUCES.includes(reduce)) throw new Error(`reduce argument must be either sum, prod, mean, amax or amin, got ${reduce}`);
  const d = scatterChecks(self, dim, index, src);
  if (anyMeta(self, index, src)) return emptyLike(self, [...self.sizes]);
  const out = contiguousCopy(self);
  if (index.numel() === 0) return out;
  const to = indexedOffsets(out, d, index, self.dim() === 0 ? 1 : (self.sizes[d] as number));
  combine(out, to, src, offsetsIn(src, index.sizes), reduce as Reduce, includeSelf);
  return out;
}

export function scatterReduceTwo_(
  ks: DispatchKeySet,
  self: Tensor,
  dim: number,
  index: Tensor,
  src: Tensor,
  reduce: string,
  includeSelf = true,
): Tensor {
  return at.copy_(self, scatterReduceTwo(ks, self, dim, index, src, reduce, includeSelf));
}

// ---- index_add / index_copy / index_reduce --------------------------------------------------------------

/** index_func_meta_impl's checks (TensorAdvancedIndexing.cpp); returns the wrapped dim. */
function indexFuncChecks(self: Tensor, dim: number, index: Tensor, source: Tensor, func: string): number {
  const d = maybeWrapDim(dim, self.dim());
  const numel = index.numel();
  if (index.dim() > 1) {
    throw new RangeError(
      `${func}_(): Index is supposed to be a vector, but got dim: ${index.dim()} with type: ${scalarTypeToString(index.scalarType)} and size: ${formatSizes(index.sizes)}`,
    );
  }
  if (index.scalarType !== ScalarType.Long && index.scalarType !== ScalarType.Int) {
    throw new Error(`${func}_(): Expected dtype int32/int64 for index but got: ${scalarTypeToString(index.scalarType)}`);
  }
  if (self.scalarType !== source.scalarType) {
    throw new Error(
      `${func}_(): self (${scalarTypeToString(self.scalarType)}) and source (${scalarTypeToString(source.scalarType)}) must have the same scalar type`,
    );
  }
  if (!(d === 0 || d < source.dim()))
    throw new RangeError(`${func}_(): Indexing dim ${d} is out of bounds of the source tensor with dim ${source.dim()}`);
  const srcSize = source.dim() === 0 ? 1 : (source.sizes[d] as number);
  if (numel !== srcSize) {
    throw new Error(`${func}_(): Number of indices (${numel}) should be equal to source.size(dim): (${srcSize}), for dim: ${d}`);
  }
  // The shape check: source matches self outside `dim` (both taken as 1-d when 0-dim).
  const ss = self.dim() === 0 ? [1] : self.sizes;
  const rs = source.dim() === 0 ? [1] : source.sizes;
  if (ss.length !== rs.length || ss.some((s, k) => k !== d && s !== rs[k])) {
    throw new Error(
      `source tensor shape must match self tensor shape, excluding the specified dimension. Got self.shape = ${formatSizes(self.sizes)} source.shape = ${formatSizes(source.sizes)}`,
    );
  }
  return d;
}

/** The checked index values along `d` of self (PyTorch's bounds text of index_add / index_reduce). */
function checkedIndex(self: Tensor, d: number, index: Tensor, prefix: string): number[] {
  const size = self.dim() === 0 ? 1 : (self.sizes[d] as number);
  const ix = indexList(index);
  for (const j of ix) {
    if (j < -size || j >= size) throw new RangeError(`${prefix}index ${j} is out of bounds for dimension ${d} with size ${size}`);
  }
  return ix.map((j) => (j < 0 ? j + size : j));
}

function indexReduceImpl(
  self: Tensor,
  d: number,
  index: Tensor,
  source: Tensor,
  reduce: Reduce | 'copy',
  includeSelf: boolean,
  alpha: number,
  prefix: string,
): Tensor {
  const ix = checkedIndex(self, d, index, prefix);
  const out = contiguousCopy(self);
  const to = expandedIndexOffsets(out, source.dim() === 0 ? 0 : d, ix, source.sizes);
  const from = offsetsIn(source, source.sizes);
  if (reduce === 'copy') scatterElements(out.dataView(), to, source.dataView(), from);
  else combine(out, to, source, from, reduce, includeSelf, alpha);
  return out;
}

/** `index_add(self, dim, index, source, *, alpha=1)`. */
export function indexAdd(
  _ks: DispatchKeySet,
  self: Tensor,
  dim: number,
  index: Tensor,
  source: Tensor,
  alpha: number | boolean = 1,
): Tensor {
  const d = indexFuncChecks(self, dim, index, source, 'index_add');
  if (anyMeta(self, index, source)) return emptyLike(self, [...self.sizes]);
  return indexReduceImpl(self, d, index, source, 'sum', true, Number(alpha), '');
}

export function indexAdd_(
  ks: DispatchKeySet,
  self: Tensor,
  dim: number,
  index: Tensor,
  source: Tensor,
  alpha: number | boolean = 1,
): Tensor {
  return at.copy_(self, indexAdd(ks, self, dim, index, source, alpha));
}

const INDEX_REDUCES = ['prod', 'mean', 'amax', 'amin'];

/** `index_reduce(self, dim, index, source, reduce, *, include_self=True)`. */
export function indexReduce(
  _ks: DispatchKeySet,
  self: Tensor,
  dim: number,
  index: Tensor,
  source: Tensor,
  reduce: string,
  includeSelf = true,
): Tensor {
  if (!INDEX_REDUCES.includes(reduce))
    throw new Error(`index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got ${reduce}.`);
  const d = indexFuncChecks(self, dim, index, source, 'index_reduce');
  if (anyMeta(self, index, source)) return emptyLike(self, [...self.sizes]);
  return indexReduceImpl(self, d, index, source, reduce as Reduce, includeSelf, 1, '');
}

export function indexReduce_(
  ks: DispatchKeySet,
  self: Tensor,
  dim: number,
  index: Tensor,
  source: Tensor,
  reduce: string,
  includeSelf = true,
): Tensor {
  return at.copy_(self, indexReduce(ks, self, dim, index, source, reduce, includeSelf));
}

/** `index_copy(self, dim, index, source)`: index_copy_'s checks (TensorAdvancedIndexing.cpp), in its order. */
export function indexCopy(_ks: DispatchKeySet, self: Tensor, dim: number, index: Tensor, source: Tensor): Tensor {
  const d = maybeWrapDim(dim, self.dim());
  if (index.dim() >= 2) throw new RangeError(`index_copy_(): Index should have dimension 1 or 0 (got ${index.dim()})`);
  const numel = index.numel();
  if (source.dim() === 0 && numel !== 1) {
    throw new RangeError(`index_copy_(): When source is scalar, index should have one element (got ${numel})`);
  }
  if (source.dim() !== 0 && self.dim() !== 0 && source.dim() !== self.dim()) {
    throw new RangeError(
      `index_copy_(): When source and destination are not scalars, their dimensionality must match. Source dimensionality (${source.dim()}), destination dimensionality (${self.dim()})`,
    );
  }
  if (index.scalarType !== ScalarType.Long)
    throw new Error(`index_copy_(): Expected a long tensor for index, but got ${scalarTypeToString(index.scalarType)}`);
  if (self.scalarType !== source.scalarType) {
    throw new Error(
      `index_copy_(): self and source expected to have the same dtype, but got (self) ${scalarTypeToString(self.scalarType)} and (source) ${scalarTypeToString(source.scalarType)}`,
    );
  }
  const srcSize = source.dim() === 0 ? 1 : (source.sizes[d] as number);
  if (numel !== srcSize)
    throw new RangeError(`index_copy_(): Number of indices (${numel}) should be equal to source.size(dim) (${srcSize})`);
  if (source.dim() !== 0 && self.dim() !== 0 && self.sizes.some((s, k) => k !== d && s !== source.sizes[k])) {
    const slice = (t: Tensor): number[] => t.sizes.filter((_, k) => k !== d);
    throw new RangeError(
      `index_copy_(): Source/destination tensor must have same slice shapes. Destination slice shape: ${slice(self).join(' ')} at dimension ${d} and source slice shape: ${slice(source).join(' ')} at dimension 0.`,
    );
  }
  if (anyMeta(self, index, source)) return emptyLike(self, [...self.sizes]);
  return indexReduceImpl(self, d, index, source, 'copy', true, 1, 'index_copy_(): ');
}

export function indexCopy_(ks: DispatchKeySet, self: Tensor, dim: number, index: Tensor, source: Tensor): Tensor {
  return at.copy_(self, indexCopy(ks, self, dim, index, source));
}

// ---- index_fill ---------------------------------------------------------------------------------------------

/** `index_fill.int_Scalar(self, dim, index, value)` and `index_fill.int_Tensor` (value a 0-dim tensor). */
export function indexFill(_ks: DispatchKeySet, self: Tensor, dim: number, index: Tensor, value: number | boolean | Tensor): Tensor {
  if (typeof value === 'object' && value.dim() !== 0) {
    throw new Error(`index_fill_ only supports a 0-dimensional value tensor, but got tensor with ${value.dim()} dimension(s).`);
  }
  const d = maybeWrapDim(dim, self.dim());
  if (index.scalarType !== ScalarType.Long) throw new RangeError('index_fill_(): Expected dtype int64 for index.');
  if (index.dim() > 1) throw new RangeError('Index has to be a vector/scalar');
  if (anyMeta(self, index) || (typeof value === 'object' && value.isMeta())) return emptyLike(self, [...self.sizes]);
  const ix = checkedIndex(self, d, index, '');
  const out = contiguousCopy(self);
  const sizes = self.dim() === 0 ? [] : self.sizes.map((s, k) => (k === d ? ix.length : s));
  const to = sizes.length === 0 ? Float64Array.from(ix, () => 0) : expandedIndexOffsets(out, d, ix, sizes);
  const v = typeof value === 'object' ? readElement(value.scalarType, value.dataView().data, value.dataView().base) : value;
  fillElementsAt(out.dataView(), to, storedScalar(self.scalarType, v));
  return out;
}

export function indexFill_(ks: DispatchKeySet, self: Tensor, dim: number, index: Tensor, value: number | boolean | Tensor): Tensor {
  return at.copy_(self, indexFill(ks, self, dim, index, value));
}

// ---- put / take ---------------------------------------------------------------------------------------------

/** The flat (row-major) element offsets of `t` at the checked flat indices (negative counts from the end). */
function flatOffsets(t: Tensor, index: Tensor): Float64Array {
  const numel = t.numel();
  const ix = indexList(index);
  const all = offsetsIn(t, t.sizes);
  return Float64Array.from(ix, (j) => {
    if (j < -numel || j >= numel) throw new RangeError(`out of range: tried to access index ${j} on a tensor of ${numel} elements.`);
    return all[j < 0 ? j + numel : j] as number;
  });
}

/** `put(self, index, source, accumulate=False)`: put_ on a copy (TensorAdvancedIndexing.cpp's put_ checks). */
export function put(_ks: DispatchKeySet, self: Tensor, index: Tensor, source: Tensor, accumulate = false): Tensor {
  if (index.scalarType !== ScalarType.Long)
    throw new RangeError(`put_(): Expected a long tensor for index, but got ${scalarTypeToString(index.scalarType)}`);
  if (self.scalarType !== source.scalarType) {
    throw new Error(
      `put_(): self and source expected to have the same dtype, but got self.dtype = ${scalarTypeToString(self.scalarType)} and source.dtype = ${scalarTypeToString(source.scalarType)}`,
    );
  }
  if (source.numel() !== index.numel()) {
    throw new RangeError(
      `put_(): Expected source and index to have the same number of elements, but got source.numel() = ${source.numel()}, index.numel() = ${index.numel()}`,
    );
  }
  if (anyMeta(self, index, source)) return emptyLike(self, [...self.sizes]);
  const out = contiguousCopy(self);
  if (index.numel() === 0) return out;
  if (out.numel() === 0) throw new RangeError('cannot put with index into an empty tensor');
  const to = flatOffsets(out, index);
  const from = offsetsIn(source, source.sizes);
  if (accumulate) combine(out, to, source, from, 'sum', true);
  else scatterElements(out.dataView(), to, source.dataView(), from);
  return out;
}

export function put_(ks: DispatchKeySet, self: Tensor, index: Tensor, source: Tensor, accumulate = false): Tensor {
  return at.copy_(self, put(ks, self, index, source, accumulate));
}

/** `take(self, index)`: self's elements at flat indices, in index's shape. */
export function take(_ks: DispatchKeySet, self: Tensor, index: Tensor): Tensor {
  if (index.scalarType !== ScalarType.Long)
    throw new Error(`take(): Expected a long tensor for index, but got ${scalarTypeToString(index.scalarType)}`);
  const out = emptyLike(self, [...index.sizes]);
  if (anyMeta(self, index) || index.numel() === 0) return out;
  if (self.numel() === 0) throw new RangeError('take(): tried to take from an empty tensor');
  const from = flatOffsets(self, index);
  scatterElements(out.dataView(), strideTable(from.length, 1), self.dataView(), from);
  return out;
}

/** `take.out(self, index, *, out)`: take_out's checks (dtype, then the overlaps before the resize). */
export function takeOut(ks: DispatchKeySet, self: Tensor, index: Tensor, out: Tensor): Tensor {
  if (self.scalarType !== out.scalarType) {
    throw new Error(
      `take(): self and out expected to have the same dtype, but got self.dtype = ${scalarTypeToString(self.scalarType)} and out.dtype = ${scalarTypeToString(out.scalarType)}`,
    );
  }
  assertNoInternalOverlap(out);
  assertNoOverlap(out, index);
  assertNoOverlap(out, self);
  const r = take(ks, self, index);
  resizeOutput(out, r.sizes);
  return at.copy_(out, r);
}

// ---- masked_scatter -----------------------------------------------------------------------------------------

/** `masked_scatter(self, mask, source)`: source's leading elements, in order, where the broadcast mask is set. */
export function maskedScatter(_ks: DispatchKeySet, self: Tensor, mask: Tensor, source: Tensor): Tensor {
  if (mask.scalarType !== ScalarType.Bool) {
    throw new Error(`masked_scatter_ only supports boolean masks, but got mask with dtype ${scalarTypeToString(mask.scalarType)}`);
  }
  if (self.scalarType !== source.scalarType) {
    throw new Error(
      `masked_scatter: expected self and source to have same dtypes but got${scalarTypeToString(self.scalarType)} and ${scalarTypeToString(source.scalarType)}`,
    );
  }
  // The functional form broadcasts self and mask against each other (expand_outplace), then writes a copy.
  const shape = inferSize(self.sizes, mask.sizes);
  const m = at.expand(mask, shape);
  if (anyMeta(self, mask, source)) return emptyLike(self, shape);
  const out = contiguousCopy(at.expand(self, shape));
  const mo = offsetsIn(m, m.sizes);
  const mv = m.dataView();
  const to: number[] = [];
  for (let i = 0; i < mo.length; i++) if (mv.data[mv.base + (mo[i] as number)] !== 0) to.push(i);
  if (to.length > source.numel()) throw new Error('Number of elements of source < number of ones in mask');
  const from = offsetsIn(source, source.sizes).subarray(0, to.length);
  scatterElements(out.dataView(), Float64Array.from(to), source.dataView(), from);
  return out;
}

export function maskedScatter_(ks: DispatchKeySet, self: Tensor, mask: Tensor, source: Tensor): Tensor {
  return at.copy_(self, maskedScatter(ks, self, mask, source));
}
