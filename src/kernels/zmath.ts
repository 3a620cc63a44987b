// Complex math for the CPU loops: the functions c10/util/complex_math.h and c10/util/complex.h give
// c10::complex (std::complex's formulas) and aten/src/ATen/native/cpu/zmath.h's helpers (angle_impl, sgn_impl),
// as ComplexOps over (re, im) pairs (src/iter/Loops.ts, cpuKernelComplex). Each computes in double; the loop
// rounds both parts to float32 for complex64 (Note [Complex loops in JS]).

import type { ComplexOp, ComplexReduceOp } from '../iter/index.js';

// Note [Complex loops in JS]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
// Complex kernels run in JS only (cpuKernelComplex: one element per call, both parts in double, rounded to
// float32 on store for complex64); there are no WASM complex kernels yet, so complex64/complex128 give the
// same bits on every kernel path and thread count. Division follows c10::complex's operator/ (Smith's method
// scaled by the larger part of the divisor, as numpy) so float64 quotients are PyTorch's scalar bits; the
// transcendental functions use the textbook identities below (V8's Math underneath, < 1 ulp per step), within
// assert_close's tolerances of glibc's complex functions rather than bit-identical.

/** `(a + bi) / (c + di)` as c10::complex's operator/= (scaled Smith division). */
export function cdiv(a: number, b: number, c: number, d: number, out: Float64Array): void {
  const absC = Math.abs(c);
  const absD = Math.abs(d);
  if (absC >= absD) {
    if (absC === 0 && absD === 0) {
      // division by zero gives a complex inf or nan
      out[0] = a / absC;
      out[1] = b / absD;
    } else {
      const rat = d / c;
      const scl = 1 / (c + d * rat);
      out[0] = (a + b * rat) * scl;
      out[1] = (b - a * rat) * scl;
    }
  } else {
    const rat = c / d;
    const scl = 1 / (d + c * rat);
    out[0] = (a * rat + b) * scl;
    out[1] = (b * rat - a) * scl;
  }
}

const tmp = new Float64Array(2);
const tmp2 = new Float64Array(2);

/** log(z) = log|z| + i arg z. */
function clog(a: number, b: number, out: Float64Array): void {
  out[0] = Math.log(Math.hypot(a, b));
  out[1] = Math.atan2(b, a);
}

/** sqrt(z), the principal root, stable for either sign of the real part. */
export function csqrt(a: number, b: number, out: Float64Array): void {
  if (a === 0 && b === 0) {
    out[0] = 0;
    out[1] = b;
    return;
  }
  if (!Number.isFinite(b) && !Number.isNaN(b)) {
    out[0] = Infinity;
    out[1] = b;
    return;
  }
  const t = Math.sqrt((Math.abs(a) + Math.hypot(a, b)) / 2);
  if (a >= 0) {
    out[0] = t;
    out[1] = b / (2 * t);
  } else {
    out[0] = Math.abs(b) / (2 * t);
    out[1] = b < 0 || Object.is(b, -0) ? -t : t;
  }
}

/** tanh(z) by Kahan's formula (libc++'s), finite for large real parts. */
function ctanh(a: number, b: number, out: Float64Array): void {
  if (Math.abs(a) > 22) {
    // tanh saturates: exp(-2|a|) is below the double's epsilon
    out[0] = Math.sign(a);
    out[1] = 4 * Math.sin(b) * Math.cos(b) * Math.exp(-2 * Math.abs(a));
    return;
  }
  if (b === 0) {
    out[0] = Math.tanh(a);
    out[1] = b;
    return;
  }
  const t = Math.tan(b);
  const beta = 1 + t * t;
  const s = Math.sinh(a);
  const rho = Math.sqrt(1 + s * s);
  const den = 1 + beta * s * s;
  out[0] = (beta * rho * s) / den;
  out[1] = t / den;
}

/** asinh(z) = log(z + sqrt(z^2 + 1)), odd: computed for a >= 0. */
function casinh(a: number, b: number, out: Float64Array): void {
  const neg = a < 0 || (a === 0 && Object.is(a, -0));
  const x = neg ? -a : a;
  const y = neg ? -b : b;
  csqrt(x * x - y * y + 1, 2 * x * y, tmp2);
  clog(x + (tmp2[0] as number), y + (tmp2[1] as number), out);
  if (neg) {
    out[0] = -(out[0] as number);
    out[1] = -(out[1] as number);
  }
}

/** atanh(z) = (log1p(z) - log1p(-z)) / 2. */
function catanh(a: number, b: number, out: Float64Array): void {
  clog1p(a, b, tmp2);
  const r0 = tmp2[0] as number;
  const i0 = tmp2[1] as number;
  clog1p(-a, -b, tmp2);
  out[0] = (r0 - (tmp2[0] as number)) / 2;
  out[1] = (i0 - (tmp2[1] as number)) / 2;
}

