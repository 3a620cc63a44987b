// nn.functional: the sparse functions, embedding and one_hot. Mirrors the matching part of
// torch/nn/functional.py (its "Sparse functions"; aten-ts has no sparse tensors, so sparse=True is refused).

import { noGrad } from '../../autograd/grad_mode.js';
import type { Tensor } from '../../tensor/Tensor.js';
import * as torch from '../../api/torch.js';
import { parseArgs, type Rest } from '../modules/utils.js';

// F.one_hot is the native binding itself (torch._C._nn.one_hot).
export { one_hot } from '../../api/torch.js';

/**
 * `F.embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
 * sparse=False)`; with max_norm, `embedding_renorm_` of weight (in place, without autograd) first.
 */
export function embedding(
  input: Tensor,
  weight: Tensor,
  ...rest: Rest<
    [padding_idx: number | null, max_norm: number | null, norm_type: number, scale_grad_by_freq: boolean, sparse: boolean],
    { padding_idx?: number | null; max_norm?: number | null; norm_type?: number; scale_grad_by_freq?: boolean; sparse?: boolean }
  >
): Tensor {
  const a = parseArgs(
    'embedding',
    { padding_idx: null as number | null, max_norm: null as number | null, norm_type: 2.0, scale_grad_by_freq: false, sparse: false },
    rest,
  );
  let paddingIdx = a.padding_idx;
  const n = weight.sizes[0] as number;
  if (paddingIdx !== null) {
    if (paddingIdx > 0 && paddingIdx >= n) throw new Error('Padding_idx must be within num_embeddings');
    if (paddingIdx < 0) {
      if (paddingIdx < -n) throw new Error('Padding_idx must be within num_embeddings');
      paddingIdx = n + paddingIdx;
    }
  }
  if (a.max_norm !== null) {
    // _no_grad_embedding_renorm_: the rows that input names are renormalised in place, outside autograd
    const idx = input.contiguous();
    const maxNorm = a.max_norm;
    noGrad(() => torch.embedding_renorm_(weight, idx, maxNorm, a.norm_type));
  }
  if (a.sparse) throw new Error('F.embedding: sparse=True is not supported (aten-ts has no sparse tensors)');
  return torch.embedding(weight, input, paddingIdx ?? -1, a.scale_grad_by_freq, false);
}
