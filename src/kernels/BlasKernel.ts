// The threaded float32 gemm around one shared packed B: the split of a product among threads that packs each
// operand once (Note [Gemm split]). Mirrors the threading inside the BLAS sgemm that ATen's
// native/cpu/BlasKernel.cpp hands products to (MKL / OpenBLAS split C among threads and share packed panels).

import { ScalarType } from '../c10/ScalarType.js';
import type { Device } from '../c10/Device.js';
import type { Tensor } from '../tensor/Tensor.js';
import { escapeStorage } from '../tensor/StorageScope.js';
import type { GemmKernel } from '../wasm/kernels.js';
import { GEMM_WORKSPACE_BYTES, gemmPackedBBytes } from '../wasm/reference.js';
import { runKernelCalls, splitRange, wasmKernelFor } from '../wasm/vec.js';
import { newStrided } from './TensorFactories.js';

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
export const gemmSettings = { sharedPackedBBytes: 1 << 20, keepWorkspace: true };

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

// Note [Persistent gemm workspace]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The packed gemm's workspace (packed A and B panels per thread, a shared packed B, staged small operands)
// is kept from one product to the next instead of allocated and freed around each. Freed, it was taken
// apart by the next product's result (the allocator splits free blocks before carving fresh pages, Note
// [Split before carving]), so the following workspace landed on untouched pages every call: matmul 256 on
// one thread spent ~2 ms per call against 0.7 ms for the kernel alone, most of it packing B into pages
// faulting in (V8 profile: packB 36% of the product; 334–775 µs of system time per call). Kept, the
// workspace stays in cache and mapped. It grows to the largest product's need (threads × 580 KiB + a shared
// packed B of at most 1 MiB, Note [Gemm split]); it escapes every `scope()`, is never handed to a caller,
// and is replaced when linear memory is (setNumThreads switching to a shared memory). `keepWorkspace: false`
// in gemmSettings restores the per-call workspace (for A/B runs).

let workspace: Tensor | null = null;

/**
 * A float32 tensor of at least `bytes` bytes in linear memory for the gemm kernel `name`'s workspace (Note
 * [Persistent gemm workspace]): the kept one when it is large enough and still in the current linear memory,
 * else a new one (kept in its place when it is in linear memory). The caller must not free it.
 */
export function gemmWorkspace(name: 'f32_gemm' | 'f64_gemm', bytes: number, device: Device): Tensor {
  const kept = workspace;
  if (kept !== null && !kept.storage.freed && kept.numel() * 4 >= bytes && gemmSettings.keepWorkspace) {
    if (wasmKernelFor<GemmKernel>(name, kept.storage.data(ScalarType.Float)) !== null) return kept;
  }
  if (kept !== null && !kept.storage.freed && wasmKernelFor<GemmKernel>(name, kept.storage.data(ScalarType.Float)) !== null) {
    kept.dispose();
  }
  workspace = null;
  const ws = newStrided([bytes / 4], [1], ScalarType.Float, device);
  if (gemmSettings.keepWorkspace && wasmKernelFor<GemmKernel>(name, ws.storage.data(ScalarType.Float)) !== null) {
    escapeStorage(ws.storage);
    workspace = ws;
  }
  return ws;
}

/** Frees the workspace `gemmWorkspace` returned if it is not the kept one (it was not in linear memory). */
export function releaseGemmWorkspace(ws: Tensor): void {
  if (ws !== workspace) ws.dispose();
}
