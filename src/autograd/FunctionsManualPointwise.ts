// The derivative helpers of the pointwise operators of UnaryOpsKernel.ts and BinaryOpsKernel.ts: pow_backward
// (scalar and tensor exponents), clamp_backward (and its Tensor bounds), maximum / minimum, div, _to_copy, sinc_backward,
// logit's backward (infinitely_differentiable_logit_backward), copysign_tensor_self_backward, the xlogy, i0,
// erfinv, gamma-family and angle-conversion formulas of torch/csrc/autograd/FunctionsManual.cpp and
// derivatives.yaml. Re-exported by FunctionsManual.ts, where the generated autograd code imports every helper from.

import { aten } from '../generated/Operators.js';
import * as at from '../generated/TensorBody.js';
import { besselI1 } from '../kernels/UnaryOps.js';
import { wrapScalar } from '../tensor/ScalarOps.js';
import type { Tensor } from '../tensor/Tensor.js';
import { zerosLike } from './FunctionsManual.js';
import { ScalarType, isComplexType } from '../c10/ScalarType.js';

const M_PI_180 = 0.017453292519943295;
const M_180_PI = 57.29577951308232;

/** A 0-dim tensor of `like`'s dtype and device holding v. */
function scalarLike(v: number, like: Tensor): Tensor {
  return aten().full.call([], v, like.scalarType, null, like.device, null);
}

/** acosh: grad * rsqrt(self^2 - 1) (the real case of derivatives.yaml). */
export function acoshBackward(grad: Tensor, self: Tensor): Tensor {
  return at.mul_Tensor(grad, at.conj(at.rsqrt(at.sub_Tensor(at.mul_Tensor(self, self), wrapScalar(1)))));
}
/** asinh: grad * rsqrt(self^2 + 1). */
export function asinhBackward(grad: Tensor, self: Tensor): Tensor {
  return at.mul_Tensor(grad, at.conj(at.rsqrt(at.add_Tensor(at.pow_Tensor_Scalar(self, 2), wrapScalar(1)))));
}
/** atanh: grad * 1 / (1 - self^2). */
export function atanhBackward(grad: Tensor, self: Tensor): Tensor {
  return at.div_Tensor(at.mul_Tensor(grad, wrapScalar(1)), at.conj(at.add_Tensor(at.neg(at.pow_Tensor_Scalar(self, 2)), wrapScalar(1))));
}
/** log10: grad / (self * ln 10). */
export function log10Backward(grad: Tensor, self: Tensor): Tensor {
  return at.div_Tensor(grad, at.mul_Tensor(at.conj(self), wrapScalar(2.3025850929940455)));
}
/** erfinv: sqrt(pi) / 2 * exp(erfinv(self)^2) * grad. */
export function erfinvBackward(grad: Tensor, self: Tensor): Tensor {
  return at.mul_Tensor(at.mul_Tensor(at.exp(at.pow_Tensor_Scalar(at.erfinv(self), 2)), wrapScalar(0.5 * Math.sqrt(Math.PI))), grad);
}
/** lgamma: grad * digamma(self). */
export function lgammaBackward(grad: Tensor, self: Tensor): Tensor {
  return at.mul_Tensor(grad, at.digamma(self));
}
/** digamma / polygamma: grad * polygamma(n + 1, self). */
export function polygammaBackward(grad: Tensor, n: number, self: Tensor): Tensor {
  return at.mul_Tensor(grad, aten().polygamma.call(n + 1, self));
}
/** i0: grad * i1(self) (special_i1, computed here without a graph of its own). */
export function i0Backward(grad: Tensor, self: Tensor): Tensor {
  return at.mul_Tensor(grad, besselI1(self));
}
/** sinc_backward: grad * (pi x cos(pi x) - sin(pi x)) / (pi x^2), 0 where pi x^2 is 0. */
export function sincBackward(grad: Tensor, self: Tensor): Tensor {
  const selfPi = at.mul_Tensor(self, wrapScalar(Math.PI));
  const selfSquaredPi = at.mul_Tensor(at.mul_Tensor(self, self), wrapScalar(Math.PI));
  const out = at.div_Tensor(at.mul_Tensor(grad, at.sub_Tensor(at.mul_Tensor(selfPi, at.cos(selfPi)), at.sin(selfPi))), selfSquaredPi);
  return aten().where_self.call(at.eq_Scalar(selfSquaredPi, 0), scalarLike(0, grad), out);
}
/**
 * infinitely_differentiable_logit_backward: grad / (x (1 - x)) where eps <= x <= 1 - eps, else 0; without eps,
 * where 0 <= x <= 1, else NaN.
 */
