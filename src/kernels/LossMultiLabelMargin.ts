// multilabel_margin_loss (CompositeImplicitAutograd over multilabel_margin_loss_forward, which also returns
// the is_target mask) and its backward: per sample, the targets are the labels before the first -1, and the
// loss sums max(0, 1 - x[j] + x[d]) over target labels j and non-target classes d, divided by dim. Mirrors
// aten/src/ATen/native/LossMultiLabelMargin.cpp and the shape check of LossMulti.h.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, notImplementedForDtype, scalarTypeToString } from '../c10/ScalarType.js';
import type { Tensor } from '../tensor/Tensor.js';
import { contiguousOf, elementReader, emptyLike, storedElements } from './StorageAccess.js';
import { writeElement } from '../tensor/elements.js';
import { Reduction } from './Loss.js';
import * as at from '../generated/TensorBody.js';

const sizesOf = (t: Tensor): string => `[${t.sizes.join(', ')}]`;

/** `multilabel_margin_loss_shape_check` (LossMulti.h): [nframe, dim]. */
function shapeCheck(input: Tensor, target: Tensor): [number, number] {
  const ndims = input.dim();
  if (!((ndims === 2 && input.sizes[1] !== 0) || (ndims === 1 && input.sizes[0] !== 0) || ndims === 0)) {
    throw new Error(`Expected non-empty vector or matrix with optional 0-dim batch size, but got: ${sizesOf(input)}`);
  }
  const inconsistent = (): Error => new Error(`inconsistent target size: ${sizesOf(target)} for input of size: ${sizesOf(input)}`);
  if (ndims <= 1) {
    const dim = ndims === 0 ? 1 : (input.sizes[0] as number);
    if (!(target.dim() <= 1 && target.numel() === dim)) throw inconsistent();
    return [1, dim];
  }
  const [nframe, dim] = input.sizes as [number, number];
  if (!(target.dim() === 2 && target.sizes[0] === nframe && target.sizes[1] === dim)) throw inconsistent();
  return [nframe, dim];
}

function checkDtypes(input: Tensor, target: Tensor, op: string): (v: number) => number {
  const dtype = input.scalarType;
  if (dtype !== ScalarType.Float && dtype !== ScalarType.Double) throw notImplementedForDtype(op, dtype);
  if (target.scalarType !== ScalarType.Long)
    throw new Error(`expected scalar type Long but found ${scalarTypeToString(target.scalarType)}`);
  return dtype === ScalarType.Float ? Math.fround : (v) => v;
}

/** `multilabel_margin_loss(self, target, reduction=Mean)`: the forward's first output (MultilabelMarginLossBackward0). */
export function multilabelMarginLoss(_ks: DispatchKeySet, self: Tensor, target: Tensor, reduction: number = Reduction.Mean): Tensor {
  return at.multilabel_margin_loss_forward(self, target, reduction)[0];
}

/** `multilabel_margin_loss_forward(self, target, reduction) -> (output, is_target)` (multilabel_margin_loss_forward_cpu). */
export function multilabelMarginLossForward(_ks: DispatchKeySet, input: Tensor, target: Tensor, reduction: number): [Tensor, Tensor] {
  const [nframe, dim] = shapeCheck(input, target);
  // (on Meta, PyTorch's decomposition: a per-sample loss of a vector's one sample is [1])
  const perSample = reduction === Reduction.None && (target.dim() > 1 || input.isMeta());
  const output = emptyLike(input, perSample ? [nframe] : []);
  const isTarget = emptyLike(input, [...target.sizes]);
  if (output.isMeta()) return [output, isTarget];
  at.zero_(isTarget);
  if (input.numel() === 0) return [output, isTarget];
  const ct = contiguousOf(target);
  const t0 = elementReader(ct);
  let lo = Infinity;
  let hi = -Infinity;
  for (let e = 0; e < ct.numel(); e++) {
    lo = Math.min(lo, t0(e));
    hi = Math.max(hi, t0(e));
  }
  if (!(lo >= -1) || !(hi < dim)) throw new Error("argument #2 'target' is out of range");
  const r = checkDtypes(input, target, 'multilabel_margin_loss_forward_out_frame');
  const ci = contiguousOf(input);
  const [x, t] = [elementReader(ci), elementReader(ct)];
  const mask = new Uint8Array(nframe * dim);
  // multilabel_margin_loss_forward_inner_sum_cpu: the sum in accscalar_t (double)
  const innerSum = (row: number): number => {
    for (let k = 0; k < dim; k++) {
      const j = t(row + k);
      if (j < 0) break;
      mask[row + j] = 1;
    }
    let sum = 0;
    for (let k = 0; k < dim; k++) {
      const j = t(row + k);
      if (j < 0) break;
      const xt = x(row + j);
      for (let d = 0; d < dim; d++) {
        if (mask[row + d] === 0) {
          const z = r(r(1 - xt) + x(row + d));
          if (z > 0) sum += z;
        }
      }
    }
    return sum;
  };
  const y = storedElements(output);
  if (reduction !== Reduction.None || output.dim() === 0) {
    let sum = 0;
    for (let i = 0; i < nframe; i++) sum += innerSum(i * dim);
    sum /= dim;
    if (reduction === Reduction.Mean) sum /= nframe;
    writeElement(output.scalarType, y.data, y.base, sum);
  } else {
    for (let i = 0; i < nframe; i++) writeElement(output.scalarType, y.data, y.base + i, r(r(innerSum(i * dim)) / dim));
  }
  const m = storedElements(isTarget);
  for (let e = 0; e < mask.length; e++) writeElement(isTarget.scalarType, m.data, m.base + e, mask[e] as number);
  return [output, isTarget];
}

