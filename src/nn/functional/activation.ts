// nn.functional: linear maps, activations, dropout, embedding. Mirrors the matching parts of
// torch/nn/functional.py (see ../functional.ts for the whole namespace).

import { noGrad } from '../../autograd/grad_mode.js';
import type { Tensor } from '../../tensor/Tensor.js';
import * as torch from '../../api/torch.js';
import { parseArgs, type Rest } from '../modules/utils.js';

/** `F.prelu(input, weight)`: max(0, x) + weight·min(0, x), the weight per channel (dim 1) or one for all (`torch.prelu`). */
export function prelu(input: Tensor, weight: Tensor): Tensor {
  return torch.prelu(input, weight);
}

/** `F.linear(input, weight, bias=None)`: input @ weightᵀ + bias. */
export function linear(input: Tensor, weight: Tensor, bias: Tensor | null = null): Tensor {
  return torch.linear(input, weight, bias);
}

/**
 * `F.bilinear(input1, input2, weight, bias=None)`: y[.., o] = x1ᵀ W[o] x2 + b[o], as aten::bilinear (Linear.cpp):
 * inputs flattened to 2-D, their product with the weight (PyTorch's `_trilinear`, here mm then a batched
 * matmul, which keep an integer dtype), reshaped to the inputs' batch shape, then `+ bias` (AddBackward0).
 */
export function bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias: Tensor | null = null): Tensor {
  const d = input1.dim();
  if (d !== input2.dim()) throw new Error(`bilinear(): input dimensions do not match: got ${d} and ${input2.dim()}`);
  for (let i = 0; i < d - 1; i++) {
    if (input1.sizes[i] !== input2.sizes[i])
      throw new Error(`bilinear(): input batch dimensions do not match at dim ${i}: got ${input1.sizes[i]} and ${input2.sizes[i]}`);
  }
  const [o, i, j] = weight.sizes as [number, number, number];
  if (input1.sizes[d - 1] !== i)
    throw new Error(`bilinear(): input1 size does not match weight size: got ${input1.sizes[d - 1]} but expected ${i}`);
  if (input2.sizes[d - 1] !== j)
    throw new Error(`bilinear(): input2 size does not match weight size: got ${input2.sizes[d - 1]} but expected ${j}`);
  if (bias !== null && bias.sizes[0] !== o)
    throw new Error(`bilinear(): bias size does not match weight size: got ${bias.sizes[0]} but expected ${o}`);
  const x1 = input1.reshape(-1, i);
  const x2 = input2.reshape(-1, j);
  // x1 · W viewed as (i, o·j), then each row's (o, j) block times x2's row.
  const t = x1.mm(weight.permute(1, 0, 2).reshape(i, o * j)).view(-1, o, j);
  const y = t
    .matmul(x2.unsqueeze(-1))
    .squeeze(-1)
    .reshape([...input1.sizes.slice(0, -1), o]);
  return bias === null ? y : y.add(bias);
}

/** `F.relu(input, inplace=False)`. */
export function relu(input: Tensor, inplace = false): Tensor {
  return inplace ? input.relu_() : input.relu();
}

/** `F.leaky_relu(input, negative_slope=0.01, inplace=False)`: `torch.leaky_relu` / `leaky_relu_`. */
export function leaky_relu(
  input: Tensor,
  ...rest: Rest<[negative_slope: number, inplace: boolean], { negative_slope?: number; inplace?: boolean }>
): Tensor {
  const { negative_slope, inplace } = parseArgs('leaky_relu', { negative_slope: 0.01, inplace: false }, rest);
  return inplace ? torch.leaky_relu_(input, negative_slope) : torch.leaky_relu(input, negative_slope);
}

/** `F.hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False)`: `torch.hardtanh` / `hardtanh_`. */
export function hardtanh(
  input: Tensor,
  ...rest: Rest<[min_val: number, max_val: number, inplace: boolean], { min_val?: number; max_val?: number; inplace?: boolean }>
): Tensor {
  const { min_val, max_val, inplace } = parseArgs('hardtanh', { min_val: -1.0, max_val: 1.0, inplace: false }, rest);
  if (min_val > max_val) throw new Error('min_val cannot be greater than max_val');
  return inplace ? torch.hardtanh_(input, min_val, max_val) : torch.hardtanh(input, min_val, max_val);
}

/** `F.gelu(input, approximate='none')`. */
export function gelu(input: Tensor, options: { approximate?: string } = {}): Tensor {
  const { approximate } = parseArgs('gelu', { approximate: 'none' }, [options]);
  return torch.gelu(input, { approximate });
}

/** `F.silu(input, inplace=False)`. */
export function silu(input: Tensor, inplace = false): Tensor {
  return inplace ? torch.silu_(input) : torch.silu(input);
}

/** `F.tanh(input)`. */
export function tanh(input: Tensor): Tensor {
  return input.tanh();
}

/** `F.sigmoid(input)`. */
export function sigmoid(input: Tensor): Tensor {
  return input.sigmoid();
}

/** PyTorch's `_get_softmax_dim`: the implicit dim of the deprecated dim=None call. */
function softmaxDim(name: string, ndim: number): number {
  // PyTorch warns "Implicit dimension choice for softmax has been deprecated"; the choice is the same.
  void name;
  return ndim === 0 || ndim === 1 || ndim === 3 ? 0 : 1;
}

/** `F.softmax(input, dim=None, dtype=None)`. */
export function softmax(
  input: Tensor,
  ...rest: Rest<[dim: number | null, dtype: string | null], { dim?: number | null; dtype?: string | null }>
): Tensor {
  const { dim, dtype } = parseArgs('softmax', { dim: null as number | null, dtype: null as string | null }, rest);
  return input.softmax(dim ?? softmaxDim('softmax', input.dim()), dtype);
}

/** `F.log_softmax(input, dim=None, dtype=None)`. */
export function log_softmax(
  input: Tensor,
  ...rest: Rest<[dim: number | null, dtype: string | null], { dim?: number | null; dtype?: string | null }>
): Tensor {
  const { dim, dtype } = parseArgs('log_softmax', { dim: null as number | null, dtype: null as string | null }, rest);
  return input.log_softmax(dim ?? softmaxDim('log_softmax', input.dim()), dtype);
}

/** `F.dropout(input, p=0.5, training=True, inplace=False)`: PyTorch's mask for the same generator state. */
export function dropout(
  input: Tensor,
  ...rest: Rest<[p: number, training: boolean, inplace: boolean], { p?: number; training?: boolean; inplace?: boolean }>
): Tensor {
  const { p, training, inplace } = parseArgs('dropout', { p: 0.5, training: true, inplace: false }, rest);
  if (p < 0 || p > 1) throw new Error(`dropout probability has to be between 0 and 1, but got ${p}`);
  const out = torch.dropout(input, p, training);
  return inplace && out !== input ? noGrad(() => input.copy_(out)) : out;
}

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
