// The loss modules: CrossEntropyLoss, NLLLoss, MSELoss, L1Loss, SmoothL1Loss, HuberLoss, KLDivLoss, BCELoss,
// BCEWithLogitsLoss, TripletMarginWithDistanceLoss, CosineEmbeddingLoss, MarginRankingLoss, SoftMarginLoss,
// MultiLabelSoftMarginLoss, GaussianNLLLoss, PoissonNLLLoss, HingeEmbeddingLoss, TripletMarginLoss, MultiMarginLoss,
// MultiLabelMarginLoss, LinearCrossEntropyLoss. Mirrors torch/nn/modules/loss.py (weights are buffers, as there).

import { warn } from '../../c10/Warning.js';
import type { Tensor } from '../../tensor/Tensor.js';
import * as F from '../functional.js';
import type { Reduction } from '../functional/loss.js';
import { reductionEnum } from '../functional/loss.js';
import { PairwiseDistance } from './distance.js';
import { Linear } from './linear.js';
import { LinearCrossEntropyOptions, type LinearCrossEntropyOptionsFields } from './linear_cross_entropy_options.js';
import { Module } from './module.js';
import { parseArgs, pyFloat, pyRepr, type Rest } from './utils.js';

/** `_Loss`: the `reduction` option. */
export class _Loss extends Module {
  declare reduction: Reduction;
  constructor(reduction: string) {
    super();
    reductionEnum(reduction);
    this.reduction = reduction as Reduction;
  }
}

/** `_WeightedLoss`: a `weight` buffer too. */
export class _WeightedLoss extends _Loss {
  declare weight: Tensor | null;
  constructor(weight: Tensor | null, reduction: string) {
    super(reduction);
    this.register_buffer('weight', weight);
  }
}

/** `nn.CrossEntropyLoss(weight=None, ignore_index=-100, reduction='mean', label_smoothing=0.0)`. */
export class CrossEntropyLoss extends _WeightedLoss {
  declare ignore_index: number;
  declare label_smoothing: number;
  constructor(options: { weight?: Tensor | null; ignore_index?: number; reduction?: Reduction; label_smoothing?: number } = {}) {
    const a = parseArgs(
      'CrossEntropyLoss',
      { weight: null as Tensor | null, ignore_index: -100, reduction: 'mean' as string, label_smoothing: 0.0 },
      [options],
    );
    super(a.weight, a.reduction);
    this.ignore_index = a.ignore_index;
    this.label_smoothing = a.label_smoothing;
  }
  override forward(input: Tensor, target: Tensor): Tensor {
    return F.cross_entropy(input, target, {
      weight: this.weight,
      ignore_index: this.ignore_index,
      reduction: this.reduction,
      label_smoothing: this.label_smoothing,
    });
  }
}

/** The optional arguments of `nn.LinearCrossEntropyLoss` (keyword-only in PyTorch). */
export interface LinearCrossEntropyLossOptions {
  out_features?: number[];
  bias?: boolean;
  device?: string | null;
  dtype?: string | null;
  reduction?: Reduction;
  weight?: Tensor | null;
  ignore_index?: number | null;
  label_smoothing?: number;
  options?: LinearCrossEntropyOptions | LinearCrossEntropyOptionsFields | null;
}

/**
 * `nn.LinearCrossEntropyLoss(in_features, num_classes, *, out_features=(), bias=False, device=None,
 * dtype=None, reduction='mean', weight=None, ignore_index=None, label_smoothing=0.0, options=None)`: a Linear
 * to C·prod(out_features) logits (weight stored flat) and F.linear_cross_entropy.
 */
