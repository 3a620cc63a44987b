// allclose against PyTorch 2.13: allclose, equal, the random *_like factories (seeded streams),
// diff, bucketize / searchsorted, scatter with reduce, and the grad_fn names of the decompositions
// (chunk → SplitBackward0, tile → RepeatBackward0, outer → MulBackward0, l1_loss → Mean/Sum/AbsBackward0).
// Fixture: tools/golden/gen_allclose_diff_bucketize.py -> test/golden/allclose_diff_bucketize.json.
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import * as nn from '../../src/nn/index.js';
import { checkResult, type Want } from '../compare.js';
import { loadGolden } from '../golden.js';

interface Case {
  result?: Want;
  error?: string;
}
const golden = loadGolden<{ cases: Record<string, Case> }>('allclose_diff_bucketize.json');
type Fn = (...a: unknown[]) => unknown;
const T = torch as unknown as Record<string, Fn>;
const f32 = (v: number[] | number[][]): Tensor => torch.tensor(v, { dtype: torch.float32 });
const nanT = (): Tensor => f32([1, 2, Number.NaN]);
const seeded = (f: () => unknown) => (): unknown => {
  torch.manualSeed(7);
  return f();
};
const v = (): Tensor => f32([1, 4, 9, 16, 25]);
const m = (): Tensor =>
  torch.tensor([
    [1, 3, 6],
    [2, 2, 7],
  ]);
const b = (): Tensor => f32([1, 3, 5, 7, 9]);
const x = (): Tensor =>
  f32([
    [0, 3, 6],
    [9, 10, Number.NaN],
  ]);
const sb = (): Tensor =>
  torch.tensor([
    [1, 3, 5, 7, 9],
    [2, 4, 6, 8, 10],
  ]);
const q = (): Tensor =>
  torch.tensor([
    [3, 6, 9],
    [3, 6, 9],
  ]);
const idx = (): Tensor =>
  torch.tensor([
    [0, 1],
    [2, 2],
  ]);
const g =
  (f: (x: Tensor) => Tensor, ...shape: number[]) =>
  (): unknown => {
    torch.manualSeed(3);
    return f(torch.randn(shape, { dtype: torch.float64, requires_grad: true }));
  };
const zeros64 = (): Tensor => torch.zeros([4], { dtype: torch.float64 });

