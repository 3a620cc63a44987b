// The Cholesky / LU / solver kernels (src/kernels/BatchLinearAlgebra{Cholesky,Lu}.ts) by the identities they
// must satisfy — L Lᵀ = A, P L U = A, A X = B, A A⁻¹ = I, det from the LU — on batched, broadcast and
// transposed (non-contiguous) inputs in float32 and float64, and PyTorch's error texts for singular and
// non-positive-definite inputs (`_linalg_check_errors`, with the batch element). Values against PyTorch itself
// are checked by the OpInfo sweep (test/opinfo, linalg and other-* fixtures).
import { describe, expect, it } from 'vitest';
import * as torch from '../../src/torch.js';
import type { Tensor } from '../../src/tensor/Tensor.js';

const close = (a: Tensor, b: Tensor, tol: number): void => {
  const x = a.tolist() as unknown;
  const y = b.tolist() as unknown;
  const fa = [x].flat(8) as number[];
  const fb = [y].flat(8) as number[];
  expect(fa.length).toBe(fb.length);
  fa.forEach((v, i) => expect(Math.abs(v - (fb[i] as number))).toBeLessThanOrEqual(tol));
};

function spd(n: number, batch: number[], dtype: torch.dtype): Tensor {
  torch.manual_seed(0);
  const a = torch.randn([...batch, n, n], { dtype });
  return torch.add(torch.matmul(a, a.mT), torch.eye(n, { dtype }), { alpha: n });
}

describe.each([torch.float32, torch.float64])('linalg solvers (%s)', (dtype) => {
  const tol = dtype === torch.float32 ? 2e-4 : 1e-10;

  it('cholesky: L Lᵀ = A, lower and upper, batched', () => {
    const A = spd(4, [2, 3], dtype);
    const L = torch.linalg.cholesky(A);
    close(torch.matmul(L, L.mT), A, tol * 10);
    close(torch.triu(L, 1), torch.zeros_like(L), 0.5);
    const U = torch.linalg.cholesky(A, { upper: true });
    close(U, L.mT, tol);
    // column-major factor, as LAPACK writes it
    expect(L.stride()).toEqual([48, 16, 1, 4]);
  });

  it('lu: P L U = A for square, wide and tall matrices; lu_factor + lu_unpack agree', () => {
    torch.manual_seed(1);
    for (const [m, n] of [
      [4, 4],
      [3, 5],
      [5, 3],
    ] as const) {
      const A = torch.randn([2, m, n], { dtype });
      const [P, L, U] = torch.linalg.lu(A) as Tensor[];
      close(torch.matmul(P as Tensor, torch.matmul(L as Tensor, U as Tensor)), A, tol);
      const [LU, piv] = torch.linalg.lu_factor(A) as Tensor[];
      expect((piv as Tensor).dtype).toBe(torch.int32);
      const [P2, L2, U2] = torch.lu_unpack(LU as Tensor, piv as Tensor) as Tensor[];
      close(P2 as Tensor, P as Tensor, 0);
      close(L2 as Tensor, L as Tensor, tol);
      close(U2 as Tensor, U as Tensor, tol);
    }
  });

  it('solve / lu_solve / inv / solve_triangular on broadcast batches and transposed inputs', () => {
    torch.manual_seed(2);
    const A = torch.add(torch.randn([3, 1, 4, 4], { dtype }), torch.eye(4, { dtype }), { alpha: 4 });
    const B = torch.randn([2, 4, 3], { dtype });
    const X = torch.linalg.solve(A, B);
    expect(X.shape).toEqual([3, 2, 4, 3]);
    close(torch.matmul(A, X), B.expand([3, 2, 4, 3]), tol * 10);
    const At = A.mT; // non-contiguous: factorised as is, not transposed
    const Xt = torch.linalg.solve(At, B, { left: true });
    close(torch.matmul(At, Xt), B.expand([3, 2, 4, 3]), tol * 10);
    const Xr = torch.linalg.solve(A, torch.randn([3, 1, 2, 4], { dtype }), { left: false });
    expect(Xr.shape).toEqual([3, 1, 2, 4]);
    const [LU, piv] = torch.linalg.lu_factor(A) as Tensor[];
    close(torch.linalg.lu_solve(LU as Tensor, piv as Tensor, B.expand([3, 2, 4, 3]).contiguous()), X, tol * 10);
    close(torch.matmul(A, torch.linalg.inv(A)), torch.eye(4, { dtype }).expand([3, 1, 4, 4]), tol * 10);
    const T = torch.triu(A);
    const Y = torch.linalg.solve_triangular(T, B, { upper: true });
    close(torch.matmul(T, Y), B.expand([3, 2, 4, 3]), tol * 10);
  });

  it('det and slogdet from the LU: a permutation matrix, a triangular one, a singular one', () => {
    const P = torch.tensor(
      [
        [0, 1, 0],
        [1, 0, 0],
        [0, 0, 1],
      ],
      { dtype },
    );
    expect(torch.linalg.det(P).item()).toBe(-1);
    const T = torch.tensor(
      [
        [2, 5, 1],
        [0, 3, 7],
        [0, 0, -4],
      ],
      { dtype },
    );
    expect(torch.linalg.det(T).item()).toBeCloseTo(-24, 4);
    const [sign, logabs] = torch.linalg.slogdet(T) as Tensor[];
    expect((sign as Tensor).item()).toBe(-1);
    expect((logabs as Tensor).item()).toBeCloseTo(Math.log(24), 5);
    expect(Number.isNaN(torch.logdet(T).item() as number)).toBe(true);
    const S = torch.ones([3, 3], { dtype });
    expect(torch.linalg.det(S).item()).toBe(0);
  });
});

describe('linalg error texts (PyTorch 2.13 _linalg_check_errors)', () => {
  const notPd = torch.tensor(
    [
      [1, 2],
      [2, 1],
    ],
    { dtype: torch.float32 },
  );
  it('cholesky of a matrix that is not positive-definite', () => {
    expect(() => torch.linalg.cholesky(notPd)).toThrow(
      'linalg.cholesky: The factorization could not be completed because the input is not positive-definite (the leading minor of order 2 is not positive-definite).',
    );
    expect(() => torch.linalg.cholesky(torch.stack([torch.eye(2), notPd]))).toThrow(
      'linalg.cholesky: (Batch element 1): The factorization could not be completed because the input is not positive-definite (the leading minor of order 2 is not positive-definite).',
    );
    const [, info] = torch.linalg.cholesky_ex(notPd) as Tensor[];
    expect((info as Tensor).item()).toBe(2);
  });
  it('inverse and solve of a singular matrix', () => {
    const S = torch.zeros([3, 3]);
    expect(() => torch.linalg.inv(S)).toThrow(
      'linalg.inv: The diagonal element 1 is zero, the inversion could not be completed because the input matrix is singular.',
    );
    expect(() => torch.linalg.solve(S, torch.ones([3]))).toThrow(
      'torch.linalg.solve: The solver failed because the input matrix is singular.',
    );
    expect(() => torch.linalg.inv(torch.ones([2, 3]))).toThrow(
      'linalg.inv: A must be batches of square matrices, but they are 2 by 3 matrices',
    );
    expect(() => torch.linalg.cholesky(torch.ones([2, 2], { dtype: torch.int64 }))).toThrow(
      'linalg.cholesky: Expected a floating point or complex tensor as input. Got Long',
    );
  });
});
