// The unary pointwise operators: neg, abs, sign, sgn, exp, exp2, log, log2, log10, log1p, expm1, sqrt, rsqrt,
// the trigonometric and hyperbolic functions and their inverses, sigmoid, silu, erf, erfinv, lgamma, digamma,
// polygamma, i0, sinc, floor, ceil, round (and round.decimals), trunc, frac, reciprocal, nan_to_num, logit,
// logical_not, bitwise_not, and the composites square, fix, deg2rad, rad2deg. Mirrors
// aten/src/ATen/native/UnaryOps.cpp: the meta step (the unary iterator each op builds, the checks PyTorch
// makes before it), the structured declarations (meta + impl; the variants are generated from
// native_functions.yaml) and the wrappers. The loops are UnaryOpsKernel.ts (native/cpu/UnaryOpsKernel.cpp).

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import {
  ScalarType,
  typeMetaName,
  isComplexType,
  isFloatingType,
  isIntegralType,
  scalarTypeToString,
  toRealValueType,
} from '../c10/ScalarType.js';
import { canCast } from '../iter/resultType.js';
import { resizeOutput } from '../iter/Resize.js';
import { getDefaultDtype } from '../tensor/defaults.js';
import { TensorIterator, TensorIteratorConfig } from '../iter/index.js';
import { aten } from '../generated/Operators.js';
import { wrapScalar } from '../tensor/ScalarOps.js';
import type { Tensor } from '../tensor/Tensor.js';
import type { StructuredKernel } from './TensorMeta.js';
import {
  Kind,
  SPECS,
  type SpecName,
  type UnarySpec,
  absComplexKernel,
  angleComplexKernel,
  bitwiseNotKernel,
  frexpKernel,
  i1Kernel,
  isneginfKernel,
  isposinfKernel,
  logicalNotKernel,
  logitKernel,
  nanToNumKernel,
  polygammaKernel,
  roundDecimalsKernel,
  runLoop,
  signbitKernel,
} from './UnaryOpsKernel.js';

/**
 * `logical_not_out`: an iterator without promotion or a same-dtype check (the input is read in its own
 * dtype, `!a` is stored in the output's); the functional form writes a bool tensor.
 */
function logicalNotImpl(out: Tensor | null, self: Tensor): Tensor {
  const config = new TensorIteratorConfig().checkAllSameDtype(false).addOutput(out).addConstInput(self);
  if (out === null) config.declareStaticDtype(ScalarType.Bool);
  const iter = config.build();
  logicalNotKernel(iter);
  return iter.output() as Tensor;
}

export function logicalNot(_ks: DispatchKeySet, self: Tensor): Tensor {
  return logicalNotImpl(null, self);
}
export function logicalNot_(_ks: DispatchKeySet, self: Tensor): Tensor {
  return logicalNotImpl(self, self);
}
export function logicalNotOut(_ks: DispatchKeySet, self: Tensor, out: Tensor): Tensor {
  return logicalNotImpl(out, self);
}
/**
 * `bitwise_not.out` (structured, as in PyTorch): a unary_op iterator (one dtype throughout); bool is `!a`,
 * integers `~a`, other dtypes AT_DISPATCH's error from the impl (Note [Dtype errors belong to the impl step]).
 */
export const bitwiseNotStructured: StructuredKernel<[self: Tensor]> = {
  meta: (out, self) => TensorIterator.unaryOp(out, self),
  impl: bitwiseNotKernel,
};

/** The unary iterator of a spec's op (`unary_op` or `unary_float_op`), after the op's own checks. */
export function build(spec: UnarySpec, out: Tensor | null, self: Tensor): TensorIterator {
  spec.precheck?.(self);
  return spec.kind === Kind.Float ? TensorIterator.unaryFloatOp(out, self) : TensorIterator.unaryOp(out, self);
}

type Functional = (ks: DispatchKeySet, self: Tensor) => Tensor;
type OutVariant = (ks: DispatchKeySet, self: Tensor, out: Tensor) => Tensor;

function functional(name: SpecName): Functional {
  const spec: UnarySpec = SPECS[name];
  return (_ks, self) => {
    const iter = build(spec, null, self);
    runLoop(spec, iter);
    return iter.output() as Tensor;
  };
}

function inplace(name: SpecName): Functional {
  const spec: UnarySpec = SPECS[name];
  return (_ks, self) => {
    runLoop(spec, build(spec, self, self));
    return self;
  };
}

