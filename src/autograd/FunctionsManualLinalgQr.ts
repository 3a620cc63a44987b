// The derivative helpers of the Householder QR operators (src/kernels/BatchLinearAlgebraQr.ts), eigh and the
// matrix exponential: linalg_qr_backward, householder_product_backward, ormqr_backward, linalg_eig_backward
// (hermitian) and linalg_matrix_exp_differential of torch/csrc/autograd/FunctionsManual.cpp,
// for real dtypes. Built from differentiable operators, so a second backward works. Re-exported by
// FunctionsManual.ts.

import { ScalarType } from '../c10/ScalarType.js';
import * as at from '../generated/TensorBody.js';
import { wrapScalar } from '../tensor/ScalarOps.js';
import type { Tensor } from '../tensor/Tensor.js';

const mm = (a: Tensor, b: Tensor): Tensor => at.matmul(a, b);
const add = (a: Tensor, b: Tensor): Tensor => at.add_Tensor(a, b, 1);
const sub = (a: Tensor, b: Tensor): Tensor => at.sub_Tensor(a, b, 1);
const mT = (a: Tensor): Tensor => at.transpose_int(a, -2, -1);
const size = (t: Tensor, d: number): number => t.sizes[t.dim() + d] as number;

/** The gradient of A = Q R for a square or tall A (Q m×n, R n×n): (gQ + Q copyltu(M)) R⁻ᵀ, M = R gRᵀ - gQᵀ Q. */
function qrBackwardTall(gQ: Tensor | null, gR: Tensor | null, Q: Tensor, R: Tensor): Tensor {
  let M: Tensor | null = null;
  if (gR !== null) M = mm(R, mT(gR));
  if (gQ !== null) M = M === null ? at.neg(mm(mT(gQ), Q)) : sub(M, mm(mT(gQ), Q));
  let b = M === null ? at.zeros_like(Q, null, null, null, null, null) : mm(Q, add(at.tril(M, 0), mT(at.tril(M, -1))));
  if (gQ !== null) b = add(b, gQ);
  // b R⁻ᵀ: solve X Rᵀ = b with Rᵀ lower triangular
  return at.linalg_solve_triangular(mT(R), b, false, false, false);
}

/** `linalg_qr_backward(gQ, gR, Q, R, mode)`. */
export function linalgQrBackward(gQ: Tensor | null, gR: Tensor | null, Q: Tensor, R: Tensor, mode: string): Tensor | null {
  if (gQ === null && gR === null) return null;
  if (mode === 'r') {
    throw new Error(
      "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please use linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr.",
    );
  }
  const m = size(Q, -2);
  const n = size(R, -1);
  if (mode === 'complete' && m > n) {
    throw new Error("The QR decomposition is not differentiable when mode='complete' and nrows > ncols.");
  }
  if (m >= n) return qrBackwardTall(gQ, gR, Q, R);
  // A = [X | Y] with X = Q U (square), Y = Q V: gY = Q gV, and X's gradient sees gQ + Y gVᵀ.
  const U = at.narrow(R, -1, 0, m);
  const V = at.narrow(R, -1, m, n - m);
  const gU = gR === null ? null : at.narrow(gR, -1, 0, m);
  const gV = gR === null ? null : at.narrow(gR, -1, m, n - m);
  let gQx = gQ;
  if (gV !== null) {
    const extra = mm(mm(Q, V), mT(gV));
    gQx = gQx === null ? extra : add(gQx, extra);
  }
  const gX = qrBackwardTall(gQx, gU, Q, U);
  const gY = gV === null ? at.zeros_like(V, null, null, null, null, null) : mm(Q, gV);
  return at.cat([gX, gY], -1);
}

/**
 * The gradients of Q = H_1 ... H_k E (E the first `cols` columns of the identity, H_i = I - tau_i v_i v_iᵀ with
 * v_i from `input`'s column i as Note [Householder reflectors as LAPACK stores them] says) with respect to
 * `input` and `tau`, for the gradient gQ of Q.
 */
