// The LU family of aten/src/ATen/native/BatchLinearAlgebra.cpp (structured, CPU and Meta): `linalg_lu_factor_ex`,
// `linalg_lu`, `lu_unpack`, `linalg_lu_solve`, `_linalg_solve_ex`, `linalg_inv_ex`, and LinearAlgebra.cpp's
// `_linalg_det` and `_linalg_slogdet`, which are built on the LU factorisation. The per-matrix algorithms are in
// BatchLinearAlgebraKernel.ts (See Note [Float64 matrix kernels]).

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, scalarTypeToString, toRealValueType } from '../c10/ScalarType.js';
import type { Tensor } from '../tensor/Tensor.js';
import { luInPlace, luSolveInPlace, transposed } from './BatchLinearAlgebraKernel.js';
import {
  broadcastBatchSizes,
  checkFloatingOrComplex,
  checkInputsSolver,
  checkKernelDtype,
  linalgCheckErrors,
  linalgSolveIsVectorRhs,
  newContiguous,
  newMatrices,
  readMatrices,
  squareCheckInputs,
  writeFlat,
  writeMatrices,
} from './LinearAlgebraUtils.js';
import { contiguousOf } from './StorageAccess.js';
import * as at from '../generated/TensorBody.js';

interface Factored {
  lu: Float64Array[];
  piv: Int32Array[];
  info: Int32Array;
}

/** LU factors of every m×n matrix of `mats`. */
function factorAll(mats: Float64Array[], m: number, n: number): Factored {
  const k = Math.min(m, n);
  const piv = mats.map(() => new Int32Array(k));
  const info = new Int32Array(mats.length);
  mats.forEach((a, b) => (info[b] = luInPlace(a, m, n, piv[b] as Int32Array)));
  return { lu: mats, piv, info };
}

function writePivots(pivots: Tensor, piv: Int32Array[]): void {
  const k = pivots.sizes[pivots.dim() - 1] as number;
  const flat = new Int32Array(piv.length * k);
  piv.forEach((p, b) => flat.set(p, b * k));
  writeFlat(pivots, flat);
}

function readPivots(pivots: Tensor, batchSizes?: readonly number[]): Int32Array[] {
  const k = pivots.sizes[pivots.dim() - 1] as number;
  const batch = (batchSizes ?? pivots.sizes.slice(0, -1)).reduce((a, b) => a * b, 1);
  const src = contiguousOf(pivots);
  const { data, base } = src.dataView();
  const pb = pivots.sizes.slice(0, -1);
  const out: Int32Array[] = [];
  for (let b = 0; b < batch; b++) {
    // Broadcast index into pivots' own batch (sizes of 1 repeat).
    let off = 0;
    let rem = b;
    let mul = 1;
    const bs = batchSizes ?? pb;
    for (let i = bs.length - 1; i >= 0; i--) {
      const s = bs[i] as number;
      const idx = rem % s;
      rem = Math.floor(rem / s);
      const pi = i - (bs.length - pb.length);
      const ps = pi >= 0 ? (pb[pi] as number) : 1;
      off += (ps === 1 ? 0 : idx) * mul;
      mul *= ps;
    }
    out.push(Int32Array.from({ length: k }, (_, j) => data[base + off * k + j] as number));
  }
  return out;
}

/** `linalg_lu_factor_ex(A, *, pivot=True, check_errors=False) -> (LU, pivots, info)`. */
export function linalgLuFactorEx(_ks: DispatchKeySet, A: Tensor, pivot = true, checkErrors = false): [Tensor, Tensor, Tensor] {
  if (A.dim() < 2) throw new Error(`torch.lu_factor: Expected tensor with 2 or more dimensions. Got size: [${A.sizes.join(', ')}] instead`);
  const [m, n] = [A.sizes[A.dim() - 2] as number, A.sizes[A.dim() - 1] as number];
  const LU = newMatrices(A.sizes, true, A.scalarType, A);
  const pivots = newContiguous([...A.sizes.slice(0, -2), Math.min(m, n)], ScalarType.Int, A);
  const info = newContiguous(A.sizes.slice(0, -2), ScalarType.Int, A);
  if (A.isMeta()) return [LU, pivots, info];
  if (!pivot) throw new Error('linalg.lu_factor: LU without pivoting is not implemented on the CPU');
  if (A.numel() === 0) {
    writeFlat(info, new Int32Array(info.numel()));
    return [LU, pivots, info];
  }
  checkKernelDtype(A, 'linalg_lu_factor_ex_cpu');
  const f = factorAll(readMatrices(A), m, n);
  writeMatrices(LU, f.lu);
  writePivots(pivots, f.piv);
  writeFlat(info, f.info);
  if (checkErrors) linalgCheckErrors(f.info, 'torch.linalg.lu_factor_ex', A.dim() === 2);
  return [LU, pivots, info];
}

