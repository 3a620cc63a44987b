// Matrix products C = alpha·A·B (+ C) in float32 (f32_gemm, a 4×8 micro-kernel) and float64 (f64_gemm, a 4×4
// micro-kernel), with packed panels and register blocking. The shape is BLIS's (and XNNPACK's f32-gemm): five
// loops around a micro-kernel, A and B packed into contiguous panels so the micro-kernel streams both from
// cache with unit stride. ATen's counterpart is the BLAS sgemm / dgemm behind at::mm (native/cpu/BlasKernel.cpp,
// mkldnn_matmul).
//
// Note [Packed gemm]
// ~~~~~~~~~~~~~~~~~~
// - A (m×k) and B (k×n) are read through element strides (rs, cs), so a transposed or sliced operand is
//   packed straight from its storage: no contiguous copy. C is row-major with row stride ldc.
// - Blocking (float32): for each NC-column block of B (NC = 512) and each KC-deep slice (KC = 256), B is packed
//   into KC×8 panels (8 columns side by side per k); then for each MC-row block of A (MC = 64), A is packed into
//   KC×4 panels (4 rows side by side per k), and the micro-kernel runs over every 4×8 tile. KC×8 floats of B
//   (8 KiB) stay in L1 while a panel of A streams; an MC×KC block of A (64 KiB) stays in L2; the packed B
//   block is 512 KiB.
// - float64 blocks the same way with the same KC and MC, but B's panels are KC×4 (NR = 4) and NC = 256, so the
//   packed B block stays at 512 KiB (256×256 doubles); packed A is 128 KiB and a B panel 8 KiB.
// - The micro-kernels keep their tile in eight v128 accumulators (more than eight live v128 spill on x86-64
//   engines): float32, 4×8 in f32x4s, per k two loads of B, four splats of A, eight multiplies and eight adds;
//   float64, 4×4 in f64x2s (4 rows × 2 vectors), the same per k with 64-bit splats. Plain SIMD has no fused
//   multiply-add; products round before they are added (except in the relaxed build, Note [Relaxed gemm]).
// - One source: packA, packB, microKernel, gemmBlock, gemm and gemmBatch are generic over the element type T
//   (f32 or f64), and f32_gemm / f64_gemm their two instantiations. A tile row is two v128 (NR = 32 /
//   sizeof<T>()), NC = 2048 / sizeof<T>(), the packed A block MC·KC·sizeof<T>() bytes: constants once T is
//   fixed, so each instantiation compiles to what a hand-written copy was. The only dtype branches are
//   `sizeof<T>() == 4` tests: the register transposes of Note [Vector packing] have 4-byte lanes, and the
//   float64 panels that are not a row-major B pack element by element.
// - Summation order, which the JS twins (src/wasm/kernels/reference.ts) follow bit for bit: each KC slice sums its
//   products in k order into a fresh accumulator; the slice's sum times alpha (skipped when alpha is 1) is then
//   stored (the first slice, unless accumulating) or added to C.
// - Edge tiles: panels are zero-padded to 4 rows / NR columns; a partial tile is computed whole into the
//   workspace's tile scratch and its live part copied to C.
// - Workspace (`ws`, 64-byte aligned, GEMM_WORKSPACE_BYTES in src/wasm/kernels/reference.ts, the larger of the two
//   layouts): packed A, packed B, the tile scratch. Kernels never allocate; the caller lends it
//   (src/kernels/LinearAlgebra.ts, `packedGemm`).
//
// Note [Vector packing]
// ~~~~~~~~~~~~~~~~~~~~~
// Packing moves every element of A and B once per block, element by element a scalar load and store each;
// at 256³ that was ~8% of the product on one thread. A panel needs, per k, MR rows of A (or NR columns of B)
// side by side, so an operand whose rows (A) or columns (B) run along memory is packed four k's at a time:
// four 16-byte loads, one from each of four rows, a 4×4 transpose in registers (eight shuffles), four stores.
// An operand whose panel direction is already contiguous in memory (column-major A, row-major B) copies a
// whole vector per k. Anything else (edge panels, other strides, the k tail) packs element by element.

