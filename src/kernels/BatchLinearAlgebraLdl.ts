// torch.linalg.ldl_factor(_ex) and ldl_solve: BatchLinearAlgebra.cpp's linalg_ldl_factor_ex / linalg_ldl_solve
// (their structured meta functions' checks and output layouts) over LAPACK's unblocked Bunch–Kaufman
// factorization (sytf2, which sytrf runs for the matrices smaller than its block) and its solve (sytrs), lower
// triangle, real dtypes. See Note [Bunch-Kaufman pivots as LAPACK stores them].

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isIntegralType, scalarTypeToString } from '../c10/ScalarType.js';
import * as at from '../generated/TensorBody.js';
import type { Tensor } from '../tensor/Tensor.js';
import {
  broadcastBatchSizes,
  checkFloatingOrComplex,
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
import { contiguousOf, elementReader } from './StorageAccess.js';

// Note [Bunch-Kaufman pivots as LAPACK stores them]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A = P L D Lᵀ Pᵀ with D of 1×1 and 2×2 blocks, chosen column by column with α = (1 + √17) / 8: column k stays a
// 1×1 pivot when |a_kk| ≥ α·colmax, or when |a_kk|·rowmax ≥ α·colmax²; else row/column imax is swapped in as a 1×1
// pivot when |a_imax,imax| ≥ α·rowmax, else (k, imax) form a 2×2 pivot. LD holds D on its diagonal (a 2×2
// block's off-diagonal just below it) and L's multipliers under it, the upper triangle zero. pivots (1-based,
// int32): ipiv[k] = p > 0 for a 1×1 pivot after swapping k with p; ipiv[k] = ipiv[k+1] = -p for a 2×2 pivot
// after swapping k+1 with p. info = k (1-based) when D's k-th block is exactly singular.

const ALPHA = (1 + Math.sqrt(17)) / 8;

/** sytf2 ('L') on the row-major n×n `a` in place (lower triangle read and written); returns [ipiv, info]. */
function sytf2Lower(a: Float64Array, n: number): [Int32Array, number] {
  const A = (i: number, j: number): number => a[i * n + j] as number;
  const set = (i: number, j: number, v: number): void => {
    a[i * n + j] = v;
  };
  const swap = (i1: number, j1: number, i2: number, j2: number): void => {
    const t = A(i1, j1);
    set(i1, j1, A(i2, j2));
    set(i2, j2, t);
  };
  const ipiv = new Int32Array(n);
  let info = 0;
  let k = 0;
  while (k < n) {
    let kstep = 1;
    let kp = k;
    const absakk = Math.abs(A(k, k));
    let imax = k;
    let colmax = 0;
    for (let i = k + 1; i < n; i++) {
      if (i === k + 1 || Math.abs(A(i, k)) > colmax) {
        colmax = Math.abs(A(i, k));
        imax = i;
      }
    }
    if (Math.max(absakk, colmax) === 0 || Number.isNaN(absakk)) {
      if (info === 0) info = k + 1;
      kp = k;
    } else {
      if (absakk >= ALPHA * colmax) {
        kp = k;
      } else {
        let rowmax = 0;
        for (let j = k; j < imax; j++) rowmax = Math.max(rowmax, Math.abs(A(imax, j)));
        for (let i = imax + 1; i < n; i++) rowmax = Math.max(rowmax, Math.abs(A(i, imax)));
        if (absakk >= ALPHA * colmax * (colmax / rowmax)) kp = k;
        else if (Math.abs(A(imax, imax)) >= ALPHA * rowmax) kp = imax;
        else {
          kp = imax;
          kstep = 2;
        }
      }
      const kk = k + kstep - 1;
      if (kp !== kk) {
        for (let i = kp + 1; i < n; i++) swap(i, kk, i, kp);
        for (let j = kk + 1; j < kp; j++) swap(j, kk, kp, j);
        swap(kk, kk, kp, kp);
        if (kstep === 2) swap(k + 1, k, kp, k);
      }
      if (kstep === 1) {
        if (k < n - 1) {
          const d11 = 1 / A(k, k);
          for (let j = k + 1; j < n; j++) {
            const xj = A(j, k);
            for (let i = j; i < n; i++) set(i, j, A(i, j) - d11 * A(i, k) * xj);
          }
          for (let i = k + 1; i < n; i++) set(i, k, d11 * A(i, k));
        }
      } else if (k < n - 2) {
        let d21 = A(k + 1, k);
        const d11 = A(k + 1, k + 1) / d21;
        const d22 = A(k, k) / d21;
        const t = 1 / (d11 * d22 - 1);
        d21 = t / d21;
        for (let j = k + 2; j < n; j++) {
          const wk = d21 * (d11 * A(j, k) - A(j, k + 1));
          const wkp1 = d21 * (d22 * A(j, k + 1) - A(j, k));
          for (let i = j; i < n; i++) set(i, j, A(i, j) - A(i, k) * wk - A(i, k + 1) * wkp1);
          set(j, k, wk);
          set(j, k + 1, wkp1);
        }
      }
    }
    if (kstep === 1) ipiv[k] = kp + 1;
    else {
      ipiv[k] = -(kp + 1);
      ipiv[k + 1] = -(kp + 1);
    }
    k += kstep;
  }
  return [ipiv, info];
}

/** sytrs ('L'): solves (P L D Lᵀ Pᵀ) X = B for the row-major n×nrhs `b` in place. */
function sytrsLower(a: Float64Array, ipiv: ArrayLike<number>, b: Float64Array, n: number, nrhs: number): void {
  const A = (i: number, j: number): number => a[i * n + j] as number;
  const swapRows = (r1: number, r2: number): void => {
    for (let j = 0; j < nrhs; j++) {
      const t = b[r1 * nrhs + j] as number;
      b[r1 * nrhs + j] = b[r2 * nrhs + j] as number;
      b[r2 * nrhs + j] = t;
    }
  };
  const axpyRows = (dst: number, src: number, s: number): void => {
    for (let j = 0; j < nrhs; j++) b[dst * nrhs + j] = (b[dst * nrhs + j] as number) - s * (b[src * nrhs + j] as number);
  };
  let k = 0;
  while (k < n) {
    const p = ipiv[k] as number;
    if (p > 0) {
      if (p - 1 !== k) swapRows(k, p - 1);
      for (let i = k + 1; i < n; i++) axpyRows(i, k, A(i, k));
      const s = 1 / A(k, k);
      for (let j = 0; j < nrhs; j++) b[k * nrhs + j] = s * (b[k * nrhs + j] as number);
      k += 1;
    } else {
      if (-p - 1 !== k + 1) swapRows(k + 1, -p - 1);
      for (let i = k + 2; i < n; i++) {
        axpyRows(i, k, A(i, k));
        axpyRows(i, k + 1, A(i, k + 1));
      }
      const akm1k = A(k + 1, k);
      const akm1 = A(k, k) / akm1k;
      const ak = A(k + 1, k + 1) / akm1k;
      const denom = akm1 * ak - 1;
      for (let j = 0; j < nrhs; j++) {
        const bkm1 = (b[k * nrhs + j] as number) / akm1k;
        const bk = (b[(k + 1) * nrhs + j] as number) / akm1k;
        b[k * nrhs + j] = (ak * bkm1 - bk) / denom;
        b[(k + 1) * nrhs + j] = (akm1 * bk - bkm1) / denom;
      }
      k += 2;
    }
  }
  k = n - 1;
  while (k >= 0) {
    const p = ipiv[k] as number;
    if (p > 0) {
      for (let i = k + 1; i < n; i++) axpyRows(k, i, A(i, k));
      if (p - 1 !== k) swapRows(k, p - 1);
      k -= 1;
    } else {
      for (let i = k + 1; i < n; i++) {
        axpyRows(k, i, A(i, k));
        axpyRows(k - 1, i, A(i, k - 1));
      }
      if (-p - 1 !== k) swapRows(k, -p - 1);
      k -= 2;
    }
  }
}

/** `linalg_ldl_factor_ex(self, *, hermitian=False, check_errors=False) -> (LD, pivots, info)`. */
export function linalgLdlFactorEx(_ks: DispatchKeySet, self: Tensor, _hermitian = false, checkErrors = false): [Tensor, Tensor, Tensor] {
  squareCheckInputs(self, 'torch.linalg.ldl_factor_ex');
  checkFloatingOrComplex(self, 'torch.linalg.ldl_factor_ex');
  const n = self.sizes[self.dim() - 1] as number;
  const LD = newMatrices(self.sizes, true, self.scalarType, self);
  const pivots = newContiguous(self.sizes.slice(0, -1), ScalarType.Int, self);
  const info = newContiguous(self.sizes.slice(0, -2), ScalarType.Int, self);
  if (self.isMeta()) return [LD, pivots, info];
  if (self.numel() === 0) {
    writeFlat(info, new Int32Array(info.numel()));
    return [LD, pivots, info];
  }
  checkKernelDtype(self, 'ldl_factor_cpu');
  const mats = readMatrices(self);
  const piv = new Int32Array(pivots.numel());
  const infos = new Int32Array(mats.length);
  mats.forEach((a, bi) => {
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) a[i * n + j] = 0;
    const [p, inf] = sytf2Lower(a, n);
    piv.set(p, bi * n);
    infos[bi] = inf;
  });
  writeMatrices(LD, mats);
  writeFlat(pivots, piv);
  writeFlat(info, infos);
  if (checkErrors) linalgCheckErrors(infos, 'torch.linalg.ldl_factor_ex', self.dim() === 2);
  return [LD, pivots, info];
}

