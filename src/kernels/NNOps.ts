// Neural-network functions: softmax, log_softmax, nll_loss, cross_entropy, mse_loss, l1_loss,
// binary_cross_entropy(_with_logits), layer_norm, dropout. Mirrors aten/src/ATen/native/SoftMax.cpp,
// LossNLL.cpp, Loss.cpp, layer_norm.cpp, Dropout.cpp and torch/nn/functional.py's argument handling.

import { aten } from '../generated/Operators.js';
import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isFloatingType, scalarTypeToString } from '../c10/ScalarType.js';
import { bernoulliFill, type Generator } from '../random/index.js';
import type { Tensor } from '../tensor/Tensor.js';
import { inferSize } from '../tensor/ExpandUtils.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';
import { contiguousStrides } from '../tensor/TensorImpl.js';
import { numberValuesOf, tensorFromValues } from './rowMajor.js';
import { newStrided } from './TensorFactories.js';

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

function floatDtype(t: Tensor, op: string, dtype?: ScalarType | null): ScalarType {
  const d = dtype ?? t.dtype;
  if (!isFloatingType(d)) throw new Error(`"${op}" not implemented for '${scalarTypeToString(d)}'`);
  return d;
}

/** Applies `fn` to every line of `values` (shaped `sizes`) along `dim`, in place. */
function alongDim(values: number[], sizes: readonly number[], dim: number, fn: (line: number[]) => number[]): void {
  const size = sizes[dim] ?? 1;
  let inner = 1;
  for (let i = dim + 1; i < sizes.length; i++) inner *= sizes[i] as number;
  const outer = size === 0 || inner === 0 ? 0 : values.length / (size * inner);
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      const start = o * size * inner + i;
      const line = new Array<number>(size);
      for (let k = 0; k < size; k++) line[k] = values[start + k * inner] as number;
      const res = fn(line);
      for (let k = 0; k < size; k++) values[start + k * inner] = res[k] as number;
    }
  }
}

function softmaxLine(line: number[], log: boolean): number[] {
  let m = -Infinity;
  for (const x of line) m = x > m || x !== x ? x : m;
  let sum = 0;
  const e = line.map((x) => Math.exp(x - m));
  for (const x of e) sum += x;
  return log ? line.map((x) => x - m - Math.log(sum)) : e.map((x) => x / sum);
}

function softmaxImpl(self: Tensor, dim: number, dtype: ScalarType | null, log: boolean): Tensor {
  const outDtype = floatDtype(self, log ? 'log_softmax_lastdim_kernel_impl' : 'softmax_lastdim_kernel_impl', dtype);
  const d = maybeWrapDim(dim, self.dim());
  const values = numberValuesOf(self);
  if (!self.isMeta()) alongDim(values, self.dim() === 0 ? [1] : self.sizes, self.dim() === 0 ? 0 : d, (l) => softmaxLine(l, log));
  return tensorFromValues(self, [...self.sizes], outDtype, values);
}

/** `softmax.int(self, dim, dtype=None)`. */
export function softmax(_ks: DispatchKeySet, self: Tensor, dim: number, dtype: ScalarType | null = null): Tensor {
  return softmaxImpl(self, dim, dtype, false);
}

/** `log_softmax.int(self, dim, dtype=None)`. */
export function logSoftmax(_ks: DispatchKeySet, self: Tensor, dim: number, dtype: ScalarType | null = null): Tensor {
  return softmaxImpl(self, dim, dtype, true);
}

function reduceLoss(self: Tensor, losses: number[], sizes: number[], reduction: number, divisor = losses.length): Tensor {
  if (reduction === Reduction.None) return tensorFromValues(self, sizes, self.dtype, losses);
  let s = 0;
  for (const x of losses) s += x;
  return tensorFromValues(self, [], self.dtype, [reduction === Reduction.Mean ? s / divisor : s]);
}

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
  if (target.dtype !== ScalarType.Long && target.dtype !== ScalarType.Byte) {
    throw new Error(`expected target dtype to be Long or Byte, but got ${scalarTypeToString(target.dtype)}`);
  }
  if (target.dim() !== expectedTarget.length || target.sizes.some((s, i) => s !== expectedTarget[i])) {
    throw new Error(
      batched && self.dim() === 2
        ? `Expected input batch_size (${n}) to match target batch_size (${target.sizes[0] ?? 0}).`
        : `size mismatch (got input: [${self.sizes.join(', ')}] , target: [${target.sizes.join(', ')}]`,
    );
  }
  if (weight !== null && weight.numel !== c) {
    throw new Error(`weight tensor should be defined either for all ${c} classes or no classes but got weight tensor of shape: [${weight.sizes.join(', ')}]`);
  }
  floatDtype(self, self.dim() <= 2 ? 'nll_loss_out_frame' : 'nll_loss2d_forward_out_frame');
  if (self.isMeta()) return reduceLoss(self, [], reduction === Reduction.None ? expectedTarget : [], reduction);
  const x = numberValuesOf(self);
  const t = numberValuesOf(target);
  const w = weight === null ? null : numberValuesOf(weight);
  let inner = 1;
  for (const s of self.sizes.slice(2)) inner *= s;
  const losses: number[] = [];
  let weightSum = 0;
  for (let b = 0; b < n; b++) {
    for (let i = 0; i < inner; i++) {
      const cls = t[b * inner + i] as number;
      if (cls === ignoreIndex) {
        losses.push(0);
        continue;
      }
      if (cls < 0 || cls >= c) throw new Error(`Target ${cls} is out of bounds.`);
      const wi = w === null ? 1 : (w[cls] as number);
      weightSum += wi;
      losses.push(-wi * (x[(b * c + cls) * inner + i] as number));
    }
  }
  return reduceLoss(self, losses, expectedTarget, reduction, weightSum);
}

