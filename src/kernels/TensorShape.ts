// Shape kernels: views (they only compute sizes, strides and offsets over the same storage, so one
// CompositeExplicitAutograd kernel serves CPU and Meta alike), the decompositions reshape/flatten/unflatten,
// and cat, stack, split, chunk, unbind, repeat, tile. Mirrors aten/src/ATen/native/TensorShape.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { MemoryFormat } from '../c10/Layout.js';
import { elementSize, isIntegralType, promoteTypes } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import { formatSizes, inferSize } from '../tensor/ExpandUtils.js';
import { inferSizeDv } from '../tensor/InferSize.js';
import { Tensor } from '../tensor/Tensor.js';
import { isStridesLikeChannelsLast } from '../tensor/TensorGeometry.js';
import { storageBytesNeeded } from '../tensor/TensorImpl.js';
import { computeStride } from '../tensor/TensorUtils.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';
import { contiguousOf, emptyLike, moveElement, moveElements, storedElements } from './StorageAccess.js';
import { ravel, unravel } from './TensorTransformations.js';
import * as at from '../generated/TensorBody.js';

/**
 * `reshape`: as PyTorch's reshape_symint: a contiguous self is viewed (ViewBackward0); a self whose strides allow
 * the new shape is aliased by `_reshape_alias` (ReshapeAliasBackward0); else a contiguous clone `_unsafe_view`ed.
 */
export function reshape(_ks: DispatchKeySet, self: Tensor, shape: number[]): Tensor {
  if (self.isContiguous()) return aten().view.call(self, shape);
  const sizes = inferSizeDv(shape, self.numel());
  const strides = computeStride(self.sizes, self.strides, sizes);
  if (strides !== null) return aten()._reshape_alias.call(self, sizes, strides);
  return aten()._unsafe_view.call(aten().clone.call(self, MemoryFormat.Contiguous), sizes);
}

/** `_reshape_alias(self, size, stride)`: a view with the given geometry (reshape computed the strides). */
export function reshapeAlias(_ks: DispatchKeySet, self: Tensor, size: number[], stride: number[]): Tensor {
  return makeView(self, [...size], [...stride], self.storageOffset);
}

/** `flatten.using_ints`: dims start..end merged into one. */
export function flatten(_ks: DispatchKeySet, self: Tensor, startDim = 0, endDim = -1): Tensor {
  const n = self.dim();
  const start = maybeWrapDim(startDim, n);
  const end = maybeWrapDim(endDim, n);
  if (start > end) throw new Error('flatten() has invalid args: start_dim cannot come after end_dim');
  if (n === 0) return aten().reshape.call(self, [1]);
  if (start === end) return self;
  let merged = 1;
  for (let i = start; i <= end; i++) merged *= self.sizes[i] as number;
  return aten().reshape.call(self, [...self.sizes.slice(0, start), merged, ...self.sizes.slice(end + 1)]);
}

/** `unflatten.int`: one dim split into `sizes` (one of them may be -1). */
export function unflatten(_ks: DispatchKeySet, self: Tensor, dim: number, sizes: number[]): Tensor {
  const d = maybeWrapDim(dim, self.dim());
  if (sizes.length === 0) throw new Error('unflatten: sizes must be non-empty');
  let inferred: number[];
  try {
    inferred = inferSizeDv(sizes, self.sizes[d] as number);
  } catch {
    throw new Error(
      `unflatten: Provided sizes [${sizes.join(', ')}] don't multiply up to the size of dim ${d} (${self.sizes[d]}) in the input tensor`,
    );
  }
  return aten().view.call(self, [...self.sizes.slice(0, d), ...inferred, ...self.sizes.slice(d + 1)]);
}

/** Splits a row-major shape at `dim` into (outer, size, inner). */
export function around(sizes: readonly number[], dim: number): [number, number, number] {
  let outer = 1;
  let inner = 1;
  for (let i = 0; i < dim; i++) outer *= sizes[i] as number;
  for (let i = dim + 1; i < sizes.length; i++) inner *= sizes[i] as number;
  return [outer, sizes[dim] ?? 1, inner];
}

