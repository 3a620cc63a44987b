// linalg.lstsq (src/kernels/BatchLinearAlgebraLstsq.ts) and linalg.ldl_factor / ldl_solve
// (src/kernels/BatchLinearAlgebraLdl.ts) by what they must satisfy — the normal equations, the minimum-norm
// solution of an underdetermined system, L D Lᵀ = A through a solve, LAPACK's pivot encoding on a matrix that
// needs a 2×2 block — and PyTorch's error texts. Values against PyTorch are checked by the OpInfo sweep.
import { describe, expect, it } from 'vitest';
import * as torch from '../../src/torch.js';
import type { Tensor } from '../../src/tensor/Tensor.js';

const maxAbs = (t: Tensor): number => Number(torch.abs(t).max().item());

describe.each([torch.float32, torch.float64])('linalg.lstsq (%s)', (dtype) => {
  const tol = dtype === torch.float32 ? 1e-4 : 1e-10;

  it('overdetermined: Aᴴ (A X - B) = 0; residuals are |A X - B|² (gels, gelsd), rank / singular values per driver', () => {
    torch.manual_seed(1);
    const A = torch.randn([2, 5, 3], { dtype });
    const B = torch.randn([2, 5, 2], { dtype });
    for (const driver of ['gels', 'gelsy', 'gelsd', 'gelss']) {
      const [X, res, rank, sv] = torch.linalg.lstsq(A, B, { driver });
      expect(X.shape).toEqual([2, 3, 2]);
      const R = torch.sub(torch.matmul(A, X), B);
      expect(maxAbs(torch.matmul(A.mT, R))).toBeLessThan(tol * 10);
      if (driver === 'gelsy') expect(res.shape).toEqual([0]);
      else expect(maxAbs(torch.sub(res, torch.sum(torch.mul(R, R), -2)))).toBeLessThan(tol * 10);
      expect(rank.shape).toEqual(driver === 'gels' ? [0] : [2]);
      if (driver !== 'gels') expect(rank.tolist()).toEqual([3, 3]);
      expect(sv.shape).toEqual(driver === 'gelsd' || driver === 'gelss' ? [2, 3] : [0]);
    }
  });

  it('underdetermined: the minimum-norm solution pinv(A) B', () => {
    torch.manual_seed(2);
    const A = torch.randn([2, 4], { dtype });
    const b = torch.randn([2], { dtype });
    const x = torch.linalg.lstsq(A, b)[0];
    expect(x.shape).toEqual([4]);
    expect(maxAbs(torch.sub(x, torch.matmul(torch.linalg.pinv(A), b)))).toBeLessThan(tol);
  });
});

describe('linalg.lstsq errors', () => {
  it("has PyTorch's texts", () => {
    const a = torch.randn([3, 3]);
    expect(() => torch.linalg.lstsq(torch.randn([]), torch.randn([]))).toThrow(
      'torch.linalg.lstsq: input must have at least 2 dimensions.',
    );
    expect(() => torch.linalg.lstsq(a, a, { driver: 'foo' })).toThrow(
      'torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)',
    );
    expect(() => torch.linalg.lstsq(a, torch.randn([4, 3]))).toThrow('torch.linalg.lstsq: input.size(-2) should match other.size(-2)');
    expect(() => torch.linalg.lstsq(a, torch.randn([3, 3], { dtype: torch.float64 }))).toThrow(
      "torch.linalg.lstsq: Expected input and other to have the same dtype, but got input's dtype Float and other's dtype Double",
    );
  });
});

describe.each([torch.float32, torch.float64])('linalg.ldl_factor / ldl_solve (%s)', (dtype) => {
  const tol = dtype === torch.float32 ? 1e-4 : 1e-10;

  it('a 2×2 pivot is stored as LAPACK does (negative, repeated, 1-based) and the solve inverts A', () => {
    const A = torch.tensor(
      [
        [1, 2, 3],
        [2, 5, 1],
        [3, 1, 0.5],
      ],
      { dtype },
    );
    const [LD, pivots, info] = torch.linalg.ldl_factor_ex(A);
    expect(pivots.tolist()).toEqual([-3, -3, 3]);
    expect(pivots.dtype).toBe(torch.int32);
    expect(info.item()).toBe(0);
    expect(LD.mT.isContiguous()).toBe(true);
    expect(torch.triu(LD, 1).abs().max().item()).toBe(0);
    const X = torch.linalg.ldl_solve(LD, pivots, torch.eye(3, { dtype }));
    expect(maxAbs(torch.sub(torch.matmul(A, X), torch.eye(3, { dtype })))).toBeLessThan(tol);
  });

  it('batched symmetric indefinite matrices', () => {
    torch.manual_seed(3);
    const a = torch.randn([3, 5, 5], { dtype });
    const A = torch.add(a, a.mT);
    const [LD, pivots] = torch.linalg.ldl_factor(A);
    const B = torch.randn([3, 5, 2], { dtype });
    const X = torch.linalg.ldl_solve(LD, pivots, B);
    expect(maxAbs(torch.sub(torch.matmul(A, X), B))).toBeLessThan(tol * 100);
  });
});

describe('linalg.ldl errors', () => {
  it("has PyTorch's texts", () => {
    expect(() => torch.linalg.ldl_factor(torch.randn([2, 3]))).toThrow(
      'torch.linalg.ldl_factor_ex: A must be batches of square matrices, but they are 2 by 3 matrices',
    );
    const [LD, pivots] = torch.linalg.ldl_factor(torch.eye(3));
    expect(() => torch.linalg.ldl_solve(LD, pivots.to(torch.float32), torch.randn([3, 1]))).toThrow(
      'torch.linalg.ldl_solve: Expected pivots to be integers. Got Float',
    );
    expect(() => torch.linalg.ldl_factor(torch.zeros([2, 2]))).toThrow('torch.linalg.ldl_factor');
  });
});