/** log1p(z) as c10's complex_math.h: |z| < 0.5 via log1p of x(2 + x) + y^2, else log|1 + z|. */
function clog1p(x: number, y: number, out: Float64Array): void {
  const theta = Math.atan2(y, x + 1);
  if (Math.hypot(x, y) < 0.5) {
    const r = x * (2 + x) + y * y;
    out[0] = r === 0 ? x : 0.5 * Math.log1p(r);
  } else {
    out[0] = Math.log(Math.hypot(x + 1, y));
  }
  out[1] = theta;
}

function cexp(a: number, b: number, out: Float64Array): void {
  const m = Math.exp(a);
  if (b === 0) {
    out[0] = m;
    out[1] = b;
    return;
  }
  out[0] = m * Math.cos(b);
  out[1] = m * Math.sin(b);
}

const LN2 = Math.LN2;
const LN10 = Math.LN10;

/** The complex loops of the unary ops, by op name (UnaryOpsKernel.ts's SPECS). */
export const Z = {
  log: ((ins, out) => clog(ins[0] as number, ins[1] as number, out)) as ComplexOp,
  log2: ((ins, out) => {
    clog(ins[0] as number, ins[1] as number, out);
    out[0] = (out[0] as number) / LN2;
    out[1] = (out[1] as number) / LN2;
  }) as ComplexOp,
  log10: ((ins, out) => {
    clog(ins[0] as number, ins[1] as number, out);
    out[0] = (out[0] as number) / LN10;
    out[1] = (out[1] as number) / LN10;
  }) as ComplexOp,
  log1p: ((ins, out) => clog1p(ins[0] as number, ins[1] as number, out)) as ComplexOp,
  // expm1 as complex_math.h: real part expm1(x) cos(y) - 2 sin^2(y / 2), without cancellation near 0
  expm1: ((ins, out) => {
    const x = ins[0] as number;
    const y = ins[1] as number;
    const s = Math.sin(y / 2);
    out[0] = Math.expm1(x) * Math.cos(y) - 2 * s * s;
    out[1] = Math.exp(x) * Math.sin(y);
  }) as ComplexOp,
  // exp2(z) = exp(ln 2 * z) (std has no complex exp2)
  exp2: ((ins, out) => cexp(LN2 * (ins[0] as number), LN2 * (ins[1] as number), out)) as ComplexOp,
  sin: ((ins, out) => {
    const a = ins[0] as number;
    const b = ins[1] as number;
    out[0] = Math.sin(a) * Math.cosh(b);
    out[1] = Math.cos(a) * Math.sinh(b);
  }) as ComplexOp,
  cos: ((ins, out) => {
    const a = ins[0] as number;
    const b = ins[1] as number;
    out[0] = Math.cos(a) * Math.cosh(b);
    out[1] = -Math.sin(a) * Math.sinh(b);
  }) as ComplexOp,
  sinh: ((ins, out) => {
    const a = ins[0] as number;
    const b = ins[1] as number;
    out[0] = Math.sinh(a) * Math.cos(b);
    out[1] = Math.cosh(a) * Math.sin(b);
  }) as ComplexOp,
  cosh: ((ins, out) => {
    const a = ins[0] as number;
    const b = ins[1] as number;
    out[0] = Math.cosh(a) * Math.cos(b);
    out[1] = Math.sinh(a) * Math.sin(b);
  }) as ComplexOp,
  tanh: ((ins, out) => ctanh(ins[0] as number, ins[1] as number, out)) as ComplexOp,
  // tan(z) = -i tanh(iz)
  tan: ((ins, out) => {
    ctanh(-(ins[1] as number), ins[0] as number, tmp);
    out[0] = tmp[1] as number;
    out[1] = -(tmp[0] as number);
  }) as ComplexOp,
  asinh: ((ins, out) => casinh(ins[0] as number, ins[1] as number, out)) as ComplexOp,
  // asin(z) = -i asinh(iz)
  asin: ((ins, out) => {
    casinh(-(ins[1] as number), ins[0] as number, tmp);
    out[0] = tmp[1] as number;
    out[1] = -(tmp[0] as number);
  }) as ComplexOp,
  // acos(z) = pi/2 - asin(z)
  acos: ((ins, out) => {
    casinh(-(ins[1] as number), ins[0] as number, tmp);
    out[0] = Math.PI / 2 - (tmp[1] as number);
    out[1] = tmp[0] as number;
  }) as ComplexOp,
  // acosh(z) = log(z + sqrt(z + 1) sqrt(z - 1))
  acosh: ((ins, out) => {
    const a = ins[0] as number;
    const b = ins[1] as number;
    csqrt(a + 1, b, tmp);
    csqrt(a - 1, b, tmp2);
    const pr = (tmp[0] as number) * (tmp2[0] as number) - (tmp[1] as number) * (tmp2[1] as number);
    const pi = (tmp[0] as number) * (tmp2[1] as number) + (tmp[1] as number) * (tmp2[0] as number);
    clog(a + pr, b + pi, out);
  }) as ComplexOp,
  atanh: ((ins, out) => catanh(ins[0] as number, ins[1] as number, out)) as ComplexOp,
  // atan(z) = -i atanh(iz)
  atan: ((ins, out) => {
    catanh(-(ins[1] as number), ins[0] as number, tmp);
    out[0] = tmp[1] as number;
    out[1] = -(tmp[0] as number);
  }) as ComplexOp,
  reciprocal: ((ins, out) => cdiv(1, 0, ins[0] as number, ins[1] as number, out)) as ComplexOp,
  rsqrt: ((ins, out) => {
    csqrt(ins[0] as number, ins[1] as number, tmp);
    cdiv(1, 0, tmp[0] as number, tmp[1] as number, out);
  }) as ComplexOp,
  // sigmoid: (1 + exp(-z)).reciprocal()
  sigmoid: ((ins, out) => {
    cexp(-(ins[0] as number), -(ins[1] as number), tmp);
    cdiv(1, 0, 1 + (tmp[0] as number), tmp[1] as number, out);
  }) as ComplexOp,
  // sgn_impl: z / |z|, 0 at 0
  sgn: ((ins, out) => {
    const a = ins[0] as number;
    const b = ins[1] as number;
    const m = Math.hypot(a, b);
    if (m === 0) {
      out[0] = 0;
      out[1] = 0;
    } else {
      out[0] = a / m;
      out[1] = b / m;
    }
  }) as ComplexOp,
  // angle_impl of a complex value: arg z (a real result)
  angle: ((ins, out) => {
    out[0] = Math.atan2(ins[1] as number, ins[0] as number);
    out[1] = 0;
  }) as ComplexOp,
  exp: ((ins, out) => cexp(ins[0] as number, ins[1] as number, out)) as ComplexOp,
  sqrt: ((ins, out) => csqrt(ins[0] as number, ins[1] as number, out)) as ComplexOp,
};

