// torch.linalg's composites of aten/src/ATen/native/LinearAlgebra.cpp (CompositeImplicitAutograd: they decompose
// into other operators): diagonal, vecdot, matrix_power, vander, tensorinv, tensorsolve, matrix_norm with a numeric
// order, norm, pinv, matrix_rank, cond. LinearAlgebraComposite.ts holds the older products (kron, tensordot, inner,
// trace, addr, addbmm); LinearAlgebra.ts the matrix kernels.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { MemoryFormat } from '../c10/Layout.js';
import { ScalarType, isIntegralType, scalarTypeToString, toRealValueType } from '../c10/ScalarType.js';
import * as at from '../generated/TensorBody.js';
import type { Tensor } from '../tensor/Tensor.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';
import { checkFloatingOrComplex, checkIsMatrix, linalgCheckErrors, readInfo, squareCheckInputs } from './LinearAlgebraUtils.js';

// ---- torch.linalg's composites (LinearAlgebra.cpp) ------------------------------------------------------------

/** `linalg_diagonal(A, *, offset=0, dim1=-2, dim2=-1)`: `A.diagonal(offset, dim1, dim2)`. */
export function linalgDiagonal(_ks: DispatchKeySet, A: Tensor, offset = 0, dim1 = -2, dim2 = -1): Tensor {
  return at.diagonal(A, offset, dim1, dim2);
}

/** `linalg_vecdot(x, y, *, dim=-1)`: `vdot(x, y)` for two vectors, else `(x.conj() * y).sum(dim)`. */
export function linalgVecdot(_ks: DispatchKeySet, x: Tensor, y: Tensor, dim = -1): Tensor {
  checkFloatingOrComplex(x, 'linalg.vecdot');
  if (x.scalarType !== y.scalarType) {
    throw new Error(
      `linalg.vecdot: Expected x and y to have the same dtype, but found x of type ${scalarTypeToString(x.scalarType)} and y of type ${scalarTypeToString(y.scalarType)} instead`,
    );
  }
  // two vectors: vdot (VdotBackward0), as LinearAlgebra.cpp does
  if (x.dim() === 1 && y.dim() === 1) return at.vdot(x, y);
  return at.sum_dim_IntList(at.mul_Tensor(x, y), [dim], false, null);
}

/** `linalg_matrix_power(A, n)`: identity, A, inverse, or repeated squaring of A (or of A⁻¹ for n < 0). */
export function linalgMatrixPower(_ks: DispatchKeySet, self: Tensor, n: number): Tensor {
  squareCheckInputs(self, 'linalg.matrix_power');
  if (n === 0) {
    const m = self.sizes[self.dim() - 2] as number;
    return at.copy_(at.clone(self, MemoryFormat.Contiguous), at.eye_m(m, m, self.scalarType, null, self.device, null), false);
  }
  if (n === 1) return at.clone(self, MemoryFormat.Contiguous);
  if (n === -1) return at.linalg_inv(self);
  const a = n < 0 ? at.linalg_inv(self) : self;
  let k = Math.abs(n);
  if (k === 2) return at.matmul(a, a);
  if (k === 3) return at.matmul(at.matmul(a, a), a);
  let z: Tensor | null = null;
  let result: Tensor | null = null;
  while (k > 0) {
    const bit = k % 2;
    k = Math.floor(k / 2);
    z = z !== null ? at.matmul(z, z) : a;
    if (bit === 1) result = result !== null ? at.matmul(result, z) : z;
  }
  return result as Tensor;
}

