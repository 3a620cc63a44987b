// Pointwise losses and the reduction argument: mse_loss, l1_loss, binary_cross_entropy(_with_logits). Mirrors
// aten/src/ATen/native/Loss.cpp and ATen/core/Reduction.h, with torch/nn/functional.py's argument handling.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { scalarTypeToString } from '../c10/ScalarType.js';
import { inferSize } from '../tensor/ExpandUtils.js';
import type { Tensor } from '../tensor/Tensor.js';
import { numberValuesOf, tensorFromValues } from './rowMajor.js';
import { floatDtype } from './SoftMax.js';

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

export function reduceLoss(self: Tensor, losses: number[], sizes: number[], reduction: number, divisor = losses.length): Tensor {
  if (reduction === Reduction.None) return tensorFromValues(self, sizes, self.dtype, losses);
  let s = 0;
  for (const x of losses) s += x;
  return tensorFromValues(self, [], self.dtype, [reduction === Reduction.Mean ? s / divisor : s]);
}

/** An elementwise loss over input and target broadcast together (as PyTorch's TensorIterator-based losses). */
function pointwiseLoss(
  self: Tensor,
  target: Tensor,
  reduction: number,
  f: (x: number, y: number) => number,
  op: string,
  shape?: number[],
): Tensor {
  const sizes = shape ?? inferSize(self.sizes, target.sizes);
  floatDtype(self, op);
  const x = numberValuesOf(self.expand(sizes));
  const y = numberValuesOf(target.expand(sizes));
  return reduceLoss(
    self,
    x.map((v, i) => f(v, y[i] as number)),
    sizes,
    reduction,
  );
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
  return pointwiseLoss(self, target, reduction, (x, y) => Math.abs(x - y), 'l1_loss');
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
    if (t.dtype !== self.dtype)
      throw new Error(`Found dtype ${scalarTypeToString(t.dtype)} but expected ${scalarTypeToString(self.dtype)}`);
  }
  floatDtype(self, 'binary_cross_entropy');
  for (const v of numberValuesOf(self)) {
    if (!(v >= 0 && v <= 1)) throw new Error('all elements of input should be between 0 and 1');
  }
  const w = weight === null ? null : numberValuesOf(weight.expand(shape));
  let k = 0;
  return pointwiseLoss(
    self,
    target,
    reduction,
    (x, y) => {
      const l = -(y * Math.max(Math.log(x), -100) + (1 - y) * Math.max(Math.log(1 - x), -100));
      return w === null ? l : l * (w[k++] as number);
    },
    'binary_cross_entropy',
    shape,
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
  const w = weight === null ? null : numberValuesOf(weight.expand(shape));
  const pw = posWeight === null ? null : numberValuesOf(posWeight.expand(shape));
  let k = 0;
  return pointwiseLoss(
    self,
    target,
    reduction,
    (x, y) => {
      // log(1 + e^-x) computed stably; with pos_weight p: (1 - y) x + (1 + (p - 1) y) log(1 + e^-x)
      const logSig = Math.max(-x, 0) + Math.log(Math.exp(-Math.abs(x)) + 1);
      const p = pw === null ? 1 : (pw[k] as number);
      const l = (1 - y) * x + (1 + (p - 1) * y) * logSig;
      return w === null ? (k++, l) : l * (w[k++] as number);
    },
    'binary_cross_entropy_with_logits',
    shape,
  );
}
