// Learning-rate schedulers of torch/optim/lr_scheduler.py: LRScheduler and the schedules that are a rule of the
// epoch (StepLR, MultiStepLR, ExponentialLR, CosineAnnealingLR, LinearLR, LambdaLR, MultiplicativeLR, ConstantLR,
// PolynomialLR), and ReduceLROnPlateau. The cyclic schedules are in lr_scheduler_cyclic.ts, the combinations of
// schedulers in lr_scheduler_composite.ts. The recursive (chainable) `get_lr` forms are evaluated in the same
// order on doubles, so `get_last_lr()` gives PyTorch's values.

import { cos } from './_math.js';
import { aliasCamelCase, type WithCamelKeys } from '../c10/Kwargs.js';
import { Optimizer } from './optimizer.js';
import { checkKeys, groupsOf } from './_lr_scheduler_params.js';

/**
 * `torch.optim.lr_scheduler.LRScheduler`: sets each group's `lr` on every `step()`; `last_epoch` counts the
 * steps. Subclasses give `get_lr()` (PyTorch's chainable `get_lr`).
 */
export abstract class LRScheduler {
  readonly optimizer: Optimizer<object>;
  base_lrs: number[];
  last_epoch: number;
  protected stepCount = 0;
  protected isInitial = false;
  protected lastLr: number[] = [];
  declare getLastLr: LRScheduler['get_last_lr'];
  declare stateDict: LRScheduler['state_dict'];
  declare loadStateDict: LRScheduler['load_state_dict'];

  constructor(optimizer: Optimizer<object>, lastEpoch = -1) {
    if (!(optimizer instanceof Optimizer)) throw new TypeError(`${typeof optimizer} is not an Optimizer`);
    this.optimizer = optimizer;
    const groups = groupsOf(optimizer);
    if (lastEpoch === -1) {
      for (const g of groups) if (!('initial_lr' in g)) g['initial_lr'] = g.lr;
    } else {
      groups.forEach((g, i) => {
        if (!('initial_lr' in g))
          throw new Error(`param 'initial_lr' is not specified in param_groups[${i}] when resuming scheduler with last_epoch >= 0.`);
      });
    }
    this.base_lrs = groups.map((g) => g['initial_lr'] as number);
    this.last_epoch = lastEpoch;
  }

  /** `_initial_step()`: called at the end of each subclass constructor, as PyTorch's base constructor does (and by SequentialLR). */
  _initial_step(): void {
    this.stepCount = 0;
    this.isInitial = true;
    try {
      this.step();
    } finally {
      this.isInitial = false;
    }
  }

  /** The new lr of every group at `last_epoch` (PyTorch's chainable `get_lr`). */
  protected abstract get_lr(): number[];

  /** `step()`: advances `last_epoch` and sets every group's lr. */
  step(): void {
    this.stepCount += 1;
    this._update_lr();
  }

  /** The closed form of the schedule at `last_epoch`, for the schedulers that have one (`_get_closed_form_lr`). */
  protected _get_closed_form_lr?(): number[];

  /**
   * `_update_lr(epoch=None)`: the next epoch's lrs (chainable `get_lr`), or, given an epoch, that epoch's
   * (closed form where there is one); SequentialLR calls it with 0 at a milestone.
   */
  _update_lr(epoch?: number): void {
    let values: number[];
    if (epoch === undefined) {
      this.last_epoch += 1;
      values = this.get_lr();
    } else {
      this.last_epoch = epoch;
      values = this._get_closed_form_lr !== undefined ? this._get_closed_form_lr() : this.get_lr();
    }
    groupsOf(this.optimizer).forEach((g, i) => (g.lr = values[i] as number));
    this.lastLr = groupsOf(this.optimizer).map((g) => g.lr);
  }

  /** `get_last_lr()`: the lr of each group set by the last `step()`. */
  get_last_lr(): number[] {
    return [...this.lastLr];
  }

