// multi_margin_loss and its backward: the multi-class hinge loss, sum over d != y of
// max(0, margin - x[y] + x[d])^p (times weight[y]) / dim per sample. Mirrors
// aten/src/ATen/native/LossMultiMargin.cpp and the shape check of LossMulti.h.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, notImplementedForDtype, scalarTypeToString } from '../c10/ScalarType.js';
import type { Tensor } from '../tensor/Tensor.js';
import { contiguousOf, elementReader, emptyLike, storedElements } from './StorageAccess.js';
import { writeElement } from '../tensor/elements.js';
import { Reduction } from './Loss.js';

const sizesOf = (t: Tensor): string => `[${t.sizes.join(', ')}]`;

/** `multi_margin_loss_shape_check` (LossMulti.h): [nframe, dim]. */
function shapeCheck(input: Tensor, target: Tensor, weight: Tensor | null): [number, number] {
  const ndims = input.dim();
  if (!((ndims === 2 && input.sizes[1] !== 0) || (ndims === 1 && input.sizes[0] !== 0) || ndims === 0)) {
    throw new Error(`Expected non-empty vector or matrix with optional 0-dim batch size, but got: ${sizesOf(input)}`);
  }
  const nframe = ndims <= 1 ? 1 : (input.sizes[0] as number);
  const dim = ndims <= 1 ? (ndims === 0 ? 1 : (input.sizes[0] as number)) : (input.sizes[1] as number);
  if (!(target.dim() <= 1 && target.numel() === nframe)) {
    throw new Error(
      `multi_margin_loss: target tensor should be 1-D with size equal to the number of input samples (batch size). Expected target size [${nframe}], but got ${sizesOf(target)}. Input has shape ${sizesOf(input)}.`,
    );
  }
  if (weight !== null && !(weight.dim() <= 1 && weight.numel() === dim)) {
    throw new Error(`inconsistent weight size, expected ${dim} but got ${sizesOf(weight)}`);
  }
  return [nframe, dim];
}

/** AT_DISPATCH_FLOATING_TYPES, then `data_ptr<int64_t>` of the target and `data_ptr<scalar_t>` of the weight. */
function checkDtypes(input: Tensor, target: Tensor, weight: Tensor | null, op: string): (v: number) => number {
  const dtype = input.scalarType;
  if (dtype !== ScalarType.Float && dtype !== ScalarType.Double) throw notImplementedForDtype(op, dtype);
  if (target.scalarType !== ScalarType.Long)
    throw new Error(`expected scalar type Long but found ${scalarTypeToString(target.scalarType)}`);
  if (weight !== null && weight.scalarType !== dtype) {
    throw new Error(`expected scalar type ${scalarTypeToString(dtype)} but found ${scalarTypeToString(weight.scalarType)}`);
  }
  return dtype === ScalarType.Float ? Math.fround : (v) => v;
}

function targetIndex(t: (e: number) => number, i: number, dim: number): number {
  const idx = t(i);
  if (!(idx >= 0 && idx < dim)) throw new Error('target out of range');
  return idx;
}

function checkP(p: number | boolean): number {
  const pi = Math.trunc(Number(p));
  if (pi !== 1 && pi !== 2) throw new Error('only p == 1 and p == 2 supported');
  return pi;
}

