// The helpers the derivative formulas of derivatives.yaml call by name (the generated src/generated/autograd.ts
// imports them from here). Mirrors torch/csrc/autograd/FunctionsManual.cpp; that file is about 7,000 lines in
// PyTorch, and this one is a little over the ~600-line guide for the same reason: one home for every formula.

import { autogradState } from '../c10/AutogradState.js';
import { isComplexType, type ScalarType } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import { reluBackwardSimd } from '../kernels/ActivationBackward.js';
import { nllLossTotalWeight } from '../kernels/LossNLL.js';
import { convolution3dBackwardInput, convolution3dBackwardWeight } from './FunctionsManualNn.js';
import { sameSizes } from '../tensor/ExpandUtils.js';
import { Tensor } from '../tensor/Tensor.js';
import * as at from '../generated/TensorBody.js';
import { wrapScalar } from '../tensor/ScalarOps.js';

/** `at::sum_to(grad, sizes)`: sums the broadcast dimensions away (leading ones, and sizes that were 1). */
export function sumTo(grad: Tensor, sizes: readonly number[]): Tensor {
  const g = grad.sizes;
  if (sameSizes(g, sizes)) return grad;
  const lead = g.length - sizes.length;
  const dims: number[] = [];
  for (let i = 0; i < lead; i++) dims.push(i);
  for (let i = 0; i < sizes.length; i++) if (sizes[i] === 1 && g[lead + i] !== 1) dims.push(lead + i);
  let r = dims.length > 0 ? aten().sum_dim_IntList.call(grad, dims, true, null) : grad;
  if (lead > 0 || !sameSizes(r.sizes, sizes)) r = aten().view.call(r, [...sizes]);
  return r;
}

/** `maybe_multiply(t, s)`: `t * s`, skipping the multiplication when s is 1. */
export function maybeMultiply(t: Tensor, s: number | boolean): Tensor {
  return s === 1 || s === true ? t : at.mul_Tensor(t, wrapScalar(s));
}

/**
 * mm_mat1_backward: d(mat1) of mat1 · mat2 = grad · mat2ᵀ. When mat1 was column-major (a transposed view), it
 * is computed as (mat2 · gradᵀ)ᵀ, so the gradient comes out laid out as mat1 (AccumulateGrad can then keep it
 * without a copy), as PyTorch's FunctionsManual.cpp does.
 */
export function mmMat1Backward(
  grad: Tensor,
  mat2: Tensor,
  sizes: readonly number[],
  strides: readonly number[],
  alpha: number | boolean,
): Tensor {
  if (strides[0] === 1 && strides[1] === sizes[0]) return maybeMultiply(at.t(at.mm(mat2, at.t(grad))), alpha);
  return maybeMultiply(at.mm(grad, at.t(mat2)), alpha);
}

/**
 * mm_mat2_backward: d(mat2) of mat1 · mat2 = mat1ᵀ · grad; (gradᵀ · mat1)ᵀ when mat2 was column-major (a
 * linear layer's `weight.t()`), so that the weight's gradient is laid out as the weight.
 */
export function mmMat2Backward(
  grad: Tensor,
  mat1: Tensor,
  sizes: readonly number[],
  strides: readonly number[],
  alpha: number | boolean,
): Tensor {
  if (strides[0] === 1 && strides[1] === sizes[0]) return maybeMultiply(at.t(at.mm(at.t(grad), mat1)), alpha);
  return maybeMultiply(at.mm(at.t(mat1), grad), alpha);
}

/** `zeros_like(t)`. */
export function zerosLike(t: Tensor): Tensor {
  return aten().zeros_like.call(t, null, null, null, null, null);
}

// ---- formula helpers (named after FunctionsManual.cpp's functions, in camelCase) -----------------------

function zerosOf(sizes: readonly number[], like: Tensor): Tensor {
  return aten().zeros.call([...sizes], like.scalarType, null, like.device, null);
}

function wrapDims(dims: readonly number[] | null | undefined, ndim: number): number[] {
  if (dims === null || dims === undefined || dims.length === 0) return Array.from({ length: ndim }, (_, i) => i);
  return dims.map((d) => (d < 0 ? d + Math.max(ndim, 1) : d)).sort((a, b) => a - b);
}

