// Sums of fixed-size chunks of a contiguous buffer, one partial per chunk, for sums split among threads
// (Note [Deterministic parallel sum] in src/kernels/ReduceOpsKernel.ts): each chunk is the cascade sum of
// reduce.ts (rsum, instantiated as f32_rsum / f64_rsum), so a chunk's partial does not depend on which thread computed it.

import { rsum } from './reduce';

/** out[c] = rsum of x[c·chunk .. min((c+1)·chunk, n)) for every chunk c of x[0..n), partials in the dtype. */
// @ts-ignore: decorator
@inline export function rsum_chunks<T>(n: usize, chunk: usize, x: usize, out: usize): void {
  for (let i: usize = 0, c: usize = 0; i < n; i += chunk, c++) store<T>(out + c * sizeof<T>(), rsum<T>(min<usize>(chunk, n - i), x + i * sizeof<T>()));
}

/**
 * y[p] = Σ_r rsum(x + (p·ps + r·rs) elements, n) for p < planes, the `runs` partials added one after another
 * in the dtype, from 0 (Note [Per-channel sums]): a convolution's bias gradient, one plane per channel.
 */
// @ts-ignore: decorator
@inline export function rsum_planes<T>(n: usize, runs: usize, rs: usize, planes: usize, ps: usize, x: usize, y: usize): void {
  const z: usize = sizeof<T>();
  for (let p: usize = 0; p < planes; p++) {
    let acc = <T>0;
    let q = x + p * ps * z;
    for (let r: usize = 0; r < runs; r++, q += rs * z) acc += rsum<T>(n, q);
    store<T>(y + p * z, acc);
  }
}
