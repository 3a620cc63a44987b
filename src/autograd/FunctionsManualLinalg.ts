// The derivative helpers of the linear-algebra operators: mm_mat1_backward / mm_mat2_backward (mm, addmm,
// matmul; Blas.cpp), and of BatchLinearAlgebra.ts: svd_backward of
// torch/csrc/autograd/FunctionsManual.cpp, for `_linalg_svd` (LinalgSvdBackward0), and addbmm's batch formulas
// (AddbmmBackward0, derivatives.yaml's expressions). Re-exported by
// FunctionsManual.ts, where the generated autograd code imports every helper from.

import { aten } from '../generated/Operators.js';
import * as at from '../generated/TensorBody.js';
import type { Tensor } from '../tensor/Tensor.js';
import { wrapScalar } from '../tensor/ScalarOps.js';
import { maybeMultiply } from './FunctionsManual.js';

/**
 * `_linalg_svd`'s formula in derivatives.yaml: with full_matrices, the gradients of U and Vh (and U, Vh) are
 * narrowed to their first k = min(m, n) columns / rows before `svd_backward`.
 */
export function linalgSvdBackward(grads: (Tensor | null)[], U: Tensor, S: Tensor, Vh: Tensor, fullMatrices: boolean): Tensor | null {
  const ops = aten();
  const k = S.sizes[S.dim() - 1] as number;
  const gS = grads[1] ?? null;
  let [gU, gVh] = [grads[0] ?? null, grads[2] ?? null];
  let [u, vh] = [U, Vh];
  if (fullMatrices) {
    if (gU !== null) gU = ops.narrow.call(gU, -1, 0, k);
    if (gVh !== null) gVh = ops.narrow.call(gVh, -2, 0, k);
    u = ops.narrow.call(U, -1, 0, k);
    vh = ops.narrow.call(Vh, -2, 0, k);
  }
  return svdBackward(gU, gS, gVh, u, S, vh);
}

// Note [svd_backward for real inputs]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's svd_backward, for the real dtypes aten-ts has (the complex gauge check, "svd_backward: The singular
// vectors in the complex case are specified up to multiplication by e^{i phi}...", has no real counterpart):
//   gA = U [ (skew(UᵀgU) S + S skew(VᵀgV)) / E + diag(gS) ] Vᵀ, E_jk = S_k² − S_j² (1 on the diagonal),
// plus the terms for the columns outside the span of U (m > n) or of V (m < n). It assumes distinct non-zero
// singular values, as PyTorch's does (repeated ones give inf/nan, as there). Built from differentiable
// operators, so a second backward works. `diag_embed(gS)` is `gS.unsqueeze(-1) * eye(k)` (aten-ts has no
// diag_embed yet); E's diagonal is set by adding eye(k) to a zero diagonal.

/** `svd_backward(gU, gS, gVh, U, S, Vh)` (FunctionsManual.cpp), for U, S, Vh of the reduced SVD. */
export function svdBackward(gU: Tensor | null, gS: Tensor | null, gVh: Tensor | null, U: Tensor, S: Tensor, Vh: Tensor): Tensor | null {
  if (U.dim() < 2 || Vh.dim() < 2) {
    throw new Error('svd_backward: the singular vectors were not computed (compute_uv=False); call linalg_svd or linalg_svdvals');
  }
  if (gS === null && gU === null && gVh === null) return null;
  const ops = aten();
  const m = U.sizes[U.dim() - 2] as number;
  const n = Vh.sizes[Vh.dim() - 1] as number;
  const mm = (a: Tensor, b: Tensor): Tensor => ops.matmul.call(a, b);
  const mul = (a: Tensor, b: Tensor): Tensor => ops.mul_Tensor.call(a, b);
  const div = (a: Tensor, b: Tensor): Tensor => ops.div_Tensor.call(a, b);
  const sub = (a: Tensor, b: Tensor): Tensor => ops.sub_Tensor.call(a, b, 1);
  const add = (a: Tensor, b: Tensor): Tensor => ops.add_Tensor.call(a, b, 1);
  const uns = (a: Tensor, d: number): Tensor => ops.unsqueeze.call(a, d);
  // The svdvals case: gA = U diag(gS) Vh.
  if (gU === null && gVh === null) {
    const g = gS as Tensor;
    return m >= n ? mm(U, mul(uns(g, -1), Vh)) : mm(mul(U, uns(g, -2)), Vh);
  }
  const skew = (A: Tensor): Tensor => sub(A, A.mH);
  const UhgU = gU !== null ? skew(mm(U.mH, gU)) : null;
  const VhgV = gVh !== null ? skew(mm(Vh, gVh.mH)) : null;
  const k = S.sizes[S.dim() - 1] as number;
  const eye = ops.eye_m.call(k, k, S.scalarType, null, S.device, null);
  const S2 = mul(S, S);
  const E = add(sub(uns(S2, -2), uns(S2, -1)), eye);
  let gA: Tensor;
  if (UhgU !== null && VhgV !== null) gA = div(add(mul(UhgU, uns(S, -2)), mul(uns(S, -1), VhgV)), E);
  else if (UhgU !== null) gA = mul(UhgU, div(uns(S, -2), E));
  else gA = mul(uns(S, -1), div(VhgV as Tensor, E));
  if (gS !== null) gA = add(gA, mul(uns(gS, -1), eye));
  if (m > n && gU !== null) {
    gA = mm(U, gA);
    const gUSinv = div(gU, uns(S, -2));
    gA = sub(add(gA, gUSinv), mm(U, mm(U.mH, gUSinv)));
    return mm(gA, Vh);
  }
  if (m < n && gVh !== null) {
    gA = mm(gA, Vh);
    const SinvgVh = div(gVh, uns(S, -1));
    gA = sub(add(gA, SinvgVh), mm(mm(SinvgVh, Vh.mH), Vh));
    return mm(U, gA);
  }
  return m >= n ? mm(U, mm(gA, Vh)) : mm(mm(U, gA), Vh);
}

