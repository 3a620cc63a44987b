// The Cholesky family of aten/src/ATen/native/BatchLinearAlgebra.cpp: `linalg_cholesky_ex` (structured, CPU and
// Meta), the deprecated `cholesky`, `cholesky_inverse`, `cholesky_solve` (with `_cholesky_solve_helper`), and
// the triangular solvers `linalg_solve_triangular` and `triangular_solve`. The per-matrix algorithms are in
// BatchLinearAlgebraKernel.ts (See Note [Float64 matrix kernels]).

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, scalarTypeToString } from '../c10/ScalarType.js';
import type { Tensor } from '../tensor/Tensor.js';
import * as at from '../generated/TensorBody.js';
import { choleskyInPlace, transposed, triangularSolveLeft } from './BatchLinearAlgebraKernel.js';
import {
  broadcastBatchSizes,
  checkFloatingOrComplex,
  checkInputsSolver,
  checkKernelDtype,
  linalgCheckErrors,
  linearSolveCheckInputs,
  newContiguous,
  newMatrices,
  readMatrices,
  squareCheckInputs,
  writeFlat,
  writeMatrices,
} from './LinearAlgebraUtils.js';

/** Cholesky factors of every matrix of A (lower, or upper with Uᴴ U = A read from A's upper triangle), with infos. */
function choleskyAll(A: Tensor, upper: boolean): { mats: Float64Array[]; info: Int32Array } {
  const n = A.sizes[A.dim() - 1] as number;
  const mats = readMatrices(A).map((m) => (upper ? transposed(m, n, n) : m));
  const info = new Int32Array(mats.length);
  mats.forEach((m, b) => (info[b] = choleskyInPlace(m, n)));
  return { mats: upper ? mats.map((m) => transposed(m, n, n)) : mats, info };
}

/** `linalg_cholesky_ex(A, *, upper=False, check_errors=False) -> (L, info)`: CPU and Meta. */
export function linalgCholeskyEx(_ks: DispatchKeySet, A: Tensor, upper = false, checkErrors = false): [Tensor, Tensor] {
  squareCheckInputs(A, 'linalg.cholesky');
  checkFloatingOrComplex(A, 'linalg.cholesky');
  const L = newMatrices(A.sizes, true, A.scalarType, A);
  const info = newContiguous(A.sizes.slice(0, -2), ScalarType.Int, A);
  if (A.isMeta()) return [L, info];
  if (A.numel() === 0) {
    writeFlat(info, new Int32Array(info.numel()));
    return [L, info];
  }
  checkKernelDtype(A, 'linalg_cholesky_ex_cpu');
  const res = choleskyAll(A, upper);
  writeMatrices(L, res.mats);
  writeFlat(info, res.info);
  if (checkErrors) linalgCheckErrors(res.info, 'linalg.cholesky_ex', A.dim() === 2);
  return [L, info];
}

/** `cholesky(self, upper=False)`: the deprecated form, which raises on a matrix that is not positive-definite. */
export function cholesky(_ks: DispatchKeySet, self: Tensor, upper = false): Tensor {
  const out = newMatrices(self.sizes, true, self.scalarType, self);
  if (self.numel() === 0 || self.isMeta()) return self.isMeta() ? out : newContiguous(self.sizes, self.scalarType, self);
  squareCheckInputs(self, 'cholesky');
  checkKernelDtype(self, 'cholesky_cpu');
  const res = choleskyAll(self, upper);
  linalgCheckErrors(res.info, 'cholesky', self.dim() === 2);
  writeMatrices(out, res.mats);
  return out;
}

/** The inverse of a triangular n×n matrix (lower, or upper), from solves against the identity. */
function triangularInverse(t: Float64Array, n: number, upper: boolean): Float64Array {
  const inv = new Float64Array(n * n);
  for (let i = 0; i < n; i++) inv[i * n + i] = 1;
  triangularSolveLeft(t, inv, n, n, upper, false, false);
  return inv;
}

/** `cholesky_inverse(self, upper=False)`: (L Lᴴ)⁻¹, or (Uᴴ U)⁻¹, from the factor. */
export function choleskyInverse(_ks: DispatchKeySet, self: Tensor, upper = false): Tensor {
  squareCheckInputs(self, 'cholesky_inverse');
  checkFloatingOrComplex(self, 'cholesky_inverse');
  const out = newMatrices(self.sizes, true, self.scalarType, self);
  if (self.isMeta() || self.numel() === 0) return out;
  checkKernelDtype(self, 'cholesky_inverse_out_cpu');
  const n = self.sizes[self.dim() - 1] as number;
  const mats = readMatrices(self);
  const info = new Int32Array(mats.length);
  const res = mats.map((f, b) => {
    for (let i = 0; i < n; i++) {
      if (f[i * n + i] === 0 && info[b] === 0) info[b] = i + 1;
    }
    // lower: (L Lᴴ)⁻¹ = L⁻ᴴ L⁻¹; upper: (Uᴴ U)⁻¹ = U⁻¹ U⁻ᴴ.
    const ti = triangularInverse(f, n, upper);
    const r = new Float64Array(n * n);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        let s = 0;
        for (let k = 0; k < n; k++)
          s += upper ? (ti[i * n + k] as number) * (ti[j * n + k] as number) : (ti[k * n + i] as number) * (ti[k * n + j] as number);
        r[i * n + j] = s;
      }
    }
    return r;
  });
  linalgCheckErrors(info, 'cholesky_inverse', self.dim() === 2);
  writeMatrices(out, res);
  return out;
}

