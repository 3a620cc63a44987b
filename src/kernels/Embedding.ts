// embedding (index_select of rows, with PyTorch's checks) and embedding_renorm_. Mirrors
// aten/src/ATen/native/Embedding.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, scalarTypeToString } from '../c10/ScalarType.js';
import type { Tensor } from '../tensor/Tensor.js';
import { aten } from '../generated/Operators.js';
import { wrapScalar } from '../tensor/ScalarOps.js';
import { contiguousOf, elementReader } from './StorageAccess.js';
import { indexSelect } from './TensorAdvancedIndexing.js';
import * as at from '../generated/TensorBody.js';

/** `embedding(weight, indices, padding_idx=-1)`: rows of weight. */
export function embedding(ks: DispatchKeySet, weight: Tensor, indices: Tensor): Tensor {
  if (weight.dim() !== 2) throw new Error("'weight' must be 2-D");
  if (indices.scalarType !== ScalarType.Long && indices.scalarType !== ScalarType.Int) {
    throw new Error(
      `Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.${scalarTypeToString(indices.scalarType)}Tensor instead (while checking arguments for embedding)`,
    );
  }
  const rows = indexSelect(ks, weight, 0, at.reshape(indices, [-1]));
  return at.view(rows, [...indices.sizes, weight.sizes[1] as number]);
}

/** embedding_renorm_'s argument checks (checkDim, checkScalarTypes). */
function checkRenorm(self: Tensor, indices: Tensor): void {
  if (self.dim() !== 2) {
    throw new Error(
      `Expected 2-dimensional tensor, but got ${self.dim()}-dimensional tensor for argument #1 'self' (while checking arguments for embedding_renorm_)`,
    );
  }
  if (indices.scalarType !== ScalarType.Long && indices.scalarType !== ScalarType.Int) {
    throw new Error(
      `Expected tensor for argument #2 'indices' to have one of the following scalar types: Long, Int; but got torch.${scalarTypeToString(indices.scalarType)}Tensor instead (while checking arguments for embedding_renorm_)`,
    );
  }
}

/**
 * `embedding_renorm_(self, indices, max_norm, norm_type)` (embedding_renorm_cpu_): each distinct row of self
 * that indices name, in sorted order, is scaled by max_norm / (norm + 1e-7) when its norm_type-norm exceeds
 * max_norm. F.embedding calls it under no_grad before the lookup.
 */
export function embeddingRenorm_(_ks: DispatchKeySet, self: Tensor, indices: Tensor, maxNorm: number, normType: number): Tensor {
  checkRenorm(self, indices);
  const ops = aten();
  const c = contiguousOf(indices);
  const read = elementReader(c); // (no allocation until the indices are copied out)
  const sorted = Array.from({ length: c.numel() }, (_, i) => read(i)).sort((a, b) => a - b);
  for (let i = 0; i < sorted.length; i++) {
    if (i > 0 && sorted[i] === sorted[i - 1]) continue;
    const row = ops.select_int.call(self, 0, sorted[i] as number);
    const norm = Number(ops._local_scalar_dense.call(ops.norm_Scalar.call(row, normType)));
    if (norm > maxNorm) ops.mul__Tensor.call(row, wrapScalar(maxNorm / (norm + 1e-7), ScalarType.Double));
  }
  return self;
}

/** Meta `embedding_renorm_`: the checks; self is returned unchanged. */
export function embeddingRenormMeta_(_ks: DispatchKeySet, self: Tensor, indices: Tensor): Tensor {
  checkRenorm(self, indices);
  return self;
}
