// nn.functional: the normalization functions batch_norm, layer_norm, rms_norm, group_norm, instance_norm,
// local_response_norm and normalize.
// Mirrors the matching parts of torch/nn/functional.py. Each binds PyTorch's Python signature and calls the
// native operator (torch.batch_norm, torch.layer_norm, torch.group_norm), so autograd records PyTorch's nodes;
// normalize is PyTorch's decomposition.

import type { Tensor } from '../../tensor/Tensor.js';
import * as torch from '../../api/torch.js';
import { parseArgs, type Rest } from '../modules/utils.js';

/**
 * `F.batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1,
 * eps=1e-5)`: `_verify_batch_size` when training, then `torch.batch_norm` (native_batch_norm: batch statistics
 * in training, running ones updated in place; `grad_fn=<NativeBatchNormBackward0>`).
 */
export function batch_norm(
  input: Tensor,
  running_mean: Tensor | null,
  running_var: Tensor | null,
  ...rest: Rest<
    [weight: Tensor | null, bias: Tensor | null, training: boolean, momentum: number, eps: number],
    { weight?: Tensor | null; bias?: Tensor | null; training?: boolean; momentum?: number; eps?: number }
  >
): Tensor {
  const a = parseArgs(
    'batch_norm',
    { weight: null as Tensor | null, bias: null as Tensor | null, training: false, momentum: 0.1, eps: 1e-5 },
    rest,
  );
  if (a.training) verifyBatchSize(input.sizes);
  return torch.batch_norm(input, a.weight, a.bias, running_mean, running_var, a.training, a.momentum, a.eps, true);
}

/** `_verify_batch_size`: training statistics need more than one value per channel. */
function verifyBatchSize(size: readonly number[]): void {
  let count = size[0] as number;
  for (let i = 2; i < size.length; i++) count *= size[i] as number;
  if (count === 1) throw new Error(`Expected more than 1 value per channel when training, got input size torch.Size([${size.join(', ')}])`);
}

/** `F.layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5)`. */
export function layer_norm(
  input: Tensor,
  normalized_shape: readonly number[],
  ...rest: Rest<[weight: Tensor | null, bias: Tensor | null, eps: number], { weight?: Tensor | null; bias?: Tensor | null; eps?: number }>
): Tensor {
  const a = parseArgs('layer_norm', { weight: null as Tensor | null, bias: null as Tensor | null, eps: 1e-5 }, rest);
  return torch.layer_norm(input, normalized_shape, a.weight, a.bias, a.eps);
}

/** `F.group_norm(input, num_groups, weight=None, bias=None, eps=1e-5)`: `torch.group_norm` (native_group_norm). */
export function group_norm(
  input: Tensor,
  num_groups: number,
  ...rest: Rest<[weight: Tensor | null, bias: Tensor | null, eps: number], { weight?: Tensor | null; bias?: Tensor | null; eps?: number }>
): Tensor {
  const a = parseArgs('group_norm', { weight: null as Tensor | null, bias: null as Tensor | null, eps: 1e-5 }, rest);
  if (input.dim() < 2) throw new Error(`Expected at least 2 dimensions for input tensor but received ${input.dim()}`);
  const s = input.sizes;
  verifyBatchSize([((s[0] as number) * (s[1] as number)) / num_groups, num_groups, ...s.slice(2)]);
  return torch.group_norm(input, num_groups, a.weight, a.bias, a.eps, true);
}

/**
 * `F.instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
 * momentum=0.1, eps=1e-5)`: `_verify_spatial_size` when using input statistics, then `torch.instance_norm`
 * (batch_norm over the input viewed as [1, N*C, ...]; `grad_fn=<ViewBackward0>` as PyTorch's).
 */
export function instance_norm(
  input: Tensor,
  ...rest: Rest<
    [
      running_mean: Tensor | null,
      running_var: Tensor | null,
      weight: Tensor | null,
      bias: Tensor | null,
      use_input_stats: boolean,
      momentum: number,
      eps: number,
    ],
    {
      running_mean?: Tensor | null;
      running_var?: Tensor | null;
      weight?: Tensor | null;
      bias?: Tensor | null;
      use_input_stats?: boolean;
      momentum?: number;
      eps?: number;
    }
  >
): Tensor {
  const a = parseArgs(
    'instance_norm',
    {
      running_mean: null as Tensor | null,
      running_var: null as Tensor | null,
      weight: null as Tensor | null,
      bias: null as Tensor | null,
      use_input_stats: true,
      momentum: 0.1,
      eps: 1e-5,
    },
    rest,
  );
  if (a.use_input_stats) {
    const s = input.sizes;
    let prod = 1;
    for (let i = 2; i < s.length; i++) prod *= s[i] as number;
    if (prod === 1) throw new Error(`Expected more than 1 spatial element when training, got input size torch.Size([${s.join(', ')}])`);
  }
  return torch.instance_norm(input, a.weight, a.bias, a.running_mean, a.running_var, a.use_input_stats, a.momentum, a.eps, true);
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

/** `F.rms_norm(input, normalized_shape, weight=None, eps=None)`: `torch.rms_norm`. */
export function rms_norm(
  input: Tensor,
  normalized_shape: number | number[],
  ...rest: Rest<[weight: Tensor | null, eps: number | null], { weight?: Tensor | null; eps?: number | null }>
): Tensor {
  const a = parseArgs('rms_norm', { weight: null as Tensor | null, eps: null as number | null }, rest);
  return torch.rms_norm(input, typeof normalized_shape === 'number' ? [normalized_shape] : normalized_shape, a.weight, a.eps);
}

/**
 * `F.local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0)`: PyTorch's Python form, an average of the
 * squares over `size` neighbouring channels (avg_pool2d for 3-d input, avg_pool3d above).
 */
export function local_response_norm(
  input: Tensor,
  size: number,
  ...rest: Rest<[alpha: number, beta: number, k: number], { alpha?: number; beta?: number; k?: number }>
): Tensor {
  const a = parseArgs('local_response_norm', { alpha: 1e-4, beta: 0.75, k: 1.0 }, rest);
  const dim = input.dim();
  if (dim < 3) throw new Error(`Expected 3D or higher dimensionality                          input (got ${dim} dimensions)`);
  if (input.numel() === 0) return input;
  let div = input.mul(input);
  const [lo, hi] = [Math.floor(size / 2), Math.floor((size - 1) / 2)];
  if (dim === 3) {
    div = torch.constant_pad_nd(div.unsqueeze(1), [0, 0, lo, hi], 0);
    div = torch.avg_pool2d(div, [size, 1], [1]).squeeze(1);
  } else {
    const sizes = input.sizes;
    div = div.view([sizes[0] as number, 1, sizes[1] as number, sizes[2] as number, -1]);
    div = torch.constant_pad_nd(div, [0, 0, 0, 0, lo, hi], 0);
    // PyTorch: avg_pool3d(div, (size, 1, 1), stride=1). A (size, 1) window of avg_pool2d over the (C, H·W)
    // planes sums the same elements in the same order, with the same divisor.
    const [n, , c, h, w] = div.sizes as [number, number, number, number, number];
    div = torch.avg_pool2d(div.reshape([n, 1, c, h * w]), [size, 1], [1]).squeeze(1);
    div = div.view([...sizes]);
  }
  div = div.mul(a.alpha).add(a.k).pow(a.beta);
  return input.div(div);
}
