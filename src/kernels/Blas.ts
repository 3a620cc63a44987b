// Vector products: dot and mv, with PyTorch's checks in PyTorch's order. Mirrors aten/src/ATen/native/Blas.cpp
// (dot_check, mv through addmv's dtype check); the products themselves are mm's (LinearAlgebra.ts).

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { scalarTypeToString } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';
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
