// libtorch's Tensor Indexing API: `x.index([Slice(), 1])` is Python's `x[:, 1]`, `x.index_put_([mask], 0)` is
// `x[mask] = 0`. Mirrors aten/src/ATen/TensorIndexing.h/.cpp (`at::indexing::Slice`, `Ellipsis`, `None`,
// `TensorIndex`, `applySlicing`, `get_item`, `set_item`, `copy_to`) and the Python-only parts of
// torch/csrc/autograd/python_variable_indexing.cpp (lists as index tensors, Python numbers as values, the
// "only integers, slices ..." and "can't assign" texts, how many dimensions a list counts for).

import { DeviceType } from '../c10/Device.js';
import { ScalarType, elementSize, isIntegralType } from '../c10/ScalarType.js';
import { isKw } from '../c10/Kwargs.js';
import { aten } from '../generated/Operators.js';
import { sameSizes } from '../tensor/ExpandUtils.js';
import { toStored, writeElement } from '../tensor/elements.js';
import { Storage, cpuAllocator } from '../tensor/Storage.js';
import { Tensor } from '../tensor/Tensor.js';
import { isTensor, typeName } from './python_arg_parser.js';

/** `at::indexing::INDEX_MAX`: an open slice end (int64's limit in C++; here the largest safe integer). */
export const INDEX_MAX = Number.MAX_SAFE_INTEGER;
/** `at::indexing::INDEX_MIN`: the open stop of a negative-step slice. */
export const INDEX_MIN = -Number.MAX_SAFE_INTEGER;

/** A slice bound: an integer, or `null`/`undefined` for Python's omitted bound (`None`). */
export type SliceBound = number | null | undefined;

/** `at::indexing::Slice`: Python's `start:stop:step`, bounds normalised as libtorch's constructor does. */
export interface Slice {
  /** The first index (0 when omitted; INDEX_MAX for a negative step). */
  readonly start: number;
  /** The end, exclusive (INDEX_MAX when omitted; INDEX_MIN for a negative step). */
  readonly stop: number;
  /** The step (1 when omitted; never 0). */
  readonly step: number;
}

/** `Slice(start?, stop?, step?)`, with or without `new`: `Slice()` is `:`, `Slice(1, null, 2)` is `1::2`. */
export interface SliceConstructor {
  /** `Slice(start, stop, step)`: a Slice. */
  (start?: SliceBound, stop?: SliceBound, step?: SliceBound): Slice;
  /** `new Slice(start, stop, step)`: the same. */
  new (start?: SliceBound, stop?: SliceBound, step?: SliceBound): Slice;
  readonly prototype: Slice;
}

function sliceBound(v: SliceBound, dflt: number): number {
  if (v === null || v === undefined) return dflt;
  if (typeof v !== 'number' || !Number.isInteger(v))
    throw new TypeError('slice indices must be integers or None or have an __index__ method');
  return v;
}

const printBound = (v: number): string => (v === INDEX_MAX ? '9223372036854775807' : v === INDEX_MIN ? '-9223372036854775808' : String(v));

class SliceImpl implements Slice {
  readonly start: number;
  readonly stop: number;
  readonly step: number;

  constructor(start: SliceBound, stop: SliceBound, step: SliceBound) {
    this.step = sliceBound(step, 1);
    if (this.step === 0) throw new RangeError('slice step cannot be zero');
    this.start = sliceBound(start, this.step < 0 ? INDEX_MAX : 0);
    this.stop = sliceBound(stop, this.step < 0 ? INDEX_MIN : INDEX_MAX);
  }

  /** libtorch's `operator<<(ostream, Slice)`: `start:stop:step`. */
  toString(): string {
    return `${printBound(this.start)}:${printBound(this.stop)}:${this.step}`;
  }
}

/** `at::indexing::Slice`: `Slice()` is `:`, `Slice(1)` `1:`, `Slice(null, 3)` `:3`, `Slice(1, null, 2)` `1::2`. */
export const Slice = function Slice(start?: SliceBound, stop?: SliceBound, step?: SliceBound): Slice {
  return new SliceImpl(start, stop, step);
} as unknown as SliceConstructor;
(Slice as unknown as { prototype: object }).prototype = SliceImpl.prototype;