// Note [Relaxed gemm]
// ~~~~~~~~~~~~~~~~~~~
// The module is built twice from the same source (tools/wasm/build.ts): plain SIMD, and with relaxed SIMD,
// where the micro-kernels' multiply-add is `relaxed_madd` (madd<T>), one fused multiply-add per lane
// on x86-64 with FMA and on arm64: the same number of instructions does twice the work of a multiply and an
// add. The loader takes the relaxed build where the engine validates relaxed SIMD (Chromium >= 114; Node 20
// behind --experimental-wasm-relaxed-simd), for the caller and every worker alike, so results still do not
// depend on the thread count. `relaxed_madd` may or may not round the product (the engine chooses per CPU),
// so its bits are not reproducible in JS: the JS twins (reference.ts) match the plain build bit for bit, and
// the relaxed build is tested against the exact product with a tolerance (test/wasm/relaxed.test.ts).
// The tile stays 4×8: with fused multiply-adds a 5×8 or 6×8 tile (10 or 12 accumulators) was 2–6× slower on
// Node 20's V8 (spills), and the 4×8 relaxed tile measured 0–25% faster than the plain one (a loaded machine).

// One source for both dtypes (Note [Packed gemm]): every size below is a compile-time constant of T.
const MR: usize = 4;
const KC: usize = 256;
const MC: usize = 64;

/** Columns per tile: 8 floats or 4 doubles (two v128 per tile row). */
// @ts-ignore: decorator
@inline function nr<T>(): usize {
  return 32 / sizeof<T>();
}

/** Columns per B block: 512 floats or 256 doubles (a 512 KiB packed block of KC rows). */
// @ts-ignore: decorator
@inline function nc<T>(): usize {
  return 2048 / sizeof<T>();
}

/**
 * a·b + c per lane: one fused multiply-add in the relaxed build (`relaxed_madd`, which engines lower to FMA where
 * the CPU has it), a rounded multiply then an add in the plain build (Note [Relaxed gemm]).
 */
// @ts-ignore: decorator
@inline function madd<T>(a: v128, b: v128, c: v128): v128 {
  if (ASC_FEATURE_RELAXED_SIMD) return v128.relaxed_madd<T>(a, b, c);
  return v128.add<T>(c, v128.mul<T>(a, b));
}

/** The 4×4 transpose of rows r0..r3: lane q of result p is lane p of row q (Note [Vector packing]). */
// @ts-ignore: decorator
@inline function transposeStore(r0: v128, r1: v128, r2: v128, r3: v128, dst: usize, step: usize): void {
  const t0 = v128.shuffle<i32>(r0, r1, 0, 4, 1, 5);
  const t1 = v128.shuffle<i32>(r0, r1, 2, 6, 3, 7);
  const t2 = v128.shuffle<i32>(r2, r3, 0, 4, 1, 5);
  const t3 = v128.shuffle<i32>(r2, r3, 2, 6, 3, 7);
  v128.store(dst, v128.shuffle<i32>(t0, t2, 0, 1, 4, 5));
  v128.store(dst + step, v128.shuffle<i32>(t0, t2, 2, 3, 6, 7));
  v128.store(dst + 2 * step, v128.shuffle<i32>(t1, t3, 0, 1, 4, 5));
  v128.store(dst + 3 * step, v128.shuffle<i32>(t1, t3, 2, 3, 6, 7));
}

/** Packs rows [i0, i0+mc) × k-slice [p0, p0+kc) of A into mc/MR panels of kc×MR elements (rows zero-padded). */
function packA<T>(mc: usize, kc: usize, a: usize, rsa: usize, csa: usize, i0: usize, p0: usize, dst: usize): void {
  const z = sizeof<T>();
  for (let ir: usize = 0; ir < mc; ir += MR) {
    const rows = min<usize>(MR, mc - ir);
    const panel = dst + ir * kc * z;
    let from: usize = 0; // k's already packed by a vector path
    if (sizeof<T>() == 4 && rows == MR && csa == 1) {
      // Row-major A: four k's of four rows, transposed in registers (Note [Vector packing]).
      const rowBytes = rsa * 4;
      let src = a + ((i0 + ir) * rsa + p0) * 4;
      for (; from + 4 <= kc; from += 4) {
        transposeStore(
          v128.load(src),
          v128.load(src + rowBytes),
          v128.load(src + 2 * rowBytes),
          v128.load(src + 3 * rowBytes),
          panel + from * 16,
          16,
        );
        src += 16;
      }
    } else if (sizeof<T>() == 4 && rows == MR && rsa == 1) {
      // Column-major A (a transposed operand): the four rows of one k are adjacent.
      let src = a + (i0 + ir + p0 * csa) * 4;
      const step = csa * 4;
      for (; from < kc; from++) {
        v128.store(panel + from * 16, v128.load(src));
        src += step;
      }
    }
    if (from == kc) continue;
    for (let r: usize = 0; r < MR; r++) {
      if (r < rows) {
        let src = a + ((i0 + ir + r) * rsa + (p0 + from) * csa) * z;
        const step = csa * z;
        for (let p: usize = from; p < kc; p++) {
          store<T>(panel + (p * MR + r) * z, load<T>(src));
          src += step;
        }
      } else {
        for (let p: usize = from; p < kc; p++) store<T>(panel + (p * MR + r) * z, 0);
      }
    }
  }
}

