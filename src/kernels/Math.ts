// The special functions of aten/src/ATen/native/Math.h as PyTorch computes them on the CPU: calc_erfinv
// (rational start + two Newton steps), zeta / calc_digamma / trigamma / calc_polygamma and calc_i0 / calc_i1 /
// calc_i0e / calc_i1e
// (Cephes-derived: see Note [Cephes-derived special functions]), plus lgamma and erf, which PyTorch takes from
// libm (erf: fdlibm's s_erf.c here; float16/bfloat16 erf: Vectorized<float>::erf). Everything is computed in
// double; the float32 kernels round the double result once (Note [Float opmath in unary kernels] in
// UnaryOpsKernel.ts), which is within the few ulps by which PyTorch's float code differs.

import { fmaf } from '../random/fma.js';

// Note [Cephes-derived special functions]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's digamma, zeta (hence polygamma) and the modified Bessel functions i0 / i1 are derived from the
// Cephes Math Library (3-clause BSD, Copyright (c) 2018 Steven Moshier; PyTorch's Math.h carries the
// licence text): the same branches, asymptotic series and Chebyshev coefficients are used here, so the
// special cases (poles, negative integers, x == 10 in digamma) come out as in PyTorch and the values agree to
// a few ulps. lgamma is libm's in PyTorch (std::lgamma); here it is a Lanczos approximation (g = 7, n = 9)
// with the reflection formula below 1/2, within ~1e-15 absolute of glibc's.

/** Clenshaw's recurrence for a Chebyshev series (Cephes' chbevl). */
export function chbevl(x: number, a: readonly number[]): number {
  let b0 = a[0] as number;
  let b1 = 0;
  let b2 = 0;
  for (let i = 1; i < a.length; i++) {
    b2 = b1;
    b1 = b0;
    b0 = x * b1 - b2 + (a[i] as number);
  }
  return 0.5 * (b0 - b2);
}

// ---- erfinv ------------------------------------------------------------------------------------------

const EA = [0.886226899, -1.645349621, 0.914624893, -0.140543331];
const EB = [-2.118377725, 1.442710462, -0.329097515, 0.012229801];
const EC = [-1.970840454, -1.624906493, 3.429567803, 1.641345311];
const ED = [3.5438892, 1.6370678];
const TWO_OVER_SQRT_PI = 2 / Math.sqrt(Math.PI);

/** calc_erfinv: a rational approximation refined by two Newton steps on erf. */
export function erfinv(y: number): number {
  const ay = Math.abs(y);
  if (!(ay <= 1)) return NaN;
  if (ay === 1) return y > 0 ? Infinity : -Infinity;
  let x: number;
  if (ay <= 0.7) {
    const z = y * y;
    const num = ((EA[3]! * z + EA[2]!) * z + EA[1]!) * z + EA[0]!;
    const dem = (((EB[3]! * z + EB[2]!) * z + EB[1]!) * z + EB[0]!) * z + 1;
    x = (y * num) / dem;
  } else {
    const z = Math.sqrt(-Math.log((1 - ay) / 2));
    const num = ((EC[3]! * z + EC[2]!) * z + EC[1]!) * z + EC[0]!;
    const dem = (ED[1]! * z + ED[0]!) * z + 1;
    x = (y < 0 || Object.is(y, -0) ? -num : num) / dem;
  }
  x = x - (erfDouble(x) - y) / (TWO_OVER_SQRT_PI * Math.exp(-x * x));
  x = x - (erfDouble(x) - y) / (TWO_OVER_SQRT_PI * Math.exp(-x * x));
  return x;
}

// ---- lgamma ------------------------------------------------------------------------------------------

const LANCZOS_G = 7;
const LANCZOS = [
  0.9999999999998099, 676.5203681218851, -1259.1392167224028, 771.3234287776531, -176.6150291621406, 12.507343278686905,
  -0.13857109526572012, 9.984369578019572e-6, 1.5056327351493116e-7,
];
const HALF_LOG_2PI = 0.5 * Math.log(2 * Math.PI);
/** 0! .. 22!, each exact in double. */
const FACTORIALS: number[] = [1];
for (let i = 1; i <= 22; i++) FACTORIALS.push((FACTORIALS[i - 1] as number) * i);

/** |sin(pi x)|, reduced to x mod 2 first so that large arguments keep their accuracy. */
function absSinPi(x: number): number {
  const r = x - 2 * Math.floor(x / 2);
  return Math.abs(Math.sin(Math.PI * r));
}

