// The input checks and batch helpers the linear-algebra kernels share. Mirrors
// aten/src/ATen/native/LinearAlgebraUtils.h (checkIsMatrix, squareCheckInputs, checkFloatingOrComplex,
// checkInputsSolver, linearSolveCheckInputs, _linalg_broadcast_batch_dims, batched_matrix_contiguous_strides,
// linalg_solve_is_vector_rhs) and BatchLinearAlgebra.cpp's _linalg_check_errors; and the batch movers that
// read every matrix of a tensor into float64 and write results back (See Note [Float64 matrix kernels]).

import { ScalarType, isComplexType, isFloatingType, notImplementedForDtype, scalarTypeToString } from '../c10/ScalarType.js';
import type { Tensor } from '../tensor/Tensor.js';
import { contiguousStrides } from '../tensor/TensorImpl.js';
import { inferSize } from '../tensor/ExpandUtils.js';
import { contiguousOf } from './StorageAccess.js';
import { newStrided } from './TensorFactories.js';
import * as at from '../generated/TensorBody.js';

/** `checkIsMatrix(A, f_name, arg_name)`. */
export function checkIsMatrix(A: Tensor, fName: string, argName = 'A'): void {
  if (A.dim() < 2) throw new Error(`${fName}: The input tensor ${argName} must have at least 2 dimensions.`);
}

/** `squareCheckInputs(A, f_name, arg_name)`. */
export function squareCheckInputs(A: Tensor, fName: string, argName = 'A'): void {
  checkIsMatrix(A, fName, argName);
  const [m, n] = [A.sizes[A.dim() - 2] as number, A.sizes[A.dim() - 1] as number];
  if (m !== n) throw new Error(`${fName}: ${argName} must be batches of square matrices, but they are ${m} by ${n} matrices`);
}

/** `checkFloatingOrComplex(A, f_name, allow_low_precision_dtypes)`. */
export function checkFloatingOrComplex(A: Tensor, fName: string, allowLowPrecision = true): void {
  const t = A.scalarType;
  if (!isFloatingType(t) && !isComplexType(t)) {
    throw new Error(`${fName}: Expected a floating point or complex tensor as input. Got ${scalarTypeToString(t)}`);
  }
  if (!allowLowPrecision && (t === ScalarType.Half || t === ScalarType.BFloat16)) {
    throw new Error(`${fName}: Low precision dtypes not supported. Got ${scalarTypeToString(t)}`);
  }
}

/** `checkInputsSolver(A, B, left, f_name)`: A square, B a matrix, their shapes fit AX = B (or XA = B). */
export function checkInputsSolver(A: Tensor, B: Tensor, left: boolean, fName: string): void {
  squareCheckInputs(A, fName, 'A');
  checkIsMatrix(B, fName, 'B');
  const [a2, a1] = [A.sizes[A.dim() - 2] as number, A.sizes[A.dim() - 1] as number];
  const [b2, b1] = [B.sizes[B.dim() - 2] as number, B.sizes[B.dim() - 1] as number];
  if (left ? a2 !== b2 : a1 !== b1) {
    throw new Error(
      `${fName}: Incompatible shapes of A and B for the equation ${left ? 'AX = B' : 'XA = B'} (${a2}x${a1} and ${b2}x${b1})`,
    );
  }
}

/** `linearSolveCheckInputs(self, A, name)`: the legacy solvers' checks (b, A). */
export function linearSolveCheckInputs(self: Tensor, A: Tensor, name: string): void {
  if (self.scalarType !== A.scalarType) {
    throw new Error(
      `Expected b and A to have the same dtype, but found b of type ${scalarTypeToString(self.scalarType)} and A of type ${scalarTypeToString(A.scalarType)} instead.`,
    );
  }
  const [a2, a1] = [A.sizes[A.dim() - 2] as number, A.sizes[A.dim() - 1] as number];
  if (a1 !== a2) throw new Error(`A must be batches of square matrices, but they are ${a2} by ${a1} matrices`);
  const [b2, b1] = [self.sizes[self.dim() - 2] as number, self.sizes[self.dim() - 1] as number];
  if (a1 !== b2) {
    throw new Error(`Incompatible matrix sizes for ${name}: each A matrix is ${a1} by ${a1} but each b matrix is ${b2} by ${b1}`);
  }
}

/** `_linalg_broadcast_batch_dims(arg1, arg2)` (sizes): both shapes with the broadcast batch dimensions. */
export function broadcastBatchSizes(arg1: Tensor, arg2: Tensor): [number[], number[]] {
  const batch = inferSize(arg1.sizes.slice(0, -2), arg2.sizes.slice(0, -2));
  return [
    [...batch, ...arg1.sizes.slice(-2)],
    [...batch, ...arg2.sizes.slice(-2)],
  ];
}

/** `batched_matrix_contiguous_strides(sizes, f_contig)`: row-major batches of (optionally column-major) matrices. */
export function batchedMatrixStrides(sizes: readonly number[], fContig: boolean): number[] {
  const strides = contiguousStrides([...sizes]);
  const d = sizes.length;
  if (fContig && d >= 2) {
    strides[d - 1] = Math.max(sizes[d - 2] as number, 1);
    strides[d - 2] = 1;
  }
  return strides;
}

