// torch.optim's multi-tensor (foreach=True) and fused (fused=True) paths and the `_foreach_*` / `_fused_*`
// operators against PyTorch 2.13. Fixture: tools/golden/gen_optim_foreach.py → test/golden/optim_foreach.json.
import { describe, expect, it } from 'vitest';
import { torch } from '../../src/index.js';
import * as optim from '../../src/optim/index.js';
import type { Optimizer } from '../../src/optim/index.js';
import type { Tensor } from '../../src/tensor/Tensor.js';
import { loadGolden } from '../golden.js';

interface Trajectory {
  optimizer: 'SGD' | 'Adam' | 'AdamW';
  options: Record<string, unknown>;
  impl: 'single' | 'foreach' | 'fused';
  dtype: 'float32' | 'float64';
  shapes: number[][];
  init: number[][];
  grads: number[][][];
  after: number[][][];
  state: Record<string, number | number[]>[];
}

interface Golden {
  cpu_capability: string;
  trajectories: Trajectory[];
  ops: { xs: number[][]; ys: number[][]; zs: number[][]; shapes: number[][]; results: Record<string, number[][]> };
  errors: Record<string, { type: string; error: string } | null>;
  fused_amp: Record<string, { init: Record<string, number[]>; adam: Record<string, number[]>; sgd: Record<string, number[]> }>;
}

const golden = loadGolden<Golden>('optim_foreach.json');
const IMPL_OPTIONS = { single: { foreach: false }, foreach: { foreach: true }, fused: { fused: true } } as const;

function make(values: number[], shape: number[], dtype: string): Tensor {
  return torch.tensor(values, { dtype: dtype as 'float32' }).reshape(shape);
}

function valuesOf(t: Tensor): number[] {
  return (t.detach().contiguous().flatten().tolist() as number[]).map(Number);
}

/** The largest difference in units of the last place of the tensor's largest magnitude (float32 or float64). */
function maxUlps(got: number[], wantEnc: (number | string)[], dtype: string): number {
  // _encode.enc: non-finite values are the strings 'nan', 'inf', '-inf'
  const decoded = wantEnc.map((v) => (v === 'nan' ? NaN : v === 'inf' ? Infinity : v === '-inf' ? -Infinity : (v as number)));
  if (got.some((x, i) => Number.isNaN(x) !== Number.isNaN(decoded[i]))) return Infinity;
  const g = got.filter((x) => !Number.isNaN(x));
  const want = decoded.filter((x) => !Number.isNaN(x));
  const scale = Math.max(0, ...want.map(Math.abs));
  const ulp = 2 ** (Math.floor(Math.log2(scale || 1)) - (dtype === 'float64' ? 52 : 23));
  return Math.max(0, ...g.map((x, i) => Math.abs(x - (want[i] as number)) / ulp));
}

/** Indices where two value lists differ (empty when bit-identical). */
function mismatches(got: number[], want: number[]): number[] {
  return got.flatMap((x, i) => (Object.is(x, want[i]) || x === want[i] ? [] : [i]));
}

// fused=True is compared bit for bit: its kernel is emulated operation by operation, fused multiply-adds
// included (Note [The fused optimiser kernels' rounding] in src/kernels/FusedAdam.ts; the goldens come from an
// AVX512 wheel, `cpu_capability`). The single-tensor and foreach paths call the aten-ts single-tensor kernels,
// which differ from the wheel's in its MKL float32 sqrt and unfused multiply-adds (Note [PyTorch's float32 sqrt
// is MKL's] in optim.test.ts): a few ulps of the tensor's largest magnitude over four steps.
const ULPS = { SGD: 2, Adam: 4, AdamW: 4 };

function run(c: Trajectory, impl: Trajectory['impl']): { params: Tensor[]; opt: Optimizer<object> } {
  const params = c.shapes.map((s, j) => make(c.init[j] as number[], s, c.dtype).requiresGrad_());
  const Ctor = optim[c.optimizer] as unknown as new (p: Tensor[], o: Record<string, unknown>) => Optimizer<object>;
  const opt = new Ctor(params, { ...c.options, ...IMPL_OPTIONS[impl] });
  return { params, opt };
}

