// The CompositeImplicitAutograd shape functions of aten/src/ATen/native/TensorShape.cpp that decompose into
// other operators (autograd records those): atleast_1d/2d/3d, hstack, vstack, row_stack, dstack, column_stack,
// tensor_split, hsplit, vsplit, dsplit, movedim / moveaxis, ravel, meshgrid, diag, diagflat, and the
// CompositeExplicitAutograd diag_embed, block_diag and the *_scatter functions (slice/select/diagonal/
// as_strided_scatter), broadcast_to, sum_to_size, reshape_as / view_as and the unsafe_ splits.
// TensorShape.ts holds the view kernels themselves.

import { DeviceType } from '../c10/Device.js';
import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, scalarTypeToString } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import * as at from '../generated/TensorBody.js';
import { resultType } from '../iter/resultType.js';
import type { Tensor } from '../tensor/Tensor.js';
import { formatSizes, isExpandableTo } from '../tensor/ExpandUtils.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';
import { contiguousOf, elementReader } from './StorageAccess.js';
import { split, splitWithSizes } from './TensorShape.js';

// ---- atleast_Nd and the stacks --------------------------------------------------------------------------

export function atleast1d(_ks: DispatchKeySet, self: Tensor): Tensor {
  return self.dim() === 0 ? aten().reshape.call(self, [1]) : self;
}
export function atleast2d(_ks: DispatchKeySet, self: Tensor): Tensor {
  if (self.dim() === 0) return aten().reshape.call(self, [1, 1]);
  if (self.dim() === 1) return aten().unsqueeze.call(self, 0);
  return self;
}
export function atleast3d(_ks: DispatchKeySet, self: Tensor): Tensor {
  const ops = aten();
  if (self.dim() === 0) return ops.reshape.call(self, [1, 1, 1]);
  if (self.dim() === 1) return ops.unsqueeze.call(ops.unsqueeze.call(self, 0), -1);
  if (self.dim() === 2) return ops.unsqueeze.call(self, -1);
  return self;
}
export function atleast1dSequence(_ks: DispatchKeySet, tensors: Tensor[]): Tensor[] {
  return tensors.map((t) => aten().atleast_1d.call(t));
}
export function atleast2dSequence(_ks: DispatchKeySet, tensors: Tensor[]): Tensor[] {
  return tensors.map((t) => aten().atleast_2d.call(t));
}
export function atleast3dSequence(_ks: DispatchKeySet, tensors: Tensor[]): Tensor[] {
  return tensors.map((t) => aten().atleast_3d.call(t));
}

function nonEmpty(tensors: Tensor[], name: string): void {
  if (tensors.length === 0) throw new Error(`${name} expects a non-empty TensorList`);
}

export function hstack(_ks: DispatchKeySet, tensors: Tensor[]): Tensor {
  nonEmpty(tensors, 'hstack');
  const rep = aten().atleast_1d_Sequence.call(tensors);
  return aten().cat.call(rep, (rep[0] as Tensor).dim() === 1 ? 0 : 1);
}
export function vstack(_ks: DispatchKeySet, tensors: Tensor[]): Tensor {
  nonEmpty(tensors, 'vstack');
  return aten().cat.call(aten().atleast_2d_Sequence.call(tensors), 0);
}
export function dstack(_ks: DispatchKeySet, tensors: Tensor[]): Tensor {
  nonEmpty(tensors, 'dstack');
  return aten().cat.call(aten().atleast_3d_Sequence.call(tensors), 2);
}
export function columnStack(_ks: DispatchKeySet, tensors: Tensor[]): Tensor {
  nonEmpty(tensors, 'column_stack');
  const ops = aten();
  return ops.hstack.call(tensors.map((t) => (t.dim() <= 1 ? ops.reshape.call(t, [t.numel(), 1]) : t)));
}

// ---- tensor_split and the h/v/dsplits ---------------------------------------------------------------------

function splitInputCheck(self: Tensor): void {
  if (self.dim() === 0) {
    throw new Error(`tensor_split expected at least a 1-dimensional tensor, but got a tensor with ${self.dim()} dims`);
  }
}

export function tensorSplitSections(_ks: DispatchKeySet, self: Tensor, sections: number, dim = 0): Tensor[] {
  splitInputCheck(self);
  const d = maybeWrapDim(dim, self.dim());
  if (!(sections > 0)) throw new Error(`number of sections must be larger than 0, got ${sections}`);
  const size = self.sizes[d] as number;
  const minSplit = Math.trunc(size / sections);
  const extra = size % sections;
  const out: Tensor[] = [];
  let start = 0;
  for (let i = 0; i < sections; i++) {
    const n = i < extra ? minSplit + 1 : minSplit;
    out.push(aten().slice_Tensor.call(self, d, start, start + n, 1));
    start += n;
  }
  return out;
}