/** `linalg_vander(x, *, N=None)`: a row of ones, then the cumulative products of x. */
export function linalgVander(_ks: DispatchKeySet, x: Tensor, N: number | null = null): Tensor {
  const t = x.scalarType;
  if (!(
    t === ScalarType.Float ||
    t === ScalarType.Double ||
    t === ScalarType.ComplexFloat ||
    t === ScalarType.ComplexDouble ||
    isIntegralType(t, false)
  )) {
    throw new Error(`linalg.vander supports floating point, complex, and integer tensors, but got ${scalarTypeToString(t)}`);
  }
  const x_ = x.dim() === 0 ? at.unsqueeze(x, -1) : x;
  const shape = [...x_.sizes];
  const n = N ?? (shape[shape.length - 1] as number);
  if (!(n > 1)) throw new Error('N must be greater than 1.');
  shape.push(n - 1);
  const result = at.cumprod(at.expand(at.unsqueeze(x_, -1), shape), -1, null);
  shape[shape.length - 1] = 1;
  return at.cat([at.ones(shape, result.scalarType, null, result.device, null), result], -1);
}

const prodOf = (s: readonly number[]): number => s.reduce((a, b) => a * b, 1);

/** `linalg_tensorinv(self, ind=2)`: the inverse of self reshaped to a square matrix, shaped self[ind:] + self[:ind]. */
export function linalgTensorinv(_ks: DispatchKeySet, self: Tensor, ind = 2): Tensor {
  if (!(ind > 0)) throw new Error(`Expected a strictly positive integer for 'ind', but got ${ind}`);
  const end = self.sizes.slice(ind);
  const start = self.sizes.slice(0, ind);
  const [pe, ps] = [prodOf(end), prodOf(start)];
  if (pe !== ps) {
    throw new Error(`Expected self to satisfy the requirement prod(self.shape[ind:]) == prod(self.shape[:ind]), but got ${pe} != ${ps}`);
  }
  const [result, info] = at.linalg_inv_ex(at.reshape(self, [pe, pe]), false);
  if (!info.isMeta()) linalgCheckErrors(readInfo(info), 'inv', true);
  return at.reshape(result, [...end, ...start]);
}

/** `linalg_tensorsolve(self, other, dims=None)`: a matrix solve of self reshaped, the result reshaped back. */
export function linalgTensorsolve(_ks: DispatchKeySet, self: Tensor, other: Tensor, dims: number[] | null = null): Tensor {
  const ndim = self.dim();
  let s = self;
  if (dims !== null)
    s = at.movedim_intlist(
      s,
      dims,
      dims.map((_, i) => ndim - dims.length + i),
    );
  const resultShape = s.sizes.slice(other.dim(), ndim);
  const rp = prodOf(resultShape);
  const op = prodOf(other.sizes);
  if (rp !== op) {
    throw new Error(
      `Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == prod(self.shape[:other.ndim]), but got ${rp} != ${op}`,
    );
  }
  return at.reshape(at.linalg_solve(at.reshape(s, [rp, rp]), at.flatten_using_ints(other, 0, -1), true), resultShape);
}

/** `_linalg_matrix_norm_checks(A, dim, opt_dtype, low_precision)`. */
function matrixNormChecks(A: Tensor, dim: number[], dtype: ScalarType | null, lowPrecision: boolean): [number, number] {
  checkIsMatrix(A, 'linalg.matrix_norm');
  checkFloatingOrComplex(A, 'linalg.matrix_norm', lowPrecision);
  if (dim.length !== 2) throw new Error(`linalg.matrix_norm: dim must be a 2-tuple. Got ${dim.join(' ')}`);
  const d0 = maybeWrapDim(dim[0] as number, A.dim());
  const d1 = maybeWrapDim(dim[1] as number, A.dim());
  if (d0 === d1) throw new Error(`linalg.matrix_norm: dims must be different. Got (${d0}, ${d1})`);
  if (dtype !== null && dtype !== A.scalarType) {
    throw new Error('linalg.matrix_norm(dtype=...): converting to another dtype is not supported yet; convert the input with A.to(dtype)');
  }
  return [d0, d1];
}

