// The Householder QR family of aten/src/ATen/native/BatchLinearAlgebra.cpp: `geqrf`, `linalg_householder_product`
// (= `orgqr`), `ormqr` and the structured `linalg_qr` (with the deprecated `qr`). The per-matrix algorithms are
// LAPACK's unblocked reference routines dgeqr2 / dorg2r / dorm2r, written out (See Note [Float64 matrix
// kernels]) and Note [Householder reflectors as LAPACK stores them].

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { scalarTypeToString } from '../c10/ScalarType.js';
import type { Tensor } from '../tensor/Tensor.js';
import * as at from '../generated/TensorBody.js';
import {
  checkFloatingOrComplex,
  checkIsMatrix,
  checkKernelDtype,
  newContiguous,
  newMatrices,
  readMatrices,
  writeMatrices,
} from './LinearAlgebraUtils.js';

// Note [Householder reflectors as LAPACK stores them]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// geqrf factors an m×n A as Q R with Q = H_1 H_2 ... H_k (k = min(m, n)), H_i = I - tau_i v_i v_iᵀ. v_i is 0
// above row i, 1 at row i, and its tail is stored below the diagonal of column i of the result; R is the upper
// triangle. Each reflector is dlarfg's: for the column (alpha, x), beta = -sign(alpha)·‖(alpha, x)‖,
// tau = (beta - alpha) / beta, v's tail = x / (alpha - beta), and tau = 0 (H = I) when x is zero, so R's
// diagonal signs are LAPACK's (the opposite of the column's leading entry), and Q and R agree with PyTorch's
// values. householder_product multiplies the reflectors onto the first columns of the identity (dorg2r) and
// ormqr onto another matrix (dorm2r).

/** geqr2 on the m×n row-major `a` in place; returns tau (length min(m, n)). */
export function householderQrInPlace(a: Float64Array, m: number, n: number): Float64Array {
  const k = Math.min(m, n);
  const tau = new Float64Array(k);
  for (let i = 0; i < k; i++) {
    const alpha = a[i * n + i] as number;
    let xnorm2 = 0;
    for (let r = i + 1; r < m; r++) xnorm2 += (a[r * n + i] as number) ** 2;
    if (xnorm2 === 0) {
      tau[i] = 0;
      continue;
    }
    const norm = Math.hypot(alpha, Math.sqrt(xnorm2));
    const beta = alpha >= 0 ? -norm : norm;
    const t = (beta - alpha) / beta;
    const scale = 1 / (alpha - beta);
    for (let r = i + 1; r < m; r++) a[r * n + i] = (a[r * n + i] as number) * scale;
    a[i * n + i] = beta;
    tau[i] = t;
    // A[i:, i+1:] -= tau v (vᵀ A[i:, i+1:])
    for (let c = i + 1; c < n; c++) {
      let w = a[i * n + c] as number;
      for (let r = i + 1; r < m; r++) w += (a[r * n + i] as number) * (a[r * n + c] as number);
      w *= t;
      a[i * n + c] = (a[i * n + c] as number) - w;
      for (let r = i + 1; r < m; r++) a[r * n + c] = (a[r * n + c] as number) - w * (a[r * n + i] as number);
    }
  }
  return tau;
}

/**
 * Applies H_i (reflector i of the row-major `v` with `vc` columns, `len` entries) to `count` vectors of `c`:
 * element k of vector j at c[k·ks + j·js]; each vector x -= tau v (vᵀ x). reflectLeft and reflectRight are
 * its two layouts (the products v·x are commutative, so both give the bits of the loops they replace).
 */
function reflect(
  v: Float64Array,
  vc: number,
  len: number,
  i: number,
  tau: number,
  c: Float64Array,
  count: number,
  ks: number,
  js: number,
): void {
  if (tau === 0) return;
  for (let j = 0; j < count; j++) {
    const base = j * js;
    let w = c[base + i * ks] as number;
    for (let r = i + 1; r < len; r++) w += (v[r * vc + i] as number) * (c[base + r * ks] as number);
    w *= tau;
    c[base + i * ks] = (c[base + i * ks] as number) - w;
    for (let r = i + 1; r < len; r++) c[base + r * ks] = (c[base + r * ks] as number) - w * (v[r * vc + i] as number);
  }
}

