// torch.unique against PyTorch 2.13: torch.unique (_unique2 / unique_dim), torch.multinomial
// (seeded streams) and torch.einsum (values, gradients, grad_fn names), with their error texts.
// Fixture: tools/golden/gen_unique_multinomial_einsum.py -> test/golden/unique_multinomial_einsum.json.
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import { checkResult, type Want } from '../compare.js';
import { loadGolden } from '../golden.js';

interface Case {
  result?: Want;
  error?: string;
}
const golden = loadGolden<{ cases: Record<string, Case> }>('unique_multinomial_einsum.json');
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

const seeded =
  (f: (g: InstanceType<typeof torch.Generator>) => unknown, seed = 7) =>
  (): unknown =>
    f(new torch.Generator().manualSeed(seed));
const pm = (): Tensor => f32([0.1, 0.2, 0.3, 0.4]);
const pm2 = (): Tensor =>
  f32([
    [0.5, 0, 2, 1, 0.25],
    [1, 1, 1, 1, 1],
    [0, 3, 0, 0, 1],
  ]);
const rand1 = (...shape: number[]): Tensor => torch.rand(shape, { generator: new torch.Generator().manualSeed(1) });
const M = T.multinomial!;

const E = T.einsum!;
/** fn's value and the float64 gradients of sum(out * cotangent), with the generator's draws in the script's order. */
const grads =
  (fn: (...xs: Tensor[]) => Tensor, ...shapes: number[][]) =>
  (): unknown => {
    torch.manualSeed(3);
    const xs = shapes.map((s) => torch.randn(s, { dtype: torch.float64, requires_grad: true }));
    const out = fn(...xs);
    const cot = torch.randn([...out.sizes], { dtype: torch.float64 });
    out.mul(cot).sum().backward();
    return [out, ...xs.map((x) => x.grad)];
  };
const EINSUM: [string, string, number[][]][] = [
  [
    'matmul',
    'ij,jk->ik',
    [
      [2, 3],
      [3, 4],
    ],
  ],
  [
    'implicit',
    'ij,jk',
    [
      [2, 3],
      [3, 4],
    ],
  ],
  ['transpose', 'ij->ji', [[2, 3]]],
  ['implicit_transpose', 'ji', [[2, 3]]],
  ['identity', 'ij', [[2, 3]]],
  ['sum_all', 'ij->', [[2, 3]]],
  ['sum_rows', 'ij->j', [[2, 3]]],
  ['diag', 'ii->i', [[3, 3]]],
  ['trace', 'ii', [[3, 3]]],
  ['dot', 'i,i->', [[3], [3]]],
  ['outer', 'i,j->ij', [[3], [2]]],
  ['matvec', 'ij,j->i', [[2, 3], [3]]],
  [
    'bmm',
    'bij,bjk->bik',
    [
      [2, 3, 4],
      [2, 4, 5],
    ],
  ],
  [
    'ellipsis',
    '...ij,...jk->...ik',
    [
      [2, 3, 4],
      [4, 5],
    ],
  ],
  [
    'ellipsis_implicit',
    '...ij,...jk',
    [
      [2, 1, 3, 4],
      [3, 4, 2],
    ],
  ],
  ['ellipsis_sum', 'b...->b', [[2, 3, 4]]],
  [
    'three',
    'bij,bjk,bkl->bil',
    [
      [2, 3, 4],
      [2, 4, 5],
      [2, 5, 2],
    ],
  ],
  [
    'chain',
    'ab,bc,cd->ad',
    [
      [2, 3],
      [3, 4],
      [4, 2],
    ],
  ],
  [
    'broadcast_one',
    'ij,ij->ij',
    [
      [2, 3],
      [1, 3],
    ],
  ],
  [
    'upper',
    'Ab,bA->A',
    [
      [2, 3],
      [3, 2],
    ],
  ],
  [
    'spaces',
    'i j , j k -> i k',
    [
      [2, 3],
      [3, 4],
    ],
  ],
  [
    'diag_mixed',
    'iij,jk->ik',
    [
      [3, 3, 2],
      [2, 4],
    ],
  ],
  ['contract_only_first', 'ij,k->k', [[2, 3], [4]]],
  [
    'bilinear',
    'bn,anm,bm->ba',
    [
      [2, 3],
      [4, 3, 5],
      [2, 5],
    ],
  ],
];
const ar = (n: number, ...shape: number[]): Tensor => torch.arange(n).reshape(shape);