/** `linalg_matrix_norm(A, ord, dim=[-2,-1], keepdim=False, *, dtype=None)` with a numeric order: ±1, ±2, ±inf. */
export function linalgMatrixNorm(
  _ks: DispatchKeySet,
  A: Tensor,
  ord: number,
  dim: number[] = [-2, -1],
  keepdim = false,
  dtype: ScalarType | null = null,
): Tensor {
  const absOrd = Math.abs(ord);
  if (!(absOrd === 2 || absOrd === 1 || absOrd === Infinity)) throw new Error(`linalg.matrix_norm: Order ${ord} not supported.`);
  let [d0, d1] = matrixNormChecks(A, dim, dtype, absOrd !== 2);
  const maxMin = (t: Tensor, d: number): Tensor => (ord > 0 ? at.amax(t, [d], keepdim) : at.amin(t, [d], keepdim));
  if (absOrd === 2) {
    const perm: number[] = [];
    for (let i = 0; i < A.dim(); i++) if (i !== d0 && i !== d1) perm.push(i);
    perm.push(d0, d1);
    let result = maxMin(at.linalg_svdvals(at.permute(A, perm), null), -1);
    if (keepdim) {
      const reverse = new Array<number>(perm.length);
      perm.forEach((p, i) => (reverse[p] = i));
      result = at.permute(at.unsqueeze(result, -1), reverse);
    }
    return result;
  }
  if (absOrd === Infinity) [d0, d1] = [d1, d0];
  if (!keepdim && d0 < d1) d1--;
  return maxMin(at.linalg_vector_norm(A, 1, [d0], keepdim, null), d1);
}

/** `linalg_norm(A, ord=None, dim=None, keepdim=False, *, dtype=None)`: a matrix norm over two dims with an order, else a vector norm. */
export function linalgNorm(
  _ks: DispatchKeySet,
  X: Tensor,
  ord: number | null = null,
  dim: number[] | null = null,
  keepdim = false,
  dtype: ScalarType | null = null,
): Tensor {
  if (dim !== null) {
    if (dim.length !== 1 && dim.length !== 2)
      throw new Error(`linalg.norm: If dim is specified, it must be of length 1 or 2. Got [${dim.join(', ')}]`);
  } else if (ord !== null && X.dim() !== 1 && X.dim() !== 2) {
    throw new Error(`linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got ${X.dim()}D.`);
  }
  if (ord !== null && ((dim !== null && dim.length === 2) || (dim === null && X.dim() === 2))) {
    return at.linalg_matrix_norm(X, ord, dim ?? [0, 1], keepdim, dtype);
  }
  return at.linalg_vector_norm(X, ord ?? 2, dim, keepdim, dtype);
}

/** `linalg_norm.ord_str(A, ord, dim=None, keepdim=False, *, dtype=None)`: 'fro' or 'nuc', a matrix norm. */
export function linalgNormStr(
  _ks: DispatchKeySet,
  X: Tensor,
  ord: string,
  dim: number[] | null = null,
  keepdim = false,
  dtype: ScalarType | null = null,
): Tensor {
  if (dim !== null) {
    if (dim.length !== 1 && dim.length !== 2)
      throw new Error(`linalg.norm: If dim is specified, it mut be of length 1 or 2. Got [${dim.join(', ')}]`);
  } else if (X.dim() !== 1 && X.dim() !== 2) {
    throw new Error(`linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got ${X.dim()}D.`);
  }
  return at.linalg_matrix_norm_str_ord(X, ord, dim ?? [0, 1], keepdim, dtype);
}

// ---- pinv and matrix_rank (LinearAlgebra.cpp) ------------------------------------------------------------------

const epsilonOf = (t: ScalarType): number =>
  t === ScalarType.Float || t === ScalarType.ComplexFloat ? 1.1920928955078125e-7 : 2.220446049250313e-16;

