// Sums of fixed-size chunks of a contiguous buffer, one partial per chunk, for sums split among threads
// (Note [Deterministic parallel sum] in src/kernels/ReduceOpsKernel.ts): each chunk is the cascade sum of
// reduce.ts (f32_rsum / f64_rsum), so a chunk's partial does not depend on which thread computed it.

import { f32_rsum, f64_rsum } from './reduce';

/** out[c] = f32_rsum of x[c·chunk .. min((c+1)·chunk, n)) for every chunk c of x[0..n); float32 partials. */
export function f32_rsum_chunks(n: usize, chunk: usize, x: usize, out: usize): void {
  for (let i: usize = 0, c: usize = 0; i < n; i += chunk, c++) store<f32>(out + (c << 2), f32_rsum(min<usize>(chunk, n - i), x + (i << 2)));
}

/** f32_rsum_chunks for float64 (f64_rsum per chunk, float64 partials). */
export function f64_rsum_chunks(n: usize, chunk: usize, x: usize, out: usize): void {
  for (let i: usize = 0, c: usize = 0; i < n; i += chunk, c++) store<f64>(out + (c << 3), f64_rsum(min<usize>(chunk, n - i), x + (i << 3)));
}
