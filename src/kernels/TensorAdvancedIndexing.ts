// Indexing kernels: index_select, gather, scatter, scatter_add, masked_fill, masked_select, nonzero,
// index.Tensor and index_put(_). Mirrors aten/src/ATen/native/TensorAdvancedIndexing.cpp (shape rules and
// error texts) and native/IndexingUtils.h.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, scalarTypeToString } from '../c10/ScalarType.js';
import { belowADInplaceOrView } from '../dispatch/LocalDispatchKeySet.js';
import { aten } from '../generated/Operators.js';
import type { ScalarValue } from '../tensor/elements.js';
import { formatSizes, inferSize } from '../tensor/ExpandUtils.js';
import type { Tensor } from '../tensor/Tensor.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';
import { numberValuesOf, scalarValuesOf, tensorFromValues } from './rowMajor.js';
import { around } from './TensorShape.js';
import { ravel, unravel } from './TensorTransformations.js';

function checkIndexDtype(index: Tensor, op: string): void {
  if (index.dtype !== ScalarType.Long && index.dtype !== ScalarType.Int) {
    throw new Error(`${op}(): Expected dtype ${op === 'index_select' ? 'int32 or int64' : 'int32/int64'} for index`);
  }
}

/** `index_select(self, dim, index)`. */
export function indexSelect(_ks: DispatchKeySet, self: Tensor, dim: number, index: Tensor): Tensor {
  if (index.dim() > 1) throw new Error('index_select(): Index is supposed to be a vector');
  checkIndexDtype(index, 'index_select');
  const d = maybeWrapDim(dim, self.dim());
  const idx = numberValuesOf(index);
  const size = self.dim() === 0 ? 1 : (self.sizes[d] as number);
  for (const i of idx) if (i < -size || i >= size) throw new Error(`index out of range in self`);
  const sizes = self.dim() === 0 ? [] : [...self.sizes];
  if (self.dim() > 0) sizes[d] = idx.length;
  const [outer, , inner] = around(self.dim() === 0 ? [1] : self.sizes, self.dim() === 0 ? 0 : d);
  const v = scalarValuesOf(self);
  const out: ScalarValue[] = [];
  for (let o = 0; o < outer; o++) {
    for (const i of idx) {
      const j = i < 0 ? i + size : i;
      for (let k = 0; k < inner; k++) out.push(v[(o * size + j) * inner + k] as ScalarValue);
    }
  }
  return tensorFromValues(self, sizes, self.dtype, out);
}

/** `gather(self, dim, index)`: out[i][j][k] = self[index[i][j][k]][j][k] (for dim 0). */
export function gather(_ks: DispatchKeySet, self: Tensor, dim: number, index: Tensor): Tensor {
  checkIndexDtype(index, 'gather');
  if (index.dtype !== ScalarType.Long) throw new Error('gather(): Expected dtype int64 for index');
  const d = maybeWrapDim(dim, self.dim());
  if (index.dim() !== self.dim()) throw new Error('Index tensor must have the same number of dimensions as input tensor');
  index.sizes.forEach((s, k) => {
    if (k !== d && s > (self.sizes[k] as number)) {
      throw new Error(
        `Size does not match at dimension ${k} expected index ${formatSizes(index.sizes)} to be no larger than self ${formatSizes(self.sizes)} apart from dimension ${d}`,
      );
    }
  });
  const v = scalarValuesOf(self);
  const idx = numberValuesOf(index);
  const out = idx.map((j, i) => {
    const pos = unravel(i, index.sizes);
    const size = self.sizes[d] as number;
    if (j < -size || j >= size) throw new Error(`index ${j} is out of bounds for dimension ${d} with size ${size}`);
    pos[d] = j < 0 ? j + size : j;
    return v[ravel(pos, self.sizes)] as ScalarValue;
  });
  return tensorFromValues(self, [...index.sizes], self.dtype, out);
}

