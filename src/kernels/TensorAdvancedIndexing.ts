// Indexing kernels: index_select, gather, scatter, scatter_add, masked_fill, masked_select, nonzero,
// index.Tensor and index_put(_). Mirrors aten/src/ATen/native/TensorAdvancedIndexing.cpp (shape rules and
// error texts) and native/IndexingUtils.h; the element loops are in IndexKernel.ts.
// See Note [Indexing kernels move elements at offsets].

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, scalarTypeToString } from '../c10/ScalarType.js';
import { readElement } from '../tensor/elements.js';
import { formatSizes, inferSize } from '../tensor/ExpandUtils.js';
import type { Tensor } from '../tensor/Tensor.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';
import { warnOnce } from '../c10/Warning.js';
import {
  accumulateElements,
  expandedStrides,
  fillElementsAt,
  gatherElements,
  gatherRuns,
  indexValues,
  nonzeroPositions,
  offsetsFromTables,
  offsetsIn,
  scatterElements,
  selectWhere,
  sizeOr1,
  storedScalar,
  strideTable,
  strideOr0,
  stridedOffsets,
  trailingRun,
  viewOffsets,
} from './IndexKernel.js';
import { emptyLike } from './StorageAccess.js';
import { aten } from '../generated/Operators.js';
import * as at from '../generated/TensorBody.js';

function checkIndexDtype(index: Tensor, op: string): void {
  if (index.scalarType !== ScalarType.Long && index.scalarType !== ScalarType.Int) {
    throw new Error(`${op}(): Expected dtype ${op === 'index_select' ? 'int32 or int64' : 'int32/int64'} for index`);
  }
}

// Note [Index loops without closures]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The loops over index values are written out at each site (`indexValues`, then a plain for loop) instead of
// taking a callback: a closure made per call is optimized again by V8 whenever its call sites change
// (bench/RESULTS.md: scatter's was compiled 28 times in a steady-state MLP step). Same reason as
// Note [Row loops without closures] in src/iter/TensorIteratorInternal.ts.

/** A new contiguous tensor with t's values (a copy even when t is contiguous). */
export function contiguousCopy(t: Tensor): Tensor {
  const out = emptyLike(t, [...t.sizes]);
  if (!out.isMeta()) gatherElements(out.dataView(), t.dataView(), viewOffsets(t.sizes, t.strides), t.numel());
  return out;
}

/** `index_select(self, dim, index)`: index_select_out_cpu_'s checks, in its order. */
export function indexSelect(_ks: DispatchKeySet, self: Tensor, dim: number, index: Tensor): Tensor {
  const d = maybeWrapDim(dim, self.dim());
  if (index.dim() > 1) throw new Error('index_select(): Index is supposed to be a vector');
  const numel = index.numel();
  if (self.dim() === 0 && numel !== 1) throw new Error(`index_select(): Index to scalar can have only 1 value, got ${numel} value(s)`);
  checkIndexDtype(index, 'index_select');
  const sizes = [...self.sizes];
  if (self.dim() > 0) sizes[d] = numel;
  if (self.isMeta() || index.isMeta()) return emptyLike(self, sizes);
  const size = self.dim() === 0 ? 1 : (self.sizes[d] as number);
  if (self.dim() > 1 && numel === 0) return emptyLike(self, sizes);
  if (self.dim() > 1 && self.numel() === 0 && size <= 0) throw new Error('index_select(): self indexing axis dim should be positive');
  // The empty-self check and the dim-1 fast path (check_indexarray_range) report differently from the others.
  const arrayRange = self.dim() > 1 && (self.numel() === 0 || d === 1);
  const stride = self.dim() === 0 ? 0 : (self.strides[d] as number);
  const table = new Float64Array(numel);
  const ix = indexValues(index);
  for (let i = 0; i < numel; i++) {
    const v = ix.data[ix.base + (ix.offsets === null ? i : (ix.offsets[i] as number))] as number;
    if (v < 0 || v >= size) {
      throw new Error(arrayRange ? `INDICES element is out of DATA bounds, id=${v} axis_dim=${size}` : 'index out of range in self');
    }
    table[i] = v * stride;
  }
  const tables = self.sizes.map((s, k) => (k === d ? table : strideTable(s, self.strides[k] as number)));
  // The dims after d that are contiguous in self move as blocks.
  const { dims, run } = trailingRun(self, d + 1);
  const offsets = offsetsFromTables(tables.slice(0, tables.length - dims));
  const out = emptyLike(self, sizes);
  gatherRuns(out.dataView(), self.dataView(), offsets, run);
  return out;
}