  /** `state_dict()`: the scheduler's own fields (everything but the optimiser), PyTorch's keys. */
  state_dict(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(this)) {
      if (k === 'optimizer' || k === 'stepCount' || k === 'isInitial' || k === 'lastLr') continue;
      out[k] = Array.isArray(v) ? [...(v as unknown[])] : v;
    }
    out['_step_count'] = this.stepCount;
    out['_is_initial'] = this.isInitial;
    out['_last_lr'] = [...this.lastLr];
    return out;
  }

  /** `load_state_dict(state_dict)`: restores the fields of a `state_dict()`. */
  load_state_dict(state: Record<string, unknown>): void {
    for (const [k, v] of Object.entries(state)) {
      if (k === '_step_count') this.stepCount = v as number;
      else if (k === '_is_initial') this.isInitial = v as boolean;
      else if (k === '_last_lr') this.lastLr = [...(v as number[])];
      else if (k !== '_get_lr_called_within_step') (this as Record<string, unknown>)[k] = Array.isArray(v) ? [...(v as unknown[])] : v;
    }
  }
}

/** `StepLR(optimizer, step_size, gamma=0.1)`: lr × gamma every step_size steps. */
export class StepLR extends LRScheduler {
  step_size: number;
  gamma: number;

  constructor(optimizer: Optimizer<object>, options: WithCamelKeys<{ step_size: number; gamma?: number; last_epoch?: number }>) {
    options = checkKeys('StepLR', options, ['step_size', 'gamma', 'last_epoch']);
    super(optimizer, options.last_epoch ?? -1);
    this.step_size = options.step_size;
    this.gamma = options.gamma ?? 0.1;
    this._initial_step();
  }

  protected override _get_closed_form_lr(): number[] {
    return this.base_lrs.map((b) => b * this.gamma ** Math.floor(this.last_epoch / this.step_size));
  }

  protected get_lr(): number[] {
    const groups = groupsOf(this.optimizer);
    if (this.last_epoch === 0 || this.last_epoch % this.step_size !== 0) return groups.map((g) => g.lr);
    return groups.map((g) => g.lr * this.gamma);
  }
}

/** `MultiStepLR(optimizer, milestones, gamma=0.1)`: lr × gamma^k at a milestone listed k times. */
export class MultiStepLR extends LRScheduler {
  milestones: Map<number, number>;
  gamma: number;

  constructor(
    optimizer: Optimizer<object>,
    options: WithCamelKeys<{ milestones: readonly number[]; gamma?: number; last_epoch?: number }>,
  ) {
    options = checkKeys('MultiStepLR', options, ['milestones', 'gamma', 'last_epoch']);
    super(optimizer, options.last_epoch ?? -1);
    this.milestones = new Map();
    for (const m of options.milestones) this.milestones.set(m, (this.milestones.get(m) ?? 0) + 1);
    this.gamma = options.gamma ?? 0.1;
    this._initial_step();
  }

  protected override _get_closed_form_lr(): number[] {
    let k = 0; // bisect_right(sorted(milestones.elements()), last_epoch)
    for (const [m, n] of this.milestones) if (m <= this.last_epoch) k += n;
    return this.base_lrs.map((b) => b * this.gamma ** k);
  }

  protected get_lr(): number[] {
    const groups = groupsOf(this.optimizer);
    const k = this.milestones.get(this.last_epoch);
    if (k === undefined) return groups.map((g) => g.lr);
    return groups.map((g) => g.lr * this.gamma ** k);
  }
}

/** `ExponentialLR(optimizer, gamma)`: lr × gamma every step. */
export class ExponentialLR extends LRScheduler {
  gamma: number;

  constructor(optimizer: Optimizer<object>, options: WithCamelKeys<{ gamma: number; last_epoch?: number }>) {
    options = checkKeys('ExponentialLR', options, ['gamma', 'last_epoch']);
    super(optimizer, options.last_epoch ?? -1);
    this.gamma = options.gamma;
    this._initial_step();
  }

  protected override _get_closed_form_lr(): number[] {
    return this.base_lrs.map((b) => b * this.gamma ** this.last_epoch);
  }