export function tensorSplitIndices(_ks: DispatchKeySet, self: Tensor, indices: number[], dim = 0): Tensor[] {
  splitInputCheck(self);
  const d = maybeWrapDim(dim, self.dim());
  const out: Tensor[] = [];
  let start = 0;
  for (const idx of indices) {
    out.push(aten().slice_Tensor.call(self, d, start, idx, 1));
    start = idx;
  }
  out.push(aten().slice_Tensor.call(self, d, start, self.sizes[d] as number, 1));
  return out;
}

export function tensorSplitTensor(ks: DispatchKeySet, self: Tensor, spec: Tensor, dim = 0): Tensor[] {
  splitInputCheck(self);
  if (spec.device.type !== DeviceType.CPU) {
    throw new Error(`tensor_split expected tensor_indices_or_sections to be on cpu, but it's on ${spec.device.toString()}`);
  }
  if (spec.scalarType !== ScalarType.Long) {
    throw new Error(
      `tensor_split expected tensor_indices_or_sections to have dtype of long, but got ${scalarTypeToString(spec.scalarType)}`,
    );
  }
  if (spec.dim() > 1) {
    throw new Error(
      `tensor_split expected tensor_indices_or_sections to be a zero-dimensional or one-dimensional tensor, but got a tensor with ${spec.dim()} dims`,
    );
  }
  if (spec.dim() === 0) return tensorSplitSections(ks, self, at.item(spec) as number, dim);
  const read = elementReader(contiguousOf(spec));
  const indices = Array.from({ length: spec.numel() }, (_, i) => read(i));
  return tensorSplitIndices(ks, self, indices, dim);
}

function dimSplitCheck(self: Tensor, name: string, min: number): void {
  if (self.dim() < min) {
    throw new Error(`torch.${name} requires a tensor with at least ${min} dimension, but got a tensor with ${self.dim()} dimensions!`);
  }
}
function sectionsCheck(self: Tensor, name: string, dim: number, sections: number): void {
  if (sections === 0 || (self.sizes[dim] as number) % sections !== 0) {
    throw new Error(
      `torch.${name} attempted to split along dimension ${dim}, but the size of the dimension ${self.sizes[dim]} is not divisible by the split_size ${sections}!`,
    );
  }
}

export function hsplitInt(_ks: DispatchKeySet, self: Tensor, sections: number): Tensor[] {
  dimSplitCheck(self, 'hsplit', 1);
  const dim = self.dim() === 1 ? 0 : 1;
  sectionsCheck(self, 'hsplit', dim, sections);
  return aten().tensor_split_sections.call(self, sections, dim);
}
export function hsplitArray(_ks: DispatchKeySet, self: Tensor, indices: number[]): Tensor[] {
  dimSplitCheck(self, 'hsplit', 1);
  return aten().tensor_split_indices.call(self, indices, self.dim() === 1 ? 0 : 1);
}
export function vsplitInt(_ks: DispatchKeySet, self: Tensor, sections: number): Tensor[] {
  dimSplitCheck(self, 'vsplit', 2);
  sectionsCheck(self, 'vsplit', 0, sections);
  return aten().tensor_split_sections.call(self, sections, 0);
}
export function vsplitArray(_ks: DispatchKeySet, self: Tensor, indices: number[]): Tensor[] {
  dimSplitCheck(self, 'vsplit', 2);
  return aten().tensor_split_indices.call(self, indices, 0);
}
export function dsplitInt(_ks: DispatchKeySet, self: Tensor, sections: number): Tensor[] {
  dimSplitCheck(self, 'dsplit', 3);
  sectionsCheck(self, 'dsplit', 2, sections);
  return aten().tensor_split_sections.call(self, sections, 2);
}
export function dsplitArray(_ks: DispatchKeySet, self: Tensor, indices: number[]): Tensor[] {
  dimSplitCheck(self, 'dsplit', 3);
  return aten().tensor_split_indices.call(self, indices, 2);
}

// ---- movedim, ravel -----------------------------------------------------------------------------------------

const fmtList = (v: readonly number[]): string => `[${v.join(', ')}]`;