/**
 * The offsets in `t` of the elements at index's positions with dimension `d` replaced by index's values
 * (checked against `size`, the dimension's size): scatter / gather's addressing.
 */
export function indexedOffsets(t: Tensor, d: number, index: Tensor, size: number): Float64Array {
  const isizes = index.sizes;
  const tables = new Array<Float64Array>(isizes.length);
  for (let k = 0; k < isizes.length; k++)
    tables[k] = k === d ? new Float64Array(isizes[k] as number) : strideTable(isizes[k] as number, strideOr0(t, k));
  const offsets = offsetsFromTables(tables);
  const stride = strideOr0(t, d);
  const ix = indexValues(index);
  for (let i = 0; i < offsets.length; i++) {
    const j = ix.data[ix.base + (ix.offsets === null ? i : (ix.offsets[i] as number))] as number;
    if (j < 0 || j >= size) throw new Error(`index ${j} is out of bounds for dimension ${d} with size ${size}`);
    offsets[i] = (offsets[i] as number) + j * stride;
  }
  return offsets;
}

/**
 * `gather(self, dim, index)`: out[i][j][k] = self[index[i][j][k]][j][k] (for dim 0). PyTorch's gather meta: the
 * result has index's sizes; an empty index skips the dtype and shape checks (any dtype); else int32/int64
 * and gather_shape_check, where a 0-dim tensor counts as 1-D of size 1 (ensure_nonempty_dim/size).
 */
export function gather(_ks: DispatchKeySet, self: Tensor, dim: number, index: Tensor): Tensor {
  const d = maybeWrapDim(dim, self.dim());
  if (index.numel() === 0) return emptyLike(self, [...index.sizes]);
  checkIndexDtype(index, 'gather');
  const dims = Math.max(self.dim(), 1);
  if (Math.max(index.dim(), 1) !== dims) throw new Error('Index tensor must have the same number of dimensions as input tensor');
  for (let k = 0; k < dims; k++) {
    if (k !== d && sizeOr1(index, k) > sizeOr1(self, k)) {
      throw new Error(
        `Size does not match at dimension ${k} expected index ${formatSizes(index.sizes)} to be no larger than self ${formatSizes(self.sizes)} apart from dimension ${d}`,
      );
    }
  }
  if (self.isMeta() || index.isMeta()) return emptyLike(self, [...index.sizes]);
  const out = emptyLike(self, [...index.sizes]);
  const offsets = indexedOffsets(self, d, index, sizeOr1(self, d));
  gatherElements(out.dataView(), self.dataView(), offsets, offsets.length);
  return out;
}

/** scatter_meta_impl's checks (scatter_gather_dtype_check, scatter_shape_check); returns the wrapped dim. */
export function scatterChecks(self: Tensor, dim: number, index: Tensor, src: Tensor | number): number {
  const d = maybeWrapDim(dim, self.dim());
  if (index.numel() > 0) checkIndexDtype(index, 'scatter');
  if (typeof src !== 'number' && src.scalarType !== self.scalarType)
    throw new Error('scatter(): Expected self.dtype to be equal to src.dtype');
  if (index.numel() > 0) {
    if (Math.max(index.dim(), 1) !== Math.max(self.dim(), 1))
      throw new Error('Index tensor must have the same number of dimensions as self tensor');
    if (typeof src !== 'number' && Math.max(index.dim(), 1) !== Math.max(src.dim(), 1))
      throw new Error('Index tensor must have the same number of dimensions as src tensor');
    let wrong = false;
    for (let k = 0; k < Math.max(self.dim(), 1); k++) if (k !== d && sizeOr1(index, k) > sizeOr1(self, k)) wrong = true;
    if (!wrong && typeof src !== 'number')
      for (let k = 0; k < Math.max(self.dim(), 1); k++) if (sizeOr1(index, k) > sizeOr1(src, k)) wrong = true;
    if (wrong) {
      const head = `Expected index ${formatSizes(index.sizes)} to be no larger than self ${formatSizes(self.sizes)} apart from dimension ${d}`;
      throw new Error(typeof src === 'number' ? head : `${head} and to be no larger size than src ${formatSizes(src.sizes)}`);
    }
  }
  return d;
}

