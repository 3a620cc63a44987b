// The matrix exponential of aten/src/ATen/native/LinearAlgebra.cpp: `linalg_matrix_exp` (CPU and Meta) and the
// older `matrix_exp` that calls it. See Note [Matrix exponential by scaling and squaring].

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import * as at from '../generated/TensorBody.js';
import type { Tensor } from '../tensor/Tensor.js';
import {
  checkFloatingOrComplex,
  checkKernelDtype,
  newContiguous,
  readMatrices,
  squareCheckInputs,
  writeMatrices,
} from './LinearAlgebraUtils.js';

// Note [Matrix exponential by scaling and squaring]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch picks a Taylor polynomial of degree 1, 2, 4, 8, 12 or 18 by the 1-norm of A (Bader, Blanes and
// Casas, "Computing the matrix exponential with an optimized Taylor polynomial approximation", 2019) and squares
// the result back when A was scaled by 2^-s. Here each matrix is computed in float64 (See Note [Float64 matrix
// kernels]) with the degree-18 Taylor polynomial of A / 2^s, s chosen so that ‖A / 2^s‖₁ <= 1/2, then squared
// s times: the truncation error is below 1e-22, so the values are within a few ulps of PyTorch's double
// results and rounded once for float32.

function matmulSquare(a: Float64Array, b: Float64Array, n: number): Float64Array {
  const c = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < n; k++) {
      const aik = a[i * n + k] as number;
      if (aik === 0) continue;
      for (let j = 0; j < n; j++) c[i * n + j] = (c[i * n + j] as number) + aik * (b[k * n + j] as number);
    }
  }
  return c;
}

/** exp of the n×n row-major `a`. */
export function matrixExp(a: Float64Array, n: number): Float64Array {
  let norm = 0;
  for (let j = 0; j < n; j++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += Math.abs(a[i * n + j] as number);
    norm = Math.max(norm, s);
  }
  if (!Number.isFinite(norm)) return new Float64Array(n * n).fill(NaN);
  const s = norm > 0.5 ? Math.ceil(Math.log2(norm / 0.5)) : 0;
  const scale = 2 ** -s;
  const x = Float64Array.from(a, (v) => v * scale);
  // Horner: I + X (I + X/2 (I + X/3 (... (I + X/18))))
  let p: Float64Array = new Float64Array(n * n);
  for (let i = 0; i < n; i++) p[i * n + i] = 1;
  for (let k = 18; k >= 1; k--) {
    const xp = matmulSquare(x, p, n);
    p = Float64Array.from(xp, (v) => v / k);
    for (let i = 0; i < n; i++) p[i * n + i] = (p[i * n + i] as number) + 1;
  }
  for (let i = 0; i < s; i++) p = matmulSquare(p, p, n);
  return p;
}

/** `linalg_matrix_exp(self)`: CPU and Meta. */
export function linalgMatrixExp(_ks: DispatchKeySet, self: Tensor): Tensor {
  squareCheckInputs(self, 'linalg.matrix_exp');
  checkFloatingOrComplex(self, 'linalg.matrix_exp');
  const out = newContiguous(self.sizes, self.scalarType, self);
  if (self.isMeta() || self.numel() === 0) return out;
  checkKernelDtype(self, 'linalg_matrix_exp_cpu');
  const n = self.sizes[self.dim() - 1] as number;
  writeMatrices(
    out,
    readMatrices(self).map((m) => matrixExp(m, n)),
  );
  return out;
}

/** `matrix_exp(self)`: `linalg_matrix_exp`. */
export function matrixExpOp(_ks: DispatchKeySet, self: Tensor): Tensor {
  return at.linalg_matrix_exp(self);
}
