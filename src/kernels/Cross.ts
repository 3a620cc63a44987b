// linalg_cross (structured in PyTorch: the meta checks and broadcasting, then the 3-vector products) and cross
// (CompositeImplicitAutograd: linalg_cross over the given dim, or the first of size 3). Mirrors
// aten/src/ATen/native/Cross.cpp and cpu/CrossKernel.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { warnOnce } from '../c10/Warning.js';
import { aten } from '../generated/Operators.js';
import { inferSize } from '../tensor/ExpandUtils.js';
import type { Tensor } from '../tensor/Tensor.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';

/** `linalg_cross(self, other, *, dim=-1)`: a x b along dim (size 3), the batch dimensions broadcast. */
export function linalgCross(_ks: DispatchKeySet, self: Tensor, other: Tensor, dim = -1): Tensor {
  if (self.dim() !== other.dim()) throw new Error('linalg.cross: inputs must have the same number of dimensions.');
  const d = maybeWrapDim(dim, self.dim());
  if (self.sizes[d] !== 3 || other.sizes[d] !== 3) {
    throw new Error(`linalg.cross: inputs dimension ${dim} must have length 3. Got ${self.sizes[d]} and ${other.sizes[d]}`);
  }
  inferSize(self.sizes, other.sizes);
  const ops = aten();
  const comp = (t: Tensor, i: number): Tensor => ops.select_int.call(t, d, i);
  const [a0, a1, a2] = [0, 1, 2].map((i) => comp(self, i)) as [Tensor, Tensor, Tensor];
  const [b0, b1, b2] = [0, 1, 2].map((i) => comp(other, i)) as [Tensor, Tensor, Tensor];
  const c0 = ops.sub_Tensor.call(ops.mul_Tensor.call(a1, b2), ops.mul_Tensor.call(a2, b1), 1);
  const c1 = ops.sub_Tensor.call(ops.mul_Tensor.call(a2, b0), ops.mul_Tensor.call(a0, b2), 1);
  const c2 = ops.sub_Tensor.call(ops.mul_Tensor.call(a0, b1), ops.mul_Tensor.call(a1, b0), 1);
  return ops.stack.call([c0, c1, c2], d);
}

/** `cross(self, other, dim=None)`: without dim, the first dimension of size 3 (deprecated, warns once). */
export function cross(_ks: DispatchKeySet, self: Tensor, other: Tensor, dim: number | null = null): Tensor {
  let d = dim;
  if (d === null) {
    warnOnce(
      'cross_dim',
      'Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the dim explicitly or simply use torch.linalg.cross.\nThe default value of dim will change to agree with that of linalg.cross in a future release.',
    );
    const sizes = inferSize(self.sizes, other.sizes);
    const i = sizes.indexOf(3);
    if (i < 0) throw new Error('no dimension of size 3 in input');
    d = i;
  }
  return aten().linalg_cross.call(self, other, d);
}
