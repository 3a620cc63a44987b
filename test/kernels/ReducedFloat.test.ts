// float16 and bfloat16 compute on the CPU as PyTorch 2.13's: load, compute in float32, round once on store
// (products, softmax/log_softmax, reductions, pointwise ops, a gradient). See Note [Reduced-precision products].
// Fixture: test/golden/reduced_float.json (tools/golden/gen_reduced_float.py).
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import * as nn from '../../src/nn/index.js';
import { loadGolden } from '../golden.js';

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
const golden = loadGolden<{ cases: Case[]; finfo: FInfoSpec[] }>('reduced_float.json');
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
