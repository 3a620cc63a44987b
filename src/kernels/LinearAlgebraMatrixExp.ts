// The matrix exponential of aten/src/ATen/native/LinearAlgebra.cpp: `linalg_matrix_exp` (CPU and Meta) and the
// older `matrix_exp` that calls it. See Note [Matrix exponential by scaling and squaring].

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType } from '../c10/ScalarType.js';
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
// As PyTorch's `mexp` (Bader, Blanes and Casas, "Computing the matrix exponential with an optimized Taylor
// polynomial approximation", 2019): the 1-norm of A picks a Taylor polynomial of degree 1, 2, 4, 8, 12 or 18
// against the thetas of the input's dtype; above the last-but-one theta, A is scaled by 2^-s
// (s = ceil(log2(‖A‖₁ / θ18))), the degree-18 polynomial evaluated and squared s times. Each step runs in the
// input's dtype (every float32 product and sum rounded with Math.fround, a matmul accumulating k in order):
// with a large norm the squarings amplify the polynomial's rounding, so a float64 evaluation rounded once
// lands further from PyTorch's float32 result than its tolerance allows.

type Round = (v: number) => number;
const f32: Round = Math.fround;
const f64: Round = (v) => v;

const THETAS_FLOAT = [
  1.192092800768788e-7, 5.978858893805233e-4, 5.116619363445086e-2, 5.800524627688768e-1, 1.461661507209034, 3.010066362817634,
];
const THETAS_DOUBLE = [
  2.220446049250313e-16, 2.580956802971767e-8, 3.397168839976962e-4, 4.991228871115323e-2, 2.99615891381158e-1, 1.090863719290036,
];

const SQRT_177 = 13.30413469565007;
const X3 = 2 / 3;
const T8 = {
  x1: X3 * ((1 + SQRT_177) / 88),
  x2: X3 * ((1 + SQRT_177) / 352),
  x4: (-271 + 29 * SQRT_177) / (315 * X3),
  x5: (-11 + 11 * SQRT_177) / (1260 * X3),
  x6: (-99 + 11 * SQRT_177) / (5040 * X3),
  x7: (89 - SQRT_177) / (5040 * X3),
  y2: (857 - 58 * SQRT_177) / 630,
};
const B12 = [
  [9.0198e-16, 0.4693211759541824, -0.20099424927047285, -0.04623946134063072],
  [5.315978957598713, 1.1992679041713223, 0.01179296240992997, 0.01108844528519168],
  [0.18188869982170436, 0.05502798439925399, 0.09351590770535415, 0.006107005288980582],
  [-2.086132e-13, -0.13181061013830184, -0.02027855540589259, -0.006759518468630863],
];
const B18 = [
  [0, -0.10036558103014462, -0.00802924648241157, -0.00089213849804573, 0],
  [0, 0.3978497494996451, 1.3678377846041172, 0.49828962252538267, -0.0006378981945947233],
  [-10.967639605296206, 1.680158138789062, 0.05717798464788655, -0.0069821012248805206, 3.349750170860705e-5],
  [-0.09043168323908106, -0.06764045190713819, 0.06759613017704597, 0.029555257042931552, -1.391802575160607e-5],
  [0, 0, -0.09233646193671186, -0.016936493900208172, -1.400867981820361e-5],
];

function matmul(a: Float64Array, b: Float64Array, n: number, r: Round): Float64Array {
  const c = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let acc = 0;
      for (let k = 0; k < n; k++) acc = r(acc + r((a[i * n + k] as number) * (b[k * n + j] as number)));
      c[i * n + j] = acc;
    }
  }
  return c;
}

/** Σ_j coeffs[j]·mats[j], accumulated in order in the dtype (PyTorch's _compute_linear_combination). */
function combine(mats: readonly Float64Array[], coeffs: readonly number[], r: Round): Float64Array {
  const out = new Float64Array((mats[0] as Float64Array).length);
  coeffs.forEach((c0, j) => {
    const c = r(c0);
    const m = mats[j] as Float64Array;
    for (let e = 0; e < out.length; e++) out[e] = r((out[e] as number) + r((m[e] as number) * c));
  });
  return out;
}

function addInto(a: Float64Array, b: Float64Array, r: Round): Float64Array {
  for (let e = 0; e < a.length; e++) a[e] = r((a[e] as number) + (b[e] as number));
  return a;
}

