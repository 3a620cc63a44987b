// PyTorch's OptimizerInfo database (torch/testing/_internal/common_optimizers.py, optim_db) replayed: every
// optimiser with every `optim_inputs_func(device='cpu')` sample — parameter trajectories over 5 steps (float64
// and float32 parameters, a parameter skipped for a step), the final state_dict (state keys in order, values,
// param_groups) and a state_dict round trip mid-run — and the `optim_error_inputs_func` samples' texts.
// Fixture: tools/golden/gen_optim_db.py → test/golden/optim_db.json.gz (its skip list says what is not replayed).
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { torch } from '../../src/index.js';
import * as optim from '../../src/optim/index.js';
import type { Optimizer } from '../../src/optim/index.js';
import { Tensor } from '../../src/tensor/Tensor.js';

type Dtype = 'float32' | 'float64' | 'complex64';
interface TensorJson {
  dtype: Dtype;
  shape: number[];
  values: number[];
}
type Pairs = [string, unknown][];
interface StateDictJson {
  state: [number, Pairs][];
  param_groups: Pairs[];
}
interface Sample {
  desc: string;
  kwargs: Record<string, unknown>;
  init: TensorJson[];
  grads?: (number[] | null)[][];
  coef?: [number[], number[]][];
  losses?: number[];
  trajectory: number[][][];
  state_dict: StateDictJson;
}
interface ParamsDesc {
  kind: 'default' | 'tensor' | 'list' | 'groups';
  shape?: number[];
  dtype?: Dtype;
  tensors?: [number[], Dtype, number][];
  count?: number;
  groups?: { params: number[]; options: Record<string, unknown> }[];
}
interface ErrorSample {
  desc: string;
  on: 'construction_error' | 'step_error';
  params: ParamsDesc;
  kwargs: Record<string, unknown>;
  type: string;
  text: string;
  complex: boolean;
}
interface Entry {
  name: string;
  samples: Sample[];
  errors: ErrorSample[];
  skipped: { what: string; reason: string }[];
}
interface Golden {
  generated_by: string;
  torch_version: string;
  steps: number;
  optimizers: Entry[];
}

const golden = JSON.parse(gunzipSync(readFileSync(new URL('../golden/optim_db.json.gz', import.meta.url))).toString('utf8')) as Golden;

type Ctor = new (params: unknown, options?: Record<string, unknown>) => Optimizer<object>;
const ctorOf = (name: string): Ctor | undefined => (optim as unknown as Record<string, Ctor | undefined>)[name];

function build(t: TensorJson): Tensor {
  return torch.tensor(t.values, { dtype: t.dtype }).reshape(t.shape);
}

// Note [Optimiser trajectory tolerances]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A difference is measured in units of the last place of the tensor's largest magnitude (an element near zero
// would make an elementwise count meaningless). float64 parameters follow PyTorch's op order exactly, so they
// agree to a few ulps (JavaScript's `**` and PyTorch's `pow` of Python floats, the composite addcmul). float32
// ones also meet the wheel's MKL float32 sqrt (Note [PyTorch's float32 sqrt is MKL's] in optim.test.ts): a
// 1-ulp difference that later steps carry on, further for optimisers that divide by a small, adapting
// denominator.
// LBFGS's line search interpolates with differences of nearly equal losses, and its state near convergence
// (`al`, `ro`, `H_diag`, the directions) holds dot products of ~1e-7 vectors that cancel: its trajectory is held
// to 1024 ulps and its state to ~1e-6 of each value's magnitude.
const F64_ULPS = 64;
const F64_ULPS_OF: Record<string, number> = { LBFGS: 1024 };
const F64_STATE_ULPS_OF: Record<string, number> = { LBFGS: 2 ** 32 };
const F32_ULPS: Record<string, number> = { default: 8 };

function maxUlps(got: number[], want: number[], dtype: Dtype): number {
  const scale = Math.max(...want.map(Math.abs));
  const ulp = 2 ** (Math.floor(Math.log2(scale || 1)) - (dtype === 'float64' ? 52 : 23));
  return Math.max(0, ...got.map((x, i) => Math.abs(x - want[i]!) / ulp));
}

// Note [Reloaded 0-dim state takes the parameter's dtype]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// `load_state_dict` casts every floating state tensor but `step` to its parameter's dtype (PyTorch's
// `_process_value_according_to_param_policy`), so NAdam's `mu_product` and ASGD's `eta` and `mu`, float32
// counters in an uninterrupted run, become float64 beside a float64 parameter after a round trip, in PyTorch as
// here, and the rest of the run rounds them differently. The round trip is therefore held to RELOADED_F64_ULPS
// (~1e-10 relative) and its state's 0-dim tensors to their values, not their dtype.
const RELOADED_F64_ULPS = 2 ** 22;

