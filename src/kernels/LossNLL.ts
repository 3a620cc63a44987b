// nll_loss, nll_loss_nd and cross_entropy_loss (ignore_index, weights, label smoothing). Mirrors
// aten/src/ATen/native/LossNLL.cpp (and LossNLL2d.cpp for the image case).

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isFloatingType, scalarTypeToString } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';
import { Reduction, reduceLoss } from './Loss.js';
import { writeElement } from '../tensor/elements.js';
import { contiguousOf, elementReader, emptyLike, storedElements } from './StorageAccess.js';
import { floatDtype } from './SoftMax.js';
import * as at from '../generated/TensorBody.js';
import { wrapScalar } from '../tensor/ScalarOps.js';

/**
 * `nll_loss_nd(self, target, weight=None, reduction=Mean, ignore_index=-100)`: input [N, C, ...] or [C]
 * of log-probabilities, target [N, ...] of class indices.
 */
export function nllLoss(
  _ks: DispatchKeySet,
  self: Tensor,
  target: Tensor,
  weight: Tensor | null = null,
  reduction: number = Reduction.Mean,
  ignoreIndex = -100,
): Tensor {
  // The checks in PyTorch's order: nll_loss_nd, nll_loss_forward's meta (ranks, sizes, target dtype, weight),
  // then the kernel's dispatch on the input dtype.
  if (self.dim() < 1) throw new Error(`Expected 1 or more dimensions (got ${self.dim()})`);
  if (self.dim() !== 1 && target.dim() > 0 && self.sizes[0] !== target.sizes[0]) {
    throw new Error(`Expected input batch_size (${self.sizes[0]}) to match target batch_size (${target.sizes[0]}).`);
  }
  if (self.dim() <= 2 && target.dim() > 1) throw new Error('0D or 1D target tensor expected, multi-target not supported');
  if (self.dim() === 1 && target.dim() === 1 && target.sizes[0] !== 1) {
    throw new Error(`For 1D input, 1D target must have size 1, but got target size: ${target.sizes[0]}`);
  }
  const batched = self.dim() >= 2;
  const n = batched ? (self.sizes[0] as number) : 1;
  const c = batched ? (self.sizes[1] as number) : (self.sizes[0] as number);
  const expectedTarget = batched ? [n, ...self.sizes.slice(2)] : [];
  if (target.scalarType !== ScalarType.Long && target.scalarType !== ScalarType.Byte) {
    throw new Error(`expected target dtype to be Long or Byte, but got ${scalarTypeToString(target.scalarType)}`);
  }
  if (target.dim() !== expectedTarget.length || target.sizes.some((s, i) => s !== expectedTarget[i])) {
    throw new Error(
      batched && self.dim() === 2
        ? `Expected input batch_size (${n}) to match target batch_size (${target.sizes[0] ?? 0}).`
        : `size mismatch (got input: [${self.sizes.join(', ')}] , target: [${target.sizes.join(', ')}]`,
    );
  }
  if (weight !== null && weight.numel() !== c) {
    throw new Error(
      `weight tensor should be defined either for all ${c} classes or no classes but got weight tensor of shape: [${weight.sizes.join(', ')}]`,
    );
  }
  floatDtype(self, self.dim() <= 2 ? 'nll_loss_out_frame' : 'nll_loss2d_forward_out_frame');
  if (self.isMeta()) return reduceLoss(self, [], reduction === Reduction.None ? expectedTarget : [], reduction);
  const [cx, ct, cw] = [contiguousOf(self), contiguousOf(target), weight === null ? null : contiguousOf(weight)];
  const x = elementReader(cx);
  const t = elementReader(ct);
  const w = cw === null ? null : elementReader(cw);
  let inner = 1;
  for (const s of self.sizes.slice(2)) inner *= s;
  const losses: number[] = [];
  let weightSum = 0;
  for (let b = 0; b < n; b++) {
    for (let i = 0; i < inner; i++) {
      const cls = t(b * inner + i);
      if (cls === ignoreIndex) {
        losses.push(0);
        continue;
      }
      if (cls < 0 || cls >= c) throw new Error(`Target ${cls} is out of bounds.`);
      const wi = w === null ? 1 : w(cls);
      weightSum += wi;
      losses.push(-wi * x((b * c + cls) * inner + i));
    }
  }
  return reduceLoss(self, losses, expectedTarget, reduction, weightSum);
}

/**
 * The total weight nll_loss's mean divides by: the weights of the targets not ignored (their count without
 * weights), as nll_loss_forward's second output, a 0-dim tensor of self's dtype. PyTorch's forward returns it;
 * here nll_loss returns the loss alone, so its backward formula asks for it (one pass over the target, no
 * dispatch). Targets out of range were rejected by the forward.
 */
