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

/** `F.conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)`; padding may be 'same'/'valid'. */
export function conv3d(input: Tensor, weight: Tensor, ...rest: ConvRest): Tensor {
  const a = parseArgs('conv3d', convSpec(), rest);
  return typeof a.padding === 'string'
    ? torch.conv3d(input, weight, a.bias, a.stride, a.padding, a.dilation, a.groups)
    : torch.conv3d(input, weight, a.bias, a.stride, a.padding, a.dilation, a.groups);
}

/** `F.conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1)`. */
export function conv_transpose3d(input: Tensor, weight: Tensor, ...rest: ConvTransposeRest): Tensor {
  const a = parseArgs('conv_transpose3d', convTransposeSpec(), rest);
  return torch.conv_transpose3d(input, weight, a.bias, a.stride, a.padding, a.output_padding, a.groups, a.dilation);
}

type ConvTransposeRest = Rest<
  [bias: Tensor | null, stride: IntOrList, padding: IntOrList, output_padding: IntOrList, groups: number, dilation: IntOrList],
  { bias?: Tensor | null; stride?: IntOrList; padding?: IntOrList; output_padding?: IntOrList; groups?: number; dilation?: IntOrList }
>;
const convTransposeSpec = () => ({
  bias: null as Tensor | null,
  stride: 1 as IntOrList,
  padding: 0 as IntOrList,
  output_padding: 0 as IntOrList,
  groups: 1,
  dilation: 1 as IntOrList,
});

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

