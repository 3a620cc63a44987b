// Dimension and size checks with PyTorch's error texts. Mirrors c10/core/WrapDimMinimal.h,
// aten/src/ATen/InferSize.h and aten/src/ATen/TensorUtils.cpp (computeStride).

/** `maybe_wrap_dim(dim, ndim)`: a dim in [-ndim, ndim) made non-negative; a 0-dim tensor accepts -1 and 0. */
export function maybeWrapDim(dim: number, ndim: number, wrapScalar = true): number {
  if (!Number.isInteger(dim)) throw new TypeError(`expected an integer dimension, got ${String(dim)}`);
  if (ndim <= 0) {
    if (!wrapScalar) throw new RangeError(`Dimension specified as ${dim} but tensor has no dimensions`);
    ndim = 1;
  }
  const min = -ndim;
  const max = ndim - 1;
  if (dim < min || dim > max) {
    throw new RangeError(`Dimension out of range (expected to be in range of [${min}, ${max}], but got ${dim})`);
  }
  return dim < 0 ? dim + ndim : dim;
}

/** `infer_size`: resolves one -1 in a view shape against `numel`. */
export function inferSize(shape: readonly number[], numel: number): number[] {
  let newSize = 1;
  let inferDim = -1;
  for (let i = 0; i < shape.length; i++) {
    const s = shape[i] as number;
    if (s === -1) {
      if (inferDim >= 0) throw new Error('only one dimension can be inferred');
      inferDim = i;
    } else if (s >= 0 && Number.isInteger(s)) {
      newSize *= s;
    } else {
      throw new Error(`invalid shape dimension ${s}`);
    }
  }
  const out = [...shape];
  if (numel === newSize || (inferDim >= 0 && newSize > 0 && numel % newSize === 0)) {
    if (inferDim >= 0) {
      if (newSize === 0) {
        throw new Error(
          `cannot reshape tensor of 0 elements into shape [${shape.join(', ')}] because the unspecified dimension size -1 can be any value and is ambiguous`,
        );
      }
      out[inferDim] = numel / newSize;
    }
    return out;
  }
  throw new Error(`shape '[${shape.join(', ')}]' is invalid for input of size ${numel}`);
}

/**
 * `computeStride`: the strides a view of (oldSizes, oldStrides) with `newSizes` must have, or null when
 * no view is possible (a dimension would span two non-contiguous chunks of memory).
 */
export function computeStride(oldSizes: readonly number[], oldStrides: readonly number[], newSizes: readonly number[]): number[] | null {
  if (oldSizes.length === 0) return new Array<number>(newSizes.length).fill(1);
  const newStrides = new Array<number>(newSizes.length).fill(0);
  let numel = 1;
  for (const s of oldSizes) numel *= s;
  if (numel === 0) {
    if (oldSizes.length === newSizes.length && oldSizes.every((s, i) => s === newSizes[i])) return [...oldStrides];
    let s = 1;
    for (let i = newSizes.length - 1; i >= 0; i--) {
      newStrides[i] = s;
      s *= Math.max(newSizes[i] as number, 1);
    }
    return newStrides;
  }
  let viewD = newSizes.length - 1;
  let chunkBaseStride = oldStrides.length > 0 ? (oldStrides[oldStrides.length - 1] as number) : 1;
  let tensorNumel = 1;
  let viewNumel = 1;
  for (let tensorD = oldSizes.length - 1; tensorD >= 0; tensorD--) {
    tensorNumel *= oldSizes[tensorD] as number;
    if (tensorD === 0 || ((oldSizes[tensorD - 1] as number) !== 1 && (oldStrides[tensorD - 1] as number) !== tensorNumel * chunkBaseStride)) {
      while (viewD >= 0 && (viewNumel < tensorNumel || (newSizes[viewD] as number) === 1)) {
        newStrides[viewD] = viewNumel * chunkBaseStride;
        viewNumel *= newSizes[viewD] as number;
        viewD--;
      }
      if (viewNumel !== tensorNumel) return null;
      if (tensorD > 0) {
        chunkBaseStride = oldStrides[tensorD - 1] as number;
        tensorNumel = 1;
        viewNumel = 1;
      }
    }
  }
  if (viewD !== -1) return null;
  return newStrides;
}

/**
 * `infer_size(a, b)`: the broadcast of two shapes (aligned at the right; size 1 stretches), with PyTorch's
 * error for incompatible sizes.
 */
export function inferBroadcastSize(a: readonly number[], b: readonly number[]): number[] {
  const n = Math.max(a.length, b.length);
  const out = new Array<number>(n);
  for (let i = n - 1; i >= 0; i--) {
    const offset = n - 1 - i;
    const sa = a.length - 1 - offset >= 0 ? (a[a.length - 1 - offset] as number) : 1;
    const sb = b.length - 1 - offset >= 0 ? (b[b.length - 1 - offset] as number) : 1;
    if (sa !== sb && sa !== 1 && sb !== 1) {
      throw new Error(`The size of tensor a (${sa}) must match the size of tensor b (${sb}) at non-singleton dimension ${i}`);
    }
    out[i] = sa === 1 ? sb : sa;
  }
  return out;
}
