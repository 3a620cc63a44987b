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

interface EmbeddingBagOptions {
  offsets?: Tensor | null;
  max_norm?: number | null;
  norm_type?: number;
  scale_grad_by_freq?: boolean;
  mode?: string;
  sparse?: boolean;
  per_sample_weights?: Tensor | null;
  include_last_offset?: boolean;
  padding_idx?: number | null;
}

const sizeRepr = (t: Tensor): string => `torch.Size([${t.sizes.join(', ')}])`;

/**
 * `F.embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False,
 * mode='mean', sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None)`: a 2-d
 * input is a batch of fixed-length bags (offsets made with arange); then torch.embedding_bag's output.
 */
export function embedding_bag(
  input: Tensor,
  weight: Tensor,
  ...rest: Rest<
    [
      offsets: Tensor | null,
      max_norm: number | null,
      norm_type: number,
      scale_grad_by_freq: boolean,
      mode: string,
      sparse: boolean,
      per_sample_weights: Tensor | null,
      include_last_offset: boolean,
      padding_idx: number | null,
    ],
    EmbeddingBagOptions
  >
): Tensor {
  const a = parseArgs(
    'embedding_bag',
    {
      offsets: null as Tensor | null,
      max_norm: null as number | null,
      norm_type: 2,
      scale_grad_by_freq: false,
      mode: 'mean',
      sparse: false,
      per_sample_weights: null as Tensor | null,
      include_last_offset: false,
      padding_idx: null as number | null,
    },
    rest,
  );
  let { offsets, per_sample_weights: psw, include_last_offset: includeLast } = a;
  if (psw !== null && (psw.dim() !== input.dim() || psw.sizes.some((s, i) => s !== input.sizes[i]))) {
    throw new Error(
      `embedding_bag: If per_sample_weights (${sizeRepr(psw)}) is not None, then it must have the same shape as the input (${sizeRepr(input)})`,
    );
  }
  if (weight.dim() !== 2) throw new Error(`weight has to be a 2D Tensor, but got Tensor of dimension ${weight.dim()}`);
  let idx = input;
  if (input.dim() === 2) {
    if (offsets !== null) {
      throw new Error(
        "if input is 2D, then offsets has to be None, as input is treated is a mini-batch of fixed length sequences. However, found offsets of type <class 'torch.Tensor'>",
      );
    }
    offsets = torch.arange(0, input.numel(), input.sizes[1] as number, { dtype: input.dtype, device: input.device });
    includeLast = false;
    idx = input.reshape(-1);
    if (psw !== null) psw = psw.reshape(-1);
  } else if (input.dim() === 1) {
    if (offsets === null) throw new Error('offsets has to be a 1D Tensor but got None');
    if (offsets.dim() !== 1) throw new Error('offsets has to be a 1D Tensor');
  } else {
    throw new Error(`input has to be 1D or 2D Tensor, but got Tensor of dimension ${input.dim()}`);
  }
  const modes = ['sum', 'mean', 'max'];
  const modeEnum = modes.indexOf(a.mode);
  if (modeEnum < 0) throw new Error('mode has to be one of sum, mean or max');
  if (modeEnum === 2) {
    if (a.scale_grad_by_freq) throw new Error('max mode does not support scaling the gradient by the frequency');
    if (a.sparse) throw new Error('max mode does not support sparse weights');
  }
  if (a.max_norm !== null) {
    const maxNorm = a.max_norm;
    const renormIdx = idx.contiguous();
    noGrad(() => torch.embedding_renorm_(weight, renormIdx, maxNorm, a.norm_type));
  }
  if (psw !== null && a.mode !== 'sum') {
    throw new Error(
      `embedding_bag: per_sample_weights was not None. per_sample_weights is only supported for mode='sum' (got mode='${a.mode}'). Please open a feature request on GitHub.`,
    );
  }
  if (a.sparse) throw new Error('F.embedding_bag: sparse=True is not supported (aten-ts has no sparse tensors)');
  const [ret] = torch.embedding_bag(weight, idx, offsets, a.scale_grad_by_freq, modeEnum, a.sparse, psw, includeLast, a.padding_idx);
  return ret;
}