/** Packs k-slice [p0, p0+kc) × columns [j0, j0+nc) of B into nc/NR panels of kc×NR elements (columns zero-padded). */
function packB<T>(kc: usize, nc: usize, b: usize, rsb: usize, csb: usize, p0: usize, j0: usize, dst: usize): void {
  const z = sizeof<T>();
  const NR = nr<T>();
  for (let jr: usize = 0; jr < nc; jr += NR) {
    const cols = min<usize>(NR, nc - jr);
    const panel = dst + jr * kc * z;
    if (cols == NR && csb == 1) {
      // Row-major B: each k contributes NR adjacent elements, two vectors.
      let src = b + (p0 * rsb + j0 + jr) * z;
      const step = rsb * z;
      for (let p: usize = 0; p < kc; p++) {
        v128.store(panel + p * 32, v128.load(src));
        v128.store(panel + p * 32, v128.load(src, 16), 16);
        src += step;
      }
      continue;
    }
    let from: usize = 0;
    if (sizeof<T>() == 4 && cols == NR && rsb == 1) {
      // Column-major B (a transposed operand, e.g. linear's weight.t()): four k's of eight columns, as two
      // 4×4 transposes (Note [Vector packing]).
      const colBytes = csb * 4;
      let src = b + (p0 + (j0 + jr) * csb) * 4;
      for (; from + 4 <= kc; from += 4) {
        transposeStore(
          v128.load(src),
          v128.load(src + colBytes),
          v128.load(src + 2 * colBytes),
          v128.load(src + 3 * colBytes),
          panel + from * 32,
          32,
        );
        transposeStore(
          v128.load(src + 4 * colBytes),
          v128.load(src + 5 * colBytes),
          v128.load(src + 6 * colBytes),
          v128.load(src + 7 * colBytes),
          panel + from * 32 + 16,
          32,
        );
        src += 16;
      }
      if (from == kc) continue;
    }
    for (let c: usize = 0; c < NR; c++) {
      if (c < cols) {
        let src = b + ((p0 + from) * rsb + (j0 + jr + c) * csb) * z;
        const step = rsb * z;
        for (let p: usize = from; p < kc; p++) {
          store<T>(panel + (p * NR + c) * z, load<T>(src));
          src += step;
        }
      } else {
        for (let p: usize = from; p < kc; p++) store<T>(panel + (p * NR + c) * z, 0);
      }
    }
  }
}

/**
 * One MR×NR tile: C[0..4, 0..NR] (row stride `ldcBytes`) = alpha·(Apanel·Bpanel) (+ C when `add`), over `kc`
 * k's; per k two vectors of B and four splats of A into eight accumulators.
 */
