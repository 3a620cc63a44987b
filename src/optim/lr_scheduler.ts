// Learning-rate schedulers: LRScheduler, StepLR, MultiStepLR, ExponentialLR, CosineAnnealingLR, LinearLR,
// OneCycleLR and ReduceLROnPlateau. Mirrors torch/optim/lr_scheduler.py: the recursive (chainable) `get_lr`
// forms, evaluated in the same order on doubles, so `get_last_lr()` gives PyTorch's values.

import { cos } from './_math.js';
import { aliasCamelCase, type WithCamelKeys } from '../c10/Kwargs.js';
import { Optimizer, checkOptionKeys } from './optimizer.js';

type Group = Record<string, unknown> & { lr: number };

function groupsOf(optimizer: Optimizer<object>): Group[] {
  return optimizer.param_groups as unknown as Group[];
}

/** The options with camelCase keys as their snake_case names, checked (checkOptionKeys of optimizer.ts). */
function checkKeys<T extends object>(name: string, options: T, keys: readonly string[]): T {
  return checkOptionKeys(name, options, Object.fromEntries(keys.map((k) => [k, true])));
}

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

/** OneCycleLR's options, PyTorch's names and defaults. */
export interface OneCycleLROptions {
  max_lr: number | readonly number[];
  total_steps?: number | null;
  epochs?: number | null;
  steps_per_epoch?: number | null;
  pct_start?: number;
  anneal_strategy?: 'cos' | 'linear';
  cycle_momentum?: boolean;
  base_momentum?: number | readonly number[];
  max_momentum?: number | readonly number[];
  div_factor?: number;
  final_div_factor?: number;
  three_phase?: boolean;
  last_epoch?: number;
}

interface Phase {
  end_step: number;
  start_lr: string;
  end_lr: string;
  start_momentum: string;
  end_momentum: string;
}

function formatParam(name: string, optimizer: Optimizer<object>, param: number | readonly number[]): number[] {
  const n = optimizer.param_groups.length;
  if (Array.isArray(param)) {
    if (param.length !== n)
      throw new Error(
        `${name} must have the same length as optimizer.param_groups. ${name} has ${param.length} values, param_groups has ${n}.`,
      );
    return [...(param as number[])];
  }
  return new Array<number>(n).fill(param as number);
}

/** `OneCycleLR(optimizer, max_lr, total_steps | epochs × steps_per_epoch, ...)`: the 1cycle policy, lr and momentum. */
export class OneCycleLR extends LRScheduler {
  total_steps: number;
  cycle_momentum: boolean;
  use_beta1 = false;
  private readonly phases: Phase[];
  private readonly annealStrategy: 'cos' | 'linear';

