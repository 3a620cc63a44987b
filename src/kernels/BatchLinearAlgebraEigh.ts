// The symmetric eigensolver of aten/src/ATen/native/BatchLinearAlgebra.cpp: the structured `_linalg_eigh` (CPU
// and Meta) and its composites `linalg_eigh`, `linalg_eigvalsh`. The per-matrix algorithm is the cyclic Jacobi
// method (See Note [Cyclic Jacobi for eigh]).

import { autogradState } from '../c10/AutogradState.js';
import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { toRealValueType } from '../c10/ScalarType.js';
import * as at from '../generated/TensorBody.js';
import type { Tensor } from '../tensor/Tensor.js';
import { checkKernelDtype, newContiguous, newMatrices, readMatrices, squareCheckInputs, writeMatrices } from './LinearAlgebraUtils.js';

// Note [Cyclic Jacobi for eigh]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// LAPACK's syevd reduces to tridiagonal form and runs QL/QR or divide and conquer. Here each symmetric matrix
// (built from the triangle UPLO names, in float64; See Note [Float64 matrix kernels]) is diagonalised by cyclic
// Jacobi rotations (Golub & Van Loan 8.5.3, Rutishauser's stable rotation), which is accurate to a few ulps of
// ‖A‖ in every eigenvalue, sorted ascending as LAPACK returns them. Eigenvectors are orthonormal and agree with
// LAPACK's up to the sign of each column (and the basis of a repeated eigenvalue's space): each column is
// normalised so that its entry of largest magnitude is positive, which is not LAPACK's rule; functions of the
// eigendecomposition that do not see the signs (eigvalsh, pinv and matrix_rank with hermitian=True, V diag V^H)
// agree with PyTorch's values.

/** Eigenvalues (ascending) and row-major eigenvectors (columns) of the symmetric n×n `a` (destroyed). */
export function symmetricEigen(a: Float64Array, n: number, computeV: boolean): { w: Float64Array; v: Float64Array | null } {
  const v = computeV ? new Float64Array(n * n) : null;
  if (v !== null) for (let i = 0; i < n; i++) v[i * n + i] = 1;
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += (a[p * n + q] as number) ** 2;
    if (off === 0 || !Number.isFinite(off)) break;
    for (let p = 0; p < n - 1; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q] as number;
        if (apq === 0) continue;
        const app = a[p * n + p] as number;
        const aqq = a[q * n + q] as number;
        const theta = (aqq - app) / (2 * apq);
        const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        if (Math.abs(t * apq) === 0) {
          a[p * n + q] = 0;
          a[q * n + p] = 0;
          continue;
        }
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p] as number;
          const akq = a[k * n + q] as number;
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k] as number;
          const aqk = a[q * n + k] as number;
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        a[p * n + q] = 0;
        a[q * n + p] = 0;
        if (v !== null) {
          for (let k = 0; k < n; k++) {
            const vkp = v[k * n + p] as number;
            const vkq = v[k * n + q] as number;
            v[k * n + p] = c * vkp - s * vkq;
            v[k * n + q] = s * vkp + c * vkq;
          }
        }
      }
    }
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((i, j) => (a[i * n + i] as number) - (a[j * n + j] as number) || i - j);
  const w = Float64Array.from(order, (i) => a[i * n + i] as number);
  if (v === null) return { w, v: null };
  const vs = new Float64Array(n * n);
  order.forEach((src, dst) => {
    let big = 0;
    for (let k = 0; k < n; k++) if (Math.abs(v[k * n + src] as number) > Math.abs(big)) big = v[k * n + src] as number;
    const sign = big < 0 ? -1 : 1;
    for (let k = 0; k < n; k++) vs[k * n + dst] = sign * (v[k * n + src] as number);
  });
  return { w, v: vs };
}

/** `checkUplo(uplo)`. */
function checkUplo(uplo: string): boolean {
  const u = uplo.toUpperCase();
  if (uplo.length !== 1 || (u !== 'L' && u !== 'U')) throw new Error(`Expected UPLO argument to be 'L' or 'U', but got ${uplo}`);
  return u === 'U';
}

/** `_linalg_eigh(A, UPLO="L", compute_v=True) -> (eigenvalues, eigenvectors)`: structured, CPU and Meta. */
export function linalgEighImpl(_ks: DispatchKeySet, A: Tensor, UPLO = 'L', computeV = true): [Tensor, Tensor] {
  squareCheckInputs(A, 'linalg.eigh');
  const upper = checkUplo(UPLO);
  const V = computeV ? newMatrices(A.sizes, true, A.scalarType, A) : newContiguous([0], A.scalarType, A);
  const L = newContiguous(A.sizes.slice(0, -1), toRealValueType(A.scalarType), A);
  if (A.isMeta() || A.numel() === 0) return [L, V];
  checkKernelDtype(A, 'linalg_eigh_cpu');
  const n = A.sizes[A.dim() - 1] as number;
  const ws: Float64Array[] = [];
  const vs: Float64Array[] = [];
  for (const m of readMatrices(A)) {
    // symmetrise from the named triangle
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        if (upper) m[j * n + i] = m[i * n + j] as number;
        else m[i * n + j] = m[j * n + i] as number;
      }
    }
    const r = symmetricEigen(m, n, computeV);
    ws.push(r.w);
    if (r.v !== null) vs.push(r.v);
  }
  writeMatrices(at.unsqueeze(L, -2), ws);
  if (computeV) writeMatrices(V, vs);
  return [L, V];
}

/** `linalg_eigh(A, UPLO="L")`. */
export function linalgEigh(_ks: DispatchKeySet, A: Tensor, UPLO = 'L'): [Tensor, Tensor] {
  return at._linalg_eigh(A, UPLO, true);
}

/** `linalg_eigvalsh(A, UPLO="L")`: the eigenvectors only when a gradient may need them. */
export function linalgEigvalsh(_ks: DispatchKeySet, A: Tensor, UPLO = 'L'): Tensor {
  return at._linalg_eigh(A, UPLO, autogradState.gradMode && A.requiresGrad)[0];
}