/**
 * `z ** w` as std::pow of complex values (libstdc++'s: 0 for a zero base, else exp(w log z)), each step
 * rounded by `r` (Math.fround for complex64: c10::complex<float>'s pow computes in float).
 */
export function cpow(a: number, b: number, c: number, d: number, out: Float64Array, r: (v: number) => number = (v) => v): void {
  if (a === 0 && b === 0) {
    out[0] = 0;
    out[1] = 0;
    return;
  }
  const lr = r(Math.log(r(Math.hypot(a, b))));
  const li = r(Math.atan2(b, a));
  const er = r(r(c * lr) - r(d * li));
  const ei = r(r(c * li) + r(d * lr));
  const m = r(Math.exp(er));
  if (ei === 0) {
    out[0] = m;
    out[1] = ei;
    return;
  }
  out[0] = r(m * r(Math.cos(ei)));
  out[1] = r(m * r(Math.sin(ei)));
}

// ---- reductions (ReduceOps.ts: sum, mean, prod of complex tensors) ------------------------------------

/** Pairwise sum in doubles, as sumRun (Note [Reduction order] in ReduceOpsKernel.ts). */
function pairwise(v: Float64Array, o: number, n: number): number {
  if (n <= 64) {
    let acc = 0;
    for (let i = 0; i < n; i++) acc += v[o + i] as number;
    return acc;
  }
  const h = Math.ceil(n / 2 / 64) * 64;
  return pairwise(v, o, h) + pairwise(v, o + h, n - h);
}

/** The sum of a complex slice: each part summed pairwise. */
export const zsum: ComplexReduceOp = (re, im, n, out) => {
  out[0] = pairwise(re, 0, n);
  out[1] = pairwise(im, 0, n);
};

/** The product of a complex slice, left to right. */
export const zprod: ComplexReduceOp = (re, im, n, out) => {
  let pr = 1;
  let pi = 0;
  for (let i = 0; i < n; i++) {
    const a = re[i] as number;
    const b = im[i] as number;
    const t = pr * a - pi * b;
    pi = pr * b + pi * a;
    pr = t;
  }
  out[0] = pr;
  out[1] = pi;
};

/** mean as PyTorch's CPU mean: the sum rounded by `round` (the result dtype), then divided by n as a complex. */
export function zmean(round: (v: number) => number): ComplexReduceOp {
  return (re, im, n, out) => {
    zsum(re, im, n, out);
    cdiv(round(out[0] as number), round(out[1] as number), n, 0, out);
  };
}

/**
 * cumsum / cumprod of contiguous complex values (lane offsets `sb`, `ob`): along the middle dim of
 * [outer, size, inner], the running value rounded by `round` (the output dtype) after each step.
 */
export function zcum(
  sd: ArrayLike<number>,
  sb: number,
  od: { [i: number]: number },
  ob: number,
  outer: number,
  size: number,
  inner: number,
  prod: boolean,
  round: (v: number) => number,
): void {
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      let ar = prod ? 1 : 0;
      let ai = 0;
      for (let k = 0; k < size; k++) {
        const p = 2 * ((o * size + k) * inner + i);
        const vr = sd[sb + p] as number;
        const vi = sd[sb + p + 1] as number;
        if (prod) {
          const t = ar * vr - ai * vi;
          ai = round(ar * vi + ai * vr);
          ar = round(t);
        } else {
          ar = round(ar + vr);
          ai = round(ai + vi);
        }
        od[ob + p] = ar;
        od[ob + p + 1] = ai;
      }
    }
  }
}