export function logitBackward(grad: Tensor, self: Tensor, eps: number | null): Tensor {
  const d = at.div_Tensor(grad, at.mul_Tensor(self, at.add_Tensor(at.neg(self), wrapScalar(1))));
  if (eps !== null) {
    const inside = at.logical_and(at.ge_Scalar(self, eps), at.le_Scalar(self, 1 - eps));
    return aten().where_self.call(inside, d, scalarLike(0, self));
  }
  const inside = at.logical_and(at.ge_Scalar(self, 0), at.le_Scalar(self, 1));
  return aten().where_self.call(inside, d, scalarLike(NaN, self));
}
/** deg2rad_backward / rad2deg_backward: the same constant factor. */
export function deg2radBackward(grad: Tensor): Tensor {
  return at.mul_Tensor(grad, wrapScalar(M_PI_180));
}
export function rad2degBackward(grad: Tensor): Tensor {
  return at.mul_Tensor(grad, wrapScalar(M_180_PI));
}
/** hypot: grad * x / result (for either input). */
export function hypotBackward(grad: Tensor, x: Tensor, result: Tensor): Tensor {
  return at.div_Tensor(at.mul_Tensor(grad, x), result);
}
/** logaddexp: grad / (1 + exp(b - a)). */
export function logaddexpBackward(grad: Tensor, a: Tensor, b: Tensor): Tensor {
  return at.div_Tensor(grad, at.add_Tensor(at.exp(at.sub_Tensor(b, a)), wrapScalar(1)));
}
/** logaddexp2: grad / (1 + 2^(b - a)). */
export function logaddexp2Backward(grad: Tensor, a: Tensor, b: Tensor): Tensor {
  return at.div_Tensor(grad, at.add_Tensor(aten().pow_Scalar.call(2, at.sub_Tensor(b, a)), wrapScalar(1)));
}
// Note [Gradient formula for xlogy at x = 0, y <= 0]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// As in derivatives.yaml: x log(y) is undefined near (0, y <= 0), where xlogy(0, y) is 0 by definition; the
// gradient there is taken as 0, the directional derivative along x = 0 (pytorch/pytorch#80770).

