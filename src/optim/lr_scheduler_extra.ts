// Learning-rate schedulers, continued (lr_scheduler.ts holds the base class and the first seven): LambdaLR,
// MultiplicativeLR, ConstantLR, PolynomialLR, CyclicLR, CosineAnnealingWarmRestarts, SequentialLR and
// ChainedScheduler. Mirrors torch/optim/lr_scheduler.py, each `get_lr` evaluated in PyTorch's order on doubles.

import { cos, powi } from './_math.js';
import { aliasCamelCase, type WithCamelKeys } from '../c10/Kwargs.js';
import { checkOptionKeys, pyRepr, type Optimizer } from './optimizer.js';
import { LRScheduler, ReduceLROnPlateau } from './lr_scheduler.js';

type Group = Record<string, unknown> & { lr: number };
const groupsOf = (optimizer: Optimizer<object>): Group[] => optimizer.param_groups as unknown as Group[];
const checkKeys = <T extends object>(name: string, options: T, keys: readonly string[]): T =>
  checkOptionKeys(name, options, Object.fromEntries(keys.map((k) => [k, true])));

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

function formatParam(name: string, optimizer: Optimizer<object>, param: number | readonly number[]): number[] {
  const n = optimizer.param_groups.length;
  if (Array.isArray(param)) {
    if (param.length !== n) throw new Error(`expected ${n} values for ${name}, got ${param.length}`);
    return [...(param as number[])];
  }
  return new Array<number>(n).fill(param as number);
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

function checkChildren(name: string, optimizer: Optimizer<object>, schedulers: readonly unknown[]): void {
  schedulers.forEach((s, i) => {
    if (s === null || typeof s !== 'object' || !('optimizer' in s)) {
      throw new TypeError(`${name} at index ${i} should have \`optimizer\` as its attribute.`);
    }
    if (s instanceof ReduceLROnPlateau) {
      throw new Error(
        `${name} does not support \`ReduceLROnPlateau\` scheduler as it requires additional kwargs to be specified when calling \`step\`, but got one at index ${i} in the given schedulers sequence.`,
      );
    }
    if ((s as { optimizer: unknown }).optimizer !== optimizer) {
      throw new Error(
        `${name} expects all schedulers to belong to the same optimizer, but got scheduler ${s.constructor.name} at index ${i} has ${String((s as { optimizer: unknown }).optimizer)}, which is different from ${optimizer.constructor.name}.`,
      );
    }
  });
}

/** A scheduler or a composite of schedulers (SequentialLR's `recursive_undo` walks both). */
type AnyScheduler = LRScheduler;

/** `SequentialLR(optimizer, schedulers, milestones)`: each scheduler in turn, switching at the milestones. */
export class SequentialLR extends LRScheduler {
  _schedulers: AnyScheduler[];
  _milestones: number[];

  constructor(
    optimizer: Optimizer<object>,
    options: WithCamelKeys<{ schedulers: readonly LRScheduler[]; milestones: readonly number[]; last_epoch?: number }>,
  ) {
    const o = checkKeys('SequentialLR', options, ['schedulers', 'milestones', 'last_epoch']);
    const schedulers = [...o.schedulers];
    if (schedulers.length < 1) throw new Error('SequentialLR expects at least one scheduler, but got no scheduler.');
    checkChildren('SequentialLR', optimizer, schedulers);
    if (o.milestones.length !== schedulers.length - 1) {
      throw new Error(
        `Sequential Schedulers expects number of schedulers provided to be one more than the number of milestone points, but got number of schedulers ${schedulers.length} and the number of milestones to be equal to ${o.milestones.length}`,
      );
    }
    super(optimizer, 0); // PyTorch's SequentialLR does not call the base constructor: its fields are set below
    this._schedulers = schedulers;
    this._milestones = [...o.milestones];
    this.last_epoch = (o.last_epoch ?? -1) + 1;
    this.base_lrs = groupsOf(optimizer).map((g) => g['initial_lr'] as number);
    for (const g of groupsOf(optimizer)) g.lr = g['initial_lr'] as number;
    this.#recursiveUndo(this);
    const idx = bisectRight(this._milestones, 0);
    const first = this._schedulers[idx] as AnyScheduler;
    first._initial_step();
    this.lastLr = first.get_last_lr();
  }

  /** `recursive_undo`: steps every nested scheduler's `last_epoch` back by one (their constructors stepped). */
  #recursiveUndo(sched: AnyScheduler | SequentialLR | ChainedScheduler): void {
    if ('_schedulers' in sched) for (const s of sched._schedulers) this.#recursiveUndo(s);
    else sched.last_epoch -= 1;
  }

  protected get_lr(): number[] {
    return this.get_last_lr();
  }

  override step(): void {
    this.last_epoch += 1;
    const idx = bisectRight(this._milestones, this.last_epoch);
    const scheduler = this._schedulers[idx] as AnyScheduler;
    if (idx > 0 && this._milestones[idx - 1] === this.last_epoch) scheduler._update_lr(0);
    else scheduler.step();
    this.lastLr = scheduler.get_last_lr();
  }

  override state_dict(): Record<string, unknown> {
    const sd = super.state_dict();
    sd['_schedulers'] = this._schedulers.map((s) => s.state_dict());
    return sd;
  }

  override load_state_dict(state: Record<string, unknown>): void {
    const { _schedulers: subs, ...rest } = state;
    super.load_state_dict(rest);
    (subs as Record<string, unknown>[]).forEach((s, i) => (this._schedulers[i] as AnyScheduler).load_state_dict(s));
  }
}