/** `cat(tensors, dim)`: promotes dtypes; 1-D empty tensors are skipped, as PyTorch's legacy rule. */
export function cat(_ks: DispatchKeySet, tensors: Tensor[], dim = 0): Tensor {
  if (tensors.length === 0) throw new Error('torch.cat(): expected a non-empty list of Tensors');
  const used = tensors.filter((t) => !(t.dim() === 1 && t.numel() === 0));
  const ref = used[0] ?? (tensors[0] as Tensor);
  if (ref.dim() === 0) throw new Error('zero-dimensional tensor (at position 0) cannot be concatenated');
  const d = maybeWrapDim(dim, ref.dim());
  const dtype = tensors.map((t) => t.scalarType).reduce(promoteTypes);
  used.forEach((t, i) => {
    if (t.dim() !== ref.dim()) {
      throw new Error(`Tensors must have same number of dimensions: got ${ref.dim()} and ${t.dim()}`);
    }
    t.sizes.forEach((s, k) => {
      if (k !== d && s !== ref.sizes[k]) {
        throw new Error(
          `Sizes of tensors must match except in dimension ${d}. Expected size ${ref.sizes[k]} but got size ${s} for tensor number ${i} in the list.`,
        );
      }
    });
  });
  const sizes = [...ref.sizes];
  sizes[d] = used.reduce((a, t) => a + (t.sizes[d] as number), 0);
  const [outer, , inner] = around(sizes, d);
  const out = emptyLike(ref, sizes, dtype);
  // PyTorch's compute_output_memory_format: channels-last when every input suggests it, else contiguous
  const channelsLast = tensors.every((t) => t.dim() === 4 && isStridesLikeChannelsLast(t));
  if (out.isMeta()) return channelsLast ? aten().clone.call(out, MemoryFormat.ChannelsLast) : out;
  // Inputs of another dtype are converted first (copy_ does PyTorch's casts), then elements move as stored.
  const parts = used.map((t) => {
    if (t.scalarType === dtype) return { t: contiguousOf(t), n: t.sizes[d] as number };
    const c = emptyLike(t, [...t.sizes], dtype);
    if (!c.isMeta()) aten().copy_.call(c, t, false);
    return { t: c, n: t.sizes[d] as number };
  });
  const y = storedElements(out);
  const xs = parts.map((p) => ({ x: storedElements(p.t), run: p.n * inner }));
  let at = 0;
  for (let o = 0; o < outer; o++) {
    for (const { x, run } of xs) {
      moveElements(y, at, x, o * run, run);
      at += run;
    }
  }
  return channelsLast ? aten().clone.call(out, MemoryFormat.ChannelsLast) : out;
}

/** `stack(tensors, dim)`: all the same shape, stacked along a new dim. */
export function stack(ks: DispatchKeySet, tensors: Tensor[], dim = 0): Tensor {
  if (tensors.length === 0) throw new Error('stack expects a non-empty TensorList');
  const ref = tensors[0] as Tensor;
  tensors.forEach((t, i) => {
    if (t.sizes.length !== ref.sizes.length || t.sizes.some((s, k) => s !== ref.sizes[k])) {
      throw new Error(
        `stack expects each tensor to be equal size, but got ${formatSizes(ref.sizes)} at entry 0 and ${formatSizes(t.sizes)} at entry ${i}`,
      );
    }
  });
  const d = maybeWrapDim(dim, ref.dim() + 1);
  return cat(
    ks,
    tensors.map((t) => at.unsqueeze(t, d)),
    d,
  );
}

/** `split.Tensor(self, split_size, dim)`: views of `split_size` along dim (the last may be smaller). */
export function split(_ks: DispatchKeySet, self: Tensor, splitSize: number, dim = 0): Tensor[] {
  if (self.dim() === 0) throw new Error('split expects at least a 1-dimensional tensor');
  if (splitSize < 0) throw new Error(`split expects split_size be non-negative, but got split_size=${splitSize}`);
  const d = maybeWrapDim(dim, self.dim());
  const size = self.sizes[d] as number;
  if (splitSize === 0 && size !== 0) throw new Error(`split_size can only be 0 if dimension size is 0, but got dimension size of ${size}`);
  const parts: Tensor[] = [];
  const n = splitSize === 0 ? 1 : Math.max(Math.ceil(size / splitSize), 1);
  for (let i = 0; i < n; i++) parts.push(at.narrow(self, d, i * splitSize, Math.min(splitSize, size - i * splitSize)));
  return parts;
}

