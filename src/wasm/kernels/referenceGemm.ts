// The JS twins of assembly/gemm.ts (f32_gemm, f64_gemm): the packed kernels' sums in their order, so that the
// tests compare bits and the products' JS fallback (src/kernels/LinearAlgebra.ts) gives the SIMD path's bits.
// See reference.ts for the rounding argument.
//
// Note [Blocked gemm twin]
// ~~~~~~~~~~~~~~~~~~~~~~~~
// What fixes an element's bits is its own order (Note [Packed gemm]): per KC-deep slice, the products summed in
// k order into a fresh accumulator, every product and every sum rounded to the element type (float32: each
// double product or sum of two float32 values rounded by Math.fround or a Float32Array store, which equals
// the f32x4 lane's operation; no fused multiply-add), then the slice's sum times alpha (when alpha is not 1)
// stored (the first slice, unless accumulating) or added to C. The loops around it are free, so the twin is
// blocked for the cache and for V8, per block of TWIN_NB columns of C and per KC slice:
// - float32 (gemmF32): B's slice is packed into panels of 4 columns (KC × 4, contiguous per k, in L1), and each
//   4×4 tile of C sums its sixteen elements in locals, Math.fround on every product and sum, reading four
//   rows of A in place. Measured against the acc-array loop below, in one process alternated (matmul 256 /
//   512 / 300 with B transposed, one thread): 19.4 / 141 / 29.6 ms against 25.0 / 192 / 41.3.
// - float64 (sliceF64): four rows of C at a time accumulate in a small array (4 × TWIN_NB, in L1) while the
//   slice of B (KC × TWIN_NB) stays in L2 across the rows of A; the innermost loop runs along a row of B, unit
//   stride when B is row-major (the caller's contiguous copy).
// bench/gemm_js_ab.ts measures the JS backend's matmul against the loop these replaced (Note [Cache-blocked
// gemm] in src/kernels/LinearAlgebra.ts).

/** The depth of one k-slice of the packed gemm: the twin sums in the same slices (Note [Packed gemm]). */
export const GEMM_KC = 256;
/**
 * Bytes of workspace f32_gemm and f64_gemm need, the larger of the two layouts: f32, packed A (64×256), packed
 * B (256×512) and a 4×8 tile of float32s; f64, packed A (64×256), packed B (256×256) and a 4×4 tile of float64s.
 */
export const GEMM_WORKSPACE_BYTES = Math.max((64 * 256 + 256 * 512 + 32) * 4, (64 * 256 + 256 * 256 + 16) * 8);

/** Columns of C per block of the twin (Note [Blocked gemm twin]). */
const TWIN_NB = 256;

type FloatArray = Float32Array | Float64Array;

const fround = Math.fround;

/**
 * acc[r·nb + j] = Σ_{p in [p0, p1)} a[i0+r, p]·b[p, j0+j] in k order for r < rows, j < nb, in float64 (the
 * products and sums of doubles are the f64x2 lanes' as they are).
 */
function sliceF64(
  acc: Float64Array,
  rows: number,
  nb: number,
  p0: number,
  p1: number,
  a: Float64Array,
  aRow: number,
  rsa: number,
  csa: number,
  b: Float64Array,
  bCol: number,
  rsb: number,
  csb: number,
): void {
  acc.fill(0, 0, rows * nb);
  if (rows === 4) {
    const [n1, n2, n3] = [nb, 2 * nb, 3 * nb];
    for (let p = p0; p < p1; p++) {
      const ap = aRow + p * csa;
      const v0 = a[ap] as number;
      const v1 = a[ap + rsa] as number;
      const v2 = a[ap + 2 * rsa] as number;
      const v3 = a[ap + 3 * rsa] as number;
      const bRow = bCol + p * rsb;
      if (csb === 1) {
        for (let j = 0; j < nb; j++) {
          const bv = b[bRow + j] as number;
          acc[j] = (acc[j] as number) + v0 * bv;
          acc[n1 + j] = (acc[n1 + j] as number) + v1 * bv;
          acc[n2 + j] = (acc[n2 + j] as number) + v2 * bv;
          acc[n3 + j] = (acc[n3 + j] as number) + v3 * bv;
        }
      } else {
        for (let j = 0; j < nb; j++) {
          const bv = b[bRow + j * csb] as number;
          acc[j] = (acc[j] as number) + v0 * bv;
          acc[n1 + j] = (acc[n1 + j] as number) + v1 * bv;
          acc[n2 + j] = (acc[n2 + j] as number) + v2 * bv;
          acc[n3 + j] = (acc[n3 + j] as number) + v3 * bv;
        }
      }
    }
    return;
  }
  for (let r = 0; r < rows; r++) {
    const o = r * nb;
    for (let p = p0; p < p1; p++) {
      const av = a[aRow + r * rsa + p * csa] as number;
      const bRow = bCol + p * rsb;
      for (let j = 0; j < nb; j++) acc[o + j] = (acc[o + j] as number) + av * (b[bRow + j * csb] as number);
    }
  }
}

