// The singular value decomposition and what is built on it: `_linalg_svd` (kernel and Meta), `linalg_svd`,
// `linalg_svdvals`, `svd`, and `linalg_matrix_norm` with a string order ('fro', 'nuc'). Mirrors
// aten/src/ATen/native/BatchLinearAlgebra.cpp (_linalg_svd_meta, _linalg_svd_out, linalg_svd, linalg_svdvals,
// svd) and the 'nuc' branch of LinearAlgebra.cpp's linalg_matrix_norm; the per-matrix solver stands in for
// LAPACK's gesdd (BatchLinearAlgebraKernel.cpp).

import { autogradState } from '../c10/AutogradState.js';
import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isComplexType, isFloatingType, notImplementedForDtype, scalarTypeToString } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';
import { contiguousStrides } from '../tensor/TensorImpl.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';
import { contiguousOf } from './StorageAccess.js';
import { newStrided } from './TensorFactories.js';

/** `checkIsMatrix(A, f_name)` of LinearAlgebraUtils.h. */
function checkIsMatrix(A: Tensor, fName: string, argName = 'A'): void {
  if (A.dim() < 2) {
    throw new Error(`${fName}: The input tensor ${argName} must have at least 2 dimensions.`);
  }
}

/** `checkFloatingOrComplex(A, f_name, allow_low_precision_dtypes)` of LinearAlgebraUtils.h. */
function checkFloatingOrComplex(A: Tensor, fName: string, allowLowPrecision = true): void {
  const t = A.scalarType;
  if (!isFloatingType(t) && !isComplexType(t)) {
    throw new Error(`${fName}: Expected a floating point or complex tensor as input. Got ${scalarTypeToString(t)}`);
  }
  if (!allowLowPrecision && (t === ScalarType.Half || t === ScalarType.BFloat16)) {
    throw new Error(`${fName}: Low precision dtypes not supported. Got ${scalarTypeToString(t)}`);
  }
}

/** `batched_matrix_contiguous_strides(sizes, f_contig)`: row-major batches of (optionally column-major) matrices. */
function batchedMatrixStrides(sizes: number[], fContig: boolean): number[] {
  const strides = contiguousStrides(sizes);
  const d = sizes.length;
  if (fContig && d >= 2) {
    strides[d - 1] = Math.max(sizes[d - 2] as number, 1);
    strides[d - 2] = 1;
  }
  return strides;
}

// Note [One-sided Jacobi SVD]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch calls LAPACK's gesdd per matrix. aten-ts has no LAPACK, so each matrix is decomposed by one-sided
// (Hestenes) Jacobi in float64, whatever the input dtype: rotations of column pairs of the tall orientation
// (A, or Aᵀ when A is wide) until every pair is orthogonal to working precision; the column norms are the
// singular values (sorted descending, as LAPACK's), the normalised columns the left vectors and the
// accumulated rotations the right ones. It is accurate to the last bits for small matrices (relative accuracy
// of every singular value), which is what the nuclear norm and gradients need; it is O(sweeps·n²·m), fine for
// the sizes tests and models use, slow for large matrices. Left vectors of zero singular values and the extra
// columns of full_matrices are completed by Gram-Schmidt against the standard basis. Singular vectors are
// unique only up to sign (and rotation within repeated values): aten-ts's signs need not be LAPACK's.

const EPS = 2.220446049250313e-16;
const MAX_SWEEPS = 80;

/**
 * The SVD of one r×c matrix (r >= c) given as its c columns (each of length r), in float64: `sigma` (c values,
 * descending), `u` (`ucols` orthonormal columns of length r) and `v` (c orthonormal columns of length c) with
 * B = U diag(sigma) Vᵀ.
 */
