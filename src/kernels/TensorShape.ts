// View and shape kernels: they only compute sizes, strides and offsets over the same storage, so one
// CompositeExplicitAutograd kernel serves CPU and Meta alike. Mirrors aten/src/ATen/native/TensorShape.cpp.

import { aten } from '../generated/Operators.js';
import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { Tensor } from '../tensor/Tensor.js';
import { inferSizeDv } from '../tensor/InferSize.js';
import { computeStride } from '../tensor/TensorUtils.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';
import { storageBytesNeeded } from '../tensor/TensorImpl.js';
import { elementSize } from '../c10/ScalarType.js';

/** A view of `self` with new geometry, sharing storage and version counter. */
export function makeView(self: Tensor, sizes: number[], strides: number[], storageOffset: number): Tensor {
  return new Tensor(self.storage, self.dtype, sizes, strides, storageOffset, self.keySet);
}

function shapeStr(sizes: readonly number[]): string {
  return `[${sizes.join(', ')}]`;
}

export function view(_ks: DispatchKeySet, self: Tensor, size: number[]): Tensor {
  const shape = inferSizeDv(size, self.numel);
  const strides = computeStride(self.sizes, self.strides, shape);
  if (strides === null) {
    throw new Error(
      "view size is not compatible with input tensor's size and stride (at least one dimension spans across two " +
        'contiguous subspaces). Use .reshape(...) instead.',
    );
  }
  return makeView(self, shape, strides, self.storageOffset);
}

export function asStrided(_ks: DispatchKeySet, self: Tensor, size: number[], stride: number[], storageOffset?: number | null): Tensor {
  const offset = storageOffset ?? self.storageOffset;
  if (size.length !== stride.length) {
    throw new Error(`mismatch in length of strides and shape`);
  }
  for (const s of stride) if (s < 0) throw new Error(`as_strided: Negative strides are not supported at the moment, got strides: ${shapeStr(stride)}`);
  if (offset < 0) throw new Error(`Tensor: invalid storage offset ${offset}`);
  const needed = storageBytesNeeded(size, stride, offset, self.dtype);
  if (needed > self.storage.nbytes) {
    throw new Error(
      `setStorage: sizes ${shapeStr(size)}, strides ${shapeStr(stride)}, storage offset ${offset}, and itemsize ` +
        `${elementSize(self.dtype)} requiring a storage size of ${needed} are out of bounds for storage of size ${self.storage.nbytes}`,
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
      `expand(${self.typeString()}{${shapeStr(self.sizes)}}, size=${shapeStr(size)}): the number of sizes provided ` +
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
            `dimension ${i}.  Target sizes: ${shapeStr(size)}.  Tensor sizes: ${shapeStr(self.sizes)}`,
        );
      }
    } else {
      if (target < 0) {
        throw new Error(`The expanded size of the tensor (${target}) isn't allowed in a leading, non-existing dimension ${i}`);
      }
      sizes[i] = target;
      strides[i] = 0;
    }
  }
  return makeView(self, sizes, strides, self.storageOffset);
}

export function squeeze(_ks: DispatchKeySet, self: Tensor): Tensor {
  const keep = self.sizes.map((s) => s !== 1);
  return makeView(self, self.sizes.filter((_, i) => keep[i]), self.strides.filter((_, i) => keep[i]), self.storageOffset);
}

export function squeezeDim(_ks: DispatchKeySet, self: Tensor, dim: number): Tensor {
  const d = maybeWrapDim(dim, self.dim());
  if (self.dim() === 0 || self.sizes[d] !== 1) return makeView(self, [...self.sizes], [...self.strides], self.storageOffset);
  return makeView(self, self.sizes.filter((_, i) => i !== d), self.strides.filter((_, i) => i !== d), self.storageOffset);
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
  return makeView(self, self.sizes.filter((_, i) => !drop[i]), self.strides.filter((_, i) => !drop[i]), self.storageOffset);
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
    throw new RangeError(`select(): index ${index} out of range for tensor of size ${shapeStr(self.sizes)} at dimension ${dim}`);
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
  if (n === 0) throw new Error('slice() cannot be applied to a 0-dim tensor.');
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
