// A strided copy of up to four (coalesced) dims between two buffers of one element type, the kernel behind
// copy_ between layouts (Note [Strided copy] in src/kernels/Copy.ts). Mirrors ATen's copy_kernel over
// TensorIterator (aten/src/ATen/native/cpu/CopyKernel.cpp): the innermost dim is one memory.copy when both
// operands are contiguous along it, else an element loop; f32.load / f32.store move bits unchanged.

/**
 * y[i0·d0 + i1·d1 + i2·d2 + i3·d3] = x[i0·s0 + i1·s1 + i2·s2 + i3·s3] for every index < (n0, n1, n2, n3);
 * strides in elements of T.
 */
// @ts-ignore: decorator
@inline export function copy_strided<T>(n0: usize, n1: usize, n2: usize, n3: usize, d0: usize, d1: usize, d2: usize, d3: usize, s0: usize, s1: usize, s2: usize, s3: usize, x: usize, y: usize): void {
  const z = sizeof<T>();
  const run = s3 == 1 && d3 == 1;
  for (let i0: usize = 0; i0 < n0; i0++) {
    for (let i1: usize = 0; i1 < n1; i1++) {
      for (let i2: usize = 0; i2 < n2; i2++) {
        const xo = x + (i0 * s0 + i1 * s1 + i2 * s2) * z;
        const yo = y + (i0 * d0 + i1 * d1 + i2 * d2) * z;
        if (run) memory.copy(yo, xo, n3 * z);
        else for (let i3: usize = 0; i3 < n3; i3++) store<T>(yo + i3 * d3 * z, load<T>(xo + i3 * s3 * z));
      }
    }
  }
}
