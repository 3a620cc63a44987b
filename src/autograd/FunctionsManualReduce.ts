// The derivative helpers of the reductions and scans (SumKernel.ts, ReduceOps.ts, TensorCompare.ts' aminmax,
// Sorting.ts' median, ReduceOpsKernel.ts' cumulative ops): sum / mean / prod / var / std / norm / logsumexp /
// amax-amin / value-selecting (max.dim, sort, topk) backward, cumsum / cumprod, nansum_backward,
// var_mean_backward, std_mean_backward, aminmax_backward, evenly_distribute_backward, cummaxmin_backward and
// logcumsumexp_backward of torch/csrc/autograd/FunctionsManual.cpp. Re-exported by FunctionsManual.ts.

import { ScalarType } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import * as at from '../generated/TensorBody.js';
import type { Tensor } from '../tensor/Tensor.js';
import { autogradState } from '../c10/AutogradState.js';
import { wrapScalar } from '../tensor/ScalarOps.js';
import { torchCat, unsqueezeReduced, wrapDims, zerosOf } from './FunctionsManual.js';
import { torchWhere } from './FunctionsManualPointwise.js';

type Grads = readonly (Tensor | null | undefined)[];

/** nansum_backward: the sum's gradient where self is not NaN, 0 where it is. */
export function nansumBackward(grad: Tensor, self: Tensor, dim: readonly number[] | null, keepdim: boolean): Tensor {
  const g = aten().to_dtype.call(grad, self.scalarType, false, false, null);
  return at.mul_Tensor(sumBackward(g, [...self.sizes], dim, keepdim), at.logical_not(at.isnan(self)));
}

function addDefined(a: Tensor | null, b: Tensor | null, self: Tensor): Tensor {
  if (a !== null && b !== null) return at.add_Tensor(a, b);
  return a ?? b ?? aten().zeros_like.call(self, null, null, null, null, null);
}

/** var_mean_backward: var's gradient plus mean's, for whichever outputs have one. */
export function varMeanBackward(
  grads: Grads,
  self: Tensor,
  dim: readonly number[] | null,
  correction: number | boolean | null,
  keepdim: boolean,
): Tensor {
  const [gv, gm] = [grads[0] ?? null, grads[1] ?? null];
  return addDefined(
    gv === null ? null : varBackward(gv, self, dim, correction, keepdim),
    gm === null ? null : meanBackward(gm, [...self.sizes], dim, keepdim),
    self,
  );
}

/** std_mean_backward. */
export function stdMeanBackward(
  grads: Grads,
  self: Tensor,
  std: Tensor,
  dim: readonly number[] | null,
  correction: number | boolean | null,
  keepdim: boolean,
): Tensor {
  const [gs, gm] = [grads[0] ?? null, grads[1] ?? null];
  return addDefined(
    gs === null ? null : stdBackward(std, gs, self, dim, correction, keepdim),
    gm === null ? null : meanBackward(gm, [...self.sizes], dim, keepdim),
    self,
  );
}

/** aminmax_backward: amin's and amax's gradients (evenly over ties), added. */
export function aminmaxBackward(grads: Grads, self: Tensor, dim: number | null, keepdim: boolean, min: Tensor, max: Tensor): Tensor {
  const dims = dim === null || self.dim() === 0 ? [] : [dim < 0 ? dim + self.dim() : dim];
  const [gmin, gmax] = [grads[0] ?? null, grads[1] ?? null];
  return addDefined(
    gmin === null ? null : amaxAminBackward(gmin, self, min, dims, keepdim),
    gmax === null ? null : amaxAminBackward(gmax, self, max, dims, keepdim),
    self,
  );
}

/** evenly_distribute_backward (median, nanmedian of all elements): grad shared among the elements equal to it. */
export function evenlyDistributeBackward(grad: Tensor, input: Tensor, value: Tensor): Tensor {
  const mask = (at.item(at.isnan(value)) as boolean) ? at.isnan(input) : at.eq_Tensor(input, value);
  const zeros = aten().zeros_like.call(input, null, null, null, null, null);
  return aten().masked_fill_Tensor.call(zeros, mask, at.div_Tensor(grad, at.sum(mask)));
}

/** cummaxmin_backward: each gradient goes to the element its output was taken from. */
export function cummaxminBackward(grad: Tensor, self: Tensor, indices: Tensor, dim: number): Tensor {
  if (self.numel() === 0) return self;
  const zeros = aten().zeros_like.call(self, null, null, null, null, null);
  return aten().scatter_add.call(zeros, dim, indices, grad);
}

