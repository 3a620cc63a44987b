// lr schedulers against PyTorch 2.13: get_last_lr() after construction and after each of 30 steps (and the
// momentum OneCycleLR cycles), chained schedulers, state_dict. Fixture: tools/golden/gen_optim.py →
// test/golden/optim.json ("schedulers", float64 values as 16 hex digits of the bit pattern).
import { describe, expect, it } from 'vitest';
import { torch } from '../../src/index.js';
import * as optim from '../../src/optim/index.js';
import type { Optimizer } from '../../src/optim/index.js';
import { loadGolden } from '../golden.js';

const L = optim.lr_scheduler;

interface SchedCase {
  lrs: string[][];
  group_lrs: string[];
  momenta: string[];
}

const golden = loadGolden<{ schedulers: Record<string, SchedCase>; scheduler_state_dicts: Record<string, Record<string, unknown>> }>(
  'optim.json',
);

function hex(x: number): string {
  const v = new DataView(new ArrayBuffer(8));
  v.setFloat64(0, x);
  return Array.from(new Uint8Array(v.buffer), (b) => b.toString(16).padStart(2, '0')).join('');
}

type Sched = { step(metric: number): void; get_last_lr(): number[] } | { step(): void; get_last_lr(): number[] };
const PLATEAU = [
  1.0, 0.9, 0.91, 0.92, 0.93, 0.94, 0.8, 0.81, 0.82, 0.83, 0.84, 0.85, 0.86, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.6, 0.61, 0.62, 0.63, 0.64,
  0.65, 0.66, 0.67, 0.68, 0.69,
];

function run(
  build: (o: Optimizer<object>) => Sched | Sched[],
  opts: { opt?: 'SGD' | 'Adam'; options?: Record<string, unknown>; metrics?: number[]; groups?: number } = {},
): SchedCase {
  const params = Array.from({ length: opts.groups ?? 1 }, () => torch.zeros(2, { requires_grad: true }));
  const options = opts.options ?? { lr: 0.1 };
  const Ctor = (opts.opt === 'Adam' ? optim.Adam : optim.SGD) as unknown as new (
    p: unknown,
    o: Record<string, unknown>,
  ) => Optimizer<object>;
  const opt =
    params.length === 1 ? new Ctor(params, options) : new Ctor([{ params: [params[0]] }, { params: [params[1]], lr: 0.05 }], options);
  const built = build(opt);
  const scheds = Array.isArray(built) ? built : [built];
  const last = scheds[scheds.length - 1]!;
  const lrs = [last.get_last_lr().map(hex)];
  const momenta: string[] = [];
  for (let k = 0; k < 30; k++) {
    opt.step();
    for (const s of scheds) {
      if (s instanceof L.ReduceLROnPlateau) s.step(opts.metrics![k]!);
      else (s as { step(): void }).step();
    }
    lrs.push(last.get_last_lr().map(hex));
    const g0 = opt.param_groups[0] as Record<string, unknown>;
    if ('momentum' in g0) momenta.push(hex(g0['momentum'] as number));
    else if ('betas' in g0) momenta.push(hex((g0['betas'] as number[])[0]!));
  }
  return { lrs, group_lrs: opt.param_groups.map((g) => hex((g as Record<string, unknown>)['lr'] as number)), momenta };
}

const CASES: Record<string, () => SchedCase> = {
  StepLR: () => run((o) => new L.StepLR(o, { step_size: 7, gamma: 0.5 })),
  StepLR_groups: () => run((o) => new L.StepLR(o, { step_size: 3, gamma: 0.1 }), { groups: 2 }),
  MultiStepLR: () => run((o) => new L.MultiStepLR(o, { milestones: [5, 12, 12, 20], gamma: 0.3 })),
  ExponentialLR: () => run((o) => new L.ExponentialLR(o, { gamma: 0.9 })),
  CosineAnnealingLR: () => run((o) => new L.CosineAnnealingLR(o, { T_max: 10, eta_min: 0.001 })),
  CosineAnnealingLR_zero_min: () => run((o) => new L.CosineAnnealingLR(o, { T_max: 7 })),
  LinearLR: () => run((o) => new L.LinearLR(o, { start_factor: 0.25, end_factor: 1.0, total_iters: 8 })),
  LinearLR_decay: () => run((o) => new L.LinearLR(o, { start_factor: 1.0, end_factor: 0.1, total_iters: 12 }), { groups: 2 }),
  OneCycleLR_cos: () => run((o) => new L.OneCycleLR(o, { max_lr: 0.5, total_steps: 31 }), { options: { lr: 0.1, momentum: 0.9 } }),
  OneCycleLR_linear_three: () =>
    run(
      (o) =>
        new L.OneCycleLR(o, {
          max_lr: [0.4],
          epochs: 3,
          steps_per_epoch: 11,
          pct_start: 0.25,
          anneal_strategy: 'linear',
          three_phase: true,
          div_factor: 10.0,
          final_div_factor: 100.0,
        }),
      { options: { lr: 0.1, momentum: 0.9 } },
    ),
  OneCycleLR_adam: () => run((o) => new L.OneCycleLR(o, { max_lr: 0.01, total_steps: 40 }), { opt: 'Adam', options: { lr: 0.001 } }),
  ReduceLROnPlateau: () => run((o) => new L.ReduceLROnPlateau(o, { factor: 0.5, patience: 2 }), { metrics: PLATEAU }),
  ReduceLROnPlateau_max_cooldown: () =>
    run(
      (o) =>
        new L.ReduceLROnPlateau(o, {
          mode: 'max',
          factor: 0.2,
          patience: 1,
          threshold: 0.05,
          threshold_mode: 'abs',
          cooldown: 2,
          min_lr: 0.002,
        }),
      {
        metrics: PLATEAU.map((m) => -m),
      },
    ),
  chained_Exponential_Step: () => run((o) => [new L.ExponentialLR(o, { gamma: 0.95 }), new L.StepLR(o, { step_size: 4, gamma: 0.5 })]),
  chained_Linear_Cosine: () =>
    run((o) => [new L.LinearLR(o, { start_factor: 0.5, total_iters: 5 }), new L.CosineAnnealingLR(o, { T_max: 12, eta_min: 0.01 })]),
  chained_MultiStep_Exponential: () =>
    run((o) => [new L.MultiStepLR(o, { milestones: [3, 9], gamma: 0.5 }), new L.ExponentialLR(o, { gamma: 0.97 })]),
};

