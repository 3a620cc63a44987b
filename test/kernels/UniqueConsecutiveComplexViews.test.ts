// torch.unique_consecutive against PyTorch 2.13: torch.unique_consecutive (function and the unique /
// unique_consecutive Tensor methods; Meta raising), torch.diagonal and einsum's diagonal of a repeated label
// (DiagonalBackward0), einsum's sublist form, complex views (view_as_real / view_as_complex, x.real / x.imag;
// dtype, sizes, strides and offset) and scatter(..., reduce=)'s deprecation warning.
// Fixture: tools/golden/gen_unique_consecutive_complex_views.py -> test/golden/unique_consecutive_complex_views.json.
import { describe, expect, it } from 'vitest';
import * as torch from '../../src/torch.js';
import type { Tensor } from '../../src/tensor/Tensor.js';
import { setWarningHandler } from '../../src/c10/Warning.js';
import { checkResult, type Want } from '../compare.js';
import { loadGolden } from '../golden.js';

interface Case {
  result?: Want;
  error?: string;
}
const golden = loadGolden<{ cases: Record<string, Case> }>('unique_consecutive_complex_views.json');
type Fn = (...a: unknown[]) => unknown;
const T = torch as unknown as Record<string, Fn>;
const f32 = (v: number[]): Tensor => torch.tensor(v, { dtype: torch.float32 });
const x = (): Tensor => torch.tensor([1, 1, 2, 2, 3, 1, 1, 2]);
const xf = (): Tensor => f32([1.5, Number.NaN, Number.NaN, 1.5, 1.5, -0, 0]);
const xb = (): Tensor => torch.tensor([true, true, false, true]);
const x2 = (): Tensor => torch.tensor([1, 1, 1, 1, 2, 3, 1, 1, 1, 1]).reshape([5, 2]);
const UC = T.unique_consecutive!;
const m = (): Tensor => torch.arange(12, { dtype: torch.float32 }).reshape([3, 4]);
const m3 = (): Tensor => torch.arange(24, { dtype: torch.float32 }).reshape([2, 3, 4]);
const meta = (...s: number[]): Tensor => torch.empty(s, { device: 'meta' });
const E = T.einsum!;

/** grad_fn names along the first input edge, down to the leaf. */
function chain(t: Tensor): string[] {
  const names: string[] = [];
  let g = t.grad_fn;
  while (g) {
    names.push(g.name());
    g = g.nextFunctions[0]?.[0] ?? null;
  }
  return names;
}

/** einsum's value and the float64 gradients of sum(out * cotangent), with the generator's draws in the script's order. */
const einsumGrads =
  (eq: string, ...shapes: number[][]) =>
  (): unknown => {
    torch.manualSeed(3);
    const xs = shapes.map((s) => torch.randn(s, { dtype: torch.float64, requires_grad: true }));
    const out = E(eq, ...xs) as Tensor;
    const cot = torch.randn([...out.sizes], { dtype: torch.float64 });
    return [out, ...torch.autograd.grad([out.mul(cot).sum()], xs)];
  };
const a = (): Tensor => torch.arange(6, { dtype: torch.float32 }).reshape([2, 3]);
const b = (): Tensor => torch.arange(12, { dtype: torch.float32 }).reshape([3, 4]);
const re = (): Tensor => f32([1, -2, 3.5]);
const im = (): Tensor => f32([0.5, 4, -1]);
const c = (): Tensor => torch.complex(re(), im());
const cd = (): Tensor => torch.complex(re().double(), im().double()).reshape([3, 1]);

