// The loss modules: CrossEntropyLoss, NLLLoss, MSELoss, L1Loss, SmoothL1Loss, HuberLoss, KLDivLoss, BCELoss,
// BCEWithLogitsLoss, TripletMarginWithDistanceLoss, MultiMarginLoss, MultiLabelMarginLoss.
// Mirrors torch/nn/modules/loss.py (weights are buffers, as there).

import { warn } from '../../c10/Warning.js';
import type { Tensor } from '../../tensor/Tensor.js';
import * as F from '../functional.js';
import type { Reduction } from '../functional/loss.js';
import { reductionEnum } from '../functional/loss.js';
import { PairwiseDistance } from './distance.js';
import { Module } from './module.js';
import { parseArgs } from './utils.js';

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
