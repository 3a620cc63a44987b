// The derivative helpers of the Cholesky, LU, solver and determinant operators (BatchLinearAlgebraCholesky.ts,
// BatchLinearAlgebraLu.ts): cholesky_backward, cholesky_inverse_backward, cholesky_solve_backward,
// linalg_solve_triangular_backward, triangular_solve_backward, linalg_lu_backward, lu_factor_ex_backward,
// lu_unpack_backward, linalg_lu_solve_LU, linalg_solve_backward, linalg_det_backward and slogdet_backward of
// torch/csrc/autograd/FunctionsManual.cpp, for real dtypes. Built from differentiable operators, so a second
// backward works. Re-exported by FunctionsManual.ts.

import { autogradState } from '../c10/AutogradState.js';
import { ScalarType } from '../c10/ScalarType.js';
import * as at from '../generated/TensorBody.js';
import { linalgSolveIsVectorRhs } from '../kernels/LinearAlgebraUtils.js';
import type { Tensor } from '../tensor/Tensor.js';
import { wrapScalar } from '../tensor/ScalarOps.js';

const mm = (a: Tensor, b: Tensor): Tensor => at.matmul(a, b);
const add = (a: Tensor, b: Tensor): Tensor => at.add_Tensor(a, b, 1);
const sub = (a: Tensor, b: Tensor): Tensor => at.sub_Tensor(a, b, 1);
const scale = (a: Tensor, s: number): Tensor => at.mul_Tensor(a, wrapScalar(s));

/** `cholesky_backward(gL, upper, L)` (Iain Murray, arXiv 1602.07527). */
export function choleskyBackward(gL: Tensor | null, upper: boolean, L: Tensor): Tensor | null {
  if (gL === null) return null;
  const [l, g] = upper ? [L.mH, gL.mH] : [L, gL];
  let gA = at.tril(mm(l.mH, g), 0);
  gA = scale(add(gA, at.tril(gA, -1).mH), 0.5);
  gA = at.linalg_solve_triangular(l.mH, gA, true, true, false);
  return at.linalg_solve_triangular(l, gA, false, false, false);
}

/** `cholesky_inverse_backward(grad, L, upper, inverse)`. */
export function choleskyInverseBackward(grad: Tensor | null, L: Tensor, upper: boolean, inverse: Tensor): Tensor | null {
  if (grad === null) return null;
  const common = mm(inverse, mm(add(grad, grad.mH), inverse));
  return at.neg(upper ? mm(L, common) : mm(common, L));
}

/** `cholesky_solve_backward(grad_x, self, input2, result, upper)`: input `which` (0: self, 1: input2). */
export function choleskySolveBackward(
  which: number,
  gX: Tensor | null,
  self: Tensor,
  input2: Tensor,
  result: Tensor,
  upper: boolean,
): Tensor | null {
  void self;
  if (gX === null) return null;
  const gSelf = at.cholesky_solve(gX, input2, upper);
  if (which === 0) return gSelf;
  let common = mm(gSelf, result.mH);
  common = add(common, common.mH);
  return at.neg(upper ? mm(input2, common) : mm(common, input2));
}

/** `linalg_solve_triangular_backward(grad, A, X, upper, left, unitriangular)`: input `which` (0: A, 1: B). */
export function linalgSolveTriangularBackward(
  which: number,
  grad: Tensor | null,
  A: Tensor,
  X: Tensor,
  upper: boolean,
  left: boolean,
  unitriangular: boolean,
): Tensor | null {
  if (grad === null) return null;
  const GB = at.linalg_solve_triangular(A.mH, grad, !upper, left, unitriangular);
  if (which === 1) return GB;
  const GA = at.neg(left ? mm(GB, X.mH) : mm(X.mH, GB));
  return upper ? at.triu(GA, unitriangular ? 1 : 0) : at.tril(GA, unitriangular ? -1 : 0);
}

/** `triangular_solve_backward(grad_x, grad_m, b, a, x, upper, transpose, unitriangular)`: `which` 0: self (b), 1: A. */
export function triangularSolveBackward(
  which: number,
  grads: (Tensor | null)[],
  b: Tensor,
  a: Tensor,
  x: Tensor,
  upper: boolean,
  transpose: boolean,
  unitriangular: boolean,
): Tensor | null {
  const [gX, gM] = [grads[0] ?? null, grads[1] ?? null];
  if (gX === null && gM === null) return null;
  let gB: Tensor | null = null;
  let gA: Tensor | null = null;
  if (gX !== null) {
    gB = at.triangular_solve(gX, a, upper, !transpose, unitriangular)[0];
    if (which === 1) {
      gA = transpose ? at.neg(mm(x, gB.mT)) : at.neg(mm(gB, x.mH));
      gA = upper ? at.triu(gA, unitriangular ? 1 : 0) : at.tril(gA, unitriangular ? -1 : 0);
    }
  }
  if (which === 0) return gB ?? at.zeros_like(b, null, null, null, null, null);
  gA ??= at.zeros_like(a, null, null, null, null, null);
  return gM !== null ? add(gA, gM) : gA;
}