/** `split_with_sizes(self, split_sizes, dim)`. */
export function splitWithSizes(_ks: DispatchKeySet, self: Tensor, splitSizes: number[], dim = 0): Tensor[] {
  const d = maybeWrapDim(dim, self.dim());
  if (splitSizes.some((s) => s < 0)) {
    throw new Error(`split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=${formatSizes(splitSizes)}`);
  }
  const total = splitSizes.reduce((a, b) => a + b, 0);
  if (total !== self.sizes[d]) {
    throw new Error(
      `split_with_sizes expects split_sizes to sum exactly to ${self.sizes[d]} (input tensor's size at dimension ${d}), but got split_sizes=${formatSizes(splitSizes)}`,
    );
  }
  let start = 0;
  return splitSizes.map((s) => {
    const v = at.narrow(self, d, start, s);
    start += s;
    return v;
  });
}

/**
 * `chunk(self, chunks, dim)`, CompositeImplicitAutograd as in PyTorch: `split` by ceil(size / chunks)
 * (split_with_sizes for an empty dim), so autograd records SplitBackward0.
 */
export function chunk(_ks: DispatchKeySet, self: Tensor, chunks: number, dim = 0): Tensor[] {
  if (self.dim() === 0) throw new Error('chunk expects at least a 1-dimensional tensor');
  if (chunks <= 0) throw new Error(`chunk expects \`chunks\` to be greater than 0, got: ${chunks}`);
  const d = maybeWrapDim(dim, self.dim());
  const size = self.sizes[d] as number;
  const splitSize = Math.ceil(size / chunks);
  if (splitSize === 0 && size === 0) return aten().split_with_sizes.call(self, new Array<number>(chunks).fill(0), d);
  return aten().split_Tensor.call(self, splitSize, d);
}

/** `unbind(self, dim)`: the selects along dim. */
export function unbind(_ks: DispatchKeySet, self: Tensor, dim = 0): Tensor[] {
  if (self.dim() === 0) throw new Error('Dimension specified as 0 but tensor has no dimensions');
  const d = maybeWrapDim(dim, self.dim());
  return Array.from({ length: self.sizes[d] as number }, (_, i) => at.select_int(self, d, i));
}

/** `repeat(self, repeats)`: tiles the tensor `repeats[k]` times along each (leading-padded) dim. */
export function repeat(_ks: DispatchKeySet, self: Tensor, repeats: number[]): Tensor {
  if (repeats.length < self.dim()) {
    throw new Error('Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor');
  }
  const pad = repeats.length - self.dim();
  const src = [...new Array<number>(pad).fill(1), ...self.sizes];
  const sizes = src.map((s, k) => s * (repeats[k] as number));
  const negative = sizes.find((s) => s < 0);
  if (negative !== undefined) throw new Error(`Trying to create tensor with negative dimension ${negative}: ${formatSizes(sizes)}`);
  const out = emptyLike(self, sizes);
  if (out.isMeta()) return out;
  const source = contiguousOf(self);
  const [x, y] = [storedElements(source), storedElements(out)];
  for (let i = 0; i < out.numel(); i++)
    moveElement(
      y,
      i,
      x,
      ravel(
        unravel(i, sizes).map((v, k) => v % (src[k] as number)),
        src,
      ),
    );
  return out;
}

/** `tile(self, dims)`: repeat with the shorter list padded with ones on the left. */
export function tile(_ks: DispatchKeySet, self: Tensor, dims: number[]): Tensor {
  // CompositeImplicitAutograd as in PyTorch (RepeatBackward0).
  const pad = Math.max(self.dim() - dims.length, 0);
  return aten().repeat.call(self, [...new Array<number>(pad).fill(1), ...dims]);
}

/** A view of `self` with new geometry, sharing storage and version counter. */
export function makeView(self: Tensor, sizes: number[], strides: number[], storageOffset: number): Tensor {
  return new Tensor(self.storage, self.scalarType, sizes, strides, storageOffset, self.keySet);
}

export function view(_ks: DispatchKeySet, self: Tensor, size: number[]): Tensor {
  const shape = inferSizeDv(size, self.numel());
  const strides = computeStride(self.sizes, self.strides, shape);
  if (strides === null) {
    throw new Error(
      "view size is not compatible with input tensor's size and stride (at least one dimension spans across two " +
        'contiguous subspaces). Use .reshape(...) instead.',
    );
  }
  return makeView(self, shape, strides, self.storageOffset);
}