/** `get_atol_rtol(input, atol, rtol)`: float64 0-dim tolerances; rtol defaults to eps·max(m, n) unless atol > 0. */
function atolRtol(input: Tensor, atol: Tensor | number | null, rtol: Tensor | number | null): [Tensor, Tensor] {
  const full = (v: number): Tensor => at.full([], v, ScalarType.Double, null, input.device, null);
  const m = input.sizes[input.dim() - 2] as number;
  const n = input.sizes[input.dim() - 1] as number;
  const dflt = epsilonOf(input.scalarType) * Math.max(m, n);
  if (typeof atol === 'number' || typeof rtol === 'number') {
    const a = (atol as number | null) ?? 0;
    const r = (rtol as number | null) ?? (a > 0 ? 0 : dflt);
    return [full(a), full(r)];
  }
  const a = atol ?? full(0);
  let r: Tensor;
  if (rtol !== null) r = rtol;
  else r = atol !== null ? at.where_self(at.gt_Scalar(atol, 0), full(0), full(dflt)) : full(dflt);
  return [a, r];
}

/** `linalg_pinv(input, *, atol=None, rtol=None, hermitian=False)`: V diag(1/S above the tolerance) Uᴴ from the SVD. */
function pinvImpl(input: Tensor, atol: Tensor | number | null, rtol: Tensor | number | null, hermitian: boolean): Tensor {
  const t = input.scalarType;
  if (
    !(t === ScalarType.Double || t === ScalarType.Float || t === ScalarType.ComplexFloat || t === ScalarType.ComplexDouble) ||
    input.dim() < 2
  ) {
    throw new Error(
      `linalg.pinv(${scalarTypeToString(t)}{[${input.sizes.join(', ')}]}): expected a tensor with 2 or more dimensions of float, double, cfloat or cdouble types`,
    );
  }
  const [atolT, rtolT] = atolRtol(input, atol, rtol);
  if (hermitian && input.numel() > 0) {
    // |eigenvalues| are the singular values; eigh sorts them ascending, so the largest is amax of |S|
    const [S, U] = at.linalg_eigh(input, 'L');
    const Sabs = at.abs(S);
    const maxVal = at.amax(Sabs, [-1], true);
    const tol = at.max_other(at.unsqueeze(atolT, -1), at.mul_Tensor(at.unsqueeze(rtolT, -1), maxVal));
    const Sinv = at.to_dtype(
      at.where_self(at.gt_Tensor(Sabs, tol), at.reciprocal(S), at.zeros([], S.scalarType, null, S.device, null)),
      t,
      false,
      false,
      null,
    );
    return at.matmul(at.mul_Tensor(U, at.unsqueeze(Sinv, -2)), U.mH);
  }
  const [U, S, V] = at.svd(input, true, true);
  if (input.numel() === 0) return at.matmul(at.mul_Tensor(V, at.unsqueeze(at.reciprocal(S), -2)), U.mH);
  const maxVal = at.narrow(S, -1, 0, 1);
  const tol = at.max_other(at.unsqueeze(atolT, -1), at.mul_Tensor(at.unsqueeze(rtolT, -1), maxVal));
  const Sinv = at.to_dtype(
    at.where_self(at.gt_Tensor(S, tol), at.reciprocal(S), at.zeros([], S.scalarType, null, S.device, null)),
    t,
    false,
    false,
    null,
  );
  return at.matmul(at.mul_Tensor(V, at.unsqueeze(Sinv, -2)), U.mH);
}

/** `linalg_pinv.atol_rtol_tensor(self, *, atol=None, rtol=None, hermitian=False)`. */
export function linalgPinvTensor(
  _ks: DispatchKeySet,
  self: Tensor,
  atol: Tensor | null = null,
  rtol: Tensor | null = null,
  hermitian = false,
): Tensor {
  return pinvImpl(self, atol, rtol, hermitian);
}

