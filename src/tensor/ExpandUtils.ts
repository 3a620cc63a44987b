// Shapes under broadcasting: the broadcast of two shapes and size-list equality. Mirrors ATen/ExpandUtils.h
// (`infer_size`, `is_expandable_to`) and c10's IntArrayRef equality.

/** Whether two size (or stride) lists are equal. */
export function sameSizes(a: readonly number[], b: readonly number[]): boolean {
  if (a === b) return true;
  const n = a.length;
  if (n !== b.length) return false;
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** `infer_size(a, b)`: the broadcast of two shapes, with PyTorch's error for incompatible ones. */
export function inferSize(a: readonly number[], b: readonly number[]): number[] {
  const dimsA = a.length;
  const dimsB = b.length;
  const ndim = dimsA > dimsB ? dimsA : dimsB;
  const out = new Array<number>(ndim);
  for (let i = ndim - 1; i >= 0; i--) {
    const offset = ndim - 1 - i;
    const dimA = dimsA - 1 - offset;
    const dimB = dimsB - 1 - offset;
    const sizeA = dimA >= 0 ? (a[dimA] as number) : 1;
    const sizeB = dimB >= 0 ? (b[dimB] as number) : 1;
    if (sizeA !== sizeB && sizeA !== 1 && sizeB !== 1) {
      throw new Error(`The size of tensor a (${sizeA}) must match the size of tensor b (${sizeB}) at non-singleton dimension ${i}`);
    }
    out[i] = sizeA === 1 ? sizeB : sizeA;
  }
  return out;
}

/** A size list as PyTorch prints it in messages: `[2, 3]`. */
export function formatSizes(sizes: readonly number[]): string {
  return `[${sizes.join(', ')}]`;
}

/** True if `grad` (sizes `from`) can be summed to `to` (`is_expandable_to(to, from)`). */
export function isExpandableTo(to: readonly number[], from: readonly number[]): boolean {
  if (to.length > from.length) return false;
  const lead = from.length - to.length;
  for (let i = 0; i < to.length; i++) {
    const t = to[i] as number;
    if (t !== 1 && t !== from[lead + i]) return false;
  }
  return true;
}
