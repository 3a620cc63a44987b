// Pointwise losses and the reduction argument: mse_loss, l1_loss, binary_cross_entropy(_with_logits). Mirrors
// aten/src/ATen/native/Loss.cpp and ATen/core/Reduction.h, with torch/nn/functional.py's argument handling.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { isComplexType, isFloatingType, scalarTypeToString } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import { inferSize } from '../tensor/ExpandUtils.js';
import type { Tensor } from '../tensor/Tensor.js';
import { writeElement } from '../tensor/elements.js';
import { contiguousOf, elementReader, emptyLike, storedElements } from './StorageAccess.js';
import { floatDtype } from './SoftMax.js';
import * as at from '../generated/TensorBody.js';

/** PyTorch's at::Reduction enum, as `int reduction` arguments carry it. */
export const Reduction = { None: 0, Mean: 1, Sum: 2 } as const;

/** `F.*_loss(..., reduction='mean')`: the string form torch.nn.functional takes. */
export function reductionOf(name: string): number {
  switch (name) {
    case 'none':
      return Reduction.None;
    case 'mean':
      return Reduction.Mean;
    case 'sum':
      return Reduction.Sum;
    default:
      throw new Error(`${name} is not a valid value for reduction`);
  }
}

/** The loss tensor from per-element losses: as they are (None), or their sum or mean as a 0-dim tensor. */
export function reduceLoss(self: Tensor, losses: ArrayLike<number>, sizes: number[], reduction: number, divisor = losses.length): Tensor {
  const out = emptyLike(self, reduction === Reduction.None ? sizes : []);
  if (out.isMeta()) return out;
  const y = storedElements(out);
  if (reduction === Reduction.None) {
    for (let i = 0; i < losses.length; i++) writeElement(out.scalarType, y.data, y.base + i * y.lanes, losses[i] as number);
    return out;
  }
  let s = 0;
  for (let i = 0; i < losses.length; i++) s += losses[i] as number;
  writeElement(out.scalarType, y.data, y.base, reduction === Reduction.Mean ? s / divisor : s);
  return out;
}

/**
 * An elementwise loss over input and target broadcast together (as PyTorch's TensorIterator-based losses):
 * `f(x, y, e, extras)` for element e, with `extras` readers of further broadcast operands (weights).
 */
export function pointwiseLoss(
  self: Tensor,
  target: Tensor,
  reduction: number,
  f: (x: number, y: number, e: number, extras: ((e: number) => number)[]) => number,
  op: string,
  shape?: number[],
  extraOperands: Tensor[] = [],
): Tensor {
  const sizes = shape ?? inferSize(self.sizes, target.sizes);
  floatDtype(self, op);
  if (self.isMeta()) return reduceLoss(self, [], sizes, reduction);
  // Every copy first, then the readers (a growing memory replaces its buffer).
  const [cx, cy, ...ce] = [self, target, ...extraOperands].map((t) => contiguousOf(at.expand(t, sizes)));
  const [x, y] = [elementReader(cx as Tensor), elementReader(cy as Tensor)];
  const extras = ce.map(elementReader);
  let n = 1;
  for (const s of sizes) n *= s;
  const losses = new Float64Array(n);
  for (let e = 0; e < n; e++) losses[e] = f(x(e), y(e), e, extras);
  return reduceLoss(self, losses, sizes, reduction);
}

/** `output with shape [..] doesn't match the broadcast shape [..]`: an in-place op's output cannot grow. */
function checkInPlaceBroadcast(out: readonly number[], other: readonly number[]): number[] {
  const shape = inferSize(out, other);
  if (shape.length !== out.length || shape.some((s, i) => s !== out[i])) {
    throw new Error(`output with shape [${out.join(', ')}] doesn't match the broadcast shape [${shape.join(', ')}]`);
  }
  return shape;
}

/** `mse_loss(self, target, reduction=Mean)`. */
export function mseLoss(_ks: DispatchKeySet, self: Tensor, target: Tensor, reduction: number = Reduction.Mean): Tensor {
  return pointwiseLoss(self, target, reduction, (x, y) => (x - y) * (x - y), 'mse_cpu');
}

/** `l1_loss(self, target, reduction=Mean)`. */
export function l1Loss(_ks: DispatchKeySet, self: Tensor, target: Tensor, reduction: number = Reduction.Mean): Tensor {
  // CompositeImplicitAutograd as in PyTorch: (self - target).abs(), then apply_loss_reduction (MeanBackward0, ...).
  const loss = aten().abs.call(aten().sub_Tensor.call(self, target, 1));
  if (reduction === Reduction.Mean) return aten().mean.call(loss, null);
  if (reduction === Reduction.Sum) return aten().sum.call(loss, null);
  return loss;
}

/** `binary_cross_entropy(self, target, weight=None, reduction=Mean)`: log terms clamped at -100, as PyTorch. */
export function binaryCrossEntropy(
  _ks: DispatchKeySet,
  self: Tensor,
  target: Tensor,
  weight: Tensor | null = null,
  reduction: number = Reduction.Mean,
): Tensor {
  // PyTorch's TensorIterator over (input, target, weight): broadcast, one dtype, then the kernel's range check.
  let shape = inferSize(self.sizes, target.sizes);
  if (weight !== null) shape = inferSize(shape, weight.sizes);
  for (const t of weight === null ? [target] : [target, weight]) {
    if (t.scalarType !== self.scalarType)
      throw new Error(`Found dtype ${scalarTypeToString(t.scalarType)} but expected ${scalarTypeToString(self.scalarType)}`);
  }
  floatDtype(self, 'binary_cross_entropy');
  if (!self.isMeta()) {
    const check = contiguousOf(self);
    const x = elementReader(check);
    for (let e = 0; e < check.numel(); e++) {
      const v = x(e);
      if (!(v >= 0 && v <= 1)) throw new Error('all elements of input should be between 0 and 1');
    }
  }
  return pointwiseLoss(
    self,
    target,
    reduction,
    (x, y, e, [w]) => {
      const l = -(y * Math.max(Math.log(x), -100) + (1 - y) * Math.max(Math.log(1 - x), -100));
      return w === undefined ? l : l * w(e);
    },
    'binary_cross_entropy',
    shape,
    weight === null ? [] : [weight],
  );
}

