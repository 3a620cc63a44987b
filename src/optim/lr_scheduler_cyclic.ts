// The cyclic learning-rate schedules of torch/optim/lr_scheduler.py: OneCycleLR, CyclicLR and
// CosineAnnealingWarmRestarts (lr_scheduler.ts holds the base class), each `get_lr` evaluated in PyTorch's order on
// doubles.

import { cos, powi } from './_math.js';
import { aliasCamelCase, type WithCamelKeys } from '../c10/Kwargs.js';
import { pyRepr, type Optimizer } from './optimizer.js';
import { LRScheduler } from './lr_scheduler.js';
import { checkKeys, formatParam, groupsOf } from './_lr_scheduler_params.js';

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

/** CyclicLR's options, PyTorch's names and defaults. */
export interface CyclicLROptions {
  base_lr: number | readonly number[];
  max_lr: number | readonly number[];
  step_size_up?: number;
  step_size_down?: number | null;
  mode?: 'triangular' | 'triangular2' | 'exp_range';
  gamma?: number;
  scale_fn?: ((x: number) => number) | null;
  scale_mode?: 'cycle' | 'iterations';
  cycle_momentum?: boolean;
  base_momentum?: number | readonly number[];
  max_momentum?: number | readonly number[];
  last_epoch?: number;
}

/** `CyclicLR(optimizer, base_lr, max_lr, step_size_up=2000, ...)`: the cyclical lr policy (and momentum). */
export class CyclicLR extends LRScheduler {
  max_lrs: number[];
  total_size: number;
  step_ratio: number;
  mode: string;
  gamma: number;
  scale_mode: 'cycle' | 'iterations';
  cycle_momentum: boolean;
  use_beta1 = false;
  base_momentums: number[] = [];
  max_momentums: number[] = [];
  readonly #scaleFnCustom: ((x: number) => number) | null;

  constructor(optimizer: Optimizer<object>, options: WithCamelKeys<CyclicLROptions>) {
    const o = checkKeys('CyclicLR', options, [
      'base_lr',
      'max_lr',
      'step_size_up',
      'step_size_down',
      'mode',
      'gamma',
      'scale_fn',
      'scale_mode',
      'cycle_momentum',
      'base_momentum',
      'max_momentum',
      'last_epoch',
    ]);
    const lastEpoch = o.last_epoch ?? -1;
    const baseLrs = formatParam('base_lr', optimizer, o.base_lr);
    if (lastEpoch === -1) groupsOf(optimizer).forEach((g, i) => (g.lr = baseLrs[i] as number));
    const maxLrs = formatParam('max_lr', optimizer, o.max_lr);
    const up = o.step_size_up ?? 2000;
    const down = o.step_size_down ?? up;
    const mode = o.mode ?? 'triangular';
    const scaleFn = o.scale_fn ?? null;
    if (!['triangular', 'triangular2', 'exp_range'].includes(mode) && scaleFn === null) {
      throw new Error('mode is invalid and scale_fn is None');
    }
    const cycleMomentum = o.cycle_momentum ?? true;
    let useBeta1 = false;
    let baseMomentums: number[] = [];
    let maxMomentums: number[] = [];
    if (cycleMomentum) {
      const d = optimizer.defaults as Record<string, unknown>;
      if (!('momentum' in d) && !('betas' in d)) {
        throw new Error('optimizer must support momentum or beta1 with `cycle_momentum` option enabled');
      }
      useBeta1 = 'betas' in d;
      baseMomentums = formatParam('base_momentum', optimizer, o.base_momentum ?? 0.8);
      maxMomentums = formatParam('max_momentum', optimizer, o.max_momentum ?? 0.9);
      if (lastEpoch === -1) {
        groupsOf(optimizer).forEach((g, i) => {
          const m = maxMomentums[i] as number;
          if (useBeta1) g['betas'] = [m, ...(g['betas'] as number[]).slice(1)];
          else g['momentum'] = m;
          g['max_momentum'] = m;
          g['base_momentum'] = baseMomentums[i];
        });
      }
    }
    super(optimizer, lastEpoch);
    this.max_lrs = maxLrs;
    this.total_size = up + down;
    this.step_ratio = up / this.total_size;
    this.mode = mode;
    this.gamma = o.gamma ?? 1.0;
    this.#scaleFnCustom = scaleFn;
    this.scale_mode = scaleFn !== null ? (o.scale_mode ?? 'cycle') : mode === 'exp_range' ? 'iterations' : 'cycle';
    this.cycle_momentum = cycleMomentum;
    this.use_beta1 = useBeta1;
    this.base_momentums = baseMomentums;
    this.max_momentums = maxMomentums;
    this._initial_step();
    this.base_lrs = baseLrs;
  }