/** Applies H_i to the `rows`×`cc` row-major `c` from the left: c -= tau v (vᵀ c). */
function reflectLeft(v: Float64Array, vc: number, rows: number, i: number, tau: number, c: Float64Array, cc: number): void {
  reflect(v, vc, rows, i, tau, c, cc, cc, 1);
}

/** Applies H_i to the `cr`×`cols` row-major `c` from the right: c -= tau (c v) vᵀ. */
function reflectRight(v: Float64Array, vc: number, cols: number, i: number, tau: number, c: Float64Array, cr: number): void {
  reflect(v, vc, cols, i, tau, c, cr, 1, cols);
}

/** dorg2r: the m×n Q = H_1 ... H_k I[:, :n] from the reflectors in the m×n row-major `v`. */
export function householderProductMatrix(v: Float64Array, m: number, n: number, tau: ArrayLike<number>, k: number): Float64Array {
  const q = new Float64Array(m * n);
  for (let i = 0; i < Math.min(m, n); i++) q[i * n + i] = 1;
  for (let i = k - 1; i >= 0; i--) reflectLeft(v, n, m, i, tau[i] as number, q, n);
  return q;
}

/** dorm2r: op(Q) C (left) or C op(Q) with Q = H_1 ... H_k from the reflectors of `v` (`vc` columns). */
export function householderApply(
  v: Float64Array,
  vc: number,
  tau: ArrayLike<number>,
  k: number,
  c: Float64Array,
  cr: number,
  cc: number,
  left: boolean,
  trans: boolean,
): void {
  // Q C = H_1 (... (H_k C)); Qᵀ C = H_k (... (H_1 C)); C Q = ((C H_1) ...) H_k; C Qᵀ = ((C H_k) ...) H_1.
  const forward = left === trans;
  for (let s = 0; s < k; s++) {
    const i = forward ? s : k - 1 - s;
    if (left) reflectLeft(v, vc, cr, i, tau[i] as number, c, cc);
    else reflectRight(v, vc, cc, i, tau[i] as number, c, cr);
  }
}

/** Every row of the trailing dimension of a (batched) vector tensor, as Float64Arrays. */
function readVectors(t: Tensor): Float64Array[] {
  return readMatrices(at.unsqueeze(t, -2));
}

/** `geqrf(self) -> (a, tau)`: CPU only (PyTorch registers no Meta kernel for it). */
export function geqrf(_ks: DispatchKeySet, self: Tensor): [Tensor, Tensor] {
  if (self.dim() < 2) throw new Error(`torch.geqrf: input must have at least 2 dimensions.`);
  checkFloatingOrComplex(self, 'torch.geqrf');
  const [m, n] = [self.sizes[self.dim() - 2] as number, self.sizes[self.dim() - 1] as number];
  const a = newMatrices(self.sizes, true, self.scalarType, self);
  const tau = newContiguous([...self.sizes.slice(0, -2), Math.min(m, n)], self.scalarType, self);
  if (self.isMeta() || self.numel() === 0) return [a, tau];
  checkKernelDtype(self, 'geqrf_cpu');
  const mats = readMatrices(self);
  const taus = mats.map((mat) => householderQrInPlace(mat, m, n));
  writeMatrices(a, mats);
  writeMatrices(at.unsqueeze(tau, -2), taus);
  return [a, tau];
}

/** The batch-shape check of householder_product and ormqr: tau's batch dimensions are input's. */
function checkTauBatch(input: Tensor, tau: Tensor, fName: string): void {
  if (input.dim() - tau.dim() !== 1) {
    throw new Error(
      `${fName}: Expected tau to have one dimension less than input, but got tau.ndim equal to ${tau.dim()} and input.ndim is equal to ${input.dim()}`,
    );
  }
  const ib = input.sizes.slice(0, -2);
  const tb = tau.sizes.slice(0, -1);
  if (ib.some((s, i) => s !== tb[i])) {
    throw new Error(`${fName}: Expected batch dimensions of tau to be equal to input.shape[:-2], but got [${tb.join(', ')}]`);
  }
}

