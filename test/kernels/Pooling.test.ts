// max_pool2d_with_indices, avg_pool2d and their backwards over storage (src/kernels/Pooling.ts) against
// PyTorch 2.13 (torch.ops.aten): ceil mode, padding, dilation, count_include_pad, divisor_override, NaN, -inf,
// ties, overlapping windows, permuted inputs, unbatched inputs, every dtype PyTorch's CPU kernels accept.
// Fixture: test/golden/pool.json (tools/golden/gen_pool.py). Values are compared exactly.
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import { dtypeName } from '../../src/c10/index.js';
import { loadGolden } from '../golden.js';

type Value = number | boolean | 'nan' | 'inf' | '-inf';
interface Spec {
  dtype: string;
  sizes: number[];
  values: Value[];
  permute?: number[];
}
interface Case {
  op: 'max_pool2d_with_indices' | 'avg_pool2d';
  args: (number[] | number | boolean | null)[];
  input: Spec;
  result?: Spec;
  indices?: Spec;
  grad?: Spec;
  grad_input?: Spec;
  error?: string;
  /** PyTorch's strides for a channels-last input (Note [Channels-last pooling]). */
  strides?: { result: number[]; indices?: number[]; grad_input: number[] };
}
const golden = loadGolden<{ cases: Case[] }>('pool.json');
const NUM: Record<string, number> = { nan: NaN, inf: Infinity, '-inf': -Infinity };
const num = (v: Value): number | boolean => (typeof v === 'string' ? (NUM[v] as number) : v);

function make(s: Spec): Tensor {
  const t = torch.tensor(s.values.map(num), { dtype: s.dtype }).reshape(s.sizes);
  return s.permute === undefined ? t : t.permute(s.permute);
}

function expectSame(got: Tensor, want: Spec): void {
  expect([dtypeName(got.scalarType), got.size()]).toEqual([want.dtype, want.permute === undefined ? want.sizes : null]);
  const g = got.reshape(-1).tolist() as (number | boolean)[];
  const w = want.values.map(num);
  // Object.is: NaN equals NaN, and -0 differs from 0 (max_pool2d keeps the first of equal zeros).
  const bad = g.flatMap((v, i) => (Object.is(v, w[i]) ? [] : [`[${i}] ${String(v)} != ${String(w[i])}`]));
  expect(bad.slice(0, 5)).toEqual([]);
}

const t = torch as unknown as Record<string, (...a: unknown[]) => unknown>;

describe('pooling over storage (PyTorch golden)', () => {
  it.each(
    golden.cases.map(
      (c, i) => [`${i} ${c.op} ${c.input.dtype} ${JSON.stringify(c.args)}${c.input.permute ? ' permuted' : ''}`, c] as const,
    ),
  )('%s', (_name, c) => {
    const x = make(c.input);
    if (c.error !== undefined) {
      expect(() => t[c.op]!(x, ...c.args)).toThrow(c.error);
      return;
    }
    if (c.input.permute !== undefined) expect(x.isContiguous()).toBe(false);
    if (c.op === 'max_pool2d_with_indices') {
      const [v, i] = t.max_pool2d_with_indices!(x, ...c.args) as [Tensor, Tensor];
      expectSame(v, c.result!);
      expectSame(i, c.indices!);
      const gi = c.grad === undefined ? null : (t.max_pool2d_with_indices_backward!(make(c.grad), x, ...c.args, i) as Tensor);
      if (gi !== null) expectSame(gi, c.grad_input!);
      if (c.strides !== undefined)
        expect([v.stride(), i.stride(), gi?.stride()]).toEqual([c.strides.result, c.strides.indices, c.strides.grad_input]);
    } else {
      const v = t.avg_pool2d!(x, ...c.args) as Tensor;
      expectSame(v, c.result!);
      const gi = c.grad === undefined ? null : (t.avg_pool2d_backward!(make(c.grad), x, ...c.args) as Tensor);
      if (gi !== null) expectSame(gi, c.grad_input!);
      if (c.strides !== undefined) expect([v.stride(), gi?.stride()]).toEqual([c.strides.result, c.strides.grad_input]);
    }
  });
});

// Expected texts from PyTorch 2.13 (torch.ops.aten calls with the same arguments).
describe("pooling's argument checks", () => {
  const x = torch.randn(1, 2, 5, 5);
  const g = torch.randn(1, 2, 2, 2);
  const idx = torch.zeros([1, 2, 2, 2], { dtype: 'int64' });
  const maxBackward = (grad: Tensor, indices: Tensor): unknown =>
    t.max_pool2d_with_indices_backward!(grad, x, [2], [2], [0], [1], false, indices);

  it('checks the backward operands as the meta functions and kernels do', () => {
    expect(() => t.avg_pool2d_backward!(g.to(torch.float64), x, [2], [2], [0], false, true, null)).toThrow(
      'expected dtype float for `gradOutput` but got dtype double',
    );
    expect(() => maxBackward(g.to(torch.float64), idx)).toThrow('expected dtype float for `gradOutput` but got dtype double');
    expect(() => maxBackward(g, idx.to(torch.int32))).toThrow('expected scalar type Long but found Int');
    const wrong = 'Expected a tensor of dimension 4 and tensor.size[2] == 2 but got: dimension 4 and tensor.size[2] = 3';
    expect(() => maxBackward(g, torch.zeros([1, 2, 3, 2], { dtype: 'int64' }))).toThrow(wrong);
    expect(() => maxBackward(torch.randn(1, 2, 3, 3), torch.zeros([1, 2, 3, 3], { dtype: 'int64' }))).toThrow(wrong);
    expect(() => t.avg_pool2d_backward!(torch.randn(1, 2, 3, 3), x, [2], [2], [0], false, true, null)).toThrow(wrong);
  });

  it("checks avg_pool2d's arguments in PyTorch's order", () => {
    expect(() => t.avg_pool2d!(x, [2, 2, 2], [2], [0], false, true, 0)).toThrow(
      'avg_pool2d: kernel_size must either be a single int, or a tuple of two ints',
    );
    expect(() => t.avg_pool2d!(x, [2], [1, 1, 1])).toThrow(
      'avg_pool2d: stride must either be omitted, a single int, or a tuple of two ints',
    );
    expect(() => t.avg_pool2d!(x, [2], [2], [0, 0, 0])).toThrow('avg_pool2d: padding must either be a single int, or a tuple of two ints');
    expect(() => t.avg_pool2d!(x, [2], [2], [0], false, true, 0)).toThrow('divisor must be not zero');
    expect(() => t.avg_pool2d!(torch.randn(1, 0, 5, 5), [2])).toThrow(
      'Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:[1, 0, 5, 5]',
    );
    expect((t.avg_pool2d!(torch.randn(0, 2, 5, 5), [2]) as Tensor).size()).toEqual([0, 2, 2, 2]);
    expect((t.avg_pool2d!(torch.empty([1, 1, 4, 4], { dtype: 'bool', device: 'meta' }), [2]) as Tensor).size()).toEqual([1, 1, 2, 2]);
  });

  it('skips an index outside the plane in the backward (PyTorch skips -1)', () => {
    const gi = t.max_pool2d_with_indices_backward!(
      torch.ones(1, 1, 1, 2),
      torch.ones(1, 1, 2, 4),
      [2],
      [2],
      [0],
      [1],
      false,
      torch.tensor([[[[-1, 7]]]], { dtype: 'int64' }),
    ) as Tensor;
    expect(gi.reshape(-1).tolist()).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
  });
});