/** `at::indexing::EllipsisIndexType`: the type of `Ellipsis` (Python's `...`). */
export class EllipsisIndexType {
  /** `...`, as libtorch prints it. */
  toString(): string {
    return '...';
  }
}

/** `at::indexing::Ellipsis`: Python's `...`; the string `'...'` means the same, as in libtorch. */
export const Ellipsis: EllipsisIndexType = Object.freeze(new EllipsisIndexType());

/** `at::indexing::None`: Python's `None` in an index (a new dimension of size 1); it is `null`. */
export const None = null;

/** A Python list as an index: nested arrays of integers (an int64 index tensor) or of booleans (a mask). */
export type IndexSequence = readonly (number | boolean | IndexSequence)[];

/**
 * `at::indexing::TensorIndex`: one element of an index list — an integer, a `Slice`, `Ellipsis` (or `'...'`),
 * `null` (None), a boolean, an index tensor (int64/int32 indices or a bool/uint8 mask) or a nested array.
 */
export type TensorIndex = number | boolean | null | Slice | EllipsisIndexType | '...' | Tensor | IndexSequence;

/** The value of `x.index_put_(indices, value)`: a tensor, or a number/boolean (cast to x's dtype). */
export type IndexValue = Tensor | number | boolean;

// Note [Index errors as PyTorch's]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The texts are PyTorch's; the types follow aten-ts's mapping of Python's: IndexError and ValueError are a
// RangeError, TypeError a TypeError, RuntimeError a plain Error.
const invalidIndexText = (type: string): string =>
  `only integers, slices (\`:\`), ellipsis (\`...\`), None and long or byte Variables are valid indices (got ${type})`;

function invalidIndex(obj: unknown): never {
  throw new RangeError(invalidIndexText(typeName(obj)));
}

function isEllipsis(obj: unknown): boolean {
  if (obj === Ellipsis || obj instanceof EllipsisIndexType) return true;
  if (typeof obj !== 'string') return false;
  if (obj !== '...') throw new RangeError(`Expected "..." to represent an ellipsis index, but got "${obj}"`);
  return true;
}

/** `count_specified_dimensions`: the dimensions an index list consumes (all but None, Ellipsis and booleans). */
function countSpecifiedDimensions(indices: readonly TensorIndex[]): number {
  let count = 0;
  for (const obj of indices) {
    if (isTensor(obj)) count += obj.scalarType === ScalarType.Byte || obj.scalarType === ScalarType.Bool ? obj.dim() : 1;
    // A list counts once, as Python counts it before turning it into a tensor (a 2-d bool list too).
    else if (obj !== null && typeof obj !== 'boolean' && !isEllipsis(obj)) count++;
  }
  return count;
}

/** `impl::applySelect`: `select`, after PyTorch's own bounds check (its text names the index's position). */
function applySelect(self: Tensor, dim: number, index: number, realDim: number): Tensor {
  if (index === 0 && dim === 0 && self.dim() === 0) {
    throw new RangeError(
      'invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ to convert a 0-dim tensor to a number',
    );
  }
  const size = self.sizes[dim] ?? 0; // PyTorch reads 0 past a 0-dim tensor's sizes
  if (!(size > -1 - index && size > index))
    throw new RangeError(`index ${index} is out of bounds for dimension ${realDim} with size ${size}`);
  return aten().select_int.call(self, dim, index);
}

/** `impl::applySlice`: `slice`, or self when the slice keeps the whole dimension (unless disabled). */
function applySlice(self: Tensor, dim: number, s: Slice, disableSliceOptimization: boolean): Tensor {
  if (!(s.step > 0)) throw new RangeError('step must be greater than zero');
  if (!disableSliceOptimization && self.dim() !== 0 && s.start === 0 && s.step === 1 && (self.sizes[dim] as number) <= s.stop) return self;
  return aten().slice_Tensor.call(self, dim, s.start, s.stop, s.step);
}

/** `impl::boolToIndexingTensor`: `true` indexes a new size-1 dimension as `0:`, `false` as empty. */
function boolToIndexingTensor(self: Tensor, value: boolean): Tensor {
  const t = aten().empty_memory_format.call([value ? 1 : 0], ScalarType.Long, null, self.device, null, null);
  return value ? aten().fill__Scalar.call(t, 0) : t;
}