/** grad broadcast to the batch of products, [b, m, n], as addbmm's formulas expand it. */
function addbmmGradBatch(grad: Tensor, b: number, m: number, n: number): Tensor {
  return at.expand(at.unsqueeze(grad, 0), [b, m, n]);
}
const scaled = (t: Tensor, alpha: number | boolean): Tensor => (Number(alpha) === 1 ? t : at.mul_Tensor(t, wrapScalar(alpha)));

/** addbmm's batch1 gradient: grad (per batch) @ batch2ᵀ, times alpha. */
export function addbmmBatch1Backward(grad: Tensor, batch1Sizes: number[], batch2: Tensor, alpha: number | boolean): Tensor {
  const g = addbmmGradBatch(grad, batch1Sizes[0] as number, batch1Sizes[1] as number, batch2.sizes[2] as number);
  return scaled(at.bmm(g, at.transpose_int(batch2, 1, 2)), alpha);
}

/** addbmm's batch2 gradient: batch1ᵀ @ grad (per batch), times alpha. */
export function addbmmBatch2Backward(grad: Tensor, batch1: Tensor, batch2Sizes: number[], alpha: number | boolean): Tensor {
  const g = addbmmGradBatch(grad, batch1.sizes[0] as number, batch1.sizes[1] as number, batch2Sizes[2] as number);
  return scaled(at.bmm(at.transpose_int(batch1, 1, 2), g), alpha);
}

/**
 * mm_mat1_backward: d(mat1) of mat1 · mat2 = grad · mat2ᵀ. When mat1 was column-major (a transposed view), it
 * is computed as (mat2 · gradᵀ)ᵀ, so the gradient comes out laid out as mat1 (AccumulateGrad can then keep it
 * without a copy), as PyTorch's FunctionsManual.cpp does.
 */
export function mmMat1Backward(
  grad: Tensor,
  mat2: Tensor,
  sizes: readonly number[],
  strides: readonly number[],
  alpha: number | boolean,
): Tensor {
  const m2 = at.conj(mat2); // mat2ᴴ for complex operands (identity for real ones)
  if (strides[0] === 1 && strides[1] === sizes[0]) return maybeMultiply(at.t(at.mm(m2, at.t(grad))), alpha);
  return maybeMultiply(at.mm(grad, at.t(m2)), alpha);
}

/**
 * mm_mat2_backward: d(mat2) of mat1 · mat2 = mat1ᵀ · grad; (gradᵀ · mat1)ᵀ when mat2 was column-major (a
 * linear layer's `weight.t()`), so that the weight's gradient is laid out as the weight.
 */
export function mmMat2Backward(
  grad: Tensor,
  mat1: Tensor,
  sizes: readonly number[],
  strides: readonly number[],
  alpha: number | boolean,
): Tensor {
  const m1 = at.conj(mat1); // mat1ᴴ for complex operands (identity for real ones)
  if (strides[0] === 1 && strides[1] === sizes[0]) return maybeMultiply(at.t(at.mm(at.t(grad), m1)), alpha);
  return maybeMultiply(at.mm(at.t(m1), grad), alpha);
}
