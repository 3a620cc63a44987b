// The orthogonal polynomials of aten/src/ATen/native/Math.h (chebyshev_polynomial_t/u/v/w_forward,
// shifted_chebyshev_polynomial_t/u/v/w_forward, hermite_polynomial_h/he_forward, laguerre_polynomial_l_forward,
// legendre_polynomial_p_forward): the three-term recurrences, the closed trigonometric forms PyTorch switches
// to for large n inside (-1, 1), and its special values at the ends of the interval.
//
// Note [Polynomials in the compute dtype]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch evaluates these templates in scalar_t, so a float32 recurrence rounds every step to float (and for
// |x| > 1 or large n the rounding errors compound far beyond one final rounding). Each function takes the
// compute dtype's Rounder `r` and rounds every operation as PyTorch's float code does; n is truncated to an
// integer as static_cast<int64_t> (NaN and out-of-range n become INT64_MIN there, a negative degree here).
// PyTorch's CPU build contracts each recurrence step `a * q - k * p` into fma(a, q, -(k * p)) (its float
// results match only that way), so the product a * q is not rounded on its own: a float product is exact in
// double, and the difference is rounded once.

type Rounder = (v: number) => number;

/** static_cast<int64_t>(n) on x86-64: truncation; NaN and |n| >= 2^63 give INT64_MIN (here -1). */
function degree(n: number): number {
  if (!(Math.abs(n) < 9223372036854775808)) return -1;
  return Math.trunc(n);
}

/** The recurrence r_k = (2 y) q - p from q0 = 1, q1 = first, up to degree n (stopping at a NaN). */
function chebyshevRecurrence(y: number, first: number, n: number, r: Rounder): number {
  let p = 1;
  let q = first;
  const twoY = r(y + y);
  let v = q;
  for (let k = 2; k <= n && !Number.isNaN(q); k++) {
    v = r(twoY * q - p);
    p = q;
    q = v;
  }
  return v;
}

/** chebyshev_polynomial_t_forward: T_n(x). */
export function chebyshevT(x: number, nIn: number, r: Rounder): number {
  const n = degree(nIn);
  if (n < 0) return 0;
  if (Math.abs(x) === 1) return x > 0 || n % 2 === 0 ? 1 : -1;
  if (n > 6 && Math.abs(x) < 1) return r(Math.cos(r(r(n) * r(Math.acos(x)))));
  if (n === 0) return 1;
  if (n === 1) return x;
  return chebyshevRecurrence(x, x, n, r);
}

/** chebyshev_polynomial_u_forward: U_n(x). */
export function chebyshevU(x: number, nIn: number, r: Rounder): number {
  const n = degree(nIn);
  if (n < 0) return 0;
  if (Math.abs(x) === 1) return r(x > 0 || n % 2 === 0 ? n + 1 : -(n + 1));
  if (n > 8 && Math.abs(x) < 1) {
    const a = r(Math.acos(x));
    const s = r(Math.sin(a));
    if (s !== 0) return r(r(Math.sin(r(r(n + 1) * a))) / s);
    return r(r(r(n + 1) * r(Math.cos(r(r(n + 1) * a)))) / x);
  }
  if (n === 0) return 1;
  if (n === 1) return r(x + x);
  return chebyshevRecurrence(x, r(x + x), n, r);
}

/** chebyshev_polynomial_v_forward: V_n(x). */
export function chebyshevV(x: number, nIn: number, r: Rounder): number {
  const n = degree(nIn);
  if (n < 0) return 0;
  const odd = r(n % 2 === 0 ? n + n + 1 : -(n + n + 1));
  if (Math.abs(x) === 1) return x > 0 ? 1 : odd;
  if (n > 8 && Math.abs(x) < 1) {
    const a = r(Math.acos(x));
    if (r(Math.sin(r(a / 2))) !== 1) return r(r(Math.cos(r(r(n + 0.5) * a))) / r(Math.cos(r(a / 2))));
    return odd;
  }
  if (n === 0) return 1;
  const first = r(r(x + x) - 1);
  if (n === 1) return first;
  return chebyshevRecurrence(x, first, n, r);
}

/** chebyshev_polynomial_w_forward: W_n(x). */
export function chebyshevW(x: number, nIn: number, r: Rounder): number {
  const n = degree(nIn);
  if (n < 0) return 0;
  const sign = n % 2 === 0 ? 1 : -1;
  if (Math.abs(x) === 1) return x > 0 ? r(n + n + 1) : sign;
  if (n > 8 && Math.abs(x) < 1) {
    const a = r(Math.acos(x));
    if (r(Math.cos(r(a / 2))) !== 1) return r(r(Math.sin(r(r(n + 0.5) * a))) / r(Math.sin(r(a / 2))));
    return x > 0 ? r(n + n + 1) : sign;
  }
  if (n === 0) return 1;
  const first = r(r(x + x) + 1);
  if (n === 1) return first;
  return chebyshevRecurrence(x, first, n, r);
}