function expectClose(
  got: Tensor,
  want: { dtype: Dtype; values: number[] },
  name: string,
  what: string,
  reloaded = false,
  state = false,
): void {
  const g = (got.detach().flatten().tolist() as number[]).map(Number);
  const own = (state ? F64_STATE_ULPS_OF[name] : undefined) ?? F64_ULPS_OF[name] ?? F64_ULPS;
  const f64Bound = Math.max(reloaded ? RELOADED_F64_ULPS : 0, own);
  const bound = want.dtype === 'float64' ? f64Bound : (F32_ULPS[name] ?? (F32_ULPS['default'] as number));
  const u = maxUlps(g, want.values, want.dtype);
  expect(u, `${what}: ${u} ulps`).toBeLessThanOrEqual(bound);
}

/** Python's str() of a float that JavaScript reads back as an integer: `1.0` and `1` are one number here. */
const normaliseText = (s: string): string => s.replace(/(\d)\.0\b/g, '$1');

function stateValueEqual(got: unknown, want: unknown, name: string, what: string, reloaded: boolean): void {
  if (want !== null && typeof want === 'object' && !Array.isArray(want) && 'values' in want) {
    const w = want as TensorJson;
    expect(got, what).toBeInstanceOf(Tensor);
    const t = got as Tensor;
    const zeroDim = w.shape.length === 0 && !what.endsWith('.step');
    if (!(reloaded && zeroDim)) expect(String(t.dtype).replace('torch.', ''), `${what} dtype`).toBe(w.dtype);
    expect(t.shape, `${what} shape`).toEqual(w.shape);
    expectClose(t, w, name, what, reloaded, true);
  } else if (Array.isArray(want)) {
    expect(Array.isArray(got), `${what} is a list`).toBe(true);
    expect((got as unknown[]).length, `${what} length`).toBe(want.length);
    want.forEach((w, i) => stateValueEqual((got as unknown[])[i], w, name, `${what}[${i}]`, reloaded));
  } else if (typeof want === 'number' && typeof got === 'number' && !Number.isInteger(want)) {
    expect(Math.abs(got - want), `${what}: ${got} vs ${want}`).toBeLessThanOrEqual(
      (F64_STATE_ULPS_OF[name] ?? F64_ULPS) * 2 ** -52 * Math.abs(want),
    );
  } else {
    expect(got, what).toEqual(want);
  }
}

/**
 * LBFGS's `al`, the two-loop recursion's scratch coefficients kept in `state`: its shape (history_size entries,
 * None where unused), and values to 1e-6 of the largest (entries near convergence are cancellation noise).
 */
function checkScratch(got: unknown, want: (TensorJson | null)[], what: string): void {
  const g = got as (Tensor | null)[];
  expect(g.length, `${what} length`).toBe(want.length);
  expect(g.map((x) => x === null)).toEqual(want.map((x) => x === null));
  const w = want.map((x) => (x === null ? 0 : (x.values[0] as number)));
  const scale = Math.max(...w.map(Math.abs));
  g.forEach((x, i) => {
    if (x !== null) expect(Math.abs(Number(x.item()) - (w[i] as number)), `${what}[${i}]`).toBeLessThanOrEqual(1e-6 * scale);
  });
}

function checkStateDict(opt: Optimizer<object>, want: StateDictJson, name: string, label: string, reloaded = false): void {
  const sd = opt.state_dict();
  expect([...sd.state.keys()].sort(), `${label} state indices`).toEqual(want.state.map(([k]) => k));
  for (const [k, pairs] of want.state) {
    const s = sd.state.get(k) as Record<string, unknown>;
    expect(Object.keys(s), `${label} state[${k}] keys`).toEqual(pairs.map(([n]) => n));
    for (const [n, v] of pairs) {
      if (name === 'LBFGS' && n === 'al') checkScratch(s[n], v as (TensorJson | null)[], `${label} state[${k}].al`);
      else stateValueEqual(s[n], v, name, `${label} state[${k}].${n}`, reloaded);
    }
  }
  expect(sd.param_groups.length).toBe(want.param_groups.length);
  sd.param_groups.forEach((g, i) => {
    const pairs = want.param_groups[i] as Pairs;
    expect(Object.keys(g), `${label} param_groups[${i}] keys`).toEqual(pairs.map(([n]) => n));
    for (const [n, v] of pairs) expect(g[n], `${label} param_groups[${i}].${n}`).toEqual(v);
  });
}

/** Runs a sample's steps from `from` to `to` (exclusive), checking the trajectory. */
function runSteps(name: string, s: Sample, opt: Optimizer<object>, params: Tensor[], from: number, to: number, reloaded = false): void {
  const closure =
    s.coef === undefined
      ? undefined
      : (): Tensor => {
          const coef = s.coef!.map(([a, b], i) => [build({ ...s.init[i]!, values: a }), build({ ...s.init[i]!, values: b })]);
          let loss = torch.zeros([], { dtype: 'float64' });
          torch.no_grad(() => {
            params.forEach((p, i) => {
              const [a, b] = coef[i] as [Tensor, Tensor];
              loss = loss.add(a.mul(0.5).mul(p).mul(p).add(b.mul(p)).to('float64').sum());
              p.grad = a.mul(p).add(b);
            });
          });
          return loss;
        };
  for (let step = from; step < to; step++) {
    if (s.grads !== undefined) {
      (s.grads[step] as (number[] | null)[]).forEach((g, i) => {
        params[i]!.grad = g === null ? null : build({ ...s.init[i]!, values: g });
      });
    }
    const loss = opt.step(closure);
    if (s.losses !== undefined) {
      expect(Number((loss as Tensor).item()), `${name} ${s.desc} loss at step ${step}`).toBeCloseTo(s.losses[step] as number, 10);
    }
    (s.trajectory[step] as number[][]).forEach((want, i) =>
      expectClose(
        params[i]!,
        { dtype: s.init[i]!.dtype, values: want },
        name,
        `${name} (${s.desc}) param ${i} after step ${step + 1}`,
        reloaded,
      ),
    );
  }
}