/** The permutation of rows the interchanges `piv` make, as P[perm[j], j] = 1 (A = P L U). */
function permutationOf(piv: Int32Array, m: number): Int32Array {
  const perm = Int32Array.from({ length: m }, (_, i) => i);
  piv.forEach((p, i) => {
    const t = perm[i] as number;
    perm[i] = perm[p - 1] as number;
    perm[p - 1] = t;
  });
  return perm;
}

/** Unpacks m×n LU factors into P (m×m), L (m×k, unit lower) and U (k×n). */
function unpack(lu: Float64Array, piv: Int32Array | null, m: number, n: number): [Float64Array | null, Float64Array, Float64Array] {
  const k = Math.min(m, n);
  const L = new Float64Array(m * k);
  const U = new Float64Array(k * n);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < k; j++) L[i * k + j] = i > j ? (lu[i * n + j] as number) : i === j ? 1 : 0;
  }
  for (let i = 0; i < k; i++) for (let j = i; j < n; j++) U[i * n + j] = lu[i * n + j] as number;
  if (piv === null) return [null, L, U];
  const P = new Float64Array(m * m);
  permutationOf(piv, m).forEach((p, j) => (P[p * m + j] = 1));
  return [P, L, U];
}

/** `lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True) -> (P, L, U)`. */
export function luUnpack(
  _ks: DispatchKeySet,
  LUData: Tensor,
  LUPivots: Tensor,
  unpackData = true,
  unpackPivots = true,
): [Tensor, Tensor, Tensor] {
  if (LUData.dim() < 2) {
    throw new Error(`torch.lu_unpack: Expected tensor with 2 or more dimensions. Got size: [${LUData.sizes.join(', ')}] instead`);
  }
  if (unpackPivots && LUPivots.scalarType !== ScalarType.Int) {
    throw new Error(
      'torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of torch.int32 dtype.\nNote: this function is intended to be used with the output produced by torch.linalg.lu_factor',
    );
  }
  const batch = LUData.sizes.slice(0, -2);
  const [m, n] = [LUData.sizes[LUData.dim() - 2] as number, LUData.sizes[LUData.dim() - 1] as number];
  const k = Math.min(m, n);
  const dt = LUData.scalarType;
  const P = unpackPivots ? newContiguous([...batch, m, m], dt, LUData) : newContiguous([0], dt, LUData);
  const L = unpackData ? newContiguous([...batch, m, k], dt, LUData) : newContiguous([0], dt, LUData);
  const U = unpackData ? newContiguous([...batch, k, n], dt, LUData) : newContiguous([0], dt, LUData);
  if (LUData.isMeta() || LUData.numel() === 0) return [P, L, U];
  const lus = readMatrices(LUData);
  const pivs = unpackPivots ? readPivots(LUPivots, batch) : null;
  const parts = lus.map((lu, b) => unpack(lu, pivs === null ? null : (pivs[b] as Int32Array), m, n));
  if (unpackPivots)
    writeMatrices(
      P,
      parts.map((p) => p[0] as Float64Array),
    );
  if (unpackData) {
    writeMatrices(
      L,
      parts.map((p) => p[1]),
    );
    writeMatrices(
      U,
      parts.map((p) => p[2]),
    );
  }
  return [P, L, U];
}