function jacobiSvd(
  cols: Float64Array[],
  r: number,
  ucols: number,
  wantVectors: boolean,
): { sigma: number[]; u: Float64Array[]; v: Float64Array[] } {
  const c = cols.length;
  const v: Float64Array[] = [];
  if (wantVectors) {
    for (let j = 0; j < c; j++) {
      const e = new Float64Array(c);
      e[j] = 1;
      v.push(e);
    }
  }
  for (let sweep = 0; sweep < MAX_SWEEPS; sweep++) {
    let rotated = false;
    for (let p = 0; p < c - 1; p++) {
      for (let q = p + 1; q < c; q++) {
        const ap = cols[p] as Float64Array;
        const aq = cols[q] as Float64Array;
        let alpha = 0;
        let beta = 0;
        let gamma = 0;
        for (let i = 0; i < r; i++) {
          const x = ap[i] as number;
          const y = aq[i] as number;
          alpha += x * x;
          beta += y * y;
          gamma += x * y;
        }
        if (gamma === 0 || Math.abs(gamma) <= EPS * Math.sqrt(alpha * beta)) continue;
        rotated = true;
        const zeta = (beta - alpha) / (2 * gamma);
        const t = (zeta >= 0 ? 1 : -1) / (Math.abs(zeta) + Math.sqrt(1 + zeta * zeta));
        const cs = 1 / Math.sqrt(1 + t * t);
        const sn = cs * t;
        for (let i = 0; i < r; i++) {
          const x = ap[i] as number;
          const y = aq[i] as number;
          ap[i] = cs * x - sn * y;
          aq[i] = sn * x + cs * y;
        }
        if (wantVectors) {
          const vp = v[p] as Float64Array;
          const vq = v[q] as Float64Array;
          for (let i = 0; i < c; i++) {
            const x = vp[i] as number;
            const y = vq[i] as number;
            vp[i] = cs * x - sn * y;
            vq[i] = sn * x + cs * y;
          }
        }
      }
    }
    if (!rotated) break;
  }
  const norms = cols.map(norm2);
  const order = [...norms.keys()].sort((i, j) => (norms[j] as number) - (norms[i] as number) || i - j);
  const sigma = order.map((j) => norms[j] as number);
  if (!wantVectors) return { sigma, u: [], v: [] };
  const smax = sigma[0] ?? 0;
  const u: (Float64Array | null)[] = order.map((j) => {
    const s = norms[j] as number;
    if (!(s > smax * r * EPS) || s === 0) return null;
    return (cols[j] as Float64Array).map((x) => x / s);
  });
  while (u.length < ucols) u.push(null);
  u.length = ucols;
  completeBasis(u, r);
  return { sigma, u: u as Float64Array[], v: order.map((j) => v[j] as Float64Array) };
}

/** The Euclidean norm of a vector. */
function norm2(x: Float64Array): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += (x[i] as number) * (x[i] as number);
  return Math.sqrt(s);
}

/** Fills the null slots of `u` with unit vectors of length r orthogonal to every other column (Gram-Schmidt). */
function completeBasis(u: (Float64Array | null)[], r: number): void {
  let next = 0;
  for (let slot = 0; slot < u.length; slot++) {
    if (u[slot] !== null) continue;
    for (; next < r; next++) {
      const w = new Float64Array(r);
      w[next] = 1;
      for (let pass = 0; pass < 2; pass++) {
        for (const q of u) {
          if (q === null) continue;
          let d = 0;
          for (let i = 0; i < r; i++) d += (q[i] as number) * (w[i] as number);
          for (let i = 0; i < r; i++) w[i] = (w[i] as number) - d * (q[i] as number);
        }
      }
      const nrm = norm2(w);
      if (nrm > 0.5) {
        u[slot] = w.map((x) => x / nrm);
        next++;
        break;
      }
    }
  }
}

// Note [Meta strides of Vh]
// ~~~~~~~~~~~~~~~~~~~~~~~~~
// On CPU, PyTorch's U and Vh are batches of column-major matrices (LAPACK's layout). On Meta, PyTorch 2.13
// runs torch/_meta_registrations.py's _linalg_svd_meta, which makes Vh row-major when the device hint is CUDA
// (it is for a plain meta tensor, as cuSOLVER computes V rather than Vh); U stays column-major. aten-ts gives
// the same strides on each device, so shape-and-stride checks on Meta agree with PyTorch's.