function scatterImpl(self: Tensor, dim: number, index: Tensor, src: Tensor | number, add: boolean, inPlace = false): Tensor {
  // PyTorch's scatter_meta_impl (both checks named "scatter" for scatter_add too), then the kernel's bounds check.
  const d = scatterChecks(self, dim, index, src);
  if (self.isMeta() || index.isMeta() || (typeof src !== 'number' && src.isMeta()))
    return inPlace ? self : emptyLike(self, [...self.sizes]);
  const out = inPlace ? self : contiguousCopy(self); // scatter_ writes self through its strides
  const at = indexedOffsets(out, d, index, sizeOr1(self, d));
  if (typeof src === 'number') {
    fillElementsAt(out.dataView(), at, storedScalar(self.scalarType, src));
    return out;
  }
  if (inPlace && src.sharesStorageWith(self)) src = contiguousCopy(src); // read before anything is written
  const from = offsetsIn(src, index.sizes);
  if (add) accumulateElements(self.scalarType, out.dataView(), at, src.dataView(), from);
  else scatterElements(out.dataView(), at, src.dataView(), from);
  return out;
}

/** `scatter.src(self, dim, index, src)` and `scatter.value` (src a number): a new tensor; `scatter_`: into self. */
export function scatter(_ks: DispatchKeySet, self: Tensor, dim: number, index: Tensor, src: Tensor | number): Tensor {
  return scatterImpl(self, dim, index, src, false);
}
export function scatter_(_ks: DispatchKeySet, self: Tensor, dim: number, index: Tensor, src: Tensor | number): Tensor {
  return scatterImpl(self, dim, index, src, false, true);
}

/** `scatter_add(self, dim, index, src)`. */
export function scatterAdd(_ks: DispatchKeySet, self: Tensor, dim: number, index: Tensor, src: Tensor): Tensor {
  return scatterImpl(self, dim, index, src, true);
}

/**
 * `scatter.reduce(self, dim, index, src, *, reduce)` and `scatter.value_reduce` (src a number): reduce is
 * 'add' or 'multiply' (get_operator_enum), combining into a copy of self in index order.
 */
export function scatterReduce(_ks: DispatchKeySet, self: Tensor, dim: number, index: Tensor, src: Tensor | number, reduce: string): Tensor {
  // TORCH_WARN_ONCE of scatter.reduce's meta function (TensorAdvancedIndexing.cpp), before any check.
  if (typeof src !== 'number') {
    warnOnce(
      'scatter_reduce',
      'The reduce argument of torch.scatter with Tensor src is deprecated and will be removed in a future PyTorch release. ' +
        'Use torch.scatter_reduce instead for more reduction options.',
    );
  }
  if (reduce !== 'add' && reduce !== 'multiply') throw new Error('reduce argument must be either add or multiply.');
  if (reduce === 'add' && typeof src !== 'number') return scatterImpl(self, dim, index, src, true);
  // Shape, dtype and bounds checks of scatter, then combine at the written offsets.
  const written = scatterImpl(self, dim, index, src, false);
  if (written.isMeta()) return written;
  const out = contiguousCopy(self);
  const d = maybeWrapDim(dim, self.dim());
  const at = indexedOffsets(out, d, index, self.dim() === 0 ? 1 : (self.sizes[d] as number));
  const y = out.dataView();
  const lanes = y.lanes;
  let read: (i: number) => number;
  if (typeof src === 'number') read = () => src;
  else {
    const from = offsetsIn(src, index.sizes);
    const x = src.dataView();
    read = (i) => x.data[x.base + (from[i] as number) * x.lanes] as number;
  }
  const isBool = self.scalarType === ScalarType.Bool;
  for (let i = 0; i < at.length; i++) {
    const p = y.base + (at[i] as number) * lanes;
    const a = y.data[p] as number;
    const b = read(i);
    const r = reduce === 'add' ? a + b : a * b;
    y.data[p] = isBool ? (r !== 0 ? 1 : 0) : r;
  }
  return out;
}