// Note [as_strided on Meta does not check the storage]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's Meta kernel of as_strided (as_strided_tensorimpl_meta_symint) sets the view's sizes, strides and
// offset on the base's storage without setStrided's bounds check: a Meta tensor has no bytes to protect, and a
// Meta input made from a partial view (empty_strided of the view's sizes and strides) has a storage smaller
// than the real base's, so as_strided reaching past it (OpInfo's as_strided.partial_views) must still succeed.
// The view keeps the base's storage (and its nbytes), as PyTorch's does.
export function asStrided(_ks: DispatchKeySet, self: Tensor, size: number[], stride: number[], storageOffset?: number | null): Tensor {
  const offset = storageOffset ?? self.storageOffset;
  if (size.length !== stride.length) {
    throw new Error(`mismatch in length of strides and shape`);
  }
  for (const s of stride)
    if (s < 0) throw new Error(`as_strided: Negative strides are not supported at the moment, got strides: ${formatSizes(stride)}`);
  if (offset < 0) throw new Error(`Tensor: invalid storage offset ${offset}`);
  const needed = storageBytesNeeded(size, stride, offset, self.scalarType);
  // See Note [as_strided on Meta does not check the storage].
  if (needed > self.storage.nbytes && !self.isMeta()) {
    throw new Error(
      `setStorage: sizes ${formatSizes(size)}, strides ${formatSizes(stride)}, storage offset ${offset}, and itemsize ` +
        `${elementSize(self.scalarType)} requiring a storage size of ${needed} are out of bounds for storage of size ${self.storage.nbytes}`,
    );
  }
  return makeView(self, [...size], [...stride], offset);
}

export function transpose(_ks: DispatchKeySet, self: Tensor, dim0: number, dim1: number): Tensor {
  const n = self.dim();
  const d0 = maybeWrapDim(dim0, n);
  const d1 = maybeWrapDim(dim1, n);
  if (n === 0) return makeView(self, [], [], self.storageOffset);
  const sizes = [...self.sizes];
  const strides = [...self.strides];
  [sizes[d0], sizes[d1]] = [sizes[d1] as number, sizes[d0] as number];
  [strides[d0], strides[d1]] = [strides[d1] as number, strides[d0] as number];
  return makeView(self, sizes, strides, self.storageOffset);
}

export function t(ks: DispatchKeySet, self: Tensor): Tensor {
  const n = self.dim();
  if (n > 2) throw new Error(`t() expects a tensor with <= 2 dimensions, but self is ${n}D`);
  return n < 2 ? makeView(self, [...self.sizes], [...self.strides], self.storageOffset) : transpose(ks, self, 0, 1);
}

export function permute(_ks: DispatchKeySet, self: Tensor, dims: number[]): Tensor {
  const n = self.dim();
  if (dims.length !== n) {
    throw new Error(
      'permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ' +
        `ordering of dimensions i.e. input.dim() = ${n} is not equal to len(dims) = ${dims.length}`,
    );
  }
  const seen = new Array<boolean>(n).fill(false);
  const sizes: number[] = [];
  const strides: number[] = [];
  for (const d of dims) {
    const w = maybeWrapDim(d, n);
    if (seen[w]) throw new Error('permute(): duplicate dims are not allowed.');
    seen[w] = true;
    sizes.push(self.sizes[w] as number);
    strides.push(self.strides[w] as number);
  }
  return makeView(self, sizes, strides, self.storageOffset);
}

