// The float32 Box-Muller block that torch.randn / normal_ run on float32 tensors of 16 or more elements:
// `normal_fill_16_AVX2` with the vectorised `log256_ps` and `sincos256_ps`, one lane at a time.
// Mirrors aten/src/ATen/native/cpu/DistributionTemplates.h (normal_fill_16_AVX2) and
// aten/src/ATen/native/cpu/avx_mathfun.h (Giovanni Garberoglio's AVX port of Julien Pommier's
// sse_mathfun, itself the Cephes logf/sinf/cosf), as PyTorch's x86-64 wheels compile them.

import { fmaf } from './fma.js';

// Note [Float32 Box-Muller, lane by lane]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Every _mm256_* operation is an IEEE float32 operation on 8 independent lanes, so one lane at a time
// with Math.fround after each step computes the same bits. Two things are not visible in the source:
//
// 1. The AVX2 kernels are built with -mfma, and GCC contracts `_mm256_add_ps(_mm256_mul_ps(a, b), c)`
//    into vfmadd (the intrinsics are plain vector `*` and `+` to GCC) whenever the product's only uses
//    are additions. Every such pair below is therefore an fmaf; where the product is exact (a
//    multiplication by 0.5, -2, or by the short constants q2, DP1 and DP2) it makes no difference and we
//    write plain arithmetic. In the cosine polynomial the *second* `y * z` is the one fused with the
//    following `- z*0.5`.
// 2. The block ends with an explicit `_mm256_fmadd_ps(n, std, mean)`.
//
// Both were settled against torch 2.13 (48,000 values over several seeds and (mean, std) pairs: all
// bit-identical; without contraction about 1% of values differ by 1 ulp or more).

const fr = Math.fround;

const SQRTHF = fr(0.7071067811865476);
const LOG_P0 = fr(7.0376836292e-2);
const LOG_P1 = fr(-1.151461031e-1);
const LOG_P2 = fr(1.167699874e-1);
const LOG_P3 = fr(-1.2420140846e-1);
const LOG_P4 = fr(1.4249322787e-1);
const LOG_P5 = fr(-1.6668057665e-1);
const LOG_P6 = fr(2.0000714765e-1);
const LOG_P7 = fr(-2.4999993993e-1);
const LOG_P8 = fr(3.3333331174e-1);
const LOG_Q1 = fr(-2.1219444e-4);
const LOG_Q2 = fr(0.693359375);

const DP1 = fr(-0.78515625);
const DP2 = fr(-2.4187564849853515625e-4);
const DP3 = fr(-3.774894977445941e-8);
const SINCOF_P0 = fr(-1.9515295891e-4);
const SINCOF_P1 = fr(8.3321608736e-3);
const SINCOF_P2 = fr(-1.6666654611e-1);
const COSCOF_P0 = fr(2.443315711809948e-5);
const COSCOF_P1 = fr(-1.388731625493765e-3);
const COSCOF_P2 = fr(4.166664568298827e-2);
const FOPI = fr(1.27323954473516); // 4 / pi

/** `_mm256_set1_ps(2.0f * c10::pi<double>)`: the double 2*pi rounded to float. */
const TWO_PI_F = fr(2 * Math.PI);

const TWO_POW_24 = 16777216;
/** 2^-L for L = 0..25. */
const POW2_NEG = Float64Array.from({ length: 26 }, (_, L) => 2 ** -L);

/**
 * One lane of `log256_ps(x)` (Cephes logf) for x = m * 2^-24 with m an integer in [1, 2^24], which is
 * every `1 - u` of a 24-bit uniform u. Splitting x into mantissa and exponent is then integer work
 * (Math.clz32) instead of a round trip through the float's bits.
 */