  protected get_lr(): number[] {
    const groups = groupsOf(this.optimizer);
    if (this.isInitial) return groups.map((g) => g.lr);
    return groups.map((g) => g.lr * this.gamma);
  }
}

/** `CosineAnnealingLR(optimizer, T_max, eta_min=0)`: PyTorch's recursive cosine form (SGDR without restarts). */
export class CosineAnnealingLR extends LRScheduler {
  T_max: number;
  eta_min: number;

  constructor(optimizer: Optimizer<object>, options: WithCamelKeys<{ T_max: number; eta_min?: number; last_epoch?: number }>) {
    options = checkKeys('CosineAnnealingLR', options, ['T_max', 'eta_min', 'last_epoch']);
    super(optimizer, options.last_epoch ?? -1);
    this.T_max = options.T_max;
    this.eta_min = options.eta_min ?? 0;
    this._initial_step();
  }

  protected override _get_closed_form_lr(): number[] {
    const { T_max: T, eta_min: etaMin } = this;
    return this.base_lrs.map((b) => etaMin + ((b - etaMin) * (1 + cos((Math.PI * this.last_epoch) / T))) / 2);
  }

  protected get_lr(): number[] {
    const groups = groupsOf(this.optimizer);
    const { T_max: T, eta_min: etaMin, last_epoch: e } = this;
    if (this.isInitial) return groups.map((g) => g.lr);
    if (this.stepCount === 1 && e > 0) {
      return this.base_lrs.map((base) => etaMin + ((base - etaMin) * (1 + cos((e * Math.PI) / T))) / 2);
    }
    if ((((e - 1 - T) % (2 * T)) + 2 * T) % (2 * T) === 0) {
      return groups.map((g, i) => g.lr + (((this.base_lrs[i] as number) - etaMin) * (1 - cos(Math.PI / T))) / 2);
    }
    return groups.map((g) => ((1 + cos((Math.PI * e) / T)) / (1 + cos((Math.PI * (e - 1)) / T))) * (g.lr - etaMin) + etaMin);
  }
}

/** `LinearLR(optimizer, start_factor=1/3, end_factor=1, total_iters=5)`: a linear ramp of the lr factor. */
export class LinearLR extends LRScheduler {
  start_factor: number;
  end_factor: number;
  total_iters: number;

  constructor(
    optimizer: Optimizer<object>,
    options: WithCamelKeys<{ start_factor?: number; end_factor?: number; total_iters?: number; last_epoch?: number }> = {},
  ) {
    options = checkKeys('LinearLR', options, ['start_factor', 'end_factor', 'total_iters', 'last_epoch']);
    const start = options.start_factor ?? 1.0 / 3;
    const end = options.end_factor ?? 1.0;
    if (start > 1.0 || start <= 0) throw new Error('Starting multiplicative factor expected to be greater than 0 and less or equal to 1.');
    if (end > 1.0 || end < 0) throw new Error('Ending multiplicative factor expected to be between 0 and 1.');
    super(optimizer, options.last_epoch ?? -1);
    this.start_factor = start;
    this.end_factor = end;
    this.total_iters = options.total_iters ?? 5;
    this._initial_step();
  }

  protected override _get_closed_form_lr(): number[] {
    const { start_factor: s, end_factor: f, total_iters: n } = this;
    return this.base_lrs.map((b) => b * (s + ((f - s) * Math.min(n, this.last_epoch)) / n));
  }

  protected get_lr(): number[] {
    const groups = groupsOf(this.optimizer);
    const { start_factor: s, end_factor: f, total_iters: n, last_epoch: e } = this;
    if (e === 0) return groups.map((g) => g.lr * s);
    if (this.isInitial || e > n) return groups.map((g) => g.lr);
    return groups.map((g) => g.lr * (1.0 + (f - s) / (n * s + (e - 1) * (f - s))));
  }
}

/** A per-group lr multiplier: a function of the epoch. */
export type LrLambda = (epoch: number) => number;