/** `_linalg_svd(A, full_matrices=False, compute_uv=True, *, driver=None) -> (U, S, Vh)`: CPU and Meta. */
export function linalgSvdImpl(
  _ks: DispatchKeySet,
  A: Tensor,
  fullMatrices = false,
  computeUv = true,
  driver: string | null = null,
): [Tensor, Tensor, Tensor] {
  checkIsMatrix(A, 'linalg.svd');
  checkFloatingOrComplex(A, 'linalg.svd');
  const sizes = [...A.sizes];
  const d = sizes.length;
  const m = sizes[d - 2] as number;
  const n = sizes[d - 1] as number;
  const k = Math.min(m, n);
  const dtype = A.scalarType;
  let U: Tensor;
  let Vh: Tensor;
  const ucols = fullMatrices ? m : k;
  const vrows = fullMatrices ? n : k;
  const uSizes = [...sizes.slice(0, -1), ucols];
  const vSizes = [...sizes.slice(0, -2), vrows, n];
  if (computeUv) {
    U = newStrided(uSizes, batchedMatrixStrides(uSizes, true), dtype, A.device);
    // See Note [Meta strides of Vh].
    Vh = newStrided(vSizes, batchedMatrixStrides(vSizes, !A.isMeta()), dtype, A.device);
  } else {
    U = newStrided([0], [1], dtype, A.device);
    Vh = newStrided([0], [1], dtype, A.device);
  }
  const sSizes = [...sizes.slice(0, -2), k];
  const S = newStrided(sSizes, contiguousStrides(sSizes), dtype, A.device);
  if (A.isMeta()) return [U, S, Vh];
  if (driver !== null) {
    throw new Error('torch.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs with cuSOLVER backend.');
  }
  if (dtype !== ScalarType.Float && dtype !== ScalarType.Double) throw notImplementedForDtype('linalg_svd_cpu', dtype);
  const batch = sizes.slice(0, -2).reduce((a, b) => a * b, 1);
  const Ac = contiguousOf(A);
  // Read every matrix into float64 columns of the tall orientation before allocating anything more.
  const wide = m < n;
  const [r, c] = wide ? [n, m] : [m, n];
  const mats: Float64Array[][] = [];
  {
    const { data, base } = Ac.dataView();
    for (let b = 0; b < batch; b++) {
      const off = base + b * m * n;
      const cols: Float64Array[] = [];
      for (let j = 0; j < c; j++) {
        const col = new Float64Array(r);
        // Column j of the tall matrix: column j of A (A[i][j]) or row j of A (A[j][i]) when A is wide.
        for (let i = 0; i < r; i++) col[i] = data[off + (wide ? j * n + i : i * n + j)] as number;
        cols.push(col);
      }
      mats.push(cols);
    }
  }
  const results = mats.map((cols) => jacobiSvd(cols, r, computeUv ? (wide ? vrows : ucols) : 0, computeUv));
  const sv = S.dataView();
  results.forEach((res, b) => res.sigma.forEach((s, i) => void (sv.data[sv.base + b * k + i] = s)));
  if (!computeUv) return [U, S, Vh];
  const uv = U.dataView();
  const vv = Vh.dataView();
  const [us0, us1] = [U.strides[d - 2] as number, U.strides[d - 1] as number];
  const [vs0, vs1] = [Vh.strides[d - 2] as number, Vh.strides[d - 1] as number];
  results.forEach((res, b) => {
    const uoff = uv.base + b * m * ucols;
    const voff = vv.base + b * vrows * n;
    // Tall: U = left vectors, Vh = Vᵀ. Wide (Aᵀ = L S Rᵀ): U = R, Vh = Lᵀ.
    const left = wide ? res.v : res.u;
    const right = wide ? res.u : res.v;
    for (let j = 0; j < ucols; j++) {
      const col = left[j] as Float64Array;
      for (let i = 0; i < m; i++) uv.data[uoff + i * us0 + j * us1] = col[i] as number;
    }
    for (let i = 0; i < vrows; i++) {
      const row = right[i] as Float64Array;
      for (let j = 0; j < n; j++) vv.data[voff + i * vs0 + j * vs1] = row[j] as number;
    }
  });
  return [U, S, Vh];
}

/** `_may_require_fw_or_bw_grad(A)`: grad mode is on and A requires grad. */
function mayRequireGrad(A: Tensor): boolean {
  return autogradState.gradMode && A.requiresGrad;
}