const CALLS: Record<string, () => unknown> = {
  uc_default: () => UC(x()),
  uc_inverse: () => UC(x(), { return_inverse: true }),
  uc_counts: () => UC(x(), { return_counts: true }),
  uc_both: () => UC(x(), { return_inverse: true, return_counts: true }),
  uc_positional: () => UC(x(), true, true),
  uc_float_nan: () => UC(xf(), { return_inverse: true, return_counts: true }),
  uc_bool: () => UC(xb(), { return_counts: true }),
  uc_2d_flat: () => UC(x2(), { return_inverse: true }),
  uc_dim0: () => UC(x2(), { dim: 0 }),
  uc_dim0_both: () => UC(x2(), { return_inverse: true, return_counts: true, dim: 0 }),
  uc_dim1: () => UC(x2(), { return_counts: true, dim: 1 }),
  uc_dim_neg: () => UC(x2().t(), { return_inverse: true, dim: -1 }),
  uc_1d_dim0: () => UC(x(), { return_counts: true, dim: 0 }),
  uc_0dim: () => UC(torch.tensor(5, { dtype: torch.float32 }), { return_inverse: true, return_counts: true }),
  uc_0dim_dim: () => UC(torch.tensor(5, { dtype: torch.float32 }), { dim: 0 }),
  uc_empty: () => UC(torch.zeros(0, 3), { return_inverse: true, return_counts: true }),
  uc_empty_dim0: () => UC(torch.zeros(0, 3), { return_inverse: true, dim: 0 }),
  uc_empty_dim1: () => UC(torch.zeros(0, 3), { dim: 1 }),
  uc_meta: () => UC(meta(2, 3)),
  uc_meta_dim: () => UC(meta(2, 3), { dim: 0 }),
  uc_grad_fn: () => UC(f32([1, 1, 2]).requires_grad_()),
  uc_method: () => x().unique_consecutive({ return_counts: true }),
  uc_method_dim: () => x2().unique_consecutive(true, false, 0),
  unique_method: () => x().unique({ return_inverse: true }),
  unique_method_dim: () => x2().unique({ dim: 0, return_counts: true }),
  unique_method_positional: () => x().unique(true, false, true),
  diagonal: () => torch.diagonal(m()),
  diagonal_offset: () => torch.diagonal(m(), 1),
  diagonal_neg_offset: () => torch.diagonal(m(), { offset: -1 }),
  diagonal_past_end: () => torch.diagonal(m(), 5),
  diagonal_dims: () => torch.diagonal(m3(), 0, 2, 0),
  diagonal_method: () => m3().diagonal({ offset: 1, dim1: -1, dim2: 1 }),
  diagonal_same_dims: () => torch.diagonal(m3(), 0, 1, -2),
  diagonal_meta: () => torch.diagonal(meta(3, 4), 1),
  diagonal_grad: () => {
    torch.manualSeed(5);
    const t = torch.randn([3, 4], { dtype: torch.float64, requires_grad: true });
    const d = torch.diagonal(t, 1);
    const cot = torch.randn([...d.sizes], { dtype: torch.float64 });
    return [d, ...torch.autograd.grad([d.mul(cot).sum()], [t])];
  },
  einsum_ii_i: einsumGrads('ii->i', [3, 3]),
  einsum_iij_j: einsumGrads('iij->j', [2, 2, 3]),
  einsum_jii_ij: einsumGrads('jii,ij->ij', [2, 3, 3], [3, 2]),
  einsum_ii_i_chain: () => ({ value: chain(E('ii->i', torch.ones([3, 3], { requires_grad: true })) as Tensor) }),
  einsum_jii_chain: () => ({ value: chain(E('jii->ij', torch.ones([2, 3, 3], { requires_grad: true })) as Tensor) }),
  sublist_matmul: () => E(a(), [0, 1], b(), [1, 2], [0, 2]),
  sublist_implicit: () => E(a(), [0, 1], b(), [1, 2]),
  sublist_one: () => E(a(), [1, 0]),
  sublist_lower: () => E(a(), [30, 27], [27]),
  sublist_ellipsis: () => E(m3(), ['...', 0, 1], b().t().slice(1, 0, 4).reshape([4, 3]), [1, 2], ['...', 0, 2]),
  sublist_out_of_range: () => E(a(), [0, 52]),
  sublist_negative: () => E(a(), [0, -1]),
  einsum_too_few: () => E(a()),
  view_as_real: () => torch.view_as_real(c()),
  view_as_real_2d: () => torch.view_as_real(cd().t()),
  view_as_real_real: () => torch.view_as_real(re()),
  real: () => c().real,
  imag: () => c().imag,
  real_fn: () => torch.real(cd()),
  imag_fn: () => torch.imag(cd()),
  real_of_real: () => re().real,
  real_fn_of_real: () => torch.real(re()),
  imag_of_real: () => re().imag,
  imag_fn_of_real: () => torch.imag(re()),
  view_as_complex: () => torch.view_as_complex(torch.arange(8, { dtype: torch.float32 }).reshape([2, 2, 2])),
  view_as_complex_long: () => torch.view_as_complex(torch.ones([2, 2], { dtype: torch.int64 })),
  view_as_complex_last3: () => torch.view_as_complex(torch.ones(2, 3)),
  view_as_complex_stride: () => torch.view_as_complex(torch.ones(2, 4).slice(1, 0, null, 2)),
  view_as_complex_odd_stride: () => torch.view_as_complex(torch.ones(2, 3, 2).as_strided([2, 2], [3, 1])),
  view_as_complex_offset: () => torch.view_as_complex(torch.ones(5).slice(0, 1).view([2, 2])),
  view_as_complex_0dim: () => torch.view_as_complex(torch.tensor(1, { dtype: torch.float32 })),
  view_as_complex_meta: () => torch.view_as_complex(meta(3, 2)),
  write_through_real: () => {
    const z = torch.complex(re(), im());
    z.real.mul_(10);
    z.imag.fill_(7);
    return z;
  },
  scatter_reduce_warning: () => {
    const messages: string[] = [];
    const previous = setWarningHandler((msg) => messages.push(msg));
    // A once-warning: another file in this process may have reached the site first, so the first call
    // warns under torch.set_warn_always, as in the fresh process of the golden; the later calls do not.
    torch.set_warn_always(true);
    try {
      const r1 = torch.zeros(3).scatter(0, torch.tensor([0, 1]), torch.ones(2), { reduce: 'add' });
      torch.set_warn_always(false);
      const r2 = torch.zeros(3).scatter(0, torch.tensor([0, 1]), 2.0, { reduce: 'multiply' });
      const r3 = torch.ones(3).scatter(0, torch.tensor([2, 1]), torch.full([2], 3, { dtype: torch.float32 }), { reduce: 'multiply' });
      return { value: { messages, categories: ['UserWarning'], results: [r1.tolist(), r2.tolist(), r3.tolist()] } };
    } finally {
      torch.set_warn_always(false);
      setWarningHandler(previous);
    }
  },
};

describe('unique_consecutive, diagonal, einsum sublists and complex views match PyTorch', () => {
  it('every fixture case has a call and every call a fixture case', () => {
    expect(Object.keys(CALLS).sort()).toEqual(Object.keys(golden.cases).sort());
  });
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

  it('x.real shares storage with the complex tensor; a real tensor is its own real part', () => {
    const z = c();
    expect(z.real.storage).toBe(z.storage);
    const r = re();
    expect(r.real).toBe(r);
  });
});
