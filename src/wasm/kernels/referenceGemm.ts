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
// blocked for the cache as the JS loop it replaced was: per block of TWIN_NB columns and per KC slice, four
// rows of C at a time accumulate in a small array (4 × TWIN_NB, in L1) while the slice of B (KC × TWIN_NB)
// stays in L2 across the rows of A; the innermost loop runs along a row of B, unit stride when B is row-major
// (the caller's contiguous copy). float32 and float64 have separate inner loops so that V8 sees one rounding
// function per loop (Math.fround inlined, or none). Tried and dropped: float32 by 4×4 and 2×4 tiles summed in
// locals over packed 4-column panels of B (BLIS's shape): faster alone in a micro-benchmark, but 6–25% slower
// than this loop through torch.matmul in fresh processes (bench/gemm_js_ab.ts, a loaded machine).

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
 * acc[r·nb + j] = Σ_{p in [p0, p1)} a[i0+r, p]·b[p, j0+j] in k order for r < rows, j < nb, every product and sum
 * in float32 (acc is a Float32Array, so each store rounds the double sum of two float32 values).
 */
function sliceF32(
  acc: Float32Array,
  rows: number,
  nb: number,
  p0: number,
  p1: number,
  a: Float32Array,
  aRow: number,
  rsa: number,
  csa: number,
  b: Float32Array,
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
          acc[j] = (acc[j] as number) + fround(v0 * bv);
          acc[n1 + j] = (acc[n1 + j] as number) + fround(v1 * bv);
          acc[n2 + j] = (acc[n2 + j] as number) + fround(v2 * bv);
          acc[n3 + j] = (acc[n3 + j] as number) + fround(v3 * bv);
        }
      } else {
        for (let j = 0; j < nb; j++) {
          const bv = b[bRow + j * csb] as number;
          acc[j] = (acc[j] as number) + fround(v0 * bv);
          acc[n1 + j] = (acc[n1 + j] as number) + fround(v1 * bv);
          acc[n2 + j] = (acc[n2 + j] as number) + fround(v2 * bv);
          acc[n3 + j] = (acc[n3 + j] as number) + fround(v3 * bv);
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
      for (let j = 0; j < nb; j++) acc[o + j] = (acc[o + j] as number) + fround(av * (b[bRow + j * csb] as number));
    }
  }
}

/** sliceF32 in float64: the products and sums of doubles are the f64x2 lanes' as they are. */
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
  const f32 = c instanceof Float32Array;
  const width = Math.min(n, TWIN_NB);
  const acc = f32 ? new Float32Array(4 * width) : new Float64Array(4 * width);
  for (let j0 = 0; j0 < n; j0 += TWIN_NB) {
    const nb = Math.min(TWIN_NB, n - j0);
    const bCol = bi + j0 * csb;
    for (let p0 = 0; p0 < k; p0 += GEMM_KC) {
      const p1 = Math.min(p0 + GEMM_KC, k);
      const add = accumulate || p0 !== 0;
      for (let i0 = 0; i0 < m; i0 += 4) {
        const rows = Math.min(4, m - i0);
        const aRow = ai + i0 * rsa;
        if (f32) sliceF32(acc as Float32Array, rows, nb, p0, p1, a as Float32Array, aRow, rsa, csa, b as Float32Array, bCol, rsb, csb);
        else sliceF64(acc as Float64Array, rows, nb, p0, p1, a as Float64Array, aRow, rsa, csa, b as Float64Array, bCol, rsb, csb);
        for (let r = 0; r < rows; r++) {
          const cRow = ci + (i0 + r) * ldc + j0;
          const o = r * nb;
          for (let j = 0; j < nb; j++) {
            const s = acc[o + j] as number;
            const v = alpha === 1 ? s : f32 ? fround(alpha * s) : alpha * s;
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