export class LinearCrossEntropyLoss extends _WeightedLoss {
  declare num_classes: number;
  declare out_features: number[];
  declare ignore_index: number | null;
  declare label_smoothing: number;
  declare linear: Linear;
  declare options: LinearCrossEntropyOptions | null;
  constructor(in_features: number, num_classes: number, kwargs: LinearCrossEntropyLossOptions = {}) {
    const a = parseArgs(
      'LinearCrossEntropyLoss',
      {
        out_features: [] as number[],
        bias: false,
        device: null as string | null,
        dtype: null as string | null,
        reduction: 'mean' as string,
        weight: null as Tensor | null,
        ignore_index: null as number | null,
        label_smoothing: 0.0,
        options: null as LinearCrossEntropyOptions | LinearCrossEntropyOptionsFields | null,
      },
      [kwargs],
    );
    if (a.weight !== null && (a.weight.dim() !== 1 || a.weight.sizes[0] !== num_classes)) {
      const got = a.weight.sizes.length === 1 ? `(${a.weight.sizes[0]},)` : `(${a.weight.sizes.join(', ')})`;
      throw new Error(`expected weight shape to be (${num_classes},), got ${got}`);
    }
    if (a.label_smoothing < 0 || a.label_smoothing > 1.0) {
      throw new Error(`expected label_smoothing to be in range [0, 1], got ${pyFloat(a.label_smoothing)}`);
    }
    super(a.weight, a.reduction);
    this.num_classes = num_classes;
    this.out_features = [...a.out_features];
    this.ignore_index = a.ignore_index;
    this.label_smoothing = a.label_smoothing;
    const outTotal = a.out_features.reduce((x, y) => x * y, num_classes);
    this.linear = new Linear(in_features, outTotal, { bias: a.bias, device: a.device, dtype: a.dtype });
    const o = a.options;
    this.options = o === null || o instanceof LinearCrossEntropyOptions ? o : new LinearCrossEntropyOptions(o);
  }
  override forward(input: Tensor, target: Tensor): Tensor {
    const lw = this.linear.weight.reshape([this.num_classes, ...this.out_features, this.linear.in_features]);
    const lb = this.linear.bias !== null ? this.linear.bias.reshape([this.num_classes, ...this.out_features]) : null;
    return F.linear_cross_entropy(input, lw, target, {
      linear_bias: lb,
      weight: this.weight,
      reduction: this.reduction,
      ignore_index: this.ignore_index,
      label_smoothing: this.label_smoothing,
      options: this.options,
    });
  }
  override extra_repr(): string {
    return (
      `in_features=${this.linear.in_features}, num_classes=${this.num_classes}, out_features=${pyRepr(this.out_features)},` +
      ` bias=${pyRepr(this.linear.bias !== null)}, reduction=${this.reduction}, ignore_index=${pyRepr(this.ignore_index)},` +
      ` label_smoothing=${pyFloat(this.label_smoothing)}, options=${this.options === null ? 'None' : this.options.toString()}`
    );
  }
}

/** `nn.NLLLoss(weight=None, ignore_index=-100, reduction='mean')`. */
export class NLLLoss extends _WeightedLoss {
  declare ignore_index: number;
  constructor(options: { weight?: Tensor | null; ignore_index?: number; reduction?: Reduction } = {}) {
    const a = parseArgs('NLLLoss', { weight: null as Tensor | null, ignore_index: -100, reduction: 'mean' as string }, [options]);
    super(a.weight, a.reduction);
    this.ignore_index = a.ignore_index;
  }
  override forward(input: Tensor, target: Tensor): Tensor {
    return F.nll_loss(input, target, { weight: this.weight, ignore_index: this.ignore_index, reduction: this.reduction });
  }
}

/** `nn.MSELoss(reduction='mean')`. */
export class MSELoss extends _Loss {
  constructor(options: { reduction?: Reduction } = {}) {
    super(parseArgs('MSELoss', { reduction: 'mean' as string }, [options]).reduction);
  }
  override forward(input: Tensor, target: Tensor): Tensor {
    return F.mse_loss(input, target, { reduction: this.reduction });
  }
}