const CALLS: Record<string, () => unknown> = {
  allclose_true: () => T.allclose!(f32([1, 2]), f32([1, 2.000001])),
  allclose_false: () => T.allclose!(f32([1, 2]), f32([1, 2.1])),
  allclose_nan: () => T.allclose!(nanT(), nanT()),
  allclose_nan_equal: () => T.allclose!(nanT(), nanT(), { equal_nan: true }),
  allclose_atol: () => T.allclose!(f32([1]), f32([1.5]), { atol: 0.6 }),
  equal_true: () =>
    T.equal!(
      torch.tensor([
        [1, 2],
        [3, 4],
      ]),
      torch.tensor([
        [1, 2],
        [3, 4],
      ]),
    ),
  equal_values: () => T.equal!(torch.tensor([1, 2]), torch.tensor([1, 3])),
  equal_sizes: () => T.equal!(torch.tensor([1, 2]), torch.tensor([[1, 2]])),
  equal_nan: () => T.equal!(nanT(), nanT()),
  equal_dtype: () => T.equal!(f32([1]), torch.tensor([1], { dtype: torch.float64 })),
  rand_like: seeded(() => T.rand_like!(torch.zeros(2, 3))),
  rand_like_f64: seeded(() => T.rand_like!(torch.zeros(4), { dtype: torch.float64 })),
  randn_like: seeded(() => T.randn_like!(torch.zeros(5))),
  randint_like: seeded(() => T.randint_like!(torch.zeros(6), 10)),
  randint_like_low: seeded(() => T.randint_like!(torch.zeros([6], { dtype: torch.int64 }), -5, 5)),
  diff: () => T.diff!(v()),
  diff_n2: () => T.diff!(v(), { n: 2 }),
  diff_n_big: () => T.diff!(v(), { n: 7 }),
  diff_n0: () => T.diff!(v(), { n: 0 }),
  diff_dim0: () => T.diff!(m(), { dim: 0 }),
  diff_prepend_append: () => T.diff!(m(), { dim: 1, prepend: torch.tensor([[0], [0]]), append: torch.tensor([[9], [9]]) }),
  diff_bool: () => T.diff!(torch.tensor([true, false, false, true])),
  diff_0d: () => T.diff!(torch.tensor(1, { dtype: torch.float32 })),
  diff_neg_n: () => T.diff!(v(), { n: -1 }),
  diff_bad_prepend: () => T.diff!(m(), { prepend: torch.tensor([0]) }),
  diff_bad_prepend_size: () => T.diff!(m(), { dim: 1, prepend: torch.tensor([[0], [0], [0]]) }),
  diff_grad_fn: () => T.diff!(v().requires_grad_()),
  bucketize: () => T.bucketize!(x(), b()),
  bucketize_right: () => T.bucketize!(x(), b(), { right: true }),
  bucketize_int32: () => T.bucketize!(x(), b(), { out_int32: true }),
  bucketize_scalar: () => T.bucketize!(4, b()),
  bucketize_2d_boundaries: () => T.bucketize!(x(), b().reshape(1, 5)),
  searchsorted: () => T.searchsorted!(sb(), q()),
  searchsorted_right: () => T.searchsorted!(sb(), q(), { right: true }),
  searchsorted_side: () => T.searchsorted!(b(), f32([3, 4]), { side: 'right' }),
  searchsorted_scalar: () => T.searchsorted!(b(), 5),
  searchsorted_sorter: () => T.searchsorted!(torch.tensor([5, 1, 3]), torch.tensor([2, 4]), { sorter: torch.tensor([1, 2, 0]) }),
  searchsorted_bad_side: () => T.searchsorted!(b(), f32([3]), { side: 'middle' }),
  searchsorted_opposite: () => T.searchsorted!(b(), f32([3]), { right: true, side: 'left' }),
  searchsorted_dims: () => T.searchsorted!(sb(), f32([[3]]).expand(3, 1)),
  searchsorted_0d_boundaries: () => T.searchsorted!(torch.tensor(1, { dtype: torch.float32 }), f32([3])),
  scatter_reduce_multiply: () =>
    T.scatter!(torch.ones(2, 4), 1, idx(), torch.full([2, 2], 2, { dtype: torch.float32 }), { reduce: 'multiply' }),
  scatter_reduce_add: () => T.scatter!(torch.ones(2, 4), 1, idx(), torch.full([2, 2], 2, { dtype: torch.float32 }), { reduce: 'add' }),
  scatter_value_reduce_add: () => T.scatter!(torch.ones(2, 4), 1, idx(), 3, { reduce: 'add' }),
  scatter_value_reduce_multiply: () => T.scatter!(torch.full([2, 4], 2, { dtype: torch.float32 }), 1, idx(), 3, { reduce: 'multiply' }),
  scatter_reduce_bad: () => T.scatter!(torch.ones(2, 4), 1, idx(), 3, { reduce: 'max' }),
  chunk_grad_fn: g((t) => t.chunk(2)[1] as Tensor, 5, 2),
  tile_grad_fn: g((t) => t.tile([2]), 3),
  outer_grad_fn: g((t) => torch.outer(t, t), 3),
  outer_bool: () => torch.outer(torch.tensor([true, false]), torch.tensor([true, true])),
  outer_2d: () => torch.outer(torch.ones(2, 2), torch.ones(2)),
  l1_loss_mean_grad_fn: g((t) => nn.functional.l1_loss(t, zeros64()), 4),
  l1_loss_sum_grad_fn: g((t) => nn.functional.l1_loss(t, zeros64(), { reduction: 'sum' }), 4),
  l1_loss_none_grad_fn: g((t) => nn.functional.l1_loss(t, zeros64(), { reduction: 'none' }), 4),
};

describe('allclose, equal, the *_like factories, diff, bucketize, searchsorted and scatter reduce match PyTorch', () => {
  for (const [id, c] of Object.entries(golden.cases)) {
    it(id, () => {
      const call = CALLS[id];
      if (call === undefined) throw new Error(`no call for ${id}`);
      if (c.error !== undefined) {
        expect(call).toThrow(c.error);
        return;
      }
      checkResult(id, call(), c.result!);
    });
  }
});
