// The Bessel and Airy functions of aten/src/ATen/native/Math.h (airy_ai_forward, bessel_j0/j1/y0/y1_forward,
// modified_bessel_k0/k1_forward, scaled_modified_bessel_k0/k1_forward, spherical_bessel_j0_forward; the
// modified_bessel_i0/i1_forward series are calc_i0 / calc_i1 of Math.ts), Cephes-derived as PyTorch's (See Note
// [Cephes-derived special functions] in Math.ts): the same branches, rational and Chebyshev approximations and
// coefficients. Computed in double (See Note [Special functions in double] in SpecialOpsKernel.ts).

import { chbevl, i0, i1 } from './Math.js';

/** Horner's rule from the highest-degree coefficient (Cephes' polevl). */
export function polevl(x: number, c: readonly number[]): number {
  let r = 0;
  for (const v of c) r = r * x + v;
  return r;
}

// prettier-ignore
const AIRY_AN = [0.346538101525629, 12.007595273964581, 76.27960536152345, 168.08922493463058, 159.75639135016442, 70.53609068404442, 14.026469116338967, 1.0];
// prettier-ignore
const AIRY_AD = [0.5675945326387702, 14.75625625848472, 84.51389701414746, 177.31808814540045, 164.2346928715297, 71.47784008255756, 14.095913560783403, 1.0];
// prettier-ignore
const AIRY_AFN = [-0.1316963234183318, -0.6264565444319123, -0.6931580360369335, -0.2797799815451191, -0.04919001326095003, -0.004062659235948854, -0.0001592764962392621, -2.776491081552329e-06, -1.6778769848911465e-08];
// prettier-ignore
const AIRY_AFD = [13.356042070655324, 32.682503279522464, 26.736704094149957, 9.187074029072596, 1.4752914677166642, 0.11568717379518804, 0.004402916416152112, 7.547203482874142e-05, 4.5185009297058035e-07];
// prettier-ignore
const AIRY_AGN = [0.01973399320916857, 0.39110302961568827, 1.0657989759959559, 0.9391692298166502, 0.35146565610554764, 0.06338889196289255, 0.005858041130483885, 0.000282851600836737, 6.98793669997261e-06, 8.117892395543892e-08, 3.415517847659236e-10];
// prettier-ignore
const AIRY_AGD = [9.30892908077442, 19.835292871831214, 15.564662893286462, 5.476860694229755, 0.9542936116189619, 0.08645808263523921, 0.004126565238242226, 0.00010125908511650914, 1.1716673321441352e-06, 4.9183457006293e-09];
// prettier-ignore
const J0_PP = [0.0007969367292973471, 0.08283523921074408, 1.239533716464143, 5.447250030587687, 8.74716500199817, 5.303240382353949, 1.0];
// prettier-ignore
const J0_PQ = [0.0009244088105588637, 0.08562884743544745, 1.2535274390105895, 5.470977403304171, 8.761908832370695, 5.306052882353947, 1.0];
// prettier-ignore
const J0_QP = [-0.011366383889846916, -1.2825271867050931, -19.553954425773597, -93.20601521237683, -177.68116798048806, -147.07750515495118, -51.41053267665993, -6.050143506007285];
// prettier-ignore
const J0_QQ = [64.3178256118178, 856.4300259769806, 3882.4018360540163, 7240.467741956525, 5930.727011873169, 2062.0933166032783, 242.0057402402914];
// prettier-ignore
const J0_RP = [-4794432209.782018, 1956174919465.5657, -249248344360967.72, 9708622510473064.0];
// prettier-ignore
const J0_RQ = [499.563147152651, 173785.4016763747, 48440965.83399621, 11185553704.535683, 2112775201154.892, 310518229857422.56, 3.1812195594320496e+16, 1.7108629408104315e+18];
// prettier-ignore
const J1_PP = [0.0007621256162081731, 0.07313970569409176, 1.1271960812968493, 5.112079511468076, 8.424045901417724, 5.214515986823615, 1.0];
// prettier-ignore
const J1_PQ = [0.0005713231280725487, 0.06884559087544954, 1.105142326340617, 5.073863861286015, 8.399855543276042, 5.209828486823619, 1.0];
// prettier-ignore
const J1_QP = [0.05108625947501766, 4.982138729512334, 75.82382841325453, 366.7796093601508, 710.8563049989261, 597.4896124006136, 211.68875710057213, 25.207020585802372];
// prettier-ignore
const J1_QQ = [74.23732770356752, 1056.4488603826283, 4986.410583376536, 9562.318924047562, 7997.041604473507, 2826.1927851763908, 336.0936078106983];
// prettier-ignore
const J1_RP = [-899971225.7055594, 452228297998.19403, -72749424522181.83, 3682957328638529.0];
// prettier-ignore
const J1_RQ = [620.8364781180543, 256987.25675774884, 83514679.14319493, 22151159547.97925, 4749141220799.914, 784369607876235.9, 8.952223361846274e+16, 5.322786203326801e+18];
// prettier-ignore
const Y0_YP = [15592.436785523574, -14663929.59039716, 5435264770.518765, -982136065717.9115, 87590639439536.7, -3466283033847297.0, 4.4273326857256984e+16, -1.8495080043698668e+16];
// prettier-ignore
const Y0_YQ = [1041.2835366425984, 626107.330137135, 268919633.39381415, 86400248710.3935, 20297961275010.555, 3171577528429750.5, 2.5059625617265306e+17];
// prettier-ignore
const Y1_YP = [1263204747.9017804, -647355876379.1603, 114509511541823.73, -8127702555013251.0, 2.024394757135949e+17, -7.788771962659501e+17];
// prettier-ignore
const Y1_YQ = [594.3015923461282, 235564.09294306856, 73481194.44597217, 18760131610.870617, 3882312774962.3857, 620557727146953.8, 6.871410873553005e+16, 3.9727060811656064e+18];
// prettier-ignore
const K0_A = [1.374465435613523e-16, 4.25981614279661e-14, 1.0349695257633842e-11, 1.904516377220209e-09, 2.5347910790261494e-07, 2.286212103119452e-05, 0.001264615411446926, 0.0359799365153615, 0.3442898999246285, -0.5353273932339028];
// prettier-ignore
const K1_A = [-7.023863479386288e-18, -2.427449850519366e-15, -6.666901694199329e-13, -1.4114883926335278e-10, -2.213387630734726e-08, -2.4334061415659684e-06, -0.0001730288957513052, -0.006975723859639864, -0.12261118082265715, -0.3531559607765449, 1.5253002273389478];
// prettier-ignore
const K0_B = [5.300433772686263e-18, -1.6475804301524212e-17, 5.2103915050390274e-17, -1.678231096805412e-16, 5.512055978524319e-16, -1.848593377343779e-15, 6.3400764774050706e-15, -2.2275133269916698e-14, 8.032890775363575e-14, -2.9800969231727303e-13, 1.140340588208475e-12, -4.514597883373944e-12, 1.8559491149547177e-11, -7.957489244477107e-11, 3.577397281400301e-10, -1.69753450938906e-09, 8.574034017414225e-09, -4.660489897687948e-08, 2.766813639445015e-07, -1.8317555227191195e-06, 1.39498137188765e-05, -0.00012849549581627802, 0.0015698838857300533, -0.0314481013119645, 2.4403030820659555];
// prettier-ignore
const K1_B = [-5.756744483665017e-18, 1.7940508731475592e-17, -5.689462558442859e-17, 1.838093544366639e-16, -6.057047248373319e-16, 2.038703165624334e-15, -7.019837090418314e-15, 2.4771544244813043e-14, -8.976705182324994e-14, 3.3484196660784293e-13, -1.2891739609510289e-12, 5.13963967348173e-12, -2.1299678384275683e-11, 9.218315187605006e-11, -4.1903547593418965e-10, 2.015049755197033e-09, -1.0345762465678097e-08, 5.7410841254500495e-08, -3.5019606030878126e-07, 2.406484947837217e-06, -1.936197974166083e-05, 0.00019521551847135162, -0.002857816859622779, 0.10392373657681724, 2.7206261904844427];