export function expand(_ks: DispatchKeySet, self: Tensor, size: number[], _implicit = false): Tensor {
  const n = self.dim();
  if (size.length < n) {
    throw new Error(
      `expand(${self.typeString()}{${formatSizes(self.sizes)}}, size=${formatSizes(size)}): the number of sizes provided ` +
        `(${size.length}) must be greater or equal to the number of dimensions in the tensor (${n})`,
    );
  }
  const sizes = new Array<number>(size.length);
  const strides = new Array<number>(size.length);
  for (let i = size.length - 1; i >= 0; i--) {
    const offset = size.length - 1 - i;
    const dim = n - 1 - offset;
    const target = size[i] as number;
    if (dim >= 0) {
      const cur = self.sizes[dim] as number;
      if (target === -1 || target === cur) {
        sizes[i] = cur;
        strides[i] = self.strides[dim] as number;
      } else if (cur === 1) {
        sizes[i] = target;
        strides[i] = 0;
      } else {
        throw new Error(
          `The expanded size of the tensor (${target}) must match the existing size (${cur}) at non-singleton ` +
            `dimension ${i}.  Target sizes: ${formatSizes(size)}.  Tensor sizes: ${formatSizes(self.sizes)}`,
        );
      }
    } else {
      if (target < 0) {
        throw new Error(`The expanded size of the tensor (${target}) isn't allowed in a leading, non-existing dimension ${i}`);
      }
      sizes[i] = target;
      // PyTorch's inferExpandGeometry: a new size-1 dimension gets the stride of a dimension of that size just
      // outside the next one (sizes[i+1] * strides[i+1], a valid contiguous-like stride); other new dimensions,
      // and all of a 0-dim tensor's, get 0
      strides[i] = target === 1 && n > 0 ? (sizes[i + 1] as number) * (strides[i + 1] as number) : 0;
    }
  }
  return makeView(self, sizes, strides, self.storageOffset);
}

export function squeeze(_ks: DispatchKeySet, self: Tensor): Tensor {
  const keep = self.sizes.map((s) => s !== 1);
  return makeView(
    self,
    self.sizes.filter((_, i) => keep[i]),
    self.strides.filter((_, i) => keep[i]),
    self.storageOffset,
  );
}

export function squeezeDim(_ks: DispatchKeySet, self: Tensor, dim: number): Tensor {
  const d = maybeWrapDim(dim, self.dim());
  if (self.dim() === 0 || self.sizes[d] !== 1) return makeView(self, [...self.sizes], [...self.strides], self.storageOffset);
  return makeView(
    self,
    self.sizes.filter((_, i) => i !== d),
    self.strides.filter((_, i) => i !== d),
    self.storageOffset,
  );
}

/** `squeeze.dims(self, dim)`: drops the listed dimensions that have size 1. */
export function squeezeDims(_ks: DispatchKeySet, self: Tensor, dim: number[]): Tensor {
  const n = self.dim();
  const drop = new Array<boolean>(n).fill(false);
  const seen = new Set<number>();
  for (const d of dim) {
    const w = maybeWrapDim(d, n);
    if (seen.has(w)) throw new Error(`dim ${w} appears multiple times in the list of dims`);
    seen.add(w);
    if (n > 0 && self.sizes[w] === 1) drop[w] = true;
  }
  return makeView(
    self,
    self.sizes.filter((_, i) => !drop[i]),
    self.strides.filter((_, i) => !drop[i]),
    self.storageOffset,
  );
}

// Note [In-place view operators]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// t_, transpose_, squeeze_ and unsqueeze_ change only the geometry of `self`: each computes the view its
// functional twin would return and gives `self` that view's sizes, strides and offset. Their own autograd
// entries (derivatives.yaml) record TBackward1, SqueezeBackward4, ... as PyTorch numbers them, and their
// ADInplaceOrView kernels bump the version, as PyTorch's do.
function restride(self: Tensor, view: Tensor): Tensor {
  self.setSizesAndStrides(view.sizes, view.strides, view.storageOffset);
  return self;
}

/** `t_(self)`. */
export function t_(ks: DispatchKeySet, self: Tensor): Tensor {
  return restride(self, t(ks, self));
}

/** `transpose_(self, dim0, dim1)`. */
export function transpose_(ks: DispatchKeySet, self: Tensor, dim0: number, dim1: number): Tensor {
  return restride(self, transpose(ks, self, dim0, dim1));
}

/** `squeeze_(self)`. */
export function squeeze_(ks: DispatchKeySet, self: Tensor): Tensor {
  return restride(self, squeeze(ks, self));
}

/** `squeeze_.dim(self, dim)`. */
export function squeezeDim_(ks: DispatchKeySet, self: Tensor, dim: number): Tensor {
  return restride(self, squeezeDim(ks, self, dim));
}

