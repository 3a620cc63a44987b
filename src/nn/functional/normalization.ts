// nn.functional: batch_norm, layer_norm, group_norm. Mirrors the matching parts of torch/nn/functional.py.
// batch_norm and group_norm are composed from reductions and pointwise operators (CompositeImplicit
// decompositions) until aten-ts has native_batch_norm / native_group_norm.

import { noGrad } from '../../autograd/grad_mode.js';
import type { Tensor } from '../../tensor/Tensor.js';
import * as torch from '../../api/torch.js';
import { parseArgs, type Rest } from '../modules/utils.js';

/**
 * `F.batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1,
 * eps=1e-5)`: in training, normalises by the batch statistics (biased variance) and updates the running
 * ones in place (unbiased variance), as PyTorch's CPU kernel.
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
  const C = input.sizes[1] as number;
  const dims = [0, ...Array.from({ length: input.dim() - 2 }, (_, i) => i + 2)];
  const shape = input.sizes.map((s, i) => (i === 1 ? s : 1));
  let mean: Tensor;
  let invstd: Tensor;
  if (a.training) {
    const count = input.numel / C;
    if (count === 1)
      throw new Error(`Expected more than 1 value per channel when training, got input size torch.Size([${input.sizes.join(', ')}])`);
    mean = input.mean(dims, true);
    const centered = input.sub(mean);
    const varBiased = centered.mul(centered).mean(dims, true);
    invstd = varBiased.add(a.eps).rsqrt();
    if (running_mean !== null && running_var !== null) {
      noGrad(() => {
        const m = a.momentum;
        const unbiased = varBiased
          .detach()
          .reshape([C])
          .mul(count / (count - 1));
        running_mean.mul_(torch.tensor(1 - m, { dtype: running_mean.dtype })).add_(mean.detach().reshape([C]).mul(m));
        running_var.mul_(torch.tensor(1 - m, { dtype: running_var.dtype })).add_(unbiased.mul(m));
      });
    }
  } else {
    if (running_mean === null || running_var === null) throw new Error('running_mean and running_var must be defined in evaluation mode');
    mean = running_mean.view(shape);
    invstd = running_var.add(a.eps).rsqrt().view(shape);
  }
  let out = input.sub(mean).mul(invstd);
  if (a.weight !== null) out = out.mul(a.weight.view(shape));
  if (a.bias !== null) out = out.add(a.bias.view(shape));
  return out;
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

/** `F.group_norm(input, num_groups, weight=None, bias=None, eps=1e-5)` (composed: statistics per (sample, group)). */
export function group_norm(
  input: Tensor,
  num_groups: number,
  ...rest: Rest<[weight: Tensor | null, bias: Tensor | null, eps: number], { weight?: Tensor | null; bias?: Tensor | null; eps?: number }>
): Tensor {
  const a = parseArgs('group_norm', { weight: null as Tensor | null, bias: null as Tensor | null, eps: 1e-5 }, rest);
  if (input.dim() < 2) throw new Error(`Expected at least 2 dimensions for input tensor but received ${input.dim()}`);
  const N = input.sizes[0] as number;
  const C = input.sizes[1] as number;
  if (C % num_groups !== 0) {
    throw new Error(
      `Expected number of channels in input to be divisible by num_groups, but got input of shape [${input.sizes.join(', ')}] and num_groups=${num_groups}`,
    );
  }
  const x = input.reshape(N, num_groups, -1);
  const mean = x.mean(-1, true);
  const centered = x.sub(mean);
  const v = centered.mul(centered).mean(-1, true);
  let out = centered.mul(v.add(a.eps).rsqrt()).reshape(input.sizes);
  const shape = input.sizes.map((s, i) => (i === 1 ? s : 1));
  if (a.weight !== null) out = out.mul(a.weight.view(shape));
  if (a.bias !== null) out = out.add(a.bias.view(shape));
  return out;
}