const INV_SQRT_PI = 0.5641895835477563; // 1 / sqrt(pi)
const TWO_OVER_PI = 0.6366197723675814;
const SQRT_2_OVER_PI = 0.7978845608028654;
const PI_4 = 0.7853981633974483;
const THREE_PI_4 = 2.356194490192345;

/** airy_ai_forward: the Airy function Ai(x); NaN at ±inf, 0 beyond 103.892. */
export function airyAi(x: number): number {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? x : NaN;
  if (x > 103.892) return 0;
  if (x < -2.09) {
    const z = 1 / ((-2 * x * Math.sqrt(-x)) / 3);
    const zz = z * z;
    const afn = polevl(zz, AIRY_AFN);
    const afd = polevl(zz, AIRY_AFD);
    const agn = polevl(zz, AIRY_AGN);
    const agd = polevl(zz, AIRY_AGD);
    const t = (-2 * x * Math.sqrt(-x)) / 3 + 0.25 * Math.PI;
    return (INV_SQRT_PI / Math.sqrt(Math.sqrt(-x))) * (Math.sin(t) * (1 + (zz * afn) / afd) - Math.cos(t) * ((z * agn) / agd));
  }
  let ai = 0;
  let asymptotic = false;
  if (x >= 2.09) {
    asymptotic = true;
    const zeta = (2 * x * Math.sqrt(x)) / 3;
    const an = polevl(1 / zeta, AIRY_AN);
    const ad = polevl(1 / zeta, AIRY_AD);
    ai = (INV_SQRT_PI * (an / ad)) / (2 * Math.sqrt(Math.sqrt(x)) * Math.exp(zeta));
    if (x > 8.3203353) return ai;
  }
  // the Maclaurin series f - g of Ai, summed to machine epsilon (computed on [2.09, 8.32] too, as PyTorch)
  let f = 1;
  let g = x;
  let k = 1;
  let m = 1;
  let n = x;
  let t = 1;
  const z = x * x * x;
  while (t > Number.EPSILON) {
    m *= z;
    k += 1;
    m /= k;
    n *= z;
    k += 1;
    n /= k;
    m /= k;
    f += m;
    k += 1;
    n /= k;
    g += n;
    t = Math.abs(m / f);
  }
  return asymptotic ? ai : 0.3550280538878172 * f - 0.2588194037928068 * g;
}

