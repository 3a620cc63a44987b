// The out= forms and single cases of the linalg helper against PyTorch 2.13: max/min with out=
// (max.unary_out, max.out; the "expected one of" list), bernoulli(out=) (seeded draws, resize without warning,
// internal overlap), the memory-overlap texts of cat / gather / index_select / masked_select when out= aliases
// an input, conv2d padding='same' checks, and clamp's Tensor-bound gradients (ties, crossed bounds, the
// broadcast error of the in-place masks). Fixture: tools/golden/gen_out_forms.py -> test/golden/out_forms.json.
import { describe, expect, it } from 'vitest';
import * as torch from '../../src/torch.js';
import type { Tensor } from '../../src/tensor/Tensor.js';
import { dtypeName } from '../../src/c10/index.js';
import { setWarningHandler } from '../../src/c10/Warning.js';
import { loadGolden } from '../golden.js';

interface Spec {
  dtype: string;
  sizes: number[];
  values: number[];
}
interface Case {
  result?: Spec | Spec[];
  error?: string;
  warned: boolean;
}
const golden = loadGolden<{ cases: Record<string, Case> }>('out_forms.json');
type Fn = (...a: unknown[]) => unknown;
const T = torch as unknown as Record<string, Fn>;
const F = torch.nn.functional as unknown as Record<string, Fn>;

const x = (): Tensor =>
  torch.tensor([
    [1.5, -2.0, 3.25],
    [0.5, 4.0, -1.0],
  ]);
const y = (): Tensor =>
  torch.tensor([
    [2.0, -3.0, 3.0],
    [1.0, 5.0, -2.0],
  ]);
const A = (): Tensor => torch.arange(12, { dtype: torch.float32 }).reshape([3, 4]);
const empty = (...s: number[]): Tensor => torch.empty(s);
const outCall = (f: (o: Tensor) => unknown, out: Tensor): Tensor => {
  f(out);
  return out;
};
const bern = (out: Tensor): Tensor => {
  torch.manualSeed(7);
  T.bernoulli!(torch.tensor([0.1, 0.9, 0.5, 0.5, 0.3, 0.7]), { out });
  return out;
};
const clampGrads = (shape: number[], lo: Tensor, hi: Tensor): Tensor[] => {
  torch.manualSeed(3);
  const xx = torch.randn(shape, { dtype: torch.float64, requires_grad: true });
  const [l, h] = [lo.clone().requires_grad_(true), hi.clone().requires_grad_(true)];
  const out = torch.clamp(xx, l, h);
  return torch.autograd.grad([out.sum()], [xx, l, h]) as Tensor[];
};
const f64 = (v: number[]): Tensor => torch.tensor(v, { dtype: torch.float64 });
const ties = (): Tensor => f64([-0.5, 0.0, 0.5, 1.0]);