/** `linalg_lu_backward(L_grad, U_grad, P, L, U, pivot)`. */
export function linalgLuBackward(gL: Tensor | null, gU: Tensor | null, P: Tensor, L: Tensor, U: Tensor, pivot: boolean): Tensor | null {
  if (gL === null && gU === null) return null;
  const m = L.sizes[L.dim() - 2] as number;
  const n = U.sizes[U.dim() - 1] as number;
  const k = Math.min(m, n);
  const solveT = (A: Tensor, B: Tensor, upper: boolean, left: boolean, unit: boolean): Tensor =>
    at.linalg_solve_triangular(A, B, upper, left, unit);
  let gA: Tensor;
  if (m === n) {
    // gA = P L⁻ᴴ [(Lᴴ gL).tril(-1) + (gU Uᴴ).triu()] U⁻ᴴ
    let acc: Tensor | null = gL !== null ? at.tril(mm(L.mH, gL), -1) : null;
    if (gU !== null) {
      const t = at.triu(mm(gU, U.mH), 0);
      acc = acc !== null ? add(acc, t) : t;
    }
    gA = solveT(U.mH, acc as Tensor, false, false, false);
    gA = solveT(L.mH, gA, true, true, true);
  } else if (m < n) {
    const U1 = at.narrow(U, -1, 0, k);
    let acc: Tensor | null = gL !== null ? mm(L.mH, gL) : null;
    if (gU !== null) {
      const t = mm(at.triu(gU, 0), U.mH);
      acc = acc !== null ? sub(acc, t) : at.neg(t);
    }
    gA = solveT(U1.mH, at.tril(acc as Tensor, -1), false, false, false);
    if (gU !== null) gA = at.cat([add(gA, at.triu(at.narrow(gU, -1, 0, k), 0)), at.narrow(gU, -1, k, n - k)], -1);
    gA = solveT(L.mH, gA, true, true, true);
    if (gU === null) gA = at.cat([gA, at.zeros_like(at.narrow(U, -1, k, n - k), null, null, null, null, null)], -1);
  } else {
    const L1 = at.narrow(L, -2, 0, k);
    let acc: Tensor | null = gU !== null ? mm(gU, U.mH) : null;
    if (gL !== null) {
      const t = mm(L.mH, at.tril(gL, -1));
      acc = acc !== null ? sub(acc, t) : at.neg(t);
    }
    gA = solveT(L1.mH, at.triu(acc as Tensor, 0), true, true, true);
    if (gL !== null) gA = at.cat([add(gA, at.tril(at.narrow(gL, -2, 0, k), -1)), at.narrow(gL, -2, k, m - k)], -2);
    gA = solveT(U.mH, gA, false, false, false);
    if (gL === null) gA = at.cat([gA, at.zeros_like(at.narrow(L, -2, k, m - k), null, null, null, null, null)], -2);
  }
  return pivot ? mm(P, gA) : gA;
}

/** `lu_factor_ex_backward(grad, LU, pivs, pivot)`. */
export function luFactorExBackward(grad: Tensor | null, LU: Tensor, pivots: Tensor, pivot: boolean): Tensor | null {
  if (grad === null) return null;
  const [P, L, U] = at.lu_unpack(LU, pivots, true, pivot);
  const m = LU.sizes[LU.dim() - 2] as number;
  const n = LU.sizes[LU.dim() - 1] as number;
  const k = Math.min(m, n);
  return linalgLuBackward(at.narrow(grad, -1, 0, k), at.narrow(grad, -2, 0, k), P, L, U, pivot);
}