/** `linalg_pinv.atol_rtol_float(self, *, atol=None, rtol=None, hermitian=False)`. */
export function linalgPinvFloat(
  _ks: DispatchKeySet,
  self: Tensor,
  atol: number | null = null,
  rtol: number | null = null,
  hermitian = false,
): Tensor {
  const [a, r] = atolRtol(self, atol ?? 0, rtol);
  return at.linalg_pinv_atol_rtol_tensor(self, a, r, hermitian);
}

/** `linalg_pinv(self, rcond, hermitian=False)`: atol 0, rtol rcond. */
export function linalgPinvRcond(_ks: DispatchKeySet, self: Tensor, rcond: number, hermitian = false): Tensor {
  const [a, r] = atolRtol(self, 0, rcond);
  return at.linalg_pinv_atol_rtol_tensor(self, a, r, hermitian);
}

/** `linalg_pinv.rcond_tensor(self, rcond, hermitian=False)`. */
export function linalgPinvRcondTensor(_ks: DispatchKeySet, self: Tensor, rcond: Tensor, hermitian = false): Tensor {
  return at.linalg_pinv_atol_rtol_tensor(self, at.zeros([], rcond.scalarType, null, rcond.device, null), rcond, hermitian);
}

/** `pinverse(self, rcond=1e-15)`. */
export function pinverse(_ks: DispatchKeySet, self: Tensor, rcond = 1e-15): Tensor {
  return at.linalg_pinv(self, rcond, false);
}

/** `matrix_rank_impl`: the number of singular values above max(atol, rtol·max(S)). */
function matrixRankImpl(input: Tensor, atol: Tensor | number | null, rtol: Tensor | number | null, hermitian: boolean): Tensor {
  checkIsMatrix(input, 'torch.linalg.matrix_rank', 'input');
  checkFloatingOrComplex(input, 'torch.linalg.matrix_rank');
  const [atolT, rtolT] = atolRtol(input, atol, rtol);
  if (input.numel() === 0) return at.zeros(input.sizes.slice(0, -2), ScalarType.Long, null, input.device, null);
  // hermitian: |eigenvalues| sorted ascending (from negative values), so the largest is their amax
  const S = hermitian ? at.abs(at.linalg_eigvalsh(input, 'L')) : at.linalg_svdvals(input, null);
  const maxS = hermitian ? at.amax(S, [-1], true) : at.narrow(S, -1, 0, 1);
  const tol = at.max_other(at.unsqueeze(atolT, -1), at.mul_Tensor(at.unsqueeze(rtolT, -1), maxS));
  return at.sum_dim_IntList(at.gt_Tensor(S, tol), [-1], false, null);
}

/** `linalg_matrix_rank.atol_rtol_tensor(input, *, atol=None, rtol=None, hermitian=False)`. */
export function linalgMatrixRankTensor(
  _ks: DispatchKeySet,
  input: Tensor,
  atol: Tensor | null = null,
  rtol: Tensor | null = null,
  hermitian = false,
): Tensor {
  return matrixRankImpl(input, atol, rtol, hermitian);
}

/** `linalg_matrix_rank.atol_rtol_float(self, *, atol=None, rtol=None, hermitian=False)`. */
export function linalgMatrixRankFloat(
  _ks: DispatchKeySet,
  self: Tensor,
  atol: number | null = null,
  rtol: number | null = null,
  hermitian = false,
): Tensor {
  return matrixRankImpl(self, atol ?? 0, rtol, hermitian);
}

/** `linalg_matrix_rank(self, tol, hermitian=False)`: tol is the absolute tolerance. */
export function linalgMatrixRankTol(_ks: DispatchKeySet, self: Tensor, tol: number, hermitian = false): Tensor {
  return matrixRankImpl(self, tol, 0, hermitian);
}

/** `linalg_matrix_rank.tol_tensor(input, tol, hermitian=False)`. */
export function linalgMatrixRankTolTensor(_ks: DispatchKeySet, input: Tensor, tol: Tensor, hermitian = false): Tensor {
  return matrixRankImpl(input, tol, at.zeros([], ScalarType.Double, null, input.device, null), hermitian);
}