/** {I, A, A², A³, A⁶}, the first `count` of them (PyTorch's _fill_matrix_powers). */
function powers(a: Float64Array, n: number, count: number, r: Round): Float64Array[] {
  const eye = new Float64Array(n * n);
  for (let i = 0; i < n; i++) eye[i * n + i] = 1;
  const p = [eye, a];
  if (count > 2) p.push(matmul(a, a, n, r));
  if (count > 3) p.push(matmul(a, p[2] as Float64Array, n, r));
  if (count > 4) p.push(matmul(p[3] as Float64Array, p[3] as Float64Array, n, r));
  return p;
}

function taylor(a: Float64Array, n: number, degree: number, r: Round): Float64Array {
  if (degree <= 2) {
    const [eye, x, x2] = powers(a, n, degree + 1, r) as [Float64Array, Float64Array, Float64Array?];
    const out = addInto(Float64Array.from(eye), x, r);
    return x2 === undefined
      ? out
      : addInto(
          out,
          x2.map((v) => r(v / 2)),
          r,
        );
  }
  if (degree === 4) {
    const p = powers(a, n, 3, r);
    const a2 = matmul(p[2] as Float64Array, combine(p, [1 / 2, 1 / 6, 1 / 24], r), n, r);
    return combine([...p, a2], [1, 1, 0, 1], r);
  }
  if (degree === 8) {
    const p = powers(a, n, 3, r);
    const a4 = matmul(p[2] as Float64Array, combine(p.slice(1), [T8.x1, T8.x2], r), n, r);
    const p4 = [...p, a4];
    const a8 = matmul(combine(p4.slice(2), [X3, 1], r), combine(p4, [T8.x4, T8.x5, T8.x6, T8.x7], r), n, r);
    return combine([...p4, a8], [1, 1, T8.y2, 0, 1], r);
  }
  const b = degree === 12 ? B12 : B18;
  const p = powers(a, n, b.length, r);
  const bs = b.map((row) => combine(p, row, r));
  const [b0, b1, b2, b3] = bs as [Float64Array, Float64Array, Float64Array, Float64Array];
  if (degree === 12) {
    addInto(b2, matmul(b3, b3, n, r), r);
    return addInto(b0, matmul(addInto(b1, b2, r), b2, n, r), r);
  }
  addInto(b3, matmul(b0, bs[4] as Float64Array, n, r), r);
  return addInto(b1, matmul(addInto(b2, b3, r), b3, n, r), r);
}

/** exp of the n×n row-major `a`, computed in float32 (`single`) or float64 arithmetic. */
export function matrixExp(a: Float64Array, n: number, single = false): Float64Array {
  const r = single ? f32 : f64;
  const thetas = (single ? THETAS_FLOAT : THETAS_DOUBLE).map(r);
  if (n === 1) return Float64Array.of(r(Math.exp(a[0] as number)));
  let norm = -Infinity;
  for (let j = 0; j < n; j++) {
    let s = 0;
    for (let i = 0; i < n; i++) s = r(s + Math.abs(a[i * n + j] as number));
    norm = Number.isNaN(s) || Number.isNaN(norm) ? NaN : Math.max(norm, s);
  }
  const degrees = [1, 2, 4, 8, 12];
  for (let i = 0; i < degrees.length; i++) {
    const lower = i === 0 ? -1 : (thetas[i - 1] as number);
    if (lower < norm && norm <= (thetas[i] as number)) return taylor(a, n, degrees[i] as number, r);
  }
  if (!Number.isFinite(norm)) return new Float64Array(n * n).fill(NaN);
  const s = Math.max(0, Math.ceil(Math.log2(r(norm / (thetas[5] as number)))));
  const scale = 2 ** s;
  let p = taylor(
    a.map((v) => r(v / scale)),
    n,
    18,
    r,
  );
  for (let i = 0; i < s; i++) p = matmul(p, p, n, r);
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
    readMatrices(self).map((m) => matrixExp(m, n, self.scalarType === ScalarType.Float)),
  );
  return out;
}

/** `matrix_exp(self)`: `linalg_matrix_exp`. */
export function matrixExpOp(_ks: DispatchKeySet, self: Tensor): Tensor {
  return at.linalg_matrix_exp(self);
}