function scatterImpl(self: Tensor, dim: number, index: Tensor, src: Tensor | number, add: boolean): Tensor {
  // PyTorch's scatter_meta_impl: wrap dim, scatter_gather_dtype_check, scatter_shape_check (both named "scatter"
  // for scatter_add too), then the kernel's bounds check.
  const d = maybeWrapDim(dim, self.dim());
  checkIndexDtype(index, 'scatter');
  if (typeof src !== 'number' && src.dtype !== self.dtype) throw new Error('scatter(): Expected self.dtype to be equal to src.dtype');
  if (index.numel > 0) {
    if (Math.max(index.dim(), 1) !== Math.max(self.dim(), 1))
      throw new Error('Index tensor must have the same number of dimensions as self tensor');
    const size = (t: Tensor, k: number): number => (t.dim() === 0 ? 1 : (t.sizes[k] as number));
    let wrong = false;
    for (let k = 0; k < Math.max(self.dim(), 1); k++) if (k !== d && size(index, k) > size(self, k)) wrong = true;
    if (!wrong && typeof src !== 'number')
      for (let k = 0; k < Math.max(self.dim(), 1); k++) if (size(index, k) > size(src, k)) wrong = true;
    if (wrong) {
      const head = `Expected index ${formatSizes(index.sizes)} to be no larger than self ${formatSizes(self.sizes)} apart from dimension ${d}`;
      throw new Error(typeof src === 'number' ? head : `${head} and to be no larger size than src ${formatSizes(src.sizes)}`);
    }
  }
  const out = scalarValuesOf(self);
  const idx = numberValuesOf(index);
  const s = typeof src === 'number' ? null : scalarValuesOf(src);
  idx.forEach((j, i) => {
    const pos = unravel(i, index.sizes);
    const srcPos = s === null ? 0 : ravel(pos, (src as Tensor).sizes);
    const size = self.sizes[d] as number;
    if (j < -size || j >= size) throw new Error(`index ${j} is out of bounds for dimension ${d} with size ${size}`);
    pos[d] = j < 0 ? j + size : j;
    const at = ravel(pos, self.sizes);
    const value = s === null ? (src as number) : Number(s[srcPos]);
    out[at] = add ? Number(out[at]) + value : value;
  });
  return tensorFromValues(self, [...self.sizes], self.dtype, out);
}

/** `scatter.src(self, dim, index, src)` and `scatter.value` (src a number): a new tensor. */
export function scatter(_ks: DispatchKeySet, self: Tensor, dim: number, index: Tensor, src: Tensor | number): Tensor {
  return scatterImpl(self, dim, index, src, false);
}

/** `scatter_add(self, dim, index, src)`. */
export function scatterAdd(_ks: DispatchKeySet, self: Tensor, dim: number, index: Tensor, src: Tensor): Tensor {
  return scatterImpl(self, dim, index, src, true);
}

/** `masked_fill.Scalar(self, mask, value)`: mask must be bool and broadcast to self. */
export function maskedFill(_ks: DispatchKeySet, self: Tensor, mask: Tensor, value: number | boolean): Tensor {
  if (mask.dtype !== ScalarType.Bool) {
    throw new Error(`masked_fill_ only supports boolean masks, but got mask with dtype ${scalarTypeToString(mask.dtype).toLowerCase()}`);
  }
  // As PyTorch's expand_outplace(mask, self): the result has the broadcast shape.
  const shape = inferSize(mask.sizes, self.sizes);
  const m = scalarValuesOf(mask.expand(shape));
  const v = scalarValuesOf(self.expand(shape));
  return tensorFromValues(
    self,
    shape,
    self.dtype,
    v.map((x, i) => (m[i] === true ? Number(value) : x)),
  );
}

/** `masked_fill_(self, mask, value)`: in place; the mask broadcasts to self, never the other way. */
export function maskedFill_(ks: DispatchKeySet, self: Tensor, mask: Tensor, value: number | boolean): Tensor {
  const shape = inferSize(mask.sizes, self.sizes);
  if (shape.length !== self.sizes.length || shape.some((s, i) => s !== self.sizes[i])) {
    throw new Error(`output with shape [${self.sizes.join(', ')}] doesn't match the broadcast shape [${shape.join(', ')}]`);
  }
  const filled = maskedFill(ks, self, mask, value);
  if (self.isMeta()) return self;
  // The operator's ADInplaceOrView kernel bumps self once (Note [Fresh tensors start at version 0]).
  belowADInplaceOrView(() => aten().copy_.call(self, filled, false));
  return self;
}

