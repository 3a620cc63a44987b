// The per-matrix factorisations and solves behind BatchLinearAlgebra.ts: Cholesky (LAPACK's potrf), LU with
// partial pivoting (getrf), triangular solves (trsm) and the LU solve (getrs). Mirrors the roles of
// aten/src/ATen/native/BatchLinearAlgebraKernel.cpp, which hands each matrix of a batch to LAPACK; aten-ts has
// no LAPACK, so the algorithms are written here (See Note [Float64 matrix kernels]).

// Note [Float64 matrix kernels]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Every matrix is read into a row-major Float64Array (whatever the tensor's dtype and strides), factorised or
// solved there with the unblocked textbook algorithm LAPACK's reference routines describe, and written back
// rounded to the tensor's dtype. float32 inputs are therefore computed in float64 and rounded once, which is
// within OpInfo's float32 tolerances of LAPACK's single-precision results. Conventions follow LAPACK's:
// pivots are 1-based row interchanges (ipiv), `info` is the 1-based order of the first non-positive leading
// minor (potrf) or of the first exactly-zero pivot (getrf, which carries on past it, as LAPACK does). Results
// do not depend on the thread count: each matrix is computed sequentially by one thread.

/**
 * Lower Cholesky factor of the n×n row-major `a` in place (only its lower triangle is read; the strict upper
 * triangle is zeroed). Returns LAPACK's info: 0, or the order of the first leading minor that is not
 * positive-definite (the factor is then partial, as potrf leaves it).
 */
export function choleskyInPlace(a: Float64Array, n: number): number {
  for (let j = 0; j < n; j++) {
    let d = a[j * n + j] as number;
    for (let k = 0; k < j; k++) d -= (a[j * n + k] as number) * (a[j * n + k] as number);
    if (!(d > 0)) {
      a[j * n + j] = d;
      for (let i = 0; i < n; i++) for (let k = i + 1; k < n; k++) a[i * n + k] = 0;
      return j + 1;
    }
    const ljj = Math.sqrt(d);
    a[j * n + j] = ljj;
    for (let i = j + 1; i < n; i++) {
      let s = a[i * n + j] as number;
      for (let k = 0; k < j; k++) s -= (a[i * n + k] as number) * (a[j * n + k] as number);
      a[i * n + j] = s / ljj;
    }
  }
  for (let i = 0; i < n; i++) for (let k = i + 1; k < n; k++) a[i * n + k] = 0;
  return 0;
}

/**
 * LU with partial pivoting of the m×n row-major `a` in place (getrf): L (unit lower, below the diagonal) and
 * U (upper) share `a`; `piv` receives min(m, n) 1-based row interchanges. Returns info: 0, or the 1-based index
 * of the first exactly-zero pivot. With `pivot` false no rows are exchanged (piv is 1..k).
 */
export function luInPlace(a: Float64Array, m: number, n: number, piv: Int32Array, pivot = true): number {
  const k = Math.min(m, n);
  let info = 0;
  for (let j = 0; j < k; j++) {
    let p = j;
    if (pivot) {
      let best = Math.abs(a[j * n + j] as number);
      for (let i = j + 1; i < m; i++) {
        const v = Math.abs(a[i * n + j] as number);
        if (v > best || (Number.isNaN(v) && !Number.isNaN(best))) {
          best = v;
          p = i;
        }
      }
    }
    piv[j] = p + 1;
    if (p !== j) {
      for (let c = 0; c < n; c++) {
        const t = a[j * n + c] as number;
        a[j * n + c] = a[p * n + c] as number;
        a[p * n + c] = t;
      }
    }
    const d = a[j * n + j] as number;
    if (d === 0) {
      if (info === 0) info = j + 1;
    } else {
      for (let i = j + 1; i < m; i++) a[i * n + j] = (a[i * n + j] as number) / d;
    }
    for (let i = j + 1; i < m; i++) {
      const l = a[i * n + j] as number;
      if (l === 0) continue;
      for (let c = j + 1; c < n; c++) a[i * n + c] = (a[i * n + c] as number) - l * (a[j * n + c] as number);
    }
  }
  return info;
}

/**
 * Solves op(T) X = B in place of the n×k row-major `b`, T n×n row-major triangular (`upper` or lower, its
 * other triangle ignored; `unit`: ones assumed on the diagonal), op(T) = Tᵀ when `trans`.
 */
export function triangularSolveLeft(
  t: Float64Array,
  b: Float64Array,
  n: number,
  k: number,
  upper: boolean,
  trans: boolean,
  unit: boolean,
): void {
  // op(T) is upper when (upper xor trans); element (i, j) of op(T) is T[i][j] or T[j][i].
  const opUpper = upper !== trans;
  const el = trans ? (i: number, j: number): number => t[j * n + i] as number : (i: number, j: number): number => t[i * n + j] as number;
  if (opUpper) {
    for (let i = n - 1; i >= 0; i--) {
      for (let c = 0; c < k; c++) {
        let s = b[i * k + c] as number;
        for (let j = i + 1; j < n; j++) s -= el(i, j) * (b[j * k + c] as number);
        b[i * k + c] = unit ? s : s / el(i, i);
      }
    }
  } else {
    for (let i = 0; i < n; i++) {
      for (let c = 0; c < k; c++) {
        let s = b[i * k + c] as number;
        for (let j = 0; j < i; j++) s -= el(i, j) * (b[j * k + c] as number);
        b[i * k + c] = unit ? s : s / el(i, i);
      }
    }
  }
}

/** Transposes the r×c row-major `a` into a new c×r row-major array. */
export function transposed(a: Float64Array, r: number, c: number): Float64Array {
  const out = new Float64Array(r * c);
  for (let i = 0; i < r; i++) for (let j = 0; j < c; j++) out[j * r + i] = a[i * c + j] as number;
  return out;
}

/** Applies the 1-based interchanges `piv` to the rows of the n×k row-major `b`: forward (laswp) or in reverse. */
export function applyPivots(b: Float64Array, k: number, piv: Int32Array, reverse: boolean): void {
  const swap = (j: number): void => {
    const p = (piv[j] as number) - 1;
    if (p === j) return;
    for (let c = 0; c < k; c++) {
      const t = b[j * k + c] as number;
      b[j * k + c] = b[p * k + c] as number;
      b[p * k + c] = t;
    }
  };
  if (reverse) for (let j = piv.length - 1; j >= 0; j--) swap(j);
  else for (let j = 0; j < piv.length; j++) swap(j);
}

/**
 * getrs: solves A X = B (or Aᵀ X = B with `trans`) in place of the n×k `b`, from A's packed LU factors `lu`
 * (n×n row-major) and pivots.
 */
export function luSolveInPlace(lu: Float64Array, piv: Int32Array, b: Float64Array, n: number, k: number, trans: boolean): void {
  if (!trans) {
    applyPivots(b, k, piv, false);
    triangularSolveLeft(lu, b, n, k, false, false, true);
    triangularSolveLeft(lu, b, n, k, true, false, false);
  } else {
    triangularSolveLeft(lu, b, n, k, true, true, false);
    triangularSolveLeft(lu, b, n, k, false, true, true);
    applyPivots(b, k, piv, true);
  }
}
