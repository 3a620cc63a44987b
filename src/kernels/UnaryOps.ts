// The unary pointwise operators: neg, abs, sign, sgn, exp, exp2, log, log2, log10, log1p, expm1, sqrt, rsqrt,
// the trigonometric and hyperbolic functions and their inverses, sigmoid, silu, erf, erfinv, lgamma, digamma,
// polygamma, i0, sinc, floor, ceil, round (and round.decimals), trunc, frac, reciprocal, nan_to_num, logit,
// logical_not, bitwise_not, and the composites square, fix, deg2rad, rad2deg. Mirrors
// aten/src/ATen/native/UnaryOps.cpp: the meta step (the unary iterator each op builds, the checks PyTorch
// makes before it), the structured declarations (meta + impl; the variants are generated from
// native_functions.yaml) and the wrappers. The loops are UnaryOpsKernel.ts (native/cpu/UnaryOpsKernel.cpp).

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isComplexType, scalarTypeToString, toRealValueType } from '../c10/ScalarType.js';
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
  bitwiseNotKernel,
  i1Kernel,
  logicalNotKernel,
  logitKernel,
  nanToNumKernel,
  polygammaKernel,
  roundDecimalsKernel,
  runLoop,
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

type StructuredName = Exclude<SpecName, 'abs' | 'relu'>;

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

// ---- abs: complex inputs give real results ---------------------------------------------------------

/** abs of a complex tensor into a real one (`unary_op_impl_with_complex_to_float`). */
function absComplexInto(out: Tensor | null, self: Tensor): TensorIterator {
  const real = toRealValueType(self.scalarType);
  const config = new TensorIteratorConfig().checkAllSameDtype(false);
  if (out === null) config.declareStaticDtype(real);
  else if (out.scalarType !== real)
    throw new Error(`Found dtype ${scalarTypeToString(out.scalarType)} but expected ${scalarTypeToString(real)}`);
  const iter = config.addOutput(out).addConstInput(self).build();
  absComplexKernel(iter);
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