function maskedFillValue(value: Tensor): number | boolean {
  if (value.dim() !== 0) {
    throw new Error(`masked_fill_ only supports a 0-dimensional value tensor, but got tensor with ${value.dim()} dimension(s).`);
  }
  if (value.isMeta()) return 0;
  const v = value.item();
  return typeof v === 'boolean' ? v : Number(v);
}

/**
 * `masked_fill.Tensor(self, mask, value)`: the value must be a 0-dimensional tensor (checked before the mask's
 * dtype and the broadcast, as PyTorch 2.13 orders them); then as masked_fill.Scalar with its element.
 */
export function maskedFillTensor(ks: DispatchKeySet, self: Tensor, mask: Tensor, value: Tensor): Tensor {
  return maskedFill(ks, self, mask, maskedFillValue(value));
}

/** `masked_fill_.Tensor(self, mask, value)`: masked_fill__cpu checks the value's dimension first. */
export function maskedFillTensor_(ks: DispatchKeySet, self: Tensor, mask: Tensor, value: Tensor): Tensor {
  return maskedFill_(ks, self, mask, maskedFillValue(value));
}

/** `masked_select(self, mask)`: the broadcast elements where mask is true, 1-D. */
export function maskedSelect(_ks: DispatchKeySet, self: Tensor, mask: Tensor): Tensor {
  if (mask.dtype !== ScalarType.Bool) throw new Error(`masked_select: expected BoolTensor for mask`);
  const shape = inferSize(mask.sizes, self.sizes);
  const v = scalarValuesOf(self.expand(shape));
  const m = scalarValuesOf(mask.expand(shape));
  const out = v.filter((_, i) => m[i] === true);
  return tensorFromValues(self, [out.length], self.dtype, out);
}

/** `nonzero(self)`: [n, ndim] int64 indices of the non-zero elements, row-major. */
export function nonzero(_ks: DispatchKeySet, self: Tensor): Tensor {
  const v = numberValuesOf(self);
  const rows: number[] = [];
  let n = 0;
  v.forEach((x, i) => {
    if (x !== 0) {
      rows.push(...unravel(i, self.sizes));
      n++;
    }
  });
  return tensorFromValues(self, [n, self.dim()], ScalarType.Long, rows);
}

// Note [Advanced indexing]
// ~~~~~~~~~~~~~~~~~~~~~~~~
// `index.Tensor` and `index_put(_)` follow TensorAdvancedIndexing.cpp's make_info: a bool/uint8 mask of k dims
// becomes its k nonzero() columns, the index tensors broadcast together, and the result puts the broadcast
// index dims in place of the indexed dims when those are adjacent, or first when a null (a full `:` slice)
// separates them (numpy's rule). Every result element maps to one row-major position of self; index reads
// those positions and index_put_ writes them (checking every index before writing anything). A meta tensor
// gets the shape only (index_put(_) on meta checks nothing, as PyTorch's); a mask needs its data (nonzero's count), so
// masks on meta tensors are rejected.

interface IndexPlan {
  /** The indexing result's shape. */
  sizes: number[];
  /** For each result element (row-major), its row-major position in self; null for meta. */
  positions: number[] | null;
  /** One bool/uint8 mask and nothing else: index_put_ with one value goes through masked_fill. */
  singleMask: boolean;
}