function householderGrads(gQ: Tensor, input: Tensor, tau: Tensor, cols: number): [Tensor, Tensor] {
  const rows = size(input, -2);
  const nIn = size(input, -1);
  const k = size(tau, -1);
  const dtype = input.scalarType;
  const I = at.eye_m(rows, rows, dtype, null, input.device, null);
  const V = add(at.tril(input, -1), at.eye_m(rows, nIn, dtype, null, input.device, null));
  const vs: Tensor[] = [];
  const ts: Tensor[] = [];
  const Hs: Tensor[] = [];
  for (let i = 0; i < k; i++) {
    const v = at.narrow(V, -1, i, 1);
    const t = at.unsqueeze(at.unsqueeze(at.select_int(tau, -1, i), -1), -1);
    vs.push(v);
    ts.push(t);
    Hs.push(sub(I, at.mul_Tensor(t, mm(v, mT(v)))));
  }
  // S[i] = H_i ... H_{k-1} E (S[k] = E)
  const S: Tensor[] = new Array<Tensor>(k + 1);
  S[k] = at.eye_m(rows, cols, dtype, null, input.device, null);
  for (let i = k - 1; i >= 0; i--) S[i] = mm(Hs[i] as Tensor, S[i + 1] as Tensor);
  let P: Tensor | null = null;
  const gvs: Tensor[] = [];
  const gts: Tensor[] = [];
  for (let i = 0; i < k; i++) {
    const left = P === null ? gQ : mm(mT(P), gQ);
    const G = mm(left, mT(S[i + 1] as Tensor));
    const v = vs[i] as Tensor;
    gts.push(at.neg(at.squeeze_dim(at.squeeze_dim(mm(mT(v), mm(G, v)), -1), -1)));
    gvs.push(at.neg(at.mul_Tensor(ts[i] as Tensor, mm(add(G, mT(G)), v))));
    P = P === null ? (Hs[i] as Tensor) : mm(P, Hs[i] as Tensor);
  }
  const gTau = k === 0 ? at.zeros_like(tau, null, null, null, null, null) : at.stack(gts, -1);
  if (k === 0) return [at.zeros_like(input, null, null, null, null, null), gTau];
  let gV = at.cat(gvs, -1);
  if (nIn > k) gV = at.constant_pad_nd(gV, [0, nIn - k], 0);
  return [at.tril(gV, -1), gTau];
}

/** `householder_product_backward(grad, result, input, tau)`: input `which` (0: input, 1: tau). */
export function householderProductBackward(which: number, grad: Tensor | null, result: Tensor, input: Tensor, tau: Tensor): Tensor | null {
  if (grad === null) return null;
  void result;
  // no reflectors (or an empty input): PyTorch returns undefined gradients
  if (input.numel() === 0 || tau.numel() === 0) return null;
  return householderGrads(grad, input, tau, size(input, -1))[which] as Tensor;
}

/** `ormqr_backward(grad, result, self, tau, other, left, transpose)`: input `which` (0: self, 1: tau, 2: other). */
export function ormqrBackward(
  which: number,
  grad: Tensor | null,
  result: Tensor,
  self: Tensor,
  tau: Tensor,
  other: Tensor,
  left: boolean,
  transpose: boolean,
): Tensor | null {
  if (grad === null) return null;
  void result;
  if (which === 2) return at.ormqr(self, tau, grad, left, !transpose);
  // the gradient of the full Q = H_1 ... H_k for result = op(Q) C (left) or C op(Q)
  let gQ: Tensor;
  if (left) gQ = transpose ? mm(other, mT(grad)) : mm(grad, mT(other));
  else gQ = transpose ? mm(mT(grad), other) : mm(mT(other), grad);
  return householderGrads(gQ, self, tau, size(self, -2))[which] as Tensor;
}

/** `linalg_eig_backward(gL, gV, L, V, is_hermitian=true)`: eigh's gradient. */
export function linalgEighBackward(gL: Tensor | null, gV: Tensor | null, L: Tensor, V: Tensor): Tensor | null {
  if (gL === null && gV === null) return null;
  if (gV === null) return mm(at.mul_Tensor(V, at.unsqueeze(gL as Tensor, -2)), mT(V));
  let VhgV = mm(mT(V), gV);
  VhgV = at.mul_Tensor(sub(VhgV, mT(VhgV)), wrapScalar(0.5));
  let gA = gL === null ? VhgV : add(VhgV, at.diag_embed(gL, 0, -2, -1));
  // E_ij = L_j - L_i, with ones on the diagonal
  const E = sub(at.unsqueeze(L, -2), at.unsqueeze(L, -1));
  const n = size(L, -1);
  const eye = at.eye_m(n, n, ScalarType.Bool, null, L.device, null);
  gA = at.div_Tensor(gA, at.where_self(eye, at.ones_like(E, null, null, null, null, null), E));
  return mm(V, mm(gA, mT(V)));
}

/** `linalg_matrix_exp_differential(self, grad, adjoint)`: the upper-right block of exp([[Aᴴ, G], [0, Aᴴ]]). */
export function linalgMatrixExpDifferential(self: Tensor, grad: Tensor | null, adjoint: boolean): Tensor | null {
  if (grad === null) return null;
  const n = size(self, -1);
  const a = adjoint ? mT(self) : self;
  const top = at.cat([a, grad], -1);
  const bottom = at.cat([at.zeros_like(a, null, null, null, null, null), a], -1);
  const big = at.linalg_matrix_exp(at.cat([top, bottom], -2));
  return at.narrow(at.narrow(big, -2, 0, n), -1, n, n);
}