const calls: Record<string, () => unknown> = {
  max_unary_out: () => outCall((o) => T.max!(x(), { out: o }), empty(0)),
  max_unary_out_resized: () => outCall((o) => T.max!(x(), { out: o }), empty(3)),
  min_unary_out_double: () => outCall((o) => T.min!(x(), { out: o }), torch.empty([], { dtype: torch.float64 })),
  max_unary_out_cast_error: () => T.max!(x(), { out: torch.empty([0], { dtype: torch.int64 }) }),
  max_out: () => outCall((o) => T.max!(x(), y(), { out: o }), empty(2, 3)),
  min_out: () => outCall((o) => T.min!(x(), y(), { out: o }), empty(0)),
  max_int_tensor: () => T.max!(2, torch.tensor([1, 2])),
  bernoulli_out: () => bern(empty(6)),
  bernoulli_out_resize: () => bern(torch.empty([2], { dtype: torch.float64 })),
  bernoulli_out_overlap: () => bern(torch.zeros([1]).expand([6])),
  cat_out_is_input: () => ((a: Tensor) => torch.cat([a, a], { out: a }))(A()),
  cat_out_internal: () => torch.cat([A(), A()], { out: torch.zeros([1, 4]).expand([6, 4]) }),
  cat_out_internal_resized: () => torch.cat([A(), A()], { out: torch.zeros([1, 4]).expand([5, 4]) }),
  cat_out_view_of_input: () => ((a: Tensor) => torch.cat([a.narrow(0, 0, 1), a.narrow(0, 1, 1)], { out: a.narrow(0, 1, 2) }))(A()),
  cat_out_empty_skipped: () => outCall((o) => torch.cat([empty(0), empty(0)], { out: o }), empty(0)),
  gather_out_is_input: () => ((a: Tensor) => torch.gather(a, 1, torch.tensor([[0], [1], [2]]), { out: a }))(A()),
  gather_out_partial_index: () =>
    ((ind: Tensor) => torch.gather(ind.clone(), 0, ind.narrow(0, 1, 2), { out: ind.narrow(0, 0, 1) }))(torch.tensor([2, 1, 0])),
  gather_out_ok: () => outCall((o) => torch.gather(A(), 1, torch.tensor([[0], [1], [2]]), { out: o }), empty(3, 1)),
  index_select_out_is_input: () => ((a: Tensor) => torch.index_select(a, 0, torch.tensor([0, 1, 2]), { out: a }))(A()),
  index_select_out_is_index: () => ((i: Tensor) => torch.index_select(torch.arange(5), 0, i, { out: i }))(torch.tensor([0, 1])),
  index_select_out_internal: () => torch.index_select(A(), 0, torch.tensor([0, 1]), { out: torch.zeros([1, 4]).expand([2, 4]) }),
  masked_select_out_is_input: () => ((a: Tensor) => torch.masked_select(a, a.gt(5), { out: a }))(A()),
  masked_select_out_is_mask: () => ((m: Tensor) => torch.masked_select(m, m, { out: m }))(torch.tensor([true, false, true])),
  masked_select_out_ok: () => outCall((o) => torch.masked_select(A(), A().gt(5), { out: o }), empty(0)),
  conv2d_same_dims: () => F.conv2d!(torch.ones([1, 1, 4, 3]), torch.ones([1, 2, 2]), { padding: 'same' }),
  conv2d_same_stride: () => F.conv2d!(torch.ones([1, 1, 4, 3]), torch.ones([1, 1, 2, 2]), { padding: 'same', stride: 2 }),
  conv2d_same_groups: () => F.conv2d!(torch.ones([1, 1, 4, 3]), torch.ones([1, 1, 2, 2]), { padding: 'same', groups: 0 }),
  clamp_grad_ties: () => clampGrads([4], ties(), ties()),
  clamp_grad_crossed: () =>
    clampGrads([4], torch.full([4], 0.5, { dtype: torch.float64 }), torch.full([4], -0.5, { dtype: torch.float64 })),
  clamp_grad_broadcast_error: () =>
    clampGrads([4, 4], torch.zeros([1, 4, 4], { dtype: torch.float64 }), torch.ones([4, 4], { dtype: torch.float64 })),
};

function expectSpec(got: Tensor, want: Spec): void {
  expect([dtypeName(got.scalarType), got.size()]).toEqual([want.dtype, want.sizes]);
  const values = got.reshape(-1).tolist() as number[];
  expect(values.length).toBe(want.values.length);
  want.values.forEach((v, i) => expect(Math.abs(values[i]! - v)).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(v))));
}

describe('out= forms, overlap checks and single cases (PyTorch golden)', () => {
  it('every fixture case has a call', () => expect(Object.keys(golden.cases).sort()).toEqual(Object.keys(calls).sort()));

  it.each(Object.entries(golden.cases))('%s', (name, c) => {
    let warned = false;
    const prev = setWarningHandler((m) => {
      if (m.includes('was resized')) warned = true;
    });
    try {
      const call = calls[name]!;
      if (c.error !== undefined) {
        expect(call).toThrow(c.error);
        return;
      }
      const got = call() as Tensor | Tensor[];
      if (Array.isArray(c.result)) c.result.forEach((s, i) => expectSpec((got as Tensor[])[i]!, s));
      else expectSpec(got as Tensor, c.result!);
      expect(warned).toBe(c.warned);
    } finally {
      setWarningHandler(prev);
    }
  });
});
