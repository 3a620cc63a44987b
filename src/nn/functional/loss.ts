// nn.functional: the losses. Mirrors the matching parts of torch/nn/functional.py (and torch/nn/_reduction.py:
// the `reduction` string becomes the aten enum none=0, mean=1, sum=2).

import type { Tensor } from '../../tensor/Tensor.js';
import * as torch from '../../api/torch.js';
import { parseArgs, type Rest } from '../modules/utils.js';

/** How a loss reduces over the batch: `'none'` (per element), `'mean'` (the default) or `'sum'`. */
export type Reduction = 'none' | 'mean' | 'sum';

/** `_Reduction.get_enum`. */
export function reductionEnum(reduction: string): number {
  if (reduction === 'none') return 0;
  if (reduction === 'mean') return 1;
  if (reduction === 'sum') return 2;
  throw new Error(`${reduction} is not a valid value for reduction`);
}

/** The optional arguments of `cross_entropy`: `weight`, `ignore_index`, `reduction`, `label_smoothing`. */
export interface CrossEntropyOptions {
  weight?: Tensor | null;
  ignore_index?: number;
  reduction?: Reduction;
  label_smoothing?: number;
}

/** `F.cross_entropy(input, target, weight=None, ignore_index=-100, reduction='mean', label_smoothing=0.0)`. */
export function cross_entropy(input: Tensor, target: Tensor, options: CrossEntropyOptions = {}): Tensor {
  const a = parseArgs(
    'cross_entropy',
    { weight: null as Tensor | null, ignore_index: -100, reduction: 'mean' as string, label_smoothing: 0.0 },
    [options],
  );
  return torch.cross_entropy_loss(input, target, a.weight, reductionEnum(a.reduction), a.ignore_index, a.label_smoothing);
}

/** The keyword arguments of `F.linear_cross_entropy`. */
export interface LinearCrossEntropyKwargs {
  linear_bias?: Tensor | null;
  weight?: Tensor | null;
  reduction?: Reduction;
  ignore_index?: number | null;
  label_smoothing?: number;
  options?: object | null;
}

const shapeRepr = (s: readonly number[]): string => (s.length === 1 ? `(${s[0]},)` : `(${s.join(', ')})`);

// Note [linear_cross_entropy computes the reference path]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's `options` (LinearCrossEntropyOptions) select a chunked custom op that never materialises the
// whole (N, C) logits and precomputes its gradients in forward: a memory optimisation of the same function
// (logits = linear(input, W, b); cross_entropy(logits, target, ...)), equal up to summation order. Here every
// call takes the reference path; `options` is accepted and kept (the module prints it) but changes nothing.
/**
 * `F.linear_cross_entropy(input, linear_weight, target, *, linear_bias=None, weight=None, reduction='mean',
 * ignore_index=None, label_smoothing=0.0, options=None)`: cross_entropy of the logits `linear(input, W, b)`,
 * W of shape (C, d_1, ..., d_K, in_features). See Note [linear_cross_entropy computes the reference path].
 */
export function linear_cross_entropy(input: Tensor, linear_weight: Tensor, target: Tensor, kwargs: LinearCrossEntropyKwargs = {}): Tensor {
  const a = parseArgs(
    'linear_cross_entropy',
    {
      linear_bias: null as Tensor | null,
      weight: null as Tensor | null,
      reduction: 'mean' as string,
      ignore_index: null as number | null,
      label_smoothing: 0.0,
      options: null as object | null,
    },
    [kwargs],
  );
  if (input.dim() < 1 || input.dim() > 2) throw new Error(`expected input with dimensionality 1 or 2, got ${input.dim()}`);
  if (linear_weight.dim() < 2) throw new Error(`expected linear_weight with dimensionality at least 2, got ${linear_weight.dim()}`);
  const numBatches = input.sizes.slice(0, -1);
  const inFeatures = input.sizes.at(-1) as number;
  if (inFeatures !== linear_weight.sizes.at(-1)) {
    throw new Error(
      `expected equal input and linear_weight last dimensions (in_features), got ${inFeatures} and ${linear_weight.sizes.at(-1)}, respectively`,
    );
  }
  const numClasses = linear_weight.sizes[0] as number;
  const outFeatures = linear_weight.sizes.slice(1, -1);
  const biasShape = [numClasses, ...outFeatures];
  if (a.linear_bias !== null && a.linear_bias.sizes.join(',') !== biasShape.join(',')) {
    throw new Error(`expected linear_bias shape ${shapeRepr(biasShape)}, got ${shapeRepr(a.linear_bias.sizes)}`);
  }
  if (outFeatures.length > 0 && numBatches.length === 0) {
    throw new Error(
      `K-dimensional loss defined by linear_weight shape ${shapeRepr(linear_weight.sizes)} requires batched input, (N, ${inFeatures}), got unbatched input with shape ${shapeRepr(input.sizes)}`,
    );
  }
  const logitsShape = [...numBatches, numClasses, ...outFeatures];
  const probabilities = target.sizes.join(',') === logitsShape.join(',');
  if (probabilities && a.ignore_index !== null) throw new Error('ignore_index cannot be specified when target contains probabilities');
  const total = biasShape.reduce((x, y) => x * y, 1);
  const w = outFeatures.length > 0 ? linear_weight.reshape([total, inFeatures]) : linear_weight;
  const b = a.linear_bias !== null && outFeatures.length > 0 ? a.linear_bias.reshape([total]) : a.linear_bias;
  const logits = torch.linear(input, w, b).reshape(logitsShape);
  return cross_entropy(logits, target, {
    weight: a.weight,
    reduction: a.reduction as Reduction,
    ignore_index: a.ignore_index ?? -100,
    label_smoothing: a.label_smoothing,
  });
}