function outVariant(name: SpecName): OutVariant {
  const spec: UnarySpec = SPECS[name];
  return (_ks, self, out) => {
    runLoop(spec, build(spec, out, self));
    return out;
  };
}
// ---------------------------------------------------------------------------------------------------
// The kernels: the structured ops, then abs, relu, gelu, round.decimals, isnan/isinf/isfinite, nan_to_num
// ---------------------------------------------------------------------------------------------------

// Note [Unary ops are structured]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// As in PyTorch, the unary ops whose out= overload is `structured: True` there (every op of SPECS but abs and
// relu) are structured kernels: `meta` builds the unary iterator (result dtype, set_output, the in-place and
// out= cast checks), `impl` runs the loop. The generator writes their functional, in-place and out= kernels
// for CPU and Meta and `atenCpu.<op>` around them (Note [Structured kernels in aten-ts]).

type StructuredName = Exclude<SpecName, 'abs' | 'relu' | 'angle'>;

function structured(name: StructuredName): StructuredKernel<[self: Tensor]> {
  const spec: UnarySpec = SPECS[name];
  return {
    meta: (out, self) => build(spec, out, self),
    impl: (iter) => runLoop(spec, iter),
  };
}

export const negStructured = structured('neg');
export const signStructured = structured('sign');
export const expStructured = structured('exp');
export const exp2Structured = structured('exp2');
export const logStructured = structured('log');
export const log2Structured = structured('log2');
export const log1pStructured = structured('log1p');
export const expm1Structured = structured('expm1');
export const sqrtStructured = structured('sqrt');
export const rsqrtStructured = structured('rsqrt');
export const sinStructured = structured('sin');
export const cosStructured = structured('cos');
export const tanStructured = structured('tan');
export const asinStructured = structured('asin');
export const acosStructured = structured('acos');
export const atanStructured = structured('atan');
export const sinhStructured = structured('sinh');
export const coshStructured = structured('cosh');
export const tanhStructured = structured('tanh');
export const sigmoidStructured = structured('sigmoid');
export const erfStructured = structured('erf');
export const siluStructured = structured('silu');
export const floorStructured = structured('floor');
export const ceilStructured = structured('ceil');
export const roundStructured = structured('round');
export const truncStructured = structured('trunc');
export const fracStructured = structured('frac');
export const reciprocalStructured = structured('reciprocal');
export const acoshStructured = structured('acosh');
export const asinhStructured = structured('asinh');
export const atanhStructured = structured('atanh');
export const log10Structured = structured('log10');
export const erfinvStructured = structured('erfinv');
export const lgammaStructured = structured('lgamma');
export const digammaStructured = structured('digamma');
export const i0Structured = structured('i0');
export const sincStructured = structured('sinc');
export const sgnStructured = structured('sgn');
export const erfcStructured = structured('erfc');

// ---- abs: complex inputs give real results ---------------------------------------------------------

/** abs (or angle) of a complex tensor into a real one (`unary_op_impl_with_complex_to_float`). */
function absComplexInto(out: Tensor | null, self: Tensor, kernel = absComplexKernel): TensorIterator {
  const real = toRealValueType(self.scalarType);
  const config = new TensorIteratorConfig().checkAllSameDtype(false);
  if (out === null) config.declareStaticDtype(real);
  else if (out.scalarType !== real)
    throw new Error(`Found dtype ${scalarTypeToString(out.scalarType)} but expected ${scalarTypeToString(real)}`);
  const iter = config.addOutput(out).addConstInput(self).build();
  kernel(iter);
  return iter;
}

const absSame = functional('abs');
const absSameOut = outVariant('abs');

export function abs(ks: DispatchKeySet, self: Tensor): Tensor {
  return isComplexType(self.scalarType) ? (absComplexInto(null, self).output() as Tensor) : absSame(ks, self);
}

const absInplace = inplace('abs');

export function abs_(ks: DispatchKeySet, self: Tensor): Tensor {
  if (isComplexType(self.scalarType)) throw new Error('In-place abs is not supported for complex tensors.');
  return absInplace(ks, self);
}

export function absOut(ks: DispatchKeySet, self: Tensor, out: Tensor): Tensor {
  if (!isComplexType(self.scalarType)) return absSameOut(ks, self, out);
  absComplexInto(out, self);
  return out;
}

// ---- angle: complex inputs give real results, real ones the default float dtype --------------------

