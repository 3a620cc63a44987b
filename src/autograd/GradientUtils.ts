// The tensor math of the autograd machinery itself (not of derivative formulas): the update of `.grad`
// (accumulate_grad.h), and the scatter of a view's gradient into its base (CopySlices in
// torch/csrc/autograd/functions/tensor.cpp).

import { belowADInplaceOrView } from '../dispatch/LocalDispatchKeySet.js';
import { aten } from '../generated/Operators.js';
import { Tensor } from '../tensor/Tensor.js';
import { contiguousStrides } from '../tensor/TensorImpl.js';

/** A copy of `t` without autograd history. */
export function detachedClone(t: Tensor): Tensor {
  return aten().clone.call(t.detach(), null);
}

/**
 * AccumulateGrad's update of `.grad`: the first gradient is stored as a copy (formulas may hand the same
 * tensor to several inputs, so it is never stored by reference); later ones are added in place, or out of
 * place with history when grad mode is on (create_graph), as accumulate_grad.h does.
 */
export function accumulateInto(old: Tensor | null, grad: Tensor, gradMode: boolean, variable: Tensor = grad): Tensor {
  if (old === null) {
    if (!gradMode) return aten().clone.call(grad.detach(), null);
    // clone_obey_contract: new_empty_strided(variable's geometry).copy_(grad), so the new .grad's history is
    // CopyBackwards (the variable's strides: the incoming gradient may be an expanded, overlapping view).
    const strides = variable.isContiguous() ? contiguousStrides(variable.sizes) : [...variable.strides];
    const fresh = aten().empty_strided.call([...variable.sizes], strides, grad.dtype, null, grad.device, null);
    return belowADInplaceOrView(() => aten().copy_.call(fresh, grad, false));
  }
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