/** `nn.L1Loss(reduction='mean')`. */
export class L1Loss extends _Loss {
  constructor(options: { reduction?: Reduction } = {}) {
    super(parseArgs('L1Loss', { reduction: 'mean' as string }, [options]).reduction);
  }
  override forward(input: Tensor, target: Tensor): Tensor {
    return F.l1_loss(input, target, { reduction: this.reduction });
  }
}

/** `nn.SmoothL1Loss(reduction='mean', beta=1.0)`. */
export class SmoothL1Loss extends _Loss {
  declare beta: number;
  constructor(options: { reduction?: Reduction; beta?: number } = {}) {
    const a = parseArgs('SmoothL1Loss', { reduction: 'mean' as string, beta: 1.0 }, [options]);
    super(a.reduction);
    this.beta = a.beta;
  }
  override forward(input: Tensor, target: Tensor): Tensor {
    return F.smooth_l1_loss(input, target, { reduction: this.reduction, beta: this.beta });
  }
}

/** `nn.HuberLoss(reduction='mean', delta=1.0)`. */
export class HuberLoss extends _Loss {
  declare delta: number;
  constructor(options: { reduction?: Reduction; delta?: number } = {}) {
    const a = parseArgs('HuberLoss', { reduction: 'mean' as string, delta: 1.0 }, [options]);
    super(a.reduction);
    this.delta = a.delta;
  }
  override forward(input: Tensor, target: Tensor): Tensor {
    return F.huber_loss(input, target, { reduction: this.reduction, delta: this.delta });
  }
}

/**
 * `nn.KLDivLoss(size_average=None, reduce=None, reduction='mean', log_target=False)`: `reduction` may also be
 * 'batchmean' (the sum over the batch size); the legacy `size_average` / `reduce` pick the reduction as
 * `_Reduction.legacy_get_string` does.
 */
export class KLDivLoss extends _Loss {
  declare log_target: boolean;
  constructor(
    options: { size_average?: boolean | null; reduce?: boolean | null; reduction?: Reduction | 'batchmean'; log_target?: boolean } = {},
  ) {
    const a = parseArgs(
      'KLDivLoss',
      { size_average: null as boolean | null, reduce: null as boolean | null, reduction: 'mean' as string, log_target: false },
      [options],
    );
    let reduction = a.reduction;
    if (a.size_average !== null || a.reduce !== null) {
      const sizeAverage = a.size_average ?? true;
      const reduce = a.reduce ?? true;
      reduction = sizeAverage && reduce ? 'mean' : reduce ? 'sum' : 'none';
      warn(`size_average and reduce args will be deprecated, please use reduction='${reduction}' instead.`);
    }
    super(reduction === 'batchmean' ? 'sum' : reduction);
    this.reduction = reduction as Reduction;
    this.log_target = a.log_target;
  }
  override forward(input: Tensor, target: Tensor): Tensor {
    return F.kl_div(input, target, { reduction: this.reduction, log_target: this.log_target });
  }
}

/** `nn.BCELoss(weight=None, reduction='mean')`. */
export class BCELoss extends _WeightedLoss {
  constructor(options: { weight?: Tensor | null; reduction?: Reduction } = {}) {
    const a = parseArgs('BCELoss', { weight: null as Tensor | null, reduction: 'mean' as string }, [options]);
    super(a.weight, a.reduction);
  }
  override forward(input: Tensor, target: Tensor): Tensor {
    return F.binary_cross_entropy(input, target, { weight: this.weight, reduction: this.reduction });
  }
}

/** `nn.BCEWithLogitsLoss(weight=None, reduction='mean', pos_weight=None)`. */
export class BCEWithLogitsLoss extends _Loss {
  declare weight: Tensor | null;
  declare pos_weight: Tensor | null;
  constructor(options: { weight?: Tensor | null; reduction?: Reduction; pos_weight?: Tensor | null } = {}) {
    const a = parseArgs(
      'BCEWithLogitsLoss',
      { weight: null as Tensor | null, reduction: 'mean' as string, pos_weight: null as Tensor | null },
      [options],
    );
    super(a.reduction);
    this.register_buffer('weight', a.weight);
    this.register_buffer('pos_weight', a.pos_weight);
  }
  override forward(input: Tensor, target: Tensor): Tensor {
    return F.binary_cross_entropy_with_logits(input, target, {
      weight: this.weight,
      reduction: this.reduction,
      pos_weight: this.pos_weight,
    });
  }
}