function lambdasOf(optimizer: Optimizer<object>, lrLambda: LrLambda | readonly LrLambda[]): LrLambda[] {
  const n = optimizer.param_groups.length;
  if (!Array.isArray(lrLambda)) return new Array<LrLambda>(n).fill(lrLambda as LrLambda);
  if (lrLambda.length !== n) throw new Error(`Expected ${n} lr_lambdas, but got ${lrLambda.length}`);
  return [...(lrLambda as LrLambda[])];
}

/** Drops the lambdas from a state_dict (PyTorch stores None for a plain function). */
function withoutLambdas(sd: Record<string, unknown>, n: number): Record<string, unknown> {
  delete sd['lr_lambdas'];
  sd['lr_lambdas'] = new Array<null>(n).fill(null);
  return sd;
}

/** `LambdaLR(optimizer, lr_lambda)`: lr = base_lr × lr_lambda(epoch). */
export class LambdaLR extends LRScheduler {
  lr_lambdas: LrLambda[];

  constructor(optimizer: Optimizer<object>, options: WithCamelKeys<{ lr_lambda: LrLambda | readonly LrLambda[]; last_epoch?: number }>) {
    const o = checkKeys('LambdaLR', options, ['lr_lambda', 'last_epoch']);
    const lambdas = lambdasOf(optimizer, o.lr_lambda);
    super(optimizer, o.last_epoch ?? -1);
    this.lr_lambdas = lambdas;
    this._initial_step();
  }

  protected get_lr(): number[] {
    return this.base_lrs.map((b, i) => b * (this.lr_lambdas[i] as LrLambda)(this.last_epoch));
  }

  override state_dict(): Record<string, unknown> {
    return withoutLambdas(super.state_dict(), this.lr_lambdas.length);
  }

  override load_state_dict(state: Record<string, unknown>): void {
    const { lr_lambdas: _, ...rest } = state;
    super.load_state_dict(rest);
  }
}

/** `MultiplicativeLR(optimizer, lr_lambda)`: lr × lr_lambda(epoch) every step. */
export class MultiplicativeLR extends LRScheduler {
  lr_lambdas: LrLambda[];

  constructor(optimizer: Optimizer<object>, options: WithCamelKeys<{ lr_lambda: LrLambda | readonly LrLambda[]; last_epoch?: number }>) {
    const o = checkKeys('MultiplicativeLR', options, ['lr_lambda', 'last_epoch']);
    const lambdas = lambdasOf(optimizer, o.lr_lambda);
    for (const f of lambdas) {
      if (typeof f !== 'function') throw new TypeError(`lr_lambda should be a function, but got ${f === null ? 'NoneType' : typeof f}`);
    }
    super(optimizer, o.last_epoch ?? -1);
    this.lr_lambdas = lambdas;
    this._initial_step();
  }

  protected get_lr(): number[] {
    const groups = groupsOf(this.optimizer);
    if (this.isInitial) return groups.map((g) => g.lr);
    return groups.map((g, i) => g.lr * (this.lr_lambdas[i] as LrLambda)(this.last_epoch));
  }

  override state_dict(): Record<string, unknown> {
    return withoutLambdas(super.state_dict(), this.lr_lambdas.length);
  }

  override load_state_dict(state: Record<string, unknown>): void {
    const { lr_lambdas: _, ...rest } = state;
    super.load_state_dict(rest);
  }
}

/** `ConstantLR(optimizer, factor=1/3, total_iters=5)`: lr × factor until total_iters. */
export class ConstantLR extends LRScheduler {
  factor: number;
  total_iters: number;

  constructor(optimizer: Optimizer<object>, options: WithCamelKeys<{ factor?: number; total_iters?: number; last_epoch?: number }> = {}) {
    const o = checkKeys('ConstantLR', options, ['factor', 'total_iters', 'last_epoch']);
    const factor = o.factor ?? 1.0 / 3;
    if (factor > 1.0 || factor < 0) throw new Error('Constant multiplicative factor expected to be between 0 and 1.');
    super(optimizer, o.last_epoch ?? -1);
    this.factor = factor;
    this.total_iters = o.total_iters ?? 5;
    this._initial_step();
  }