/**
 * `nll_loss_nd(self, target, weight, reduction, ignore_index)`, CompositeImplicitAutograd as in PyTorch:
 * `nll_loss` for 1-D and 2-D inputs, `nll_loss2d` otherwise, so autograd records NllLossBackward0 or
 * NllLoss2DBackward0 as PyTorch does.
 */
export function nllLossNd(_ks: DispatchKeySet, self: Tensor, target: Tensor, weight: Tensor | null = null, reduction: number = Reduction.Mean, ignoreIndex = -100): Tensor {
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
    self.dim() > 1 ? ops.view.call(w, self.sizes.map((_, i) => (i === classDim ? (w.sizes[0] as number) : 1))) : w;
  // A target of the input's shape holds class probabilities, any other one class indices.
  if (target.sizes.length === self.sizes.length && target.sizes.every((s, i) => s === self.sizes[i])) {
    if (!isFloatingType(target.dtype)) {
      throw new Error(`Expected floating point type for target with class probabilities, got ${scalarTypeToString(target.dtype)}`);
    }
    if (ignoreIndex >= 0) throw new Error('ignore_index is not supported for floating point target');
    const input = ops.log_softmax_int.call(self, classDim, self.dtype);
    const t = labelSmoothing > 0 ? target.mul(1 - labelSmoothing).add(labelSmoothing / c) : target;
    const prod = weight === null ? input.mul(t) : input.mul(t).mul(broadcastWeight(weight));
    if (reduction === Reduction.None) return prod.sum(classDim).neg();
    const total = prod.sum().neg();
    if (reduction === Reduction.Sum) return total;
    if (input.numel === 0) return total.fill_(NaN);
    return total.div(input.numel / c);
  }
  const input = ops.log_softmax_int.call(self, classDim, self.dtype);
  const nll = ops.nll_loss_nd.call(input, target, weight, reduction, ignoreIndex);
  if (labelSmoothing <= 0) return nll;
  const ignoreMask = target.eq(ignoreIndex);
  const smooth = (weight === null ? input.sum(classDim) : input.mul(broadcastWeight(weight)).sum(classDim)).neg();
  smooth.masked_fill_(ignoreMask, 0);
  let ret: Tensor;
  if (reduction === Reduction.Mean) {
    ret =
      weight === null
        ? smooth.sum().div(ignoreMask.logical_not().sum())
        : smooth.sum().div(weight.gather(0, target.masked_select(ignoreMask.logical_not()).flatten()).sum());
  } else if (reduction === Reduction.Sum) ret = smooth.sum();
  else ret = smooth;
  return nll.mul(1 - labelSmoothing).add(ret.mul(labelSmoothing / c));
}