function checkMaskDtype(mask: Tensor): void {
  if (mask.scalarType !== ScalarType.Bool) {
    throw new Error(
      `masked_fill_ only supports boolean masks, but got mask with dtype ${scalarTypeToString(mask.scalarType).toLowerCase()}`,
    );
  }
}

/** `masked_fill.Scalar(self, mask, value)`: mask must be bool and broadcast to self. */
export function maskedFill(_ks: DispatchKeySet, self: Tensor, mask: Tensor, value: number | boolean): Tensor {
  checkMaskDtype(mask);
  // As PyTorch's expand_outplace(mask, self): the result has the broadcast shape.
  const shape = inferSize(mask.sizes, self.sizes);
  if (self.isMeta() || mask.isMeta()) return emptyLike(self, shape);
  const from = viewOffsets(shape, expandedStrides(self, shape));
  const maskAt = viewOffsets(shape, expandedStrides(mask, shape));
  const out = emptyLike(self, shape);
  gatherElements(out.dataView(), self.dataView(), from, out.numel());
  fillElementsAt(out.dataView(), selectWhere(mask, maskAt, null, out.numel()), storedScalar(self.scalarType, value));
  return out;
}

/** `masked_fill_(self, mask, value)`: in place; the mask broadcasts to self, never the other way. */
export function maskedFill_(_ks: DispatchKeySet, self: Tensor, mask: Tensor, value: number | boolean): Tensor {
  const shape = inferSize(mask.sizes, self.sizes);
  if (shape.length !== self.sizes.length || shape.some((s, i) => s !== self.sizes[i])) {
    throw new Error(`output with shape [${self.sizes.join(', ')}] doesn't match the broadcast shape [${shape.join(', ')}]`);
  }
  checkMaskDtype(mask);
  if (self.isMeta() || mask.isMeta()) return self;
  // Writing self must not change the mask as it is read (b.masked_fill_(b, ...)): an aliasing mask is copied.
  const m = mask.sharesStorageWith(self) ? contiguousCopy(mask) : mask;
  const at = selectWhere(m, viewOffsets(shape, expandedStrides(m, shape)), viewOffsets(self.sizes, self.strides), self.numel());
  // Written in place: the operator's ADInplaceOrView kernel bumps self's version once.
  fillElementsAt(self.dataView(), at, storedScalar(self.scalarType, value));
  return self;
}

function maskedFillValue(value: Tensor): number | boolean {
  if (value.dim() !== 0) {
    throw new Error(`masked_fill_ only supports a 0-dimensional value tensor, but got tensor with ${value.dim()} dimension(s).`);
  }
  if (value.isMeta()) return 0;
  const v = at.item(value);
  return typeof v === 'boolean' ? v : Number(v);
}

/** `masked_fill.Tensor`: a 0-dim value (checked first, as PyTorch 2.13 orders it), then masked_fill.Scalar. */
export function maskedFillTensor(ks: DispatchKeySet, self: Tensor, mask: Tensor, value: Tensor): Tensor {
  return maskedFill(ks, self, mask, maskedFillValue(value));
}

/** `masked_fill_.Tensor(self, mask, value)`: masked_fill__cpu checks the value's dimension first. */
export function maskedFillTensor_(ks: DispatchKeySet, self: Tensor, mask: Tensor, value: Tensor): Tensor {
  return maskedFill_(ks, self, mask, maskedFillValue(value));
}

/** `masked_select(self, mask)`: the broadcast elements where mask is true, 1-D; CPU only (data-dependent size). */
export function maskedSelect(_ks: DispatchKeySet, self: Tensor, mask: Tensor): Tensor {
  if (mask.scalarType !== ScalarType.Bool) throw new Error(`masked_select: expected BoolTensor for mask`);
  const shape = inferSize(mask.sizes, self.sizes);
  const n = numelOf(shape);
  const from = selectWhere(mask, viewOffsets(shape, expandedStrides(mask, shape)), viewOffsets(shape, expandedStrides(self, shape)), n);
  const out = emptyLike(self, [from.length]);
  gatherElements(out.dataView(), self.dataView(), from, from.length);
  return out;
}