/** `linalg_ldl_factor(self, *, hermitian=False) -> (LD, pivots)`. */
export function linalgLdlFactor(_ks: DispatchKeySet, self: Tensor, hermitian = false): [Tensor, Tensor] {
  const [LD, pivots, info] = at.linalg_ldl_factor_ex(self, hermitian, false);
  if (!self.isMeta() && info.numel() > 0) {
    const c = contiguousOf(info);
    const read = elementReader(c);
    linalgCheckErrors(
      Int32Array.from({ length: c.numel() }, (_, i) => read(i)),
      'torch.linalg.ldl_factor',
      self.dim() === 2,
    );
  }
  return [LD, pivots];
}

/** `linalg_ldl_solve(LD, pivots, B, *, hermitian=False) -> Tensor`. */
export function linalgLdlSolve(_ks: DispatchKeySet, LD: Tensor, pivots: Tensor, B: Tensor, _hermitian = false): Tensor {
  squareCheckInputs(LD, 'torch.linalg.ldl_solve');
  checkFloatingOrComplex(LD, 'torch.linalg.ldl_solve');
  linearSolveCheckInputs(B, LD, 'torch.linalg.ldl_solve');
  if (B.dim() < 2) {
    throw new Error(`torch.linalg.ldl_solve: Expected B to have at least 2 dimensions, but it has ${B.dim()} dimensions instead`);
  }
  const expected = LD.sizes.slice(0, -1);
  if (expected.length !== pivots.dim() || expected.some((s, i) => s !== pivots.sizes[i])) {
    throw new Error(
      `torch.linalg.ldl_solve: Expected LD.shape[:-1] and pivots.shape to be the same, but got pivots with shape [${pivots.sizes.join(', ')}] instead`,
    );
  }
  if (!isIntegralType(pivots.scalarType, false)) {
    throw new Error(`torch.linalg.ldl_solve: Expected pivots to be integers. Got ${scalarTypeToString(pivots.scalarType)}`);
  }
  if (LD.scalarType !== B.scalarType) {
    throw new Error(
      `torch.linalg.ldl_solve: LD dtype${scalarTypeToString(LD.scalarType)} does not match b dtype ${scalarTypeToString(B.scalarType)}`,
    );
  }
  const [bSizes, ldSizes] = broadcastBatchSizes(B, LD);
  const out = newMatrices(bSizes, true, B.scalarType, B);
  if (LD.isMeta() || B.isMeta() || out.numel() === 0) return out;
  checkKernelDtype(LD, 'ldl_solve_cpu');
  const n = LD.sizes[LD.dim() - 1] as number;
  const nrhs = bSizes[bSizes.length - 1] as number;
  const batch = bSizes.slice(0, -2);
  const lds = readMatrices(LD, batch);
  const pivE = at.expand(pivots, [...ldSizes.slice(0, -2), n], false);
  const pc = contiguousOf(pivE);
  const bs = readMatrices(B, batch);
  const readP = elementReader(pc);
  bs.forEach((b, bi) => {
    const ipiv = Int32Array.from({ length: n }, (_, i) => readP(bi * n + i));
    sytrsLower(lds[bi] as Float64Array, ipiv, b, n, nrhs);
  });
  writeMatrices(out, bs);
  return out;
}