/** `linalg_svd(A, full_matrices=True, *, driver=None)`: CompositeImplicitAutograd over `_linalg_svd`. */
export function linalgSvd(_ks: DispatchKeySet, A: Tensor, fullMatrices = true, driver: string | null = null): [Tensor, Tensor, Tensor] {
  return aten()._linalg_svd.call(A, fullMatrices, true, driver);
}

/** `linalg_svdvals(A, *, driver=None)`: the singular values; U and Vh are computed only when a gradient may be needed. */
export function linalgSvdvals(_ks: DispatchKeySet, A: Tensor, driver: string | null = null): Tensor {
  return aten()._linalg_svd.call(A, false, mayRequireGrad(A), driver)[1];
}

/** `svd(self, some=True, compute_uv=True) -> (U, S, V)`: the deprecated form, V (not Vh); zeros for U and V without compute_uv. */
export function svd(_ks: DispatchKeySet, self: Tensor, some = true, computeUv = true): [Tensor, Tensor, Tensor] {
  if (self.dim() < 2) {
    throw new Error(`linalg.svd: input should have at least 2 dimensions, but has ${self.dim()} dimensions instead`);
  }
  const ops = aten();
  if (computeUv) {
    const [U, S, Vh] = ops.linalg_svd.call(self, !some, null);
    return [U, S, Vh.mH];
  }
  const S = ops.linalg_svdvals.call(self, null);
  const sizes = [...self.sizes];
  const m = sizes[sizes.length - 2] as number;
  const n = sizes[sizes.length - 1] as number;
  const U = ops.zeros.call([...sizes.slice(0, -1), m], self.scalarType, null, self.device, null);
  const Vh = ops.zeros.call([...sizes.slice(0, -2), n, n], self.scalarType, null, self.device, null);
  return [U, S, Vh.mH];
}

/** `create_dim_backshift_permutation(dim0, dim1, ndim)`: every other dimension in order, then dim0, dim1. */
function backshiftPermutation(dim0: number, dim1: number, ndim: number): number[] {
  const perm: number[] = [];
  for (let i = 0; i < ndim; i++) if (i !== dim0 && i !== dim1) perm.push(i);
  perm.push(dim0, dim1);
  return perm;
}

/**
 * `linalg_matrix_norm.str_ord(A, ord='fro', dim=[-2,-1], keepdim=False, *, dtype=None)`: 'fro' is the vector
 * 2-norm over the two dims; 'nuc' the sum of the singular values (`linalg_svdvals(A.permute(..)).sum(-1)`,
 * hence SumBackward1), as LinearAlgebra.cpp computes them.
 */
export function linalgMatrixNormStr(
  _ks: DispatchKeySet,
  A: Tensor,
  ord = 'fro',
  dim: number[] = [-2, -1],
  keepdim = false,
  dtype: ScalarType | null = null,
): Tensor {
  if (ord !== 'fro' && ord !== 'nuc') throw new Error(`linalg.matrix_norm: Order ${ord} not supported.`);
  checkIsMatrix(A, 'linalg.matrix_norm');
  checkFloatingOrComplex(A, 'linalg.matrix_norm', ord !== 'nuc');
  if (dim.length !== 2) throw new Error(`linalg.matrix_norm: dim must be a 2-tuple. Got ${dim.join(' ')}`);
  const d = dim.map((x) => maybeWrapDim(x, A.dim()));
  const [d0, d1] = d as [number, number];
  if (d0 === d1) throw new Error(`linalg.matrix_norm: dims must be different. Got (${d0}, ${d1})`);
  if (dtype !== null && dtype !== A.scalarType) {
    throw new Error('linalg.matrix_norm(dtype=...): converting to another dtype is not supported yet; convert the input with A.to(dtype)');
  }
  const ops = aten();
  if (ord === 'fro') return ops.linalg_vector_norm.call(A, 2, d, keepdim, null);
  const perm = backshiftPermutation(d0, d1, A.dim());
  let result = ops.sum_dim_IntList.call(ops.linalg_svdvals.call(ops.permute.call(A, perm), null), [-1], keepdim, null);
  if (keepdim) {
    const reverse = new Array<number>(perm.length);
    perm.forEach((p, i) => (reverse[p] = i));
    result = ops.permute.call(ops.unsqueeze.call(result, -1), reverse);
  }
  return result;
}