/**
 * `sequenceToVariable` (torch::utils::indexing_tensor_from_data): a nested array as an index tensor, bool when
 * every element is a boolean, int64 otherwise (numbers truncated, as PyTorch converts floats).
 */
function sequenceToTensor(self: Tensor, seq: IndexSequence): Tensor {
  const sizes: number[] = [];
  for (let level: unknown = seq; Array.isArray(level); level = (level as unknown[])[0]) {
    sizes.push(level.length);
    if (level.length === 0) break;
  }
  const flat: (number | boolean)[] = [];
  const walk = (v: unknown, dim: number): void => {
    if (dim === sizes.length) {
      if (typeof v !== 'number' && typeof v !== 'boolean') throw new TypeError(`new(): invalid data type '${typeName(v)}'`);
      flat.push(v);
      return;
    }
    if (!Array.isArray(v)) throw new Error(`new(): expected sequence of length ${sizes[dim]} at dim ${dim} (got ${typeName(v)})`);
    if (v.length !== sizes[dim]) throw new Error(`expected sequence of length ${sizes[dim]} at dim ${dim} (got ${v.length})`);
    for (const x of v as unknown[]) walk(x, dim + 1);
  };
  walk(seq, 0);
  const dtype = flat.length > 0 && flat.every((v) => typeof v === 'boolean') ? ScalarType.Bool : ScalarType.Long;
  // Written on the CPU (a meta tensor has no data; meta self takes CPU indices), then moved to self's device.
  const t = aten().empty_memory_format.call(sizes, dtype, null, null, null, null);
  if (flat.length > 0) {
    const { data, base } = t.dataView();
    for (let i = 0; i < flat.length; i++) data[base + i] = toStored(dtype, Math.trunc(Number(flat[i])));
  }
  const device = self.device.type;
  return device === DeviceType.CPU || device === DeviceType.Meta ? t : t.to(self.device);
}

/** Where `applySlicing` is: the next dimension of the result, and how many the list specifies. */
interface SlicingState {
  dim: number;
  readonly specifiedDims: number;
}

/** `impl::recordTensorIndex`: an advanced index at the current dimension (a mask covers as many as it has). */
function recordTensorIndex(tensor: Tensor, outIndices: (Tensor | null)[], state: SlicingState): void {
  if (outIndices.length === 0) {
    while (outIndices.length < state.dim) outIndices.push(null);
  }
  outIndices.push(tensor);
  state.dim += tensor.scalarType === ScalarType.Byte || tensor.scalarType === ScalarType.Bool ? tensor.dim() : 1;
}

/** Slices after the first advanced index leave a `null` (a whole dimension) in the index list. */
function skipDims(outIndices: (Tensor | null)[], n: number): void {
  if (outIndices.length !== 0) for (let i = 0; i < n; i++) outIndices.push(null);
}

/** `handleDimInMultiDimIndexing`: one element of the list applied to the running result. */
function handleDim(
  prev: Tensor,
  original: Tensor,
  index: TensorIndex,
  state: SlicingState,
  realDim: number,
  outIndices: (Tensor | null)[],
  disableSliceOptimization: boolean,
): Tensor {
  if (typeof index === 'number') {
    if (!Number.isInteger(index)) invalidIndex(index);
    return applySelect(prev, state.dim, index, realDim);
  }
  if (index instanceof SliceImpl) {
    const result = applySlice(prev, state.dim, index, disableSliceOptimization);
    state.dim++;
    skipDims(outIndices, 1);
    return result;
  }
  if (index === null) {
    const result = aten().unsqueeze.call(prev, state.dim);
    state.dim++;
    skipDims(outIndices, 1);
    return result;
  }
  if (typeof index === 'boolean') {
    const result = aten().unsqueeze.call(prev, state.dim);
    recordTensorIndex(boolToIndexingTensor(result, index), outIndices, state);
    return result;
  }
  if (isEllipsis(index)) {
    const n = original.dim() - state.specifiedDims;
    state.dim += n;
    skipDims(outIndices, n);
    return prev;
  }
  let tensor: Tensor;
  if (isTensor(index)) tensor = index;
  else if (Array.isArray(index)) tensor = sequenceToTensor(original, index as IndexSequence);
  else if (index === undefined) throw new RangeError(invalidIndexText('undefined'));
  else return invalidIndex(index);
  const st = tensor.scalarType;
  if (tensor.dim() === 0 && isIntegralType(st, true)) {
    // A 0-dim integer tensor is an int (a view); a 0-dim mask a boolean.
    if (st !== ScalarType.Byte && st !== ScalarType.Bool) return applySelect(prev, state.dim, Number(tensor.item()), realDim);
    const result = aten().unsqueeze.call(prev, state.dim);
    recordTensorIndex(boolToIndexingTensor(result, Number(tensor.item()) !== 0), outIndices, state);
    return result;
  }
  recordTensorIndex(tensor, outIndices, state);
  return prev;
}