/** Distance in float64 ulps between two values given as bit-pattern hex strings (same sign assumed). */
function ulps(a: string, b: string): number {
  return Number(BigInt(`0x${a}`) - BigInt(`0x${b}`)) * (a < b ? -1 : 1);
}

// Note [V8's cos is not glibc's]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's schedulers call Python's math.cos, which is glibc's correctly rounded cos; V8's Math.cos is fdlibm's
// (< 1 ulp, not always correctly rounded). The schedulers whose values come from a cosine (CosineAnnealingLR,
// OneCycleLR's cos annealing) then drift by a few float64 ulps over the recursive schedule; every other
// scheduler is compared bit for bit. COS_ULPS is the smallest bound that passes.
const COS_ULPS = 3;
const USES_COS = new Set(['CosineAnnealingLR', 'CosineAnnealingLR_zero_min', 'OneCycleLR_cos', 'OneCycleLR_adam', 'chained_Linear_Cosine']);

function expectClose(got: string[], want: string[], bound: number): void {
  expect(got.length).toBe(want.length);
  got.forEach((g, i) => expect(ulps(g, want[i]!), `${g} vs ${want[i]}`).toBeLessThanOrEqual(bound));
}

describe('lr schedulers give PyTorch’s get_last_lr()', () => {
  for (const [name, want] of Object.entries(golden.schedulers)) {
    it(name, () => {
      const build = CASES[name];
      expect(build, `no case ${name}`).toBeDefined();
      const got = build!();
      if (!USES_COS.has(name)) {
        expect(got.lrs).toEqual(want.lrs);
        expect(got.group_lrs).toEqual(want.group_lrs);
        expect(got.momenta).toEqual(want.momenta);
      } else {
        expect(got.lrs.length).toBe(want.lrs.length);
        got.lrs.forEach((row, k) => expectClose(row, want.lrs[k]!, COS_ULPS));
        expectClose(got.group_lrs, want.group_lrs, COS_ULPS);
        expectClose(got.momenta, want.momenta, COS_ULPS);
      }
    });
  }

  it('state_dict has PyTorch’s fields and values', () => {
    const opt = new optim.SGD([torch.zeros(2, { requires_grad: true })], { lr: 0.1 });
    const s = new L.StepLR(opt, { step_size: 3, gamma: 0.5 });
    for (let k = 0; k < 4; k++) {
      opt.step();
      s.step();
    }
    const sd = s.state_dict();
    const want = golden.scheduler_state_dicts['StepLR']!;
    expect(sd['step_size']).toBe(want['step_size']);
    expect(hex(sd['gamma'] as number)).toBe(want['gamma']);
    expect((sd['base_lrs'] as number[]).map(hex)).toEqual(want['base_lrs']);
    expect(sd['last_epoch']).toBe(want['last_epoch']);
    expect(sd['_step_count']).toBe(want['_step_count']);
    expect((sd['_last_lr'] as number[]).map(hex)).toEqual(want['_last_lr']);
  });

  it('LinearLR checks its factors with PyTorch’s text', () => {
    const opt = new optim.SGD([torch.zeros(2, { requires_grad: true })], { lr: 0.1 });
    expect(() => new L.LinearLR(opt, { start_factor: 0 })).toThrow(
      'Starting multiplicative factor expected to be greater than 0 and less or equal to 1.',
    );
  });
});