/** `nonzero(self)`: [n, ndim] int64 indices of the non-zero elements, row-major. */
export function nonzero(_ks: DispatchKeySet, self: Tensor): Tensor {
  return nonzeroOf(self);
}

function nonzeroOf(self: Tensor): Tensor {
  const nd = self.dim();
  // The number of rows depends on the data: PyTorch's Meta nonzero (and so boolean indexing) refuses.
  if (self.isMeta()) {
    throw new Error(
      "The register_meta function for torch.nonzero() raises unimplemented by default, as a correct data-independent implementation does not exist. This implementation returns a fake value, assuming all elements of the tensor are non-zero. To enable this registration, please set 'torch.fx.experimental._config.meta_nonzero_assume_all_nonzero' to True.",
    );
  }
  const positions = nonzeroPositions(self.scalarType, self.dataView(), viewOffsets(self.sizes, self.strides), self.numel());
  const n = positions.length;
  const out = emptyLike(self, [n, nd], ScalarType.Long);
  // int64 is stored as doubles (Note [Typed storage of each dtype]): coordinates are written as they are.
  const { data, base } = out.dataView();
  for (let r = 0; r < n; r++) {
    let flat = positions[r] as number;
    for (let k = nd - 1; k >= 0; k--) {
      const s = self.sizes[k] as number;
      data[base + r * nd + k] = flat % s;
      flat = Math.floor(flat / s);
    }
  }
  return out;
}

// Note [Advanced indexing]
// ~~~~~~~~~~~~~~~~~~~~~~~~
// `index.Tensor` and `index_put(_)` follow TensorAdvancedIndexing.cpp's make_info: a bool/uint8 mask of k dims
// becomes its k nonzero() columns, the index tensors broadcast together, and the result puts the broadcast
// index dims in place of the indexed dims when those are adjacent, or first when a null (a full `:` slice)
// separates them (numpy's rule). Every result element maps to one storage offset of self: the row-major sum
// of one table per result dim (i * stride for a sliced dim; for the broadcast index block, the sum over the
// indexed dims of index * stride). index reads those offsets and index_put_ writes them (checking every index
// before writing anything). A meta tensor gets the shape only (index_put(_) on meta checks nothing, as
// PyTorch's); a mask needs its data (nonzero's count), so masks on meta tensors are rejected.

/** An int32 / int64 index: a strided view of `tensor`, `offset` elements from its first element. */
interface IndexView {
  readonly tensor: Tensor;
  readonly sizes: readonly number[];
  readonly strides: readonly number[];
  readonly offset: number;
}

interface IndexPlan {
  /** The indexing result's shape. */
  sizes: number[];
  /** One offset table per result dim (the broadcast block as one), see offsetsFromTables; null for meta. */
  tables: Float64Array[] | null;
  /** One bool/uint8 mask and nothing else: index_put_ with one value goes through masked_fill. */
  singleMask: boolean;
  /** The last `dims` tables are self's trailing sliced dims, contiguous: `run` elements (see trailingRun). */
  trailing: { dims: number; run: number };
}

function numelOf(sizes: readonly number[]): number {
  return sizes.reduce((a, b) => a * b, 1);
}

function broadcastShapes(shapes: readonly (readonly number[])[]): number[] | null {
  const nd = Math.max(0, ...shapes.map((s) => s.length));
  const out = new Array<number>(nd).fill(1);
  for (const s of shapes) {
    for (let k = 0; k < s.length; k++) {
      const at = nd - s.length + k;
      const a = out[at] as number;
      const b = s[k] as number;
      if (a === 1) out[at] = b;
      else if (b !== 1 && b !== a) return null;
    }
  }
  return out;
}

/** The broadcast error of PyTorch's meta (Python) index: torch._prims_common's _broadcast_shapes text. */
function metaBroadcastMessage(shapes: readonly (readonly number[])[]): string {
  const common = new Array<number>(Math.max(...shapes.map((s) => s.length))).fill(1);
  for (let a = 0; a < shapes.length; a++) {
    const s = shapes[a] as readonly number[];
    for (let i = -1; i >= -s.length; i--) {
      const c = common[common.length + i] as number;
      const x = s[s.length + i] as number;
      if (c === 1) common[common.length + i] = x;
      else if (x !== 1 && x !== c) {
        return `Attempting to broadcast a dimension of length ${x} at ${i}! Mismatching argument at index ${a} had torch.Size([${s.join(', ')}]); but expected shape should be broadcastable to [${common.join(', ')}]`;
      }
    }
  }
  return 'shape mismatch';
}