export function nllLossTotalWeight(self: Tensor, target: Tensor, weight: Tensor | null, ignoreIndex: number): Tensor {
  const out = emptyLike(self, []);
  // Meta and fake tensors (FakeTensorMode: real device, no data) have no values to sum.
  if (out.isMeta() || target.storage.buffer === null || (weight !== null && weight.storage.buffer === null)) return out;
  const t = elementReader(contiguousOf(target));
  const w = weight === null ? null : elementReader(contiguousOf(weight));
  let total = 0;
  for (let i = 0, n = target.numel(); i < n; i++) {
    const cls = t(i);
    if (cls !== ignoreIndex) total += w === null ? 1 : w(cls);
  }
  const y = storedElements(out);
  writeElement(out.scalarType, y.data, y.base, total);
  return out;
}

/**
 * `nll_loss_backward(grad_output, self, target, weight, reduction, ignore_index, total_weight)` and
 * `nll_loss2d_backward` (any number of spatial dims, as nll_loss2d here): zeros of self's shape, with
 * `-w[t] · g` at each target class that is not ignored, g = grad_output (per sample for reduction None,
 * else its one value, divided by total_weight for Mean). Rounded as PyTorch's CPU kernels do, each step in
 * the dtype: `-(g / total_weight)` first, then times the weight.
 */
export function nllLossBackward(
  _ks: DispatchKeySet,
  gradOutput: Tensor,
  self: Tensor,
  target: Tensor,
  weight: Tensor | null,
  reduction: number,
  ignoreIndex: number,
  totalWeight: Tensor,
): Tensor {
  // nll_loss_backward's meta checks, in PyTorch's order.
  if (self.dim() < 1) throw new Error('input tensor should be 1D or 2D');
  if (self.dim() <= 2 && target.dim() > 1) throw new Error('0D or 1D target tensor expected, multi-target not supported');
  const batched = self.dim() >= 2;
  if (batched && target.sizes[0] !== self.sizes[0]) {
    throw new Error(`size mismatch (got input: [${self.sizes.join(', ')}], target: [${target.sizes.join(', ')}])`);
  }
  if (totalWeight.numel() !== 1) {
    throw new Error(
      `expected total_weight to be a single element tensor, got: [${totalWeight.sizes.join(', ')}] (${totalWeight.numel()} elements)`,
    );
  }
  const c = batched ? (self.sizes[1] as number) : (self.sizes[0] as number);
  if (weight !== null && weight.numel() !== c) throw new Error('weight tensor should be defined either for all or no classes');
  const perSample = reduction === Reduction.None && batched;
  if (perSample ? gradOutput.numel() !== target.numel() : gradOutput.numel() !== 1) {
    throw new Error(
      perSample
        ? `Expected a tensor of dimension ${target.dim()} and tensor.size[0] == ${target.sizes[0] ?? 1} but got: dimension ${gradOutput.dim()} and tensor.size[0] == ${gradOutput.sizes[0] ?? 1}`
        : `Expected a single element grad_output tensor, but got: [${gradOutput.sizes.join(', ')}]`,
    );
  }
  const out = emptyLike(self, [...self.sizes]);
  if (out.isMeta() || gradOutput.isMeta() || target.isMeta()) return out;
  const round = self.scalarType === ScalarType.Float ? Math.fround : (v: number): number => v;
  const y = storedElements(out);
  const dtype = out.scalarType;
  const numel = out.numel();
  for (let e = 0; e < numel; e++) writeElement(dtype, y.data, y.base + e * y.lanes, 0);
  const t = elementReader(contiguousOf(target));
  const g = elementReader(contiguousOf(gradOutput));
  const w = weight === null ? null : elementReader(contiguousOf(weight));
  const n = batched ? (self.sizes[0] as number) : 1;
  let inner = 1;
  for (let d = 2; d < self.dim(); d++) inner *= self.sizes[d] as number;
  const scaled = perSample ? 0 : -(reduction === Reduction.Mean ? round(g(0) / elementReader(contiguousOf(totalWeight))(0)) : g(0));
  for (let b = 0; b < n; b++) {
    for (let i = 0; i < inner; i++) {
      const cls = t(b * inner + i);
      if (cls === ignoreIndex) continue;
      if (cls < 0 || cls >= c) throw new Error(`Target ${cls} is out of bounds.`);
      const wi = w === null ? 1 : w(cls);
      const v = perSample ? -round(wi * g(b * inner + i)) : round(wi * scaled);
      writeElement(dtype, y.data, y.base + ((b * c + cls) * inner + i) * y.lanes, v);
    }
  }
  return out;
}

/**
 * `nll_loss_nd(self, target, weight, reduction, ignore_index)`, CompositeImplicitAutograd as in PyTorch:
 * `nll_loss` for 1-D and 2-D inputs, `nll_loss2d` otherwise, so autograd records NllLossBackward0 or
 * NllLoss2DBackward0 as PyTorch does.
 */