export function movedimIntlist(_ks: DispatchKeySet, self: Tensor, source: number[], destination: number[]): Tensor {
  const n = self.dim();
  if (source.length !== destination.length) {
    throw new Error(
      `movedim: Invalid source or destination dims: source (${fmtList(source)} dims) should contain the same number of dims as destination (${fmtList(destination)} dims)`,
    );
  }
  const src = source.map((d) => maybeWrapDim(d, n));
  const dst = destination.map((d) => maybeWrapDim(d, n));
  if (new Set(src).size !== src.length) throw new Error(`movedim: repeated dim in \`source\` (${fmtList(source)})`);
  if (new Set(dst).size !== dst.length) throw new Error(`movedim: repeated dim in \`destination\` (${fmtList(destination)})`);
  if (n <= 1) return aten().alias.call(self);
  const order = new Array<number>(n).fill(-1);
  src.forEach((s, i) => (order[dst[i] as number] = s));
  const restSrc = [...Array(n).keys()].filter((d) => !src.includes(d));
  let r = 0;
  for (let i = 0; i < n; i++) if (order[i] === -1) order[i] = restSrc[r++] as number;
  return aten().permute.call(self, order);
}
export function movedimInt(_ks: DispatchKeySet, self: Tensor, source: number, destination: number): Tensor {
  return aten().movedim_intlist.call(self, [source], [destination]);
}
export function ravel(_ks: DispatchKeySet, self: Tensor): Tensor {
  return aten().view.call(aten().contiguous.call(self, 0), [-1]);
}

// ---- meshgrid -------------------------------------------------------------------------------------------

export function meshgridIndexing(_ks: DispatchKeySet, tensors: Tensor[], indexing: string): Tensor[] {
  const size = tensors.length;
  if (size === 0) throw new Error('meshgrid expects a non-empty TensorList');
  for (let i = 0; i < size - 1; i++) {
    if ((tensors[i] as Tensor).scalarType !== (tensors[i + 1] as Tensor).scalarType) {
      throw new Error('meshgrid expects all tensors to have the same dtype');
    }
  }
  let swap = false;
  if (indexing === 'xy') swap = size >= 2;
  else if (indexing !== 'ij') throw new Error(`torch.meshgrid: indexing must be one of "xy" or "ij", but received: ${indexing}`);
  const refs = [...tensors];
  if (swap) [refs[0], refs[1]] = [refs[1] as Tensor, refs[0] as Tensor];
  const shape = refs.map((t) => {
    if (t.dim() > 1) throw new Error(`torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: ${t.toString()}`);
    return t.numel();
  });
  const viewShape = new Array<number>(size).fill(1);
  const grids = refs.map((t, i) => {
    viewShape[i] = -1;
    const g = aten().expand.call(aten().view.call(t, [...viewShape]), shape, false);
    viewShape[i] = 1;
    return g;
  });
  if (swap) [grids[0], grids[1]] = [grids[1] as Tensor, grids[0] as Tensor];
  return grids;
}
export function meshgrid(ks: DispatchKeySet, tensors: Tensor[]): Tensor[] {
  return meshgridIndexing(ks, tensors, 'ij');
}

// ---- diag, diagflat, diag_embed, block_diag ------------------------------------------------------------------

export function diag(_ks: DispatchKeySet, self: Tensor, diagonal = 0): Tensor {
  const n = self.dim();
  if (n !== 1 && n !== 2) throw new Error(`diag(): Supports 1D or 2D tensors. Got ${n}D`);
  if (n === 1) return aten().diag_embed.call(self, diagonal, -2, -1);
  return aten().diagonal_copy.call(self, diagonal, 0, 1);
}
export function diagflat(_ks: DispatchKeySet, self: Tensor, offset = 0): Tensor {
  return aten().diag.call(aten().view.call(aten().contiguous.call(self, 0), [-1]), offset);
}

/** `diag_embed(self, offset=0, dim1=-2, dim2=-1)`: zeros with self's last dim on the chosen diagonal. */
export function diagEmbed(_ks: DispatchKeySet, self: Tensor, offset = 0, dim1 = -2, dim2 = -1): Tensor {
  const nDims = self.dim() + 1;
  const d1 = maybeWrapDim(dim1, nDims);
  const d2 = maybeWrapDim(dim2, nDims);
  if (d1 === d2) throw new Error(`diagonal dimensions cannot be identical ${dim1}, ${dim2}`);
  const len = Math.abs(offset) + (self.dim() === 0 ? 1 : (self.sizes[self.dim() - 1] as number));
  const sizes = self.dim() === 0 ? [] : self.sizes.slice(0, -1);
  sizes.splice(Math.min(d1, d2), 0, len);
  sizes.splice(Math.max(d1, d2), 0, len);
  const ops = aten();
  const result = ops.zeros.call(sizes, self.scalarType, null, self.device, null);
  ops.copy_.call(ops.diagonal.call(result, offset, d1, d2), self, false);
  return result;
}