function planIndex(self: Tensor, indices: readonly (Tensor | null)[]): IndexPlan {
  // PyTorch's IndexErrors (TORCH_CHECK_INDEX) are RangeErrors: see Note [Index errors as PyTorch's].
  if (indices.length > self.dim()) throw new RangeError(`too many indices for tensor of dimension ${self.dim()} (got ${indices.length})`);
  if (indices.length === 0) throw new RangeError('at least one index must be provided');
  for (const t of indices) {
    if (t !== null && ![ScalarType.Long, ScalarType.Int, ScalarType.Byte, ScalarType.Bool].includes(t.scalarType)) {
      throw new RangeError('tensors used as indices must be long, int, byte or bool tensors');
    }
  }
  const meta = self.isMeta() || indices.some((t) => t?.isMeta() === true);
  // Expand masks into their nonzero() columns.
  const expanded: (IndexView | null)[] = [];
  const masks = indices.filter((t) => t !== null && (t.scalarType === ScalarType.Bool || t.scalarType === ScalarType.Byte)).length;
  for (const t of indices) {
    if (t === null) {
      expanded.push(null);
      continue;
    }
    if (t.scalarType !== ScalarType.Bool && t.scalarType !== ScalarType.Byte) {
      expanded.push({ tensor: t, sizes: t.sizes, strides: t.strides, offset: 0 });
      continue;
    }
    const first = expanded.length;
    if (first + t.dim() > self.dim())
      throw new RangeError(`too many indices for tensor of dimension ${self.dim()} (got ${first + t.dim()})`);
    t.sizes.forEach((s, j) => {
      if (s !== self.sizes[first + j]) {
        throw new RangeError(
          `The shape of the mask ${formatSizes(t.sizes)} at index ${j} does not match the shape of the indexed tensor ${formatSizes(self.sizes)} at index ${first + j}`,
        );
      }
    });
    if (meta) throw new Error('index: a bool or uint8 mask needs data (its nonzero count), so it cannot index a meta tensor');
    const nz = nonzeroOf(t); // [n, k] contiguous: column j is the view of stride k from element j
    const k = t.dim();
    for (let j = 0; j < k; j++) expanded.push({ tensor: nz, sizes: [nz.sizes[0] as number], strides: [k], offset: j });
  }
  while (expanded.length < self.dim()) expanded.push(null);
  const used = expanded.flatMap((e, d) => (e === null ? [] : [d]));
  const singleMask = masks === 1 && indices.filter((t) => t !== null).length === 1;
  const plain = (d: number): Float64Array => strideTable(self.sizes[d] as number, self.strides[d] as number);
  const trailing = trailingRun(self, 0, (d) => expanded[d] !== null);
  if (used.length === 0) {
    return { sizes: [...self.sizes], tables: meta ? null : self.sizes.map((_, d) => plain(d)), singleMask, trailing };
  }
  const shapes = used.map((d) => (expanded[d] as IndexView).sizes);
  const bshape = broadcastShapes(shapes);
  if (bshape === null) {
    if (meta) throw new Error(metaBroadcastMessage(shapes));
    throw new RangeError(
      `shape mismatch: indexing tensors could not be broadcast together with shapes ${shapes.map(formatSizes).join(', ')}`,
    );
  }
  const adjacent = (used[used.length - 1] as number) - (used[0] as number) + 1 === used.length;
  const first = used[0] as number;
  const rest = self.sizes.flatMap((s, d) => (expanded[d] === null ? [s] : []));
  const sizes = adjacent ? [...self.sizes.slice(0, first), ...bshape, ...self.sizes.slice(first + used.length)] : [...bshape, ...rest];
  if (meta) return { sizes, tables: null, singleMask, trailing };
  // Bounds (every index before anything is written), then the block's table: each index broadcast to bshape.
  // See Note [Index loops without closures].
  for (let j = 0; j < used.length; j++) {
    const e = expanded[used[j] as number] as IndexView;
    const size = self.sizes[used[j] as number] as number;
    const { data, base } = e.tensor.dataView();
    const b = base + e.offset;
    const offsets = viewOffsets(e.sizes, e.strides);
    const n = numelOf(e.sizes);
    for (let i = 0; i < n; i++) {
      const v = data[b + (offsets === null ? i : (offsets[i] as number))] as number;
      // PyTorch's indexer numbers the index tensors (j), not self's dims.
      if (v < -size || v >= size) throw new RangeError(`index ${v} is out of bounds for dimension ${j} with size ${size}`);
    }
  }
  const block = new Float64Array(numelOf(bshape));
  for (const d of used) {
    const e = expanded[d] as IndexView;
    const size = self.sizes[d] as number;
    const stride = self.strides[d] as number;
    const off = bshape.length - e.sizes.length;
    const strides = bshape.map((_, k) => (k < off || e.sizes[k - off] === 1 ? 0 : (e.strides[k - off] as number)));
    const { data, base } = e.tensor.dataView();
    const p = base + e.offset;
    const offsets = viewOffsets(bshape, strides);
    for (let b = 0; b < block.length; b++) {
      const v = data[p + (offsets === null ? b : (offsets[b] as number))] as number;
      block[b] = (block[b] as number) + (v < 0 ? v + size : v) * stride;
    }
  }
  const sliced = self.sizes.flatMap((_, d) => (expanded[d] === null ? [plain(d)] : []));
  const tables = adjacent ? [...sliced.slice(0, first), block, ...sliced.slice(first)] : [block, ...sliced];
  return { sizes, tables, singleMask, trailing };
}