const angleFloat = functional('angle');
const angleFloatOut = outVariant('angle');

/** `angle(self)`: arg z of a complex tensor (its real dtype), 0 or pi for a real one (unary_op_impl_float). */
export function angle(ks: DispatchKeySet, self: Tensor): Tensor {
  return isComplexType(self.scalarType) ? (absComplexInto(null, self, angleComplexKernel).output() as Tensor) : angleFloat(ks, self);
}

export function angleOut(ks: DispatchKeySet, self: Tensor, out: Tensor): Tensor {
  if (!isComplexType(self.scalarType)) return angleFloatOut(ks, self, out);
  absComplexInto(out, self, angleComplexKernel);
  return out;
}

// ---- round.decimals --------------------------------------------------------------------------------
export function roundDecimals(_ks: DispatchKeySet, self: Tensor, decimals: number): Tensor {
  const iter = TensorIterator.unaryOp(null, self);
  roundDecimalsKernel(iter, decimals);
  return iter.output() as Tensor;
}

export function roundDecimals_(_ks: DispatchKeySet, self: Tensor, decimals: number): Tensor {
  roundDecimalsKernel(TensorIterator.unaryOp(self, self), decimals);
  return self;
}

export function roundDecimalsOut(_ks: DispatchKeySet, self: Tensor, decimals: number, out: Tensor): Tensor {
  roundDecimalsKernel(TensorIterator.unaryOp(out, self), decimals);
  return out;
}

// ---- nan_to_num --------------------------------------------------------------------------------------

type OptNumber = number | null | undefined;

export function nanToNum(_ks: DispatchKeySet, self: Tensor, nan?: OptNumber, posinf?: OptNumber, neginf?: OptNumber): Tensor {
  const iter = TensorIterator.unaryOp(null, self);
  nanToNumKernel(iter, nan, posinf, neginf);
  return iter.output() as Tensor;
}

export function nanToNum_(_ks: DispatchKeySet, self: Tensor, nan?: OptNumber, posinf?: OptNumber, neginf?: OptNumber): Tensor {
  nanToNumKernel(TensorIterator.unaryOp(self, self), nan, posinf, neginf);
  return self;
}

export function nanToNumOut(_ks: DispatchKeySet, self: Tensor, nan: OptNumber, posinf: OptNumber, neginf: OptNumber, out: Tensor): Tensor {
  if (out.scalarType !== self.scalarType) {
    throw new Error(
      `nan_to_num: dtype of out: ${scalarTypeToString(out.scalarType)} should be same as input: ${scalarTypeToString(self.scalarType)}`,
    );
  }
  nanToNumKernel(TensorIterator.unaryOp(out, self), nan, posinf, neginf);
  return out;
}

/** The modified Bessel function I1 of a floating tensor (not differentiable): i0's derivative. */
export function besselI1(self: Tensor): Tensor {
  const iter = TensorIterator.unaryFloatOp(null, self);
  i1Kernel(iter);
  return iter.output() as Tensor;
}

// ---- polygamma ---------------------------------------------------------------------------------------

/** `polygamma.out(int n, Tensor self)` (structured): a unary float op; n < 0 is rejected by the meta step. */
export const polygammaStructured: StructuredKernel<[n: number, self: Tensor]> = {
  meta(out, n, self) {
    if (n < 0) throw new Error('polygamma(n, x) does not support negative n.');
    return TensorIterator.unaryFloatOp(out, self);
  },
  impl(iter, n) {
    polygammaKernel(iter, n);
  },
};

/** `polygamma_(Tensor(a!) self, int n)` (CompositeExplicitAutograd): polygamma.out into self. */
export function polygamma_(_ks: DispatchKeySet, self: Tensor, n: number): Tensor {
  return aten().polygamma_out.call(n, self, self);
}

// ---- logit ---------------------------------------------------------------------------------------------

export function logit(_ks: DispatchKeySet, self: Tensor, eps?: OptNumber): Tensor {
  const iter = TensorIterator.unaryFloatOp(null, self);
  logitKernel(iter, eps);
  return iter.output() as Tensor;
}
export function logit_(_ks: DispatchKeySet, self: Tensor, eps?: OptNumber): Tensor {
  logitKernel(TensorIterator.unaryFloatOp(self, self), eps);
  return self;
}
export function logitOut(_ks: DispatchKeySet, self: Tensor, eps: OptNumber, out: Tensor): Tensor {
  logitKernel(TensorIterator.unaryFloatOp(out, self), eps);
  return out;
}