describe('trajectories against PyTorch (foreach=False / True, fused=True; float32 and float64)', () => {
  golden.trajectories.forEach((c, i) => {
    it(`${i}: ${c.optimizer} ${c.impl} ${c.dtype} ${JSON.stringify(c.options)}`, () => {
      const { params, opt } = run(c, c.impl);
      c.grads.forEach((row, k) => {
        params.forEach((p, j) => (p.grad = make(row[j] as number[], c.shapes[j] as number[], c.dtype)));
        opt.step();
        params.forEach((p, j) => {
          const got = valuesOf(p);
          const want = c.after[k]![j]!;
          if (c.impl === 'fused') expect(mismatches(got, want), `step ${k} param ${j}`).toEqual([]);
          else expect(maxUlps(got, want, c.dtype), `step ${k} param ${j}`).toBeLessThanOrEqual(ULPS[c.optimizer]);
        });
      });
      params.forEach((p, j) => {
        const state = (opt.state.get(p) ?? {}) as Record<string, unknown>;
        expect(Object.keys(state)).toEqual(Object.keys(c.state[j]!));
        for (const [key, want] of Object.entries(c.state[j]!)) {
          const t = state[key] as Tensor;
          if (key === 'step') {
            expect(Number(t.item())).toBe(want);
            expect(String(t.dtype)).toBe('torch.float32');
          } else if (c.impl === 'fused') expect(mismatches(valuesOf(t), want as number[]), key).toEqual([]);
          else expect(maxUlps(valuesOf(t), want as number[], c.dtype), key).toBeLessThanOrEqual(ULPS[c.optimizer]);
        }
      });
    });
  });

  it('SGD: foreach=True gives the single-tensor path bit for bit (both run the same kernels, as in PyTorch)', () => {
    for (const c of golden.trajectories.filter((t) => t.impl === 'foreach' && t.optimizer === 'SGD')) {
      const a = run(c, 'single');
      const b = run(c, 'foreach');
      c.grads.forEach((row) => {
        for (const { params, opt } of [a, b]) {
          params.forEach((p, j) => (p.grad = make(row[j] as number[], c.shapes[j] as number[], c.dtype)));
          opt.step();
        }
      });
      a.params.forEach((p, j) =>
        expect(mismatches(valuesOf(b.params[j]!), valuesOf(p)), `${c.optimizer} ${JSON.stringify(c.options)}`).toEqual([]),
      );
    }
  });
});