/** `nn.TripletMarginWithDistanceLoss(*, distance_function=None, margin=1.0, swap=False, reduction='mean')`. */
export class TripletMarginWithDistanceLoss extends _Loss {
  declare distance_function: ((a: Tensor, b: Tensor) => Tensor) | PairwiseDistance;
  declare margin: number;
  declare swap: boolean;
  constructor(
    options: { distance_function?: ((a: Tensor, b: Tensor) => Tensor) | null; margin?: number; swap?: boolean; reduction?: Reduction } = {},
  ) {
    const a = parseArgs(
      'TripletMarginWithDistanceLoss',
      { distance_function: null as ((a: Tensor, b: Tensor) => Tensor) | null, margin: 1.0, swap: false, reduction: 'mean' as string },
      [options],
    );
    super(a.reduction);
    if (a.margin <= 0) throw new Error(`TripletMarginWithDistanceLoss: expected margin to be greater than 0, got ${a.margin} instead`);
    this.distance_function = a.distance_function ?? new PairwiseDistance();
    this.margin = a.margin;
    this.swap = a.swap;
  }
  override forward(anchor: Tensor, positive: Tensor, negative: Tensor): Tensor {
    const d = this.distance_function;
    return F.triplet_margin_with_distance_loss(anchor, positive, negative, {
      distance_function: d instanceof PairwiseDistance ? (a: Tensor, b: Tensor): Tensor => d.call(a, b) as Tensor : d,
      margin: this.margin,
      swap: this.swap,
      reduction: this.reduction,
    });
  }
}

/** `_Reduction.legacy_get_string`: the reduction the deprecated `size_average` / `reduce` pick (with its warning). */
function legacyReduction(a: { size_average: boolean | null; reduce: boolean | null; reduction: string }): string {
  if (a.size_average === null && a.reduce === null) return a.reduction;
  const sizeAverage = a.size_average ?? true;
  const reduce = a.reduce ?? true;
  const reduction = sizeAverage && reduce ? 'mean' : reduce ? 'sum' : 'none';
  warn(`size_average and reduce args will be deprecated, please use reduction='${reduction}' instead.`);
  return reduction;
}
type Legacy = { size_average?: boolean | null; reduce?: boolean | null; reduction?: Reduction };
const legacy = () => ({ size_average: null as boolean | null, reduce: null as boolean | null, reduction: 'mean' as string });
type MarginRest = Rest<
  [margin: number, size_average: boolean | null, reduce: boolean | null, reduction: Reduction],
  Legacy & { margin?: number }
>;

/** A loss whose options are `margin` then the legacy reductions (CosineEmbeddingLoss, MarginRankingLoss, HingeEmbeddingLoss). */
abstract class _MarginLoss extends _Loss {
  declare margin: number;
  constructor(name: string, margin: number, rest: unknown[]) {
    const a = parseArgs(name, { margin, ...legacy() }, rest);
    super(legacyReduction(a));
    this.margin = a.margin;
  }
}

/** `nn.CosineEmbeddingLoss(margin=0.0, size_average=None, reduce=None, reduction='mean')`. */
export class CosineEmbeddingLoss extends _MarginLoss {
  constructor(...rest: MarginRest) {
    super('CosineEmbeddingLoss', 0.0, rest);
  }
  override forward(input1: Tensor, input2: Tensor, target: Tensor): Tensor {
    return F.cosine_embedding_loss(input1, input2, target, { margin: this.margin, reduction: this.reduction });
  }
}