/** `lu_unpack_backward(L_grad, U_grad, m, n)`. */
export function luUnpackBackward(gL: Tensor | null, gU: Tensor | null, sizes: readonly number[]): Tensor | null {
  if (gL === null && gU === null) return null;
  const m = sizes[sizes.length - 2] as number;
  const n = sizes[sizes.length - 1] as number;
  const k = Math.min(m, n);
  if (m === n) {
    if (gL !== null && gU !== null) return add(at.tril(gL, -1), at.triu(gU, 0));
    return gL !== null ? at.tril(gL, -1) : at.triu(gU as Tensor, 0);
  }
  if (m < n) {
    // A is m×n, U is k×n (k = m), L is m×k.
    const base = gU !== null ? at.triu(gU, 0) : null;
    const lpart = gL !== null ? at.tril(gL, -1) : null;
    if (base === null) {
      const z = at.zeros_like(at.narrow(lpart as Tensor, -1, 0, 1), null, null, null, null, null);
      return at.cat([lpart as Tensor, at.expand(z, [...(lpart as Tensor).sizes.slice(0, -1), n - k])], -1);
    }
    if (lpart === null) return base;
    return at.cat([add(at.narrow(base, -1, 0, k), lpart), at.narrow(base, -1, k, n - k)], -1);
  }
  const base = gL !== null ? at.tril(gL, -1) : null;
  const upart = gU !== null ? at.triu(gU, 0) : null;
  if (base === null) {
    const z = at.zeros_like(at.narrow(upart as Tensor, -2, 0, 1), null, null, null, null, null);
    return at.cat([upart as Tensor, at.expand(z, [...(upart as Tensor).sizes.slice(0, -2), m - k, n])], -2);
  }
  if (upart === null) return base;
  return at.cat([add(at.narrow(base, -2, 0, k), upart), at.narrow(base, -2, k, m - k)], -2);
}

/** `linalg_lu_solve_LU(gX, LU, pivots, X, left, adjoint)`: the gradient with respect to the packed LU. */
export function linalgLuSolveLU(gX: Tensor | null, LU: Tensor, pivots: Tensor, X: Tensor, left: boolean, adjoint: boolean): Tensor | null {
  if (gX === null) return null;
  const [P, L, U] = at.lu_unpack(LU, pivots, true, left === adjoint);
  if (left !== adjoint) {
    // gR = U^{-H} op_2(-gX) op_2(X)^H; gL = (L^{-H} gR U^H).tril(-1)
    const gR = at.linalg_solve_triangular(U.mH, at.neg(mm(left ? gX : gX.mH, left ? X.mH : X)), false, true, false);
    const gL = at.tril(at.linalg_solve_triangular(L.mH, mm(gR, U.mH), true, true, true), -1);
    return add(gL, at.triu(gR, 0));
  }
  // gR = -Pᵀ op_3(X) op_2(gX) P L⁻ᴴ; gU = (Lᴴ gR U⁻ᴴ).triu(); the gradient is gR.tril(-1) + gU.
  const gR0 = at.neg(mm(mm(P.mT, left ? X : X.mH), left ? gX.mH : gX));
  const gR = at.linalg_solve_triangular(L.mH, mm(gR0, P), true, false, true);
  const gU = at.triu(at.linalg_solve_triangular(U.mH, mm(L.mH, gR), false, false, false), 0);
  return add(at.tril(gR, -1), gU);
}

/** `linalg_solve_backward(gX, X, A, LU, pivots, left)`: input `which` (0: A, 1: B). */
export function linalgSolveBackward(
  which: number,
  gX: Tensor | null,
  X: Tensor,
  A: Tensor,
  LU: Tensor,
  pivots: Tensor,
  left: boolean,
): Tensor | null {
  if (gX === null) return null;
  const vectorCase = linalgSolveIsVectorRhs(LU, X);
  const toMatrix = (t: Tensor): Tensor => (vectorCase ? at.unsqueeze(t, -1) : t);
  let gB: Tensor;
  if (autogradState.gradMode) gB = at.linalg_solve(A.mH, toMatrix(gX), left);
  else gB = at.linalg_lu_solve(LU, pivots, toMatrix(gX), left, !A.isContiguous());
  if (which === 1) return vectorCase ? at.squeeze_dim(gB, -1) : gB;
  const X_ = toMatrix(X);
  return at.neg(left ? mm(gB, X_.mH) : mm(X_.mH, gB));
}

/** `linalg_inv_ex`'s formula: -A⁻ᴴ grad A⁻ᴴ. */
export function linalgInvExBackward(grad: Tensor | null, inverse: Tensor): Tensor | null {
  if (grad === null) return null;
  return at.neg(mm(inverse.mH, mm(grad, inverse.mH)));
}

const epsilonOf = (t: ScalarType): number => (t === ScalarType.Float ? 1.1920928955078125e-7 : 2.220446049250313e-16);

/** `diag_embed(v.unsqueeze(-1).expand_as(pivots)).mT()`: v on the diagonal of n×n matrices. */
function diagOf(v: Tensor, pivots: Tensor): Tensor {
  return at.diag_embed(at.expand(at.unsqueeze(v, -1), [...pivots.sizes]), 0, -2, -1).mT;
}

