// The Householder QR, symmetric eigensolver and matrix exponential kernels (src/kernels/BatchLinearAlgebra{Qr,
// Eigh}.ts, LinearAlgebraMatrixExp.ts) by the identities they must satisfy — Q R = A with orthonormal Q and
// LAPACK's R diagonal signs, householder_product(geqrf(A)) = Q, ormqr = Q C, V diag(L) Vᵀ = A, exp(A) exp(-A) =
// I — on batched and transposed inputs, and linalg.multi_dot's chain against plain products. Values against
// PyTorch itself are checked by the OpInfo sweep (test/opinfo, linalg and other-* fixtures).
import { describe, expect, it } from 'vitest';
import * as torch from '../../src/torch.js';
import type { Tensor } from '../../src/tensor/Tensor.js';

const close = (a: Tensor, b: Tensor, tol: number): void => {
  expect(a.shape).toEqual(b.shape);
  const fa = [a.tolist() as unknown].flat(8) as number[];
  const fb = [b.tolist() as unknown].flat(8) as number[];
  fa.forEach((v, i) => expect(Math.abs(v - (fb[i] as number))).toBeLessThanOrEqual(tol));
};

describe.each([torch.float32, torch.float64])('Householder QR and eigh (%s)', (dtype) => {
  const tol = dtype === torch.float32 ? 2e-4 : 1e-10;

  it('linalg.qr: Q R = A, Qᵀ Q = I, R upper with diag(R) of the opposite sign of the pivot column', () => {
    torch.manual_seed(0);
    const A = torch.randn([2, 5, 3], { dtype }).mT.mT; // batched
    for (const mode of ['reduced', 'complete'] as const) {
      const [Q, R] = torch.linalg.qr(A, mode);
      close(torch.matmul(Q, R), A, tol);
      const k = Q.shape[2] as number;
      close(torch.matmul(Q.mT, Q), torch.eye(k, { dtype }).expand([2, k, k]), tol);
      close(torch.triu(R), R, 0);
    }
    const [, R] = torch.linalg.qr(
      torch.tensor(
        [
          [3, 1],
          [4, 2],
        ],
        { dtype },
      ),
    );
    expect((R.tolist() as number[][])[0]?.[0]).toBeCloseTo(-5, 5);
  });

  it('geqrf, householder_product and ormqr agree with linalg.qr on a wide and a transposed matrix', () => {
    torch.manual_seed(1);
    for (const A of [torch.randn([3, 5], { dtype }), torch.randn([4, 6], { dtype }).mT]) {
      const [a, tau] = torch.geqrf(A);
      const [Q, R] = torch.linalg.qr(A);
      const k = Q.shape[1] as number;
      close(torch.linalg.householder_product(a.narrow(-1, 0, k), tau), Q, tol);
      close(torch.triu(a).narrow(-2, 0, k), R, tol);
      const C = torch.randn([A.shape[0] as number, 2], { dtype });
      const [Qc] = torch.linalg.qr(A, 'complete');
      close(torch.ormqr(a, tau, C), torch.matmul(Qc, C), tol);
      close(torch.ormqr(a, tau, C, true, true), torch.matmul(Qc.mT, C), tol);
      close(torch.ormqr(a, tau, C.mT, false, false), torch.matmul(C.mT, Qc), tol);
    }
  });

  it('linalg.eigh: ascending eigenvalues, V diag(L) Vᵀ = A from the named triangle', () => {
    torch.manual_seed(2);
    const B = torch.randn([3, 4, 4], { dtype });
    for (const uplo of ['L', 'U'] as const) {
      const S = uplo === 'L' ? torch.add(torch.tril(B), torch.tril(B, -1).mT) : torch.add(torch.triu(B), torch.triu(B, 1).mT);
      const [L, V] = torch.linalg.eigh(B, uplo);
      close(torch.matmul(torch.mul(V, L.unsqueeze(-2)), V.mT), S, tol);
      const l = L.tolist() as number[][];
      for (const row of l) for (let i = 1; i < row.length; i++) expect(row[i]).toBeGreaterThanOrEqual(row[i - 1] as number);
      close(torch.linalg.eigvalsh(B, uplo), L, tol);
    }
  });

  it('matrix_exp: exp(A) exp(-A) = I; exp of a diagonal is the exp of its entries', () => {
    torch.manual_seed(3);
    const A = torch.randn([2, 4, 4], { dtype });
    close(torch.matmul(torch.matrix_exp(A), torch.matrix_exp(torch.neg(A))), torch.eye(4, { dtype }).expand([2, 4, 4]), tol * 10);
    const d = torch.tensor([0.5, -1, 3], { dtype });
    close(torch.linalg.matrix_exp(torch.diag(d)), torch.diag(torch.exp(d)), tol * 10);
  });

  it('linalg.multi_dot: the chain product with 1-D ends', () => {
    torch.manual_seed(4);
    const [a, b, c, d] = [
      torch.randn([3], { dtype }),
      torch.randn([3, 7], { dtype }),
      torch.randn([7, 2], { dtype }),
      torch.randn([2, 5], { dtype }),
    ];
    close(torch.linalg.multi_dot([a, b, c, d]), torch.matmul(torch.matmul(torch.matmul(a, b), c), d), tol);
    expect(() => torch.linalg.multi_dot([a])).toThrow('multi_dot(): expected at least 2 tensors but got 1');
  });
});
