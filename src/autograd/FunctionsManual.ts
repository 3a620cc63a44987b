// Tensor operations the autograd machinery and the derivative formulas share: reducing a gradient to an
// input's shape, accumulating into `.grad`, scattering a view's gradient into its base, and the backward
// helpers the formulas in derivatives.yaml call by name. Mirrors torch/csrc/autograd/FunctionsManual.cpp
// (and the small pieces of InputBuffer.cpp / accumulate_grad.h that are tensor math).

import { aten } from '../aten/ops.js';
import { ScalarType, isComplexType, isFloatingType } from '../c10/ScalarType.js';
import { Tensor } from '../tensor/Tensor.js';

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

export function sameSizes(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** True if `grad` (sizes `from`) can be summed to `to` (`is_expandable_to(to, from)`). */
export function isExpandableTo(to: readonly number[], from: readonly number[]): boolean {
  if (to.length > from.length) return false;
  const lead = from.length - to.length;
  for (let i = 0; i < to.length; i++) {
    const t = to[i] as number;
    if (t !== 1 && t !== from[lead + i]) return false;
  }
  return true;
}

/** A copy of `t` without autograd history. */
export function detachedClone(t: Tensor): Tensor {
  return aten().clone.call(detach(t), null);
}

/** `t.detach()`: the same data (shared storage and version counter), no history, does not require grad. */
export function detach(t: Tensor): Tensor {
  return new Tensor(t.storage, t.dtype, [...t.sizes], [...t.strides], t.storageOffset, t.keySet);
}

/**
 * AccumulateGrad's update of `.grad`: the first gradient is stored as a copy (formulas may hand the same
 * tensor to several inputs, so it is never stored by reference); later ones are added in place, or out of
 * place with history when grad mode is on (create_graph), as accumulate_grad.h does.
 */
export function accumulateInto(old: Tensor | null, grad: Tensor, gradMode: boolean): Tensor {
  if (old === null) return aten().clone.call(gradMode ? grad : detach(grad), null);
  if (gradMode) return aten().add_Tensor.call(old, grad, 1);
  return aten().add__Tensor.call(old, grad, 1);
}

/**
 * For CopySlices: a copy of the base's gradient laid out like the base, and the slice of it the view covers
 * (`result.as_strided(view sizes, view strides, view offset)`).
 */
export function sliceOfBaseGrad(
  grad: Tensor,
  baseSizes: number[],
  baseStrides: number[],
  viewSizes: number[],
  viewStrides: number[],
  offset: number,
): { result: Tensor; slice: Tensor } {
  const result = aten().empty_strided.call(baseSizes, baseStrides, grad.dtype, null, grad.device, null);
  aten().copy_.call(result, grad, false);
  const slice = aten().as_strided.call(result, viewSizes, viewStrides, offset);
  return { result, slice };
}

/** The gradient of a strided view scattered into zeros shaped like its base (`as_strided_backward`). */
export function asStridedScatter(
  grad: Tensor,
  baseSizes: number[],
  baseStrides: number[],
  viewSizes: number[],
  viewStrides: number[],
  offset: number,
): Tensor {
  const result = aten().empty_strided.call(baseSizes, baseStrides, grad.dtype, null, grad.device, null);
  aten().zero_.call(result);
  const slice = aten().as_strided.call(result, viewSizes, viewStrides, offset);
  aten().add__Tensor.call(slice, grad, 1);
  return result;
}

/** `handle_r_to_c`: a real input's gradient is the real part of a complex one (no complex autograd yet: identity). */
export function handleRToC(selfDtype: ScalarType, grad: Tensor): Tensor {
  if (!isComplexType(selfDtype) && isComplexType(grad.dtype)) {
    throw new Error('complex gradients for real inputs are not supported yet');
  }
  return grad;
}

/** `maybe_multiply(t, s)`: `t * s`, skipping the multiplication when s is 1. */
export function maybeMultiply(t: Tensor, s: number | boolean): Tensor {
  return s === 1 || s === true ? t : t.mul(s);
}

/** True for the dtypes whose tensors can carry gradients. */
export function isDifferentiableDtype(dtype: ScalarType): boolean {
  return isFloatingType(dtype) || isComplexType(dtype);
}

/** `zeros_like(t)`. */
export function zerosLike(t: Tensor): Tensor {
  return aten().zeros_like.call(t, null, null, null, null, null);
}

/** A dtype that holds the value of `grad` at least as precisely as needed for `dtype`'s gradient. */
export function toDtype(t: Tensor, dtype: ScalarType): Tensor {
  return t.dtype === dtype ? t : aten().to_dtype.call(t, dtype, false, false, null);
}

export { ScalarType };