/** `multilabel_margin_loss_backward(grad_output, self, target, reduction, is_target)`. */
export function multilabelMarginLossBackward(
  _ks: DispatchKeySet,
  gradOutput: Tensor,
  input: Tensor,
  target: Tensor,
  reduction: number,
  isTarget: Tensor,
): Tensor {
  const [nframe, dim] = shapeCheck(input, target);
  if (target.dim() !== isTarget.dim() || target.sizes.some((s, i) => s !== isTarget.sizes[i])) {
    throw new Error(
      `Expected tensor for argument #3 'target' to have same size as tensor for argument #5 'is_target'; but ${sizesOf(target)} does not equal ${sizesOf(isTarget)} (while checking arguments for multilabel_margin_loss_backward_cpu_template)`,
    );
  }
  const gradInput = emptyLike(input, [...input.sizes]);
  if (gradInput.numel() === 0 || gradInput.isMeta()) return gradInput;
  const r = checkDtypes(input, target, 'multilabel_margin_loss_backward_out_frame');
  const [ci, ct, cm, cg] = [input, target, isTarget, gradOutput].map(contiguousOf) as [Tensor, Tensor, Tensor, Tensor];
  const [x, t, mk, go] = [elementReader(ci), elementReader(ct), elementReader(cm), elementReader(cg)];
  for (let e = 0; e < cm.numel(); e++) {
    const v = mk(e);
    if (!(v >= 0 && v <= 1)) throw new Error("argument #5 'is_target' is out of range");
  }
  const g = r(reduction === Reduction.Mean ? 1 / (nframe * dim) : 1 / dim);
  const out = new Float64Array(nframe * dim);
  for (let i = 0; i < nframe; i++) {
    const row = i * dim;
    for (let k = 0; k < dim; k++) {
      const j = t(row + k);
      if (j < 0) break;
      const xt = x(row + j);
      for (let d = 0; d < dim; d++) {
        if (mk(row + d) === 0) {
          const z = r(r(1 - xt) + x(row + d));
          if (z > 0) {
            out[row + j] = r((out[row + j] as number) - g);
            out[row + d] = r((out[row + d] as number) + g);
          }
        }
      }
    }
  }
  const scalarGrad = reduction !== Reduction.None || gradOutput.dim() === 0;
  if (!scalarGrad && (gradOutput.dim() !== 1 || gradOutput.sizes[0] !== nframe)) {
    throw new Error(
      `Expected tensor to have size ${nframe} at dimension 0, but got size ${gradOutput.sizes[0] ?? 1} for argument #1 'grad_output' (while checking arguments for multilabel_margin_loss_backward_out_frame)`,
    );
  }
  const y = storedElements(gradInput);
  for (let e = 0; e < nframe * dim; e++) {
    const s = scalarGrad ? go(0) : go(Math.floor(e / dim));
    writeElement(gradInput.scalarType, y.data, y.base + e, r((out[e] as number) * s));
  }
  return gradInput;
}