/** `nn.MarginRankingLoss(margin=0.0, size_average=None, reduce=None, reduction='mean')`. */
export class MarginRankingLoss extends _MarginLoss {
  constructor(...rest: MarginRest) {
    super('MarginRankingLoss', 0.0, rest);
  }
  override forward(input1: Tensor, input2: Tensor, target: Tensor): Tensor {
    return F.margin_ranking_loss(input1, input2, target, { margin: this.margin, reduction: this.reduction });
  }
}

/** `nn.HingeEmbeddingLoss(margin=1.0, size_average=None, reduce=None, reduction='mean')`. */
export class HingeEmbeddingLoss extends _MarginLoss {
  constructor(...rest: MarginRest) {
    super('HingeEmbeddingLoss', 1.0, rest);
  }
  override forward(input: Tensor, target: Tensor): Tensor {
    return F.hinge_embedding_loss(input, target, { margin: this.margin, reduction: this.reduction });
  }
}

/** `nn.SoftMarginLoss(size_average=None, reduce=None, reduction='mean')`. */
export class SoftMarginLoss extends _Loss {
  constructor(...rest: Rest<[size_average: boolean | null, reduce: boolean | null, reduction: Reduction], Legacy>) {
    super(legacyReduction(parseArgs('SoftMarginLoss', legacy(), rest)));
  }
  override forward(input: Tensor, target: Tensor): Tensor {
    return F.soft_margin_loss(input, target, { reduction: this.reduction });
  }
}

/** `nn.MultiLabelSoftMarginLoss(weight=None, size_average=None, reduce=None, reduction='mean')`. */
export class MultiLabelSoftMarginLoss extends _WeightedLoss {
  constructor(
    ...rest: Rest<
      [weight: Tensor | null, size_average: boolean | null, reduce: boolean | null, reduction: Reduction],
      Legacy & { weight?: Tensor | null }
    >
  ) {
    const a = parseArgs('MultiLabelSoftMarginLoss', { weight: null as Tensor | null, ...legacy() }, rest);
    super(a.weight, legacyReduction(a));
  }
  override forward(input: Tensor, target: Tensor): Tensor {
    return F.multilabel_soft_margin_loss(input, target, { weight: this.weight, reduction: this.reduction });
  }
}

/** `nn.GaussianNLLLoss(*, full=False, eps=1e-6, reduction='mean')`: keywords only. */
export class GaussianNLLLoss extends _Loss {
  declare full: boolean;
  declare eps: number;
  constructor(options: { full?: boolean; eps?: number; reduction?: Reduction } = {}) {
    const a = parseArgs('GaussianNLLLoss', { full: false, eps: 1e-6, reduction: 'mean' as string }, [options]);
    super(a.reduction);
    this.full = a.full;
    this.eps = a.eps;
  }
  override forward(input: Tensor, target: Tensor, variance: Tensor | number): Tensor {
    return F.gaussian_nll_loss(input, target, variance, { full: this.full, eps: this.eps, reduction: this.reduction });
  }
}

/** `nn.PoissonNLLLoss(log_input=True, full=False, size_average=None, eps=1e-8, reduce=None, reduction='mean')`. */
export class PoissonNLLLoss extends _Loss {
  declare log_input: boolean;
  declare full: boolean;
  declare eps: number;
  constructor(
    ...rest: Rest<
      [log_input: boolean, full: boolean, size_average: boolean | null, eps: number, reduce: boolean | null, reduction: Reduction],
      Legacy & { log_input?: boolean; full?: boolean; eps?: number }
    >
  ) {
    const d = legacy();
    const spec = { log_input: true, full: false, size_average: d.size_average, eps: 1e-8, reduce: d.reduce, reduction: d.reduction };
    const a = parseArgs('PoissonNLLLoss', spec, rest);
    super(legacyReduction(a));
    this.log_input = a.log_input;
    this.full = a.full;
    this.eps = a.eps;
  }
  override forward(log_input: Tensor, target: Tensor): Tensor {
    return F.poisson_nll_loss(log_input, target, { log_input: this.log_input, full: this.full, eps: this.eps, reduction: this.reduction });
  }
}

