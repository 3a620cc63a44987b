// embedding (index_select of rows, with PyTorch's checks). Mirrors aten/src/ATen/native/Embedding.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, scalarTypeToString } from '../c10/ScalarType.js';
import type { Tensor } from '../tensor/Tensor.js';
import { indexSelect } from './TensorAdvancedIndexing.js';

/** `embedding(weight, indices, padding_idx=-1)`: rows of weight. */
export function embedding(ks: DispatchKeySet, weight: Tensor, indices: Tensor): Tensor {
  if (weight.dim() !== 2) throw new Error("'weight' must be 2-D");
  if (indices.scalarType !== ScalarType.Long && indices.scalarType !== ScalarType.Int) {
    throw new Error(
      `Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.${scalarTypeToString(indices.scalarType)}Tensor instead (while checking arguments for embedding)`,
    );
  }
  const rows = indexSelect(ks, weight, 0, indices.reshape(-1));
  return rows.view([...indices.sizes, weight.sizes[1] as number]);
}