const CALLS: Record<string, () => unknown> = {
  ...Object.fromEntries(EINSUM.map(([name, eq, shapes]) => [`einsum_${name}`, grads((...xs) => E(eq, ...xs) as Tensor, ...shapes)])),
  einsum_list: () => E('ij,jk->ik', [torch.ones(2, 3), torch.ones(3, 2)]),
  einsum_int: () => E('ij,jk->ik', ar(6, 2, 3), ar(6, 3, 2)),
  einsum_zero_size: () => E('ij,jk->ik', torch.ones(2, 0), torch.ones(0, 3)),
  einsum_fewer: () => E('ij,jk->ik', torch.ones(2, 3)),
  einsum_more: () => E('ij->ij', torch.ones(2, 3), torch.ones(2, 3)),
  einsum_bad_out: () => E('ij->ik', torch.ones(2, 3)),
  einsum_repeat_out: () => E('ij->ii', torch.ones(2, 3)),
  einsum_size: () => E('ij,jk->ik', torch.ones(2, 3), torch.ones(2, 3)),
  einsum_bad_char: () => E('i1->i', torch.ones(2, 3)),
  einsum_ndim: () => E('ijk->i', torch.ones(2, 3)),
  einsum_ell_ndim: () => E('ijk...->i', torch.ones(2, 3)),
  einsum_diag_size: () => E('ii->i', torch.ones(2, 3)),
  einsum_dot_alone: () => E('i.j->i', torch.ones(2, 3)),
  einsum_ell_broadcast: () => E('...i,...i->...', torch.ones(2, 3), torch.ones(4, 3)),
  unique: () => T.unique!(u()),
  unique_unsorted: () => T.unique!(u(), { sorted: false }),
  unique_positional: () => T.unique!(u(), true, false, true),
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
  multinomial: seeded((g) => M(pm(), 3, { generator: g })),
  multinomial_one: seeded((g) => M(pm2(), 1, { generator: g })),
  multinomial_2d: seeded((g) => M(pm2(), 2, { generator: g })),
  multinomial_f64: seeded((g) => M(pm().double(), 4, { generator: g })),
  multinomial_repl: seeded((g) => M(pm(), 10, { replacement: true, generator: g })),
  multinomial_repl_2d: seeded((g) => M(pm2(), 6, { replacement: true, generator: g })),
  multinomial_repl_f64: seeded((g) => M(pm2().double(), 6, true, { generator: g })),
  multinomial_repl_one: seeded((g) => M(pm(), 1, { replacement: true, generator: g })),
  multinomial_many: seeded((g) => M(rand1(40), 25, { generator: g })),
  multinomial_repl_many: seeded((g) => M(rand1(3, 40), 30, { replacement: true, generator: g })),
  multinomial_default_gen: () => {
    torch.manualSeed(11);
    return M(pm2(), 2);
  },
  multinomial_3d: () => M(torch.ones(2, 2, 2), 1),
  multinomial_int: () => M(torch.tensor([1, 2]), 1),
  multinomial_zero_samples: () => M(pm(), 0),
  multinomial_too_many: () => M(pm(), 5),
  multinomial_negative: () => M(f32([0.5, -0.1]), 1),
  multinomial_nan: () => M(f32([0.5, Number.NaN]), 1),
  multinomial_zero_sum: () =>
    M(
      f32([
        [0.5, 0.5],
        [0, 0],
      ]),
      1,
    ),
  multinomial_repl_negative: () => M(f32([0.5, -0.1]), 2, true),
  multinomial_repl_inf: () => M(f32([0.5, Infinity]), 2, true),
  multinomial_repl_zero_sum: () => M(f32([0, 0]), 2, true),
  multinomial_meta: () => M(torch.empty([3, 4], { device: 'meta' }), 2),
  multinomial_method: seeded((g) => pm().multinomial(2, { generator: g })),
};

describe('unique, multinomial and einsum match PyTorch', () => {
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