// ---- square, fix (CompositeImplicitAutograd) -------------------------------------------------------------

export function square(_ks: DispatchKeySet, self: Tensor): Tensor {
  return aten().pow_Tensor_Scalar.call(self, 2);
}
export function squareOut(_ks: DispatchKeySet, self: Tensor, out: Tensor): Tensor {
  return aten().pow_Tensor_Scalar_out.call(self, 2, out);
}
export function fix(_ks: DispatchKeySet, self: Tensor): Tensor {
  return aten().trunc.call(self);
}
export function fix_(_ks: DispatchKeySet, self: Tensor): Tensor {
  return aten().trunc_.call(self);
}
export function fixOut(_ks: DispatchKeySet, self: Tensor, out: Tensor): Tensor {
  return aten().trunc_out.call(self, out);
}

// ---- deg2rad, rad2deg (CompositeExplicitAutograd: a multiplication by a wrapped number) --------------------

const M_PI_180 = 0.017453292519943295;
const M_180_PI = 57.29577951308232;

function angleConvert(
  name: string,
  factor: number,
): {
  fn: (ks: DispatchKeySet, self: Tensor) => Tensor;
  inplace: (ks: DispatchKeySet, self: Tensor) => Tensor;
  out: (ks: DispatchKeySet, self: Tensor, out: Tensor) => Tensor;
} {
  const noComplex = (self: Tensor): void => {
    if (isComplexType(self.scalarType)) throw new Error(`${name} is not supported for complex tensors.`);
  };
  // PyTorch's functional form allocates the default float dtype for integral inputs and multiplies into it;
  // self * <wrapped double> has that result dtype, so the product is taken directly.
  return {
    fn(_ks, self) {
      noComplex(self);
      return aten().mul_Tensor.call(self, wrapScalar(factor));
    },
    inplace(_ks, self) {
      noComplex(self);
      return aten().mul__Tensor.call(self, wrapScalar(factor));
    },
    out(_ks, self, result) {
      noComplex(self);
      return aten().mul_out.call(self, wrapScalar(factor), result);
    },
  };
}

const d2r = angleConvert('deg2rad', M_PI_180);
const r2d = angleConvert('rad2deg', M_180_PI);
export const deg2rad = d2r.fn;
export const deg2rad_ = d2r.inplace;
export const deg2radOut = d2r.out;
export const rad2deg = r2d.fn;
export const rad2deg_ = r2d.inplace;
export const rad2degOut = r2d.out;

// ---- signbit, isposinf, isneginf (build_borrowing_unary_force_boolean_op) -------------------------------------

/** A unary iterator whose result is bool (unless out= says otherwise), the input read in its own dtype. */
function unaryForceBooleanOp(out: Tensor | null, self: Tensor): TensorIterator {
  const config = new TensorIteratorConfig().setCheckMemOverlap(true).checkAllSameDtype(false).addOutput(out).addConstInput(self);
  if (out === null) config.declareStaticDtype(ScalarType.Bool);
  return config.build();
}

/** `signbit.out` (structured): the sign bit of each element; complex inputs are rejected. */
export const signbitStructured: StructuredKernel<[self: Tensor]> = {
  meta(out, self) {
    if (isComplexType(self.scalarType)) throw new Error('signbit is not implemented for complex tensors.');
    return unaryForceBooleanOp(out, self);
  },
  impl: signbitKernel,
};

function infinityCheck(name: string): StructuredKernel<[self: Tensor]> {
  return {
    meta(out, self) {
      if (isComplexType(self.scalarType)) throw new Error(`${name} does not support complex inputs.`);
      if (out !== null && out.scalarType !== ScalarType.Bool) throw new Error(`${name} does not support non-boolean outputs.`);
      return unaryForceBooleanOp(out, self);
    },
    // integers are never infinite (PyTorch fills the result with false; the loop gives the same)
    impl: name === 'isposinf' ? isposinfKernel : isneginfKernel,
  };
}
/** `isposinf.out` (structured). */
export const isposinfStructured = infinityCheck('isposinf');
/** `isneginf.out` (structured). */
export const isneginfStructured = infinityCheck('isneginf');

// ---- isreal, positive (CompositeImplicitAutograd) -----------------------------------------------------------