/** `squeeze_.dims(self, dim)`. */
export function squeezeDims_(ks: DispatchKeySet, self: Tensor, dim: number[]): Tensor {
  return restride(self, squeezeDims(ks, self, dim));
}

/** `unsqueeze_(self, dim)`. */
export function unsqueeze_(ks: DispatchKeySet, self: Tensor, dim: number): Tensor {
  return restride(self, unsqueeze(ks, self, dim));
}

export function unsqueeze(_ks: DispatchKeySet, self: Tensor, dim: number): Tensor {
  const d = maybeWrapDim(dim, self.dim() + 1);
  const sizes = [...self.sizes];
  const strides = [...self.strides];
  const newStride = d >= self.dim() ? 1 : (self.sizes[d] as number) * (self.strides[d] as number);
  sizes.splice(d, 0, 1);
  strides.splice(d, 0, newStride);
  return makeView(self, sizes, strides, self.storageOffset);
}

export function select(_ks: DispatchKeySet, self: Tensor, dim: number, index: number): Tensor {
  const n = self.dim();
  if (n === 0) throw new Error('select() cannot be applied to a 0-dim tensor.');
  const d = maybeWrapDim(dim, n);
  const size = self.sizes[d] as number;
  if (index < -size || index >= size) {
    throw new RangeError(`select(): index ${index} out of range for tensor of size ${formatSizes(self.sizes)} at dimension ${dim}`);
  }
  const i = index < 0 ? index + size : index;
  return makeView(
    self,
    self.sizes.filter((_, k) => k !== d),
    self.strides.filter((_, k) => k !== d),
    self.storageOffset + i * (self.strides[d] as number),
  );
}

export function slice(_ks: DispatchKeySet, self: Tensor, dim = 0, start?: number | null, end?: number | null, step = 1): Tensor {
  const n = self.dim();
  if (n === 0) throw new RangeError('slice() cannot be applied to a 0-dim tensor.'); // IndexError in PyTorch
  const d = maybeWrapDim(dim, n);
  if (step <= 0) throw new Error('slice step must be positive');
  const size = self.sizes[d] as number;
  let s = start ?? 0;
  let e = end ?? size;
  if (s < 0) s += size;
  if (e < 0) e += size;
  s = Math.min(Math.max(s, 0), size);
  e = Math.min(Math.max(e, s), size);
  const len = Math.floor((e - s + step - 1) / step);
  const sizes = [...self.sizes];
  const strides = [...self.strides];
  sizes[d] = len;
  strides[d] = (self.strides[d] as number) * step;
  return makeView(self, sizes, strides, self.storageOffset + s * (self.strides[d] as number));
}

export function narrow(_ks: DispatchKeySet, self: Tensor, dim: number, start: number, length: number): Tensor {
  if (self.dim() === 0) throw new Error('narrow() cannot be applied to a 0-dim tensor.');
  if (length < 0) throw new Error('narrow(): length must be non-negative.');
  const d = maybeWrapDim(dim, self.dim());
  const size = self.sizes[d] as number;
  if (start < -size || start > size) {
    throw new RangeError(`start out of range (expected to be in range of [${-size}, ${size}], but got ${start})`);
  }
  const s = start < 0 ? start + size : start;
  if (s + length > size) throw new Error(`start (${s}) + length (${length}) exceeds dimension size (${size}).`);
  // CompositeImplicitAutograd: through the dispatcher, so autograd records the slice (SliceBackward0).
  return aten().slice_Tensor.call(self, d, s, s + length, 1);
}

export function alias(_ks: DispatchKeySet, self: Tensor): Tensor {
  return makeView(self, [...self.sizes], [...self.strides], self.storageOffset);
}

/**
 * `detach(self)`: the same data (storage, geometry, version counter) without autograd history. Not a view
 * autograd tracks: no Autograd or ADInplaceOrView kernel (See Note [detach is dispatched]).
 */
export function detach(_ks: DispatchKeySet, self: Tensor): Tensor {
  return makeView(self, [...self.sizes], [...self.strides], self.storageOffset);
}

// ---- Overloads a PyTorch user types -----------------------------------------------------------------------

/** `split.sizes(self, split_size, dim=0)`: `split(x, [1, 2])` is `split_with_sizes` (SplitWithSizesBackward0). */
export function splitSizes(_ks: DispatchKeySet, self: Tensor, splitSize: number[], dim = 0): Tensor[] {
  return aten().split_with_sizes.call(self, splitSize, dim);
}