/**
 * C = alpha·A·B (+ C when `accumulate`) in the packed kernels' order (Note [Blocked gemm twin]). Offsets and
 * strides in elements; C is row-major with row stride ldc; `alpha` a value of C's element type.
 */
function gemmTwin(
  m: number,
  n: number,
  k: number,
  alpha: number,
  a: FloatArray,
  ai: number,
  rsa: number,
  csa: number,
  b: FloatArray,
  bi: number,
  rsb: number,
  csb: number,
  c: FloatArray,
  ci: number,
  ldc: number,
  accumulate: boolean,
): void {
  if (k === 0) {
    if (!accumulate) for (let i = 0; i < m; i++) c.fill(0, ci + i * ldc, ci + i * ldc + n);
    return;
  }
  if (c instanceof Float32Array) {
    gemmF32(m, n, k, alpha, a as Float32Array, ai, rsa, csa, b as Float32Array, bi, rsb, csb, c, ci, ldc, accumulate);
    return;
  }
  const acc = new Float64Array(4 * Math.min(n, TWIN_NB));
  for (let j0 = 0; j0 < n; j0 += TWIN_NB) {
    const nb = Math.min(TWIN_NB, n - j0);
    const bCol = bi + j0 * csb;
    for (let p0 = 0; p0 < k; p0 += GEMM_KC) {
      const p1 = Math.min(p0 + GEMM_KC, k);
      const add = accumulate || p0 !== 0;
      for (let i0 = 0; i0 < m; i0 += 4) {
        const rows = Math.min(4, m - i0);
        const aRow = ai + i0 * rsa;
        sliceF64(acc, rows, nb, p0, p1, a as Float64Array, aRow, rsa, csa, b as Float64Array, bCol, rsb, csb);
        for (let r = 0; r < rows; r++) {
          const cRow = ci + (i0 + r) * ldc + j0;
          const o = r * nb;
          for (let j = 0; j < nb; j++) {
            const s = acc[o + j] as number;
            const v = alpha === 1 ? s : alpha * s;
            c[cRow + j] = add ? (c[cRow + j] as number) + v : v;
          }
        }
      }
    }
  }
}

/** f32_gemm's twin (float32 arrays; `alpha` already a float32 value). */
export function f32_gemm(
  m: number,
  n: number,
  k: number,
  alpha: number,
  a: Float32Array,
  ai: number,
  rsa: number,
  csa: number,
  b: Float32Array,
  bi: number,
  rsb: number,
  csb: number,
  c: Float32Array,
  ci: number,
  ldc: number,
  accumulate: boolean,
): void {
  gemmTwin(m, n, k, alpha, a, ai, rsa, csa, b, bi, rsb, csb, c, ci, ldc, accumulate);
}

/** f64_gemm's twin (float64 arrays). */
export function f64_gemm(
  m: number,
  n: number,
  k: number,
  alpha: number,
  a: Float64Array,
  ai: number,
  rsa: number,
  csa: number,
  b: Float64Array,
  bi: number,
  rsb: number,
  csb: number,
  c: Float64Array,
  ci: number,
  ldc: number,
  accumulate: boolean,
): void {
  gemmTwin(m, n, k, alpha, a, ai, rsa, csa, b, bi, rsb, csb, c, ci, ldc, accumulate);
}

/**
 * One 4×4 tile of C over the k-slice [p0, p0 + kc) in float32, the sums in sixteen locals (Note [Blocked gemm
 * twin]): rows `x` of A (element offsets of a[i, p0], rows past `rows` repeat the last), `bp` a packed panel of
 * B (kc × 4, columns past `cols` zero); the live part of the tile times alpha stored or added to C.
 */
