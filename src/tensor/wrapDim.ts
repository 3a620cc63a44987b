// Dimension wrapping with PyTorch's error texts. Mirrors c10/core/WrapDimMinimal.h (maybe_wrap_dim).

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