/** `impl::applySlicing`: the basic indices applied as views; the advanced ones collected in `outIndices`. */
function applySlicing(
  self: Tensor,
  indices: readonly TensorIndex[],
  outIndices: (Tensor | null)[],
  disableSliceOptimization: boolean,
): Tensor {
  const state: SlicingState = { dim: 0, specifiedDims: countSpecifiedDimensions(indices) };
  if (state.specifiedDims > self.dim()) throw new RangeError(`too many indices for tensor of dimension ${self.dim()}`);
  let result = self;
  for (let i = 0; i < indices.length; i++) {
    result = handleDim(result, self, indices[i] as TensorIndex, state, i, outIndices, disableSliceOptimization);
  }
  return result;
}

/** Trailing whole dimensions are not indices (`dispatch_index` pops them). */
function trimTrailingNulls(indices: (Tensor | null)[]): (Tensor | null)[] {
  while (indices.length > 0 && indices[indices.length - 1] === null) indices.pop();
  return indices;
}

function isSliceOf(v: unknown): v is SliceImpl {
  return v instanceof SliceImpl;
}

/**
 * `at::indexing::get_item` (THPVariable_getitem): `x.index(indices)` is Python's `x[indices...]`. Basic indices
 * (integers, slices, None, Ellipsis) give a view; any tensor, list or boolean makes it advanced indexing
 * (`aten::index`, a copy), advanced indices separated by a basic one moving their dimensions to the front.
 */
export function getItem(self: Tensor, indices: readonly TensorIndex[]): Tensor {
  if (indices.length === 1) {
    const index = indices[0] as TensorIndex;
    if (typeof index === 'number' && Number.isInteger(index)) return applySelect(self, 0, index, 0);
    if (isSliceOf(index)) return applySlice(self, 0, index, true);
    if (index === null) return aten().unsqueeze.call(self, 0);
    if (typeof index === 'boolean') {
      const result = aten().unsqueeze.call(self, 0);
      return aten().index_Tensor.call(result, [boolToIndexingTensor(result, index)]);
    }
    if (isEllipsis(index)) return aten().alias.call(self);
  }
  const tensorIndices: (Tensor | null)[] = [];
  const sliced = applySlicing(self, indices, tensorIndices, false);
  if (tensorIndices.length === 0) return sliced === self ? aten().alias.call(sliced) : sliced; // x[...] is a new view
  return aten().index_Tensor.call(sliced, trimTrailingNulls(tensorIndices));
}

/** `slicePrefix1sSize`: a value's sizes without its leading 1s (NumPy's rule for assigned values). */
function slicePrefix1sSize(sizes: readonly number[]): number[] {
  let first = 0;
  while (first < sizes.length && sizes[first] === 1) first++;
  return sizes.slice(first);
}

// Note [copy_to in setitem]
// ~~~~~~~~~~~~~~~~~~~~~~~~~
// Basic indexing assigns through the view: `copy_` when the value has the view's shape, `fill_` (fill_.Tensor)
// for a 0-dim value, otherwise the value without its leading 1s expanded to the view ("setitem"'s
// expand_inplace). The view's base records CopySlices; `x[...] = v` writes x itself (no view).
function copyTo(dst: Tensor, src: Tensor): void {
  if (sameSizes(dst.sizes, src.sizes)) {
    aten().copy_.call(dst, src, false);
    return;
  }
  if (src.dim() === 0 && !src.isMeta()) {
    aten().fill__Tensor.call(dst, src);
    return;
  }
  const view = aten().view.call(src, slicePrefix1sSize(src.sizes));
  const expanded = sameSizes(view.sizes, dst.sizes) ? view : aten().expand.call(view, [...dst.sizes], false);
  aten().copy_.call(dst, expanded, false);
}

