// The derivative helpers of the loss operators (Loss.cpp, LossNLL.cpp, LossComposite.ts): nll_loss /
// nll_loss2d, mse_loss, binary_cross_entropy (and with_logits), smooth_l1_loss, huber_loss and soft_margin_loss
// backward of torch/csrc/autograd/FunctionsManual.cpp and derivatives.yaml. Re-exported by FunctionsManual.ts,
// where the generated autograd code imports every helper from.

import { aten } from '../generated/Operators.js';
import { nllLossTotalWeight } from '../kernels/LossNLL.js';
import { wrapScalar } from '../tensor/ScalarOps.js';
import * as at from '../generated/TensorBody.js';
import type { Tensor } from '../tensor/Tensor.js';

const REDUCTION_MEAN = 1;

// Note [nll_loss backward as one operator]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// nll_loss's gradient is the native nll_loss_backward (nll_loss2d_backward for the image form), one kernel
// instead of the dozen operators of its decomposition (ne, masked_fill, index, div, scatter ...). PyTorch
// passes it the total weight its forward returned (nll_loss_forward's second output); this forward returns
// the loss alone, so the formula computes it from target and weight (nllLossTotalWeight: one pass, no
// dispatch). Double backward goes through the operator's own entry (NllLossBackwardBackward0): linear in
// grad_output, so its gradient is nll_loss of the incoming gradient, and zero for self.

/** nll_loss's (or nll_loss2d's) gradient for self (Note [nll_loss backward as one operator]). */
export function nllLossBackward(
  grad: Tensor,
  self: Tensor,
  target: Tensor,
  weight: Tensor | null,
  reduction: number,
  ignoreIndex: number,
  twoD = false,
): Tensor {
  const total = nllLossTotalWeight(self, target, weight, ignoreIndex);
  const op = twoD ? aten().nll_loss2d_backward : aten().nll_loss_backward;
  return op.call(grad, self, target, weight, reduction, ignoreIndex, total);
}

/** nll_loss2d's gradient for self. */
export function nllLoss2dBackward(
  grad: Tensor,
  self: Tensor,
  target: Tensor,
  weight: Tensor | null,
  reduction: number,
  ignoreIndex: number,
): Tensor {
  return nllLossBackward(grad, self, target, weight, reduction, ignoreIndex, true);
}

/** nll_loss_backward's gradient for grad_output: nll_loss (nll_loss2d) of the incoming gradient. */
export function nllLossOf(
  grad: Tensor,
  target: Tensor,
  weight: Tensor | null,
  reduction: number,
  ignoreIndex: number,
  twoD: boolean,
): Tensor {
  return (twoD ? aten().nll_loss2d : aten().nll_loss).call(grad, target, weight, reduction, ignoreIndex);
}

/** `mse_loss_backward`. */
export function mseLossBackward(grad: Tensor, self: Tensor, target: Tensor, reduction: number): Tensor {
  const d = at.mul_Tensor(at.sub_Tensor(self, target), wrapScalar(2));
  const n = reduction === REDUCTION_MEAN ? broadcastNumel(self, target) : 1;
  return at.div_Tensor(at.mul_Tensor(d, grad), wrapScalar(n));
}

function broadcastNumel(a: Tensor, b: Tensor): number {
  const n = Math.max(a.dim(), b.dim());
  let total = 1;
  for (let i = 0; i < n; i++) {
    const x = a.sizes[a.dim() - n + i] ?? 1;
    const y = b.sizes[b.dim() - n + i] ?? 1;
    total *= Math.max(x, y);
  }
  return total;
}

/** `binary_cross_entropy_backward` for the input. */
export function binaryCrossEntropyBackward(grad: Tensor, self: Tensor, target: Tensor, weight: Tensor | null, reduction: number): Tensor {
  const eps = 1e-12;
  let r = at.mul_Tensor(
    at.div_Tensor(at.sub_Tensor(self, target), at.clamp(at.mul_Tensor(self, at.add_Tensor(at.neg(self), wrapScalar(1))), eps, null)),
    grad,
  );
  if (weight !== null) r = at.mul_Tensor(r, weight);
  if (reduction === REDUCTION_MEAN) r = at.div_Tensor(r, wrapScalar(broadcastNumel(self, target)));
  return r;
}