/** `F.conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1)`: `torch.conv_transpose1d`. */
export function conv_transpose1d(
  input: Tensor,
  weight: Tensor,
  ...rest: Rest<
    [bias: Tensor | null, stride: IntOrList, padding: IntOrList, output_padding: IntOrList, groups: number, dilation: IntOrList],
    { bias?: Tensor | null; stride?: IntOrList; padding?: IntOrList; output_padding?: IntOrList; groups?: number; dilation?: IntOrList }
  >
): Tensor {
  const a = parseArgs(
    'conv_transpose1d',
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
  return torch.conv_transpose1d(input, weight, a.bias, a.stride, a.padding, a.output_padding, a.groups, a.dilation);
}

// ---- pooling -----------------------------------------------------------------------------------------

/**
 * Binds a whole Python signature: the required arguments too may be passed by keyword (`F.max_pool2d(x,
 * { kernel_size: 2 })`), as in Python; a required one missing is Python's TypeError.
 */
export function bindAll<T extends Record<string, unknown>>(
  fname: string,
  required: readonly string[],
  spec: T,
  args: readonly unknown[],
): T {
  const full: Record<string, unknown> = {};
  for (const n of required) full[n] = undefined;
  const out = parseArgs(fname, { ...full, ...spec }, args);
  for (const n of required) {
    if (out[n] === undefined) throw new TypeError(`${fname}() missing 1 required positional argument: '${n}'`);
  }
  return out as T;
}

interface PoolOptions {
  kernel_size?: IntOrList;
  stride?: IntOrList | null;
  padding?: IntOrList;
  dilation?: IntOrList;
  ceil_mode?: boolean;
  return_indices?: boolean;
}
type PoolRest = Rest<
  [stride: IntOrList | null, padding: IntOrList, dilation: IntOrList, ceil_mode: boolean, return_indices: boolean],
  PoolOptions
>;
type WithIndices = PoolOptions & { return_indices: true };
const poolSpec = () => ({
  kernel_size: 0 as IntOrList,
  stride: null as IntOrList | null,
  padding: 0 as IntOrList,
  dilation: 1 as IntOrList,
  ceil_mode: false,
  return_indices: false,
});
const bindPool = (fname: string, args: readonly unknown[]) => {
  const spec: Partial<ReturnType<typeof poolSpec>> = poolSpec();
  delete spec.kernel_size;
  return bindAll(fname, ['kernel_size'], spec as ReturnType<typeof poolSpec>, args);
};

/**
 * `F.max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False)`:
 * `torch.max_pool2d`, or with return_indices `max_pool2d_with_indices` ([output, indices]).
 */
export function max_pool2d(input: Tensor, kernel_size: IntOrList, options: WithIndices): [Tensor, Tensor];
export function max_pool2d(input: Tensor, options: WithIndices & { kernel_size: IntOrList }): [Tensor, Tensor];
export function max_pool2d(input: Tensor, kernel_size: IntOrList | PoolOptions, ...rest: PoolRest): Tensor;
export function max_pool2d(input: Tensor, ...args: unknown[]): Tensor | [Tensor, Tensor] {
  const a = bindPool('max_pool2d', args);
  if (a.return_indices) return max_pool2d_with_indices(input, a);
  return torch.max_pool2d(input, a.kernel_size, a.stride ?? [], a.padding, a.dilation, a.ceil_mode);
}

/** `F.max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False)`: [output, indices]. */
export function max_pool2d_with_indices(input: Tensor, kernel_size: IntOrList | PoolOptions, ...rest: PoolRest): [Tensor, Tensor];
export function max_pool2d_with_indices(input: Tensor, ...args: unknown[]): [Tensor, Tensor] {
  const a = bindPool('max_pool2d_with_indices', args);
  return torch.max_pool2d_with_indices(input, a.kernel_size, a.stride ?? [], a.padding, a.dilation, a.ceil_mode) as [Tensor, Tensor];
}

/**
 * `F.max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False)`:
 * `torch.max_pool1d`, or with return_indices `torch.max_pool1d_with_indices` ([output, indices]).
 */
export function max_pool1d(input: Tensor, kernel_size: IntOrList, options: WithIndices): [Tensor, Tensor];
export function max_pool1d(input: Tensor, options: WithIndices & { kernel_size: IntOrList }): [Tensor, Tensor];
export function max_pool1d(input: Tensor, kernel_size: IntOrList | PoolOptions, ...rest: PoolRest): Tensor;
export function max_pool1d(input: Tensor, ...args: unknown[]): Tensor | [Tensor, Tensor] {
  const a = bindPool('max_pool1d', args);
  if (a.return_indices) return max_pool1d_with_indices(input, a);
  return torch.max_pool1d(input, a.kernel_size, a.stride ?? [], a.padding, a.dilation, a.ceil_mode);
}

/** `F.max_pool1d_with_indices(...)`: `torch.max_pool1d_with_indices` ([output, indices]). */
export function max_pool1d_with_indices(input: Tensor, kernel_size: IntOrList | PoolOptions, ...rest: PoolRest): [Tensor, Tensor];
export function max_pool1d_with_indices(input: Tensor, ...args: unknown[]): [Tensor, Tensor] {
  const a = bindPool('max_pool1d_with_indices', args);
  return torch.max_pool1d_with_indices(input, a.kernel_size, a.stride ?? [], a.padding, a.dilation, a.ceil_mode) as [Tensor, Tensor];
}

interface AvgPoolOptions {
  kernel_size?: IntOrList;
  stride?: IntOrList | null;
  padding?: IntOrList;
  ceil_mode?: boolean;
  count_include_pad?: boolean;
  divisor_override?: number | null;
}

/** `F.avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None)`. */
export function avg_pool2d(
  input: Tensor,
  kernel_size: IntOrList | AvgPoolOptions,
  ...rest: Rest<
    [stride: IntOrList | null, padding: IntOrList, ceil_mode: boolean, count_include_pad: boolean, divisor_override: number | null],
    AvgPoolOptions
  >
): Tensor {
  const a = bindAll(
    'avg_pool2d',
    ['kernel_size'],
    {
      stride: null as IntOrList | null,
      padding: 0 as IntOrList,
      ceil_mode: false,
      count_include_pad: true,
      divisor_override: null as number | null,
    },
    [kernel_size, ...rest],
  ) as {
    kernel_size: IntOrList;
    stride: IntOrList | null;
    padding: IntOrList;
    ceil_mode: boolean;
    count_include_pad: boolean;
    divisor_override: number | null;
  };
  return torch.avg_pool2d(input, a.kernel_size, a.stride ?? a.kernel_size, a.padding, a.ceil_mode, a.count_include_pad, a.divisor_override);
}

export type OutputSize = IntOrList | readonly (number | null)[];

/**
 * `_list_with_default(out_size, input.size())` (torch/nn/modules/utils.py): a `null` entry of output_size keeps
 * that input size; the input needs more dimensions than output_size has entries.
 */
export function listWithDefault(outSize: OutputSize, input: Tensor): IntOrList {
  if (typeof outSize === 'number') return outSize;
  const nd = input.dim();
  if (nd <= outSize.length) throw new Error(`Input dimension should be at least ${outSize.length + 1}`);
  return outSize.map((v, i) => v ?? (input.sizes[nd - outSize.length + i] as number));
}

/** `F.adaptive_avg_pool2d(input, output_size)`: `torch.adaptive_avg_pool2d` after `_list_with_default`. */
export function adaptive_avg_pool2d(input: Tensor, output_size: OutputSize | { output_size: OutputSize }): Tensor;
export function adaptive_avg_pool2d(input: Tensor, ...args: unknown[]): Tensor {
  const a = bindAll('adaptive_avg_pool2d', ['output_size'], {}, args) as { output_size: OutputSize };
  return torch.adaptive_avg_pool2d(input, listWithDefault(a.output_size, input));
}

/** `F.adaptive_avg_pool3d(input, output_size)`: `torch.adaptive_avg_pool3d` after `_list_with_default`. */
export function adaptive_avg_pool3d(input: Tensor, output_size: OutputSize | { output_size: OutputSize }): Tensor;
export function adaptive_avg_pool3d(input: Tensor, ...args: unknown[]): Tensor {
  const a = bindAll('adaptive_avg_pool3d', ['output_size'], {}, args) as { output_size: OutputSize };
  return torch.adaptive_avg_pool3d(input, listWithDefault(a.output_size, input));
}

type AdaptiveMaxRest = Rest<[return_indices: boolean], { output_size?: OutputSize; return_indices?: boolean }>;

/** `F.adaptive_max_pool1d(input, output_size, return_indices=False)`: `torch.adaptive_max_pool1d`, its output or [output, indices]. */
export function adaptive_max_pool1d(input: Tensor, output_size: IntOrList, return_indices: true): [Tensor, Tensor];
export function adaptive_max_pool1d(input: Tensor, output_size: IntOrList, options: { return_indices: true }): [Tensor, Tensor];
export function adaptive_max_pool1d(
  input: Tensor,
  output_size: IntOrList | { output_size?: IntOrList; return_indices?: boolean },
  ...rest: AdaptiveMaxRest
): Tensor;
export function adaptive_max_pool1d(input: Tensor, ...args: unknown[]): Tensor | [Tensor, Tensor] {
  const a = bindAll('adaptive_max_pool1d', ['output_size'], { return_indices: false }, args) as {
    output_size: IntOrList;
    return_indices: boolean;
  };
  const r = torch.adaptive_max_pool1d(input, a.output_size) as [Tensor, Tensor];
  return a.return_indices ? r : r[0];
}

/**
 * `F.adaptive_max_pool2d(input, output_size, return_indices=False)`: `torch.adaptive_max_pool2d` after
 * `_list_with_default`, its output or [output, indices].
 */
export function adaptive_max_pool2d(input: Tensor, output_size: OutputSize, return_indices: true): [Tensor, Tensor];
export function adaptive_max_pool2d(input: Tensor, output_size: OutputSize, options: { return_indices: true }): [Tensor, Tensor];
export function adaptive_max_pool2d(
  input: Tensor,
  output_size: OutputSize | { output_size?: OutputSize; return_indices?: boolean },
  ...rest: AdaptiveMaxRest
): Tensor;
export function adaptive_max_pool2d(input: Tensor, ...args: unknown[]): Tensor | [Tensor, Tensor] {
  const a = bindAll('adaptive_max_pool2d', ['output_size'], { return_indices: false }, args) as {
    output_size: OutputSize;
    return_indices: boolean;
  };
  const r = torch.adaptive_max_pool2d(input, listWithDefault(a.output_size, input)) as [Tensor, Tensor];
  return a.return_indices ? r : r[0];
}

// ---- unfold / fold (im2col / col2im) -------------------------------------------------------------------

const pair = (v: IntOrList): number[] => (typeof v === 'number' ? [v, v] : [...v]);

/** `F.unfold(input, kernel_size, dilation=1, padding=0, stride=1)`: `torch._C._nn.im2col` (Im2ColBackward0). */
export function unfold(
  input: Tensor,
  kernel_size: IntOrList,
  ...rest: Rest<
    [dilation: IntOrList, padding: IntOrList, stride: IntOrList],
    { dilation?: IntOrList; padding?: IntOrList; stride?: IntOrList }
  >
): Tensor {
  const { dilation, padding, stride } = parseArgs(
    'unfold',
    { dilation: 1 as IntOrList, padding: 0 as IntOrList, stride: 1 as IntOrList },
    rest,
  );
  return torch.im2col(input, pair(kernel_size), pair(dilation), pair(padding), pair(stride));
}

/** `F.fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1)`: `torch._C._nn.col2im` (Col2ImBackward0). */
export function fold(
  input: Tensor,
  output_size: IntOrList,
  kernel_size: IntOrList,
  ...rest: Rest<
    [dilation: IntOrList, padding: IntOrList, stride: IntOrList],
    { dilation?: IntOrList; padding?: IntOrList; stride?: IntOrList }
  >
): Tensor {
  const { dilation, padding, stride } = parseArgs(
    'fold',
    { dilation: 1 as IntOrList, padding: 0 as IntOrList, stride: 1 as IntOrList },
    rest,
  );
  return torch.col2im(input, pair(output_size), pair(kernel_size), pair(dilation), pair(padding), pair(stride));
}
