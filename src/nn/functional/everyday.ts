// nn.functional: the everyday functions that torch/nn/functional.py defines in Python or binds
// from torch._C._nn — elu, selu, softplus, hardswish, mish, one_hot, huber_loss, normalize,
// cosine_similarity and pairwise_distance (interpolate is in ./interpolate.ts). Mirrors those
// parts of torch/nn/functional.py: each is the native operator (same grad_fn, Meta kernel and errors) or
// PyTorch's own decomposition.

import type { Tensor } from '../../tensor/Tensor.js';
import * as torch from '../../api/torch.js';
import { parseArgs, type Rest } from '../modules/utils.js';
import type { Reduction } from './loss.js';

// F.softplus, F.one_hot, F.cosine_similarity, F.pairwise_distance are the native bindings themselves
// (torch._C._nn.softplus, torch._C._nn.one_hot, torch.cosine_similarity, torch.pairwise_distance).
export { cosine_similarity, one_hot, pairwise_distance, softplus } from '../../api/torch.js';

/** `F.elu(input, alpha=1.0, inplace=False)`: `torch.elu` / `elu_`. */
export function elu(input: Tensor, ...rest: Rest<[alpha: number, inplace: boolean], { alpha?: number; inplace?: boolean }>): Tensor {
  const { alpha, inplace } = parseArgs('elu', { alpha: 1.0, inplace: false }, rest);
  return inplace ? torch.elu_(input, alpha) : torch.elu(input, alpha);
}

/** `F.selu(input, inplace=False)`: `torch.selu` / `selu_`. */
export function selu(input: Tensor, ...rest: Rest<[inplace: boolean], { inplace?: boolean }>): Tensor {
  const { inplace } = parseArgs('selu', { inplace: false }, rest);
  return inplace ? torch.selu_(input) : torch.selu(input);
}

/** `F.hardswish(input, inplace=False)`: `torch.hardswish` / `hardswish_`. */
export function hardswish(input: Tensor, ...rest: Rest<[inplace: boolean], { inplace?: boolean }>): Tensor {
  const { inplace } = parseArgs('hardswish', { inplace: false }, rest);
  return inplace ? torch.hardswish_(input) : torch.hardswish(input);
}

/** `F.mish(input, inplace=False)`: `torch.mish` / `mish_`. */
export function mish(input: Tensor, ...rest: Rest<[inplace: boolean], { inplace?: boolean }>): Tensor {
  const { inplace } = parseArgs('mish', { inplace: false }, rest);
  return inplace ? torch.mish_(input) : torch.mish(input);
}

/**
 * `F.huber_loss(input, target, reduction='mean', delta=1.0, weight=None)`: the native `huber_loss`; with a
 * weight, PyTorch's Python form (the unreduced loss times weight, then reduced).
 */
export function huber_loss(
  input: Tensor,
  target: Tensor,
  ...rest: Rest<
    [reduction: Reduction, delta: number, weight: Tensor | null],
    { reduction?: Reduction; delta?: number; weight?: Tensor | null }
  >
): Tensor {
  const { reduction, delta, weight } = parseArgs(
    'huber_loss',
    { reduction: 'mean' as Reduction, delta: 1.0, weight: null as Tensor | null },
    rest,
  );
  if (weight === null) return torch.huber_loss(input, target, { reduction, delta });
  if (weight.dim() !== input.dim() || weight.sizes.some((n, i) => n !== input.sizes[i])) {
    throw new Error('Weights and input must have the same size.');
  }
  const weighted = torch.huber_loss(input, target, { reduction: 'none', delta }).mul(weight);
  if (reduction === 'none') return weighted;
  if (reduction === 'sum') return weighted.sum();
  if (reduction === 'mean') return weighted.mean();
  throw new Error(`Invalid reduction mode: ${String(reduction)}. Expected one of 'none', 'mean', 'sum'.`);
}

/**
 * `F.normalize(input, p=2.0, dim=1, eps=1e-12, out=None)`: input / max(‖input‖_p over dim, eps), PyTorch's
 * decomposition (`norm` with keepdim, `clamp_min`, `expand_as`, `div`: grad_fn DivBackward0).
 */
export function normalize(
  input: Tensor,
  ...rest: Rest<[p: number, dim: number, eps: number, out: Tensor | null], { p?: number; dim?: number; eps?: number; out?: Tensor | null }>
): Tensor {
  const { p, dim, eps, out } = parseArgs('normalize', { p: 2.0, dim: 1, eps: 1e-12, out: null as Tensor | null }, rest);
  const norm = torch.norm(input, p, { dim, keepdim: true });
  if (out === null) return input.div(norm.clamp_min(eps).expandAs(input));
  return torch.div(input, norm.clamp_min_(eps).expandAs(input), { out });
}
