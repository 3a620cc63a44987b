// nn.PReLU / F.prelu (aten prelu -> _prelu_kernel, PreluKernelBackward0), nn.HuberLoss, nn.KLDivLoss,
// nn.init.eye_ / dirac_ against the PyTorch 2.13 wheel (tools/golden/gen_repr_samplers_prelu_dispatch_log.py ->
// test/golden/repr_samplers_prelu_dispatch_log.json, section `nn`).
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import { setWarningHandler } from '../../src/c10/Warning.js';
import { nn } from '../../src/index.js';
import { loadGolden } from '../golden.js';

const F = nn.functional;
type Err = { type: string; message: string };
type Case = Record<string, number[] | number | string | (string | null)[]>;
const golden = loadGolden<{ nn: Record<string, unknown> }>('repr_samplers_prelu_dispatch_log.json').nn;
const c = (name: string) => golden[name] as Case;

const f32 = (values: unknown, sizes: number[]): Tensor => torch.tensor(values as number[], { dtype: torch.float32 }).reshape(sizes);
const flat = (t: Tensor | null | undefined): number[] => (t as Tensor).detach().reshape(-1).tolist() as number[];

/** Float32 results: equal to rounding (a few ulps; sums may add in another order). */
function close(got: number[], want: unknown, label: string): void {
  expect(got, label).toBeAllclose(want as number[], { rtol: 4e-7, atol: 4e-7 });
}

describe('nn.PReLU / F.prelu', () => {
  it('default init is 0.25, one parameter', () => {
    const m = new nn.PReLU();
    expect(flat(m.weight)).toEqual(c('PReLU() weight'));
    expect(m.weight.requiresGrad).toBe(true);
  });

  for (const [name, make] of [
    ['PReLU() 1 param', () => new nn.PReLU()],
    ['PReLU(3, init=0.1) 3 params', () => new nn.PReLU(3, { init: 0.1 })],
  ] as const) {
    it(`${name}: values, grads and grad_fn as PyTorch`, () => {
      const g = c(name);
      const m = make();
      const x = f32(g.x, [2, 3, 4]).requiresGrad_(true);
      const y = m.call(x) as Tensor;
      close(flat(y), g.y, 'y');
      expect(y.gradFn?.name()).toBe(g.grad_fn);
      if (g.next !== undefined)
        expect(y.gradFn?.nextFunctions.map((e) => e[0]?.name() ?? null)).toEqual(
          (g.next as string[]).map((n) => (n === 'AccumulateGrad' ? 'torch::autograd::AccumulateGrad' : n)),
        );
      y.backward(f32(g.g, [2, 3, 4]));
      close(flat(x.grad), g.x_grad, 'x.grad');
      close(flat(m.weight.grad), g.w_grad, 'weight.grad');
    });
  }

  it('gradgradcheck-style: a double backward through prelu works (create_graph)', () => {
    const x = torch.tensor([-1.5, 0.5, 2], { dtype: torch.float64, requires_grad: true });
    const w = torch.tensor([0.3], { dtype: torch.float64, requires_grad: true });
    const y = F.prelu(x, w).mul(x).sum();
    const [gx] = torch.autograd.grad([y], [x], { create_graph: true }) as Tensor[];
    // d/dx (prelu(x)·x) = 2·w·x for x < 0, 2·x for x > 0
    expect(flat(gx)).toEqual([2 * 0.3 * -1.5, 1, 4]);
    gx!.sum().backward();
    expect(flat(w.grad)).toEqual([2 * -1.5]);
  });

  it('1-d and 0-d inputs', () => {
    const one = torch.tensor([0.5], { dtype: torch.float32 });
    expect(flat(F.prelu(torch.tensor([-2, 0, 3], { dtype: torch.float32 }), one))).toEqual(c('prelu 1-d input'));
    expect(flat(F.prelu(torch.tensor(-2, { dtype: torch.float32 }), one))).toEqual(c('prelu 0-d input'));
  });

  it("PyTorch's errors", () => {
    const errs = golden['prelu errors'] as Record<string, Err>;
    const w = torch.tensor([0.2, -0.3], { dtype: torch.float32 });
    const cases: Record<string, () => unknown> = {
      channels: () => F.prelu(torch.randn(2, 3), w),
      '0-dim': () => F.prelu(torch.tensor(1, { dtype: torch.float32 }), w),
      '2-d weight': () => F.prelu(torch.randn(2, 1), torch.ones(1, 1)),
      dtype: () => F.prelu(torch.randn([2, 2], { dtype: torch.float64 }), w),
      int: () => F.prelu(torch.tensor([1, -2]), torch.tensor([2])),
    };
    for (const [k, fn] of Object.entries(cases)) expect(fn, k).toThrow(errs[k]!.message);
  });

  it('runs on meta tensors', () => {
    const y = F.prelu(torch.empty([2, 3, 4], { device: 'meta' }), torch.empty([3], { device: 'meta' }));
    expect(y.shape).toEqual([2, 3, 4]);
    expect(y.isMeta()).toBe(true);
  });
});

