// Issue 15's second batch against PyTorch 2.13: torch.unique (_unique2 / unique_dim), torch.multinomial
// (seeded streams) and torch.einsum (values, gradients, grad_fn names), with their error texts.
// Fixture: tools/golden/gen_parity_ops2.py -> test/golden/parity_ops2.json.
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import { dtypeName } from '../../src/c10/index.js';
import { loadGolden } from '../golden.js';

interface Spec {
  dtype: string;
  sizes: number[];
  values: (number | boolean | string)[]; // non-finite floats as 'nan' / 'inf' / '-inf'
  grad_fn: string | null;
}
type Want = Spec | { value: unknown } | Want[];
interface Case {
  result?: Want;
  error?: string;
}
const golden = loadGolden<{ cases: Record<string, Case> }>('parity_ops2.json');
type Fn = (...a: unknown[]) => unknown;
const T = torch as unknown as Record<string, Fn>;
const f32 = (v: number[] | number[][]): Tensor => torch.tensor(v, { dtype: torch.float32 });
const u = (): Tensor => torch.tensor([3, 1, 2, 1, 3, 3, 0]);
const uf = (): Tensor => f32([2.5, Number.NaN, -1, 2.5, Number.NaN, 0]);
const u2 = (): Tensor =>
  torch.tensor([
    [1, 2],
    [3, 4],
    [1, 2],
    [0, 9],
  ]);

const CALLS: Record<string, () => unknown> = {
  unique: () => T.unique!(u()),
  unique_unsorted: () => T.unique!(u(), { sorted: false }),
  unique_inverse: () => T.unique!(u(), { return_inverse: true }),
  unique_counts: () => T.unique!(u(), { return_counts: true }),
  unique_both: () => T.unique!(u(), { return_inverse: true, return_counts: true }),
  unique_nan: () => T.unique!(uf(), { return_inverse: true, return_counts: true }),
  unique_2d_inverse: () => T.unique!(u2(), { return_inverse: true }),
  unique_bool: () => T.unique!(torch.tensor([true, true, false]), { return_counts: true }),
  unique_empty: () => T.unique!(torch.tensor([], { dtype: torch.float32 }), { return_inverse: true, return_counts: true }),
  unique_0d: () => T.unique!(torch.tensor(5, { dtype: torch.float32 }), { return_inverse: true }),
  unique2_raw: () => T._unique2!(u()),
  unique_dim0: () => T.unique!(u2(), { dim: 0, return_inverse: true, return_counts: true }),
  unique_dim1: () =>
    T.unique!(
      torch.tensor([
        [1, 1, 0],
        [2, 2, 5],
      ]),
      { dim: 1, return_counts: true },
    ),
  unique_dim_neg: () => T.unique!(u2(), { dim: -2 }),
  unique_dim_bad: () => T.unique!(u2(), { dim: 2 }),
  unique_grad_fn: () => T.unique!(f32([2, 1, 2]).requires_grad_()),
  unique_meta: () => T.unique!(torch.empty([3], { device: 'meta' })),
  unique_backward: () => {
    const y = T.unique!(f32([2, 1, 2]).requires_grad_()) as Tensor;
    y.sum().backward();
  },
};

function check(got: unknown, want: Want): void {
  if (Array.isArray(want)) {
    expect(Array.isArray(got)).toBe(true);
    const g = got as unknown[];
    expect(g.length).toBe(want.length);
    want.forEach((w, i) => check(g[i], w));
    return;
  }
  if ('value' in want) {
    expect(got).toEqual(want.value);
    return;
  }
  const t = got as Tensor;
  expect(dtypeName(t.dtype)).toBe(want.dtype);
  expect(t.sizes).toEqual(want.sizes);
  expect(t.grad_fn?.name() ?? null).toBe(want.grad_fn);
  if (t.isMeta()) return;
  const vals = t.detach().flatten().tolist() as (number | boolean)[];
  expect(vals.length).toBe(want.values.length);
  vals.forEach((a, i) => {
    const e = want.values[i];
    if (e === 'nan') expect(Number.isNaN(a as number)).toBe(true);
    else if (typeof e === 'string') expect(a).toBe(e === 'inf' ? Infinity : -Infinity);
    else if (typeof e === 'number' && !Number.isInteger(e)) expect(a as number).toBeCloseTo(e, 6);
    else expect(a).toBe(e);
  });
}

describe("issue 15's second batch of operators matches PyTorch", () => {
  for (const [id, c] of Object.entries(golden.cases)) {
    it(id, () => {
      const call = CALLS[id];
      if (call === undefined) throw new Error(`no call for ${id}`);
      if (c.error !== undefined) {
        expect(call).toThrow(c.error);
        return;
      }
      check(call(), c.result as Want);
    });
  }
});