/** Broadcasts a row-major value list of shape `from` to shape `to` (right-aligned, sizes 1 repeat). */
function broadcastValues<T>(v: readonly T[], from: readonly number[], to: readonly number[]): T[] {
  const off = to.length - from.length;
  const n = to.reduce((a, b) => a * b, 1);
  const out = new Array<T>(n);
  for (let i = 0; i < n; i++) {
    const idx = unravel(i, to);
    let j = 0;
    for (let k = 0; k < from.length; k++) {
      const s = from[k] as number;
      j = j * s + (s === 1 ? 0 : (idx[k + off] as number));
    }
    out[i] = v[j] as T;
  }
  return out;
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
  if (indices.length > self.dim()) throw new Error(`too many indices for tensor of dimension ${self.dim()} (got ${indices.length})`);
  if (indices.length === 0) throw new Error('at least one index must be provided');
  for (const t of indices) {
    if (t !== null && ![ScalarType.Long, ScalarType.Int, ScalarType.Byte, ScalarType.Bool].includes(t.dtype)) {
      throw new Error('tensors used as indices must be long, int, byte or bool tensors');
    }
  }
  const meta = self.isMeta() || indices.some((t) => t?.isMeta() === true);
  // Expand masks into their nonzero() columns.
  const expanded: ({ sizes: number[]; values: number[] } | null)[] = [];
  const masks = indices.filter((t) => t !== null && (t.dtype === ScalarType.Bool || t.dtype === ScalarType.Byte)).length;
  for (const t of indices) {
    if (t === null) {
      expanded.push(null);
      continue;
    }
    if (t.dtype !== ScalarType.Bool && t.dtype !== ScalarType.Byte) {
      expanded.push({ sizes: [...t.sizes], values: meta ? [] : numberValuesOf(t) });
      continue;
    }
    const first = expanded.length;
    if (first + t.dim() > self.dim()) throw new Error(`too many indices for tensor of dimension ${self.dim()} (got ${first + t.dim()})`);
    t.sizes.forEach((s, j) => {
      if (s !== self.sizes[first + j]) {
        throw new Error(
          `The shape of the mask ${formatSizes(t.sizes)} at index ${j} does not match the shape of the indexed tensor ${formatSizes(self.sizes)} at index ${first + j}`,
        );
      }
    });
    if (meta) throw new Error('index: a bool or uint8 mask needs data (its nonzero count), so it cannot index a meta tensor');
    const m = numberValuesOf(t);
    const cols: number[][] = Array.from({ length: t.dim() }, () => []);
    m.forEach((x, i) => {
      if (x !== 0) unravel(i, t.sizes).forEach((c, k) => (cols[k] as number[]).push(c));
    });
    for (const c of cols) expanded.push({ sizes: [c.length], values: c });
  }
  while (expanded.length < self.dim()) expanded.push(null);
  const used = expanded.flatMap((e, d) => (e === null ? [] : [d]));
  const singleMask = masks === 1 && indices.filter((t) => t !== null).length === 1;
  if (used.length === 0) {
    const n = self.numel;
    return { sizes: [...self.sizes], positions: meta ? null : Array.from({ length: n }, (_, i) => i), singleMask };
  }
  const shapes = used.map((d) => (expanded[d] as { sizes: number[] }).sizes);
  const bshape = broadcastShapes(shapes);
  if (bshape === null) {
    if (meta) throw new Error(metaBroadcastMessage(shapes));
    throw new Error(`shape mismatch: indexing tensors could not be broadcast together with shapes ${shapes.map(formatSizes).join(', ')}`);
  }
  const adjacent = (used[used.length - 1] as number) - (used[0] as number) + 1 === used.length;
  const first = used[0] as number;
  const rest = self.sizes.flatMap((s, d) => (expanded[d] === null ? [s] : []));
  const sizes = adjacent ? [...self.sizes.slice(0, first), ...bshape, ...self.sizes.slice(first + used.length)] : [...bshape, ...rest];
  if (meta) return { sizes, positions: null, singleMask };
  // Bounds, then each index broadcast to the common shape.
  const idx: (number[] | null)[] = expanded.map((e, d) => {
    if (e === null) return null;
    const size = self.sizes[d] as number;
    const j = used.indexOf(d); // PyTorch's indexer numbers the index tensors, not self's dims
    for (const v of e.values)
      if (v < -size || v >= size) throw new Error(`index ${v} is out of bounds for dimension ${j} with size ${size}`);
    return broadcastValues(
      e.values.map((v) => (v < 0 ? v + size : v)),
      e.sizes,
      bshape,
    );
  });
  const n = sizes.reduce((a, b) => a * b, 1);
  const positions = new Array<number>(n);
  const bnd = bshape.length;
  for (let r = 0; r < n; r++) {
    const ri = unravel(r, sizes);
    const bpart = adjacent ? ri.slice(first, first + bnd) : ri.slice(0, bnd);
    const b = ravel(bpart, bshape);
    const selfIdx = new Array<number>(self.dim());
    let k = bnd; // the next sliced dim's position in the result (non-adjacent case)
    for (let d = 0; d < self.dim(); d++) {
      const e = idx[d];
      if (e !== null && e !== undefined) selfIdx[d] = e[b] as number;
      else if (!adjacent) selfIdx[d] = ri[k++] as number;
      else selfIdx[d] = ri[d < first ? d : d - used.length + bnd] as number;
    }
    positions[r] = ravel(selfIdx, self.sizes);
  }
  return { sizes, positions, singleMask };
}

