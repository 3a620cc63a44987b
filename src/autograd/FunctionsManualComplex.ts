// The complex-number helpers of PyTorch's torch/csrc/autograd/FunctionsManual.cpp: handle_r_to_c,
// sgn_backward, angle_backward, polar_backward. Gradients of complex inputs are PyTorch's: the conjugate
// Wirtinger derivative convention (grad_z = ∂L/∂x + i ∂L/∂y for a real loss L), which is why the formulas of
// derivatives.yaml conjugate the local derivative (`grad * f'(z).conj()`); on real tensors `conj` is the
// identity, so the same formulas serve both.

import { type ScalarType, isComplexType } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import * as at from '../generated/TensorBody.js';
import type { Tensor } from '../tensor/Tensor.js';

/**
 * handle_r_to_c: the real part of a gradient whose input is real (a real operand of a complex product). It
 * takes the input's dtype, not the input, as PyTorch's does: the formula then saves no tensor for it (a
 * saved tensor would be version-checked, and `a * c` must survive `a.add_(1)` when only `a` needs a gradient).
 */
export function handleRToC(selfType: ScalarType, grad: Tensor): Tensor {
  return !isComplexType(selfType) && grad.isComplex() ? at.real(grad) : grad;
}

/** `z · i` for a complex tensor (x + iy → -y + ix). */
function timesI(z: Tensor): Tensor {
  return at.view_as_complex(at.stack([at.neg(at.imag(z)), at.real(z)], -1));
}

/**
 * sgn_backward: zeros for a real input; for a complex one (g − s·Re(g·s̄)) / |z| with s = sgn(z), 0 where
 * z = 0 (the derivative of z / |z| along the unit circle only).
 */
export function sgnBackward(self: Tensor, grad: Tensor, result: Tensor): Tensor {
  if (!self.isComplex()) return aten().zeros_like.call(self, null, null, null, null, null);
  const abs = at.abs(self);
  const along = at.mul_Tensor(result, at.real(at.mul_Tensor(grad, at.conj(result))));
  const g = at.div_Tensor(at.sub_Tensor(grad, along), abs);
  return at.masked_fill_Scalar(g, at.eq_Scalar(abs, 0), 0);
}

/** angle_backward: `grad · z / |z|² · i` (0 at z = 0) for a complex input, zeros for a real one. */
export function angleBackward(grad: Tensor, self: Tensor): Tensor {
  if (!self.isComplex()) return aten().zeros_like.call(self, null, null, null, null, null);
  const abs = at.abs(self);
  const g = timesI(at.div_Tensor(at.mul_Tensor(grad, self), at.mul_Tensor(abs, abs)));
  return at.masked_fill_Scalar(g, at.eq_Scalar(abs, 0), 0);
}

/** polar_backward: (Re(ḡ · sgn(result)), Re(ḡ · result · i)) for abs and angle. */
export function polarBackward(grad: Tensor, result: Tensor): [Tensor, Tensor] {
  const gc = at.conj(grad);
  const gradAbs = at.real(at.mul_Tensor(gc, at.sgn(result)));
  const gradAngle = at.real(at.mul_Tensor(gc, timesI(result)));
  return [gradAbs, gradAngle];
}
