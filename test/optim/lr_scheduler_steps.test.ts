// The lr_schedulers of torch/optim/lr_scheduler.py beyond lr_scheduler.test.ts's: LambdaLR, MultiplicativeLR,
// ConstantLR, PolynomialLR, CyclicLR, CosineAnnealingWarmRestarts, SequentialLR and ChainedScheduler against
// PyTorch 2.13: `get_last_lr()` over 30 steps and the cycled momentum bit for bit, the state_dict's fields, and
// the constructors' error texts. Fixture: tools/golden/gen_lr_scheduler_steps.py → test/golden/lr_scheduler_steps.json.
import { describe, expect, it } from 'vitest';
import { torch } from '../../src/index.js';
import * as optim from '../../src/optim/index.js';
import type { Optimizer } from '../../src/optim/index.js';
import { loadGolden } from '../golden.js';

const L = optim.lr_scheduler;

interface Case {
  opt: 'SGD' | 'Adam';
  opt_options: Record<string, unknown>;
  groups: number;
  lrs: string[][];
  group_lrs: string[];
  momenta: string[];
  state_dict: Record<string, unknown>;
  state_keys: string[];
}
interface Golden {
  steps: number;
  cases: Record<string, Case>;
  errors: Record<string, { type: string; text: string } | null>;
}

const golden = loadGolden<Golden>('lr_scheduler_steps.json');

const hex64 = (x: number): string => {
  const b = new DataView(new ArrayBuffer(8));
  b.setFloat64(0, x);
  return Array.from({ length: 8 }, (_, i) => b.getUint8(i).toString(16).padStart(2, '0')).join('');
};

type Sched = { step(): void; get_last_lr(): number[]; state_dict(): Record<string, unknown> };

// The same schedules as the generator's CASES (lambdas whose arithmetic is exact or correctly rounded).
const BUILD: Record<string, (o: Optimizer<object>) => Sched> = {
  LambdaLR: (o) => new L.LambdaLR(o, { lr_lambda: (e) => 1.0 / (e + 1) }),
  LambdaLR_groups: (o) => new L.LambdaLR(o, { lr_lambda: [(e) => 1.0 / (e + 1), (e) => 0.5 * e] }),
  MultiplicativeLR: (o) => new L.MultiplicativeLR(o, { lr_lambda: () => 0.9 }),
  ConstantLR: (o) => new L.ConstantLR(o, { factor: 0.5, total_iters: 4 }),
  ConstantLR_default: (o) => new L.ConstantLR(o),
  PolynomialLR: (o) => new L.PolynomialLR(o, { total_iters: 10, power: 2.0 }),
  PolynomialLR_default: (o) => new L.PolynomialLR(o),
  CyclicLR_triangular: (o) => new L.CyclicLR(o, { base_lr: 0.01, max_lr: 0.1, step_size_up: 4 }),
  CyclicLR_triangular2: (o) =>
    new L.CyclicLR(o, { base_lr: 0.01, max_lr: 0.1, step_size_up: 3, step_size_down: 5, mode: 'triangular2', cycle_momentum: false }),
  CyclicLR_exp_range_adam: (o) =>
    new L.CyclicLR(o, {
      base_lr: 0.001,
      max_lr: 0.01,
      step_size_up: 5,
      mode: 'exp_range',
      gamma: 0.9,
      base_momentum: 0.85,
      max_momentum: 0.95,
    }),
  CosineAnnealingWarmRestarts: (o) => new L.CosineAnnealingWarmRestarts(o, { T_0: 5 }),
  CosineAnnealingWarmRestarts_mult: (o) => new L.CosineAnnealingWarmRestarts(o, { T_0: 3, T_mult: 2, eta_min: 0.01 }),
  SequentialLR: (o) =>
    new L.SequentialLR(o, {
      schedulers: [new L.ConstantLR(o, { factor: 0.5, total_iters: 3 }), new L.ExponentialLR(o, { gamma: 0.9 })],
      milestones: [4],
    }),
  SequentialLR_three: (o) =>
    new L.SequentialLR(o, {
      schedulers: [
        new L.LinearLR(o, { start_factor: 0.1, total_iters: 5 }),
        new L.CosineAnnealingLR(o, { T_max: 7, eta_min: 0.001 }),
        new L.StepLR(o, { step_size: 3, gamma: 0.5 }),
      ],
      milestones: [5, 12],
    }),
  ChainedScheduler: (o) =>
    new L.ChainedScheduler([new L.ConstantLR(o, { factor: 0.1, total_iters: 2 }), new L.ExponentialLR(o, { gamma: 0.9 })]),
  ChainedScheduler_poly_multistep: (o) =>
    new L.ChainedScheduler([
      new L.PolynomialLR(o, { total_iters: 8, power: 0.5 }),
      new L.MultiStepLR(o, { milestones: [3, 6], gamma: 0.5 }),
    ]),
};

function optimizerFor(c: Case): Optimizer<object> {
  const p = Array.from({ length: c.groups }, () => torch.zeros([2]).requires_grad_());
  const Ctor = optim[c.opt] as unknown as new (p: unknown, o: Record<string, unknown>) => Optimizer<object>;
  if (c.groups === 1) return new Ctor(p, c.opt_options);
  return new Ctor([{ params: [p[0]] }, { params: [p[1]], lr: 0.05 }], c.opt_options);
}

// Fields of PyTorch's state_dict that are Python bookkeeping with no aten-ts counterpart.
const PYTHON_ONLY = new Set(['_get_lr_called_within_step']);

