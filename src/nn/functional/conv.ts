// nn.functional: convolutions, padding and pooling. Mirrors the matching parts of torch/nn/functional.py:
// each function binds PyTorch's Python signature and calls the native operator (torch.conv1d, torch.pad,
// torch.conv_transpose2d, torch.max_pool1d, torch.adaptive_avg_pool2d, ...), so autograd records PyTorch's
// nodes and the rules (padding modes, 'same' padding, transposed convolution) have one home: the kernels.

import type { Tensor } from '../../tensor/Tensor.js';
import * as torch from '../../api/torch.js';
import { parseArgs, type IntOrList, type Rest } from '../modules/utils.js';

// ---- padding -----------------------------------------------------------------------------------------

/** `F.pad(input, pad, mode='constant', value=None)`: `torch.pad` (constant_pad_nd, reflection/replication_pad, _pad_circular). */
export function pad(
  input: Tensor,
  padding: readonly number[],
  ...rest: Rest<[mode: string, value: number | null], { mode?: string; value?: number | null }>
): Tensor {
  const { mode, value } = parseArgs('pad', { mode: 'constant', value: null as number | null }, rest);
  return torch.pad(input, padding, mode, value);
}

// ---- convolution -------------------------------------------------------------------------------------

type ConvRest = Rest<
  [bias: Tensor | null, stride: IntOrList, padding: IntOrList | string, dilation: IntOrList, groups: number],
  { bias?: Tensor | null; stride?: IntOrList; padding?: IntOrList | string; dilation?: IntOrList; groups?: number }
>;
const convSpec = () => ({
  bias: null as Tensor | null,
  stride: 1 as IntOrList,
  padding: 0 as IntOrList | string,
  dilation: 1 as IntOrList,
  groups: 1,
});

/** `F.conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)`; padding may be 'same'/'valid'. */
export function conv1d(input: Tensor, weight: Tensor, ...rest: ConvRest): Tensor {
  const a = parseArgs('conv1d', convSpec(), rest);
  return typeof a.padding === 'string'
    ? torch.conv1d(input, weight, a.bias, a.stride, a.padding, a.dilation, a.groups)
    : torch.conv1d(input, weight, a.bias, a.stride, a.padding, a.dilation, a.groups);
}

/** `F.conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)`; padding may be 'same'/'valid'. */
export function conv2d(input: Tensor, weight: Tensor, ...rest: ConvRest): Tensor {
  const a = parseArgs('conv2d', convSpec(), rest);
  return typeof a.padding === 'string'
    ? torch.conv2d(input, weight, a.bias, a.stride, a.padding, a.dilation, a.groups)
    : torch.conv2d(input, weight, a.bias, a.stride, a.padding, a.dilation, a.groups);
}

/** `F.conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1)`. */
export function conv_transpose2d(
  input: Tensor,
  weight: Tensor,
  ...rest: Rest<
    [bias: Tensor | null, stride: IntOrList, padding: IntOrList, output_padding: IntOrList, groups: number, dilation: IntOrList],
    { bias?: Tensor | null; stride?: IntOrList; padding?: IntOrList; output_padding?: IntOrList; groups?: number; dilation?: IntOrList }
  >
): Tensor {
  const a = parseArgs(
    'conv_transpose2d',
    {
      bias: null as Tensor | null,
      stride: 1 as IntOrList,
      padding: 0 as IntOrList,
      output_padding: 0 as IntOrList,
      groups: 1,
      dilation: 1 as IntOrList,
    },
    rest,
  );
  return torch.conv_transpose2d(input, weight, a.bias, a.stride, a.padding, a.output_padding, a.groups, a.dilation);
}

// ---- pooling -----------------------------------------------------------------------------------------

type PoolRest = Rest<
  [stride: IntOrList | null, padding: IntOrList, dilation: IntOrList, ceil_mode: boolean, return_indices: boolean],
  { stride?: IntOrList | null; padding?: IntOrList; dilation?: IntOrList; ceil_mode?: boolean; return_indices?: boolean }
>;
const poolSpec = () => ({
  stride: null as IntOrList | null,
  padding: 0 as IntOrList,
  dilation: 1 as IntOrList,
  ceil_mode: false,
  return_indices: false,
});

/** `F.max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False)`. */
export function max_pool2d(input: Tensor, kernel_size: IntOrList, ...rest: PoolRest): Tensor {
  const a = parseArgs('max_pool2d', poolSpec(), rest);
  if (a.return_indices) throw new Error('max_pool2d: use max_pool2d_with_indices for return_indices=True');
  return torch.max_pool2d(input, kernel_size, a.stride ?? [], a.padding, a.dilation, a.ceil_mode);
}

/** `F.max_pool2d_with_indices(...)`: [output, indices]. */
export function max_pool2d_with_indices(input: Tensor, kernel_size: IntOrList, ...rest: PoolRest): [Tensor, Tensor] {
  const a = parseArgs('max_pool2d_with_indices', poolSpec(), rest);
  return torch.max_pool2d_with_indices(input, kernel_size, a.stride ?? [], a.padding, a.dilation, a.ceil_mode) as [Tensor, Tensor];
}

/** `F.max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False)`: `torch.max_pool1d`. */
export function max_pool1d(input: Tensor, kernel_size: IntOrList, ...rest: PoolRest): Tensor {
  const a = parseArgs('max_pool1d', poolSpec(), rest);
  if (a.return_indices) throw new Error('max_pool1d: use torch.max_pool1d_with_indices for return_indices=True');
  return torch.max_pool1d(input, kernel_size, a.stride ?? [], a.padding, a.dilation, a.ceil_mode);
}

/** `F.avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None)`. */
export function avg_pool2d(
  input: Tensor,
  kernel_size: IntOrList,
  ...rest: Rest<
    [stride: IntOrList | null, padding: IntOrList, ceil_mode: boolean, count_include_pad: boolean, divisor_override: number | null],
    { stride?: IntOrList | null; padding?: IntOrList; ceil_mode?: boolean; count_include_pad?: boolean; divisor_override?: number | null }
  >
): Tensor {
  const a = parseArgs(
    'avg_pool2d',
    {
      stride: null as IntOrList | null,
      padding: 0 as IntOrList,
      ceil_mode: false,
      count_include_pad: true,
      divisor_override: null as number | null,
    },
    rest,
  );
  return torch.avg_pool2d(input, kernel_size, a.stride ?? kernel_size, a.padding, a.ceil_mode, a.count_include_pad, a.divisor_override);
}

/**
 * `F.adaptive_avg_pool2d(input, output_size)`: `torch.adaptive_avg_pool2d`, after `_list_with_default`
 * (a `null` entry of output_size keeps that input size).
 */
export function adaptive_avg_pool2d(input: Tensor, output_size: IntOrList | readonly (number | null)[]): Tensor {
  if (typeof output_size === 'number') return torch.adaptive_avg_pool2d(input, output_size);
  const nd = input.dim();
  const sizes = output_size.map((v, i) => v ?? (input.sizes[nd - output_size.length + i] as number));
  return torch.adaptive_avg_pool2d(input, sizes);
}
