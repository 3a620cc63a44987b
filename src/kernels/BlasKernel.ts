// The threaded gemm: how a product splits among threads (Note [Gemm split]), the packed kernel's kept
// workspace (Note [Persistent gemm workspace]), and the products' JS path on the kernel's twin (twinGemm).
// Mirrors the threading inside the BLAS sgemm that ATen's native/cpu/BlasKernel.cpp hands products to
// (MKL / OpenBLAS split C among threads).

import { ScalarType } from '../c10/ScalarType.js';
import type { Device } from '../c10/Device.js';
import type { Tensor } from '../tensor/Tensor.js';
import { escapeStorage } from '../tensor/StorageScope.js';
import type { GemmKernel } from '../wasm/kernels/KernelTable.js';
import { GEMM_WORKSPACE_BYTES, f32_gemm, f64_gemm } from '../wasm/kernels/reference.js';
import * as at from '../generated/TensorBody.js';
import { splitRange, wasmKernelFor } from '../wasm/kernels/vec.js';
import { newStrided } from './TensorFactories.js';

// Note [Gemm split]
// ~~~~~~~~~~~~~~~~~
// A gemm on several threads gives each thread a block of C, summed as on one thread (`splitGemm` below):
// column blocks (multiples of 8) when C is wider than tall, else row blocks, each thread packing its own
// panels of A and B into its own workspace, in one parallel region. A second split was tried
// and removed: rows of C around one B packed by all threads into a shared buffer (two regions, pack then
// multiply), which packs each operand once in all. Measured in one process alternating the two (2 threads,
// warmed linear memory, medians of 11–15 rounds), the one-region split was as fast or faster at every shape
// tried: matmul 256³ 357 vs 391 µs, the MLP's 64×784×128 202 vs 253 µs, 32×4096×64 234 vs 344 µs,
// 16×8192×27 149 vs 182 µs, 512³ 2.94 vs 3.00 ms (speedup over 1 thread 1.92, 1.43, 1.90, 1.61, 1.92;
// bench/gemm_threads.ts measures the split per shape). The likely difference, not profiled: the shared
// split's second region (a wake-up and a barrier) and each thread reading the other's half of B from the
// other core's cache, against packing a private copy of the smaller operand.

/**
 * One gemm call (f32_gemm's or f64_gemm's arguments; elements of `bytes`) as `threads` calls over disjoint
 * blocks of C: column blocks (multiples of 8) when C is wider than tall, else row blocks (multiples of 4),
 * each with its own workspace. Every element of C is summed by one thread in the same order as on one
 * (Note [Worker threads over linear memory]).
 */
export function splitGemm(threads: number, call: Parameters<GemmKernel>, bytes: number): number[][] {
  const [m, n, k, alpha, a, rsa, csa, b, rsb, csb, c, ldc, acc, ws] = call;
  const byColumns = n >= m;
  const cuts = splitRange(byColumns ? n : m, threads, byColumns ? 8 : 4);
  const calls: number[][] = [];
  for (let t = 0; t + 1 < cuts.length; t++) {
    const [from, to] = [cuts[t] as number, cuts[t + 1] as number];
    const w = ws + t * GEMM_WORKSPACE_BYTES;
    if (byColumns) calls.push([m, to - from, k, alpha, a, rsa, csa, b + from * csb * bytes, rsb, csb, c + from * bytes, ldc, acc, w]);
    else calls.push([to - from, n, k, alpha, a + from * rsa * bytes, rsa, csa, b, rsb, csb, c + from * ldc * bytes, ldc, acc, w]);
  }
  return calls;
}

/**
 * Settings of the gemm: `keepWorkspace` (Note [Persistent gemm workspace]) and `minSplitMacs`, the multiply-adds
 * from which mm / addmm / bmm's products split among threads (Note [Small products on one thread]); both
 * for A/B runs.
 */
export const gemmSettings = { keepWorkspace: true, minSplitMacs: 8 * 2 ** 20 };

// Note [Small products on one thread]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// mm, addmm and bmm (packedGemm in LinearAlgebra.ts) run a product on one thread below 8M multiply-adds,
// whatever Note [Gemm grain] would give it. In the jobs benchmark's run of record (bench/RESULTS.md, quiet
// machine, 103cba4) the 784-128-10 MLP step's products are 6.4M multiply-adds (64×784×128 forward, 128×64×784
// for the weight gradient): split in two, `addmm` took 0.62 ms a step on 2 threads against 0.34 ms on 1, and
// `mm` 0.50 ms on both; the 784-512-512-10 step's 16.8M–25.7M products gained (mm 2.78 → 1.95 ms, addmm 2.01 →
// 1.51 ms). In a training step the second thread is parked between products (Note [Bounded spin]) and half of
// C and of the packed operands crosses between the cores, which a 3.2M-multiply-add half (~130 µs) does not
// repay; alone, in a loop that keeps the worker spinning, the same product gained 1.43× (Note [Gemm split]).
// Convolution and attention keep Note [Gemm grain]: they split images and heads, not one small product.
// The split never changes a bit (Note [Gemm split]), so this is a speed rule only.