  constructor(optimizer: Optimizer<object>, options: WithCamelKeys<OneCycleLROptions>) {
    options = checkKeys('OneCycleLR', options, [
      'max_lr',
      'total_steps',
      'epochs',
      'steps_per_epoch',
      'pct_start',
      'anneal_strategy',
      'cycle_momentum',
      'base_momentum',
      'max_momentum',
      'div_factor',
      'final_div_factor',
      'three_phase',
      'last_epoch',
    ]);
    let total: number;
    const { total_steps: ts, epochs, steps_per_epoch: spe } = options;
    if (ts !== undefined && ts !== null) {
      if (ts <= 0 || !Number.isInteger(ts)) throw new Error(`Expected positive integer total_steps, but got ${ts}`);
      total = ts;
    } else if (epochs !== undefined && epochs !== null && spe !== undefined && spe !== null) {
      if (!Number.isInteger(epochs) || epochs <= 0) throw new Error(`Expected positive integer epochs, but got ${epochs}`);
      if (!Number.isInteger(spe) || spe <= 0) throw new Error(`Expected positive integer steps_per_epoch, but got ${spe}`);
      total = epochs * spe;
    } else {
      throw new Error('You must define either total_steps OR (epochs AND steps_per_epoch)');
    }
    const pct = options.pct_start ?? 0.3;
    const phases: Phase[] = options.three_phase
      ? [
          {
            end_step: pct * total - 1,
            start_lr: 'initial_lr',
            end_lr: 'max_lr',
            start_momentum: 'max_momentum',
            end_momentum: 'base_momentum',
          },
          {
            end_step: 2 * pct * total - 2,
            start_lr: 'max_lr',
            end_lr: 'initial_lr',
            start_momentum: 'base_momentum',
            end_momentum: 'max_momentum',
          },
          { end_step: total - 1, start_lr: 'initial_lr', end_lr: 'min_lr', start_momentum: 'max_momentum', end_momentum: 'max_momentum' },
        ]
      : [
          {
            end_step: pct * total - 1,
            start_lr: 'initial_lr',
            end_lr: 'max_lr',
            start_momentum: 'max_momentum',
            end_momentum: 'base_momentum',
          },
          { end_step: total - 1, start_lr: 'max_lr', end_lr: 'min_lr', start_momentum: 'base_momentum', end_momentum: 'max_momentum' },
        ];
    if (pct < 0 || pct > 1) throw new Error(`Expected float between 0 and 1 pct_start, but got ${pct}`);
    const strategy = options.anneal_strategy ?? 'cos';
    if (strategy !== 'cos' && strategy !== 'linear')
      throw new Error(`anneal_strategy must be one of 'cos' or 'linear', instead got ${String(strategy)}`);
    const lastEpoch = options.last_epoch ?? -1;
    const groups = groupsOf(optimizer);
    const maxLrs = formatParam('max_lr', optimizer, options.max_lr);
    const divFactor = options.div_factor ?? 25.0;
    const finalDiv = options.final_div_factor ?? 1e4;
    if (lastEpoch === -1) {
      groups.forEach((g, i) => {
        g['initial_lr'] = (maxLrs[i] as number) / divFactor;
        g['max_lr'] = maxLrs[i];
        g['min_lr'] = (g['initial_lr'] as number) / finalDiv;
      });
    }
    const cycle = options.cycle_momentum ?? true;
    let useBeta1 = false;
    if (cycle) {
      if (!('momentum' in optimizer.defaults) && !('betas' in optimizer.defaults)) {
        throw new Error('optimizer must support momentum or beta1 with `cycle_momentum` option enabled');
      }
      useBeta1 = 'betas' in optimizer.defaults;
      const maxM = formatParam('max_momentum', optimizer, options.max_momentum ?? 0.95);
      const baseM = formatParam('base_momentum', optimizer, options.base_momentum ?? 0.85);
      if (lastEpoch === -1) {
        groups.forEach((g, i) => {
          if (useBeta1) g['betas'] = [maxM[i], ...(g['betas'] as number[]).slice(1)];
          else g['momentum'] = maxM[i];
          g['max_momentum'] = maxM[i];
          g['base_momentum'] = baseM[i];
        });
      }
    }
    super(optimizer, lastEpoch);
    this.total_steps = total;
    this.phases = phases;
    this.annealStrategy = strategy;
    this.cycle_momentum = cycle;
    this.use_beta1 = useBeta1;
    this._initial_step();
  }

  private anneal(start: number, end: number, pct: number): number {
    if (this.annealStrategy === 'cos') return end + ((start - end) / 2.0) * (cos(Math.PI * pct) + 1);
    return (end - start) * pct + start;
  }

  protected get_lr(): number[] {
    const stepNum = this.last_epoch;
    if (stepNum > this.total_steps)
      throw new Error(`Tried to step ${stepNum} times. The specified number of total steps is ${this.total_steps}`);
    return groupsOf(this.optimizer).map((g) => {
      let start = 0.0;
      let lr = 0;
      let momentum = 0;
      for (let i = 0; i < this.phases.length; i++) {
        const phase = this.phases[i] as Phase;
        if (stepNum <= phase.end_step || i === this.phases.length - 1) {
          const pct = (stepNum - start) / (phase.end_step - start);
          lr = this.anneal(g[phase.start_lr] as number, g[phase.end_lr] as number, pct);
          if (this.cycle_momentum) momentum = this.anneal(g[phase.start_momentum] as number, g[phase.end_momentum] as number, pct);
          break;
        }
        start = phase.end_step;
      }
      if (this.cycle_momentum) {
        if (this.use_beta1) g['betas'] = [momentum, ...(g['betas'] as number[]).slice(1)];
        else g['momentum'] = momentum;
      }
      return lr;
    });
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