/** `linalg_lu(A, *, pivot=True) -> (P, L, U)`. */
export function linalgLu(ks: DispatchKeySet, A: Tensor, pivot = true): [Tensor, Tensor, Tensor] {
  if (A.dim() < 2) throw new Error(`linalg.lu: Expected tensor with 2 or more dimensions. Got size: [${A.sizes.join(', ')}] instead`);
  const batch = A.sizes.slice(0, -2);
  const [m, n] = [A.sizes[A.dim() - 2] as number, A.sizes[A.dim() - 1] as number];
  const k = Math.min(m, n);
  const P = pivot ? newContiguous([...batch, m, m], A.scalarType, A) : newContiguous([0], A.scalarType, A);
  const L = newContiguous([...batch, m, k], A.scalarType, A);
  const U = newContiguous([...batch, k, n], A.scalarType, A);
  if (A.isMeta() || A.numel() === 0) return [P, L, U];
  if (!pivot) throw new Error('linalg.lu_factor: LU without pivoting is not implemented on the CPU');
  checkKernelDtype(A, 'linalg_lu_cpu');
  const f = factorAll(readMatrices(A), m, n);
  const parts = f.lu.map((lu, b) => unpack(lu, f.piv[b] as Int32Array, m, n));
  writeMatrices(
    P,
    parts.map((p) => p[0] as Float64Array),
  );
  writeMatrices(
    L,
    parts.map((p) => p[1]),
  );
  writeMatrices(
    U,
    parts.map((p) => p[2]),
  );
  void ks;
  return [P, L, U];
}

/** Solves with packed LU factors: A X = B (left) or X A = B, with A or Aᴴ (adjoint); B is n×k or k×n. */
function luSolveOne(
  lu: Float64Array,
  piv: Int32Array,
  b: Float64Array,
  n: number,
  rows: number,
  cols: number,
  left: boolean,
  adjoint: boolean,
): Float64Array {
  if (left) {
    const x = Float64Array.from(b);
    luSolveInPlace(lu, piv, x, n, cols, adjoint);
    return x;
  }
  // X op(A) = B  <=>  op(A)ᵀ Xᵀ = Bᵀ.
  const xt = transposed(b, rows, cols);
  luSolveInPlace(lu, piv, xt, n, rows, !adjoint);
  return transposed(xt, cols, rows);
}

/** `linalg_lu_solve(LU, pivots, B, *, left=True, adjoint=False)`. */
export function linalgLuSolve(_ks: DispatchKeySet, LU: Tensor, pivots: Tensor, B: Tensor, left = true, adjoint = false): Tensor {
  checkFloatingOrComplex(LU, 'torch.linalg.lu_solve');
  if (LU.scalarType !== B.scalarType) {
    throw new Error(
      `linalg.lu_solve: Expected LU and B to have the same dtype, but found LU of type ${scalarTypeToString(LU.scalarType)} and B of type ${scalarTypeToString(B.scalarType)} instead`,
    );
  }
  if (pivots.scalarType !== ScalarType.Int) throw new Error('linalg.lu_solve: pivots should be a Tensor of scalar type torch.int32');
  squareCheckInputs(LU, 'torch.linalg.lu_solve');
  checkInputsSolver(LU, B, left, 'linalg.lu_solve');
  if (LU.sizes[LU.dim() - 1] !== pivots.sizes[pivots.dim() - 1]) {
    throw new Error('linalg.lu_solve: Number of pivots per batch should be same as the dimension of the matrix');
  }
  const luBatch = LU.sizes.slice(0, -1);
  if (luBatch.length !== pivots.dim() || luBatch.some((s, i) => s !== pivots.sizes[i])) {
    throw new Error(
      `linalg.lu_solve: Expected LU.shape[:-1] and pivots.shape to be the same, but got pivots with shape [${pivots.sizes.join(', ')}] instead`,
    );
  }
  const [bSizes] = broadcastBatchSizes(B, LU);
  const out = newMatrices(bSizes, left, B.scalarType, B);
  if (LU.isMeta() || out.numel() === 0) return out;
  checkKernelDtype(LU, 'linalg_lu_solve_cpu');
  const batch = bSizes.slice(0, -2);
  const n = LU.sizes[LU.dim() - 1] as number;
  const [rows, cols] = [bSizes[bSizes.length - 2] as number, bSizes[bSizes.length - 1] as number];
  const lus = readMatrices(LU, batch);
  const pivs = readPivots(pivots, batch);
  writeMatrices(
    out,
    readMatrices(B, batch).map((b, i) => luSolveOne(lus[i] as Float64Array, pivs[i] as Int32Array, b, n, rows, cols, left, adjoint)),
  );
  return out;
}

/**
 * `_linalg_solve_ex(A, B, *, left=True, check_errors=False) -> (result, LU, pivots, info)`. As PyTorch, a
 * contiguous A is factorised transposed (its LU is Aᵀ's, solved with adjoint=True), which decides which
 * singular pivot `info` reports.
 */