/** logcumsumexp_backward (real case): positive and negative parts of grad through reversed logcumsumexps. */
export function logcumsumexpBackward(grad: Tensor, self: Tensor, result: Tensor, dim: number): Tensor {
  if (grad.dim() === 0 || grad.numel() === 0) return grad;
  const ops = aten();
  const lowest = grad.scalarType === ScalarType.Float ? -3.4028234663852886e38 : -Number.MAX_VALUE;
  const gradMin = ops.full.call([], lowest, grad.scalarType, null, grad.device, null);
  const reverse = (x: Tensor): Tensor => ops.flip.call(ops.logcumsumexp.call(ops.flip.call(x, [dim]), dim), [dim]);
  const logAbsGrad = at.log(at.abs(grad));
  const logPos = ops.where_self.call(at.gt_Scalar(grad, 0), logAbsGrad, gradMin);
  const logNeg = ops.where_self.call(at.lt_Scalar(grad, 0), logAbsGrad, gradMin);
  const outPos = at.exp(at.add_Tensor(reverse(at.sub_Tensor(logPos, result)), self));
  const outNeg = at.exp(at.add_Tensor(reverse(at.sub_Tensor(logNeg, result)), self));
  return at.sub_Tensor(outPos, outNeg);
}

/** `sum_backward`: the gradient broadcast back over the summed dimensions. */
export function sumBackward(grad: Tensor, selfSizes: number[], dims: readonly number[] | null | undefined, keepdim: boolean): Tensor {
  return at.expand(unsqueezeReduced(grad, selfSizes, dims, keepdim), selfSizes);
}

/** `mean_backward`. */
export function meanBackward(grad: Tensor, selfSizes: number[], dims: readonly number[] | null | undefined, keepdim: boolean): Tensor {
  const ds = wrapDims(dims, selfSizes.length);
  let n = 1;
  for (const d of ds) n *= selfSizes[d] ?? 1;
  return at.div_Tensor(sumBackward(grad, selfSizes, dims, keepdim), wrapScalar(n));
}

/** `prod_backward` over one dimension (or all, with dim null): exclusive products, so zeros are handled. */
export function prodBackward(grad: Tensor, self: Tensor, dim: number | null, keepdim: boolean): Tensor {
  if (self.numel() === 0) return zerosOf(self.sizes, self);
  if (dim === null) {
    const flat = at.reshape(self, [-1]);
    return at.reshape(prodBackward(at.reshape(grad, [1]), flat, 0, false), self.sizes);
  }
  const d = dim < 0 ? dim + Math.max(self.dim(), 1) : dim;
  if (self.dim() === 0) return at.mul_Tensor(grad, wrapScalar(1));
  const g = keepdim ? grad : at.unsqueeze(grad, d);
  const n = self.sizes[d] as number;
  const ones = aten().ones_like.call(at.narrow(self, d, 0, 1), null, null, null, null, null);
  const before = n > 1 ? torchCat([ones, at.cumprod(at.narrow(self, d, 0, n - 1), d)], d) : ones;
  const flipped = at.flip(self, [d]);
  const afterRev = n > 1 ? torchCat([ones, at.cumprod(at.narrow(flipped, d, 0, n - 1), d)], d) : ones;
  return at.mul_Tensor(g, at.conj(at.mul_Tensor(before, at.flip(afterRev, [d]))));
}

/** amax/amin backward: the gradient split evenly among the elements equal to the extreme value. */
export function amaxAminBackward(grad: Tensor, self: Tensor, result: Tensor, dims: readonly number[], keepdim: boolean): Tensor {
  const r = unsqueezeReduced(result, self.sizes, dims, keepdim);
  const g = unsqueezeReduced(grad, self.sizes, dims, keepdim);
  const mask = at.to_dtype(at.eq_Tensor(self, r), self.scalarType);
  const count = at.sum_dim_IntList(mask, wrapDims(dims, self.dim()), true);
  return at.div_Tensor(at.mul_Tensor(g, mask), count);
}

/** `value_selecting_reduction_backward` (max.dim, min.dim, sort, topk): scatter into the chosen places. */
export function valueSelectingReductionBackward(grad: Tensor, dim: number, indices: Tensor, selfSizes: number[], keepdim: boolean): Tensor {
  if (selfSizes.length === 0) return at.mul_Tensor(grad, wrapScalar(1));
  const d = dim < 0 ? dim + selfSizes.length : dim;
  const g = keepdim ? grad : at.unsqueeze(grad, d);
  const i = keepdim ? indices : at.unsqueeze(indices, d);
  return at.scatter_src(zerosOf(selfSizes, grad), d, i, g);
}

/** `var_backward`: 2 (x - mean) / (N - correction) times the gradient. */
export function varBackward(
  grad: Tensor,
  self: Tensor,
  dims: readonly number[] | null,
  correction: number | boolean | null,
  keepdim: boolean,
): Tensor {
  const ds = wrapDims(dims, self.dim());
  let n = 1;
  for (const d of ds) n *= self.sizes[d] ?? 1;
  const c = correction === null ? 1 : Number(correction);
  const g = unsqueezeReduced(grad, self.sizes, ds, keepdim);
  return at.mul_Tensor(at.mul_Tensor(g, wrapScalar(2 / (n - c))), at.sub_Tensor(self, at.mean_dim(self, ds, true)));
}

