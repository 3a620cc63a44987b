// The SVD family against PyTorch 2.13: torch.linalg.svd (full_matrices), torch.linalg.svdvals, torch.svd,
// torch.linalg.matrix_norm / torch.norm with 'nuc' and 'fro' (values, gradients, grad_fn names), Meta shapes
// and strides, and the error texts. Singular vectors are unique only up to sign (See Note [One-sided Jacobi
// SVD]): U's columns and Vh's rows are compared with PyTorch's up to one sign per singular pair, the columns
// PyTorch leaves arbitrary (full_matrices' extra ones, zero singular values) by orthonormality and
// reconstruction; singular values, norms and gradients of sign-invariant losses exactly within tolerance.
// Fixture: tools/golden/gen_svd.py -> test/golden/svd.json.
import { describe, expect, it } from 'vitest';
import * as torch from '../../src/torch.js';
import type { Tensor } from '../../src/tensor/Tensor.js';
import { dtypeName } from '../../src/c10/index.js';
import { loadGolden } from '../golden.js';

interface Spec {
  dtype: string;
  sizes: number[];
  strides: number[];
  values: number[];
  grad_fn: string | null;
}
interface Decomp {
  input: Spec;
  full_matrices: boolean;
  U: Spec;
  S: Spec;
  Vh: Spec;
  svdvals: Spec;
}
interface NormCase {
  fn: 'norm' | 'matrix_norm';
  input: Spec;
  p: 'nuc' | 'fro';
  dim: number[] | null;
  keepdim: boolean;
  out: Spec;
  grad: Spec | null;
}
interface GradCase {
  input: Spec;
  full_matrices?: boolean;
  svdvals?: boolean;
  wu?: Spec;
  ws: Spec;
  wv?: Spec;
  grad: Spec;
  grad_fn?: string;
}
interface Golden {
  decomp: Decomp[];
  special: { name: string; input: Spec; S: Spec }[];
  svd: { input: Spec; some: boolean; compute_uv: boolean; U: Spec; S: Spec; V: Spec }[];
  norms: NormCase[];
  grads: GradCase[];
  meta: { sizes: number[]; full_matrices?: boolean; fn?: string; U?: Spec; S?: Spec; Vh?: Spec; out?: Spec }[];
  errors: Record<string, { type: string; message: string }>;
}
const golden = loadGolden<Golden>('svd.json');
type Fn = (...a: unknown[]) => unknown;
const L = torch.linalg as unknown as Record<string, Fn>;
const T = torch as unknown as Record<string, Fn>;

const make = (s: Spec, requiresGrad = false): Tensor =>
  torch
    .tensor(s.values, { dtype: s.dtype as never })
    .reshape(s.sizes)
    .requiresGrad_(requiresGrad);
const tol = (dtype: string): number => (dtype === 'float64' ? 1e-10 : 2e-5);

function expectClose(got: Tensor, want: Spec, scale = 1): void {
  expect([dtypeName(got.scalarType), got.size()]).toEqual([want.dtype, want.sizes]);
  const eps = tol(want.dtype) * scale;
  expect(got).toBeAllclose(want.values, { rtol: eps, atol: eps });
}

/** `x[b]` of a batch flattened to matrices: the values of matrix b (row-major) of a [..., r, c] tensor. */
function matrices(t: Tensor): number[][][] {
  const [r, c] = t.sizes.slice(-2) as [number, number];
  const flat = t.contiguous().reshape(-1).tolist() as number[];
  const out: number[][][] = [];
  for (let b = 0; b * r * c < flat.length; b++) {
    out.push(Array.from({ length: r }, (_, i) => flat.slice(b * r * c + i * c, b * r * c + (i + 1) * c)));
  }
  return out;
}

/** U·diag(S)·Vh reproduces A, and U's columns and Vh's rows are orthonormal. */
function expectValidSvd(A: Tensor, U: Tensor, S: Tensor, Vh: Tensor, eps: number): void {
  const k = S.sizes[S.dim() - 1]!;
  const Uk = U.narrow(-1, 0, k);
  const Vk = Vh.narrow(-2, 0, k);
  const rec = Uk.mul(S.unsqueeze(-2)).matmul(Vk);
  const scale = Math.max(1, ...(S.reshape(-1).tolist() as number[]));
  const maxAbs = (t: Tensor): number => Math.max(0, ...(t.abs().reshape(-1).tolist() as number[]));
  expect(maxAbs(rec.sub(A))).toBeLessThanOrEqual(eps * scale);
  for (const Q of [U.mT.matmul(U), Vh.matmul(Vh.mT)]) {
    const n = Q.sizes[Q.dim() - 1]!;
    expect(maxAbs(Q.sub(torch.eye(n, { dtype: Q.dtype })))).toBeLessThanOrEqual(eps);
  }
}