/** The asymptotic form of J0/Y0 (j = true) or J1/Y1 for x > 5: P cos(x - phase) - 5/x Q sin(x - phase), or Y's sin/cos. */
function besselAsymptotic(
  x: number,
  w: number,
  pp: readonly number[],
  pq: readonly number[],
  qp: readonly number[],
  qq: readonly number[],
  phase: number,
  y: boolean,
): number {
  const p = polevl(w, pp) / polevl(w, pq);
  const q = polevl(w, qp) / polevl(w, qq);
  const s = Math.sin(x - phase);
  const c = Math.cos(x - phase);
  return ((y ? p * s + (5 / x) * q * c : p * c - (5 / x) * q * s) * SQRT_2_OVER_PI) / Math.sqrt(x);
}

/** bessel_j0_forward: J0(x). */
export function besselJ0(v: number): number {
  const x = Math.abs(v);
  if (x <= 5) {
    if (x < 0.00001) return 1 - (x * x) / 4;
    const xx = x * x;
    return ((xx - 5.783185962946784) * (xx - 30.471262343662087) * polevl(xx, J0_RP)) / polevl(xx, J0_RQ);
  }
  return besselAsymptotic(x, 25 / (x * x), J0_PP, J0_PQ, J0_QP, J0_QQ, PI_4, false);
}