// prettier-ignore
function tileF32(kc: number, a: Float32Array, x0: number, x1: number, x2: number, x3: number, csa: number, bp: Float32Array, bo: number, c: Float32Array, co: number, ldc: number, rows: number, cols: number, alpha: number, add: boolean): void {
  let s00 = 0, s01 = 0, s02 = 0, s03 = 0, s10 = 0, s11 = 0, s12 = 0, s13 = 0;
  let s20 = 0, s21 = 0, s22 = 0, s23 = 0, s30 = 0, s31 = 0, s32 = 0, s33 = 0;
  for (let p = 0; p < kc; p++) {
    const q = p * csa;
    const a0 = a[x0 + q] as number, a1 = a[x1 + q] as number, a2 = a[x2 + q] as number, a3 = a[x3 + q] as number;
    const o = bo + 4 * p;
    const b0 = bp[o] as number, b1 = bp[o + 1] as number, b2 = bp[o + 2] as number, b3 = bp[o + 3] as number;
    s00 = fround(s00 + fround(a0 * b0)); s01 = fround(s01 + fround(a0 * b1)); s02 = fround(s02 + fround(a0 * b2)); s03 = fround(s03 + fround(a0 * b3));
    s10 = fround(s10 + fround(a1 * b0)); s11 = fround(s11 + fround(a1 * b1)); s12 = fround(s12 + fround(a1 * b2)); s13 = fround(s13 + fround(a1 * b3));
    s20 = fround(s20 + fround(a2 * b0)); s21 = fround(s21 + fround(a2 * b1)); s22 = fround(s22 + fround(a2 * b2)); s23 = fround(s23 + fround(a2 * b3));
    s30 = fround(s30 + fround(a3 * b0)); s31 = fround(s31 + fround(a3 * b1)); s32 = fround(s32 + fround(a3 * b2)); s33 = fround(s33 + fround(a3 * b3));
  }
  const t = tileOut;
  t[0] = s00; t[1] = s01; t[2] = s02; t[3] = s03; t[4] = s10; t[5] = s11; t[6] = s12; t[7] = s13;
  t[8] = s20; t[9] = s21; t[10] = s22; t[11] = s23; t[12] = s30; t[13] = s31; t[14] = s32; t[15] = s33;
  for (let r = 0; r < rows; r++) {
    for (let j = 0; j < cols; j++) {
      const s = t[4 * r + j] as number;
      const v = alpha === 1 ? s : fround(alpha * s);
      const at = co + r * ldc + j;
      c[at] = add ? (c[at] as number) + v : v;
    }
  }
}

/** tileF32's tile, as float32s (the sums are float32 values already). */
const tileOut = new Float64Array(16);

/**
 * C = alpha·A·B (+ C) in float32 by 4×4 tiles (Note [Blocked gemm twin]): per block of TWIN_NB columns and KC
 * slice, B's slice packed into kc × 4 panels (`packed`, TWIN_NB·KC floats), then every tile of C.
 */
// prettier-ignore
function gemmF32(m: number, n: number, k: number, alpha: number, a: Float32Array, ai: number, rsa: number, csa: number, b: Float32Array, bi: number, rsb: number, csb: number, c: Float32Array, ci: number, ldc: number, accumulate: boolean): void {
  const packed = new Float32Array(Math.min(k, GEMM_KC) * (Math.ceil(Math.min(n, TWIN_NB) / 4) * 4));
  for (let j0 = 0; j0 < n; j0 += TWIN_NB) {
    const nb = Math.min(TWIN_NB, n - j0);
    for (let p0 = 0; p0 < k; p0 += GEMM_KC) {
      const kc = Math.min(GEMM_KC, k - p0);
      for (let q = 0; q < nb; q += 4) {
        const base = q * kc;
        for (let p = 0; p < kc; p++) {
          const from = bi + (p0 + p) * rsb + (j0 + q) * csb;
          for (let j = 0; j < 4; j++) packed[base + 4 * p + j] = q + j < nb ? (b[from + j * csb] as number) : 0;
        }
      }
      const add = accumulate || p0 !== 0;
      for (let i0 = 0; i0 < m; i0 += 4) {
        const rows = Math.min(4, m - i0);
        const x0 = ai + i0 * rsa + p0 * csa;
        const x1 = rows > 1 ? x0 + rsa : x0;
        const x2 = rows > 2 ? x0 + 2 * rsa : x1;
        const x3 = rows > 3 ? x0 + 3 * rsa : x2;
        for (let q = 0; q < nb; q += 4) {
          tileF32(kc, a, x0, x1, x2, x3, csa, packed, q * kc, c, ci + i0 * ldc + j0 + q, ldc, rows, Math.min(4, nb - q), alpha, add);
        }
      }
    }
  }
}