/** Solves every system: op(T_b) X_b = B_b for left, X_b op(T_b) = B_b otherwise (T read from `A`'s matrices). */
function triangularSolveAll(
  As: Float64Array[],
  Bs: Float64Array[],
  n: number,
  m: number,
  k: number,
  upper: boolean,
  left: boolean,
  trans: boolean,
  unit: boolean,
): Float64Array[] {
  return Bs.map((b, i) => {
    const t = As[i] as Float64Array;
    if (left) {
      const x = Float64Array.from(b);
      triangularSolveLeft(t, x, n, k, upper, trans, unit);
      return x;
    }
    // X op(T) = B  <=>  op(T)ᵀ Xᵀ = Bᵀ (B is m×n here).
    const xt = transposed(b, m, n);
    triangularSolveLeft(t, xt, n, m, upper, !trans, unit);
    return transposed(xt, n, m);
  });
}

/** `linalg_solve_triangular(A, B, *, upper, left=True, unitriangular=False)`: CPU and Meta. */
export function linalgSolveTriangular(
  _ks: DispatchKeySet,
  A: Tensor,
  B: Tensor,
  upper: boolean,
  left = true,
  unitriangular = false,
): Tensor {
  checkInputsSolver(A, B, left, 'linalg.solve_triangular');
  if (A.scalarType !== B.scalarType) {
    throw new Error(
      `linalg.solve_triangular: Expected A and B to have the same dtype, but found A of type ${scalarTypeToString(A.scalarType)} and B of type ${scalarTypeToString(B.scalarType)} instead`,
    );
  }
  checkFloatingOrComplex(A, 'linalg.solve_triangular');
  const [bSizes, aSizes] = broadcastBatchSizes(B, A);
  const out = newMatrices(bSizes, true, B.scalarType, B);
  if (A.isMeta() || out.numel() === 0) return out;
  checkKernelDtype(A, 'linalg_solve_triangular_cpu');
  const batch = bSizes.slice(0, -2);
  const n = aSizes[aSizes.length - 1] as number;
  const [m, k] = [bSizes[bSizes.length - 2] as number, bSizes[bSizes.length - 1] as number];
  writeMatrices(out, triangularSolveAll(readMatrices(A, batch), readMatrices(B, batch), n, m, k, upper, left, false, unitriangular));
  return out;
}

/** `triangular_solve(self, A, upper=True, transpose=False, unitriangular=False) -> (solution, cloned_coefficient)`. */
export function triangularSolve(
  _ks: DispatchKeySet,
  self: Tensor,
  A: Tensor,
  upper = true,
  transpose = false,
  unitriangular = false,
): [Tensor, Tensor] {
  if (self.dim() < 2) {
    throw new Error(`torch.triangular_solve: Expected b to have at least 2 dimensions, but it has ${self.dim()} dimensions instead`);
  }
  if (A.dim() < 2) {
    throw new Error(`torch.triangular_solve: Expected A to have at least 2 dimensions, but it has ${A.dim()} dimensions instead`);
  }
  linearSolveCheckInputs(self, A, 'triangular_solve');
  const [bSizes, aSizes] = broadcastBatchSizes(self, A);
  const solution = newMatrices(bSizes, true, self.scalarType, self);
  const coeff = newMatrices(aSizes, true, A.scalarType, A);
  if (A.isMeta()) return [solution, coeff];
  const batch = bSizes.slice(0, -2);
  const As = readMatrices(A, batch);
  writeMatrices(coeff, As);
  if (solution.numel() === 0) return [solution, coeff];
  checkKernelDtype(A, 'triangular_solve_cpu');
  const n = aSizes[aSizes.length - 1] as number;
  const k = bSizes[bSizes.length - 1] as number;
  writeMatrices(solution, triangularSolveAll(As, readMatrices(self, batch), n, n, k, upper, true, transpose, unitriangular));
  return [solution, coeff];
}

/** `_cholesky_solve_helper(self, A, upper)`: solves A X = B from A's Cholesky factor (batches already broadcast). */
export function choleskySolveHelper(_ks: DispatchKeySet, self: Tensor, A: Tensor, upper: boolean): Tensor {
  const out = newMatrices(self.sizes, true, self.scalarType, self);
  if (self.isMeta() || out.numel() === 0) return out;
  checkKernelDtype(self, 'cholesky_solve_cpu');
  const n = A.sizes[A.dim() - 1] as number;
  const k = self.sizes[self.dim() - 1] as number;
  const As = readMatrices(A);
  const res = readMatrices(self).map((b, i) => {
    const t = As[i] as Float64Array;
    // lower: L Lᴴ X = B; upper: Uᴴ U X = B.
    triangularSolveLeft(t, b, n, k, upper, upper, false);
    triangularSolveLeft(t, b, n, k, upper, !upper, false);
    return b;
  });
  writeMatrices(out, res);
  return out;
}

/** `cholesky_solve(self, input2, upper=False)`: broadcasts the batches and calls `_cholesky_solve_helper`. */
export function choleskySolve(_ks: DispatchKeySet, self: Tensor, A: Tensor, upper = false): Tensor {
  if (self.dim() < 2) throw new Error(`b should have at least 2 dimensions, but has ${self.dim()} dimensions instead`);
  if (A.dim() < 2) throw new Error(`u should have at least 2 dimensions, but has ${A.dim()} dimensions instead`);
  linearSolveCheckInputs(self, A, 'cholesky_solve');
  const [bSizes, aSizes] = broadcastBatchSizes(self, A);
  return at._cholesky_solve_helper(at.expand(self, bSizes), at.expand(A, aSizes), upper);
}