function checkSameDtype(input: Tensor, other: Tensor, fName: string, name: string): void {
  if (input.scalarType !== other.scalarType) {
    throw new Error(
      `${fName}: Expected input and ${name} to have the same dtype, but input has dtype ${scalarTypeToString(input.scalarType)} and ${name} has dtype ${scalarTypeToString(other.scalarType)}`,
    );
  }
}

/** `linalg_householder_product(input, tau)` (orgqr). */
export function linalgHouseholderProduct(_ks: DispatchKeySet, input: Tensor, tau: Tensor): Tensor {
  const f = 'torch.linalg.householder_product';
  if (input.dim() < 2) throw new Error(`${f}: input must have at least 2 dimensions.`);
  const [m, n] = [input.sizes[input.dim() - 2] as number, input.sizes[input.dim() - 1] as number];
  if (m < n) throw new Error(`${f}: input.shape[-2] must be greater than or equal to input.shape[-1]`);
  const k = tau.dim() === 0 ? 1 : (tau.sizes[tau.dim() - 1] as number);
  if (n < k) throw new Error(`${f}: input.shape[-1] must be greater than or equal to tau.shape[-1]`);
  checkTauBatch(input, tau, f);
  checkSameDtype(input, tau, f, 'tau');
  const out = newMatrices(input.sizes, true, input.scalarType, input);
  if (input.isMeta() || input.numel() === 0) return out;
  checkKernelDtype(input, 'orgqr_cpu');
  const vs = readMatrices(input);
  const taus = readVectors(tau);
  writeMatrices(
    out,
    vs.map((v, b) => householderProductMatrix(v, m, n, taus[b] as Float64Array, k)),
  );
  return out;
}

/** `orgqr(self, input2)`: householder_product under its LAPACK name. */
export function orgqr(_ks: DispatchKeySet, self: Tensor, input2: Tensor): Tensor {
  return at.linalg_householder_product(self, input2);
}

/** `ormqr(self, input2, input3, left=True, transpose=False)`: op(Q) C or C op(Q), Q from geqrf's (self, tau). */
export function ormqr(_ks: DispatchKeySet, input: Tensor, tau: Tensor, other: Tensor, left = true, transpose = false): Tensor {
  const f = 'torch.ormqr';
  if (input.dim() < 2) throw new Error(`${f}: input must have at least 2 dimensions.`);
  if (other.dim() < 2) throw new Error(`${f}: other must have at least 2 dimensions.`);
  const cond = left ? -2 : -1;
  const oq = other.sizes[other.dim() + cond] as number;
  const k = tau.dim() === 0 ? 1 : (tau.sizes[tau.dim() - 1] as number);
  if (oq < k) throw new Error(`${f}: other.shape[${cond}] must be greater than or equal to tau.shape[-1]`);
  if (oq !== input.sizes[input.dim() - 2]) throw new Error(`${f}: other.shape[${cond}] must be equal to input.shape[-2]`);
  if (k > Math.min(oq, input.sizes[input.dim() - 1] as number)) {
    throw new Error(`${f}: tau.shape[-1] must be equal to min(other.shape[-2], input.shape[-1])`);
  }
  checkTauBatch(input, tau, f);
  if (input.dim() !== other.dim()) {
    throw new Error(
      `${f}: Expected other to have the same number of dimensions as input, but got other.ndim equal to ${other.dim()} and input.ndim is equal to ${input.dim()}`,
    );
  }
  const ib = input.sizes.slice(0, -2);
  const ob = other.sizes.slice(0, -2);
  if (ib.some((s, i) => s !== ob[i])) {
    throw new Error(`${f}: Expected batch dimensions of other to be equal to input.shape[:-2], but got [${ob.join(', ')}]`);
  }
  checkSameDtype(input, tau, f, 'tau');
  checkSameDtype(input, other, f, 'other');
  const out = newMatrices(other.sizes, true, other.scalarType, other);
  if (other.isMeta() || other.numel() === 0) return out;
  checkKernelDtype(input, 'ormqr_cpu');
  const [cr, cc] = [other.sizes[other.dim() - 2] as number, other.sizes[other.dim() - 1] as number];
  const vc = input.sizes[input.dim() - 1] as number;
  const vs = readMatrices(input);
  const taus = readVectors(tau);
  const cs = readMatrices(other);
  cs.forEach((c, b) => householderApply(vs[b] as Float64Array, vc, taus[b] as Float64Array, k, c, cr, cc, left, transpose));
  writeMatrices(out, cs);
  return out;
}

