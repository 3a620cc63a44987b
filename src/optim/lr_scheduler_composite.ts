// The schedulers of torch/optim/lr_scheduler.py that combine schedulers: SequentialLR (each in turn, switching at
// milestones) and ChainedScheduler (all of them on every step).

import { aliasCamelCase, type WithCamelKeys } from '../c10/Kwargs.js';
import type { Optimizer } from './optimizer.js';
import { LRScheduler, ReduceLROnPlateau } from './lr_scheduler.js';
import { checkKeys, groupsOf } from './_lr_scheduler_params.js';

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
for (const cls of [SequentialLR, ChainedScheduler]) {
  aliasCamelCase(cls.prototype, { stateDict: 'state_dict', loadStateDict: 'load_state_dict' });
}
