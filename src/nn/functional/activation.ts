// nn.functional: the non-linear activations and softmax. Mirrors the matching parts of
// torch/nn/functional.py (see ../functional.ts for the whole namespace): each is the native operator (same
// grad_fn, Meta kernel and errors) or PyTorch's own decomposition.

import type { Tensor } from '../../tensor/Tensor.js';
import * as torch from '../../api/torch.js';
import { parseArgs, type Rest } from '../modules/utils.js';

// F.softplus, F.softshrink and F.hardshrink are the native bindings themselves (torch._C._nn.softplus,
// torch._C._nn.softshrink, torch.hardshrink); F.logsigmoid is torch._C._nn.log_sigmoid.
export { hardshrink, log_sigmoid as logsigmoid, softplus, softshrink } from '../../api/torch.js';

/** `F.threshold(input, threshold, value, inplace=False)`: `torch.threshold` / `threshold_`. */
export function threshold(
  input: Tensor,
  threshold: number,
  value: number,
  ...rest: Rest<[inplace: boolean], { inplace?: boolean }>
): Tensor {
  const { inplace } = parseArgs('threshold', { inplace: false }, rest);
  return inplace ? torch.threshold_(input, threshold, value) : torch.threshold(input, threshold, value);
}

/** `F.threshold_(input, threshold, value)`. */
export function threshold_(input: Tensor, threshold: number, value: number): Tensor {
  return torch.threshold_(input, threshold, value);
}

/** `F.softsign(input)`: input / (|input| + 1), PyTorch's Python composition (DivBackward0). */
export function softsign(input: Tensor): Tensor {
  return input.div(input.abs().add(1));
}

/** `F.tanhshrink(input)`: input - tanh(input), PyTorch's Python composition (SubBackward0). */
export function tanhshrink(input: Tensor): Tensor {
  return input.sub(input.tanh());
}

/** `F.prelu(input, weight)`: max(0, x) + weight·min(0, x), the weight per channel (dim 1) or one for all (`torch.prelu`). */
export function prelu(input: Tensor, weight: Tensor): Tensor {
  return torch.prelu(input, weight);
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

/** `F.rrelu(input, lower=1/8, upper=1/3, training=False, inplace=False)`: `torch.rrelu` / `rrelu_`. */
export function rrelu(
  input: Tensor,
  ...rest: Rest<
    [lower: number, upper: number, training: boolean, inplace: boolean],
    { lower?: number; upper?: number; training?: boolean; inplace?: boolean }
  >
): Tensor {
  const { lower, upper, training, inplace } = parseArgs('rrelu', { lower: 1 / 8, upper: 1 / 3, training: false, inplace: false }, rest);
  return inplace ? torch.rrelu_(input, lower, upper, training) : torch.rrelu(input, lower, upper, training);
}

/** `F.rrelu_(input, lower=1/8, upper=1/3, training=False)`. */
export function rrelu_(input: Tensor, lower = 1 / 8, upper = 1 / 3, training = false): Tensor {
  return torch.rrelu_(input, lower, upper, training);
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

/** `F.softmin(input, dim=None, dtype=None)`: softmax of -input (PyTorch's Python composition). */
export function softmin(
  input: Tensor,
  ...rest: Rest<[dim: number | null, dtype: string | null], { dim?: number | null; dtype?: string | null }>
): Tensor {
  const { dim, dtype } = parseArgs('softmin', { dim: null as number | null, dtype: null as string | null }, rest);
  return input.neg().softmax(dim ?? softmaxDim('softmin', input.dim()), dtype);
}

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

/** `F.celu(input, alpha=1.0, inplace=False)`: `torch.celu` / `celu_`. */
export function celu(input: Tensor, ...rest: Rest<[alpha: number, inplace: boolean], { alpha?: number; inplace?: boolean }>): Tensor {
  const { alpha, inplace } = parseArgs('celu', { alpha: 1.0, inplace: false }, rest);
  return inplace ? torch.celu_(input, alpha) : torch.celu(input, alpha);
}

/** `F.relu6(input, inplace=False)`: `torch._C._nn.relu6` (hardtanh_(0, 6) in place). */
export function relu6(input: Tensor, ...rest: Rest<[inplace: boolean], { inplace?: boolean }>): Tensor {
  const { inplace } = parseArgs('relu6', { inplace: false }, rest);
  return inplace ? torch.hardtanh_(input, 0, 6) : torch.relu6(input);
}