describe('nn.HuberLoss / nn.KLDivLoss', () => {
  it('HuberLoss(delta=0.5): loss, grad_fn, grad', () => {
    const g = c('HuberLoss(delta=0.5)');
    const x = f32(g.x, [3, 4]).requiresGrad_(true);
    const loss = new nn.HuberLoss({ delta: 0.5 }).call(x, f32(g.t, [3, 4])) as Tensor;
    close([loss.item() as number], [g.loss], 'loss');
    expect(loss.gradFn?.name()).toBe(g.grad_fn);
    loss.backward();
    close(flat(x.grad), g.x_grad, 'x.grad');
  });

  it("HuberLoss(reduction='sum')", () => {
    const g = c("HuberLoss(reduction='sum')");
    const loss = new nn.HuberLoss({ reduction: 'sum' }).call(f32(g.x, [3, 4]), f32(g.t, [3, 4])) as Tensor;
    close([loss.item() as number], [g.loss], 'loss');
  });

  it("KLDivLoss(reduction='batchmean'): loss, grad_fn, grad", () => {
    const g = c("KLDivLoss(reduction='batchmean')");
    const x = f32(g.x, [3, 5]).requiresGrad_(true);
    const loss = new nn.KLDivLoss({ reduction: 'batchmean' }).call(x, f32(g.t, [3, 5])) as Tensor;
    close([loss.item() as number], [g.loss], 'loss');
    expect(loss.gradFn?.name()).toBe(g.grad_fn);
    loss.backward();
    close(flat(x.grad), g.x_grad, 'x.grad');
  });

  it("KLDivLoss(reduction='sum', log_target=True)", () => {
    const g = c("KLDivLoss(reduction='sum', log_target=True)");
    const loss = new nn.KLDivLoss({ reduction: 'sum', log_target: true }).call(f32(g.x, [3, 5]), f32(g.t, [3, 5])) as Tensor;
    close([loss.item() as number], [g.loss], 'loss');
  });

  it('KLDivLoss(reduce=False): the legacy arguments pick the reduction, with the deprecation warning', () => {
    const g = c('KLDivLoss(reduce=False)');
    const warnings: string[] = [];
    const prev = setWarningHandler((m) => warnings.push(m));
    try {
      const m = new nn.KLDivLoss({ reduce: false });
      expect(m.reduction).toBe(g.reduction);
      close(flat(m.call(f32(g.x, [3, 5]), f32(g.t, [3, 5])) as Tensor), g.loss, 'loss');
    } finally {
      setWarningHandler(prev);
    }
    expect(warnings).toEqual(["size_average and reduce args will be deprecated, please use reduction='none' instead."]);
  });
});

describe('nn.init.eye_ / dirac_', () => {
  const shapes: Record<string, [number[], number?]> = {
    'eye_(3, 5)': [[3, 5]],
    'eye_(4, 2)': [[4, 2]],
    'dirac_(4, 2, 3)': [[4, 2, 3]],
    'dirac_(4, 3, 3, 3) groups=2': [[4, 3, 3, 3], 2],
    'dirac_(2, 2, 2, 3, 3)': [[2, 2, 2, 3, 3]],
  };
  for (const [name, [shape, groups]] of Object.entries(shapes)) {
    it(name, () => {
      const t = torch.empty(shape).requiresGrad_(true);
      const r = name.startsWith('eye_') ? nn.init.eye_(t) : nn.init.dirac_(t, groups);
      expect(r).toBe(t);
      expect(flat(t)).toEqual(c(name));
      expect(t.gradFn).toBe(null); // under no_grad
    });
  }

  it("PyTorch's errors", () => {
    const errs = golden['init errors'] as Record<string, Err>;
    expect(() => nn.init.eye_(torch.empty(3))).toThrow(errs['eye_ 1-d']!.message);
    expect(() => nn.init.dirac_(torch.empty(3, 3))).toThrow(errs['dirac_ 2-d']!.message);
    expect(() => nn.init.dirac_(torch.empty(3, 2, 3), 2)).toThrow(errs['dirac_ groups']!.message);
  });
});