/** xlogy's self: xlogy(grad, other), 0 where self == 0 and other <= 0 (See Note [Gradient formula for xlogy at x = 0, y <= 0]). */
export function xlogySelfBackward(grad: Tensor, self: Tensor, other: Tensor): Tensor {
  return at.masked_fill_Scalar(aten().xlogy_Tensor.call(grad, other), at.logical_and(at.eq_Scalar(self, 0), at.le_Scalar(other, 0)), 0);
}
/** xlogy.Scalar_Other's self: xlogy(grad, other), masked where self == 0 unless other > 0. */
export function xlogyScalarOtherBackward(grad: Tensor, self: Tensor, other: number | boolean): Tensor {
  const g = aten().xlogy_Scalar_Other.call(grad, other);
  return Number(other) > 0 ? g : at.masked_fill_Scalar(g, at.eq_Scalar(self, 0), 0);
}
/** xlogy's other: grad * self / other (self a tensor or a number). */
export function xlogyOtherBackward(grad: Tensor, self: Tensor | number | boolean, other: Tensor): Tensor {
  return at.div_Tensor(at.mul_Tensor(grad, typeof self === 'object' ? self : wrapScalar(Number(self))), other);
}
/** copysign_tensor_self_backward: grad * result / self, 0 where self is 0. */
export function copysignTensorSelfBackward(grad: Tensor, self: Tensor, result: Tensor): Tensor {
  const ratio = at.div_Tensor(result, self);
  return at.mul_Tensor(grad, at.masked_fill_Scalar(ratio, at.eq_Scalar(self, 0), 0));
}
/** nextafter's self: grad where self != other, else 0. */
export function nextafterBackward(grad: Tensor, self: Tensor, other: Tensor): Tensor {
  return aten().where_ScalarOther.call(at.ne_Tensor(self, other), grad, 0);
}
/** ldexp: self gets grad * 2^other, other gets grad * result * ln 2. */
export function ldexpSelfBackward(grad: Tensor, other: Tensor): Tensor {
  return at.mul_Tensor(grad, aten().pow_Scalar.call(2, other));
}
export function ldexpOtherBackward(grad: Tensor, result: Tensor): Tensor {
  return at.mul_Tensor(at.mul_Tensor(grad, result), wrapScalar(Math.LN2));
}

/** fmax: grad where self >= other or other is NaN (for self), the rest (for other). */
export function fmaxBackward(grad: Tensor, self: Tensor, other: Tensor, forSelf: boolean): Tensor {
  const picked = at.logical_or(at.ge_Tensor(self, other), at.isnan(other));
  return at.masked_fill_Scalar(grad, forSelf ? at.logical_not(picked) : picked, 0);
}
/** fmin: grad where self <= other or other is NaN (for self), the rest (for other). */
export function fminBackward(grad: Tensor, self: Tensor, other: Tensor, forSelf: boolean): Tensor {
  const picked = at.logical_or(at.le_Tensor(self, other), at.isnan(other));
  return at.masked_fill_Scalar(grad, forSelf ? at.logical_not(picked) : picked, 0);
}
/** erfc: -2 / sqrt(pi) * exp(-self^2) * grad. */
export function erfcBackward(grad: Tensor, self: Tensor): Tensor {
  return at.mul_Tensor(at.mul_Tensor(at.exp(at.neg(at.pow_Tensor_Scalar(self, 2))), wrapScalar(-2 / Math.sqrt(Math.PI))), grad);
}
/** frexp: grad / exponent.exp2(). */
export function frexpBackward(grad: Tensor, exponent: Tensor): Tensor {
  return at.div_Tensor(grad, at.exp2(exponent));
}
/** igamma / igammac with respect to other: ±grad * exp((self - 1) log(other) - other - lgamma(self)). */
export function igammaOtherBackward(grad: Tensor, self: Tensor, other: Tensor, sign: number): Tensor {
  const e = at.sub_Tensor(at.sub_Tensor(at.mul_Tensor(at.sub_Tensor(self, wrapScalar(1)), at.log(other)), other), at.lgamma(self));
  return at.mul_Tensor(sign < 0 ? at.neg(grad) : grad, at.exp(e));
}
/** mvlgamma_backward: grad * sum_i digamma(self - i/2). */
export function mvlgammaBackward(grad: Tensor, self: Tensor, p: number): Tensor {
  let args = aten().arange_start_step.call(-p / 2 + 0.5, 0.5, 0.5, self.scalarType, null, self.device, null);
  args = at.add_Tensor(args, at.unsqueeze(self, -1));
  return at.mul_Tensor(grad, aten().sum_dim_IntList.call(at.digamma(args), [-1], false, null));
}

/** `pow_backward(grad, self, exponent)` for a scalar exponent. */
export function powBackward(grad: Tensor, self: Tensor, exponent: number | boolean): Tensor {
  const e = Number(exponent);
  if (e === 0) return zerosLike(self);
  return at.mul_Tensor(grad, at.conj(at.mul_Tensor(at.pow_Tensor_Scalar(self, e - 1), wrapScalar(e))));
}