describe('optim_db: every optimiser of OptimizerInfo against PyTorch 2.13', () => {
  it('the fixture carries its provenance and covers every optim_db entry', () => {
    expect(golden.generated_by).toBe('tools/golden/gen_optim_db.py');
    expect(golden.torch_version.startsWith('2.13')).toBe(true);
    expect(golden.optimizers.map((o) => o.name)).toContain('SGD');
    for (const o of golden.optimizers) {
      if (o.samples.length === 0) expect(o.skipped.length, `${o.name} is skipped with a reason`).toBeGreaterThan(0);
    }
  });

  // Only an entry whose every sample the generator left out, with the reason it records, has no replay: an
  // optimiser of optim_db that aten-ts lacks fails here rather than being skipped.
  it('only SparseAdam has no samples, for its sparse gradients', () => {
    const empty = golden.optimizers.filter((o) => o.samples.length === 0);
    expect(empty.map((o) => o.name)).toEqual(['SparseAdam']);
    expect(empty[0]!.skipped).toEqual([{ what: 'every sample', reason: 'needs sparse gradients (aten-ts has no sparse layouts)' }]);
  });

  for (const entry of golden.optimizers.filter((o) => o.samples.length > 0)) {
    const Ctor = ctorOf(entry.name);
    describe(entry.name, () => {
      it(`optim.${entry.name} exists`, () => {
        expect(Ctor, `optim.${entry.name}`).toBeTypeOf('function');
      });
      for (const s of entry.samples) {
        it(`${s.desc}: trajectory and state_dict`, () => {
          const params = s.init.map((t) => build(t).requires_grad_());
          const opt = new Ctor!(params, s.kwargs);
          runSteps(entry.name, s, opt, params, 0, golden.steps);
          checkStateDict(opt, s.state_dict, entry.name, `${entry.name} (${s.desc})`);
          // LBFGS's non-default lr sample runs 100 iterations with a growing history: ~2 minutes in stress mode.
        }, 240_000);
      }
      it("a state_dict round trip mid-run continues the trajectory (Note [Reloaded 0-dim state takes the parameter's dtype])", () => {
        const s = entry.samples[entry.samples.length - 1] as Sample;
        const params = s.init.map((t) => build(t).requires_grad_());
        const first = new Ctor!(params, s.kwargs);
        runSteps(entry.name, s, first, params, 0, 2);
        const second = new Ctor!(params, s.kwargs);
        second.load_state_dict(first.state_dict());
        runSteps(entry.name, s, second, params, 2, golden.steps, true);
        checkStateDict(second, s.state_dict, entry.name, `${entry.name} (${s.desc}) reloaded`, true);
      }, 240_000); // Muon's bfloat16 products allocate often: ~10 s in stress mode on a loaded machine
    });
  }
});

function errorParams(p: ParamsDesc): unknown {
  const mk = (shape: number[], dtype: Dtype): Tensor => torch.ones(shape, { dtype }).requires_grad_();
  switch (p.kind) {
    case 'default':
      return [mk([2, 3], 'float32')];
    case 'tensor':
      return mk(p.shape!, p.dtype!);
    case 'list': {
      const made: Tensor[] = [];
      return p.tensors!.map(([shape, dtype, id]) => (made[id] ??= mk(shape, dtype)));
    }
    case 'groups': {
      const ts = Array.from({ length: p.count! }, () => mk([1, 1], 'float32'));
      return p.groups!.map((g) => ({ ...g.options, params: g.params.map((i) => ts[i]) }));
    }
  }
}

describe('optim_db: the error inputs give PyTorch’s texts', () => {
  for (const entry of golden.optimizers) {
    const Ctor = ctorOf(entry.name);
    for (const e of entry.errors) {
      it(`${entry.name}: ${e.desc}`, () => {
        expect(Ctor, `optim.${entry.name}`).toBeTypeOf('function');
        const run = (): void => {
          const opt = new Ctor!(errorParams(e.params), e.kwargs);
          if (e.on === 'step_error') {
            for (const g of opt.param_groups) for (const p of g.params) p.grad = torch.ones_like(p);
            opt.step(entry.name === 'LBFGS' ? () => torch.tensor(0.0) : undefined);
          }
        };
        expect(run).toThrow(normaliseText(e.text));
        try {
          run();
        } catch (err) {
          expect(normaliseText((err as Error).message)).toBe(normaliseText(e.text));
          if (e.type === 'TypeError') expect(err).toBeInstanceOf(TypeError);
        }
      });
    }
  }
});