/** `linalg_solve_is_vector_rhs(input, other)`: B is a (batch of) vector(s) rather than matrices. */
export function linalgSolveIsVectorRhs(input: Tensor, other: Tensor): boolean {
  if (other.dim() === 1) return true;
  if (input.dim() - 1 !== other.dim()) return false;
  const expected = input.sizes.slice(0, -1);
  return other.sizes.every((s, i) => s === expected[i]);
}

/** A new tensor of `sizes` with batched (optionally column-major) matrix strides. */
export function newMatrices(sizes: readonly number[], fContig: boolean, dtype: ScalarType, like: Tensor): Tensor {
  return newStrided([...sizes], batchedMatrixStrides(sizes, fContig), dtype, like.device);
}

/** A new contiguous tensor of `sizes`. */
export function newContiguous(sizes: readonly number[], dtype: ScalarType, like: Tensor): Tensor {
  return newStrided([...sizes], contiguousStrides([...sizes]), dtype, like.device);
}

/** Only float32 and float64 have kernels (See Note [Float64 matrix kernels]); `name` is PyTorch's kernel name. */
export function checkKernelDtype(A: Tensor, name: string): void {
  const t = A.scalarType;
  if (t !== ScalarType.Float && t !== ScalarType.Double) throw notImplementedForDtype(name, t);
}

/**
 * Every r×c matrix of `t` (batched over the leading dims, in row-major batch order, broadcast to `batch`
 * leading sizes when given) as a row-major Float64Array.
 */
export function readMatrices(t: Tensor, batchSizes?: readonly number[]): Float64Array[] {
  const d = t.dim();
  const r = t.sizes[d - 2] as number;
  const c = t.sizes[d - 1] as number;
  const src = batchSizes !== undefined ? expandBatch(t, batchSizes) : t;
  const cont = contiguousOf(src);
  const { data, base } = cont.dataView();
  const batch = src.sizes.slice(0, -2).reduce((a, b) => a * b, 1);
  const out: Float64Array[] = [];
  for (let b = 0; b < batch; b++) {
    const m = new Float64Array(r * c);
    const off = base + b * r * c;
    for (let e = 0; e < r * c; e++) m[e] = data[off + e] as number;
    out.push(m);
  }
  return out;
}

function expandBatch(t: Tensor, batchSizes: readonly number[]): Tensor {
  const target = [...batchSizes, ...t.sizes.slice(-2)];
  if (target.length === t.dim() && target.every((s, i) => s === t.sizes[i])) return t;
  return at.expand(t, target);
}

/** Writes row-major r×c matrices into `out` (any strides; r, c its last two sizes), one per batch element. */
export function writeMatrices(out: Tensor, mats: readonly Float64Array[]): void {
  const d = out.dim();
  const r = out.sizes[d - 2] as number;
  const c = out.sizes[d - 1] as number;
  const { data, base } = out.dataView();
  const [sr, sc] = [out.strides[d - 2] as number, out.strides[d - 1] as number];
  const bsizes = out.sizes.slice(0, -2);
  const bstrides = out.strides.slice(0, -2);
  mats.forEach((m, b) => {
    let off = base;
    let rem = b;
    for (let i = bsizes.length - 1; i >= 0; i--) {
      const s = bsizes[i] as number;
      off += (rem % s) * (bstrides[i] as number);
      rem = Math.floor(rem / s);
    }
    for (let i = 0; i < r; i++) for (let j = 0; j < c; j++) data[off + i * sr + j * sc] = m[i * c + j] as number;
  });
}

/** Writes one number per batch element into the contiguous `out` (info, determinants, pivots rows). */
export function writeFlat(out: Tensor, values: ArrayLike<number>): void {
  const { data, base } = out.dataView();
  for (let i = 0; i < values.length; i++) data[base + i] = values[i] as number;
}

/**
 * `_linalg_check_errors(info, api_name, is_matrix)`: PyTorch's error for the first non-zero info, by what the
 * API name says it is (inversion, solver, Cholesky).
 */
export function linalgCheckErrors(info: ArrayLike<number>, apiName: string, isMatrix: boolean): void {
  let idx = -1;
  for (let i = 0; i < info.length; i++) {
    if (info[i] !== 0) {
      idx = i;
      break;
    }
  }
  if (idx < 0) return;
  const v = info[idx] as number;
  const batchStr = isMatrix ? '' : `: (Batch element ${idx})`;
  if (v < 0) {
    throw new Error(
      `${apiName}${batchStr}: Argument ${-v} has illegal value. Most certainly there is a bug in the implementation calling the backend library.`,
    );
  }
  if (apiName.includes('inv')) {
    throw new Error(
      `${apiName}${batchStr}: The diagonal element ${v} is zero, the inversion could not be completed because the input matrix is singular.`,
    );
  }
  if (apiName.includes('solve')) throw new Error(`${apiName}${batchStr}: The solver failed because the input matrix is singular.`);
  if (apiName.includes('cholesky')) {
    throw new Error(
      `${apiName}${batchStr}: The factorization could not be completed because the input is not positive-definite (the leading minor of order ${v} is not positive-definite).`,
    );
  }
  throw new Error(`${apiName}${batchStr}: Unknown error code: ${v}.`);
}

/** The info values of an int32 tensor. */
export function readInfo(info: Tensor): Int32Array {
  const { data, base } = contiguousOf(info).dataView();
  return Int32Array.from({ length: info.numel() }, (_, i) => data[base + i] as number);
}