/** An elementwise loss over input and target broadcast together (as PyTorch's TensorIterator-based losses). */
function pointwiseLoss(self: Tensor, target: Tensor, reduction: number, f: (x: number, y: number) => number, op: string, shape?: number[]): Tensor {
  const sizes = shape ?? inferSize(self.sizes, target.sizes);
  floatDtype(self, op);
  const x = numberValuesOf(self.expand(sizes));
  const y = numberValuesOf(target.expand(sizes));
  return reduceLoss(self, x.map((v, i) => f(v, y[i] as number)), sizes, reduction);
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
export function binaryCrossEntropy(_ks: DispatchKeySet, self: Tensor, target: Tensor, weight: Tensor | null = null, reduction: number = Reduction.Mean): Tensor {
  // PyTorch's TensorIterator over (input, target, weight): broadcast, one dtype, then the kernel's range check.
  let shape = inferSize(self.sizes, target.sizes);
  if (weight !== null) shape = inferSize(shape, weight.sizes);
  for (const t of weight === null ? [target] : [target, weight]) {
    if (t.dtype !== self.dtype) throw new Error(`Found dtype ${scalarTypeToString(t.dtype)} but expected ${scalarTypeToString(self.dtype)}`);
  }
  floatDtype(self, 'binary_cross_entropy');
  for (const v of numberValuesOf(self)) {
    if (!(v >= 0 && v <= 1)) throw new Error('all elements of input should be between 0 and 1');
  }
  const w = weight === null ? null : numberValuesOf(weight.expand(shape));
  let k = 0;
  return pointwiseLoss(self, target, reduction, (x, y) => {
    const l = -(y * Math.max(Math.log(x), -100) + (1 - y) * Math.max(Math.log(1 - x), -100));
    return w === null ? l : l * (w[k++] as number);
  }, 'binary_cross_entropy', shape);
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
  return pointwiseLoss(self, target, reduction, (x, y) => {
    // log(1 + e^-x) computed stably; with pos_weight p: (1 - y) x + (1 + (p - 1) y) log(1 + e^-x)
    const logSig = Math.max(-x, 0) + Math.log(Math.exp(-Math.abs(x)) + 1);
    const p = pw === null ? 1 : (pw[k] as number);
    const l = (1 - y) * x + (1 + (p - 1) * y) * logSig;
    return w === null ? (k++, l) : l * (w[k++] as number);
  }, 'binary_cross_entropy_with_logits', shape);
}

/** The elements of a float32 / float64 CPU tensor, row-major, as its storage's own typed array (else null). */
function floatElements(t: Tensor): Float32Array | Float64Array | null {
  if (t.isMeta() || (t.dtype !== ScalarType.Float && t.dtype !== ScalarType.Double)) return null;
  const c = t.contiguous();
  const { data, base } = c.dataView();
  return (data as Float32Array | Float64Array).subarray(base, base + c.numel);
}

/**
 * `layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5, cudnn_enable=True)`,
 * CompositeImplicitAutograd as in PyTorch (layer_norm.cpp, layer_norm_symint): the output of
 * `native_layer_norm`, called through the dispatcher, so autograd records NativeLayerNormBackward0 (whose
 * formulas read the saved mean and rstd) and every argument check is native_layer_norm's.
 */
export function layerNorm(
  _ks: DispatchKeySet,
  input: Tensor,
  normalizedShape: number[],
  weight: Tensor | null = null,
  bias: Tensor | null = null,
  eps = 1e-5,
): Tensor {
  return aten().native_layer_norm.call(input, normalizedShape, weight, bias, eps)[0];
}

/**
 * `native_layer_norm(input, normalized_shape, weight, bias, eps) -> (output, mean, rstd)` (layer_norm_cpu):
 * normalizes over the trailing `normalized_shape` dims; mean and rstd have the input's leading sizes followed
 * by ones (`stat_shape`). The checks in PyTorch's order: the mixed-dtype check, `_check_layer_norm_inputs`,
 * then the kernel's dtype checks.
 */
export function nativeLayerNorm(
  _ks: DispatchKeySet,
  input: Tensor,
  normalizedShape: number[],
  weight: Tensor | null,
  bias: Tensor | null,
  eps: number,
): [Tensor, Tensor, Tensor] {
  // is_mixed_type / check_mixed_data_type (mixed_data_type.h): the first parameter's dtype differs from the input's
  const param = weight ?? bias;
  const mixed = param !== null && param.dtype !== input.dtype;
  if (mixed && ((weight !== null && weight.dtype !== ScalarType.Float) || (bias !== null && bias.dtype !== ScalarType.Float))) {
    throw new Error('mixed dtype (CPU): expect parameter to have scalar type of Float');
  }
  const k = normalizedShape.length;
  const ns = `[${normalizedShape.join(', ')}]`;
  if (k === 0) {
    throw new Error(`Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, but got normalized_shape = ${ns}`);
  }
  const same = (t: Tensor): boolean => t.dim() === k && t.sizes.every((s, i) => s === normalizedShape[i]);
  if (weight !== null && !same(weight)) {
    throw new Error(`Expected weight to be of same shape as normalized_shape, but got weight of shape [${weight.sizes.join(', ')}] and normalized_shape = ${ns}`);
  }
  if (bias !== null && !same(bias)) {
    throw new Error(`Expected bias to be of same shape as normalized_shape, but got bias of shape [${bias.sizes.join(', ')}] and normalized_shape = ${ns}`);
  }
  const axis = input.dim() - k;
  if (axis < 0 || input.sizes.slice(axis).some((s, i) => s !== normalizedShape[i])) {
    throw new Error(`Given normalized_shape=${ns}, expected input with shape [*, ${normalizedShape.join(', ')}], but got input of size[${input.sizes.join(', ')}]`);
  }
  floatDtype(input, 'LayerNormKernelImpl');
  if (mixed && input.dtype !== ScalarType.Half && input.dtype !== ScalarType.BFloat16) throw new Error('mixed dtype (CPU): all inputs must share same datatype.');
  if (!mixed && bias !== null && bias.dtype !== input.dtype) {
    throw new Error(`expected scalar type ${scalarTypeToString(input.dtype)} but found ${scalarTypeToString(bias.dtype)}`);
  }
  const statDtype = mixed ? ScalarType.Float : input.dtype;
  const statShape = input.sizes.map((s, i) => (i < axis ? s : 1));
  let m = 1;
  for (let i = 0; i < axis; i++) m *= input.sizes[i] as number;
  let n = 1;
  for (let i = axis; i < input.dim(); i++) n *= input.sizes[i] as number;
  const sizes = [...input.sizes];
  if (input.isMeta()) {
    return [
      newStrided(sizes, contiguousStrides(sizes), input.dtype, input.device),
      newStrided(statShape, contiguousStrides(statShape), statDtype, input.device),
      newStrided([...statShape], contiguousStrides(statShape), statDtype, input.device),
    ];
  }
  // float32 / float64 are read and written in place (no conversion to and from number arrays).
  const x = floatElements(input) ?? numberValuesOf(input);
  const w = weight === null ? null : (floatElements(weight) ?? numberValuesOf(weight));
  const b = bias === null ? null : (floatElements(bias) ?? numberValuesOf(bias));
  const direct = input.dtype === ScalarType.Float || input.dtype === ScalarType.Double;
  const result = direct ? newStrided(sizes, contiguousStrides(sizes), input.dtype, input.device) : null;
  const out = result === null ? new Float64Array(m * n) : (floatElements(result) as Float32Array | Float64Array);
  const means = new Float64Array(m);
  const rstds = new Float64Array(m);
  {
    for (let r = 0; r < m; r++) {
      const start = r * n;
      let mean = 0;
      for (let i = 0; i < n; i++) mean += x[start + i] as number;
      mean /= n;
      let v = 0;
      for (let i = 0; i < n; i++) {
        const d = (x[start + i] as number) - mean;
        v += d * d;
      }
      const rstd = 1 / Math.sqrt(v / n + eps);
      means[r] = mean;
      rstds[r] = rstd;
      for (let i = 0; i < n; i++) {
        let y = ((x[start + i] as number) - mean) * rstd;
        if (w !== null) y *= w[i] as number;
        if (b !== null) y += b[i] as number;
        out[start + i] = y;
      }
    }
  }
  return [
    result ?? tensorFromValues(input, sizes, input.dtype, out),
    tensorFromValues(input, statShape, statDtype, means),
    tensorFromValues(input, [...statShape], statDtype, rstds),
  ];
}

/**
 * `dropout(input, p, train)`: in training, zeroes each element with probability p (a bernoulli(1 - p) mask
 * from the generator, as PyTorch draws it) and scales the rest by 1 / (1 - p); identity otherwise.
 */
/**
 * `dropout(input, p, train)`, CompositeImplicitAutograd as in PyTorch's CPU path (`_dropout_impl`): a noise
 * tensor of Bernoulli(1 - p) draws scaled by 1 / (1 - p), multiplied in through the dispatcher, so autograd
 * records the multiplication (`grad_fn=<MulBackward0>`) and its gradient is the same noise.
 */
export function dropout(_ks: DispatchKeySet, input: Tensor, p: number, train: boolean, generator: Generator | null = null): Tensor {
  if (!(p >= 0 && p <= 1)) throw new Error(`dropout probability has to be between 0 and 1, but got ${p}`);
  if (!train || p === 0) return input;
  const n = input.numel;
  let noise: Tensor;
  if (input.isMeta()) noise = tensorFromValues(input, [...input.sizes], input.dtype, []);
  else if (p === 1) noise = tensorFromValues(input, [...input.sizes], input.dtype, new Float64Array(n));
  else {
    const mask = bernoulliFill(generator, new Float32Array(n), 1 - p);
    const scale = 1 / (1 - p);
    const values = new Float64Array(n);
    for (let i = 0; i < n; i++) values[i] = (mask[i] as number) * scale;
    noise = tensorFromValues(input, [...input.sizes], input.dtype, values);
  }
  return input.mul(noise);
}