/** `nn.TripletMarginLoss(margin=1.0, p=2.0, eps=1e-6, swap=False, size_average=None, reduce=None, reduction='mean')`. */
export class TripletMarginLoss extends _Loss {
  declare margin: number;
  declare p: number;
  declare eps: number;
  declare swap: boolean;
  constructor(
    ...rest: Rest<
      [margin: number, p: number, eps: number, swap: boolean, size_average: boolean | null, reduce: boolean | null, reduction: Reduction],
      Legacy & { margin?: number; p?: number; eps?: number; swap?: boolean }
    >
  ) {
    const a = parseArgs('TripletMarginLoss', { margin: 1.0, p: 2.0, eps: 1e-6, swap: false, ...legacy() }, rest);
    super(legacyReduction(a));
    if (a.margin <= 0) throw new Error(`TripletMarginLoss: expected margin to be greater than 0, got ${a.margin} instead`);
    this.margin = a.margin;
    this.p = a.p;
    this.eps = a.eps;
    this.swap = a.swap;
  }
  override forward(anchor: Tensor, positive: Tensor, negative: Tensor): Tensor {
    return F.triplet_margin_loss(anchor, positive, negative, {
      margin: this.margin,
      p: this.p,
      eps: this.eps,
      swap: this.swap,
      reduction: this.reduction,
    });
  }
}

/** `nn.MultiMarginLoss(p=1, margin=1.0, weight=None, reduction='mean')`: F.multi_margin_loss. */
export class MultiMarginLoss extends _WeightedLoss {
  declare p: number;
  declare margin: number;
  constructor(options: { p?: number; margin?: number; weight?: Tensor | null; reduction?: Reduction } = {}) {
    const a = parseArgs('MultiMarginLoss', { p: 1, margin: 1.0, weight: null as Tensor | null, reduction: 'mean' as string }, [options]);
    super(a.weight, a.reduction);
    if (a.p !== 1 && a.p !== 2) throw new Error('only p == 1 and p == 2 supported');
    if (a.weight !== null && a.weight.dim() !== 1) {
      throw new Error(`MultiMarginLoss: expected weight to be None or 1D tensor, got ${a.weight.dim()}D instead`);
    }
    this.p = a.p;
    this.margin = a.margin;
  }
  override forward(input: Tensor, target: Tensor): Tensor {
    return F.multi_margin_loss(input, target, { p: this.p, margin: this.margin, weight: this.weight, reduction: this.reduction });
  }
}

/** `nn.MultiLabelMarginLoss(reduction='mean')`: F.multilabel_margin_loss. */
export class MultiLabelMarginLoss extends _Loss {
  constructor(options: { reduction?: Reduction } = {}) {
    super(parseArgs('MultiLabelMarginLoss', { reduction: 'mean' as string }, [options]).reduction);
  }
  override forward(input: Tensor, target: Tensor): Tensor {
    return F.multilabel_margin_loss(input, target, { reduction: this.reduction });
  }
}

/** `nn.CTCLoss(blank=0, reduction='mean', zero_infinity=False)`. */
export class CTCLoss extends _Loss {
  declare blank: number;
  declare zero_infinity: boolean;
  constructor(
    ...rest: Rest<
      [blank: number, reduction: Reduction, zero_infinity: boolean],
      { blank?: number; reduction?: Reduction; zero_infinity?: boolean }
    >
  ) {
    const a = parseArgs('CTCLoss', { blank: 0, reduction: 'mean' as Reduction, zero_infinity: false }, rest);
    super(a.reduction);
    this.blank = a.blank;
    this.zero_infinity = a.zero_infinity;
  }
  override forward(log_probs: Tensor, targets: Tensor, input_lengths: Tensor | number[], target_lengths: Tensor | number[]): Tensor {
    return F.ctc_loss(log_probs, targets, input_lengths, target_lengths, {
      blank: this.blank,
      reduction: this.reduction,
      zero_infinity: this.zero_infinity,
    });
  }
}
