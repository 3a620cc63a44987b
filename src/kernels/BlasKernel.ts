// The threaded float32 gemm around one shared packed B: the split of a product among threads that packs each
// operand once (Note [Gemm split]). Mirrors the threading inside the BLAS sgemm that ATen's
// native/cpu/BlasKernel.cpp hands products to (MKL / OpenBLAS split C among threads and share packed panels).

import type { GemmKernel } from '../wasm/kernels.js';
import { GEMM_WORKSPACE_BYTES, gemmPackedBBytes } from '../wasm/reference.js';
import { runKernelCalls, splitRange } from '../wasm/vec.js';

/**
 * Whether a float32 gemm on `threads` threads splits by rows around one shared packed B (Note [Shared packed
 * B] in src/wasm/assembly/gemm.ts): the packed B fits gemmSettings.sharedPackedBBytes and each thread gets rows.
 */
export function sharesPackedB(name: string, threads: number, m: number, n: number, k: number): boolean {
  return name === 'f32_gemm' && threads > 1 && m >= 8 * threads && gemmPackedBBytes(n, k) <= gemmSettings.sharedPackedBBytes;
}

/**
 * The largest B packed once for every thread (Note [Gemm split]): L2's size here. Larger products split by
 * column blocks, each thread packing its own blocks of B and all of A (matmul 1024 on 2 threads runs at
 * ~86 GFLOP/s that way).
 */
export const gemmSettings = { sharedPackedBBytes: 1 << 20 };

// Note [Gemm split]
// ~~~~~~~~~~~~~~~~~
// A gemm on several threads must give each element of C to one thread, summed as on one thread. Two splits:
// by rows of C around a B packed once into the workspace by all threads (two parallel regions: pack, then
// multiply; Note [Shared packed B]), or by column blocks of C with each thread packing its own panels of B
// and a private copy of all of A (one region; `splitGemm`). The first packs each operand once in all; the
// second packs A once per thread, which at 256³ on 2 threads cost a fifth of each thread's time (its A is as
// large as its share of the product's B). The row split is taken while the packed B fits L2
// (gemmSettings.sharedPackedBBytes; a setting for A/B runs).

/** One float32 gemm on `threads` threads around a shared packed B at `pbAt` (Note [Gemm split]). */
export function sharedPackedGemm(threads: number, call: Parameters<GemmKernel>, pbAt: number): void {
  const [m, n, k, alpha, a, rsa, csa, b, rsb, csb, c, ldc, acc, ws] = call;
  const cols = splitRange(n, threads, 8);
  const packs: number[][] = [];
  for (let t = 0; t + 1 < cols.length; t++) packs.push([k, n, b, rsb, csb, cols[t] as number, cols[t + 1] as number, pbAt]);
  runKernelCalls('f32_gemm_pack_b', packs);
  const rows = splitRange(m, threads, 4);
  const calls: number[][] = [];
  for (let t = 0; t + 1 < rows.length; t++) {
    const [from, to] = [rows[t] as number, rows[t + 1] as number];
    calls.push([to - from, n, k, alpha, a + from * rsa * 4, rsa, csa, pbAt, c + from * ldc * 4, ldc, acc, ws + t * GEMM_WORKSPACE_BYTES]);
  }
  runKernelCalls('f32_gemm_prepacked', calls);
}