/** U's first k columns and Vh's first k rows equal PyTorch's up to one sign per singular pair (distinct non-zero values). */
function expectSameVectors(U: Tensor, Vh: Tensor, S: Spec, wantU: Spec, wantVh: Spec, eps: number): void {
  const k = S.sizes[S.sizes.length - 1]!;
  const [gu, gv] = [matrices(U), matrices(Vh)];
  const [wu, wv] = [matrices(make(wantU)), matrices(make(wantVh))];
  gu.forEach((u, b) => {
    for (let j = 0; j < k; j++) {
      const s = S.values[b * k + j]!;
      if (s <= eps * 100) continue; // a zero singular value leaves its vectors arbitrary
      const col = u.map((row) => row[j]!);
      const want = wu[b]!.map((row) => row[j]!);
      const piv = want.reduce((bi, v, i) => (Math.abs(v) > Math.abs(want[bi]!) ? i : bi), 0);
      const sign = Math.sign(col[piv]!) === Math.sign(want[piv]!) ? 1 : -1;
      col.forEach((v, i) => expect(Math.abs(sign * v - want[i]!)).toBeLessThanOrEqual(eps * 10));
      gv[b]![j]!.forEach((v, i) => expect(Math.abs(sign * v - wv[b]![j]![i]!)).toBeLessThanOrEqual(eps * 10));
    }
  });
}

describe('torch.linalg.svd / svdvals (PyTorch golden)', () => {
  it.each(golden.decomp.map((c, i) => [`${i} ${c.input.dtype} ${JSON.stringify(c.input.sizes)} full=${c.full_matrices}`, c] as const))(
    '%s',
    (_n, c) => {
      const A = make(c.input);
      const [U, S, Vh] = L.svd!(A, { full_matrices: c.full_matrices }) as [Tensor, Tensor, Tensor];
      expectClose(S, c.S, 4);
      for (const [got, want] of [
        [U, c.U],
        [Vh, c.Vh],
      ] as const) {
        expect([dtypeName(got.scalarType), got.size(), got.stride()]).toEqual([want.dtype, want.sizes, want.strides]);
      }
      expect(S.stride()).toEqual(c.S.strides);
      const eps = tol(c.input.dtype) * 10;
      expectValidSvd(A, U, S, Vh, eps);
      expectSameVectors(U, Vh, c.S, c.U, c.Vh, c.input.dtype === 'float64' ? 1e-9 : 1e-4);
      expectClose(L.svdvals!(A) as Tensor, c.svdvals, 4);
    },
  );

  it.each(golden.special.map((c) => [c.name, c] as const))('rank-deficient / repeated singular values: %s', (_n, c) => {
    const A = make(c.input);
    const [U, S, Vh] = L.svd!(A) as [Tensor, Tensor, Tensor];
    expectClose(S, c.S);
    expectValidSvd(A, U, S, Vh, 1e-12);
  });

  it.each(golden.svd.map((c, i) => [`${i} ${JSON.stringify(c.input.sizes)} some=${c.some} compute_uv=${c.compute_uv}`, c] as const))(
    'torch.svd %s',
    (_n, c) => {
      const A = make(c.input);
      const [U, S, V] = T.svd!(A, { some: c.some, compute_uv: c.compute_uv }) as [Tensor, Tensor, Tensor];
      expectClose(S, c.S);
      expect([U.size(), U.stride(), V.size(), V.stride()]).toEqual([c.U.sizes, c.U.strides, c.V.sizes, c.V.strides]);
      if (!c.compute_uv) {
        expectClose(U, c.U);
        expectClose(V, c.V);
        return;
      }
      expectValidSvd(A, U, S, V.mT, 1e-10);
      const Vt = make(c.V).mT.contiguous();
      const wantVh: Spec = { ...c.V, sizes: Vt.size(), strides: Vt.stride(), values: Vt.reshape(-1).tolist() as number[] };
      expectSameVectors(U, V.mT, c.S, c.U, wantVh, 1e-9);
    },
  );
});

describe('nuclear and Frobenius norms (PyTorch golden)', () => {
  it.each(
    golden.norms.map(
      (c, i) => [`${i} ${c.fn} ${c.p} ${JSON.stringify(c.input.sizes)} dim=${JSON.stringify(c.dim)} keepdim=${c.keepdim}`, c] as const,
    ),
  )('%s', (_n, c) => {
    const A = make(c.input, c.grad !== null);
    const out = (c.fn === 'norm' ? T.norm!(A, c.p, c.dim, c.keepdim) : L.matrix_norm!(A, c.p, c.dim, c.keepdim)) as Tensor;
    expectClose(out, c.out, 4);
    expect(out.stride()).toEqual(c.out.strides);
    if (c.grad === null) return;
    expect(out.grad_fn?.name() ?? null).toBe(c.out.grad_fn);
    const [g] = torch.autograd.grad([out.sum()], [A]) as Tensor[];
    expectClose(g!, c.grad, 100);
  });
});