/** `binary_cross_entropy_with_logits(self, target, weight=None, pos_weight=None, reduction=Mean)`. */
export function binaryCrossEntropyWithLogits(
  _ks: DispatchKeySet,
  self: Tensor,
  target: Tensor,
  weight: Tensor | null = null,
  posWeight: Tensor | null = null,
  reduction: number = Reduction.Mean,
): Tensor {
  // PyTorch's composite: log_sigmoid(input).mul_((pos_weight - 1) * target + 1), then
  // (1 - target).mul_(input).sub_(that), then .mul_(weight): the same broadcast checks, in that order.
  floatDtype(self, 'log_sigmoid_cpu');
  if (posWeight !== null) checkInPlaceBroadcast(self.sizes, inferSize(posWeight.sizes, target.sizes));
  const shape = checkInPlaceBroadcast(target.sizes, self.sizes);
  checkInPlaceBroadcast(shape, self.sizes);
  if (weight !== null) checkInPlaceBroadcast(shape, weight.sizes);
  // The extra operands, in order: pos_weight (if any), then weight (if any).
  const extraOperands = [...(posWeight === null ? [] : [posWeight]), ...(weight === null ? [] : [weight])];
  return pointwiseLoss(
    self,
    target,
    reduction,
    (x, y, e, extras) => {
      // log(1 + e^-x) computed stably; with pos_weight p: (1 - y) x + (1 + (p - 1) y) log(1 + e^-x)
      const logSig = Math.max(-x, 0) + Math.log(Math.exp(-Math.abs(x)) + 1);
      const pw = posWeight === null ? undefined : extras[0];
      const w = weight === null ? undefined : extras[posWeight === null ? 0 : 1];
      const p = pw === undefined ? 1 : pw(e);
      const l = (1 - y) * x + (1 + (p - 1) * y) * logSig;
      return w === undefined ? l : l * w(e);
    },
    'binary_cross_entropy_with_logits',
    shape,
    extraOperands,
  );
}

// ---- smooth_l1_loss, huber_loss, kl_div --------------------------------------------------------------

/** `smooth_l1_loss(self, target, reduction=Mean, beta=1.)`: 0.5 z² / beta below beta, z - 0.5 beta above (z = |x - y|). */
export function smoothL1Loss(_ks: DispatchKeySet, self: Tensor, target: Tensor, reduction: number = Reduction.Mean, beta = 1): Tensor {
  if (beta < 0) throw new Error('smooth_l1_loss does not support negative values for beta.');
  return pointwiseLoss(
    self,
    target,
    reduction,
    (x, y) => {
      const z = Math.abs(x - y);
      return z < beta ? (0.5 * z * z) / beta : z - 0.5 * beta;
    },
    'smooth_l1_cpu',
  );
}

/** `huber_loss(self, target, reduction=Mean, delta=1.)`: 0.5 z² below delta, delta (z - 0.5 delta) above. */
export function huberLoss(_ks: DispatchKeySet, self: Tensor, target: Tensor, reduction: number = Reduction.Mean, delta = 1): Tensor {
  if (!(delta > 0)) throw new Error('huber_loss does not support non-positive values for delta.');
  return pointwiseLoss(
    self,
    target,
    reduction,
    (x, y) => {
      const z = Math.abs(x - y);
      return z < delta ? 0.5 * z * z : delta * (z - 0.5 * delta);
    },
    'huber_cpu',
  );
}

/**
 * `kl_div(self, target, reduction=Mean, *, log_target=False)`, CompositeImplicitAutograd (Loss.cpp):
 * `exp(target) * (target - self)` or `xlogy(target, target) - target * self`, then the reduction; xlogy is
 * `where(target == 0, 0, target * log(target))` with the log taken of a 1 where target is 0, so no NaN
 * reaches the gradient.
 */
export function klDiv(_ks: DispatchKeySet, self: Tensor, target: Tensor, reduction: number = Reduction.Mean, logTarget = false): Tensor {
  const ops = aten();
  if (isComplexType(self.scalarType) || isComplexType(target.scalarType)) throw new Error('kl_div: Complex inputs not supported.');
  if (!isFloatingType(self.scalarType) || !isFloatingType(target.scalarType)) throw new Error('kl_div: Integral inputs not supported.');
  let output: Tensor;
  if (logTarget) output = ops.mul_Tensor.call(ops.exp.call(target), ops.sub_Tensor.call(target, self, 1));
  else {
    const zero = ops.eq_Scalar.call(target, 0);
    const tlogt = ops.mul_Tensor.call(
      target,
      ops.log.call(ops.where_self.call(zero, ops.ones_like.call(target, null, null, null, null, null), target)),
    );
    const xlogy = ops.where_self.call(zero, ops.zeros_like.call(target, null, null, null, null, null), tlogt);
    output = ops.sub_Tensor.call(xlogy, ops.mul_Tensor.call(target, self), 1);
  }
  if (reduction === Reduction.Mean) return ops.mean.call(output, null);
  if (reduction === Reduction.Sum) return ops.sum.call(output, null);
  return output;
}