/** `multi_margin_loss(self, target, p=1, margin=1, weight=None, reduction=Mean)` (multi_margin_loss_cpu). */
export function multiMarginLoss(
  _ks: DispatchKeySet,
  input: Tensor,
  target: Tensor,
  p: number | boolean = 1,
  margin: number | boolean = 1,
  weight: Tensor | null = null,
  reduction: number = Reduction.Mean,
): Tensor {
  const pi = checkP(p);
  const [nframe, dim] = shapeCheck(input, target, weight);
  // (on Meta, PyTorch's decomposition: a per-sample loss of a vector's one sample is [1])
  const perSample = reduction === Reduction.None && (target.dim() > 0 || input.isMeta());
  const output = emptyLike(input, perSample ? [nframe] : []);
  if (input.numel() === 0 || output.isMeta()) return output;
  const r = checkDtypes(input, target, weight, 'multi_margin_loss_cpu_kernel');
  const [ci, ct, cw] = [contiguousOf(input), contiguousOf(target), weight === null ? null : contiguousOf(weight)];
  const [x, t, w] = [elementReader(ci), elementReader(ct), cw === null ? null : elementReader(cw)];
  const m = r(Number(margin));
  // multi_margin_inner_sum_cpu: in scalar_t
  const innerSum = (row: number, idx: number): number => {
    const xt = x(row + idx);
    let sum = 0;
    for (let d = 0; d < dim; d++) {
      if (d === idx) continue;
      const z = r(r(m - xt) + x(row + d));
      if (z > 0) {
        let h = pi === 1 ? z : r(z * z);
        if (w !== null) h = r(h * w(idx));
        sum = r(sum + h);
      }
    }
    return r(sum / dim);
  };
  const y = storedElements(output);
  if (perSample) {
    for (let i = 0; i < nframe; i++) writeElement(output.scalarType, y.data, y.base + i, innerSum(i * dim, targetIndex(t, i, dim)));
  } else {
    let sum = 0; // accscalar_t: double
    for (let i = 0; i < nframe; i++) sum += innerSum(i * dim, targetIndex(t, i, dim));
    if (reduction === Reduction.Mean) sum /= nframe;
    writeElement(output.scalarType, y.data, y.base, sum);
  }
  return output;
}

/** `multi_margin_loss_backward(grad_output, self, target, p, margin, weight=None, reduction=Mean)`. */
export function multiMarginLossBackward(
  _ks: DispatchKeySet,
  gradOutput: Tensor,
  input: Tensor,
  target: Tensor,
  p: number | boolean,
  margin: number | boolean,
  weight: Tensor | null = null,
  reduction: number = Reduction.Mean,
): Tensor {
  const pi = checkP(p);
  const [nframe, dim] = shapeCheck(input, target, weight);
  const gradInput = emptyLike(input, [...input.sizes]);
  if (input.numel() === 0 || gradInput.isMeta()) return gradInput;
  const r = checkDtypes(input, target, weight, 'multi_margin_loss_backward_cpu_kernel');
  const [ci, ct, cw, cg] = [
    contiguousOf(input),
    contiguousOf(target),
    weight === null ? null : contiguousOf(weight),
    contiguousOf(gradOutput),
  ];
  const [x, t, w, go] = [elementReader(ci), elementReader(ct), cw === null ? null : elementReader(cw), elementReader(cg)];
  const g = r(reduction === Reduction.Mean ? 1 / (nframe * dim) : 1 / dim);
  const m = r(Number(margin));
  const out = new Float64Array(nframe * dim);
  for (let i = 0; i < nframe; i++) {
    const row = i * dim;
    const idx = targetIndex(t, i, dim);
    const xt = x(row + idx);
    let gt = 0;
    for (let d = 0; d < dim; d++) {
      if (d === idx) continue;
      const z = r(r(m - xt) + x(row + d));
      if (z > 0) {
        let h = pi === 1 ? g : r(r(2 * g) * z);
        if (w !== null) h = r(h * w(idx));
        gt = r(gt - h);
        out[row + d] = h;
      } else out[row + d] = 0;
    }
    out[row + idx] = gt;
  }
  const scalarGrad = reduction !== Reduction.None || gradOutput.dim() === 0;
  const y = storedElements(gradInput);
  for (let e = 0; e < nframe * dim; e++) {
    const s = scalarGrad ? go(0) : go(Math.floor(e / dim));
    writeElement(gradInput.scalarType, y.data, y.base + e, r((out[e] as number) * s));
  }
  return gradInput;
}