/** `_parse_qr_mode(mode)`: (compute_q, reduced). */
export function parseQrMode(mode: string): [boolean, boolean] {
  if (mode === 'reduced') return [true, true];
  if (mode === 'complete') return [true, false];
  if (mode === 'r') return [false, true];
  throw new Error(`qr received unrecognized mode '${mode}' but expected one of 'reduced' (default), 'r', or 'complete'`);
}

/** `linalg_qr(A, mode='reduced') -> (Q, R)`: structured, CPU and Meta. */
export function linalgQr(_ks: DispatchKeySet, A: Tensor, mode = 'reduced'): [Tensor, Tensor] {
  checkIsMatrix(A, 'linalg.qr');
  checkFloatingOrComplex(A, 'linalg.qr');
  const [computeQ, reduced] = parseQrMode(mode);
  const d = A.dim();
  const [m, n] = [A.sizes[d - 2] as number, A.sizes[d - 1] as number];
  const k = Math.min(m, n);
  const batch = A.sizes.slice(0, -2);
  const Q = computeQ ? newMatrices([...batch, m, reduced ? k : m], true, A.scalarType, A) : newContiguous([0], A.scalarType, A);
  const rRows = reduced || !computeQ ? k : m;
  const R = newMatrices([...batch, rRows, n], true, A.scalarType, A);
  if (A.isMeta() || A.numel() === 0) {
    if (!A.isMeta() && computeQ && Q.numel() > 0) {
      // an m×m (complete) Q of an m×0 A is the identity
      const qc = Q.sizes[d - 1] as number;
      const eye = new Float64Array(m * qc);
      for (let i = 0; i < Math.min(m, qc); i++) eye[i * qc + i] = 1;
      writeMatrices(
        Q,
        Array.from({ length: batch.reduce((a, b) => a * b, 1) }, () => eye),
      );
    }
    return [Q, R];
  }
  checkKernelDtype(A, 'linalg_qr_cpu');
  const mats = readMatrices(A);
  const qs: Float64Array[] = [];
  const rs: Float64Array[] = [];
  for (const a of mats) {
    const tau = householderQrInPlace(a, m, n);
    const r = new Float64Array(rRows * n);
    for (let i = 0; i < rRows; i++) for (let j = i; j < n; j++) r[i * n + j] = i < m ? (a[i * n + j] as number) : 0;
    rs.push(r);
    if (computeQ) {
      const qc = reduced ? k : m;
      // the reflectors live in the first k columns of a; extend to m×qc columns for dorg2r
      const v = new Float64Array(m * qc);
      for (let i = 0; i < m; i++) for (let j = 0; j < Math.min(k, qc); j++) v[i * qc + j] = a[i * n + j] as number;
      qs.push(householderProductMatrix(v, m, qc, tau, k));
    }
  }
  writeMatrices(R, rs);
  if (computeQ) writeMatrices(Q, qs);
  return [Q, R];
}

/** `qr(self, some=True) -> (Q, R)`: linalg_qr with 'reduced' or 'complete'. */
export function qr(_ks: DispatchKeySet, self: Tensor, some = true): [Tensor, Tensor] {
  return at.linalg_qr(self, some ? 'reduced' : 'complete');
}