/** The shifted polynomials: the Chebyshev ones at y = 2x - 1, with their own end values and thresholds. */
export function shiftedChebyshevT(x: number, nIn: number, r: Rounder): number {
  const n = degree(nIn);
  if (n < 0) return 0;
  if (x === 1) return 1;
  if (x === 0) return n % 2 === 0 ? 1 : -1;
  const y = r(r(x + x) - 1);
  if (n > 6 && Math.abs(y) < 1) return r(Math.cos(r(r(n) * r(Math.acos(y)))));
  if (n === 0) return 1;
  if (n === 1) return y;
  return chebyshevRecurrence(y, y, n, r);
}

export function shiftedChebyshevU(x: number, nIn: number, r: Rounder): number {
  const n = degree(nIn);
  if (n < 0) return 0;
  if (x === 1) return r(n + 1);
  if (x === 0) return r(n % 2 === 0 ? n + 1 : -(n + 1));
  const y = r(r(x + x) - 1);
  if (n > 6 && Math.abs(y) < 1) {
    const a = r(Math.acos(y));
    const s = r(Math.sin(a));
    if (s !== 0) return r(r(Math.sin(r(r(n + 1) * a))) / s);
    return r(r(r(n + 1) * r(Math.cos(r(r(n + 1) * a)))) / y);
  }
  if (n === 0) return 1;
  if (n === 1) return r(y + y);
  return chebyshevRecurrence(y, r(y + y), n, r);
}

export function shiftedChebyshevV(x: number, nIn: number, r: Rounder): number {
  const n = degree(nIn);
  if (n < 0) return 0;
  const odd = r(n % 2 === 0 ? n + n + 1 : -(n + n + 1));
  if (x === 1) return 1;
  if (x === 0) return odd;
  const y = r(r(x + x) - 1);
  if (n > 6 && Math.abs(y) < 1) {
    const a = r(Math.acos(y));
    if (r(Math.sin(r(a / 2))) !== 1) return r(r(Math.cos(r(r(n + 0.5) * a))) / r(Math.cos(r(a / 2))));
    return odd;
  }
  if (n === 0) return 1;
  const first = r(r(y + y) - 1);
  if (n === 1) return first;
  return chebyshevRecurrence(y, first, n, r);
}

export function shiftedChebyshevW(x: number, nIn: number, r: Rounder): number {
  const n = degree(nIn);
  if (n < 0) return 0;
  const sign = n % 2 === 0 ? 1 : -1;
  if (x === 1) return r(n + n + 1);
  if (x === 0) return sign;
  const y = r(r(x + x) - 1);
  if (n > 4 && Math.abs(y) < 1) {
    const a = r(Math.acos(y));
    if (r(Math.cos(r(a / 2))) !== 1) return r(r(Math.sin(r(r(n + 0.5) * a))) / r(Math.sin(r(a / 2))));
    return sign;
  }
  if (n === 0) return 1;
  const first = r(r(y + y) + 1);
  if (n === 1) return first;
  return chebyshevRecurrence(y, first, n, r);
}

/** hermite_polynomial_h_forward: the physicists' H_n(x); NaN above degree 128 (float) / 512 (double). */
export function hermiteH(x: number, nIn: number, r: Rounder, limit: number): number {
  const n = degree(nIn);
  if (n < 0) return 0;
  if (n === 0) return 1;
  const twoX = r(x + x);
  if (n === 1) return twoX;
  if (n > limit) return NaN;
  let p = 1;
  let q = twoX;
  let v = 0;
  for (let k = 2; k < n + n; k += 2) {
    v = r(twoX * q - r(r(k) * p));
    p = q;
    q = v;
  }
  return v;
}

/** hermite_polynomial_he_forward: the probabilists' He_n(x). */
export function hermiteHe(x: number, nIn: number, r: Rounder, limit: number): number {
  const n = degree(nIn);
  if (n < 0) return 0;
  if (n === 0) return 1;
  if (n === 1) return x;
  if (n > limit) return NaN;
  let p = 1;
  let q = x;
  let v = x;
  for (let k = 1; k < n; k++) {
    v = r(x * q - r(r(k) * p));
    p = q;
    q = v;
  }
  return v;
}

/** laguerre_polynomial_l_forward: L_n(x); 1 at x = 0. */
export function laguerreL(x: number, nIn: number, r: Rounder): number {
  const n = degree(nIn);
  if (n < 0) return 0;
  if (Math.abs(x) === 0) return 1;
  if (n === 0) return 1;
  const oneMinusX = r(1 - x);
  if (n === 1) return oneMinusX;
  let p = 1;
  let q = oneMinusX;
  let v = q;
  for (let k = 1; k < n && !Number.isNaN(q); k++) {
    v = r(r(r(r(k + k) + oneMinusX) * q - r(r(k) * p)) / r(k + 1));
    p = q;
    q = v;
  }
  return v;
}

/** legendre_polynomial_p_forward: P_n(x). */
export function legendreP(x: number, nIn: number, r: Rounder): number {
  const n = degree(nIn);
  if (n < 0) return 0;
  if (Math.abs(x) === 1) return x > 0 || n % 2 === 0 ? 1 : -1;
  if (n === 0) return 1;
  if (n === 1) return x;
  let p = 1;
  let q = x;
  let v = x;
  for (let k = 1; k < n && !Number.isNaN(q); k++) {
    v = r(r(r(r(k + k + 1) * x) * q - r(r(k) * p)) / r(k + 1));
    p = q;
    q = v;
  }
  return v;
}