/** `index.Tensor(self, indices)`: `self[indices]` with tensor (or mask, or null for `:`) indices. */
export function index(_ks: DispatchKeySet, self: Tensor, indices: (Tensor | null)[]): Tensor {
  const plan = planIndex(self, indices);
  if (plan.tables === null) return emptyLike(self, plan.sizes);
  const { dims, run } = plan.trailing;
  const offsets = offsetsFromTables(plan.tables.slice(0, plan.tables.length - dims));
  const out = emptyLike(self, plan.sizes);
  gatherRuns(out.dataView(), self.dataView(), offsets, run);
  return out;
}

/** index_put_ on a tensor with data (the meta cases return before): checks every index, then writes self. */
function putInto(self: Tensor, indices: (Tensor | null)[], values: Tensor, accumulate: boolean): void {
  const plan = planIndex(self, indices);
  const off = plan.sizes.length - values.dim();
  const expandable = off >= 0 && values.sizes.every((s, k) => s === 1 || s === plan.sizes[k + off]);
  const maskedFill = plan.singleMask && !accumulate && values.numel() === 1;
  if (!maskedFill && !expandable) {
    throw new Error(
      `shape mismatch: value tensor of shape ${formatSizes(values.sizes)} cannot be broadcast to indexing result of shape ${formatSizes(plan.sizes)}`,
    );
  }
  if (!maskedFill && values.scalarType !== self.scalarType) {
    throw new Error(
      `Index put requires the source and destination dtypes match, got ${scalarTypeToString(self.scalarType)} for the destination and ${scalarTypeToString(values.scalarType)} for the source.`,
    );
  }
  const at = offsetsFromTables(plan.tables as Float64Array[]);
  if (maskedFill) {
    const v = values.dataView();
    fillElementsAt(self.dataView(), at, storedScalar(self.scalarType, readElement(values.scalarType, v.data, v.base)));
    return;
  }
  // Values that share self's memory are read before anything is written.
  const src = values.sharesStorageWith(self) ? contiguousCopy(values) : values;
  const from = stridedOffsets(plan.sizes, expandedStrides(src, plan.sizes));
  if (accumulate) accumulateElements(self.scalarType, self.dataView(), at, src.dataView(), from);
  else scatterElements(self.dataView(), at, src.dataView(), from);
}

function anyMeta(self: Tensor, indices: (Tensor | null)[], values: Tensor): boolean {
  return self.isMeta() || values.isMeta() || indices.some((t) => t?.isMeta() === true);
}

