// The torch.special kernels of aten/src/ATen/native/cpu/UnaryOpsKernel.cpp (i0e, i1, i1e, ndtri, log_ndtr,
// erfcx, entr, airy_ai, the Bessel functions) and cpu/BinaryOpsKernel.cpp (xlog1py, zeta, the orthogonal
// polynomials), with their structured wrappers of UnaryOps.cpp / BinaryOps.cpp, the Scalar overloads
// (CompositeExplicitAutograd: the Tensor op of a wrapped number) and the CompositeImplicitAutograd special_ndtr
// and special_polygamma. Kept beside UnaryOpsKernel.ts / BinaryOpsKernel.ts; the functions are in Math.ts,
// MathBessel.ts, MathErfcx.ts and MathPolynomials.ts.
//
// Note [Special functions in double]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch instantiates Math.h's templates in scalar_t, so its float32 kernels evaluate the Cephes series in
// float. The unary functions here are evaluated in double and rounded once (as Math.ts's i0 and erfinv): their
// series are well conditioned, so the result is within the few float ulps by which PyTorch's float evaluation
// differs from the exact value. The polynomials are the exception (See Note [Polynomials in the compute dtype]
// in MathPolynomials.ts): their recurrences compound rounding, so they round every step as PyTorch's float does.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, notImplementedForDtype } from '../c10/ScalarType.js';
import * as at from '../generated/TensorBody.js';
import { type ScalarOp, TensorIterator, cpuKernel } from '../iter/index.js';
import { resizeOutput } from '../iter/Resize.js';
import { wrapScalar } from '../tensor/ScalarOps.js';
import type { Tensor } from '../tensor/Tensor.js';
import { i0e, i1, i1e, zeta } from './Math.js';
import {
  airyAi,
  besselJ0,
  besselJ1,
  besselY0,
  besselY1,
  modifiedBesselI0,
  modifiedBesselI1,
  modifiedBesselK0,
  modifiedBesselK1,
  sphericalBesselJ0,
} from './MathBessel.js';
import { erfcx, logNdtr, ndtri } from './MathErfcx.js';
import * as poly from './MathPolynomials.js';
import type { StructuredKernel } from './TensorMeta.js';
import { rounderFor, type Rounder } from './UnaryOpsKernel.js';

type Num = number | boolean;

/** AT_DISPATCH_FLOATING_TYPES (float, double), and its _AND2(BFloat16, Half). */
const floating = (d: ScalarType): boolean => d === ScalarType.Float || d === ScalarType.Double;
const floatingAndHalf = (d: ScalarType): boolean => floating(d) || d === ScalarType.Half || d === ScalarType.BFloat16;

function unary(name: string, f: (x: number, r: Rounder) => number, half = false): StructuredKernel<[self: Tensor]> {
  return {
    meta: (out, self) => TensorIterator.unaryFloatOp(out, self),
    impl(iter) {
      if (iter.isMeta) return;
      const d = iter.commonDtype;
      if (!(half ? floatingAndHalf(d) : floating(d))) throw notImplementedForDtype(name, d);
      const r = rounderFor(d);
      cpuKernel(iter, (x) => r(f(x as number, r)));
    },
  };
}

/** entr: -x log x, 0 at 0, -inf below 0, NaN kept. */
function entr(x: number): number {
  if (Number.isNaN(x)) return x;
  if (x > 0) return -x * Math.log(x);
  if (x === 0) return 0;
  return -Infinity;
}

export const specialI0eStructured = unary('i0e_cpu', i0e, true);
export const specialI1Structured = unary('i1_cpu', i1);
export const specialI1eStructured = unary('i1e_cpu', i1e);
export const specialNdtriStructured = unary('ndtri_cpu', ndtri);
export const specialLogNdtrStructured = unary('log_ndtr_cpu', logNdtr);
export const specialErfcxStructured = unary('erfcx_cpu', (x, r) => erfcx(x, r));
export const specialEntrStructured = unary('entr_cpu', entr, true);
export const specialAiryAiStructured = unary('airy_ai_cpu', airyAi);
export const specialBesselJ0Structured = unary('bessel_j0_cpu', besselJ0);
export const specialBesselJ1Structured = unary('bessel_j1_cpu', besselJ1);
export const specialBesselY0Structured = unary('bessel_y0_cpu', besselY0);
export const specialBesselY1Structured = unary('bessel_y1_cpu', besselY1);
export const specialModifiedBesselI0Structured = unary('modified_bessel_i0_cpu', modifiedBesselI0);
export const specialModifiedBesselI1Structured = unary('modified_bessel_i1_cpu', modifiedBesselI1);
export const specialModifiedBesselK0Structured = unary('modified_bessel_k0_cpu', (x) => modifiedBesselK0(x));
export const specialModifiedBesselK1Structured = unary('modified_bessel_k1_cpu', (x) => modifiedBesselK1(x));
export const specialScaledModifiedBesselK0Structured = unary('scaled_modified_bessel_k0_cpu', (x) => modifiedBesselK0(x, true));
export const specialScaledModifiedBesselK1Structured = unary('scaled_modified_bessel_k1_cpu', (x) => modifiedBesselK1(x, true));
export const specialSphericalBesselJ0Structured = unary('spherical_bessel_j0_cpu', sphericalBesselJ0);

