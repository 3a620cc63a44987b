// The derivative formulas of the torch.special operators (SpecialOpsKernel.ts): derivatives.yaml's special_*
// entries and FunctionsManual.cpp's i1_backward / i1e_backward. Re-exported by FunctionsManual.ts, where the
// generated autograd code imports every helper from.

import { ScalarType } from '../c10/ScalarType.js';
import * as at from '../generated/TensorBody.js';
import { wrapScalar } from '../tensor/ScalarOps.js';
import type { Tensor } from '../tensor/Tensor.js';

type Num = number | boolean;

const SQRT_2PI = Math.sqrt(2 * Math.PI);

/** A 0-dim tensor of `like`'s dtype and device holding v (at::full({}, v, like.options())). */
function scalarLike(v: number, like: Tensor): Tensor {
  return at.full([], v, like.scalarType, null, like.device, null);
}

/** special_entr: grad * -(1 + log x). */
export function entrBackward(grad: Tensor, self: Tensor): Tensor {
  return at.mul_Tensor(grad, at.neg(at.add_Tensor(at.log(self), wrapScalar(1))));
}
/** special_ndtri: grad * sqrt(2 pi) * exp(result^2 / 2). */
export function ndtriBackward(grad: Tensor, result: Tensor): Tensor {
  return at.mul_Tensor(at.mul_Tensor(grad, wrapScalar(SQRT_2PI)), at.exp(at.div_Tensor(at.square(result), wrapScalar(2))));
}
/** special_log_ndtr: grad / sqrt(2 pi) * exp(-(result + x^2 / 2)). */
export function logNdtrBackward(grad: Tensor, self: Tensor, result: Tensor): Tensor {
  const e = at.exp(at.neg(at.add_Tensor(result, at.div_Tensor(at.pow_Tensor_Scalar(self, 2), wrapScalar(2)))));
  return at.mul_Tensor(at.div_Tensor(grad, wrapScalar(SQRT_2PI)), e);
}
/** special_erfcx: (2 x result - 2 / sqrt(pi)) * grad. */
export function erfcxBackward(grad: Tensor, self: Tensor, result: Tensor): Tensor {
  const d = at.sub_Tensor(at.mul_Tensor(at.mul_Tensor(wrapScalar(2), self), result), wrapScalar(2 / Math.sqrt(Math.PI)));
  return at.mul_Tensor(d, grad);
}
/** special_i0e: grad * (i1e(x) - sgn(x) * result). */
export function i0eBackward(grad: Tensor, self: Tensor, result: Tensor): Tensor {
  return at.mul_Tensor(grad, at.sub_Tensor(at.special_i1e(self), at.mul_Tensor(at.sgn(self), result)));
}

/** x where |x| > eps, else eps (the `safe_self` of i1_backward), with the mask. */
function safeSelf(self: Tensor): [Tensor, Tensor] {
  const eps = self.scalarType === ScalarType.Double ? Number.EPSILON : 1.1920928955078125e-7;
  const notTiny = at.gt_Scalar(at.abs(self), eps);
  return [notTiny, at.where_self(notTiny, self, scalarLike(eps, self))];
}
/** i1_backward: grad * (i0(x) - result / x), 0.5 where |x| <= eps (the limit at 0). */
export function i1Backward(grad: Tensor, self: Tensor, result: Tensor): Tensor {
  const [notTiny, safe] = safeSelf(self);
  const gradx = at.sub_Tensor(at.i0(safe), at.mul_Tensor(result, at.reciprocal(safe)));
  return at.mul_Tensor(grad, at.where_self(notTiny, gradx, scalarLike(0.5, self)));
}
/** i1e_backward: grad * (i0e(x) - result * (sgn(x) + 1 / x)), 0.5 where |x| <= eps. */
export function i1eBackward(grad: Tensor, self: Tensor, result: Tensor): Tensor {
  const [notTiny, safe] = safeSelf(self);
  const gradx = at.sub_Tensor(at.special_i0e(safe), at.mul_Tensor(result, at.add_Tensor(at.sgn(safe), at.reciprocal(safe))));
  return at.mul_Tensor(grad, at.where_self(notTiny, gradx, scalarLike(0.5, self)));
}

/** special_xlog1py's self: xlog1py(grad, other), 0 where self == 0 and other <= -1. */
export function xlog1pySelfBackward(grad: Tensor, self: Tensor, other: Tensor): Tensor {
  const mask = at.bitwise_and_Tensor(at.eq_Scalar(self, 0), at.le_Scalar(other, -1));
  return at.masked_fill_Scalar(at.special_xlog1py(grad, other), mask, 0);
}
/** special_xlog1py's other: grad * self / (other + 1). */
export function xlog1pyOtherBackward(grad: Tensor, self: Tensor | Num, other: Tensor): Tensor {
  const s = typeof self === 'object' ? self : wrapScalar(Number(self));
  return at.div_Tensor(at.mul_Tensor(grad, s), at.add_Tensor(other, wrapScalar(1)));
}
/** special_xlog1py.other_scalar's self: xlog1py(grad, other), masked to 0 where self == 0 when other <= -1. */
export function xlog1pyOtherScalarBackward(grad: Tensor, self: Tensor, other: Num): Tensor {
  const g = at.special_xlog1py_other_scalar(grad, other);
  return Number(other) > -1 ? g : at.masked_fill_Scalar(g, at.eq_Scalar(self, 0), 0);
}
/** special_zeta's other: grad * -self * zeta(self + 1, other). */
export function zetaOtherBackward(grad: Tensor, self: Tensor | Num, other: Tensor): Tensor {
  if (typeof self === 'object') {
    return at.mul_Tensor(at.mul_Tensor(grad, at.neg(self)), at.special_zeta(at.add_Tensor(self, wrapScalar(1)), other));
  }
  const s = Number(self);
  return at.mul_Tensor(at.mul_Tensor(grad, wrapScalar(-s)), at.special_zeta_self_scalar(s + 1, other));
}