/** `std_backward`: var_backward of grad / (2 std). */
export function stdBackward(
  result: Tensor,
  grad: Tensor,
  self: Tensor,
  dims: readonly number[] | null,
  correction: number | boolean | null,
  keepdim: boolean,
): Tensor {
  return varBackward(at.div_Tensor(grad, at.mul_Tensor(result, wrapScalar(2))), self, dims, correction, keepdim);
}

/** `logsumexp_backward`: grad * exp(self - result). */
export function logsumexpBackward(grad: Tensor, self: Tensor, result: Tensor, dims: readonly number[], keepdim: boolean): Tensor {
  const g = unsqueezeReduced(grad, self.sizes, dims, keepdim);
  const r = unsqueezeReduced(result, self.sizes, dims, keepdim);
  return at.mul_Tensor(g, at.exp(at.sub_Tensor(self, r)));
}

/** `norm_backward` for p-norms (p = 0, 1, 2, inf, general). */
export function normBackward(
  grad: Tensor,
  self: Tensor,
  p: number | boolean | null,
  norm: Tensor,
  dims: readonly number[] | null,
  keepdim: boolean,
): Tensor {
  const pv = p === null ? 2 : Number(p);
  const ds = dims === null ? wrapDims(null, self.dim()) : wrapDims(dims, self.dim());
  const g = unsqueezeReduced(grad, self.sizes, ds, keepdim);
  const n = unsqueezeReduced(norm, self.sizes, ds, keepdim);
  if (pv === 0) return zerosOf(self.sizes, self);
  if (pv === 1) return at.mul_Tensor(at.sign(self), g);
  if (pv === 2) return at.masked_fill_Scalar(at.mul_Tensor(self, at.div_Tensor(g, n)), at.eq_Scalar(n, 0), 0);
  if (pv === Infinity || pv === -Infinity) {
    const mask = at.to_dtype(at.eq_Tensor(at.abs(self), n), self.scalarType);
    return at.mul_Tensor(at.sign(self), at.div_Tensor(at.mul_Tensor(g, mask), at.sum_dim_IntList(mask, ds, true)));
  }
  return at.masked_fill_Scalar(
    at.mul_Tensor(at.mul_Tensor(self, at.pow_Tensor_Scalar(at.abs(self), pv - 2)), at.div_Tensor(g, at.pow_Tensor_Scalar(n, pv - 1))),
    at.eq_Scalar(n, 0),
    0,
  );
}

/** `cumsum_backward`: reversed cumulative sum. */
export function cumsumBackward(grad: Tensor, dim: number): Tensor {
  if (grad.dim() === 0) return grad;
  return at.flip(at.cumsum(at.flip(grad, [dim]), dim), [dim]);
}

/**
 * `cumprod_backward`. Without zeros in the input: sum_{j>=k} grad_j * out_j / x_k. With zeros and grad mode off
 * (a first-order gradient), PyTorch's O(n) masks: before a slice's first zero z1 the same formula; at z1 the
 * product of the elements before it times sum_{j>=z1} grad_j * prod(x[z1+1..j]) up to the second zero; after it
 * zero. With grad mode on (create_graph) the division formula stays, NaN at zeros (PyTorch's O(n^2) path: not here).
 */
export function cumprodBackward(grad: Tensor, self: Tensor, dim: number, result: Tensor): Tensor {
  if (self.numel() <= 1) return grad;
  const d = dim < 0 ? dim + self.dim() : dim;
  if (self.sizes[d] === 1) return grad;
  const w = at.mul_Tensor(grad, result);
  // create_graph: the division formula whatever the zeros, so the zero mask is not computed at all.
  if (autogradState.gradMode) return at.div_Tensor(cumsumBackward(w, d), self);
  const isZero = at.eq_Scalar(self, 0);
  if (!at.item(at.any_dims(isZero))) return at.div_Tensor(cumsumBackward(w, d), self);
  const count = at.cumsum(isZero, d);
  const before = at.eq_Scalar(count, 0);
  const beforeFirst = at.div_Tensor(cumsumBackward(at.masked_fill_Scalar(w, at.logical_not(before), 0), d), self);
  const firstZero = at.logical_and(isZero, at.eq_Scalar(count, 1));
  const between = at.logical_and(at.eq_Scalar(count, 1), at.logical_not(firstZero));
  const z1 = at.argmax(firstZero.long(), d, true);
  const prodBefore = torchWhere(at.eq_Scalar(z1, 0), 1, at.gather(result, d, at.relu(at.sub_Tensor(z1, wrapScalar(1)))));
  const atZero = at.mul_Tensor(
    at.sum_dim_IntList(
      at.mul_Tensor(
        at.cumprod(at.masked_fill_Scalar(self, at.logical_not(between), 1), d),
        at.masked_fill_Scalar(grad, at.ne_Scalar(count, 1), 0),
      ),
      [d],
      true,
    ),
    prodBefore,
  );
  return torchWhere(firstZero, atZero, torchWhere(before, beforeFirst, 0));
}