/** `linalg_det_backward(grad, det, A, LU, pivots)`: the cofactor matrix grad·det·A⁻ᴴ (LU perturbed by eps where singular). */
export function linalgDetBackward(grad: Tensor | null, det: Tensor, A: Tensor, LU: Tensor, pivots: Tensor): Tensor | null {
  if (grad === null) return null;
  const d = diagOf(at.mul_Tensor(grad, det), pivots);
  if (autogradState.gradMode) return at.linalg_solve(A.mH, d, true);
  const eps = epsilonOf(det.scalarType);
  const diag = at.diagonal(LU, 0, -2, -1);
  const LU_ = add(LU, at.diag_embed(at.where_ScalarOther(at.eq_Scalar(diag, 0), wrapScalar(eps, diag.scalarType), 0), 0, -2, -1));
  return at.linalg_lu_solve(LU_, pivots, d, true, !A.isContiguous());
}

/** `slogdet_backward(grad_sign, grad_logabsdet, A, signdet, LU, pivots)`, real case: grad·A⁻ᴴ. */
export function slogdetBackward(grads: (Tensor | null)[], A: Tensor, sign: Tensor, LU: Tensor, pivots: Tensor): Tensor | null {
  void sign;
  const g = grads[1] ?? null;
  if (g === null) return null;
  const d = diagOf(g, pivots);
  if (autogradState.gradMode) return at.linalg_solve(A.mH, d, true);
  return at.linalg_lu_solve(LU, pivots, d, true, !A.isContiguous());
}

/** `pinv_backward(grad, pinvA, A)`: the products arranged to keep the smaller dimension inside. */
export function pinvBackward(grad: Tensor | null, pinvA: Tensor, A: Tensor): Tensor | null {
  if (grad === null) return null;
  const m = A.sizes[A.dim() - 2] as number;
  const n = A.sizes[A.dim() - 1] as number;
  const pinvAh = pinvA.mH;
  const gradh = grad.mH;
  if (m <= n) {
    const K = mm(gradh, pinvA);
    const KpinvAh = mm(K, pinvAh);
    const t = sub(add(at.neg(mm(pinvA, K).mH), KpinvAh), mm(mm(A, pinvA), KpinvAh));
    return add(t, mm(mm(pinvAh, pinvA), sub(gradh, mm(K, A))));
  }
  const K = mm(pinvA, gradh);
  const pinvAhK = mm(pinvAh, K);
  const t = add(at.neg(mm(K, pinvA).mH), mm(mm(sub(gradh, mm(A, K)), pinvA), pinvAh));
  return sub(add(t, pinvAhK), mm(mm(pinvAhK, pinvA), A));
}

/**
 * `linalg_lstsq_backward(gX, gL, A, B, X, mask)`, input `which` (0: A, 1: B): the solution is pinv(A) B, so
 * gA = pinv_backward(gX Bᴴ) and gB = pinv(A)ᴴ gX; the residuals |A X - B|² add 2 (A X - B) gL Xᴴ and
 * -2 (A X - B) gL (X's own change does not move them: Aᴴ (A X - B) = 0 at the solution).
 */
export function linalgLstsqBackward(which: number, grads: (Tensor | null)[], A: Tensor, B_: Tensor, X_: Tensor): Tensor | null {
  const gX_ = grads[0] ?? null;
  const gL = grads[1] !== null && grads[1] !== undefined && grads[1].numel() > 0 ? grads[1] : null;
  if (gX_ === null && gL === null) return null;
  const vectorCase = linalgSolveIsVectorRhs(A, B_);
  const toMatrix = (t: Tensor): Tensor => (vectorCase ? at.unsqueeze(t, -1) : t);
  const B = toMatrix(B_);
  const X = toMatrix(X_);
  let g: Tensor | null = null;
  if (gX_ !== null) {
    const gX = toMatrix(gX_);
    const pinvA = at.linalg_pinv_atol_rtol_tensor(A, null, null, false);
    g = which === 0 ? pinvBackward(mm(gX, B.mH), pinvA, A) : mm(pinvA.mH, gX);
  }
  if (gL !== null) {
    const R = scale(at.mul_Tensor(sub(mm(A, X), B), at.unsqueeze(gL, -2)), which === 0 ? 2 : -2);
    const term = which === 0 ? mm(R, X.mH) : R;
    g = g === null ? term : add(g, term);
  }
  if (g === null) return null;
  return which === 1 && vectorCase ? at.squeeze_dim(g, -1) : g;
}
