// Whether a view of a tensor can have new sizes, and with which strides. Mirrors ATen/TensorUtils.cpp
// (computeStride).

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
    if (
      tensorD === 0 ||
      ((oldSizes[tensorD - 1] as number) !== 1 && (oldStrides[tensorD - 1] as number) !== tensorNumel * chunkBaseStride)
    ) {
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