export function linalgSolveExImpl(
  _ks: DispatchKeySet,
  A: Tensor,
  B: Tensor,
  left = true,
  checkErrors = false,
): [Tensor, Tensor, Tensor, Tensor] {
  checkFloatingOrComplex(A, 'linalg.solve');
  if (A.scalarType !== B.scalarType) {
    throw new Error(
      `linalg.solve: Expected A and B to have the same dtype, but found A of type ${scalarTypeToString(A.scalarType)} and B of type ${scalarTypeToString(B.scalarType)} instead`,
    );
  }
  const vectorCase = linalgSolveIsVectorRhs(A, B);
  const bMat = vectorCase ? at.unsqueeze(B, -1) : B;
  checkInputsSolver(A, bMat, left, 'linalg.solve');
  const bSizes = broadcastBatchSizes(bMat, A)[0];
  const batch = bSizes.slice(0, -2);
  if (!left && vectorCase) {
    throw new Error(
      'linalg.solve: Vector broadcasting of the left hand side is not supported for left=False. In this case linalg.solve is equivalent to B / A.squeeze(-1)',
    );
  }
  const resultSizes = vectorCase ? bSizes.slice(0, -1) : bSizes;
  const result = newMatrices(resultSizes, left, B.scalarType, B);
  const n = A.sizes[A.dim() - 1] as number;
  const LU = newMatrices(A.sizes, true, A.scalarType, A);
  const pivots = newContiguous(A.sizes.slice(0, -1), ScalarType.Int, A);
  const info = newContiguous(A.sizes.slice(0, -2), ScalarType.Int, A);
  if (A.isMeta()) return [result, LU, pivots, info];
  checkKernelDtype(A, 'linalg_solve_cpu');
  const useAT = A.isContiguous();
  const mats = readMatrices(A).map((a) => (useAT ? transposed(a, n, n) : a));
  const f = factorAll(mats, n, n);
  writeMatrices(LU, f.lu);
  writePivots(pivots, f.piv);
  writeFlat(info, f.info);
  if (checkErrors) linalgCheckErrors(f.info, 'torch.linalg.solve_ex', A.dim() === 2);
  if (result.numel() === 0) return [result, LU, pivots, info];
  const aBatch = A.sizes.slice(0, -2);
  const lus = batchIndex(f.lu, aBatch, batch);
  const pivs = batchIndex(f.piv, aBatch, batch);
  const [rows, cols] = [bSizes[bSizes.length - 2] as number, bSizes[bSizes.length - 1] as number];
  const xs = readMatrices(bMat, batch).map((b, i) =>
    luSolveOne(lus[i] as Float64Array, pivs[i] as Int32Array, b, n, rows, cols, left, useAT),
  );
  writeMatrices(vectorCase ? at.unsqueeze(result, -1) : result, xs);
  return [result, LU, pivots, info];
}

/** Repeats per-matrix values of batch `from` to the broadcast batch `to` (row-major batch order). */
function batchIndex<T>(vals: T[], from: readonly number[], to: readonly number[]): T[] {
  const total = to.reduce((a, b) => a * b, 1);
  const out: T[] = [];
  for (let b = 0; b < total; b++) {
    let rem = b;
    let off = 0;
    let mul = 1;
    for (let i = to.length - 1; i >= 0; i--) {
      const s = to[i] as number;
      const idx = rem % s;
      rem = Math.floor(rem / s);
      const fi = i - (to.length - from.length);
      const fs = fi >= 0 ? (from[fi] as number) : 1;
      off += (fs === 1 ? 0 : idx) * mul;
      mul *= fs;
    }
    out.push(vals[off] as T);
  }
  return out;
}

