// More unary pointwise kernels of aten/src/ATen/native/cpu/UnaryOpsKernel.cpp (with their UnaryOps.cpp
// wrappers): acosh, asinh, atanh, log10, sgn, erfinv, lgamma, digamma, polygamma, i0, sinc (structured, as in
// PyTorch), logit (a plain kernel there too), and the UnaryOps.cpp composites square, fix, deg2rad, rad2deg
// (square_ waits for pow_).
// The special functions come from ./Math.ts. UnaryOps.ts holds the first unary family (and its op table);
// this file reuses its iterator and loop.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { isComplexType, scalarTypeToString } from '../c10/ScalarType.js';
import { TensorIterator, cpuKernel } from '../iter/index.js';
import { aten } from '../generated/Operators.js';
import { wrapScalar } from '../tensor/ScalarOps.js';
import type { Tensor } from '../tensor/Tensor.js';
import { digamma, erfinv, i0, i1, lgamma, polygamma } from './Math.js';
import type { StructuredKernel } from './TensorMeta.js';
import { Kind, type Rounder, SPECS, type UnarySpec, allReal, build, floatFn, rounderFor, runLoop } from './UnaryOps.js';

const float = (name: string, f: (x: number) => number): UnarySpec => ({
  kind: Kind.Float,
  dispatchName: name,
  supports: allReal,
  real: floatFn(f),
});

/** sinc: 1 at 0, else sin(pi x) / (pi x) with the product rounded to the compute dtype first. */
const sincSpec: UnarySpec = {
  kind: Kind.Float,
  dispatchName: 'sinc_cpu',
  supports: allReal,
  real: (r: Rounder) => (x) => {
    if (x === 0) return 1;
    const p = r(Math.PI * (x as number));
    return r(Math.sin(p) / p);
  },
};

const MORE: Record<string, UnarySpec> = {
  acosh: float('acosh_vml_cpu', Math.acosh),
  asinh: float('asinh_vml_cpu', Math.asinh),
  atanh: float('atanh_vml_cpu', Math.atanh),
  log10: float('log10_vml_cpu', Math.log10),
  erfinv: float('erfinv_cpu', erfinv),
  lgamma: float('lgamma_vml_cpu', lgamma),
  digamma: { kind: Kind.Float, dispatchName: 'digamma', supports: allReal, real: (r: Rounder) => (x) => r(digamma(x as number, r)) },
  i0: float('i0_cpu', i0),
  sinc: sincSpec,
  // sgn of a real tensor is sign (sgn_kernel calls sign_kernel); complex sgn is not implemented here
  sgn: { ...SPECS.sign, dispatchName: 'sgn_cpu', precheck: undefined },
};

function structured(spec: UnarySpec): StructuredKernel<[self: Tensor]> {
  return { meta: (out, self) => build(spec, out, self), impl: (iter) => runLoop(spec, iter) };
}

export const acoshStructured = structured(MORE['acosh'] as UnarySpec);
export const asinhStructured = structured(MORE['asinh'] as UnarySpec);
export const atanhStructured = structured(MORE['atanh'] as UnarySpec);
export const log10Structured = structured(MORE['log10'] as UnarySpec);
export const erfinvStructured = structured(MORE['erfinv'] as UnarySpec);
export const lgammaStructured = structured(MORE['lgamma'] as UnarySpec);
export const digammaStructured = structured(MORE['digamma'] as UnarySpec);
export const i0Structured = structured(MORE['i0'] as UnarySpec);
export const sincStructured = structured(MORE['sinc'] as UnarySpec);
export const sgnStructured = structured(MORE['sgn'] as UnarySpec);

/** The modified Bessel function I1 of a floating tensor (not differentiable): i0's derivative. */
export function besselI1(self: Tensor): Tensor {
  const iter = TensorIterator.unaryFloatOp(null, self);
  runLoop(float('i1_cpu', i1), iter);
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
    const spec: UnarySpec = { ...float('polygamma', digamma), real: (r: Rounder) => (x) => r(polygamma(n, x as number, r)) };
    runLoop(spec, iter);
  },
};

/** `polygamma_(Tensor(a!) self, int n)` (CompositeExplicitAutograd): polygamma.out into self. */
export function polygamma_(_ks: DispatchKeySet, self: Tensor, n: number): Tensor {
  return aten().polygamma_out.call(n, self, self);
}

// ---- logit ---------------------------------------------------------------------------------------------

type OptNumber = number | null | undefined;

/** logit_kernel: log(x / (1 - x)), x first clamped to [eps, 1 - eps] when eps >= 0; 1 maps to +inf. */
function logitLoop(iter: TensorIterator, eps: OptNumber): void {
  if (iter.isMeta) return;
  const dtype = iter.commonDtype;
  if (isComplexType(dtype)) throw new Error(`"logit_cpu" not implemented for '${scalarTypeToString(dtype)}'`);
  const r = rounderFor(dtype);
  const e = r(eps ?? -1);
  if (!(e >= 0)) {
    cpuKernel(iter, (x) => (x === 1 ? Infinity : r(Math.log(r((x as number) / r(1 - (x as number)))))));
    return;
  }
  const lo = e;
  const hi = r(1 - e);
  cpuKernel(iter, (v) => {
    const x = (v as number) < lo ? lo : (v as number) > hi ? hi : (v as number);
    return x === 1 ? Infinity : r(Math.log(r(x / r(1 - x))));
  });
}

export function logit(_ks: DispatchKeySet, self: Tensor, eps?: OptNumber): Tensor {
  const iter = TensorIterator.unaryFloatOp(null, self);
  logitLoop(iter, eps);
  return iter.output() as Tensor;
}
export function logit_(_ks: DispatchKeySet, self: Tensor, eps?: OptNumber): Tensor {
  logitLoop(TensorIterator.unaryFloatOp(self, self), eps);
  return self;
}
export function logitOut(_ks: DispatchKeySet, self: Tensor, eps: OptNumber, out: Tensor): Tensor {
  logitLoop(TensorIterator.unaryFloatOp(out, self), eps);
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
