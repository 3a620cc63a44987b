// glu of aten/src/ATen/native/GatedLinearUnit.cpp (glu_meta's checks and texts): the first half of `dim`
// times the sigmoid of the second half.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import * as at from '../generated/TensorBody.js';
import type { Tensor } from '../tensor/Tensor.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';

/** glu_meta: the halves of `dim` (its size must be even). */
export function gluHalves(self: Tensor, dim: number): [Tensor, Tensor, number] {
  if (self.dim() === 0) throw new Error('glu does not support scalars because halving size must be even');
  const d = maybeWrapDim(dim, self.dim());
  const n = self.sizes[d] as number;
  if (n % 2 !== 0) throw new Error(`Halving dimension must be even, but dimension ${d} is size ${n}`);
  return [at.narrow(self, d, 0, n / 2), at.narrow(self, d, n / 2, n / 2), d];
}

/** `glu(self, dim=-1)`. */
export function glu(_ks: DispatchKeySet, self: Tensor, dim = -1): Tensor {
  const [a, b] = gluHalves(self, dim);
  return at.mul_Tensor(a, at.sigmoid(b));
}
