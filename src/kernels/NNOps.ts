// Neural-network functions: softmax, log_softmax, nll_loss, cross_entropy, mse_loss, l1_loss,
// binary_cross_entropy(_with_logits), layer_norm, dropout. Mirrors aten/src/ATen/native/SoftMax.cpp,
// LossNLL.cpp, Loss.cpp, layer_norm.cpp, Dropout.cpp and torch/nn/functional.py's argument handling.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isFloatingType, scalarTypeToString } from '../c10/ScalarType.js';
import { bernoulliFill, type Generator } from '../random/index.js';
import type { Tensor } from '../tensor/Tensor.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';
import { numberValuesOf, tensorFromValues } from './rowMajor.js';

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
  floatDtype(self, 'nll_loss_forward_reduce_cuda_kernel_2d_index');
  if (target.dtype !== ScalarType.Long && target.dtype !== ScalarType.Byte) {
    throw new Error(`expected scalar type Long but found ${scalarTypeToString(target.dtype)}`);
  }
  const batched = self.dim() >= 2;
  const n = batched ? (self.sizes[0] as number) : 1;
  const c = batched ? (self.sizes[1] as number) : (self.sizes[0] as number);
  const expectedTarget = batched ? [n, ...self.sizes.slice(2)] : [];
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
 * `cross_entropy_loss(self, target, weight=None, reduction=Mean, ignore_index=-100, label_smoothing=0)`:
 * class indices (integer target) or class probabilities (floating target of the input's shape).
 */
export function crossEntropy(
  ks: DispatchKeySet,
  self: Tensor,
  target: Tensor,
  weight: Tensor | null = null,
  reduction: number = Reduction.Mean,
  ignoreIndex = -100,
  labelSmoothing = 0,
): Tensor {
  const classDim = self.dim() === 1 ? 0 : 1;
  const logp = logSoftmax(ks, self, classDim);
  const c = self.sizes[classDim] as number;
  if (isFloatingType(target.dtype)) {
    // Probabilities: -sum_c w_c * p_c * log q_c, with the smoothed target.
    if (target.sizes.length !== self.sizes.length || target.sizes.some((s, i) => s !== self.sizes[i])) {
      throw new Error(`Expected target size [${self.sizes.join(', ')}], got [${target.sizes.join(', ')}]`);
    }
    const lp = numberValuesOf(logp);
    const p = numberValuesOf(target).map((v) => v * (1 - labelSmoothing) + labelSmoothing / c);
    const w = weight === null ? null : numberValuesOf(weight);
    const n = classDim === 0 ? 1 : (self.sizes[0] as number);
    let inner = 1;
    for (const s of self.sizes.slice(2)) inner *= s;
    const losses: number[] = [];
    for (let b = 0; b < n; b++) {
      for (let i = 0; i < inner; i++) {
        let l = 0;
        for (let k = 0; k < c; k++) {
          const idx = (b * c + k) * inner + i;
          l -= (w === null ? 1 : (w[k] as number)) * (p[idx] as number) * (lp[idx] as number);
        }
        losses.push(l);
      }
    }
    const sizes = classDim === 0 ? [] : [n, ...self.sizes.slice(2)];
    return reduceLoss(self, losses, sizes, reduction, losses.length);
  }
  const nll = nllLoss(ks, logp, target, weight, reduction, ignoreIndex);
  if (labelSmoothing <= 0) return nll;
  // Label smoothing with class indices: (1 - eps) * nll + eps / C * sum over classes of -w_c * log q_c.
  const lp = numberValuesOf(logp);
  const t = numberValuesOf(target);
  const w = weight === null ? null : numberValuesOf(weight);
  const n = classDim === 0 ? 1 : (self.sizes[0] as number);
  let inner = 1;
  for (const s of self.sizes.slice(2)) inner *= s;
  const smooth: number[] = [];
  let weightSum = 0;
  for (let b = 0; b < n; b++) {
    for (let i = 0; i < inner; i++) {
      const cls = t[b * inner + i] as number;
      if (cls === ignoreIndex) {
        smooth.push(0);
        continue;
      }
      weightSum += w === null ? 1 : (w[cls] as number);
      let s = 0;
      for (let k = 0; k < c; k++) s -= (w === null ? 1 : (w[k] as number)) * (lp[(b * c + k) * inner + i] as number);
      smooth.push(s);
    }
  }
  const nllValues = numberValuesOf(nll);
  if (reduction === Reduction.None) {
    return tensorFromValues(self, [...nll.sizes], self.dtype, nllValues.map((v, i) => (1 - labelSmoothing) * v + (labelSmoothing / c) * (smooth[i] as number)));
  }
  let total = 0;
  for (const s of smooth) total += s;
  const smoothReduced = reduction === Reduction.Mean ? total / (w === null ? smooth.filter((_, i) => t[i] !== ignoreIndex).length : weightSum) : total;
  return tensorFromValues(self, [], self.dtype, [(1 - labelSmoothing) * (nllValues[0] as number) + (labelSmoothing / c) * smoothReduced]);
}

function pointwiseLoss(self: Tensor, target: Tensor, reduction: number, f: (x: number, y: number) => number, op: string): Tensor {
  floatDtype(self, op);
  if (self.sizes.length !== target.sizes.length || self.sizes.some((s, i) => s !== target.sizes[i])) {
    throw new Error(`${op}: expected input and target of the same size, got [${self.sizes.join(', ')}] and [${target.sizes.join(', ')}]`);
  }
  const x = numberValuesOf(self);
  const y = numberValuesOf(target);
  return reduceLoss(self, x.map((v, i) => f(v, y[i] as number)), [...self.sizes], reduction);
}

/** `mse_loss(self, target, reduction=Mean)`. */
export function mseLoss(_ks: DispatchKeySet, self: Tensor, target: Tensor, reduction: number = Reduction.Mean): Tensor {
  return pointwiseLoss(self, target, reduction, (x, y) => (x - y) * (x - y), 'mse_loss');
}

/** `l1_loss(self, target, reduction=Mean)`. */
export function l1Loss(_ks: DispatchKeySet, self: Tensor, target: Tensor, reduction: number = Reduction.Mean): Tensor {
  return pointwiseLoss(self, target, reduction, (x, y) => Math.abs(x - y), 'l1_loss');
}

/** `binary_cross_entropy(self, target, weight=None, reduction=Mean)`: log terms clamped at -100, as PyTorch. */
export function binaryCrossEntropy(_ks: DispatchKeySet, self: Tensor, target: Tensor, weight: Tensor | null = null, reduction: number = Reduction.Mean): Tensor {
  const w = weight === null ? null : numberValuesOf(weight.expand(self.sizes));
  for (const v of numberValuesOf(self)) {
    if (!(v >= 0 && v <= 1)) throw new Error('all elements of input should be between 0 and 1');
  }
  let k = 0;
  return pointwiseLoss(self, target, reduction, (x, y) => {
    const l = -(y * Math.max(Math.log(x), -100) + (1 - y) * Math.max(Math.log(1 - x), -100));
    return w === null ? l : l * (w[k++] as number);
  }, 'binary_cross_entropy');
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
  const w = weight === null ? null : numberValuesOf(weight.expand(self.sizes));
  const pw = posWeight === null ? null : numberValuesOf(posWeight.expand(self.sizes));
  let k = 0;
  return pointwiseLoss(self, target, reduction, (x, y) => {
    // log(1 + e^-x) computed stably; with pos_weight p: (1 - y) x + (1 + (p - 1) y) log(1 + e^-x)
    const logSig = Math.max(-x, 0) + Math.log(Math.exp(-Math.abs(x)) + 1);
    const p = pw === null ? 1 : (pw[k] as number);
    const l = (1 - y) * x + (1 + (p - 1) * y) * logSig;
    return w === null ? (k++, l) : l * (w[k++] as number);
  }, 'binary_cross_entropy_with_logits');
}

/** `layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5)`: over the trailing dims. */
export function layerNorm(
  _ks: DispatchKeySet,
  input: Tensor,
  normalizedShape: number[],
  weight: Tensor | null = null,
  bias: Tensor | null = null,
  eps = 1e-5,
): Tensor {
  floatDtype(input, 'LayerNormKernelImpl');
  const k = normalizedShape.length;
  const tail = input.sizes.slice(input.dim() - k);
  if (k === 0 || k > input.dim() || tail.some((s, i) => s !== normalizedShape[i])) {
    throw new Error(
      `Given normalized_shape=[${normalizedShape.join(', ')}], expected input with shape [*, ${normalizedShape.join(', ')}], but got input of size[${input.sizes.join(', ')}]`,
    );
  }
  const m = normalizedShape.reduce((a, b) => a * b, 1);
  const x = numberValuesOf(input);
  const w = weight === null ? null : numberValuesOf(weight);
  const b = bias === null ? null : numberValuesOf(bias);
  const out = new Array<number>(x.length);
  for (let start = 0; start < x.length; start += m) {
    let mean = 0;
    for (let i = 0; i < m; i++) mean += x[start + i] as number;
    mean /= m;
    let v = 0;
    for (let i = 0; i < m; i++) v += ((x[start + i] as number) - mean) ** 2;
    const rstd = 1 / Math.sqrt(v / m + eps);
    for (let i = 0; i < m; i++) {
      let y = ((x[start + i] as number) - mean) * rstd;
      if (w !== null) y *= w[i] as number;
      if (b !== null) y += b[i] as number;
      out[start + i] = y;
    }
  }
  return tensorFromValues(input, [...input.sizes], input.dtype, out);
}

/**
 * `dropout(input, p, train)`: in training, zeroes each element with probability p (a bernoulli(1 - p) mask
 * from the generator, as PyTorch draws it) and scales the rest by 1 / (1 - p); identity otherwise.
 */
export function dropout(_ks: DispatchKeySet, input: Tensor, p: number, train: boolean, generator: Generator | null = null): Tensor {
  if (!(p >= 0 && p <= 1)) throw new Error(`dropout probability has to be between 0 and 1, but got ${p}`);
  if (!train || p === 0) return input;
  const x = numberValuesOf(input);
  if (p === 1) return tensorFromValues(input, [...input.sizes], input.dtype, x.map(() => 0));
  const mask = bernoulliFill(generator, new Float32Array(x.length), 1 - p);
  const scale = 1 / (1 - p);
  return tensorFromValues(input, [...input.sizes], input.dtype, x.map((v, i) => v * (mask[i] as number) * scale));
}