/** `F.nll_loss(input, target, weight=None, ignore_index=-100, reduction='mean')`. */
export function nll_loss(input: Tensor, target: Tensor, options: Omit<CrossEntropyOptions, 'label_smoothing'> = {}): Tensor {
  const a = parseArgs('nll_loss', { weight: null as Tensor | null, ignore_index: -100, reduction: 'mean' as string }, [options]);
  return torch.nll_loss_nd(input, target, a.weight, reductionEnum(a.reduction), a.ignore_index);
}

function checkSizes(name: string, input: Tensor, target: Tensor): void {
  if (input.sizes.length !== target.sizes.length || input.sizes.some((s, i) => s !== target.sizes[i])) {
    // PyTorch warns ("Using a target size ... that is different to the input size") and broadcasts.
    void name;
  }
}

/** `F.mse_loss(input, target, reduction='mean')`. */
export function mse_loss(input: Tensor, target: Tensor, options: { reduction?: Reduction } = {}): Tensor {
  const a = parseArgs('mse_loss', { reduction: 'mean' as string }, [options]);
  checkSizes('mse_loss', input, target);
  return torch.mse_loss(input, target, reductionEnum(a.reduction));
}

/** `F.l1_loss(input, target, reduction='mean')`. */
export function l1_loss(input: Tensor, target: Tensor, options: { reduction?: Reduction } = {}): Tensor {
  const a = parseArgs('l1_loss', { reduction: 'mean' as string }, [options]);
  return torch.l1_loss(input, target, reductionEnum(a.reduction));
}

/** `F.smooth_l1_loss(input, target, reduction='mean', beta=1.0)`: `torch.smooth_l1_loss` (l1_loss for beta 0, as PyTorch). */
export function smooth_l1_loss(input: Tensor, target: Tensor, options: { reduction?: Reduction; beta?: number } = {}): Tensor {
  const a = parseArgs('smooth_l1_loss', { reduction: 'mean' as string, beta: 1.0 }, [options]);
  if (a.beta < 0) throw new Error('smooth_l1_loss does not support negative values for beta.');
  if (a.beta === 0) return l1_loss(input, target, { reduction: a.reduction as Reduction });
  return torch.smooth_l1_loss(input, target, reductionEnum(a.reduction), a.beta);
}

/**
 * `F.kl_div(input, target, size_average=None, reduce=None, reduction='mean', log_target=False)`: `torch.kl_div`;
 * 'batchmean' is its sum divided by the batch size (`input.size(0)`), as torch/nn/functional.py does.
 */
export function kl_div(
  input: Tensor,
  target: Tensor,
  options: { size_average?: boolean | null; reduce?: boolean | null; reduction?: Reduction | 'batchmean'; log_target?: boolean } = {},
): Tensor {
  const a = parseArgs(
    'kl_div',
    { size_average: null as boolean | null, reduce: null as boolean | null, reduction: 'mean' as string, log_target: false },
    [options],
  );
  let reduction = a.reduction;
  if (a.size_average !== null || a.reduce !== null) {
    // _Reduction.legacy_get_enum
    reduction = a.reduce === false ? 'none' : a.size_average === false ? 'sum' : 'mean';
  }
  const reduced = torch.kl_div(input, target, reductionEnum(reduction === 'batchmean' ? 'sum' : reduction), { log_target: a.log_target });
  return reduction === 'batchmean' && input.dim() !== 0 ? reduced.div(input.sizes[0] as number) : reduced;
}