/** `block_diag(tensors)`: the 0-, 1- and 2-d inputs on the diagonal of one matrix of their promoted dtype. */
export function blockDiag(_ks: DispatchKeySet, tensors: Tensor[]): Tensor {
  const ops = aten();
  if (tensors.length === 0) return ops.empty_memory_format.call([1, 0], null, null, null, null, null);
  const dtype = resultType(tensors);
  let rows = 0;
  let cols = 0;
  const mats = tensors.map((t, i) => {
    if (t.dim() > 2) {
      throw new Error(`torch.block_diag: Input tensors must have 2 or fewer dimensions. Input ${i} has ${t.dim()} dimensions`);
    }
    const m = t.dim() === 0 ? ops.reshape.call(t, [1, 1]) : t.dim() === 1 ? ops.unsqueeze.call(t, 0) : t;
    rows += m.sizes[0] as number;
    cols += m.sizes[1] as number;
    return m;
  });
  const result = ops.zeros.call([rows, cols], dtype, null, (tensors[0] as Tensor).device, null);
  let r = 0;
  let c = 0;
  for (const m of mats) {
    const [h, w] = [m.sizes[0] as number, m.sizes[1] as number];
    ops.copy_.call(ops.slice_Tensor.call(ops.slice_Tensor.call(result, 0, r, r + h, 1), 1, c, c + w, 1), m, false);
    r += h;
    c += w;
  }
  return result;
}

// ---- the *_scatter functions (TensorShape.cpp): self's copy with src written into one of its views -------

/** The copy of self with src copied into the view `slice` takes of it (after PyTorch's size check). */
function scatterInto(output: Tensor, slice: Tensor, src: Tensor): Tensor {
  if (slice.sizes.length !== src.sizes.length || slice.sizes.some((s, k) => s !== src.sizes[k])) {
    throw new Error(
      `expected src to have a size equal to the slice of self. src size = ${formatSizes(src.sizes)}, slice size = ${formatSizes(slice.sizes)}`,
    );
  }
  at.copy_(slice, src);
  return output;
}

export function sliceScatter(
  _ks: DispatchKeySet,
  self: Tensor,
  src: Tensor,
  dim = 0,
  start: number | null = null,
  end: number | null = null,
  step = 1,
): Tensor {
  const output = at.clone(self);
  return scatterInto(output, at.slice_Tensor(output, dim, start, end, step), src);
}
export function selectScatter(_ks: DispatchKeySet, self: Tensor, src: Tensor, dim: number, index: number): Tensor {
  const output = at.clone(self);
  return scatterInto(output, at.select_int(output, dim, index), src);
}
export function diagonalScatter(_ks: DispatchKeySet, self: Tensor, src: Tensor, offset = 0, dim1 = 0, dim2 = 1): Tensor {
  const output = at.clone(self);
  return scatterInto(output, at.diagonal(output, offset, dim1, dim2), src);
}
export function asStridedScatter(
  _ks: DispatchKeySet,
  self: Tensor,
  src: Tensor,
  size: number[],
  stride: number[],
  storageOffset: number | null = null,
): Tensor {
  const output = at.clone(self);
  return scatterInto(output, at.as_strided(output, size, stride, storageOffset), src);
}

// ---- broadcast_to, sum_to_size, reshape_as / view_as, the unsafe_ splits ------------------------------------

/** `broadcast_to(self, size)`: `expand(size)` (CompositeImplicitAutograd, ExpandBackward0). */
export function broadcastTo(_ks: DispatchKeySet, self: Tensor, size: number[]): Tensor {
  return at.expand(self, size);
}

/** `Tensor.sum_to_size(size)`: ExpandUtils.h's sum_to: sums the leading and broadcast dims, then a view. */
export function sumToSize(_ks: DispatchKeySet, self: Tensor, size: number[]): Tensor {
  if (!isExpandableTo(size, self.sizes)) {
    throw new Error(`size {${formatSizes(size)}} is not expandable to size {${formatSizes(self.sizes)}}.`);
  }
  if (size.length === 0) return at.sum(self);
  const sizes = self.sizes;
  const lead = sizes.length - size.length;
  const dims: number[] = [];
  for (let i = 0; i < lead; i++) dims.push(i);
  for (let i = lead; i < sizes.length; i++) if (size[i - lead] === 1 && sizes[i] !== 1) dims.push(i);
  const r = dims.length > 0 ? at.sum_dim_IntList(self, dims, true) : self;
  return lead > 0 ? at.view(r, size) : r;
}

