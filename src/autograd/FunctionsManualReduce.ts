// The derivative helpers of the reductions and scans (SumKernel.ts, ReduceOps.ts' var_mean /
// std_mean, TensorCompare.ts' aminmax, Sorting.ts' median, ReduceOpsKernel.ts' cummax / cummin /
// logcumsumexp): nansum_backward, var_mean_backward, std_mean_backward, aminmax_backward,
// evenly_distribute_backward, cummaxmin_backward and logcumsumexp_backward of
// torch/csrc/autograd/FunctionsManual.cpp. Re-exported by FunctionsManual.ts.

import { ScalarType } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import * as at from '../generated/TensorBody.js';
import type { Tensor } from '../tensor/Tensor.js';
import { amaxAminBackward, meanBackward, stdBackward, sumBackward, varBackward } from './FunctionsManual.js';

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