/** `binary_cross_entropy_target_backward`. */
export function binaryCrossEntropyTargetBackward(
  grad: Tensor,
  self: Tensor,
  target: Tensor,
  weight: Tensor | null,
  reduction: number,
): Tensor {
  let r = at.mul_Tensor(
    at.sub_Tensor(at.clamp(at.log(at.add_Tensor(at.neg(self), wrapScalar(1))), -100, null), at.clamp(at.log(self), -100, null)),
    grad,
  );
  if (weight !== null) r = at.mul_Tensor(r, weight);
  if (reduction === REDUCTION_MEAN) r = at.div_Tensor(r, wrapScalar(broadcastNumel(self, target)));
  return r;
}

/** `binary_cross_entropy_with_logits` backward for the input. */
export function bceWithLogitsBackward(
  grad: Tensor,
  self: Tensor,
  target: Tensor,
  weight: Tensor | null,
  posWeight: Tensor | null,
  reduction: number,
): Tensor {
  const s = at.sigmoid(self);
  let r =
    posWeight === null
      ? at.sub_Tensor(s, target)
      : at.sub_Tensor(
          at.mul_Tensor(s, at.add_Tensor(at.mul_Tensor(posWeight, target), at.add_Tensor(at.neg(target), wrapScalar(1)))),
          at.mul_Tensor(posWeight, target),
        );
  r = at.mul_Tensor(r, grad);
  if (weight !== null) r = at.mul_Tensor(r, weight);
  if (reduction === REDUCTION_MEAN) r = at.div_Tensor(r, wrapScalar(broadcastNumel(self, target)));
  return r;
}

/** `binary_cross_entropy_with_logits` backward for the target. */
export function bceWithLogitsTargetBackward(
  grad: Tensor,
  self: Tensor,
  target: Tensor,
  weight: Tensor | null,
  posWeight: Tensor | null,
  reduction: number,
): Tensor {
  const logSig = at.log(at.sigmoid(self));
  const logOneMinus = at.log(at.sigmoid(at.neg(self)));
  let r = posWeight === null ? at.sub_Tensor(logOneMinus, logSig) : at.sub_Tensor(logOneMinus, at.mul_Tensor(posWeight, logSig));
  r = at.mul_Tensor(r, grad);
  if (weight !== null) r = at.mul_Tensor(r, weight);
  if (reduction === REDUCTION_MEAN) r = at.div_Tensor(r, wrapScalar(broadcastNumel(self, target)));
  return r;
}

/** The number of elements input and target broadcast to, for a Mean reduction (1 otherwise). */
function lossNorm(self: Tensor, target: Tensor, reduction: number): number {
  if (reduction !== 1) return 1;
  const n = Math.max(self.dim(), target.dim());
  let total = 1;
  for (let i = 0; i < n; i++) {
    const a = self.sizes[self.dim() - n + i] ?? 1;
    const b = target.sizes[target.dim() - n + i] ?? 1;
    total *= a === 1 ? b : a;
  }
  return total;
}

/** `smooth_l1_loss_backward`: (x - y) / beta inside (-beta, beta), its sign outside, times grad / n. */
export function smoothL1LossBackward(grad: Tensor, self: Tensor, target: Tensor, reduction: number, beta: number): Tensor {
  const d = at.sub_Tensor(self, target);
  const n = lossNorm(self, target, reduction);
  const g = beta === 0 ? at.sign(d) : at.where_self(at.le_Scalar(at.abs(d), beta), at.div_Tensor(d, wrapScalar(beta)), at.sign(d));
  return at.div_Tensor(at.mul_Tensor(g, grad), wrapScalar(n));
}

/** `huber_loss_backward`: x - y inside [-delta, delta], delta times its sign outside, times grad / n. */
export function huberLossBackward(grad: Tensor, self: Tensor, target: Tensor, reduction: number, delta: number): Tensor {
  const d = at.sub_Tensor(self, target);
  const n = lossNorm(self, target, reduction);
  return at.div_Tensor(
    at.mul_Tensor(at.where_self(at.le_Scalar(at.abs(d), delta), d, at.mul_Tensor(at.sign(d), wrapScalar(delta))), grad),
    wrapScalar(n),
  );
}

/** soft_margin_loss_backward (Loss.cpp): -target * z / (1 + z) * norm * grad, z = exp(-target * self). */
export function softMarginLossBackward(grad: Tensor, self: Tensor, target: Tensor, reduction: number): Tensor {
  const norm = reduction === 1 ? 1 / self.numel() : 1;
  const z = at.exp(at.mul_Tensor(at.neg(target), self));
  const g = at.mul_Tensor(at.mul_Tensor(target, z), wrapScalar(-norm));
  return at.mul_Tensor(at.div_Tensor(g, at.add_Tensor(z, wrapScalar(1))), grad);
}