/** `Tensor.reshape_as(other)`: `reshape(other.sizes())`. */
export function reshapeAs(_ks: DispatchKeySet, self: Tensor, other: Tensor): Tensor {
  return at.reshape(self, other.sizes);
}

/** `Tensor.view_as(other)`: `view(other.sizes())`. */
export function viewAs(_ks: DispatchKeySet, self: Tensor, other: Tensor): Tensor {
  return at.view(self, other.sizes);
}

/**
 * `unsafe_split(self, split_size, dim)`: split's views, as outputs of an operator that does not alias
 * (PyTorch resets their version counters; autograd records UnsafeSplitBackward0).
 */
export function unsafeSplit(ks: DispatchKeySet, self: Tensor, splitSize: number, dim = 0): Tensor[] {
  return split(ks, self, splitSize, dim);
}

/** `unsafe_split_with_sizes(self, split_sizes, dim)`: as unsafe_split, over split_with_sizes. */
export function unsafeSplitWithSizes(ks: DispatchKeySet, self: Tensor, splitSizes: number[], dim = 0): Tensor[] {
  return splitWithSizes(ks, self, splitSizes, dim);
}

/** `unsafe_chunk(self, chunks, dim)`: chunk's arithmetic over the unsafe splits (TensorShape.cpp). */
export function unsafeChunk(_ks: DispatchKeySet, self: Tensor, chunks: number, dim = 0): Tensor[] {
  if (self.dim() === 0) throw new Error('chunk expects at least a 1-dimensional tensor');
  if (chunks <= 0) throw new Error(`chunk expects \`chunks\` to be greater than 0, got: ${chunks}`);
  const d = maybeWrapDim(dim, self.dim());
  const size = self.sizes[d] as number;
  const splitSize = Math.ceil(size / chunks);
  if (splitSize === 0 && size === 0) return at.unsafe_split_with_sizes(self, new Array<number>(chunks).fill(0), d);
  return at.unsafe_split_Tensor(self, splitSize, d);
}

// ---- _chunk_cat (TensorShape.cpp) ---------------------------------------------------------------------------

/** _chunk_cat_check: PyTorch's checks and texts, in its order; returns the wrapped dim. */
function chunkCatCheck(tensors: Tensor[], dim: number, numChunks: number): number {
  if (tensors.length === 0) throw new Error('_chunk_cat expects a non-empty input tensor list');
  const first = tensors[0] as Tensor;
  for (const t of tensors) {
    if (t.numel() <= 0) throw new Error('_chunk_cat expects non-empty tensor');
    if (t.scalarType !== first.scalarType) throw new Error('_chunk_cat expects all input tensors with the same dtype');
    if (!t.device.equals(first.device)) throw new Error('_chunk_cat expects all inputs tensors on the same device');
  }
  if (numChunks < 1) throw new Error('_chunk_cat expects positive num_chunks');
  if (tensors.every((t) => t.dim() === first.dim())) return maybeWrapDim(dim, first.dim());
  if (dim < 0) throw new Error('_chunk_cat expects non-negative dim when input tensors have different ndims');
  if (tensors.some((t) => dim >= t.dim())) throw new Error('_chunk_cat expects dim < ndim for all input tensors');
  for (const t of tensors) {
    for (let i = 0; i < dim; i++) {
      if (t.sizes[i] !== first.sizes[i]) throw new Error('_chunk_cat expects same sizes of 0,...,dim-1 dimensions for all tensors');
    }
  }
  return dim;
}

/**
 * `_chunk_cat(tensors, dim, num_chunks)`: each tensor zero-padded along dim to a multiple of num_chunks, viewed
 * as [...sizes[:dim], num_chunks, -1], and the views concatenated along dim + 1.
 */
export function chunkCat(_ks: DispatchKeySet, tensors: Tensor[], dim: number, numChunks: number): Tensor {
  const d = chunkCatCheck(tensors, dim, numChunks);
  const views = tensors.map((t) => {
    const size = t.sizes[d] as number;
    const padded = Math.ceil(size / numChunks) * numChunks;
    let p = t;
    if (padded !== size) {
      const sizes = [...t.sizes];
      sizes[d] = padded;
      p = at.new_zeros(t, sizes);
      at.copy_(at.narrow(p, d, 0, size), t);
    }
    return at.view(p, [...t.sizes.slice(0, d), numChunks, -1]);
  });
  return at.cat(views, d + 1);
}