  protected get_lr(): number[] {
    const groups = groupsOf(this.optimizer);
    if (this.last_epoch === 0) return groups.map((g) => g.lr * this.factor);
    if (this.last_epoch !== this.total_iters) return groups.map((g) => g.lr);
    return groups.map((g) => g.lr * (1.0 / this.factor));
  }

  protected override _get_closed_form_lr(): number[] {
    const past = this.last_epoch >= this.total_iters ? 1 : 0;
    return this.base_lrs.map((b) => b * (this.factor + past * (1 - this.factor)));
  }
}

/** `PolynomialLR(optimizer, total_iters=5, power=1.0)`: lr decays as (1 - epoch/total_iters)^power. */
export class PolynomialLR extends LRScheduler {
  total_iters: number;
  power: number;

  constructor(optimizer: Optimizer<object>, options: WithCamelKeys<{ total_iters?: number; power?: number; last_epoch?: number }> = {}) {
    const o = checkKeys('PolynomialLR', options, ['total_iters', 'power', 'last_epoch']);
    super(optimizer, o.last_epoch ?? -1);
    this.total_iters = o.total_iters ?? 5;
    this.power = o.power ?? 1.0;
    this._initial_step();
  }

  protected get_lr(): number[] {
    const groups = groupsOf(this.optimizer);
    const { total_iters: n, last_epoch: e } = this;
    if (this.isInitial || e > n) return groups.map((g) => g.lr);
    const decay = ((1.0 - e / n) / (1.0 - (e - 1) / n)) ** this.power;
    return groups.map((g) => g.lr * decay);
  }

  protected override _get_closed_form_lr(): number[] {
    const { total_iters: n } = this;
    return this.base_lrs.map((b) => b * (1.0 - Math.min(n, this.last_epoch) / n) ** this.power);
  }
}

/** ReduceLROnPlateau's options, PyTorch's names and defaults. */
export interface ReduceLROnPlateauOptions {
  mode?: 'min' | 'max';
  factor?: number;
  patience?: number;
  threshold?: number;
  threshold_mode?: 'rel' | 'abs';
  cooldown?: number;
  min_lr?: number | readonly number[];
  eps?: number;
}

/** `ReduceLROnPlateau(optimizer, mode='min', factor=0.1, patience=10, ...)`: lr × factor when a metric stalls; `step(metric)`. */
export class ReduceLROnPlateau {
  readonly optimizer: Optimizer<object>;
  factor: number;
  min_lrs: number[];
  default_min_lr: number | null;
  patience: number;
  cooldown: number;
  eps: number;
  last_epoch = 0;
  mode: 'min' | 'max';
  threshold: number;
  threshold_mode: 'rel' | 'abs';
  best = 0;
  cooldown_counter = 0;
  num_bad_epochs = 0;
  mode_worse: number;
  private lastLr: number[];
  declare getLastLr: ReduceLROnPlateau['get_last_lr'];