describe('_foreach_* operators', () => {
  const o = golden.ops;
  const list = (vs: number[][]): Tensor[] => vs.map((v, i) => make(v, o.shapes[i]!, 'float32'));
  const xs = (): Tensor[] => list(o.xs);
  const ys = list(o.ys);
  const zs = list(o.zs);
  const t = torch as unknown as Record<string, (...a: unknown[]) => unknown>;
  const inplace = (fn: (c: Tensor[]) => void): Tensor[] => {
    const c = xs();
    fn(c);
    return c;
  };
  const calls: Record<string, () => Tensor[]> = {
    'add.Scalar': () => t['_foreach_add']!(xs(), 0.5) as Tensor[],
    'add.List': () => t['_foreach_add']!(xs(), ys, { alpha: -2 }) as Tensor[],
    'add.ScalarList': () => t['_foreach_add']!(xs(), [1.5, -3]) as Tensor[],
    'add.Tensor': () => t['_foreach_add']!(xs(), torch.tensor(2.0), { alpha: 0.5 }) as Tensor[],
    'sub.List': () => t['_foreach_sub']!(xs(), ys, { alpha: 3 }) as Tensor[],
    'mul.Scalar': () => t['_foreach_mul']!(xs(), 0.3) as Tensor[],
    'mul.List': () => t['_foreach_mul']!(xs(), ys) as Tensor[],
    'div.ScalarList': () => t['_foreach_div']!(xs(), [3.0, 7.0]) as Tensor[],
    'div.List': () => t['_foreach_div']!(xs(), zs) as Tensor[],
    sqrt: () => t['_foreach_sqrt']!(zs) as Tensor[],
    neg: () => t['_foreach_neg']!(xs()) as Tensor[],
    norm: () => t['_foreach_norm']!(xs()) as Tensor[],
    'norm.1': () => t['_foreach_norm']!(xs(), 1) as Tensor[],
    'add_.Scalar': () => inplace((c) => t['_foreach_add_']!(c, 1.25)),
    'mul_.Tensor': () => inplace((c) => t['_foreach_mul_']!(c, torch.tensor(-0.5))),
    'addcmul_.Scalar': () => inplace((c) => t['_foreach_addcmul_']!(c, ys, zs, 0.5)),
    'addcmul_.ScalarList': () => inplace((c) => t['_foreach_addcmul_']!(c, ys, zs, [2.0, -1.0])),
    'addcdiv_.Scalar': () => inplace((c) => t['_foreach_addcdiv_']!(c, ys, zs, -0.25)),
    'addcdiv_.Tensor': () => inplace((c) => t['_foreach_addcdiv_']!(c, ys, zs, torch.tensor([0.5, 3.0]))),
    'lerp_.Scalar': () => inplace((c) => t['_foreach_lerp_']!(c, ys, 0.1)),
    'lerp_.ScalarList': () => inplace((c) => t['_foreach_lerp_']!(c, ys, [0.1, 0.75])),
    'lerp_.List': () => inplace((c) => t['_foreach_lerp_']!(c, ys, zs)),
    'maximum_.List': () => inplace((c) => t['_foreach_maximum_']!(c, ys)),
    'maximum_.Scalar': () => inplace((c) => t['_foreach_maximum_']!(c, 0.1)),
    zero_: () => inplace((c) => t['_foreach_zero_']!(c)),
    copy_: () => inplace((c) => t['_foreach_copy_']!(c, ys)),
    sqrt_: () => inplace((c) => t['_foreach_sqrt_']!(c)),
  };
  for (const [label, want] of Object.entries(o.results)) {
    it(label, () => {
      const call = calls[label];
      expect(call, `no call for ${label}`).toBeDefined();
      const got = call!();
      expect(got).toHaveLength(want.length);
      // 1 ulp: the wheel fuses addcmul's and lerp's multiply-add and takes MKL's sqrt
      got.forEach((g, i) => expect(maxUlps(valuesOf(g), want[i]!, 'float32'), `${label}[${i}]`).toBeLessThanOrEqual(1));
    });
  }

  it('in-place forms return nothing, bump every version and equal the single-tensor operators', () => {
    const c = xs();
    const versions = c.map((x) => x._version);
    expect(t['_foreach_addcmul_']!(c, ys, zs, 0.5)).toBeUndefined();
    c.forEach((x, i) => expect(x._version).toBe(versions[i]! + 1));
    xs().forEach((x, i) => expect(valuesOf(x.addcmul(ys[i]!, zs[i]!, { value: 0.5 }))).toEqual(valuesOf(c[i]!)));
  });

  it('the fast path of addcmul_/addcdiv_/lerp_ gives the single-tensor operators bit for bit (float32, float64, strided)', () => {
    torch.manual_seed(3);
    for (const dtype of ['float32', 'float64'] as const) {
      for (const strided of [false, true]) {
        const mk = (): Tensor[] =>
          [[37], [4, 5], [129]].map((s) => {
            const x = torch.randn([...s, 2], { dtype });
            return strided ? x.select(-1, 0) : x.select(-1, 0).contiguous();
          });
        const a = mk();
        const b = mk();
        const c = mk().map((x) => x.abs().add_(0.5));
        const single = a.map((x) => x.clone());
        const listed = a.map((x) => (strided ? x.clone().t().t() : x.clone()));
        single.forEach((x, i) =>
          x.addcmul_(b[i]!, c[i]!, { value: 0.3 }).addcdiv_(b[i]!, c[i]!, { value: -0.7 }).lerp_(b[i]!, 0.1).lerp_(c[i]!, 0.9),
        );
        t['_foreach_addcmul_']!(listed, b, c, 0.3);
        t['_foreach_addcdiv_']!(listed, b, c, [-0.7, -0.7, -0.7]);
        t['_foreach_lerp_']!(listed, b, 0.1);
        t['_foreach_lerp_']!(listed, c, 0.9);
        single.forEach((x, i) => expect(mismatches(valuesOf(listed[i]!), valuesOf(x)), `${dtype} ${strided}`).toEqual([]));
      }
    }
  });

  it('_fused_adam_ has no autograd or version-counter kernel in PyTorch: a leaf that requires grad is updated as is', () => {
    const p = torch.ones(3, { requires_grad: true });
    t['_fused_adam_']!([p], [torch.ones(3)], [torch.zeros(3)], [torch.zeros(3)], [], [torch.tensor(1.0)], {
      lr: 0.1,
      beta1: 0.9,
      beta2: 0.9,
      weight_decay: 0,
      eps: 1e-8,
      amsgrad: false,
      maximize: false,
    });
    expect(valuesOf(p).map((x) => x.toFixed(4))).toEqual(['0.9000', '0.9000', '0.9000']);
    expect(p.grad_fn).toBe(null);
    expect(p._version).toBe(0);
  });

  it('a leaf that requires grad is refused in place; functional forms record a node', () => {
    const leaf = [torch.ones(2, { requires_grad: true })];
    expect(() => t['_foreach_add_']!(leaf, 1)).toThrow('a leaf Variable that requires grad is being used in an in-place operation.');
    const r = t['_foreach_add']!(leaf, 1) as Tensor[];
    expect(r[0]!.requires_grad).toBe(true);
  });
});