/**
 * `valueToTensor` / `scalarToTensor`: a number or boolean as a 0-dim tensor of self's dtype (on CPU written
 * directly, as `scalar_tensor_static`, without a dispatched factory); anything else PyTorch's TypeError.
 */
function valueToTensor(self: Tensor, value: unknown): Tensor {
  if (isTensor(value)) return value;
  if (typeof value === 'number' || typeof value === 'boolean') {
    const v = Number(value);
    const st = self.scalarType;
    if (self.device.type !== DeviceType.CPU) return aten().full.call([], v, st, null, self.device, null);
    const t = new Tensor(new Storage(elementSize(st), cpuAllocator), st, [], [], 0);
    const { data, base } = t.dataView();
    writeElement(st, data, base, v);
    return t;
  }
  throw new TypeError(`can't assign a ${typeName(value)} to a ${self.typeString()}`);
}

/**
 * `at::indexing::set_item` (THPVariable_setitem): `x.index_put_(indices, value)` is Python's
 * `x[indices...] = value`. Basic indices copy into the view (Note [copy_to in setitem]); advanced ones call
 * `index_put_` with the value broadcast (its leading 1s dropped). A number is cast to x's dtype first.
 */
export function setItem(self: Tensor, indices: readonly TensorIndex[], v: unknown): void {
  const value = valueToTensor(self, v);
  if (indices.length === 1) {
    const index = indices[0] as TensorIndex;
    if (index === false) return; // x[False] = v changes nothing
    if (index === null || index === true) return copyTo(aten().unsqueeze.call(self, 0), value);
    if (typeof index === 'number' && Number.isInteger(index)) return copyTo(applySelect(self, 0, index, 0), value);
    if (isSliceOf(index)) return copyTo(applySlice(self, 0, index, false), value);
    if (!isTensor(index) && !Array.isArray(index) && isEllipsis(index)) return copyTo(self, value);
  }
  const tensorIndices: (Tensor | null)[] = [];
  const sliced = applySlicing(self, indices, tensorIndices, false);
  if (tensorIndices.length === 0) return copyTo(sliced, value);
  const valueSizes = slicePrefix1sSize(value.sizes);
  const values = valueSizes.length === value.dim() ? value : aten().view.call(value, valueSizes);
  aten().index_put_.call(sliced, trimTrailingNulls(tensorIndices), values, false);
}

// Note [The indexing API and aten's index]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// libtorch has two `Tensor::index` and `Tensor::index_put_`: the Tensor Indexing API (`ArrayRef<TensorIndex>`:
// Python's `x[...]`, `None` a new dimension) and aten's operators (`List<optional<Tensor>>`: `None` a whole
// dimension, `accumulate`). C++ tells them apart by static type; here the call's shape does. `x.index(list)` and
// `x.index_put_(list, value)` are the indexing API; `x.index({ indices })`, `x.index_put_(list, values,
// accumulate)` and the options forms are aten's operators, as are `torch.index`, `torch.index_put_` and
// `torch.ops.aten.index`. Python's `Tensor.index_put_(indices, values)` takes only tensors, where both
// readings agree on the values written (the indexing API treats a 0-dim integer tensor as an int, a view).
// Derivative formulas call the operator (`aten().index_Tensor`), never the method.

/** Installs the indexing API over the generated `index` / `index_put_` methods (Note [The indexing API and aten's index]). */
export function installTensorIndexing(proto: Tensor): void {
  const methods = proto as unknown as Record<'index' | 'index_put_', (this: Tensor, ...a: unknown[]) => unknown>;
  const atenIndex = methods.index;
  const atenIndexPut_ = methods.index_put_;
  Object.defineProperty(proto, 'index', {
    value: function index(this: Tensor, ...a: unknown[]): unknown {
      if (a.length === 1 && Array.isArray(a[0])) return getItem(this, a[0] as TensorIndex[]);
      return atenIndex.apply(this, a);
    },
    writable: true,
    configurable: true,
  });
  Object.defineProperty(proto, 'index_put_', {
    value: function index_put_(this: Tensor, ...a: unknown[]): unknown {
      if (a.length === 2 && Array.isArray(a[0]) && !isKw(a[1])) {
        setItem(this, a[0] as TensorIndex[], a[1]);
        return this;
      }
      return atenIndexPut_.apply(this, a);
    },
    writable: true,
    configurable: true,
  });
}