/** `index.Tensor(self, indices)`: `self[indices]` with tensor (or mask, or null for `:`) indices. */
export function index(_ks: DispatchKeySet, self: Tensor, indices: (Tensor | null)[]): Tensor {
  const plan = planIndex(self, indices);
  if (plan.positions === null) return tensorFromValues(self, plan.sizes, self.dtype, []);
  const v = scalarValuesOf(self);
  return tensorFromValues(
    self,
    plan.sizes,
    self.dtype,
    plan.positions.map((p) => v[p] as ScalarValue),
  );
}

/** The row-major values of self after `index_put_`; null for meta (no checks, as PyTorch's meta kernel). */
function putValues(self: Tensor, indices: (Tensor | null)[], values: Tensor, accumulate: boolean): ScalarValue[] | null {
  // PyTorch's meta index_put(_) only returns self's shape: no index, shape or dtype checks.
  if (self.isMeta() || values.isMeta() || indices.some((t) => t?.isMeta() === true)) return null;
  const plan = planIndex(self, indices);
  const off = plan.sizes.length - values.dim();
  const expandable = off >= 0 && values.sizes.every((s, k) => s === 1 || s === plan.sizes[k + off]);
  const maskedFill = plan.singleMask && !accumulate && values.numel === 1;
  if (!maskedFill && !expandable) {
    throw new Error(
      `shape mismatch: value tensor of shape ${formatSizes(values.sizes)} cannot be broadcast to indexing result of shape ${formatSizes(plan.sizes)}`,
    );
  }
  if (!maskedFill && values.dtype !== self.dtype) {
    throw new Error(
      `Index put requires the source and destination dtypes match, got ${scalarTypeToString(self.dtype)} for the destination and ${scalarTypeToString(values.dtype)} for the source.`,
    );
  }
  if (plan.positions === null) return null;
  const out = scalarValuesOf(self);
  const src = maskedFill
    ? new Array<ScalarValue>(plan.positions.length).fill(scalarValuesOf(values)[0] as ScalarValue)
    : broadcastValues(scalarValuesOf(values), values.sizes, plan.sizes);
  const isBool = self.dtype === ScalarType.Bool;
  const isFloat32 = self.dtype === ScalarType.Float;
  plan.positions.forEach((p, i) => {
    const x = src[i] as ScalarValue;
    if (!accumulate) out[p] = maskedFill && !isBool && typeof x === 'boolean' ? Number(x) : x;
    else if (isBool) out[p] = out[p] === true || x === true;
    else {
      const sum = Number(out[p]) + Number(x);
      out[p] = isFloat32 ? Math.fround(sum) : sum;
    }
  });
  return out;
}

/** `index_put_(self, indices, values, accumulate=False)`: writes (or, accumulating, adds) values in place. */
export function indexPut_(_ks: DispatchKeySet, self: Tensor, indices: (Tensor | null)[], values: Tensor, accumulate = false): Tensor {
  const out = putValues(self, indices, values, accumulate);
  if (out === null) return self;
  // index_put_'s own ADInplaceOrView kernel bumps self once (Note [Fresh tensors start at version 0]).
  belowADInplaceOrView(() => aten().copy_.call(self, tensorFromValues(self, [...self.sizes], self.dtype, out), false));
  return self;
}

/** `index_put(self, indices, values, accumulate=False)`: index_put_ on a copy. */
export function indexPut(_ks: DispatchKeySet, self: Tensor, indices: (Tensor | null)[], values: Tensor, accumulate = false): Tensor {
  const out = putValues(self, indices, values, accumulate);
  return tensorFromValues(self, [...self.sizes], self.dtype, out ?? []);
}