/** log|Γ(x)| (std::lgamma): +inf at the poles 0, -1, -2, ... and at ±inf. */
export function lgamma(x: number): number {
  if (Number.isNaN(x)) return x;
  if (!Number.isFinite(x)) return Infinity;
  if (x <= 0 && x === Math.floor(x)) return Infinity;
  // log((x - 1)!) of the exact factorial for small integers, as libm's correctly rounded values there
  if (x === Math.floor(x) && x <= 23) return Math.log(FACTORIALS[x - 1] as number);
  if (x < 0.5) return Math.log(Math.PI / absSinPi(x)) - lgamma(1 - x);
  const z = x - 1;
  let a = LANCZOS[0] as number;
  for (let i = 1; i < LANCZOS.length; i++) a += (LANCZOS[i] as number) / (z + i);
  const t = z + LANCZOS_G + 0.5;
  return HALF_LOG_2PI + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

// ---- digamma, trigamma, zeta, polygamma --------------------------------------------------------------

const PSI_10 = 2.251752589066721;
const DIGAMMA_A = [
  0.08333333333333333, -0.021092796092796094, 0.007575757575757576, -0.004166666666666667, 0.003968253968253968, -0.008333333333333333,
  0.08333333333333333,
];

/**
 * calc_digamma: ∓inf at ±0, NaN at negative integers, the reflection formula below 0, recurrence to x >= 10.
 * `r` rounds each step to the compute dtype (PyTorch's float overload computes in float; pi / tan(pi r) of the
 * reflection is taken in double there and rounded once).
 */
export function digamma(x: number, r: (v: number) => number = (v) => v): number {
  if (x === 0) return Object.is(x, -0) ? Infinity : -Infinity;
  if (x < 0) {
    if (x === Math.trunc(x)) return NaN;
    const frac = x - Math.trunc(x);
    return r(digamma(r(1 - x), r) - r(Math.PI / Math.tan(Math.PI * frac)));
  }
  let result = 0;
  while (x < 10) {
    result = r(result - r(1 / x));
    x = r(x + 1);
  }
  if (x === 10) return r(result + r(PSI_10));
  let y = 0;
  if (x < 1e17) {
    const z = r(1 / r(x * x));
    let p = 0;
    for (const c of DIGAMMA_A) p = r(r(p * z) + r(c)); // Cephes' polevl, coefficients from the highest degree
    y = r(z * p);
  }
  return r(r(r(result + r(Math.log(x))) - r(0.5 / x)) - y);
}

/**
 * trigamma (Math.h): reflection below 1/2, six recurrence steps, then the asymptotic series. `r` rounds each
 * step to the compute dtype: PyTorch has a float overload, whose float pi * x shifts the poles' neighbourhood.
 */
export function trigamma(x: number, r: (v: number) => number = (v) => v): number {
  let sign = 1;
  let result = 0;
  if (x < 0.5) {
    sign = -1;
    const pi = r(Math.PI);
    const s = r(Math.sin(r(pi * x)));
    result = r(result - r(r(pi * pi) / r(s * s)));
    x = r(1 - x);
  }
  for (let i = 0; i < 6; i++) {
    result = r(result + r(1 / r(x * x)));
    x = r(x + 1);
  }
  const ixx = r(1 / r(x * x));
  const series = r(1 + r(1 / r(2 * x))) + r(ixx * r(r(1 / 6) - r(ixx * r(r(1 / 30) - r(ixx * r(1 / 42))))));
  result = r(result + r(r(series) / x));
  return sign * result;
}

const MACHEP = 1.1102230246251565e-16;
const ZETA_A = [
  12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1892437580.3183792, 74724249600.0, -2950130727918.164, 116467828143500.67,
  -4597978722407473.0, 1.8152105401943546e17, -7.166165256175667e18,
];

/** The Hurwitz zeta function ζ(x, q) (Cephes' zeta): Euler–Maclaurin summation. */
export function zeta(x: number, q: number): number {
  if (x === 1) return Infinity;
  if (x < 1) return NaN;
  if (q <= 0) {
    if (q === Math.floor(q)) return Infinity;
    if (x !== Math.floor(x)) return NaN;
  }
  let s = Math.pow(q, -x);
  let a = q;
  let i = 0;
  let b = 0;
  while (i < 9 || a <= 9) {
    i += 1;
    a += 1;
    b = Math.pow(a, -x);
    s += b;
    if (-MACHEP * s < b && b < MACHEP * s) return s;
  }
  const w = a;
  s += (b * w) / (x - 1);
  s -= 0.5 * b;
  a = 1;
  let k = 0;
  for (i = 0; i < 12; i++) {
    a *= x + k;
    b /= w;
    let t = (a * b) / (ZETA_A[i] as number);
    s = s + t;
    t = Math.abs(t / s);
    if (t < MACHEP) return s;
    k += 1;
    a *= x + k;
    b /= w;
    k += 1;
  }
  return s;
}

/** calc_polygamma for n >= 2: (-1)^(n+1) n! ζ(n + 1, x); n = 0 and 1 are digamma and trigamma. */
export function polygamma(n: number, x: number, r: (v: number) => number = (v) => v): number {
  if (n === 0) return digamma(x, r);
  if (n === 1) return trigamma(x, r);
  return (n % 2 ? 1 : -1) * Math.exp(lgamma(n + 1)) * zeta(n + 1, x);
}

// ---- modified Bessel functions of the first kind --------------------------------------------------------

const I0E_A = [
  -4.4153416464793395e-18, 3.3307945188222384e-17, -2.431279846547955e-16, 1.715391285555133e-15, -1.1685332877993451e-14,
  7.676185498604936e-14, -4.856446783111929e-13, 2.95505266312964e-12, -1.726826291441556e-11, 9.675809035373237e-11,
  -5.189795601635263e-10, 2.6598237246823866e-9, -1.300025009986248e-8, 6.046995022541919e-8, -2.670793853940612e-7, 1.1173875391201037e-6,
  -4.4167383584587505e-6, 1.6448448070728896e-5, -5.754195010082104e-5, 0.00018850288509584165, -0.0005763755745385824,
  0.0016394756169413357, -0.004324309995050576, 0.010546460394594998, -0.02373741480589947, 0.04930528423967071, -0.09490109704804764,
  0.17162090152220877, -0.3046826723431984, 0.6767952744094761,
];
const I0E_B = [
  -7.233180487874754e-18, -4.830504485944182e-18, 4.46562142029676e-17, 3.461222867697461e-17, -2.8276239805165836e-16,
  -3.425485619677219e-16, 1.7725601330565263e-15, 3.8116806693526224e-15, -9.554846698828307e-15, -4.150569347287222e-14,
  1.54008621752141e-14, 3.8527783827421426e-13, 7.180124451383666e-13, -1.7941785315068062e-12, -1.3215811840447713e-11,
  -3.1499165279632416e-11, 1.1889147107846439e-11, 4.94060238822497e-10, 3.3962320257083865e-9, 2.266668990498178e-8, 2.0489185894690638e-7,
  2.8913705208347567e-6, 6.889758346916825e-5, 0.0033691164782556943, 0.8044904110141088,
];
const I1E_A = [
  2.7779141127610464e-18, -2.111421214358166e-17, 1.5536319577362005e-16, -1.1055969477353862e-15, 7.600684294735408e-15,
  -5.042185504727912e-14, 3.223793365945575e-13, -1.9839743977649436e-12, 1.1736186298890901e-11, -6.663489723502027e-11,
  3.625590281552117e-10, -1.8872497517228294e-9, 9.381537386495773e-9, -4.445059128796328e-8, 2.0032947535521353e-7, -8.568720264695455e-7,
  3.4702513081376785e-6, -1.3273163656039436e-5, 4.781565107550054e-5, -0.00016176081582589674, 0.0005122859561685758,
  -0.0015135724506312532, 0.004156422944312888, -0.010564084894626197, 0.024726449030626516, -0.05294598120809499, 0.1026436586898471,
  -0.17641651835783406, 0.25258718644363365,
];
const I1E_B = [
  7.517296310842105e-18, 4.414348323071708e-18, -4.6503053684893586e-17, -3.209525921993424e-17, 2.96262899764595e-16,
  3.3082023109209285e-16, -1.8803547755107825e-15, -3.8144030724370075e-15, 1.0420276984128802e-14, 4.272440016711951e-14,
  -2.1015418427726643e-14, -4.0835511110921974e-13, -7.198551776245908e-13, 2.0356285441470896e-12, 1.4125807436613782e-11,
  3.2526035830154884e-11, -1.8974958123505413e-11, -5.589743462196584e-10, -3.835380385964237e-9, -2.6314688468895196e-8,
  -2.512236237870209e-7, -3.882564808877691e-6, -0.00011058893876262371, -0.009761097491361469, 0.7785762350182801,
];

/** calc_i0: I0(x), two Chebyshev expansions of exp(-x) I0(x) (on [0, 8] and on (8, inf) in 1/x). */
export function i0(v: number): number {
  const x = Math.abs(v);
  if (x <= 8) return Math.exp(x) * chbevl(x / 2 - 2, I0E_A);
  return (Math.exp(x) * chbevl(32 / x - 2, I0E_B)) / Math.sqrt(x);
}

/** calc_i1: I1(x), odd in x. */
export function i1(v: number): number {
  const x = Math.abs(v);
  const out = x <= 8 ? Math.exp(x) * x * chbevl(x / 2 - 2, I1E_A) : (Math.exp(x) * chbevl(32 / x - 2, I1E_B)) / Math.sqrt(x);
  return v < 0 ? -out : out;
}

/** calc_i0e: exp(-|x|) I0(x), the series of calc_i0 without the exponential. */
export function i0e(v: number): number {
  const x = Math.abs(v);
  if (x <= 8) return chbevl(x / 2 - 2, I0E_A);
  return chbevl(32 / x - 2, I0E_B) / Math.sqrt(x);
}

/** calc_i1e: exp(-|x|) I1(x), odd in x. */
export function i1e(v: number): number {
  const x = Math.abs(v);
  const out = x <= 8 ? chbevl(x / 2 - 2, I1E_A) * x : chbevl(32 / x - 2, I1E_B) / Math.sqrt(x);
  return v < 0 ? -out : out;
}

// ---------------------------------------------------------------------------------------------------
// erf (fdlibm s_erf.c: rational approximations on [0, 0.84375), [0.84375, 1.25), [1.25, 1/0.35), [1/0.35, 6))
// ---------------------------------------------------------------------------------------------------

const ERX = 8.45062911510467529297e-1;
const EFX = 1.28379167095512586316e-1;
const PP = [
  1.28379167095512558561e-1, -3.2504210724700149937e-1, -2.84817495755985104766e-2, -5.77027029648944159157e-3, -2.37630166566501626084e-5,
];
const QQ = [
  1, 3.97917223959155352819e-1, 6.50222499887672944485e-2, 5.08130628187576562776e-3, 1.32494738004321644526e-4, -3.9602282787753681232e-6,
];
const PA = [
  -2.36211856075265944077e-3, 4.14856118683748331666e-1, -3.72207876035701323847e-1, 3.18346619901161753674e-1, -1.10894694282396677476e-1,
  3.54783043256182359371e-2, -2.166375594868790843e-3,
];
const QA = [
  1, 1.06420880400844228286e-1, 5.40397917702171048937e-1, 7.18286544141962662868e-2, 1.26171219808761642112e-1, 1.36370839120290507362e-2,
  1.1984499846799107417e-2,
];
const RA = [
  -9.86494403484714822705e-3, -6.93858572707181764372e-1, -1.05586262253232909814e1, -6.23753324503260060396e1, -1.62396669462573470355e2,
  -1.84605092906711035994e2, -8.12874355063065934246e1, -9.81432934416914548592,
];
const SA = [
  1, 1.96512716674392571292e1, 1.376577541435190426e2, 4.34565877475229228821e2, 6.45387271733267880336e2, 4.29008140027567833386e2,
  1.08635005541779435134e2, 6.57024977031928170135, -6.04244152148580987438e-2,
];
const RB = [
  -9.86494292470009928597e-3, -7.99283237680523006574e-1, -1.77579549177547519889e1, -1.60636384855821916062e2, -6.37566443368389627722e2,
  -1.02509513161107724954e3, -4.83519191608651397019e2,
];
const SB = [
  1, 3.03380607434824582924e1, 3.25792512996573918826e2, 1.53672958608443695994e3, 3.19985821950859553908e3, 2.55305040643316442583e3,
  4.74528541206955367215e2, -2.24409524465858183362e1,
];

/** Horner evaluation of c[0] + c[1] z + c[2] z^2 + ... */
function poly(c: readonly number[], z: number): number {
  let r = c[c.length - 1] as number;
  for (let i = c.length - 2; i >= 0; i--) r = r * z + (c[i] as number);
  return r;
}

const erfBits = new Float64Array(1);
const erfWords = new Uint32Array(erfBits.buffer);

/** The error function in double (fdlibm's algorithm; < 1 ulp). JavaScript's Math has none. */
export function erfDouble(x: number): number {
  if (Number.isNaN(x)) return x;
  const ax = Math.abs(x);
  if (ax === Infinity) return x > 0 ? 1 : -1;
  if (ax < 0.84375) {
    if (ax < 2 ** -28) return x + EFX * x;
    const z = x * x;
    return x + x * (poly(PP, z) / poly(QQ, z));
  }
  if (ax < 1.25) {
    const s = ax - 1;
    const v = ERX + poly(PA, s) / poly(QA, s);
    return x > 0 ? v : -v;
  }
  if (ax >= 6) return x > 0 ? 1 : -1;
  const s = 1 / (ax * ax);
  const big = ax >= 1 / 0.35;
  const R = big ? poly(RB, s) : poly(RA, s);
  const S = big ? poly(SB, s) : poly(SA, s);
  // z = ax with the low 32 bits cleared, so that -z*z is exact (fdlibm's SET_LOW_WORD(z, 0)).
  erfBits[0] = ax;
  erfWords[0] = 0;
  const z = erfBits[0] as number;
  const r = Math.exp(-z * z - 0.5625) * Math.exp((z - ax) * (z + ax) + R / S);
  const v = 1 - r / ax;
  return x > 0 ? v : -v;
}

// Note [erf of float16 and bfloat16]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's erf kernel for float16/bfloat16 converts to float and calls Vectorized<float>::erf, which is not
// SLEEF's erf but Abramowitz & Stegun 7.1.26 (absolute error ~1.5e-7, so erf(1e-6) is 1.19e-6 and erf(1e-20)
// is 0) evaluated with fused multiply-adds. erfReducedFloat replays it step by step in float (fmaf emulates
// the hardware FMA); only its exp differs from SLEEF's expf (< 1 ulp). float32 and float64 erf use SLEEF's
// erff / glibc's erf, which erfDouble matches to an ulp.
const AS_P = Math.fround(0.3275911);
const AS_P1 = Math.fround(0.254829592);
const AS_P2 = Math.fround(-0.284496736);
const AS_P3 = Math.fround(1.421413741);
const AS_P4 = Math.fround(-1.453152027);
const AS_P5 = Math.fround(1.061405429);

/** Vectorized<float>::erf: sign(x) * (1 - r(t) * t * exp(-x^2)), t = 1 / (1 + p|x|), in float with FMAs. */
export function erfReducedFloat(x: number): number {
  const f = Math.fround;
  const ax = Math.abs(x);
  const t = f(1 / fmaf(AS_P, ax, 1));
  const r = fmaf(fmaf(fmaf(fmaf(AS_P5, t, AS_P4), t, AS_P3), t, AS_P2), t, AS_P1);
  const e = f(Math.exp(-f(x * x)));
  const v = fmaf(f(-e * t), r, 1);
  return x < 0 || Object.is(x, -0) ? -v : v;
}

/** The complementary error function in double (fdlibm's erfc: the same approximations as erf, < 1 ulp). */
export function erfcDouble(x: number): number {
  if (Number.isNaN(x)) return x;
  if (x === Infinity) return 0;
  if (x === -Infinity) return 2;
  const ax = Math.abs(x);
  if (ax < 0.84375) {
    if (ax < 2 ** -56) return 1 - x;
    const z = x * x;
    const y = poly(PP, z) / poly(QQ, z);
    if (x < 0.25) return 1 - (x + x * y);
    return 0.5 - (x * y + (x - 0.5));
  }
  if (ax < 1.25) {
    const s = ax - 1;
    const pq = poly(PA, s) / poly(QA, s);
    return x >= 0 ? 1 - ERX - pq : 1 + (ERX + pq);
  }
  if (ax >= 28) return x > 0 ? 0 : 2;
  if (x < -6) return 2;
  const s = 1 / (ax * ax);
  const big = ax >= 1 / 0.35;
  const R = big ? poly(RB, s) : poly(RA, s);
  const S = big ? poly(SB, s) : poly(SA, s);
  erfBits[0] = ax;
  erfWords[0] = 0;
  const z = erfBits[0] as number;
  const r = Math.exp(-z * z - 0.5625) * Math.exp((z - ax) * (z + ax) + R / S);
  return x > 0 ? r / ax : 2 - r / ax;
}