/** `pow_backward_self` for a tensor exponent. */
export function powBackwardSelf(grad: Tensor, self: Tensor, exponent: Tensor): Tensor {
  return torchWhere(
    at.eq_Scalar(exponent, 0),
    0,
    at.mul_Tensor(grad, at.conj(at.mul_Tensor(exponent, at.pow_Tensor_Tensor(self, at.sub_Tensor(exponent, wrapScalar(1)))))),
  );
}

/** `pow_backward_exponent`: grad * result * log(self), 0 where self is 0 and the exponent non-negative. */
export function powBackwardExponent(grad: Tensor, self: Tensor | number | boolean, exponent: Tensor, result: Tensor): Tensor {
  if (typeof self !== 'object') {
    const b = Number(self);
    if (b === 0) return torchWhere(at.ge_Scalar(exponent, 0), 0, at.mul_Tensor(grad, at.mul_Tensor(result, wrapScalar(Math.log(b)))));
    return at.mul_Tensor(grad, at.mul_Tensor(result, wrapScalar(Math.log(b))));
  }
  // a complex exponent counts as non-negative when it is real and >= 0
  const nonNeg = exponent.isComplex()
    ? at.logical_and(at.eq_Scalar(at.imag(exponent), 0), at.ge_Scalar(at.real(exponent), 0))
    : at.ge_Scalar(exponent, 0);
  const cond = at.logical_and(at.eq_Scalar(self, 0), nonNeg);
  const g = torchWhere(cond, 0, at.mul_Tensor(grad, at.conj(at.mul_Tensor(result, at.log(self)))));
  return !exponent.isComplex() && g.isComplex() ? at.real(g) : g;
}

/** `where(cond, a, b)` with either branch a number. */
export function torchWhere(cond: Tensor, a: Tensor | number, b: Tensor | number): Tensor {
  if (typeof a === 'number' && typeof b === 'number') throw new Error('torchWhere: one branch must be a tensor');
  if (typeof a === 'number') return aten().where_ScalarSelf.call(cond, a, b as Tensor);
  if (typeof b === 'number') return aten().where_ScalarOther.call(cond, a, b);
  return aten().where_self.call(cond, a, b);
}

/** `clamp_backward`: the gradient where min <= self <= max. */
export function clampBackward(
  grad: Tensor,
  self: Tensor,
  min: number | boolean | Tensor | null,
  max: number | boolean | Tensor | null,
): Tensor {
  let mask: Tensor | null = null;
  if (min !== null) mask = typeof min === 'object' ? at.ge_Tensor(self, min) : at.ge_Scalar(self, min);
  if (max !== null) {
    const m = typeof max === 'object' ? at.le_Tensor(self, max) : at.le_Scalar(self, max);
    // PyTorch's `(self >= min).logical_and_(self <= max)`: in place, so its broadcast rule is the in-place one.
    mask = mask === null ? m : at.logical_and_(mask, m);
  }
  return mask === null ? grad : torchWhere(mask, grad, 0);
}

// clamp_backward_min_max (FunctionsManual.cpp), one bound at a time: `min` gets the gradient where
// self < min < max, `max` where self > max or max < min. The masks are combined in place
// (`logical_and_` / `logical_or_`) as PyTorch's are, so a bound that broadcasts the input to a larger shape
// raises PyTorch's "output with shape [..] doesn't match the broadcast shape [..]" in the backward.

/** The gradient a Tensor `min` bound of clamp receives: where self < min (and min < max). */
export function clampMinBackward(grad: Tensor, self: Tensor, min: Tensor, max: Tensor | null): Tensor {
  let mask = at.lt_Tensor(self, min);
  if (max !== null) mask = at.logical_and_(mask, at.lt_Tensor(min, max));
  return torchWhere(mask, grad, 0);
}