export function nllLossNd(
  _ks: DispatchKeySet,
  self: Tensor,
  target: Tensor,
  weight: Tensor | null = null,
  reduction: number = Reduction.Mean,
  ignoreIndex = -100,
): Tensor {
  if (self.dim() < 1) throw new Error(`Expected 1 or more dimensions (got ${self.dim()})`);
  return self.dim() <= 2
    ? aten().nll_loss.call(self, target, weight, reduction, ignoreIndex)
    : aten().nll_loss2d.call(self, target, weight, reduction, ignoreIndex);
}

// Note [cross_entropy as a composite]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// As in PyTorch (LossNLL.cpp, cross_entropy_loss_symint), cross_entropy_loss is CompositeImplicitAutograd:
// log_softmax then nll_loss_nd for class indices; with label smoothing, (1 - ε) nll + ε/C times the smoothed
// term; for class probabilities, -Σ w p log q reduced. Every step goes through the dispatcher, so autograd
// differentiates the decomposition (grad_fn=<NllLossBackward0> for the plain case, as PyTorch prints), Meta
// tensors work, and double backward comes for free.

/** `cross_entropy_loss(self, target, weight=None, reduction=Mean, ignore_index=-100, label_smoothing=0)`. */
export function crossEntropy(
  _ks: DispatchKeySet,
  self: Tensor,
  target: Tensor,
  weight: Tensor | null = null,
  reduction: number = Reduction.Mean,
  ignoreIndex = -100,
  labelSmoothing = 0,
): Tensor {
  if (labelSmoothing > 1) throw new Error(`label_smoothing must be between 0.0 and 1.0. Got: ${labelSmoothing}`);
  const ops = aten();
  const classDim = self.dim() === 1 ? 0 : 1;
  const c = self.sizes[classDim] as number;
  const broadcastWeight = (w: Tensor): Tensor =>
    self.dim() > 1
      ? ops.view.call(
          w,
          self.sizes.map((_, i) => (i === classDim ? (w.sizes[0] as number) : 1)),
        )
      : w;
  // A target of the input's shape holds class probabilities, any other one class indices.
  if (target.sizes.length === self.sizes.length && target.sizes.every((s, i) => s === self.sizes[i])) {
    if (!isFloatingType(target.scalarType)) {
      throw new Error(`Expected floating point type for target with class probabilities, got ${scalarTypeToString(target.scalarType)}`);
    }
    if (ignoreIndex >= 0) throw new Error('ignore_index is not supported for floating point target');
    const input = ops.log_softmax_int.call(self, classDim, self.scalarType);
    const t =
      labelSmoothing > 0 ? at.add_Tensor(at.mul_Tensor(target, wrapScalar(1 - labelSmoothing)), wrapScalar(labelSmoothing / c)) : target;
    const prod = weight === null ? at.mul_Tensor(input, t) : at.mul_Tensor(at.mul_Tensor(input, t), broadcastWeight(weight));
    if (reduction === Reduction.None) return at.neg(at.sum_dim_IntList(prod, [classDim]));
    const total = at.neg(at.sum(prod));
    if (reduction === Reduction.Sum) return total;
    if (input.numel() === 0) return at.fill__Scalar(total, NaN);
    return ops.div_Scalar.call(total, input.numel() / c); // C++'s `tensor / n`: div.Scalar (DivBackward1)
  }
  const input = ops.log_softmax_int.call(self, classDim, self.scalarType);
  const nll = ops.nll_loss_nd.call(input, target, weight, reduction, ignoreIndex);
  if (labelSmoothing <= 0) return nll;
  const ignoreMask = at.eq_Scalar(target, ignoreIndex);
  const smooth = at.neg(
    weight === null ? at.sum_dim_IntList(input, [classDim]) : at.sum_dim_IntList(at.mul_Tensor(input, broadcastWeight(weight)), [classDim]),
  );
  at.masked_fill__Scalar(smooth, ignoreMask, 0);
  let ret: Tensor;
  if (reduction === Reduction.Mean) {
    ret =
      weight === null
        ? at.div_Tensor(at.sum(smooth), at.sum(at.logical_not(ignoreMask)))
        : at.div_Tensor(
            at.sum(smooth),
            at.sum(at.gather(weight, 0, at.flatten_using_ints(at.masked_select(target, at.logical_not(ignoreMask))))),
          );
  } else if (reduction === Reduction.Sum) ret = at.sum(smooth);
  else ret = smooth;
  return at.add_Tensor(at.mul_Tensor(nll, wrapScalar(1 - labelSmoothing)), at.mul_Tensor(ret, wrapScalar(labelSmoothing / c)));
}
