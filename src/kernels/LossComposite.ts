// The CompositeImplicitAutograd losses of aten/src/ATen/native/Loss.cpp — hinge_embedding_loss,
// margin_ranking_loss, cosine_embedding_loss, poisson_nll_loss, triplet_margin_loss — each PyTorch's
// decomposition into other operators (autograd records those), and the CompositeExplicitAutograd
// soft_margin_loss (SoftMarginLossBackward0; its backward is in FunctionsManualNn.ts). Loss.ts holds the
// element-loop losses.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType } from '../c10/ScalarType.js';
import * as at from '../generated/TensorBody.js';
import { formatSizes } from '../tensor/ExpandUtils.js';
import { wrapScalar } from '../tensor/ScalarOps.js';
import type { Tensor } from '../tensor/Tensor.js';
import { Reduction } from './Loss.js';

/** apply_loss_reduction (Loss.cpp). */
export function applyLossReduction(loss: Tensor, reduction: number): Tensor {
  if (reduction === Reduction.Mean) return at.mean(loss);
  if (reduction === Reduction.Sum) return at.sum(loss);
  return loss;
}

/** A C++ integer literal, and a `double` (a float argument or literal): a wrapped number of its category. */
const num = (v: number): Tensor => wrapScalar(v);
const dbl = (v: number): Tensor => wrapScalar(v, ScalarType.Double);

export function hingeEmbeddingLoss(
  _ks: DispatchKeySet,
  self: Tensor,
  target: Tensor,
  margin = 1.0,
  reduction: number = Reduction.Mean,
): Tensor {
  const zeros = at.zeros_like(self);
  const marginClamp = at.clamp_min_(at.sub_Tensor(dbl(margin), self), 0);
  const outputMargin = at.where_self(at.ne_Scalar(target, 1), marginClamp, zeros);
  const outputSelf = at.where_self(at.ne_Scalar(target, -1), self, zeros);
  return applyLossReduction(at.add_Tensor(outputMargin, outputSelf), reduction);
}

export function marginRankingLoss(
  _ks: DispatchKeySet,
  input1: Tensor,
  input2: Tensor,
  target: Tensor,
  margin = 0.0,
  reduction: number = Reduction.Mean,
): Tensor {
  const output = at.clamp_min_(at.add_Tensor(at.mul_Tensor(at.neg(target), at.sub_Tensor(input1, input2)), dbl(margin)), 0);
  return applyLossReduction(output, reduction);
}

const EPSILON = 1e-12;

export function cosineEmbeddingLoss(
  _ks: DispatchKeySet,
  input1: Tensor,
  input2: Tensor,
  target: Tensor,
  margin = 0.0,
  reduction: number = Reduction.Mean,
): Tensor {
  const targDim = target.dim();
  if (targDim !== 1 && targDim !== 0) throw new Error('0D or 1D target tensor expected, multi-target not supported');
  if (targDim === 1 && !(input1.dim() === 2 && input2.dim() === 2)) {
    throw new Error(
      `1D target tensor expects 2D input tensors, but found inputs with sizes ${formatSizes(input1.sizes)} and ${formatSizes(input2.sizes)}.`,
    );
  }
  if (targDim === 0 && !(input1.dim() === 1 && input2.dim() === 1)) {
    throw new Error(
      `0D target tensor expects 1D input tensors, but found inputs with sizes ${formatSizes(input1.sizes)} and ${formatSizes(input2.sizes)}.`,
    );
  }
  const sumDim = (t: Tensor): Tensor => at.sum_dim_IntList(t, [targDim]);
  const prodSum = sumDim(at.mul_Tensor(input1, input2));
  const magSquare1 = at.add_Tensor(sumDim(at.mul_Tensor(input1, input1)), dbl(EPSILON));
  const magSquare2 = at.add_Tensor(sumDim(at.mul_Tensor(input2, input2)), dbl(EPSILON));
  const denom = at.sqrt_(at.mul_Tensor(magSquare1, magSquare2));
  const cos = at.div_Tensor(prodSum, denom);
  const zeros = at.zeros_like(cos);
  const pos = at.sub_Tensor(num(1), cos);
  const neg = at.clamp_min_(at.sub_Tensor(cos, dbl(margin)), 0);
  const outputPos = at.where_self(at.eq_Scalar(target, 1), pos, zeros);
  const outputNeg = at.where_self(at.eq_Scalar(target, -1), neg, zeros);
  return applyLossReduction(at.add_Tensor(outputPos, outputNeg), reduction);
}

export function poissonNllLoss(
  _ks: DispatchKeySet,
  input: Tensor,
  target: Tensor,
  logInput: boolean,
  full: boolean,
  eps: number,
  reduction: number,
): Tensor {
  let loss = logInput
    ? at.sub_Tensor(at.exp(input), at.mul_Tensor(target, input))
    : at.sub_Tensor(input, at.mul_Tensor(target, at.log(at.add_Tensor(input, dbl(eps)))));
  if (full) {
    const stirling = at.add_Tensor(
      at.sub_Tensor(at.mul_Tensor(target, at.log(target)), target),
      at.mul_Tensor(dbl(0.5), at.log(at.mul_Tensor(dbl(2 * Math.PI), target))),
    );
    loss = at.add__Tensor(loss, at.masked_fill_Scalar(stirling, at.le_Scalar(target, 1), 0));
  }
  return applyLossReduction(loss, reduction);
}

export function tripletMarginLoss(
  _ks: DispatchKeySet,
  anchor: Tensor,
  positive: Tensor,
  negative: Tensor,
  margin = 1.0,
  p = 2,
  eps = 1e-6,
  swap = false,
  reduction: number = Reduction.Mean,
): Tensor {
  const [a, pd, n] = [anchor.dim(), positive.dim(), negative.dim()];
  if (!(a === pd && pd === n)) {
    throw new Error(
      `The anchor, positive, and negative tensors are expected to have the same number of dimensions, but got: anchor ${a}D, positive ${pd}D, and negative ${n}D inputs`,
    );
  }
  const distPos = at.pairwise_distance(anchor, positive, p, eps);
  let distNeg = at.pairwise_distance(anchor, negative, p, eps);
  if (swap) distNeg = at.min_other(distNeg, at.pairwise_distance(positive, negative, p, eps));
  const output = at.clamp_min(at.sub_Tensor(at.add_Tensor(dbl(margin), distPos), distNeg), 0);
  return applyLossReduction(output, reduction);
}

/** `soft_margin_loss(self, target, reduction=Mean)`: log(1 + exp(-target * self)), reduced. */
export function softMarginLoss(_ks: DispatchKeySet, self: Tensor, target: Tensor, reduction: number = Reduction.Mean): Tensor {
  const output = at.log1p(at.exp(at.mul_Tensor(at.neg(self), target)));
  return applyLossReduction(output, reduction);
}