describe('LinalgSvdBackward0 (PyTorch golden)', () => {
  it.each(
    golden.grads.map((c, i) => [`${i} ${JSON.stringify(c.input.sizes)} ${c.svdvals ? 'svdvals' : `full=${c.full_matrices}`}`, c] as const),
  )('%s', (_n, c) => {
    const A = make(c.input, true);
    let loss: Tensor;
    if (c.svdvals) {
      const S = L.svdvals!(A) as Tensor;
      expect(S.grad_fn?.name()).toBe(c.grad_fn);
      loss = S.mul(make(c.ws)).sum();
    } else {
      const [U, S, Vh] = L.svd!(A, { full_matrices: c.full_matrices }) as [Tensor, Tensor, Tensor];
      expect([U.grad_fn?.name(), S.grad_fn?.name(), Vh.grad_fn?.name()]).toEqual(Array(3).fill('LinalgSvdBackward0'));
      const k = S.sizes[S.dim() - 1]!;
      const [Uk, Vk] = [U.narrow(-1, 0, k), Vh.narrow(-2, 0, k)];
      loss = Uk.mul(Uk)
        .mul(make(c.wu!))
        .sum()
        .add(S.mul(make(c.ws)).sum())
        .add(Vk.mul(Vk).mul(make(c.wv!)).sum());
    }
    const [g] = torch.autograd.grad([loss], [A]) as Tensor[];
    expectClose(g!, c.grad, 1000);
  });

  it('a second-order gradient of the nuclear norm matches finite differences (gradgradcheck)', () => {
    torch.manualSeed(5);
    const A = torch.randn([3, 2], { dtype: torch.float64, requires_grad: true });
    expect(torch.autograd.gradgradcheck((x: Tensor) => T.norm!(x, 'nuc') as Tensor, [A])).toBe(true);
  });
});

describe('Meta and errors (PyTorch golden)', () => {
  it.each(golden.meta.map((c, i) => [`${i} ${JSON.stringify(c.sizes)} ${c.fn ?? `svd full=${c.full_matrices}`}`, c] as const))(
    '%s',
    (_n, c) => {
      const A = torch.empty(c.sizes, { device: 'meta' });
      const geo = (t: Tensor): unknown => [t.size(), t.stride(), t.isMeta()];
      const want = (s: Spec): unknown => [s.sizes, s.strides, true];
      if (c.fn === 'norm_nuc') {
        expect(geo(T.norm!(A, 'nuc', [-2, -1]) as Tensor)).toEqual(want(c.out!));
        return;
      }
      const [U, S, Vh] = L.svd!(A, { full_matrices: c.full_matrices }) as [Tensor, Tensor, Tensor];
      expect([geo(U), geo(S), geo(Vh)]).toEqual([want(c.U!), want(c.S!), want(c.Vh!)]);
    },
  );

  const calls: Record<string, () => unknown> = {
    svd_long: () => L.svd!(torch.ones([2, 2], { dtype: torch.int64 })),
    svd_1d: () => L.svd!(torch.ones([2])),
    svd_half: () => L.svd!(torch.ones([2, 2], { dtype: torch.float16 })),
    svd_driver: () => L.svd!(torch.ones([2, 2]), { driver: 'gesvd' }),
    svdvals_1d: () => L.svdvals!(torch.ones([3])),
    torch_svd_1d: () => T.svd!(torch.ones([2])),
    matrix_norm_dims3: () => L.matrix_norm!(torch.ones([2, 2, 2]), 'nuc', { dim: [0, 1, 2] }),
    matrix_norm_same: () => L.matrix_norm!(torch.ones([2, 2]), 'nuc', { dim: [0, -2] }),
    matrix_norm_half: () => L.matrix_norm!(torch.ones([2, 2], { dtype: torch.float16 }), 'nuc'),
    matrix_norm_order: () => L.matrix_norm!(torch.ones([2, 2]), 'abc'),
    matrix_norm_1d: () => L.matrix_norm!(torch.ones([2]), 'nuc'),
    norm_nuc_3dims: () => T.norm!(torch.ones([2, 2, 2]), 'nuc'),
    norm_fro_3dims: () => T.norm!(torch.ones([2, 2, 2]), 'fro', [0, 1, 2]),
    norm_nuc_long: () => T.norm!(torch.ones([2, 2], { dtype: torch.int64 }), 'nuc'),
  };
  it.each(Object.entries(golden.errors))('%s', (name, want) => {
    const call = calls[name];
    expect(call).toBeDefined();
    expect(call!).toThrow(want.message);
  });
});
