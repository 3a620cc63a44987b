// The tensor math of the autograd machinery itself (not of derivative formulas): the update of `.grad`
// (accumulate_grad.h), and the scatter of a view's gradient into its base (CopySlices in
// torch/csrc/autograd/functions/tensor.cpp).

import { belowADInplaceOrView } from '../dispatch/LocalDispatchKeySet.js';
import { aten } from '../generated/Operators.js';
import { Tensor } from '../tensor/Tensor.js';
import { isNonOverlappingAndDense } from '../tensor/TensorGeometry.js';
import { contiguousStrides } from '../tensor/TensorImpl.js';

/**
 * `t` without history, not through the dispatcher: the machinery's own step before a clone, where PyTorch
 * clones without detaching, so a dispatch mode sees no detach PyTorch does not make (Note [detach is dispatched]).
 */
export function withoutHistory(t: Tensor): Tensor {
  return new Tensor(t.storage, t.scalarType, [...t.sizes], [...t.strides], t.storageOffset, t.keySet);
}

/** A copy of `t` without autograd history. */
export function detachedClone(t: Tensor): Tensor {
  return aten().clone.call(withoutHistory(t), 0);
}

// Note [Stealing the gradient]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// accumulate_grad.h stores the first incoming gradient without a copy (`new_grad.detach()`) when grad mode is
// off, no other tensor references it (`new_grad.use_count() <= num_expected_refs`) and it obeys the gradient
// layout contract; otherwise it stores a copy. JS has no reference counts, so "no other reference" is what
// the engine can vouch for (`stealableGrads` in function.ts): a gradient a built-in node's backward made
// itself — not a tensor it was handed (a pass-through like add's `self: grad`), not one it returned on two
// edges, not the user's root gradient, and with no hook or custom Function around that could keep it — or
// the engine's own sum of two gradients. Anything else is copied as before. A stolen gradient may be a view
// of an engine gradient (a reshape's backward): its storage escapes the pass's scope with `.grad`.

/**
 * `obeys_layout_contract` (torch/csrc/autograd/utils/grad_layout_contract.h): `grad`'s strides are the
 * variable's in every dim of size > 1 when the variable is non-overlapping and dense, else grad is contiguous.
 */
export function obeysLayoutContract(grad: Tensor, variable: Tensor): boolean {
  if (!isNonOverlappingAndDense(variable)) return grad.isContiguous();
  if (grad.sizes.length !== variable.sizes.length) return false;
  for (let d = 0; d < grad.sizes.length; d++) {
    if (grad.sizes[d] !== variable.sizes[d]) return false;
    if ((grad.sizes[d] as number) !== 1 && grad.strides[d] !== variable.strides[d]) return false;
  }
  return true;
}

/**
 * AccumulateGrad's update of `.grad`: the first gradient is stored by reference when `stealable` (the engine
 * vouches that nothing else holds it), grad mode is off and it obeys the layout contract, else as a copy
 * (Note [Stealing the gradient]); later ones are added in place, or out of place with history when grad mode
 * is on (create_graph), as accumulate_grad.h does.
 */
export function accumulateInto(old: Tensor | null, grad: Tensor, gradMode: boolean, variable: Tensor = grad, stealable = false): Tensor {
  if (old === null) {
    // `new_grad.detach()`, dispatched (a mode sees aten.detach.default, as PyTorch's does)
    if (!gradMode && stealable && obeysLayoutContract(grad, variable)) return grad.detach();
    if (!gradMode) return aten().clone.call(withoutHistory(grad), 0);
    // clone_obey_contract: new_empty_strided(variable's geometry).copy_(grad), so the new .grad's history is
    // CopyBackwards (the variable's strides: the incoming gradient may be an expanded, overlapping view).
    const strides = variable.isContiguous() ? contiguousStrides(variable.sizes) : [...variable.strides];
    const fresh = aten().empty_strided.call([...variable.sizes], strides, grad.scalarType, null, grad.device, null);
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
  const result = aten().empty_strided.call(baseSizes, baseStrides, grad.scalarType, null, grad.device, null);
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
  const result = aten().empty_strided.call(baseSizes, baseStrides, grad.scalarType, null, grad.device, null);
  aten().zero_.call(result);
  const slice = aten().as_strided.call(result, viewSizes, viewStrides, offset);
  aten().add__Tensor.call(slice, grad, 1);
  return result;
}