// ---- binary: xlog1py, zeta, the polynomials -------------------------------------------------------------

function binary(name: string, op: (r: Rounder, d: ScalarType) => ScalarOp, half = false): StructuredKernel<[a: Tensor, b: Tensor]> {
  return {
    meta: (out, a, b) => TensorIterator.binaryFloatOp(out, a, b),
    impl(iter) {
      if (iter.isMeta) return;
      const d = iter.commonDtype;
      if (!(half ? floatingAndHalf(d) : floating(d))) throw notImplementedForDtype(name, d);
      cpuKernel(iter, op(rounderFor(d), d));
    },
  };
}

/** xlog1py_kernel: NaN where y is NaN, 0 where x is 0, else x log1p(y). */
export const specialXlog1pyStructured = binary(
  'xlog1py_cpu',
  (r) => (a, b) => {
    const x = a as number;
    const y = b as number;
    if (Number.isNaN(y)) return NaN;
    if (x === 0) return 0;
    return r(x * Math.log1p(y));
  },
  true,
);
export const specialZetaStructured = binary('zeta_cpu', (r) => (a, b) => r(zeta(a as number, b as number)));

type Poly = (x: number, n: number, r: Rounder) => number;
const polynomial = (name: string, f: Poly): StructuredKernel<[a: Tensor, b: Tensor]> =>
  binary(name, (r) => (x, n) => r(f(x as number, r(n as number), r)));

export const specialChebyshevPolynomialTStructured = polynomial('chebyshev_polynomial_t_cpu', poly.chebyshevT);
export const specialChebyshevPolynomialUStructured = polynomial('chebyshev_polynomial_u_cpu', poly.chebyshevU);
export const specialChebyshevPolynomialVStructured = polynomial('chebyshev_polynomial_v_cpu', poly.chebyshevV);
export const specialChebyshevPolynomialWStructured = polynomial('chebyshev_polynomial_w_cpu', poly.chebyshevW);
export const specialShiftedChebyshevPolynomialTStructured = polynomial('shifted_chebyshev_polynomial_t_cpu', poly.shiftedChebyshevT);
export const specialShiftedChebyshevPolynomialUStructured = polynomial('shifted_chebyshev_polynomial_u_cpu', poly.shiftedChebyshevU);
export const specialShiftedChebyshevPolynomialVStructured = polynomial('shifted_chebyshev_polynomial_v_cpu', poly.shiftedChebyshevV);
export const specialShiftedChebyshevPolynomialWStructured = polynomial('shifted_chebyshev_polynomial_w_cpu', poly.shiftedChebyshevW);
export const specialLaguerrePolynomialLStructured = polynomial('laguerre_polynomial_l_cpu', poly.laguerreL);
export const specialLegendrePolynomialPStructured = polynomial('legendre_polynomial_p_cpu', poly.legendreP);
/** getHermitianLimit: degree 128 in float, 512 in double. */
export const specialHermitePolynomialHStructured = binary(
  'hermite_polynomial_h_cpu',
  (r, d) => (x, n) => r(poly.hermiteH(x as number, r(n as number), r, d === ScalarType.Float ? 128 : 512)),
);
export const specialHermitePolynomialHeStructured = binary(
  'hermite_polynomial_he_cpu',
  (r, d) => (x, n) => r(poly.hermiteHe(x as number, r(n as number), r, d === ScalarType.Float ? 128 : 512)),
);

// ---- the Scalar overloads: the Tensor op of a wrapped number ----------------------------------------------