/** `F.binary_cross_entropy(input, target, weight=None, reduction='mean')`. */
export function binary_cross_entropy(
  input: Tensor,
  target: Tensor,
  options: { weight?: Tensor | null; reduction?: Reduction } = {},
): Tensor {
  const a = parseArgs('binary_cross_entropy', { weight: null as Tensor | null, reduction: 'mean' as string }, [options]);
  if (input.sizes.length !== target.sizes.length || input.sizes.some((s, i) => s !== target.sizes[i])) {
    throw new Error(
      `Using a target size (torch.Size([${target.sizes.join(', ')}])) that is different to the input size (torch.Size([${input.sizes.join(', ')}])) is deprecated. Please ensure they have the same size.`,
    );
  }
  return torch.binary_cross_entropy(input, target, a.weight, reductionEnum(a.reduction));
}

/** `F.binary_cross_entropy_with_logits(input, target, weight=None, reduction='mean', pos_weight=None)`. */
export function binary_cross_entropy_with_logits(
  input: Tensor,
  target: Tensor,
  options: { weight?: Tensor | null; reduction?: Reduction; pos_weight?: Tensor | null } = {},
): Tensor {
  const a = parseArgs(
    'binary_cross_entropy_with_logits',
    { weight: null as Tensor | null, reduction: 'mean' as string, pos_weight: null as Tensor | null },
    [options],
  );
  if (input.sizes.length !== target.sizes.length || input.sizes.some((s, i) => s !== target.sizes[i])) {
    throw new Error(
      `Target size (torch.Size([${target.sizes.join(', ')}])) must be the same as input size (torch.Size([${input.sizes.join(', ')}]))`,
    );
  }
  return torch.binary_cross_entropy_with_logits(input, target, a.weight, a.pos_weight, reductionEnum(a.reduction));
}

/**
 * `F.huber_loss(input, target, reduction='mean', delta=1.0, weight=None)`: the native `huber_loss`; with a
 * weight, PyTorch's Python form (the unreduced loss times weight, then reduced).
 */
export function huber_loss(
  input: Tensor,
  target: Tensor,
  ...rest: Rest<
    [reduction: Reduction, delta: number, weight: Tensor | null],
    { reduction?: Reduction; delta?: number; weight?: Tensor | null }
  >
): Tensor {
  const { reduction, delta, weight } = parseArgs(
    'huber_loss',
    { reduction: 'mean' as Reduction, delta: 1.0, weight: null as Tensor | null },
    rest,
  );
  if (weight === null) return torch.huber_loss(input, target, { reduction, delta });
  if (weight.dim() !== input.dim() || weight.sizes.some((n, i) => n !== input.sizes[i])) {
    throw new Error('Weights and input must have the same size.');
  }
  const weighted = torch.huber_loss(input, target, { reduction: 'none', delta }).mul(weight);
  if (reduction === 'none') return weighted;
  if (reduction === 'sum') return weighted.sum();
  if (reduction === 'mean') return weighted.mean();
  throw new Error(`Invalid reduction mode: ${String(reduction)}. Expected one of 'none', 'mean', 'sum'.`);
}

/**
 * `F.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction='mean',
 * zero_infinity=False)`: torch.ctc_loss with the reduction's enum (lengths as Tensors or lists).
 */
export function ctc_loss(
  log_probs: Tensor,
  targets: Tensor,
  input_lengths: Tensor | number[],
  target_lengths: Tensor | number[],
  ...rest: Rest<
    [blank: number, reduction: Reduction, zero_infinity: boolean],
    { blank?: number; reduction?: Reduction; zero_infinity?: boolean }
  >
): Tensor {
  const a = parseArgs('ctc_loss', { blank: 0, reduction: 'mean' as Reduction, zero_infinity: false }, rest);
  const call = torch.ctc_loss as (...args: unknown[]) => Tensor;
  return call(log_probs, targets, input_lengths, target_lengths, a.blank, reductionEnum(a.reduction), a.zero_infinity);
}