export function log256OfMultiple(m: number): number {
  // x = (m / 2^L) * 2^(L - 24) with m / 2^L in [0.5, 1): the `frexp` that the AVX code does with bit
  // masks (its exponent e is the unbiased exponent + 1, i.e. L - 24).
  const L = 32 - Math.clz32(m);
  let x = m * (POW2_NEG[L] as number); // exact
  let e = L - 24;
  // if (x < SQRTHF) { e -= 1; x = x + x - 1 } else { x = x - 1 }
  if (x < SQRTHF) {
    e -= 1;
    x = fr(fr(x - 1) + x);
  } else {
    x = fr(x - 1);
  }
  const z = fr(x * x);
  let y = fmaf(LOG_P0, x, LOG_P1);
  y = fmaf(y, x, LOG_P2);
  y = fmaf(y, x, LOG_P3);
  y = fmaf(y, x, LOG_P4);
  y = fmaf(y, x, LOG_P5);
  y = fmaf(y, x, LOG_P6);
  y = fmaf(y, x, LOG_P7);
  y = fmaf(y, x, LOG_P8);
  y = fr(y * x);
  y = fmaf(y, z, fr(e * LOG_Q1)); // y*z + e*q1: the first product is the fused one
  y = fr(y - z * 0.5);
  x = fr(x + y);
  return fr(x + e * LOG_Q2); // e*q2 is exact
}

let sinOut = 0;
let cosOut = 0;

/**
 * One lane of `sincos256_ps(x)` (Cephes sinf/cosf with the shared range reduction). Leaves sin(x) in
 * `sinOut` and cos(x) in `cosOut`.
 */
function sincos256Lane(xIn: number): void {
  let x = Math.abs(xIn);
  const sinNegative = xIn < 0;
  // j = (int)(x * 4/pi); j = (j + 1) & ~1; y = j
  let j = Math.trunc(fr(x * FOPI));
  j = (j + 1) & ~1;
  const y = j;
  const swapSin = (j & 4) !== 0;
  const direct = (j & 2) === 0; // octants where sin takes the sine polynomial (else they swap)
  // x = ((x - y*DP1) - y*DP2) - y*DP3, each step an FMA; y*DP1 and y*DP2 are exact floats, so for
  // them a float add rounds the same way.
  x = fr(x + y * DP1);
  x = fr(x + y * DP2);
  x = fmaf(y, DP3, x);
  const cosNegative = ((j - 2) & 4) === 0;
  const z = fr(x * x);
  // cos polynomial: ((p0*z + p1)*z + p2)*z*z - z/2 + 1
  let yc = fmaf(COSCOF_P0, z, COSCOF_P1);
  yc = fmaf(yc, z, COSCOF_P2);
  yc = fr(yc * z);
  yc = fmaf(yc, z, -(z * 0.5));
  yc = fr(yc + 1);
  // sin polynomial: ((p0*z + p1)*z + p2)*z*x + x
  let ys = fmaf(SINCOF_P0, z, SINCOF_P1);
  ys = fmaf(ys, z, SINCOF_P2);
  ys = fr(ys * z);
  ys = fmaf(ys, x, x);
  const s = direct ? ys : yc;
  const c = direct ? yc : ys;
  sinOut = sinNegative !== swapSin ? -s : s;
  cosOut = cosNegative ? -c : c;
}

/** `sincos256_ps` for one lane, as [sin, cos]. */
export function sincos256(x: number): [number, number] {
  sincos256Lane(x);
  return [sinOut, cosOut];
}

/**
 * `normal_fill_16_AVX2(data + offset, ...)`: turns 16 24-bit uniforms (k * 2^-24, as
 * `uniform_real_distribution<float>(0, 1)` draws them) into 16 normals in place. Lane j pairs data[j]
 * (radius, from log(1 - u)) with data[j + 8] (angle). mean and std must be float32 values.
 */
export function normalFill16Avx2(data: Float32Array, offset: number, mean: number, std: number): void {
  for (let j = 0; j < 8; j++) {
    // u1 = 1 - u is m * 2^-24 for the 24-bit uniform u = k * 2^-24, m = 2^24 - k in [1, 2^24].
    const m = TWO_POW_24 - (data[offset + j] as number) * TWO_POW_24;
    const u2 = data[offset + j + 8] as number;
    const radius = fr(Math.sqrt(-2 * log256OfMultiple(m))); // -2*log is exact
    sincos256Lane(fr(TWO_PI_F * u2));
    const n1 = fr(radius * cosOut);
    const n2 = fr(radius * sinOut);
    if (std === 1) {
      // fmaf(n, 1, mean) is the float sum n + mean, which a double sum rounds the same way.
      data[offset + j] = n1 + mean;
      data[offset + j + 8] = n2 + mean;
    } else {
      data[offset + j] = fmaf(n1, std, mean);
      data[offset + j + 8] = fmaf(n2, std, mean);
    }
  }
}
