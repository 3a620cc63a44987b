// The CompositeImplicitAutograd linear-algebra functions over the structured kernels of
// BatchLinearAlgebraCholesky.ts and BatchLinearAlgebraLu.ts: `linalg_cholesky`, `linalg_lu_factor`,
// `_lu_with_info`, `lu_solve`, `linalg_solve_ex`, `linalg_solve`, `linalg_inv`, `linalg_det`,
// `linalg_slogdet` and `logdet`. Mirrors aten/src/ATen/native/BatchLinearAlgebra.cpp and LinearAlgebra.cpp;
// each records the grad_fn of the kernel it calls, as PyTorch's do.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import type { Tensor } from '../tensor/Tensor.js';
import * as at from '../generated/TensorBody.js';
import { checkFloatingOrComplex, linalgCheckErrors, readInfo, squareCheckInputs } from './LinearAlgebraUtils.js';

function checkInfo(info: Tensor, apiName: string, isMatrix: boolean): void {
  if (info.isMeta()) return;
  linalgCheckErrors(readInfo(info), apiName, isMatrix);
}

/** `linalg_cholesky(A, *, upper=False)`: `linalg_cholesky_ex` then the error check. */
export function linalgCholesky(_ks: DispatchKeySet, A: Tensor, upper = false): Tensor {
  const [L, info] = at.linalg_cholesky_ex(A, upper, false);
  checkInfo(info, 'linalg.cholesky', A.dim() === 2);
  return L;
}

/** `linalg_lu_factor(A, *, pivot=True) -> (LU, pivots)`. */
export function linalgLuFactor(_ks: DispatchKeySet, A: Tensor, pivot = true): [Tensor, Tensor] {
  const [LU, pivots, info] = at.linalg_lu_factor_ex(A, pivot, false);
  checkInfo(info, 'torch.linalg.lu_factor', A.dim() === 2);
  return [LU, pivots];
}

/** `_lu_with_info(self, pivot=True, check_errors=True) -> (LU, pivots, info)`: what torch.lu calls. */
export function luWithInfo(_ks: DispatchKeySet, self: Tensor, pivot = true, _checkErrors = true): [Tensor, Tensor, Tensor] {
  return at.linalg_lu_factor_ex(self, pivot, false);
}

/** `lu_solve(self, LU_data, LU_pivots)`: the deprecated form of `linalg_lu_solve(LU, pivots, B)`. */
export function luSolve(_ks: DispatchKeySet, self: Tensor, LUData: Tensor, LUPivots: Tensor): Tensor {
  return at.linalg_lu_solve(LUData, LUPivots, self, true, false);
}

/** `linalg_solve_ex(A, B, *, left=True, check_errors=False) -> (result, info)`. */
export function linalgSolveEx(_ks: DispatchKeySet, A: Tensor, B: Tensor, left = true, checkErrors = false): [Tensor, Tensor] {
  const [result, , , info] = at._linalg_solve_ex(A, B, left, checkErrors);
  return [result, info];
}

/** `linalg_solve(A, B, *, left=True)`. */
export function linalgSolve(_ks: DispatchKeySet, A: Tensor, B: Tensor, left = true): Tensor {
  const [result, , , info] = at._linalg_solve_ex(A, B, left, false);
  checkInfo(info, 'torch.linalg.solve', A.dim() === 2);
  return result;
}

/** `linalg_inv(A)`. */
export function linalgInv(_ks: DispatchKeySet, A: Tensor): Tensor {
  const [result, info] = at.linalg_inv_ex(A, false);
  checkInfo(info, 'linalg.inv', A.dim() === 2);
  return result;
}

/** `linalg_det(A)`: the determinant of `_linalg_det`. */
export function linalgDet(_ks: DispatchKeySet, A: Tensor): Tensor {
  return at._linalg_det(A)[0];
}

/** `linalg_slogdet(A) -> (sign, logabsdet)`. */
export function linalgSlogdet(_ks: DispatchKeySet, A: Tensor): [Tensor, Tensor] {
  const [sign, logabsdet] = at._linalg_slogdet(A);
  return [sign, logabsdet];
}

/** `logdet(self)`: log|det| where the determinant is positive, NaN where it is negative. */
export function logdet(_ks: DispatchKeySet, A: Tensor): Tensor {
  squareCheckInputs(A, 'logdet');
  checkFloatingOrComplex(A, 'logdet', false);
  const [sign, logabsdet] = at.linalg_slogdet(A);
  return at.where_self(at.eq_Scalar(sign, -1), at.full_like(logabsdet, NaN), logabsdet);
}