  /** `scale_fn(x)`: the custom function, or the mode's (1; 1 / 2^(x-1); gamma^x). */
  scale_fn(x: number): number {
    if (this.#scaleFnCustom !== null) return this.#scaleFnCustom(x);
    if (this.mode === 'triangular') return 1.0;
    if (this.mode === 'triangular2') return 1 / 2.0 ** (x - 1);
    return powi(this.gamma, x);
  }

  protected get_lr(): number[] {
    const cycle = Math.floor(1 + this.last_epoch / this.total_size);
    const x = 1.0 + this.last_epoch / this.total_size - cycle;
    const scaleFactor = x <= this.step_ratio ? x / this.step_ratio : (x - 1) / (this.step_ratio - 1);
    const at = this.scale_mode === 'cycle' ? cycle : this.last_epoch;
    const lrs = this.base_lrs.map((b, i) => b + ((this.max_lrs[i] as number) - b) * scaleFactor * this.scale_fn(at));
    if (this.cycle_momentum) {
      const momentums = this.base_momentums.map((bm, i) => {
        const mm = this.max_momentums[i] as number;
        return mm - (mm - bm) * scaleFactor * this.scale_fn(at);
      });
      groupsOf(this.optimizer).forEach((g, i) => {
        if (this.use_beta1) g['betas'] = [momentums[i], ...(g['betas'] as number[]).slice(1)];
        else g['momentum'] = momentums[i];
      });
    }
    return lrs;
  }

  override state_dict(): Record<string, unknown> {
    const sd = super.state_dict();
    sd['_scale_fn_custom'] = null;
    return sd;
  }

  override load_state_dict(state: Record<string, unknown>): void {
    const { _scale_fn_custom: _, ...rest } = state;
    super.load_state_dict(rest);
  }
}

/** `CosineAnnealingWarmRestarts(optimizer, T_0, T_mult=1, eta_min=0)`: SGDR, cosine annealing with restarts. */
export class CosineAnnealingWarmRestarts extends LRScheduler {
  T_0: number;
  T_i: number;
  T_mult: number;
  eta_min: number;
  T_cur: number;

  constructor(
    optimizer: Optimizer<object>,
    options: WithCamelKeys<{ T_0: number; T_mult?: number; eta_min?: number; last_epoch?: number }>,
  ) {
    const o = checkKeys('CosineAnnealingWarmRestarts', options, ['T_0', 'T_mult', 'eta_min', 'last_epoch']);
    const { T_0: t0 } = o;
    const tMult = o.T_mult ?? 1;
    if (!Number.isInteger(t0) || t0 <= 0) throw new Error(`Expected positive integer T_0, but got ${pyRepr(t0)}`);
    if (!Number.isInteger(tMult) || tMult < 1) throw new Error(`Expected integer T_mult >= 1, but got ${pyRepr(tMult)}`);
    const lastEpoch = o.last_epoch ?? -1;
    super(optimizer, lastEpoch);
    this.T_0 = t0;
    this.T_i = t0;
    this.T_mult = tMult;
    this.eta_min = o.eta_min ?? 0.0;
    this.T_cur = lastEpoch;
    this._initial_step();
  }

  protected get_lr(): number[] {
    return this.base_lrs.map((b) => this.eta_min + ((b - this.eta_min) * (1 + cos((Math.PI * this.T_cur) / this.T_i))) / 2);
  }

  /** `step(epoch=None)`: the next epoch, or the given (fractional) one. */
  override step(epoch?: number): void {
    // PyTorch's override does not count `_step_count`.
    if (epoch === undefined && this.last_epoch < 0) epoch = 0;
    if (epoch === undefined) {
      epoch = this.last_epoch + 1;
      this.T_cur = this.T_cur + 1;
      if (this.T_cur >= this.T_i) {
        this.T_cur = this.T_cur % this.T_i;
        this.T_i = this.T_i * this.T_mult;
      }
    } else {
      if (epoch < 0) throw new Error(`Expected non-negative epoch, but got ${pyRepr(epoch)}`);
      if (epoch >= this.T_0) {
        if (this.T_mult === 1) {
          this.T_cur = epoch % this.T_0;
        } else {
          const n = Math.trunc(Math.log((epoch / this.T_0) * (this.T_mult - 1) + 1) / Math.log(this.T_mult));
          this.T_cur = epoch - (this.T_0 * (this.T_mult ** n - 1)) / (this.T_mult - 1);
          this.T_i = this.T_0 * this.T_mult ** n;
        }
      } else {
        this.T_i = this.T_0;
        this.T_cur = epoch;
      }
    }
    this.last_epoch = Math.floor(epoch);
    const values = this.get_lr();
    groupsOf(this.optimizer).forEach((g, i) => (g.lr = values[i] as number));
    this.lastLr = groupsOf(this.optimizer).map((g) => g.lr);
  }
}

// The camelCase spellings of the overridden state_dict / load_state_dict (the base class's aliases point at its own).
aliasCamelCase(CyclicLR.prototype, { stateDict: 'state_dict', loadStateDict: 'load_state_dict' });