type BinaryTensorOp = (a: Tensor, b: Tensor) => Tensor;
type BinaryOutOp = (a: Tensor, b: Tensor, out: Tensor) => Tensor;

function scalarOverloads(
  fn: BinaryTensorOp,
  out: BinaryOutOp,
): {
  selfScalar: (ks: DispatchKeySet, a: Num, b: Tensor) => Tensor;
  otherScalar: (ks: DispatchKeySet, a: Tensor, b: Num) => Tensor;
  selfScalarOut: (ks: DispatchKeySet, a: Num, b: Tensor, o: Tensor) => Tensor;
  otherScalarOut: (ks: DispatchKeySet, a: Tensor, b: Num, o: Tensor) => Tensor;
} {
  return {
    selfScalar: (_ks, a, b) => fn(wrapScalar(a), b),
    otherScalar: (_ks, a, b) => fn(a, wrapScalar(b)),
    selfScalarOut: (_ks, a, b, o) => out(wrapScalar(a), b, o),
    otherScalarOut: (_ks, a, b, o) => out(a, wrapScalar(b), o),
  };
}

const _xlog1py = scalarOverloads(at.special_xlog1py, at.special_xlog1py_out);
export const xlog1pySelfScalar = _xlog1py.selfScalar;
export const xlog1pyOtherScalar = _xlog1py.otherScalar;
export const xlog1pySelfScalarOut = _xlog1py.selfScalarOut;
export const xlog1pyOtherScalarOut = _xlog1py.otherScalarOut;
const _zeta = scalarOverloads(at.special_zeta, at.special_zeta_out);
export const zetaSelfScalar = _zeta.selfScalar;
export const zetaOtherScalar = _zeta.otherScalar;
export const zetaSelfScalarOut = _zeta.selfScalarOut;
export const zetaOtherScalarOut = _zeta.otherScalarOut;
const _chebyshevT = scalarOverloads(at.special_chebyshev_polynomial_t, at.special_chebyshev_polynomial_t_out);
export const chebyshevTSelfScalar = _chebyshevT.selfScalar;
export const chebyshevTOtherScalar = _chebyshevT.otherScalar;
export const chebyshevTSelfScalarOut = _chebyshevT.selfScalarOut;
export const chebyshevTOtherScalarOut = _chebyshevT.otherScalarOut;
const _chebyshevU = scalarOverloads(at.special_chebyshev_polynomial_u, at.special_chebyshev_polynomial_u_out);
export const chebyshevUSelfScalar = _chebyshevU.selfScalar;
export const chebyshevUOtherScalar = _chebyshevU.otherScalar;
export const chebyshevUSelfScalarOut = _chebyshevU.selfScalarOut;
export const chebyshevUOtherScalarOut = _chebyshevU.otherScalarOut;
const _chebyshevV = scalarOverloads(at.special_chebyshev_polynomial_v, at.special_chebyshev_polynomial_v_out);
export const chebyshevVSelfScalar = _chebyshevV.selfScalar;
export const chebyshevVOtherScalar = _chebyshevV.otherScalar;
export const chebyshevVSelfScalarOut = _chebyshevV.selfScalarOut;
export const chebyshevVOtherScalarOut = _chebyshevV.otherScalarOut;
const _chebyshevW = scalarOverloads(at.special_chebyshev_polynomial_w, at.special_chebyshev_polynomial_w_out);
export const chebyshevWSelfScalar = _chebyshevW.selfScalar;
export const chebyshevWOtherScalar = _chebyshevW.otherScalar;
export const chebyshevWSelfScalarOut = _chebyshevW.selfScalarOut;
export const chebyshevWOtherScalarOut = _chebyshevW.otherScalarOut;
const _shiftedChebyshevT = scalarOverloads(at.special_shifted_chebyshev_polynomial_t, at.special_shifted_chebyshev_polynomial_t_out);
export const shiftedChebyshevTSelfScalar = _shiftedChebyshevT.selfScalar;
export const shiftedChebyshevTOtherScalar = _shiftedChebyshevT.otherScalar;
export const shiftedChebyshevTSelfScalarOut = _shiftedChebyshevT.selfScalarOut;
export const shiftedChebyshevTOtherScalarOut = _shiftedChebyshevT.otherScalarOut;
const _shiftedChebyshevU = scalarOverloads(at.special_shifted_chebyshev_polynomial_u, at.special_shifted_chebyshev_polynomial_u_out);
export const shiftedChebyshevUSelfScalar = _shiftedChebyshevU.selfScalar;
export const shiftedChebyshevUOtherScalar = _shiftedChebyshevU.otherScalar;
export const shiftedChebyshevUSelfScalarOut = _shiftedChebyshevU.selfScalarOut;
export const shiftedChebyshevUOtherScalarOut = _shiftedChebyshevU.otherScalarOut;
const _shiftedChebyshevV = scalarOverloads(at.special_shifted_chebyshev_polynomial_v, at.special_shifted_chebyshev_polynomial_v_out);
export const shiftedChebyshevVSelfScalar = _shiftedChebyshevV.selfScalar;
export const shiftedChebyshevVOtherScalar = _shiftedChebyshevV.otherScalar;
export const shiftedChebyshevVSelfScalarOut = _shiftedChebyshevV.selfScalarOut;
export const shiftedChebyshevVOtherScalarOut = _shiftedChebyshevV.otherScalarOut;
const _shiftedChebyshevW = scalarOverloads(at.special_shifted_chebyshev_polynomial_w, at.special_shifted_chebyshev_polynomial_w_out);
export const shiftedChebyshevWSelfScalar = _shiftedChebyshevW.selfScalar;
export const shiftedChebyshevWOtherScalar = _shiftedChebyshevW.otherScalar;
export const shiftedChebyshevWSelfScalarOut = _shiftedChebyshevW.selfScalarOut;
export const shiftedChebyshevWOtherScalarOut = _shiftedChebyshevW.otherScalarOut;
const _hermiteH = scalarOverloads(at.special_hermite_polynomial_h, at.special_hermite_polynomial_h_out);
export const hermiteHSelfScalar = _hermiteH.selfScalar;
export const hermiteHOtherScalar = _hermiteH.otherScalar;
export const hermiteHSelfScalarOut = _hermiteH.selfScalarOut;
export const hermiteHOtherScalarOut = _hermiteH.otherScalarOut;
const _hermiteHe = scalarOverloads(at.special_hermite_polynomial_he, at.special_hermite_polynomial_he_out);
export const hermiteHeSelfScalar = _hermiteHe.selfScalar;
export const hermiteHeOtherScalar = _hermiteHe.otherScalar;
export const hermiteHeSelfScalarOut = _hermiteHe.selfScalarOut;
export const hermiteHeOtherScalarOut = _hermiteHe.otherScalarOut;
const _laguerreL = scalarOverloads(at.special_laguerre_polynomial_l, at.special_laguerre_polynomial_l_out);
export const laguerreLSelfScalar = _laguerreL.selfScalar;
export const laguerreLOtherScalar = _laguerreL.otherScalar;
export const laguerreLSelfScalarOut = _laguerreL.selfScalarOut;
export const laguerreLOtherScalarOut = _laguerreL.otherScalarOut;
const _legendreP = scalarOverloads(at.special_legendre_polynomial_p, at.special_legendre_polynomial_p_out);
export const legendrePSelfScalar = _legendreP.selfScalar;
export const legendrePOtherScalar = _legendreP.otherScalar;
export const legendrePSelfScalarOut = _legendreP.selfScalarOut;
export const legendrePOtherScalarOut = _legendreP.otherScalarOut;

// ---- CompositeImplicitAutograd: ndtr, polygamma ------------------------------------------------------------

/** special_ndtr: (1 + erf(x / sqrt 2)) / 2, as UnaryOps.cpp computes it. */
export function specialNdtr(_ks: DispatchKeySet, self: Tensor): Tensor {
  const xSqrt2 = at.mul_Scalar(self, Math.SQRT1_2);
  return at.mul_Scalar(at.add_Tensor(at.erf(xSqrt2), wrapScalar(1)), 0.5);
}
export function specialNdtrOut(_ks: DispatchKeySet, self: Tensor, out: Tensor): Tensor {
  const ndtr = specialNdtr(_ks, self);
  resizeOutput(out, ndtr.shape);
  return at.copy_(out, ndtr);
}
export function specialPolygamma(_ks: DispatchKeySet, n: number, self: Tensor): Tensor {
  return at.polygamma(n, self);
}
export function specialPolygammaOut(_ks: DispatchKeySet, n: number, self: Tensor, out: Tensor): Tensor {
  return at.polygamma_out(n, self, out);
}
