// cartesian_prod and combinations (CompositeImplicitAutograd): meshgrids of the input, flattened or masked,
// stacked. Mirrors aten/src/ATen/native/Itertools.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import * as at from '../generated/TensorBody.js';
import { formatSizes } from '../tensor/ExpandUtils.js';
import type { Tensor } from '../tensor/Tensor.js';

/** `cartesian_prod(tensors)`: every combination of one element of each 1-d tensor, one per row. */
export function cartesianProd(_ks: DispatchKeySet, tensors: Tensor[]): Tensor {
  for (const t of tensors) if (t.dim() !== 1) throw new Error(`Expect a 1D vector, but got shape ${formatSizes(t.sizes)}`);
  if (tensors.length === 1) return tensors[0] as Tensor;
  const ops = aten();
  const grids = ops.meshgrid_indexing.call(tensors, 'ij').map((g) => ops.flatten_using_ints.call(g, 0, -1));
  return ops.stack.call(grids, 1);
}

/** _triu_mask: true where the n-dim grid's indices increase (strictly, or not without `withReplacement`). */
function triuMask(n: number, dims: number, withReplacement: boolean, like: Tensor): Tensor {
  const ops = aten();
  const range = ops.arange_start_step.call(0, n, 1, ScalarType.Long, null, like.device, null);
  const grids = ops.meshgrid_indexing.call(new Array<Tensor>(dims).fill(range), 'ij');
  let mask = ops.full.call([...(grids[0] as Tensor).sizes], true, ScalarType.Bool, null, like.device, null);
  for (let i = 0; i < dims - 1; i++) {
    const [a, b] = [grids[i] as Tensor, grids[i + 1] as Tensor];
    mask = ops.mul_Tensor.call(mask, withReplacement ? at.le_Tensor(a, b) : at.lt_Tensor(a, b));
  }
  return mask;
}

/** `combinations(self, r=2, with_replacement=False)`: itertools.combinations of a 1-d tensor's elements. */
export function combinations(_ks: DispatchKeySet, self: Tensor, r = 2, withReplacement = false): Tensor {
  if (self.dim() !== 1) throw new Error(`Expect a 1D vector, but got shape ${formatSizes(self.sizes)}`);
  if (r < 0) throw new Error(`Expect a non-negative number, but got ${r}`);
  const ops = aten();
  if (r === 0) return ops.empty_memory_format.call([0], self.scalarType, null, self.device, null, null);
  const grids = ops.meshgrid_indexing.call(new Array<Tensor>(r).fill(self), 'ij');
  const mask = triuMask(self.numel(), r, withReplacement, self);
  return ops.stack.call(
    grids.map((g) => ops.masked_select.call(g, mask)),
    1,
  );
}