/** PyTorch's state_dict value (hex64 floats as {f}) against aten-ts's. */
function expectStateValue(got0: unknown, want: unknown, what: string): void {
  // MultiStepLR's milestones (a Counter, int keys) are a Map here.
  const got = got0 instanceof Map ? Object.fromEntries(got0) : got0;
  if (want !== null && typeof want === 'object' && !Array.isArray(want) && 'f' in want) {
    expect(typeof got, what).toBe('number');
    expect(hex64(got as number), what).toBe((want as { f: string }).f);
  } else if (Array.isArray(want)) {
    expect(Array.isArray(got), `${what} is a list`).toBe(true);
    expect((got as unknown[]).length, what).toBe(want.length);
    want.forEach((w, i) => expectStateValue((got as unknown[])[i], w, `${what}[${i}]`));
  } else if (want !== null && typeof want === 'object') {
    for (const [k, w] of Object.entries(want)) {
      if (PYTHON_ONLY.has(k)) continue;
      expect(got as object, `${what} has ${k}`).toHaveProperty([k]);
      expectStateValue((got as Record<string, unknown>)[k], w, `${what}.${k}`);
    }
  } else {
    expect(got, what).toEqual(want);
  }
}

describe('lambda, cyclic and composite lr_schedulers step for step against PyTorch 2.13', () => {
  for (const [name, c] of Object.entries(golden.cases)) {
    it(`${name}: get_last_lr over ${golden.steps} steps, momentum, state_dict`, () => {
      const opt = optimizerFor(c);
      const s = (BUILD[name] as (o: Optimizer<object>) => Sched)(opt);
      const lrs = [s.get_last_lr().map(hex64)];
      const momenta: string[] = [];
      for (let k = 0; k < golden.steps; k++) {
        opt.step();
        s.step();
        lrs.push(s.get_last_lr().map(hex64));
        const g = opt.param_groups[0] as Record<string, unknown>;
        if ('momentum' in g) momenta.push(hex64(g['momentum'] as number));
        else if ('betas' in g) momenta.push(hex64((g['betas'] as number[])[0] as number));
      }
      expect(lrs).toEqual(c.lrs);
      expect(momenta).toEqual(c.momenta);
      expect(opt.param_groups.map((g) => hex64((g as unknown as { lr: number }).lr))).toEqual(c.group_lrs);
      expectStateValue(s.state_dict(), c.state_dict, `${name}.state_dict()`);
    });
  }

  it('a state_dict round trip continues the schedule (CosineAnnealingWarmRestarts, SequentialLR)', () => {
    for (const name of ['CosineAnnealingWarmRestarts_mult', 'SequentialLR_three']) {
      const c = golden.cases[name] as Case;
      const opt = optimizerFor(c);
      const first = (BUILD[name] as (o: Optimizer<object>) => Sched)(opt);
      for (let k = 0; k < 7; k++) first.step();
      const saved = first.state_dict();
      const opt2 = optimizerFor(c);
      const second = (BUILD[name] as (o: Optimizer<object>) => Sched)(opt2) as Sched & {
        load_state_dict(s: Record<string, unknown>): void;
      };
      second.load_state_dict(saved);
      opt2.param_groups.forEach((g, i) => ((g as unknown as { lr: number }).lr = (opt.param_groups[i] as unknown as { lr: number }).lr));
      for (let k = 7; k < golden.steps; k++) {
        second.step();
        expect(second.get_last_lr().map(hex64), `${name} step ${k + 1}`).toEqual(c.lrs[k + 1]);
      }
    }
  });

  it('the constructors’ errors give PyTorch’s texts', () => {
    const opt = new optim.SGD([torch.zeros([2]).requires_grad_()], { lr: 0.1 });
    const attempts: Record<string, () => unknown> = {
      ConstantLR_factor: () => new L.ConstantLR(opt, { factor: 1.5 }),
      LambdaLR_count: () => new L.LambdaLR(opt, { lr_lambda: [() => 1.0, () => 1.0] }),
      CyclicLR_mode: () => new L.CyclicLR(opt, { base_lr: 0.01, max_lr: 0.1, mode: 'bogus' as 'triangular' }),
      CyclicLR_base_lr_count: () => new L.CyclicLR(opt, { base_lr: [0.01, 0.02], max_lr: 0.1 }),
      CosineAnnealingWarmRestarts_T0: () => new L.CosineAnnealingWarmRestarts(opt, { T_0: 0 }),
      CosineAnnealingWarmRestarts_Tmult: () => new L.CosineAnnealingWarmRestarts(opt, { T_0: 2, T_mult: 0 }),
      SequentialLR_milestones: () =>
        new L.SequentialLR(opt, { schedulers: [new L.ConstantLR(opt), new L.ConstantLR(opt)], milestones: [] }),
      SequentialLR_empty: () => new L.SequentialLR(opt, { schedulers: [], milestones: [] }),
      ChainedScheduler_empty: () => new L.ChainedScheduler([]),
      ChainedScheduler_plateau: () =>
        new L.ChainedScheduler([new L.ConstantLR(opt), new L.ReduceLROnPlateau(opt) as unknown as InstanceType<typeof L.ConstantLR>]),
    };
    for (const [name, want] of Object.entries(golden.errors)) {
      expect(want, name).not.toBeNull();
      expect(attempts[name] as () => unknown, name).toThrow(want!.text);
    }
  });
});