/** `broadcast_tensors(tensors)`: every tensor expanded to the shape they broadcast to (ExpandBackward0). */
export function broadcastTensors(_ks: DispatchKeySet, tensors: Tensor[]): Tensor[] {
  let shape: number[] = [];
  for (const t of tensors) shape = inferSize(shape, t.sizes);
  return tensors.map((t) => aten().expand.call(t, shape, false));
}

/** `narrow.Tensor(self, dim, start, length)`: `start` a 0-dim integral tensor (TensorShape.cpp's narrow). */
export function narrowTensor(_ks: DispatchKeySet, self: Tensor, dim: number, start: Tensor, length: number): Tensor {
  if (start.dim() !== 0 || !isIntegralType(start.scalarType, false)) throw new Error('start must be an 0-dim integral Tensor.');
  return aten().narrow.call(self, dim, Number(aten().item.call(start)), length);
}

// ---- diagonal ----------------------------------------------------------------------------------------------

/**
 * `diagonal(self, offset=0, dim1=0, dim2=1)`: the view of the `offset` diagonal of the `dim1`/`dim2` planes,
 * those dims removed and the diagonal appended last (TensorShape.cpp's diagonal; an offset past the end gives
 * an empty diagonal at the unchanged storage offset).
 */
export function diagonal(_ks: DispatchKeySet, self: Tensor, offset = 0, dim1 = 0, dim2 = 1): Tensor {
  const n = self.dim();
  const d1 = maybeWrapDim(dim1, n);
  const d2 = maybeWrapDim(dim2, n);
  if (d1 === d2) throw new Error(`diagonal dimensions cannot be identical ${dim1}, ${dim2}`);
  const s1 = self.sizes[d1] as number;
  const s2 = self.sizes[d2] as number;
  const diagSize = Math.max(offset >= 0 ? Math.min(s1, s2 - offset) : Math.min(s1 + offset, s2), 0);
  let storageOffset = self.storageOffset;
  if (diagSize !== 0) storageOffset += offset >= 0 ? offset * (self.strides[d2] as number) : -offset * (self.strides[d1] as number);
  const keep = (_: number, k: number): boolean => k !== d1 && k !== d2;
  const sizes = [...self.sizes.filter(keep), diagSize];
  const strides = [...self.strides.filter(keep), (self.strides[d1] as number) + (self.strides[d2] as number)];
  return makeView(self, sizes, strides, storageOffset);
}

/**
 * `unfold(self, dimension, size, step)`: the view of every `size`-long window along `dimension`, `step` apart,
 * the window appended as a last dim (TensorShape.cpp's unfold; a 0-dim self counts as one element).
 */
export function unfold(_ks: DispatchKeySet, self: Tensor, dimension: number, size: number, step: number): Tensor {
  const n = self.dim();
  const d = maybeWrapDim(dimension, n);
  const maxSize = n === 0 ? 1 : (self.sizes[d] as number);
  if (size > maxSize) throw new Error(`maximum size for tensor at dimension ${d} is ${maxSize} but size is ${size}`);
  if (size < 0) throw new Error(`size is ${size} but must be >= 0`);
  if (step <= 0) throw new Error(`step is ${step} but must be > 0`);
  const sizes = [...self.sizes, size];
  const strides = [...self.strides, n === 0 ? 1 : (self.strides[d] as number)];
  if (d < n) {
    sizes[d] = Math.trunc(((self.sizes[d] as number) - size) / step) + 1;
    strides[d] = (strides[d] as number) * step;
  }
  return makeView(self, sizes, strides, self.storageOffset);
}

/** `diagonal_backward(grad_output, input_sizes, offset, dim1, dim2)`: zeros with `grad_output` on the diagonal. */
export function diagonalBackward(
  _ks: DispatchKeySet,
  gradOutput: Tensor,
  inputSizes: number[],
  offset: number,
  dim1: number,
  dim2: number,
): Tensor {
  const r = aten().zeros.call([...inputSizes], gradOutput.scalarType, null, gradOutput.device, null);
  aten().copy_.call(aten().diagonal.call(r, offset, dim1, dim2), gradOutput, false);
  return r;
}