// ---- cond (LinearAlgebra.cpp) ----------------------------------------------------------------------------------

function condCheckOrd(ord: number | string): void {
  if (typeof ord === 'string') {
    if (ord !== 'fro' && ord !== 'nuc') throw new Error(`linalg.cond got an invalid norm type: ${ord}`);
    return;
  }
  const a = Math.abs(ord);
  if (!(a === 2 || a === 1 || a === Infinity)) throw new Error(`linalg.cond got an invalid norm type: ${ord}`);
}

/** `_linalg_cond_helper`: ‖A‖·‖A⁻¹‖ with an infinite inverse for singular matrices, inf for 0·inf. */
function condHelper(self: Tensor, ord: number | string): Tensor {
  const [inverse, info] = at.linalg_inv_ex(self, false);
  at.unsqueeze_(at.unsqueeze_(info, -1), -1);
  at.masked_fill__Scalar(inverse, at.gt_Scalar(info, 0), Infinity);
  const norm = (t: Tensor): Tensor =>
    typeof ord === 'string'
      ? at.linalg_matrix_norm_str_ord(t, ord, [-2, -1], false, null)
      : at.linalg_matrix_norm(t, ord, [-2, -1], false, null);
  const result = at.mul_Tensor(norm(self), norm(inverse));
  return at.nan_to_num_(result, Infinity, Infinity, -Infinity);
}

function condEmpty(self: Tensor): Tensor {
  return at.zeros(self.sizes.slice(0, -2), toRealValueType(self.scalarType), null, self.device, null);
}

/** `std::to_string(double)`: six decimals. */
const cppDouble = (v: number): string => (Number.isFinite(v) ? v.toFixed(6) : v > 0 ? 'inf' : '-inf');

/** `linalg_cond(A, p=None)`: the 2-norm condition number from the singular values, else ‖A‖·‖A⁻¹‖. */
export function linalgCond(_ks: DispatchKeySet, self: Tensor, p: number | null = null): Tensor {
  if (self.dim() < 2) throw new Error('linalg.cond: The input tensor must have at least 2 dimensions.');
  const ord = p ?? 2;
  condCheckOrd(ord);
  if (self.numel() === 0) return condEmpty(self);
  if (Math.abs(ord) === 2) {
    const sv = at.linalg_svdvals(self, null);
    const smax = at.narrow(sv, -1, 0, 1);
    const smin = at.narrow(sv, -1, (sv.sizes[sv.dim() - 1] as number) - 1, 1);
    return at.squeeze_dim(ord === -2 ? at.div_Tensor(smin, smax) : at.div_Tensor(smax, smin), -1);
  }
  squareCheckInputs(self, `linalg.cond(ord=${Number.isInteger(ord) && Math.abs(ord) !== 1 ? String(ord) : cppDouble(ord)})`);
  return condHelper(self, ord);
}

/** `linalg_cond.p_str(A, p)`: 'fro' or 'nuc'. */
export function linalgCondStr(_ks: DispatchKeySet, self: Tensor, p: string): Tensor {
  if (self.dim() < 2) throw new Error('linalg.cond: The input tensor must have at least 2 dimensions.');
  condCheckOrd(p);
  if (self.numel() === 0) return condEmpty(self);
  squareCheckInputs(self, `linalg.cond(ord=${p})`);
  return condHelper(self, p);
}

// ---- linalg_multi_dot (LinearAlgebra.cpp's multi_dot_impl) -----------------------------------------------------