/** Re-inserts the reduced dimensions of a keepdim=False reduction so the gradient broadcasts back. */
export function unsqueezeReduced(
  grad: Tensor,
  selfSizes: readonly number[],
  dims: readonly number[] | null | undefined,
  keepdim: boolean,
): Tensor {
  if (keepdim || selfSizes.length === 0) return grad;
  let g = grad;
  for (const d of wrapDims(dims, selfSizes.length)) g = at.unsqueeze(g, d);
  return g;
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
  return at.mul_Tensor(g, at.mul_Tensor(before, at.flip(afterRev, [d])));
}

function torchCat(ts: Tensor[], dim: number): Tensor {
  return aten().cat.call(ts, dim);
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

/** `pow_backward(grad, self, exponent)` for a scalar exponent. */
export function powBackward(grad: Tensor, self: Tensor, exponent: number | boolean): Tensor {
  const e = Number(exponent);
  if (e === 0) return zerosLike(self);
  return at.mul_Tensor(grad, at.mul_Tensor(at.pow_Tensor_Scalar(self, e - 1), wrapScalar(e)));
}

/** `pow_backward_self` for a tensor exponent. */
export function powBackwardSelf(grad: Tensor, self: Tensor, exponent: Tensor): Tensor {
  return torchWhere(
    at.eq_Scalar(exponent, 0),
    0,
    at.mul_Tensor(grad, at.mul_Tensor(exponent, at.pow_Tensor_Tensor(self, at.sub_Tensor(exponent, wrapScalar(1))))),
  );
}

/** `pow_backward_exponent`: grad * result * log(self), 0 where self is 0 and the exponent non-negative. */
export function powBackwardExponent(grad: Tensor, self: Tensor | number | boolean, exponent: Tensor, result: Tensor): Tensor {
  if (typeof self !== 'object') {
    const b = Number(self);
    if (b === 0) return torchWhere(at.ge_Scalar(exponent, 0), 0, at.mul_Tensor(grad, at.mul_Tensor(result, wrapScalar(Math.log(b)))));
    return at.mul_Tensor(grad, at.mul_Tensor(result, wrapScalar(Math.log(b))));
  }
  const cond = at.logical_and(at.eq_Scalar(self, 0), at.ge_Scalar(exponent, 0));
  return torchWhere(cond, 0, at.mul_Tensor(grad, at.mul_Tensor(result, at.log(self))));
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

/** `permute_backwards`: the inverse permutation. */
export function permuteBackward(grad: Tensor, dims: readonly number[]): Tensor {
  const n = dims.length;
  const inv = new Array<number>(n);
  dims.forEach((d, i) => (inv[d < 0 ? d + n : d] = i));
  return at.permute(grad, inv);
}

/** `select_backward`: zeros with the gradient at the selected index. */
export function selectBackward(grad: Tensor, selfSizes: number[], dim: number, index: number): Tensor {
  const r = zerosOf(selfSizes, grad);
  const d = dim < 0 ? dim + selfSizes.length : dim;
  const i = index < 0 ? index + (selfSizes[d] as number) : index;
  at.copy_(at.select_int(r, d, i), grad);
  return r;
}

/** `slice_backward`: zeros with the gradient in the slice. */
export function sliceBackward(
  grad: Tensor,
  selfSizes: number[],
  dim: number,
  start: number | null,
  end: number | null,
  step: number,
): Tensor {
  const r = zerosOf(selfSizes, grad);
  at.copy_(aten().slice_Tensor.call(r, dim, start, end, step), grad);
  return r;
}

/** `as_strided_backward` for inputs that do not overlap themselves. */
export function asStridedBackward(
  grad: Tensor,
  selfSizes: number[],
  selfStrides: number[],
  selfOffset: number,
  size: number[],
  stride: number[],
  storageOffset: number | null,
): Tensor {
  const off = storageOffset ?? selfOffset;
  let extent = 1;
  for (let i = 0; i < selfSizes.length; i++) extent += ((selfSizes[i] as number) - 1) * (selfStrides[i] as number);
  let vextent = 1;
  for (let i = 0; i < size.length; i++) vextent += ((size[i] as number) - 1) * (stride[i] as number);
  const base = Math.min(selfOffset, off);
  const total = Math.max(selfOffset + extent, off + vextent) - base;
  const flat = zerosOf([total], grad);
  at.add__Tensor(aten().as_strided.call(flat, size, stride, off - base), grad);
  return at.clone(aten().as_strided.call(flat, selfSizes, selfStrides, selfOffset - base));
}

/** `_to_copy_backward`: back to the input's dtype and device. */
export function toCopyBackward(grad: Tensor, dtype: ScalarType, device: Tensor['device']): Tensor {
  // a real input promoted to complex (torch.fft): the real part of the gradient
  if (grad.isComplex() && !isComplexType(dtype)) grad = at.real(grad);
  return aten()._to_copy.call(grad, dtype, null, device, null, false, null);
}

/** `grad.to(other.dtype())` without a dispatch when the dtypes already agree (the common case). */
function asDtypeOf(grad: Tensor, other: Tensor): Tensor {
  return grad.scalarType === other.scalarType ? grad : at.to_dtype(grad, other.scalarType);
}

/** softmax's backward: the native `_softmax_backward_data` (See Note [softmax backward over storage]). */
export function softmaxBackward(grad: Tensor, result: Tensor, dim: number, inputDtype: ScalarType): Tensor {
  return aten()._softmax_backward_data.call(asDtypeOf(grad, result), result, dim, inputDtype);
}

/** log_softmax's backward: the native `_log_softmax_backward_data`. */
export function logSoftmaxBackward(grad: Tensor, result: Tensor, dim: number, inputDtype: ScalarType): Tensor {
  return aten()._log_softmax_backward_data.call(asDtypeOf(grad, result), result, dim, inputDtype);
}

/** softmax_double_backward (FunctionsManual.cpp): grad_output * grad - (output * grad_output).sum(dim, true) * grad - grad_output * (output * grad).sum(dim, true). */
export function softmaxDoubleBackward(grad: Tensor, gradOutput: Tensor, dim: number, output: Tensor): Tensor {
  const g = asDtypeOf(grad, output);
  return at.sub_Tensor(
    at.sub_Tensor(at.mul_Tensor(gradOutput, g), at.mul_Tensor(at.sum_dim_IntList(at.mul_Tensor(output, gradOutput), [dim], true), g)),
    at.mul_Tensor(gradOutput, at.sum_dim_IntList(at.mul_Tensor(output, g), [dim], true)),
  );
}

/** `_log_softmax_backward_data`'s grad_output: grad - (grad * output.exp()).sum(dim, true). */
export function logSoftmaxGradOutputBackward(grad: Tensor, output: Tensor, dim: number): Tensor {
  const g = asDtypeOf(grad, output);
  return at.sub_Tensor(g, at.sum_dim_IntList(at.mul_Tensor(g, at.exp(output)), [dim], true));
}

/** `_log_softmax_backward_data`'s output: -grad_output.sum(dim, true) * output.exp() * grad. */
export function logSoftmaxOutputBackward(grad: Tensor, gradOutput: Tensor, dim: number, output: Tensor): Tensor {
  return at.mul_Tensor(at.mul_Tensor(at.neg(at.sum_dim_IntList(gradOutput, [dim], true)), at.exp(output)), asDtypeOf(grad, output));
}

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

/** `gelu_backward`. */
export function geluBackward(grad: Tensor, self: Tensor, approximate: string): Tensor {
  if (approximate === 'tanh') {
    const k = Math.sqrt(2 / Math.PI);
    const x3 = at.mul_Tensor(at.mul_Tensor(self, self), self);
    const inner = at.mul_Tensor(at.add_Tensor(self, at.mul_Tensor(x3, wrapScalar(0.044715))), wrapScalar(k));
    const t = at.tanh(inner);
    const dinner = at.mul_Tensor(
      at.add_Tensor(at.mul_Tensor(at.mul_Tensor(self, self), wrapScalar(3 * 0.044715)), wrapScalar(1)),
      wrapScalar(k),
    );
    const left = at.mul_Tensor(at.add_Tensor(t, wrapScalar(1)), wrapScalar(0.5));
    const right = at.mul_Tensor(
      at.mul_Tensor(at.mul_Tensor(self, wrapScalar(0.5)), at.add_Tensor(at.neg(at.mul_Tensor(t, t)), wrapScalar(1))),
      dinner,
    );
    return at.mul_Tensor(grad, at.add_Tensor(left, right));
  }
  const cdf = at.mul_Tensor(at.add_Tensor(at.erf(at.mul_Tensor(self, wrapScalar(Math.SQRT1_2))), wrapScalar(1)), wrapScalar(0.5));
  const pdf = at.mul_Tensor(at.exp(at.mul_Tensor(at.mul_Tensor(self, self), wrapScalar(-0.5))), wrapScalar(1 / Math.sqrt(2 * Math.PI)));
  return at.mul_Tensor(grad, at.add_Tensor(cdf, at.mul_Tensor(self, pdf)));
}

/** silu's gradient: sigmoid(x) (1 + x (1 - sigmoid(x))). */
export function siluBackward(grad: Tensor, self: Tensor): Tensor {
  const s = at.sigmoid(self);
  return at.mul_Tensor(grad, at.mul_Tensor(s, at.add_Tensor(at.mul_Tensor(self, at.add_Tensor(at.neg(s), wrapScalar(1))), wrapScalar(1))));
}

/** `threshold_backward(grad, result, 0)` for relu: the gradient where the output is positive. */
export function reluBackward(grad: Tensor, result: Tensor): Tensor {
  // One SIMD pass where it applies (the same values as the composite below, bit for bit).
  const fast = autogradState.gradMode && result.requiresGrad ? null : reluBackwardSimd(grad, result);
  if (fast !== null) return fast;
  const g = at.masked_fill_Scalar(grad, at.le_Scalar(result, 0), 0);
  // Under create_graph PyTorch's threshold_backward is itself differentiable in `result` (with a zero
  // derivative); adding 0 * result gives the first-order gradient that history, so double backward works.
  return autogradState.gradMode && result.requiresGrad ? at.add_Tensor(g, at.mul_Tensor(result, wrapScalar(0))) : g;
}

/** cat's gradient: the gradient cut into each input's extent along dim. */
export function catTensorsBackward(grad: Tensor, sizes: number[][], dim: number): (Tensor | null)[] {
  const out: (Tensor | null)[] = [];
  const nonEmpty = sizes.find((s) => !(s.length === 1 && s[0] === 0));
  const d = dim < 0 ? dim + (nonEmpty?.length ?? 1) : dim;
  let start = 0;
  for (const s of sizes) {
    if (s.length === 1 && s[0] === 0 && grad.dim() !== 1) {
      out.push(zerosOf([0], grad));
      continue;
    }
    const len = s[d] as number;
    out.push(at.narrow(grad, d, start, len));
    start += len;
  }
  return out;
}

/** stack's gradient: one slice per input. */
export function stackBackward(grad: Tensor, dim: number, n: number): (Tensor | null)[] {
  const d = dim < 0 ? dim + grad.dim() : dim;
  const parts = at.unbind_int(grad, d);
  return parts.slice(0, n);
}

/** The gradient of a list-returning view (split, chunk, unbind): the output gradients joined, zeros for missing ones. */
export function splitBackward(
  grads: (Tensor | null)[],
  selfSizes: number[],
  dim: number,
  outputSizes: number[][],
  like: Tensor | null,
): Tensor {
  const proto = like ?? (grads.find((g) => g !== null && g !== undefined) as Tensor);
  const d = dim < 0 ? dim + selfSizes.length : dim;
  const parts = outputSizes.map((s, i) => grads[i] ?? zerosOf(s, proto));
  return torchCat(parts, d);
}

/** Output sizes of split(self, splitSize, dim). */
export function splitSizes(selfSizes: number[], splitSize: number, dim: number): number[][] {
  const d = dim < 0 ? dim + selfSizes.length : dim;
  const n = selfSizes[d] as number;
  const out: number[][] = [];
  for (let s = 0; s < Math.max(n, 1); s += Math.max(splitSize, 1)) {
    const sz = [...selfSizes];
    sz[d] = Math.min(splitSize, n - s);
    out.push(sz);
    if (n === 0) break;
  }
  return out;
}

/** Output sizes of split_with_sizes. */
export function splitWithSizesSizes(selfSizes: number[], sizes: readonly number[], dim: number): number[][] {
  const d = dim < 0 ? dim + selfSizes.length : dim;
  return sizes.map((s) => {
    const sz = [...selfSizes];
    sz[d] = s;
    return sz;
  });
}

/** unbind's gradient: the output gradients stacked, zeros for missing ones. */
export function unbindBackward(grads: (Tensor | null)[], selfSizes: number[], dim: number): Tensor {
  const d = dim < 0 ? dim + selfSizes.length : dim;
  const partSizes = selfSizes.filter((_, i) => i !== d);
  const proto = grads.find((g) => g !== null && g !== undefined) as Tensor;
  const parts = Array.from({ length: selfSizes[d] as number }, (_, i) => grads[i] ?? zerosOf(partSizes, proto));
  return aten().stack.call(parts, d);
}

/** repeat's gradient: the tiles summed back onto the input. */
export function repeatBackward(grad: Tensor, repeats: readonly number[], selfSizes: number[]): Tensor {
  const lead = repeats.length - selfSizes.length;
  const padded = [...new Array<number>(lead).fill(1), ...selfSizes];
  const shape: number[] = [];
  const sumDims: number[] = [];
  for (let i = 0; i < repeats.length; i++) {
    sumDims.push(shape.length);
    shape.push(repeats[i] as number, padded[i] as number);
  }
  if (grad.numel() === 0) return zerosOf(selfSizes, grad);
  return at.reshape(at.sum_dim_IntList(at.reshape(grad, shape), sumDims, false), selfSizes);
}

/** roll's gradient: roll back. */
export function rollBackward(grad: Tensor, shifts: readonly number[], dims: readonly number[]): Tensor {
  return at.roll(
    grad,
    shifts.map((s) => -s),
    [...dims],
  );
}

/** index_select's gradient: scatter-add into zeros along dim. */
export function indexSelectBackward(grad: Tensor, selfSizes: number[], dim: number, index: Tensor): Tensor {
  if (selfSizes.length === 0) return at.mul_Tensor(grad, wrapScalar(1));
  const d = dim < 0 ? dim + selfSizes.length : dim;
  const shape = grad.sizes.map((_, i) => (i === d ? (index.numel() as number) : 1));
  const idx = at.expand(at.reshape(index, shape), grad.sizes);
  return at.scatter_add(zerosOf(selfSizes, grad), d, idx, grad);
}

/** gather's gradient: scatter-add into zeros. */
export function gatherBackward(grad: Tensor, selfSizes: number[], dim: number, index: Tensor): Tensor {
  return at.scatter_add(zerosOf(selfSizes, grad), dim, index, grad);
}

/** masked_select's gradient: the values put back where the (broadcast) mask is true. */
export function maskedSelectBackward(grad: Tensor, selfSizes: number[], mask: Tensor): Tensor {
  const n = Math.max(selfSizes.length, mask.dim());
  // both 0-dim: put the value back through a 1-element view (a 0-dim mask indexes a 0-dim tensor by adding a dim)
  if (n === 0) return at.reshape(maskedSelectBackward(grad, [1], at.reshape(mask, [1])), []);
  const shape: number[] = [];
  for (let i = 0; i < n; i++) shape.push(Math.max(selfSizes[selfSizes.length - n + i] ?? 1, mask.sizes[mask.dim() - n + i] ?? 1));
  const r = zerosOf(shape, grad);
  return at.index_put(r, [at.expand(mask, shape)], grad, false);
}

/** index.Tensor's gradient: accumulate into zeros at the indexed places. */
export function indexBackward(grad: Tensor, selfSizes: number[], indices: readonly (Tensor | null)[]): Tensor {
  return at.index_put(zerosOf(selfSizes, grad), [...indices], grad, true);
}

/**
 * index_put's gradient for `values`: aten's `index(grad, indices)` (a null index is a whole dimension). The
 * method `grad.index(list)` is the indexing API, where null is a new dimension (Note [The indexing API and
 * aten's index] in src/api/TensorIndexing.ts).
 */
export function indexPutValuesBackward(grad: Tensor, indices: readonly (Tensor | null)[]): Tensor {
  return aten().index_Tensor.call(grad, [...indices]);
}

/** embedding's gradient: rows of the weight accumulate the gradients of their occurrences. */
export function embeddingBackward(grad: Tensor, indices: Tensor, numWeights: number, paddingIdx: number): Tensor {
  const dim = grad.sizes[grad.dim() - 1] as number;
  const flat = at.reshape(indices, [-1]);
  let g = at.reshape(grad, [-1, dim]);
  if (paddingIdx >= 0) g = at.masked_fill_Scalar(g, at.unsqueeze(at.eq_Scalar(flat, paddingIdx), 1), 0);
  return at.index_put(aten().zeros.call([numWeights, dim], grad.scalarType, null, grad.device, null), [flat], g, true);
}

/** div with rounding: the gradient is zero almost everywhere; without, grad / other. */
export function divTensorSelfBackward(grad: Tensor, other: Tensor, roundingMode: string | null): Tensor {
  return roundingMode !== null ? zerosLike(grad) : at.div_Tensor(grad, other);
}

/** div's gradient for the divisor: -grad * self / other². */
export function divTensorOtherBackward(grad: Tensor, self: Tensor, other: Tensor, roundingMode: string | null = null): Tensor {
  return roundingMode !== null ? zerosLike(grad) : at.mul_Tensor(at.neg(grad), at.div_Tensor(at.div_Tensor(self, other), other));
}

/** convolution's bias gradient: the gradient summed over batch and space (every dim but the channels). */
export function conv2dBiasBackward(grad: Tensor): Tensor {
  return at.sum_dim_IntList(grad, [0, ...Array.from({ length: grad.dim() - 2 }, (_, i) => i + 2)], false);
}

/** max_pool2d_with_indices's gradient: `max_pool2d_with_indices_backward` scatters it to the saved indices. */
export function maxPool2dWithIndicesBackward(
  grad: Tensor,
  self: Tensor,
  kernelSize: number[],
  stride: number[],
  padding: number[],
  dilation: number[],
  ceilMode: boolean,
  indices: Tensor,
): Tensor {
  return aten().max_pool2d_with_indices_backward.call(grad, self, kernelSize, stride, padding, dilation, ceilMode, indices);
}

/**
 * `max_pool_double_backward`: the derivative of the max-pool backward with respect to its output gradient,
 * which that backward scatters to the indices: a gather at the indices, per plane of the last `dim` dims.
 */
export function maxPoolDoubleBackward(grad: Tensor, indices: Tensor, dim: number): Tensor {
  const size = [...indices.sizes.slice(0, indices.dim() - dim), -1];
  return at.view(at.gather(at.reshape(grad, size), -1, at.reshape(indices, size)), [...indices.sizes]);
}

/** `avg_pool2d_backward`. */
export function avgPool2dBackward(
  grad: Tensor,
  self: Tensor,
  kernelSize: number[],
  stride: number[],
  padding: number[],
  ceilMode: boolean,
  countIncludePad: boolean,
  divisorOverride: number | null,
): Tensor {
  return aten().avg_pool2d_backward.call(grad, self, kernelSize, stride, padding, ceilMode, countIncludePad, divisorOverride);
}

/** avg_pool2d_backward is linear in the output gradient: its derivative there is avg_pool2d again. */
export function avgPool2dForward(
  grad: Tensor,
  kernelSize: number[],
  stride: number[],
  padding: number[],
  ceilMode: boolean,
  countIncludePad: boolean,
  divisorOverride: number | null,
): Tensor {
  return aten().avg_pool2d.call(grad, kernelSize, stride, padding, ceilMode, countIncludePad, divisorOverride);
}

/** conv2d's input gradient, through `_conv2d_backward_input` (Note [conv2d backward as operators]). */
export function conv2dBackwardInput(
  grad: Tensor,
  input: Tensor,
  weight: Tensor,
  stride: number[],
  padding: number[],
  dilation: number[],
  groups: number,
): Tensor {
  return aten()._conv2d_backward_input.call(grad, input, weight, stride, padding, dilation, groups);
}

/** conv2d's weight gradient, through `_conv2d_backward_weight`. */
export function conv2dBackwardWeight(
  grad: Tensor,
  input: Tensor,
  weight: Tensor,
  stride: number[],
  padding: number[],
  dilation: number[],
  groups: number,
): Tensor {
  return aten()._conv2d_backward_weight.call(grad, input, weight, stride, padding, dilation, groups);
}

/**
 * The 2-d view of a 1-d convolution's tensors and parameters (`view1d_as_2d`): [N, C, L] as [N, C, 1, L],
 * a leading height entry in every parameter list. 2-d convolutions pass through.
 */
function as2d(dim: number, ts: Tensor[], stride: number[], padding: number[], dilation: number[]) {
  if (dim !== 1) return { ts, stride, padding, dilation, back: (t: Tensor) => t };
  return {
    ts: ts.map((t) => at.unsqueeze(t, 2)),
    stride: [1, ...stride],
    padding: [0, ...padding],
    dilation: [1, ...dilation],
    back: (t: Tensor) => at.squeeze_dim(t, 2),
  };
}

/**
 * convolution's input gradient: `_conv2d_backward_input`, or for a transposed convolution the convolution of
 * the gradient with the same weight (Note [Transposed convolution as a gradient]).
 */
export function convolutionBackwardInput(
  grad: Tensor,
  input: Tensor,
  weight: Tensor,
  stride: number[],
  padding: number[],
  dilation: number[],
  transposed: boolean,
  groups: number,
): Tensor {
  if (weight.dim() === 5) return convolution3dBackwardInput(grad, input, weight, stride, padding, dilation, transposed, groups);
  const v = as2d(weight.dim() - 2, [grad, input, weight], stride, padding, dilation);
  const [g, x, w] = v.ts as [Tensor, Tensor, Tensor];
  if (transposed) {
    // With output_padding ≥ stride (allowed below the dilation) the convolution reaches past the input: keep its first rows.
    let r = aten().convolution.call(g, w, null, v.stride, v.padding, v.dilation, false, [0], groups);
    for (let d = 2; d < 4; d++) if (r.sizes[d] !== x.sizes[d]) r = at.narrow(r, d, 0, x.sizes[d] as number);
    return v.back(r);
  }
  return v.back(aten()._conv2d_backward_input.call(g, x, w, v.stride, v.padding, v.dilation, groups));
}

/** convolution's weight gradient: `_conv2d_backward_weight`, input and output gradient swapped when transposed. */
export function convolutionBackwardWeight(
  grad: Tensor,
  input: Tensor,
  weight: Tensor,
  stride: number[],
  padding: number[],
  dilation: number[],
  transposed: boolean,
  groups: number,
): Tensor {
  if (weight.dim() === 5) return convolution3dBackwardWeight(grad, input, weight, stride, padding, dilation, transposed, groups);
  const v = as2d(weight.dim() - 2, [grad, input, weight], stride, padding, dilation);
  const [g, x, w] = v.ts as [Tensor, Tensor, Tensor];
  if (transposed) return v.back(aten()._conv2d_backward_weight.call(x, g, w, v.stride, v.padding, v.dilation, groups));
  return v.back(aten()._conv2d_backward_weight.call(g, x, w, v.stride, v.padding, v.dilation, groups));
}

/** conv2d without bias (the derivative of both backward operators with respect to the output gradient). */
export function conv2dForward(
  input: Tensor,
  weight: Tensor,
  stride: number[],
  padding: number[],
  dilation: number[],
  groups: number,
): Tensor {
  return aten().conv2d.call(input, weight, null, stride, padding, dilation, groups);
}

/** `diagonal_backward` (the operator, so that double backward records DiagonalBackwardBackward0). */
export function diagonalBackward(grad: Tensor, selfSizes: number[], offset: number, dim1: number, dim2: number): Tensor {
  return aten().diagonal_backward.call(grad, [...selfSizes], offset, dim1, dim2);
}

export * from './FunctionsManualNn.js';
export * from './FunctionsManualNotImplemented.js';
export * from './FunctionsManualLinalg.js';
export * from './FunctionsManualLinalgSolve.js';
export * from './FunctionsManualLinalgQr.js';
export * from './FunctionsManualPointwise.js';
export * from './FunctionsManualReduce.js';
export * from './FunctionsManualShape.js';
export * from './FunctionsManualIndexing.js';
export * from './FunctionsManualSpecial.js';
export * from './FunctionsManualSpectral.js';