/** `ChainedScheduler(schedulers, optimizer=None)`: every scheduler's `step()` on each step, in order. */
export class ChainedScheduler extends LRScheduler {
  _schedulers: AnyScheduler[];

  constructor(schedulers: readonly LRScheduler[], optimizer?: Optimizer<object> | null) {
    if (schedulers.length < 1) {
      throw new Error('ChainedScheduler expects at least one scheduler to be chained, but got no scheduler.');
    }
    const opt = optimizer ?? (schedulers[0] as LRScheduler).optimizer;
    checkChildren('ChainedScheduler', opt, schedulers);
    super(opt, 0); // PyTorch's ChainedScheduler does not call the base constructor
    this._schedulers = [...schedulers];
    this.lastLr = groupsOf((this._schedulers[this._schedulers.length - 1] as AnyScheduler).optimizer).map((g) => g.lr);
  }

  protected get_lr(): number[] {
    return this.get_last_lr();
  }

  override step(): void {
    for (const s of this._schedulers) s.step();
    this.lastLr = groupsOf((this._schedulers[this._schedulers.length - 1] as AnyScheduler).optimizer).map((g) => g.lr);
  }

  override state_dict(): Record<string, unknown> {
    const sd = super.state_dict();
    sd['_schedulers'] = this._schedulers.map((s) => s.state_dict());
    return sd;
  }

  override load_state_dict(state: Record<string, unknown>): void {
    const { _schedulers: subs, ...rest } = state;
    super.load_state_dict(rest);
    (subs as Record<string, unknown>[]).forEach((s, i) => (this._schedulers[i] as AnyScheduler).load_state_dict(s));
  }
}

/** Python's `bisect_right(a, x)`: the index after the last element <= x of the sorted `a`. */
function bisectRight(a: readonly number[], x: number): number {
  let i = 0;
  while (i < a.length && (a[i] as number) <= x) i++;
  return i;
}

// The camelCase spellings of the overridden state_dict / load_state_dict (the base class's aliases point at its own).
for (const cls of [LambdaLR, MultiplicativeLR, CyclicLR, SequentialLR, ChainedScheduler]) {
  aliasCamelCase(cls.prototype, { stateDict: 'state_dict', loadStateDict: 'load_state_dict' });
}