/** bessel_j1_forward: J1(x), odd in x. */
export function besselJ1(x: number): number {
  if (x < 0) return -besselJ1(-x);
  if (x <= 5) {
    const xx = x * x;
    return (polevl(xx, J1_RP) / polevl(xx, J1_RQ)) * x * (xx - 14.681970642123893) * (xx - 49.2184563216946);
  }
  return besselAsymptotic(x, (5 / x) * (5 / x), J1_PP, J1_PQ, J1_QP, J1_QQ, THREE_PI_4, false);
}

/** bessel_y0_forward: Y0(x); -inf at 0, NaN below. */
export function besselY0(x: number): number {
  if (x <= 5) {
    if (x === 0) return -Infinity;
    if (x < 0) return NaN;
    const xx = x * x;
    return polevl(xx, Y0_YP) / polevl(xx, Y0_YQ) + TWO_OVER_PI * Math.log(x) * besselJ0(x);
  }
  return besselAsymptotic(x, 25 / (x * x), J0_PP, J0_PQ, J0_QP, J0_QQ, PI_4, true);
}

/** bessel_y1_forward: Y1(x); -inf at 0, NaN below. */
export function besselY1(x: number): number {
  if (x <= 5) {
    if (x === 0) return -Infinity;
    if (x <= 0) return NaN;
    const xx = x * x;
    return x * (polevl(xx, Y1_YP) / polevl(xx, Y1_YQ)) + TWO_OVER_PI * (besselJ1(x) * Math.log(x) - 1 / x);
  }
  return besselAsymptotic(x, (5 / x) * (5 / x), J1_PP, J1_PQ, J1_QP, J1_QQ, THREE_PI_4, true);
}

/** modified_bessel_i0_forward: I0(x) (calc_i0's series). */
export const modifiedBesselI0 = i0;
/** modified_bessel_i1_forward: I1(x) (calc_i1's series). */
export const modifiedBesselI1 = i1;

/**
 * modified_bessel_k0_forward (scaled: scaled_modified_bessel_k0_forward, exp(x) K0(x)): +inf at 0, NaN below
 * 0; a Chebyshev series in x^2 - 2 with the log term on (0, 2], in 8/x - 2 beyond.
 */
export function modifiedBesselK0(x: number, scaled = false): number {
  if (x === 0) return Infinity;
  if (x < 0) return NaN;
  if (x <= 2) {
    const k = chbevl(x * x - 2, K0_A) - Math.log(0.5 * x) * i0(x);
    return scaled ? k * Math.exp(x) : k;
  }
  const b = chbevl(8 / x - 2, K0_B);
  return scaled ? b / Math.sqrt(x) : (Math.exp(-x) * b) / Math.sqrt(x);
}

/** modified_bessel_k1_forward (scaled: scaled_modified_bessel_k1_forward, exp(x) K1(x)). */
export function modifiedBesselK1(x: number, scaled = false): number {
  if (x === 0) return Infinity;
  if (x < 0) return NaN;
  if (x <= 2) {
    const k = Math.log(0.5 * x) * i1(x) + chbevl(x * x - 2, K1_A) / x;
    return scaled ? k * Math.exp(x) : k;
  }
  const b = chbevl(8 / x - 2, K1_B);
  return scaled ? b / Math.sqrt(x) : (Math.exp(-x) * b) / Math.sqrt(x);
}

/** spherical_bessel_j0_forward: sin(x) / x, a Taylor polynomial below 1/2, 0 at ±inf. */
export function sphericalBesselJ0(x: number): number {
  if (x === Infinity || x === -Infinity) return 0;
  if (Math.abs(x) < 0.5) {
    const xx = x * x;
    return 1 + xx * (-1 / 6 + xx * (1 / 120 + xx * (-1 / 5040 + xx * (1 / 362880 + xx * (-1 / 39916800 + xx * (1 / 6227020800))))));
  }
  return Math.sin(x) / x;
}