// Note [Persistent gemm workspace]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The packed gemm's workspace (packed A and B panels per thread, staged small operands)
// is kept from one product to the next instead of allocated and freed around each. Freed, it was taken
// apart by the next product's result (the allocator splits free blocks before carving fresh pages, Note
// [Split before carving]), so the following workspace landed on untouched pages every call: matmul 256 on
// one thread spent ~2 ms per call against 0.7 ms for the kernel alone, most of it packing B into pages
// faulting in (V8 profile: packB 36% of the product; 334–775 µs of system time per call). Kept, the
// workspace stays in cache and mapped. It grows to the largest product's need (threads × 580 KiB and the
// staged operands, Note [Gemm split]); it escapes every `scope()`, is never handed to a caller,
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

/**
 * The float32 / float64 products' path without the kernels (LinearAlgebra.ts's productInto,
 * Note [Cache-blocked gemm]): f32_gemm's or f64_gemm's JS twin, the same bits
 * (Note [Blocked gemm twin]), reading A through its strides and B through a copy with unit column stride
 * unless it has one. False for other dtypes.
 */
export function twinGemm(a: Tensor, b: Tensor, out: Tensor, alpha: number, accumulate: boolean): boolean {
  const dtype = out.scalarType;
  if ((dtype !== ScalarType.Float && dtype !== ScalarType.Double) || a.scalarType !== dtype || b.scalarType !== dtype) return false;
  const d = a.dim();
  const [m, k, n] = [a.sizes[d - 2] as number, a.sizes[d - 1] as number, b.sizes[d - 1] as number];
  const bc = b.strides[d - 1] === 1 ? b : at.contiguous(b);
  const [A, B, C] = [a.storage.data(dtype), bc.storage.data(dtype), out.storage.data(dtype)];
  const aOff = a.storage.arrayOffset(dtype) + a.storageOffset;
  const bOff = bc.storage.arrayOffset(dtype) + bc.storageOffset;
  const cOff = out.storage.arrayOffset(dtype) + out.storageOffset;
  const [rsa, csa, rsb] = [a.strides[d - 2] as number, a.strides[d - 1] as number, bc.strides[d - 2] as number];
  const [sa, sb] = d === 3 ? [a.strides[0] as number, bc.strides[0] as number] : [0, 0];
  for (let i = 0; i < (d === 3 ? (a.sizes[0] as number) : 1); i++) {
    const [ai, bi, ci] = [aOff + i * sa, bOff + i * sb, cOff + i * m * n];
    if (dtype === ScalarType.Float) {
      f32_gemm(
        m,
        n,
        k,
        Math.fround(alpha),
        A as Float32Array,
        ai,
        rsa,
        csa,
        B as Float32Array,
        bi,
        rsb,
        1,
        C as Float32Array,
        ci,
        n,
        accumulate,
      );
    } else {
      f64_gemm(m, n, k, alpha, A as Float64Array, ai, rsa, csa, B as Float64Array, bi, rsb, 1, C as Float64Array, ci, n, accumulate);
    }
  }
  if (bc.storage !== b.storage) bc.dispose(); // Note [Storage lifetime]
  return true;
}

/**
 * The complex gemm (BlasKernel.cpp's gemm_notrans_ for c10::complex): `C[i] = alpha·(A[i] @ B[i])` (`+ C[i]`
 * when `accumulate`) for `bs` contiguous m×k and k×n matrices of interleaved (re, im) values (offsets in array
 * lanes), each dot product
 * accumulated in double in k order; C's store rounds complex64 to float32 (See Note [Complex loops in JS]).
 */
export function complexGemm(
  bs: number,
  m: number,
  n: number,
  k: number,
  A: ArrayLike<number>,
  aOff: number,
  B: ArrayLike<number>,
  bOff: number,
  C: { [i: number]: number },
  cOff: number,
  alpha: number,
  accumulate: boolean,
): void {
  for (let b = 0; b < bs; b++) {
    const a0 = aOff + 2 * b * m * k;
    const b0 = bOff + 2 * b * k * n;
    const c0 = cOff + 2 * b * m * n;
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < n; j++) {
        let re = 0;
        let im = 0;
        for (let p = 0; p < k; p++) {
          const ar = A[a0 + 2 * (i * k + p)] as number;
          const ai = A[a0 + 2 * (i * k + p) + 1] as number;
          const br = B[b0 + 2 * (p * n + j)] as number;
          const bi = B[b0 + 2 * (p * n + j) + 1] as number;
          re += ar * br - ai * bi;
          im += ar * bi + ai * br;
        }
        const q = c0 + 2 * (i * n + j);
        C[q] = (accumulate ? (C[q] as number) : 0) + alpha * re;
        C[q + 1] = (accumulate ? (C[q + 1] as number) : 0) + alpha * im;
      }
    }
  }
}
