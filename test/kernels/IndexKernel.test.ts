// The indexing kernels on storage (Note [Indexing kernels move elements at offsets]) against PyTorch 2.13:
// every stored dtype, transposed (non-contiguous) inputs and in-place targets, int32/int64 and negative
// indices, accumulation in the element type, and PyTorch's out-of-range errors.
// Fixture: test/golden/index_storage.json (tools/golden/gen_index_storage.py).
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import { dtypeName } from '../../src/c10/index.js';
import { loadGolden } from '../golden.js';

type Real = number | boolean | 'nan' | 'inf' | '-inf';
type Value = Real | [Real, Real];
interface Spec {
  dtype: string;
  sizes: number[];
  values: Value[];
  t: boolean;
}
interface Case {
  name: string;
  op: string;
  args: { dim?: number; value?: number; accumulate?: boolean };
  inputs: (Spec | null)[];
  result?: Spec;
  error?: string;
}
const golden = loadGolden<{ cases: Case[] }>('index_storage.json');
const num = (v: Real): number => (v === 'nan' ? NaN : v === 'inf' ? Infinity : v === '-inf' ? -Infinity : Number(v));

function make(s: Spec): Tensor {
  let t: Tensor;
  if (s.dtype.startsWith('complex')) {
    t = torch.empty(s.values.length, { dtype: s.dtype });
    const { data, base } = t.dataView();
    s.values.forEach((v, i) => {
      const [re, im] = v as [Real, Real];
      data[base + 2 * i] = num(re);
      data[base + 2 * i + 1] = num(im);
    });
  } else {
    t = torch.tensor(
      s.values.map((v) => num(v as Real)),
      { dtype: s.dtype },
    );
  }
  t = t.reshape(s.sizes);
  return s.t ? t.t() : t;
}

function run(c: Case, t: (Tensor | null)[]): Tensor {
  const [x, a, b, v] = t as [Tensor, Tensor, Tensor, Tensor];
  const { dim = 0, value = 0, accumulate = false } = c.args;
  switch (c.op) {
    case 'index_select':
      return torch.index_select(x, dim, a);
    case 'gather':
      return torch.gather(x, dim, a);
    case 'scatter':
      return torch.scatter(x, dim, a, b);
    case 'scatter_value':
      return torch.scatter(x, dim, a, value);
    case 'scatter_add':
      return torch.scatter_add(x, dim, a, b);
    case 'masked_fill':
      return x.masked_fill(a, value);
    case 'masked_fill_':
      expect(x.masked_fill_(a, value)).toBe(x);
      return x;
    case 'masked_select':
      return torch.masked_select(x, a);
    case 'nonzero':
      return torch.nonzero(x);
    case 'index':
      return torch.index(x, t.slice(1));
    case 'index_put_': {
      const indices = t.slice(1, -1);
      const values = t[t.length - 1] as Tensor;
      expect(x.index_put_(indices, values, { accumulate })).toBe(x);
      return x;
    }
    default:
      throw new Error(`unknown op ${c.op} (${String(v)})`);
  }
}

describe('indexing kernels on every dtype and layout (PyTorch golden)', () => {
  it.each(golden.cases.map((c, i) => [`${i} ${c.name}`, c] as const))('%s', (_name, c) => {
    const inputs = c.inputs.map((s) => (s === null ? null : make(s)));
    if (c.error !== undefined) {
      expect(() => run(c, inputs)).toThrow(c.error);
      return;
    }
    const r = run(c, inputs);
    const want = c.result!;
    expect([dtypeName(r.scalarType), r.size()]).toEqual([want.dtype, want.sizes]);
    const expected = want.values.map((v) => (Array.isArray(v) ? v.map(num) : typeof v === 'string' ? num(v) : v));
    expect(r.reshape(-1).tolist()).toEqual(expected);
  });
});

describe('indexing kernels: aliasing and fresh memory', () => {
  it('masked_fill_ reads a mask that shares self storage before writing (PyTorch refuses the overlap)', () => {
    const b = torch.tensor([true, false, true]);
    b.masked_fill_(b, false);
    expect(b.tolist()).toEqual([false, false, false]);
    const x = torch.tensor([true, true, false, false]);
    x.narrow(0, 1, 3).masked_fill_(x.narrow(0, 0, 3), false);
    expect(x.tolist()).toEqual([true, false, false, false]);
  });

  it('index_put_ reads values that share self storage before writing (PyTorch refuses the overlap)', () => {
    const x = torch.arange(6, { dtype: 'float32' }).reshape(2, 3);
    x.index_put_([torch.tensor([1, 0])], x.clone().flip(0).add(0));
    expect(x.tolist()).toEqual([
      [0, 1, 2],
      [3, 4, 5],
    ]);
    const y = torch.arange(4, { dtype: 'float32' });
    y.index_put_([torch.tensor([1, 2, 3])], y.narrow(0, 0, 3));
    expect(y.tolist()).toEqual([0, 0, 1, 2]);
  });

  it('index_put returns a new tensor and leaves a transposed self alone', () => {
    const base = torch.arange(6, { dtype: 'int32' }).reshape(2, 3);
    const r = base.t().index_put([torch.tensor([2]), torch.tensor([0])], torch.tensor([-1], { dtype: 'int32' }), true);
    expect(r.tolist()).toEqual([
      [0, 3],
      [1, 4],
      [1, 5],
    ]);
    expect(base.tolist()).toEqual([
      [0, 1, 2],
      [3, 4, 5],
    ]);
  });
});