/** `linalg_inv_ex(A, *, check_errors=False) -> (inverse, info)`: solves A X = I (See `_linalg_solve_ex`). */
export function linalgInvEx(_ks: DispatchKeySet, A: Tensor, checkErrors = false): [Tensor, Tensor] {
  squareCheckInputs(A, 'linalg.inv');
  checkFloatingOrComplex(A, 'linalg.inv', false);
  const inverse = newMatrices(A.sizes, true, A.scalarType, A);
  const info = newContiguous(A.sizes.slice(0, -2), ScalarType.Int, A);
  if (A.isMeta()) return [inverse, info];
  if (A.numel() === 0) {
    writeFlat(info, new Int32Array(info.numel()));
    return [inverse, info];
  }
  checkKernelDtype(A, 'linalg_inv_ex_cpu');
  const n = A.sizes[A.dim() - 1] as number;
  const useAT = A.isContiguous();
  const f = factorAll(
    readMatrices(A).map((a) => (useAT ? transposed(a, n, n) : a)),
    n,
    n,
  );
  writeFlat(info, f.info);
  if (checkErrors) linalgCheckErrors(f.info, 'linalg.inv_ex', A.dim() === 2);
  const xs = f.lu.map((lu, b) => {
    const x = new Float64Array(n * n);
    for (let i = 0; i < n; i++) x[i * n + i] = 1;
    luSolveInPlace(lu, f.piv[b] as Int32Array, x, n, n, useAT);
    return x;
  });
  writeMatrices(inverse, xs);
  return [inverse, info];
}

/** The LU outputs shared by `_linalg_det` and `_linalg_slogdet` (A factorised transposed when contiguous). */
function detFactor(A: Tensor, LU: Tensor, pivots: Tensor): Factored {
  const n = A.sizes[A.dim() - 1] as number;
  const useAT = A.isContiguous();
  const f = factorAll(
    readMatrices(A).map((a) => (useAT ? transposed(a, n, n) : a)),
    n,
    n,
  );
  writeMatrices(LU, f.lu);
  writePivots(pivots, f.piv);
  return f;
}

/** (-1)^(number of interchanges) times the sign of each U diagonal entry's product, and log|det|. */
function detParts(lu: Float64Array, piv: Int32Array, n: number): { sign: number; logabs: number; det: number } {
  let sign = 1;
  let det = 1;
  let logabs = 0;
  piv.forEach((p, i) => void (p !== i + 1 && (sign = -sign)));
  det = sign;
  for (let i = 0; i < n; i++) {
    const d = lu[i * n + i] as number;
    det *= d;
    sign *= Math.sign(d);
    logabs += Math.log(Math.abs(d));
  }
  return { sign, logabs, det };
}

/** `_linalg_det(A) -> (result, LU, pivots)`. */
export function linalgDetImpl(_ks: DispatchKeySet, A: Tensor): [Tensor, Tensor, Tensor] {
  squareCheckInputs(A, 'linalg.det');
  checkFloatingOrComplex(A, 'linalg.det');
  const batch = A.sizes.slice(0, -2);
  const result = newContiguous(batch, A.scalarType, A);
  const LU = newMatrices(A.sizes, true, A.scalarType, A);
  const pivots = newContiguous(A.sizes.slice(0, -1), ScalarType.Int, A);
  if (A.isMeta() || result.numel() === 0) return [result, LU, pivots];
  checkKernelDtype(A, 'linalg_det_cpu');
  const n = A.sizes[A.dim() - 1] as number;
  const f = detFactor(A, LU, pivots);
  writeFlat(
    result,
    f.lu.map((lu, b) => detParts(lu, f.piv[b] as Int32Array, n).det),
  );
  return [result, LU, pivots];
}

/** `_linalg_slogdet(A) -> (sign, logabsdet, LU, pivots)`. */
export function linalgSlogdetImpl(_ks: DispatchKeySet, A: Tensor): [Tensor, Tensor, Tensor, Tensor] {
  squareCheckInputs(A, 'linalg.slogdet');
  checkFloatingOrComplex(A, 'linalg.slogdet', false);
  const batch = A.sizes.slice(0, -2);
  const sign = newContiguous(batch, A.scalarType, A);
  const logabsdet = newContiguous(batch, toRealValueType(A.scalarType), A);
  const LU = newMatrices(A.sizes, true, A.scalarType, A);
  const pivots = newContiguous(A.sizes.slice(0, -1), ScalarType.Int, A);
  if (A.isMeta() || sign.numel() === 0) return [sign, logabsdet, LU, pivots];
  checkKernelDtype(A, 'linalg_slogdet_cpu');
  const n = A.sizes[A.dim() - 1] as number;
  const f = detFactor(A, LU, pivots);
  const parts = f.lu.map((lu, b) => detParts(lu, f.piv[b] as Int32Array, n));
  writeFlat(
    sign,
    parts.map((p) => p.sign),
  );
  writeFlat(
    logabsdet,
    parts.map((p) => p.logabs),
  );
  return [sign, logabsdet, LU, pivots];
}