/** `index_put_(self, indices, values, accumulate=False)`: writes (or, accumulating, adds) values in place. */
export function indexPut_(_ks: DispatchKeySet, self: Tensor, indices: (Tensor | null)[], values: Tensor, accumulate = false): Tensor {
  // PyTorch's meta index_put(_) only returns self's shape: no index, shape or dtype checks.
  if (anyMeta(self, indices, values)) return self;
  // Written in place: index_put_'s own ADInplaceOrView kernel bumps self's version once.
  putInto(self, indices, values, accumulate);
  return self;
}

/** `index_put(self, indices, values, accumulate=False)`: index_put_ on a copy. */
export function indexPut(_ks: DispatchKeySet, self: Tensor, indices: (Tensor | null)[], values: Tensor, accumulate = false): Tensor {
  if (anyMeta(self, indices, values)) return emptyLike(self, [...self.sizes]);
  const out = contiguousCopy(self);
  putInto(out, indices, values, accumulate);
  return out;
}

/** Whether every value of an int64 tensor is in [0, size) (one read of its elements; Meta has none to read). */
function allWithin(index: Tensor, size: number): boolean {
  if (index.isMeta() || index.numel() === 0) return true;
  if (index.storage.deviceContext !== null) return false; // device memory the host cannot read now: wrap always
  const ix = indexValues(index);
  const n = index.numel();
  for (let i = 0; i < n; i++) {
    const j = ix.data[ix.base + (ix.offsets === null ? i : (ix.offsets[i] as number))] as number;
    if (j < 0 || j >= size) return false;
  }
  return true;
}

/*
 * Note [take_along_dim's index wrap]
 * ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * With a dim, PyTorch 2.13 wraps every index modulo the dim's size before gather (`indices % dim_size`, as in
 * torch/_refs take_along_dim): -1 is the last element, and -5 or 100 along a dim of 3 are no error but 1; a
 * dim of size 0 raises remainder's ZeroDivisionError. The wrap cannot move into gather's index read: gather
 * must keep rejecting out-of-range indices, and GatherBackward0 saves the index it was given, so the
 * backward's scatter_add needs the wrapped one. So `remainder` runs only when an index is outside
 * [0, size), which one read of the indices tells (no allocation, no dispatch): the usual call is a plain
 * gather. Indices in memory the host cannot read now (a device's, `storage.deviceContext`) are always
 * wrapped. The flat form (dim=None) does not wrap and keeps gather's bounds check, as PyTorch's.
 */

/**
 * `take_along_dim(self, indices, dim=None)`: `gather` after broadcasting self and indices against each other
 * outside `dim` (TensorAdvancedIndexing.cpp; GatherBackward0). Without `dim`, over the flattened tensors.
 */
export function takeAlongDim(_ks: DispatchKeySet, self: Tensor, indices: Tensor, dim: number | null = null): Tensor {
  if (indices.scalarType !== ScalarType.Long) {
    throw new Error(`torch.take_along_dim(): dtype of indices should be Long but got ${scalarTypeToString(indices.scalarType)}`);
  }
  if (dim === null) return aten().gather.call(aten().view.call(self, [-1]), 0, aten().view.call(indices, [-1]), false);
  if (self.dim() !== indices.dim()) {
    throw new Error(
      `torch.take_along_dim(): input and indices should have the same number of dimensions, but got ${self.dim()} dimensions for input, and ${indices.dim()} dimensions for indices`,
    );
  }
  const d = maybeWrapDim(dim, self.dim());
  const selfSizes = [...self.sizes];
  selfSizes[d] = indices.sizes[d] as number;
  const indexShape = inferSize(selfSizes, indices.sizes);
  const indexSizes = [...indices.sizes];
  indexSizes[d] = self.sizes[d] as number;
  const selfShape = inferSize(indexSizes, self.sizes);
  // See Note [take_along_dim's index wrap]
  const size = self.sizes[d] as number;
  const wrapped = allWithin(indices, size) ? indices : at.remainder_Scalar(indices, size);
  return aten().gather.call(aten().expand.call(self, selfShape, false), d, aten().expand.call(wrapped, indexShape, false), false);
}