/** `isreal`: true everywhere for a real tensor, else `imag(self) == 0`. */
export function isreal(_ks: DispatchKeySet, self: Tensor): Tensor {
  if (!isComplexType(self.scalarType)) return aten().ones_like.call(self, ScalarType.Bool, null, null, null, null);
  return aten().eq_Scalar.call(aten().imag.call(self), 0);
}

/** `positive`: self itself; bool tensors are rejected. */
export function positive(_ks: DispatchKeySet, self: Tensor): Tensor {
  if (self.scalarType === ScalarType.Bool) throw new Error('The `+` operator, on a bool tensor is not supported.');
  return self;
}

// ---- frexp ----------------------------------------------------------------------------------------------------

/** `frexp.Tensor_out`: mantissa (self's dtype) and int32 exponent with x = mantissa * 2^exponent. */
export function frexpOut(_ks: DispatchKeySet, self: Tensor, mantissa: Tensor, exponent: Tensor): [Tensor, Tensor] {
  if (!isFloatingType(self.scalarType)) throw new Error('torch.frexp() only supports floating-point dtypes');
  if (mantissa.scalarType !== self.scalarType) {
    throw new Error(
      `torch.frexp() expects mantissa to have dtype ${typeMetaName(self.scalarType)} but got ${typeMetaName(mantissa.scalarType)}`,
    );
  }
  if (exponent.scalarType !== ScalarType.Int) {
    throw new Error(`torch.frexp() expects exponent to have int dtype but got ${typeMetaName(exponent.scalarType)}`);
  }
  const config = (out: Tensor): TensorIterator =>
    new TensorIteratorConfig().setCheckMemOverlap(true).checkAllSameDtype(false).addOutput(out).addConstInput(self).build();
  frexpKernel(config(mantissa), config(exponent));
  return [mantissa, exponent];
}

/** `frexp.Tensor` (CompositeExplicitAutograd): frexp.Tensor_out's kernel into fresh results (below autograd). */
export function frexp(ks: DispatchKeySet, self: Tensor): [Tensor, Tensor] {
  const mantissa = aten().empty_like.call(self, null, null, null, null, null);
  const exponent = aten().empty_like.call(self, ScalarType.Int, null, null, null, null);
  return frexpOut(ks, self, mantissa, exponent);
}

// ---- mvlgamma (CompositeExplicitAutograd) -------------------------------------------------------------------

function mvlgammaCheck(self: Tensor, p: number): void {
  if (self.scalarType === ScalarType.Bool) throw new Error('The input tensor may not be a boolean tensor.');
  if (p < 1) throw new Error('p has to be greater than or equal to 1');
}

/** sum_{i<p} lgamma(self - i/2) + p (p - 1) / 4 log(pi), through arange, lgamma and sum as UnaryOps.cpp. */
function mvlgammaOf(self: Tensor, p: number): Tensor {
  const dtype = isIntegralType(self.scalarType, true) ? getDefaultDtype() : self.scalarType;
  let args = aten().arange_start_step.call(-p * 0.5 + 0.5, 0.5, 0.5, dtype, null, self.device, null);
  args = aten().add_Tensor.call(args, aten().unsqueeze.call(self, -1), 1);
  const p2SubP = p * (p - 1);
  const summed = aten().sum_dim_IntList.call(aten().lgamma.call(args), [-1], false, null);
  return aten().add_Tensor.call(summed, wrapScalar(p2SubP * Math.log(Math.PI) * 0.25), 1);
}

export function mvlgamma(_ks: DispatchKeySet, self: Tensor, p: number): Tensor {
  mvlgammaCheck(self, p);
  return mvlgammaOf(self, p);
}
export function mvlgamma_(_ks: DispatchKeySet, self: Tensor, p: number): Tensor {
  mvlgammaCheck(self, p);
  return aten().copy_.call(self, mvlgammaOf(self, p), false);
}
export function mvlgammaOut(_ks: DispatchKeySet, self: Tensor, p: number, out: Tensor): Tensor {
  mvlgammaCheck(self, p);
  const result = mvlgammaOf(self, p);
  if (!canCast(result.scalarType, out.scalarType)) {
    throw new Error(
      `mvlgamma: result type ${scalarTypeToString(self.scalarType)} can't be cast to the desired output type ${scalarTypeToString(result.scalarType)}`,
    );
  }
  resizeOutput(out, result.sizes);
  return aten().copy_.call(out, result, false);
}