// @ts-ignore: decorator
@inline function microKernel<T>(kc: usize, ap: usize, bp: usize, c: usize, ldcBytes: usize, alpha: T, add: bool): void {
  const z = sizeof<T>();
  let c00 = v128.splat<T>(0);
  let c01 = v128.splat<T>(0);
  let c10 = v128.splat<T>(0);
  let c11 = v128.splat<T>(0);
  let c20 = v128.splat<T>(0);
  let c21 = v128.splat<T>(0);
  let c30 = v128.splat<T>(0);
  let c31 = v128.splat<T>(0);
  for (let p: usize = 0; p < kc; p++) {
    const b0 = v128.load(bp);
    const b1 = v128.load(bp, 16);
    const a0 = v128.load_splat<T>(ap);
    const a1 = v128.load_splat<T>(ap, sizeof<T>());
    const a2 = v128.load_splat<T>(ap, 2 * sizeof<T>());
    const a3 = v128.load_splat<T>(ap, 3 * sizeof<T>());
    c00 = madd<T>(a0, b0, c00);
    c01 = madd<T>(a0, b1, c01);
    c10 = madd<T>(a1, b0, c10);
    c11 = madd<T>(a1, b1, c11);
    c20 = madd<T>(a2, b0, c20);
    c21 = madd<T>(a2, b1, c21);
    c30 = madd<T>(a3, b0, c30);
    c31 = madd<T>(a3, b1, c31);
    ap += MR * z;
    bp += 32;
  }
  if (alpha != 1) {
    const va = v128.splat<T>(alpha);
    c00 = v128.mul<T>(c00, va);
    c01 = v128.mul<T>(c01, va);
    c10 = v128.mul<T>(c10, va);
    c11 = v128.mul<T>(c11, va);
    c20 = v128.mul<T>(c20, va);
    c21 = v128.mul<T>(c21, va);
    c30 = v128.mul<T>(c30, va);
    c31 = v128.mul<T>(c31, va);
  }
  if (add) {
    c00 = v128.add<T>(c00, v128.load(c));
    c01 = v128.add<T>(c01, v128.load(c, 16));
    c10 = v128.add<T>(c10, v128.load(c + ldcBytes));
    c11 = v128.add<T>(c11, v128.load(c + ldcBytes, 16));
    c20 = v128.add<T>(c20, v128.load(c + 2 * ldcBytes));
    c21 = v128.add<T>(c21, v128.load(c + 2 * ldcBytes, 16));
    c30 = v128.add<T>(c30, v128.load(c + 3 * ldcBytes));
    c31 = v128.add<T>(c31, v128.load(c + 3 * ldcBytes, 16));
  }
  v128.store(c, c00);
  v128.store(c, c01, 16);
  v128.store(c + ldcBytes, c10);
  v128.store(c + ldcBytes, c11, 16);
  v128.store(c + 2 * ldcBytes, c20);
  v128.store(c + 2 * ldcBytes, c21, 16);
  v128.store(c + 3 * ldcBytes, c30);
  v128.store(c + 3 * ldcBytes, c31, 16);
}

/**
 * One (j0, p0) block of C = alpha·A·B: rows [0, m) of A's k-slice [p0, p0+kc) against `bBlock`, B's packed
 * k-slice for columns [j0, j0+nc) (nc/NR panels of kc×NR elements); each MC-row block of A is packed into
 * `packedA`.
 */
function gemmBlock<T>(
  m: usize,
  nc: usize,
  kc: usize,
  alpha: T,
  a: usize,
  rsa: usize,
  csa: usize,
  p0: usize,
  bBlock: usize,
  c: usize,
  ldc: usize,
  add: bool,
  packedA: usize,
  tile: usize,
): void {
  const z = sizeof<T>();
  const NR = nr<T>();
  const ldcBytes = ldc * z;
  for (let i0: usize = 0; i0 < m; i0 += MC) {
    const mc = min<usize>(MC, m - i0);
    packA<T>(mc, kc, a, rsa, csa, i0, p0, packedA);
    for (let jr: usize = 0; jr < nc; jr += NR) {
      const cols = min<usize>(NR, nc - jr);
      const bp = bBlock + jr * kc * z;
      for (let ir: usize = 0; ir < mc; ir += MR) {
        const rows = min<usize>(MR, mc - ir);
        const ap = packedA + ir * kc * z;
        const ct = c + ((i0 + ir) * ldc + jr) * z;
        if (rows == MR && cols == NR) {
          if (add) microKernel<T>(kc, ap, bp, ct, ldcBytes, alpha, true);
          else microKernel<T>(kc, ap, bp, ct, ldcBytes, alpha, false);
        } else {
          microKernel<T>(kc, ap, bp, tile, NR * z, alpha, false);
          for (let r: usize = 0; r < rows; r++) {
            for (let q: usize = 0; q < cols; q++) {
              const dst = ct + r * ldcBytes + q * z;
              const v = load<T>(tile + (r * NR + q) * z);
              store<T>(dst, add ? load<T>(dst) + v : v);
            }
          }
        }
      }
    }
  }
}

