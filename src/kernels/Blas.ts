// Vector products: dot, vdot, mv and addmv (structured, as PyTorch's), with PyTorch's checks in PyTorch's order.
// Mirrors aten/src/ATen/native/Blas.cpp (dot_check, addmv's meta and addmv_out_cpu, mv through addmv's dtype
// check); the products themselves are mm's (LinearAlgebra.ts).

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { isIntegralType, scalarTypeToString } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';
import { wrapScalar } from '../tensor/ScalarOps.js';
import type { StructuredOutputsKernel } from './TensorMeta.js';
import { mm } from './LinearAlgebra.js';
import * as at from '../generated/TensorBody.js';

/** `dot(self, tensor)`: 1-D · 1-D; PyTorch's dot_check order (dims, then dtypes, then sizes). */
export function dot(_ks: DispatchKeySet, self: Tensor, other: Tensor): Tensor {
  if (self.dim() !== 1 || other.dim() !== 1) {
    throw new Error(`1D tensors expected, but got ${self.dim()}D and ${other.dim()}D tensors`);
  }
  if (self.scalarType !== other.scalarType) {
    throw new Error(
      `dot : expected both vectors to have same dtype, but found ${scalarTypeToString(self.scalarType)} and ${scalarTypeToString(other.scalarType)}`,
    );
  }
  if (self.numel() !== other.numel()) {
    throw new Error(
      `inconsistent tensor size, expected tensor [${self.numel()}] and src [${other.numel()}] to have the same number of ` +
        `elements, but got ${self.numel()} and ${other.numel()} elements respectively`,
    );
  }
  return aten().reshape.call(mm(_ks, at.reshape(self, [1, -1]), at.reshape(other, [-1, 1])), []);
}

/** `mv(self, vec)`: [n, k] × [k]. */
export function mv(ks: DispatchKeySet, self: Tensor, vec: Tensor): Tensor {
  if (self.dim() !== 2 || vec.dim() !== 1) {
    throw new Error(`vector + matrix @ vector expected, got 1, ${self.dim()}, ${vec.dim()}`);
  }
  if (self.sizes[1] !== vec.sizes[0]) {
    throw new Error(`size mismatch, got input (${self.sizes[0]}), mat (${self.sizes[0]}x${self.sizes[1]}), vec (${vec.sizes[0]})`);
  }
  if (self.scalarType !== vec.scalarType) {
    // PyTorch's mv runs addmv into a result of vec's dtype, which checks (result, mat, vec).
    const [r, a, v] = [vec.scalarType, self.scalarType, vec.scalarType].map(scalarTypeToString);
    throw new Error(`addmv input tensors must have the same dtype, but got ${r}, ${a}, and ${v}`);
  }
  return at.reshape(mm(ks, self, at.reshape(vec, [-1, 1])), [-1]);
}

/** `vdot(self, other)`: dot with self conjugated (dot's checks and texts; for real dtypes, dot). */
export function vdot(ks: DispatchKeySet, self: Tensor, other: Tensor): Tensor {
  return dot(ks, self.isComplex() ? at.conj_physical(self) : self, other);
}

type AddmvArgs = [self: Tensor, mat: Tensor, vec: Tensor, beta: number | boolean, alpha: number | boolean];

/**
 * `addmv.out` (structured, MetaBase; addmv and addmv_ delegate to it): beta·self + alpha·(mat @ vec), self a
 * vector of mat's rows or one element. With beta = 0 self's values (NaN included) are ignored, as BLAS's gemv.
 */
export const addmvStructured: StructuredOutputsKernel<AddmvArgs> = {
  meta: (_outs, self, mat, vec) => {
    if (!(mat.dim() === 2 && vec.dim() === 1 && self.dim() <= 1)) {
      throw new Error(`vector + matrix @ vector expected, got ${self.dim()}, ${mat.dim()}, ${vec.dim()}`);
    }
    const [m, k] = [mat.sizes[0] as number, mat.sizes[1] as number];
    if (!(k === vec.sizes[0] && (m === self.numel() || self.numel() === 1))) {
      throw new Error(`size mismatch, got input (${self.sizes[0] ?? 1}), mat (${m}x${k}), vec (${vec.sizes[0]})`);
    }
    return { outputs: [{ sizes: [m], dtype: vec.scalarType, device: vec.device }], precomputed: undefined };
  },
  impl: (outs, self, mat, vec, beta, alpha) => {
    const result = outs[0] as Tensor;
    if (self.scalarType !== mat.scalarType || mat.scalarType !== vec.scalarType) {
      const [r, a, v] = [self.scalarType, mat.scalarType, vec.scalarType].map(scalarTypeToString);
      throw new Error(`addmv input tensors must have the same dtype, but got ${r}, ${a}, and ${v}`);
    }
    if (result.isMeta()) return;
    const bias = at.expand(self, [mat.sizes[0] as number]);
    // integral tensors take beta and alpha as scalar_t (truncated), as the gemv does; beta = 0 (as given) skips self
    if (isIntegralType(mat.scalarType, true) && Number(beta) !== 0) [beta, alpha] = [Math.trunc(Number(beta)), Math.trunc(Number(alpha))];
    if (mat.numel() === 0) {
      // an empty product: beta·self (zeros when beta = 0)
      if (Number(beta) === 0) at.zero_(result);
      else at.copy_(result, at.mul_Tensor(bias, wrapScalar(beta)));
      return;
    }
    const prod = at.mv(mat, vec);
    const scaled = Number(alpha) === 1 ? prod : at.mul_Tensor(prod, wrapScalar(alpha));
    const sum = Number(beta) === 0 ? scaled : at.add_Tensor(Number(beta) === 1 ? bias : at.mul_Tensor(bias, wrapScalar(beta)), scaled);
    at.copy_(result, sum);
  },
};