/** The gradient a Tensor `max` bound of clamp receives: where self > max, or where max < min. */
export function clampMaxBackward(grad: Tensor, self: Tensor, min: Tensor | null, max: Tensor): Tensor {
  let mask = at.gt_Tensor(self, max);
  if (min !== null) mask = at.logical_or_(mask, at.lt_Tensor(max, min));
  return torchWhere(mask, grad, 0);
}

/** maximum/minimum: the gradient goes to the chosen side, half each on ties. */
export function maxMinBackward(grad: Tensor, self: Tensor, other: Tensor, isMax: boolean, forSelf: boolean): Tensor {
  const half = torchWhere(at.eq_Tensor(self, other), at.div_Tensor(grad, wrapScalar(2)), grad);
  const lose = forSelf
    ? isMax
      ? at.lt_Tensor(self, other)
      : at.gt_Tensor(self, other)
    : isMax
      ? at.gt_Tensor(self, other)
      : at.lt_Tensor(self, other);
  return at.masked_fill_Scalar(half, lose, 0);
}

/** `_to_copy_backward`: back to the input's dtype and device. */
export function toCopyBackward(grad: Tensor, dtype: ScalarType, device: Tensor['device']): Tensor {
  // a real input promoted to complex (torch.fft): the real part of the gradient
  if (grad.isComplex() && !isComplexType(dtype)) grad = at.real(grad);
  return aten()._to_copy.call(grad, dtype, null, device, null, false, null);
}

/** div with rounding: the gradient is zero almost everywhere; without, grad / other. */
export function divTensorSelfBackward(grad: Tensor, other: Tensor, roundingMode: string | null): Tensor {
  return roundingMode !== null ? zerosLike(grad) : at.div_Tensor(grad, other);
}

/** div's gradient for the divisor: -grad * self / other². */
export function divTensorOtherBackward(grad: Tensor, self: Tensor, other: Tensor, roundingMode: string | null = null): Tensor {
  return roundingMode !== null ? zerosLike(grad) : at.mul_Tensor(at.neg(grad), at.conj(at.div_Tensor(at.div_Tensor(self, other), other)));
}

// Note [Backward formulas in opmath]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's tanh_backward and sigmoid_backward are single CPU kernels that, for float16/bfloat16, widen the
// operands to float32, evaluate the whole formula there and round once. Composed of aten ops, the same formula
// would round after every op; for reduced dtypes it is therefore evaluated on float32 copies and the result
// converted back (still differentiable: _to_copy has a derivative, for double backward).

/** `fn` evaluated on float32 copies when `grad` is float16/bfloat16, the result rounded back once. */
function inOpmath(fn: (...ts: Tensor[]) => Tensor, grad: Tensor, ...rest: Tensor[]): Tensor {
  const dt = grad.scalarType;
  if (dt !== ScalarType.Half && dt !== ScalarType.BFloat16) return fn(grad, ...rest);
  const f = (t: Tensor): Tensor => (t.scalarType === dt ? at._to_copy(t, ScalarType.Float) : t);
  return at._to_copy(fn(f(grad), ...rest.map(f)), dt);
}
/** tanh: grad * (1 - result^2), in opmath (See Note [Backward formulas in opmath]). */
export function tanhBackward(grad: Tensor, result: Tensor): Tensor {
  return inOpmath((g, y) => at.mul_Tensor(g, at.conj(at.add_Tensor(at.neg(at.mul_Tensor(y, y)), wrapScalar(1)))), grad, result);
}
/** sigmoid: grad * result * (1 - result), in opmath (See Note [Backward formulas in opmath]). */
export function sigmoidBackward(grad: Tensor, result: Tensor): Tensor {
  return inOpmath((g, y) => at.mul_Tensor(g, at.conj(at.mul_Tensor(y, at.add_Tensor(at.neg(y), wrapScalar(1))))), grad, result);
}