/**
 * C = alpha·A·B, or C += alpha·A·B when `accumulate` is non-zero. A is m×k with element strides (rsa, csa), B is
 * k×n with (rsb, csb), C is m×n row-major with row stride ldc. `ws`: the workspace (Note [Packed gemm]): packed
 * A (MC×KC elements), packed B (KC×NC), the tile scratch.
 */
// prettier-ignore
function gemm<T>(m: usize, n: usize, k: usize, alpha: T, a: usize, rsa: usize, csa: usize, b: usize, rsb: usize, csb: usize, c: usize, ldc: usize, accumulate: i32, ws: usize): void {
  const z = sizeof<T>();
  const NC = nc<T>();
  const packedA = ws;
  const packedB = ws + MC * KC * z;
  const tile = packedB + KC * NC * z;
  if (k == 0) {
    if (accumulate == 0) for (let i: usize = 0; i < m; i++) memory.fill(c + i * ldc * z, 0, n * z);
    return;
  }
  for (let j0: usize = 0; j0 < n; j0 += NC) {
    const ncb = min<usize>(NC, n - j0);
    for (let p0: usize = 0; p0 < k; p0 += KC) {
      const kc = min<usize>(KC, k - p0);
      packB<T>(kc, ncb, b, rsb, csb, p0, j0, packedB);
      gemmBlock<T>(m, ncb, kc, alpha, a, rsa, csa, p0, packedB, c + j0 * z, ldc, accumulate != 0 || p0 != 0, packedA, tile);
    }
  }
}

/** gemm<f32> (Note [Packed gemm]): a 4×8 tile. */
// prettier-ignore
export function f32_gemm(m: usize, n: usize, k: usize, alpha: f32, a: usize, rsa: usize, csa: usize, b: usize, rsb: usize, csb: usize, c: usize, ldc: usize, accumulate: i32, ws: usize): void {
  gemm<f32>(m, n, k, alpha, a, rsa, csa, b, rsb, csb, c, ldc, accumulate, ws);
}

/** gemm<f64> (Note [Packed gemm]): a 4×4 tile, otherwise as f32_gemm (strides in elements, the same workspace). */
// prettier-ignore
export function f64_gemm(m: usize, n: usize, k: usize, alpha: f64, a: usize, rsa: usize, csa: usize, b: usize, rsb: usize, csb: usize, c: usize, ldc: usize, accumulate: i32, ws: usize): void {
  gemm<f64>(m, n, k, alpha, a, rsa, csa, b, rsb, csb, c, ldc, accumulate, ws);
}

// ---- runs of products: one call, several gemms (Note [Images among threads]) ----

/**
 * For i < count: gemm<T> of the i-th product, A, B and C advanced by sa, sb, sc elements per product, on one
 * workspace: a thread's share of a convolution's per-image products in one call.
 */
// prettier-ignore
function gemmBatch<T>(count: usize, m: usize, n: usize, k: usize, alpha: T, a: usize, rsa: usize, csa: usize, sa: usize, b: usize, rsb: usize, csb: usize, sb: usize, c: usize, ldc: usize, sc: usize, accumulate: i32, ws: usize): void {
  const z = sizeof<T>();
  for (let i: usize = 0; i < count; i++) gemm<T>(m, n, k, alpha, a + i * sa * z, rsa, csa, b + i * sb * z, rsb, csb, c + i * sc * z, ldc, accumulate, ws);
}

/** gemmBatch<f32>. */
// prettier-ignore
export function f32_gemm_batch(count: usize, m: usize, n: usize, k: usize, alpha: f32, a: usize, rsa: usize, csa: usize, sa: usize, b: usize, rsb: usize, csb: usize, sb: usize, c: usize, ldc: usize, sc: usize, accumulate: i32, ws: usize): void {
  gemmBatch<f32>(count, m, n, k, alpha, a, rsa, csa, sa, b, rsb, csb, sb, c, ldc, sc, accumulate, ws);
}

/** gemmBatch<f64>. */
// prettier-ignore
export function f64_gemm_batch(count: usize, m: usize, n: usize, k: usize, alpha: f64, a: usize, rsa: usize, csa: usize, sa: usize, b: usize, rsb: usize, csb: usize, sb: usize, c: usize, ldc: usize, sc: usize, accumulate: i32, ws: usize): void {
  gemmBatch<f64>(count, m, n, k, alpha, a, rsa, csa, sa, b, rsb, csb, sb, c, ldc, sc, accumulate, ws);
}