  constructor(optimizer: Optimizer<object>, options: WithCamelKeys<ReduceLROnPlateauOptions> = {}) {
    options = checkKeys('ReduceLROnPlateau', options, [
      'mode',
      'factor',
      'patience',
      'threshold',
      'threshold_mode',
      'cooldown',
      'min_lr',
      'eps',
    ]);
    const factor = options.factor ?? 0.1;
    if (factor >= 1.0) throw new Error('Factor should be < 1.0.');
    if (!(optimizer instanceof Optimizer)) throw new TypeError(`${typeof optimizer} is not an Optimizer`);
    const n = optimizer.param_groups.length;
    const minLr = options.min_lr ?? 0;
    if (Array.isArray(minLr)) {
      if (minLr.length !== n) throw new Error(`expected ${n} min_lrs, got ${minLr.length}`);
      this.default_min_lr = null;
      this.min_lrs = [...(minLr as number[])];
    } else {
      this.default_min_lr = minLr as number;
      this.min_lrs = new Array<number>(n).fill(minLr as number);
    }
    const mode = options.mode ?? 'min';
    const thresholdMode = options.threshold_mode ?? 'rel';
    if (mode !== 'min' && mode !== 'max') throw new Error(`mode ${String(mode)} is unknown!`);
    if (thresholdMode !== 'rel' && thresholdMode !== 'abs') throw new Error(`threshold mode ${String(thresholdMode)} is unknown!`);
    this.optimizer = optimizer;
    this.factor = factor;
    this.patience = options.patience ?? 10;
    this.cooldown = options.cooldown ?? 0;
    this.eps = options.eps ?? 1e-8;
    this.mode = mode;
    this.threshold = options.threshold ?? 1e-4;
    this.threshold_mode = thresholdMode;
    this.mode_worse = mode === 'min' ? Infinity : -Infinity;
    this.lastLr = groupsOf(optimizer).map((g) => g.lr);
    this._reset();
  }

  private _reset(): void {
    this.best = this.mode_worse;
    this.cooldown_counter = 0;
    this.num_bad_epochs = 0;
  }

  get in_cooldown(): boolean {
    return this.cooldown_counter > 0;
  }

  private is_better(a: number, best: number): boolean {
    if (this.mode === 'min' && this.threshold_mode === 'rel') return a < best * (1.0 - this.threshold);
    if (this.mode === 'min') return a < best - this.threshold;
    if (this.threshold_mode === 'rel') return a > best * (this.threshold + 1.0);
    return a > best + this.threshold;
  }

  /** `step(metrics)`: one epoch's metric (a number, or a one-element tensor's value). */
  step(metrics: number | { item(): unknown }): void {
    const current = typeof metrics === 'number' ? metrics : Number(metrics.item());
    this.last_epoch += 1;
    if (this.is_better(current, this.best)) {
      this.best = current;
      this.num_bad_epochs = 0;
    } else {
      this.num_bad_epochs += 1;
    }
    if (this.in_cooldown) {
      this.cooldown_counter -= 1;
      this.num_bad_epochs = 0;
    }
    if (this.num_bad_epochs > this.patience) {
      this._reduce_lr();
      this.cooldown_counter = this.cooldown;
      this.num_bad_epochs = 0;
    }
    this.lastLr = groupsOf(this.optimizer).map((g) => g.lr);
  }

  private _reduce_lr(): void {
    const groups = groupsOf(this.optimizer);
    if (groups.length !== this.min_lrs.length) {
      if (this.default_min_lr === null) {
        throw new Error(
          `The number of param groups in the \`optimizer\` (${groups.length}) differs from when \`ReduceLROnPlateau\` was initialized (${this.min_lrs.length}), usually due to a new param group being added to the optimizer. Please modify the \`min_lrs\` field to match the length of the \`optimizer\` param groups.`,
        );
      }
      this.min_lrs = new Array<number>(groups.length).fill(this.default_min_lr);
    }
    groups.forEach((g, i) => {
      const oldLr = g.lr;
      const newLr = Math.max(oldLr * this.factor, this.min_lrs[i] as number);
      if (oldLr - newLr > this.eps) g.lr = newLr;
    });
  }

  /** `get_last_lr()`: the lr of each group after the last `step()`. */
  get_last_lr(): number[] {
    return [...this.lastLr];
  }
}

// camelCase spellings (Note [One naming rule]).
aliasCamelCase(LRScheduler.prototype, { getLastLr: 'get_last_lr', stateDict: 'state_dict', loadStateDict: 'load_state_dict' });
aliasCamelCase(ReduceLROnPlateau.prototype, { getLastLr: 'get_last_lr' });
aliasCamelCase(LambdaLR.prototype, { stateDict: 'state_dict', loadStateDict: 'load_state_dict' });
aliasCamelCase(MultiplicativeLR.prototype, { stateDict: 'state_dict', loadStateDict: 'load_state_dict' });
