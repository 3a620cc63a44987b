// float16 and bfloat16 compute on the CPU as PyTorch 2.13's: load, compute in float32, round once on store
// (products, softmax/log_softmax, reductions, pointwise ops, a gradient). See Note [Reduced-precision products].
// Fixture: test/golden/reduced_float.json (tools/golden/gen_reduced_float.py).
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import * as nn from '../../src/nn/index.js';
import { loadGolden } from '../golden.js';
import { aten } from '../../src/generated/Operators.js';

type V = number | 'nan' | 'inf' | '-inf';
interface Spec {
  dtype: string;
  sizes: number[];
  values: V[];
}
interface Case {
  op: string;
  args: Spec[];
  result: Spec | Spec[];
  dim?: number | null;
  beta?: number;
  alpha?: number;
}
interface FInfoSpec {
  dtype: string;
  str: string;
  bits: number;
  eps: number;
  max: number;
  min: number;
  tiny: number;
  smallest_normal: number;
  resolution: number;
}
interface ScalarCase {
  op: string;
  scalar: number;
  args: [Spec, Spec];
  result: Spec;
}
const golden = loadGolden<{ cases: Case[]; scalar_cases: ScalarCase[]; finfo: FInfoSpec[] }>('reduced_float.json');
const num = (v: V): number => (v === 'nan' ? NaN : v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v);
const make = (s: Spec): Tensor => torch.tensor(s.values.map(num), { dtype: s.dtype }).reshape(s.sizes);

function run(c: Case, args: Tensor[]): Tensor | Tensor[] {
  const [a, b, w] = args as [Tensor, Tensor, Tensor];
  switch (c.op) {
    case 'mm':
      return torch.mm(a, b);
    case 'bmm':
      return torch.bmm(a, b);
    case 'addmm':
      return torch.addmm(a, b, w, { beta: c.beta, alpha: c.alpha });
    case 'matmul':
      return torch.matmul(a, b);
    case 'linear':
      return nn.functional.linear(a, b, w);
    case 'softmax':
      return torch.softmax(a, c.dim!);
    case 'log_softmax':
      return torch.log_softmax(a, c.dim!);
    case 'sum':
      return c.dim === null ? a.sum() : a.sum(c.dim!);
    case 'mean':
      return a.mean(c.dim!);
    case 'softmax_backward':
    case 'log_softmax_backward': {
      // See Note [softmax backward of reduced floats] (src/kernels/SoftMax.ts).
      const op = c.op === 'softmax_backward' ? aten()._softmax_backward_data : aten()._log_softmax_backward_data;
      return op.call(a, b, c.dim!, a.scalarType) as Tensor;
    }
    case 'mm_tanh_grad': {
      const [x, y] = [a.clone().requires_grad_(), b.clone().requires_grad_()];
      torch.mm(x, y).tanh().sum().backward();
      return [x.grad!, y.grad!];
    }
    default:
      return (torch as unknown as Record<string, (...t: Tensor[]) => Tensor>)[c.op]!(...args);
  }
}

function check(r: Tensor, s: Spec): void {
  expect(r.dtype.toString()).toBe(`torch.${s.dtype}`);
  expect(r.shape).toEqual(s.sizes);
  // Values as float32 of the reduced bits: compared bit for bit.
  expect(Array.from(r.float().reshape([-1]).tolist() as number[])).toEqual(s.values.map(num));
}

describe('float16 / bfloat16 compute (PyTorch 2.13 goldens)', () => {
  for (const [i, c] of golden.cases.entries()) {
    it(`${c.op} ${c.args[0]!.dtype} #${i}`, () => {
      const r = run(c, c.args.map(make));
      if (Array.isArray(c.result)) (r as Tensor[]).forEach((t, k) => check(t, (c.result as Spec[])[k]!));
      else check(r as Tensor, c.result);
    });
  }
});

// See Note [Reduced-float kernels read a scalar operand in float] (src/kernels/BinaryOpsKernel.ts).
function runScalar(op: string, p: Tensor, q: Tensor, s: number): Tensor {
  const calls: Record<string, () => Tensor> = {
    add: () => torch.add(p, s),
    sub: () => torch.sub(p, s),
    mul: () => torch.mul(p, s),
    div: () => torch.div(p, s),
    div_trunc: () => torch.div(p, s, { rounding_mode: 'trunc' }),
    div_floor: () => torch.div(p, s, { rounding_mode: 'floor' }),
    floor_divide: () => torch.floor_divide(p, s),
    mul_: () => p.clone().mul_(s),
    div_: () => p.clone().div_(s),
    mul_0dim_float32: () => torch.mul(p, torch.tensor(s, { dtype: 'float32' })),
    mul_0dim_float64: () => torch.mul(p, torch.tensor(s, { dtype: 'float64' })),
    mul_0dim_first: () => torch.mul(torch.tensor(s, { dtype: 'float32' }), p),
    div_1elem_float32: () => torch.div(p, torch.tensor([s], { dtype: 'float32' })),
    pow: () => torch.pow(p.abs(), s),
    xlogy: () => torch.xlogy(p, s),
    add_alpha: () => torch.add(p, q, { alpha: s }),
    sub_alpha: () => torch.sub(p, q, { alpha: s }),
    add_scalar_alpha: () => torch.add(p, s, { alpha: s }),
  };
  const call = calls[op];
  if (call === undefined) throw new Error(`reduced_float.json: unknown scalar case op '${op}'`);
  return call();
}

describe('float16 / bfloat16 with a Python number or 0-dim tensor (PyTorch 2.13 goldens)', () => {
  for (const [i, c] of golden.scalar_cases.entries()) {
    it(`${c.op} ${c.args[0].dtype} ${c.scalar} #${i}`, () => {
      check(runScalar(c.op, make(c.args[0]), make(c.args[1]), c.scalar), c.result);
    });
  }
  it('covers every scalar case op', () => {
    expect(new Set(golden.scalar_cases.map((c) => c.op)).size).toBe(18);
  });
});

describe('torch.finfo (PyTorch 2.13 goldens)', () => {
  for (const f of golden.finfo) {
    it(f.dtype, () => {
      const got = torch.finfo(f.dtype);
      expect(String(got)).toBe(f.str);
      const { dtype, bits, eps, max, min, tiny, smallest_normal, resolution } = got;
      expect({ dtype, str: f.str, bits, eps, max, min, tiny, smallest_normal, resolution }).toEqual(f);
    });
  }
  it("rejects an integer dtype with PyTorch's text", () => {
    expect(() => torch.finfo(torch.int32)).toThrow(
      "torch.finfo() requires a floating point input type. Use torch.iinfo to handle 'torch.finfo'",
    );
  });
});