/** `matrix_chain_order(tensors)`: the split points of the cheapest parenthesisation (the first best split). */
function matrixChainOrder(tensors: readonly Tensor[]): number[][] {
  const n = tensors.length;
  const p = tensors.map((t) => t.sizes[0] as number);
  p.push(tensors[n - 1]?.sizes[1] as number);
  const m: number[][] = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  const s: number[][] = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let l = 1; l < n; l++) {
    for (let i = 0; i < n - l; i++) {
      const j = i + l;
      (m[i] as number[])[j] = Number.MAX_SAFE_INTEGER;
      for (let k = i; k < j; k++) {
        const q = (m[i]?.[k] as number) + (m[k + 1]?.[j] as number) + (p[i] as number) * (p[k + 1] as number) * (p[j + 1] as number);
        if (q < (m[i]?.[j] as number)) {
          (m[i] as number[])[j] = q;
          (s[i] as number[])[j] = k;
        }
      }
    }
  }
  return s;
}

function matrixChainMultiplication(tensors: readonly Tensor[], order: number[][], i: number, j: number): Tensor {
  if (i === j) return tensors[i] as Tensor;
  const k = order[i]?.[j] as number;
  return at.mm(matrixChainMultiplication(tensors, order, i, k), matrixChainMultiplication(tensors, order, k + 1, j));
}

/** `linalg_multi_dot(tensors)`: the chain product in the cheapest order (1-D ends as a row / column vector). */
export function linalgMultiDot(_ks: DispatchKeySet, input: Tensor[]): Tensor {
  const n = input.length;
  if (n < 2) throw new Error(`multi_dot(): expected at least 2 tensors but got ${n}`);
  const first = input[0] as Tensor;
  const last = input[n - 1] as Tensor;
  const outShape: number[] = [];
  const tensors = [...input];
  if (first.dim() === 1) tensors[0] = at.unsqueeze(first, 0);
  else if (first.dim() === 2) outShape.push(first.sizes[0] as number);
  else throw new Error(`multi_dot(): the first tensor must be 1D or 2D but got ${first.dim()}D`);
  if (last.dim() === 1) tensors[n - 1] = at.unsqueeze(last, -1);
  else if (last.dim() === 2) outShape.push(last.sizes[1] as number);
  else throw new Error(`multi_dot(): the last tensor must be 1D or 2D but got ${last.dim()}D`);
  for (let i = 1; i < n - 1; i++) {
    const t = input[i] as Tensor;
    if (t.dim() !== 2) throw new Error(`multi_dot(): tensor ${i} must be 2D but got ${t.dim()}D`);
  }
  const dtype = (tensors[0] as Tensor).scalarType;
  for (let i = 1; i < n; i++) {
    const t = tensors[i] as Tensor;
    if (t.scalarType !== dtype) {
      throw new Error(
        `multi_dot(): all tensors must have be the same dtype but tensor 0 is ${scalarTypeToString(dtype)} and tensor ${i} ${scalarTypeToString(t.scalarType)}`,
      );
    }
    const prev = tensors[i - 1] as Tensor;
    if (prev.sizes[prev.dim() - 1] !== t.sizes[0]) {
      throw new Error(
        `multi_dot(): tensors ${i - 1} and ${i} with shapes [${(input[i - 1] as Tensor).sizes.join(', ')}] and [${(input[i] as Tensor).sizes.join(', ')}] cannot be multiplied`,
      );
    }
  }
  let result: Tensor;
  if (n === 2) result = at.mm(tensors[0] as Tensor, tensors[1] as Tensor);
  else if (n === 3) {
    const [a, b] = [tensors[0]?.sizes[0] as number, tensors[1]?.sizes[0] as number];
    const [c, d] = [tensors[2]?.sizes[0] as number, tensors[2]?.sizes[1] as number];
    const cost1 = a * c * (b + d);
    const cost2 = b * d * (a + c);
    result =
      cost1 > cost2
        ? at.mm(tensors[0] as Tensor, at.mm(tensors[1] as Tensor, tensors[2] as Tensor))
        : at.mm(at.mm(tensors[0] as Tensor, tensors[1] as Tensor), tensors[2] as Tensor);
  } else result = matrixChainMultiplication(tensors, matrixChainOrder(tensors), 0, n - 1);
  return at.view(result, outShape);
}