describe('_fused_adam_ / _fused_sgd_ with grad_scale and found_inf (bit for bit)', () => {
  const t = torch as unknown as Record<string, (...a: unknown[]) => unknown>;
  for (const [label, c] of Object.entries(golden.fused_amp)) {
    it(label, () => {
      const dtype = label.split(' ')[0]!;
      const found = Number(label.split('=')[1]);
      const v = (k: string): Tensor => make(c.init[k]!, [c.init[k]!.length], dtype);
      const [p, g, m, sq] = [v('p'), v('g'), v('m'), v('v')];
      t['_fused_adam_']!([p], [g], [m], [sq], [], [torch.tensor(2.0)], {
        lr: 0.01,
        beta1: 0.9,
        beta2: 0.999,
        weight_decay: 0.01,
        eps: 1e-8,
        amsgrad: false,
        maximize: false,
        grad_scale: torch.tensor(4.0),
        found_inf: torch.tensor(found),
      });
      expect(mismatches(valuesOf(p!), c.adam['p']!)).toEqual([]);
      expect(mismatches(valuesOf(g!), c.adam['g']!)).toEqual([]);
      expect(mismatches(valuesOf(m!), c.adam['m']!)).toEqual([]);
      expect(mismatches(valuesOf(sq!), c.adam['v']!)).toEqual([]);
      const [p2, g2, b] = [v('p'), v('g'), v('m')];
      t['_fused_sgd_']!([p2], [g2], [b], {
        weight_decay: 0.01,
        momentum: 0.9,
        lr: 0.1,
        dampening: 0,
        nesterov: true,
        maximize: false,
        is_first_step: false,
        grad_scale: torch.tensor(8.0),
        found_inf: torch.tensor(found),
      });
      expect(mismatches(valuesOf(p2!), c.sgd['p']!)).toEqual([]);
      expect(mismatches(valuesOf(g2!), c.sgd['g']!)).toEqual([]);
      expect(mismatches(valuesOf(b!), c.sgd['buf']!)).toEqual([]);
    });
  }
});

describe('errors carry PyTorch text', () => {
  const one = (): Tensor => torch.ones(3);
  const t = torch as unknown as Record<string, (...a: unknown[]) => unknown>;
  const adamArgs = { lr: 0.1, beta1: 0.9, beta2: 0.9, weight_decay: 0, eps: 1e-8, maximize: false };
  const calls: Record<string, () => unknown> = {
    empty: () => t['_foreach_add']!([], 1),
    empty_: () => t['_foreach_zero_']!([]),
    length: () => t['_foreach_add']!([one()], [one(), one()]),
    length_addcmul: () => t['_foreach_addcmul_']!([one()], [one()], [one(), one()]),
    scalars: () => t['_foreach_add_']!([one()], [1.0, 2.0]),
    tensor_dim: () => t['_foreach_add_']!([one()], torch.ones(2)),
    size: () => t['_foreach_add_']!([torch.ones(2)], [torch.ones(3)]),
    fused_grads: () =>
      t['_fused_adam_']!([one()], [one(), one()], [one()], [one()], [], [torch.tensor(1.0)], { ...adamArgs, amsgrad: false }),
    fused_amsgrad: () => t['_fused_adam_']!([one()], [one()], [one()], [one()], [], [torch.tensor(1.0)], { ...adamArgs, amsgrad: true }),
    fused_sgd_buf: () =>
      t['_fused_sgd_']!([one()], [one()], [], {
        weight_decay: 0,
        momentum: 0.9,
        lr: 0.1,
        dampening: 0,
        nesterov: false,
        maximize: false,
        is_first_step: false,
      }),
    adam_fused_differentiable: () => new optim.Adam([one().requires_grad_()], { fused: true, differentiable: true }),
    adam_fused_foreach: () => new optim.Adam([one().requires_grad_()], { fused: true, foreach: true }),
    adamw_fused_foreach: () => new optim.AdamW([one().requires_grad_()], { fused: true, foreach: true }),
    sgd_fused_foreach: () => new optim.SGD([one().requires_grad_()], { fused: true, foreach: true }),
    sgd_fused_differentiable: () => new optim.SGD([one().requires_grad_()], { fused: true, differentiable: true }),
    fused_int: () => {
      const opt = new optim.Adam([torch.ones(3, { requires_grad: true })], { fused: true });
      const p = torch.ones(3, { dtype: 'int64' });
      opt.param_groups[0]!.params = [p];
      p.grad = torch.ones(3, { dtype: 'int64' });
      opt.step();
    },
  };
  for (const [label, e] of Object.entries(golden.errors)) {
    it(label, () => {
      const call = calls[label];
      expect(call, `no call for ${label}`).toBeDefined();
      if (e === null) expect(call!).not.toThrow();
      else expect(call!).toThrow(e.error);
    });
  }

  it('defaults: foreach and fused are null (the single-tensor path for CPU tensors), zero_grad sets None', () => {
    const p = torch.ones(2, { requires_grad: true });
    for (const opt of [new optim.SGD([p]), new optim.Adam([p]), new optim.AdamW([p])]) {
      const g = opt.param_groups[0] as unknown as Record<string, unknown>;
      expect(g['foreach']).toBe(null);
      expect(g['fused']).toBe(null);
      p.grad = torch.ones(2);
      opt.zero_grad();
      expect(p.grad).toBe(null);
    }
  });
});
