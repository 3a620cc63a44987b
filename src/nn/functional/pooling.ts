// nn.functional: the 1-d average pools, the power-average (LP) pools, max_unpool1d/2d/3d, max_pool3d, avg_pool3d,
// adaptive_max_pool3d. Mirrors the matching parts of torch/nn/functional.py: avg_pool1d and adaptive_avg_pool1d are
// the native operators, lp_pool1d/2d PyTorch's composition (avg_pool of input ** p, then sign(out) * relu(|out|) *
// kernel numel, ** (1/p)); the unpools `_unpool_output_size`, then the native operator (max_unpool1d is
// max_unpool2d over an unsqueezed last dimension).

import type { Tensor } from '../../tensor/Tensor.js';
import * as torch from '../../api/torch.js';
import { ntuple, parseArgs, type IntOrList, type Rest } from '../modules/utils.js';
import { relu } from './activation.js';
import { avg_pool2d, bindAll, listWithDefault, max_pool1d, max_pool2d, type OutputSize } from './conv.js';

/** `F.avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True)`: `torch.avg_pool1d`. */
export function avg_pool1d(
  input: Tensor,
  kernel_size: IntOrList | AvgPool1dOptions,
  ...rest: Rest<[stride: IntOrList | null, padding: IntOrList, ceil_mode: boolean, count_include_pad: boolean], AvgPool1dOptions>
): Tensor {
  // every argument may come by keyword, kernel_size too (F.avg_pool1d(x, { kernel_size: 3, padding: 1 }))
  const a = bindAll(
    'avg_pool1d',
    ['kernel_size'],
    { stride: null as IntOrList | null, padding: 0 as IntOrList, ceil_mode: false, count_include_pad: true },
    [kernel_size, ...rest],
  ) as Required<AvgPool1dOptions>;
  return torch.avg_pool1d(input, a.kernel_size, a.stride ?? a.kernel_size, a.padding, a.ceil_mode, a.count_include_pad);
}

interface AvgPool1dOptions {
  kernel_size?: IntOrList;
  stride?: IntOrList | null;
  padding?: IntOrList;
  ceil_mode?: boolean;
  count_include_pad?: boolean;
}

/** `F.adaptive_avg_pool1d(input, output_size)`: `torch.adaptive_avg_pool1d`. */
export function adaptive_avg_pool1d(input: Tensor, output_size: IntOrList): Tensor {
  return torch.adaptive_avg_pool1d(input, output_size);
}

type LpRest = Rest<[stride: IntOrList | null, ceil_mode: boolean], { stride?: IntOrList | null; ceil_mode?: boolean }>;

/** The shared tail of lp_pool1d/2d: `(sign(out) * relu(|out|)).mul(numel).pow(1 / p)`. */
const lpTail = (out: Tensor, numel: number, p: number): Tensor =>
  torch
    .sign(out)
    .mul(relu(torch.abs(out)))
    .mul(numel)
    .pow(1.0 / p);

/** `F.lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False)`. */
export function lp_pool1d(input: Tensor, norm_type: number, kernel_size: number, ...rest: LpRest): Tensor {
  const a = parseArgs('lp_pool1d', { stride: null as IntOrList | null, ceil_mode: false }, rest);
  if (norm_type === Infinity) return max_pool1d(input.abs(), kernel_size, a.stride, 0, 1, a.ceil_mode);
  if (norm_type === -Infinity) return max_pool1d(input.abs().neg(), kernel_size, a.stride, 0, 1, a.ceil_mode).neg();
  const out = avg_pool1d(input.pow(norm_type), kernel_size, a.stride, 0, a.ceil_mode);
  return lpTail(out, kernel_size, norm_type);
}

/** `F.lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False)`. */
export function lp_pool2d(input: Tensor, norm_type: number, kernel_size: IntOrList, ...rest: LpRest): Tensor {
  const a = parseArgs('lp_pool2d', { stride: null as IntOrList | null, ceil_mode: false }, rest);
  const [kw, kh] = ntuple(2, kernel_size) as [number, number];
  if (norm_type === Infinity) return max_pool2d(input.abs(), kernel_size, a.stride, 0, 1, a.ceil_mode);
  if (norm_type === -Infinity) return max_pool2d(input.abs().neg(), kernel_size, a.stride, 0, 1, a.ceil_mode).neg();
  const out = avg_pool2d(input.pow(norm_type), kernel_size, a.stride, 0, a.ceil_mode);
  return lpTail(out, kw * kh, norm_type);
}

/** `F.lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode=False)`. */
export function lp_pool3d(input: Tensor, norm_type: number, kernel_size: IntOrList, ...rest: LpRest): Tensor {
  const a = parseArgs('lp_pool3d', { stride: null as IntOrList | null, ceil_mode: false }, rest);
  const [kd, kw, kh] = ntuple(3, kernel_size) as [number, number, number];
  if (norm_type === Infinity) return max_pool3d(input.abs(), kernel_size, a.stride, 0, 1, a.ceil_mode);
  if (norm_type === -Infinity) return max_pool3d(input.abs().neg(), kernel_size, a.stride, 0, 1, a.ceil_mode).neg();
  const out = avg_pool3d(input.pow(norm_type), kernel_size, a.stride, 0, a.ceil_mode);
  return lpTail(out, kd * kw * kh, norm_type);
}

interface UnpoolOptions {
  kernel_size?: IntOrList;
  stride?: IntOrList | null;
  padding?: IntOrList;
  output_size?: readonly number[] | null;
}
type UnpoolRest = Rest<[stride: IntOrList | null, padding: IntOrList, output_size: readonly number[] | null], UnpoolOptions>;

/** `_unpool_output_size`: the default (in - 1)·stride + kernel - 2·padding, or a checked explicit size. */
function unpoolOutputSize(
  input: Tensor,
  kernel: number[],
  stride: number[],
  padding: number[],
  outputSize: readonly number[] | null,
): number[] {
  const n = kernel.length;
  const inSizes = input.sizes.slice(input.dim() - n);
  const def = kernel.map((k, d) => ((inSizes[d] as number) - 1) * (stride[d] as number) + k - 2 * (padding[d] as number));
  let ret = def;
  if (outputSize !== null) {
    let os = [...outputSize];
    if (os.length === n + 2) os = os.slice(2);
    if (os.length !== n) {
      throw new Error(`output_size should be a sequence containing ${n} or ${n + 2} elements, but it has a length of '${os.length}'`);
    }
    for (let d = 0; d < n; d++) {
      const lo = (def[d] as number) - (stride[d] as number);
      const hi = (def[d] as number) + (stride[d] as number);
      if (!(lo < (os[d] as number) && (os[d] as number) < hi)) {
        throw new Error(`invalid output_size "[${os.join(', ')}]" (dim ${d} must be between ${lo} and ${hi})`);
      }
    }
    ret = os;
  }
  ret.forEach((v, d) => {
    if (v < 0) throw new Error(`max_unpooling: output_size must contain non-negative spatial dimensions, but got output_size[${d}]=${v}`);
  });
  return ret;
}

function bindUnpool(
  fname: string,
  n: number,
  args: readonly unknown[],
): { kernel: number[]; stride: number[]; padding: number[]; output_size: readonly number[] | null } {
  const a = bindAll(
    fname,
    ['kernel_size'],
    { stride: null as IntOrList | null, padding: 0 as IntOrList, output_size: null as readonly number[] | null },
    args,
  ) as { kernel_size: IntOrList; stride: IntOrList | null; padding: IntOrList; output_size: readonly number[] | null };
  const kernel = ntuple(n, a.kernel_size, 'kernel_size');
  return {
    kernel,
    stride: a.stride === null ? kernel : ntuple(n, a.stride, 'stride'),
    padding: ntuple(n, a.padding, 'padding'),
    output_size: a.output_size,
  };
}

/** `F.max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None)`. */
export function max_unpool1d(input: Tensor, indices: Tensor, kernel_size: IntOrList | UnpoolOptions, ...rest: UnpoolRest): Tensor;
export function max_unpool1d(input: Tensor, indices: Tensor, ...args: unknown[]): Tensor {
  const a = bindUnpool('max_unpool1d', 1, args);
  const os = unpoolOutputSize(input, a.kernel, a.stride, a.padding, a.output_size);
  return torch.max_unpool2d(input.unsqueeze(-1), indices.unsqueeze(-1), [...os, 1]).squeeze(-1);
}

/** `F.max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None)`. */
export function max_unpool2d(input: Tensor, indices: Tensor, kernel_size: IntOrList | UnpoolOptions, ...rest: UnpoolRest): Tensor;
export function max_unpool2d(input: Tensor, indices: Tensor, ...args: unknown[]): Tensor {
  const a = bindUnpool('max_unpool2d', 2, args);
  return torch.max_unpool2d(input, indices, unpoolOutputSize(input, a.kernel, a.stride, a.padding, a.output_size));
}

/** `F.max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None)`. */
export function max_unpool3d(input: Tensor, indices: Tensor, kernel_size: IntOrList | UnpoolOptions, ...rest: UnpoolRest): Tensor;
export function max_unpool3d(input: Tensor, indices: Tensor, ...args: unknown[]): Tensor {
  const a = bindUnpool('max_unpool3d', 3, args);
  const os = unpoolOutputSize(input, a.kernel, a.stride, a.padding, a.output_size);
  return torch.max_unpool3d(input, indices, os, a.stride, a.padding);
}

// ---- 3-d pooling -------------------------------------------------------------------------------------

interface Pool3dOptions {
  kernel_size?: IntOrList;
  stride?: IntOrList | null;
  padding?: IntOrList;
  dilation?: IntOrList;
  ceil_mode?: boolean;
  return_indices?: boolean;
}
type Pool3dRest = Rest<
  [stride: IntOrList | null, padding: IntOrList, dilation: IntOrList, ceil_mode: boolean, return_indices: boolean],
  Pool3dOptions
>;

function bindMaxPool3d(fname: string, args: readonly unknown[]) {
  return bindAll(
    fname,
    ['kernel_size'],
    { stride: null as IntOrList | null, padding: 0 as IntOrList, dilation: 1 as IntOrList, ceil_mode: false, return_indices: false },
    args,
  ) as {
    kernel_size: IntOrList;
    stride: IntOrList | null;
    padding: IntOrList;
    dilation: IntOrList;
    ceil_mode: boolean;
    return_indices: boolean;
  };
}

/**
 * `F.max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False)`:
 * `torch.max_pool3d`, or with return_indices `max_pool3d_with_indices` ([output, indices]).
 */
export function max_pool3d(input: Tensor, kernel_size: IntOrList, options: Pool3dOptions & { return_indices: true }): [Tensor, Tensor];
export function max_pool3d(input: Tensor, kernel_size: IntOrList | Pool3dOptions, ...rest: Pool3dRest): Tensor;
export function max_pool3d(input: Tensor, ...args: unknown[]): Tensor | [Tensor, Tensor] {
  const a = bindMaxPool3d('max_pool3d', args);
  if (a.return_indices)
    return torch.max_pool3d_with_indices(input, a.kernel_size, a.stride ?? [], a.padding, a.dilation, a.ceil_mode) as [Tensor, Tensor];
  return torch.max_pool3d(input, a.kernel_size, a.stride ?? [], a.padding, a.dilation, a.ceil_mode);
}

/** `F.max_pool3d_with_indices(...)`: [output, indices]. */
export function max_pool3d_with_indices(input: Tensor, kernel_size: IntOrList | Pool3dOptions, ...rest: Pool3dRest): [Tensor, Tensor];
export function max_pool3d_with_indices(input: Tensor, ...args: unknown[]): [Tensor, Tensor] {
  const a = bindMaxPool3d('max_pool3d_with_indices', args);
  return torch.max_pool3d_with_indices(input, a.kernel_size, a.stride ?? [], a.padding, a.dilation, a.ceil_mode) as [Tensor, Tensor];
}

interface AvgPool3dOptions {
  kernel_size?: IntOrList;
  stride?: IntOrList | null;
  padding?: IntOrList;
  ceil_mode?: boolean;
  count_include_pad?: boolean;
  divisor_override?: number | null;
}

/** `F.avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None)`. */
export function avg_pool3d(
  input: Tensor,
  kernel_size: IntOrList | AvgPool3dOptions,
  ...rest: Rest<
    [stride: IntOrList | null, padding: IntOrList, ceil_mode: boolean, count_include_pad: boolean, divisor_override: number | null],
    AvgPool3dOptions
  >
): Tensor {
  const a = bindAll(
    'avg_pool3d',
    ['kernel_size'],
    {
      stride: null as IntOrList | null,
      padding: 0 as IntOrList,
      ceil_mode: false,
      count_include_pad: true,
      divisor_override: null as number | null,
    },
    [kernel_size, ...rest],
  ) as Required<AvgPool3dOptions> & { kernel_size: IntOrList };
  return torch.avg_pool3d(input, a.kernel_size, a.stride ?? [], a.padding, a.ceil_mode, a.count_include_pad, a.divisor_override);
}

/**
 * `F.adaptive_max_pool3d(input, output_size, return_indices=False)`: `torch.adaptive_max_pool3d` after
 * `_list_with_default`, its output or [output, indices].
 */
export function adaptive_max_pool3d(input: Tensor, output_size: OutputSize, options: { return_indices: true }): [Tensor, Tensor];
export function adaptive_max_pool3d(
  input: Tensor,
  output_size: OutputSize | { output_size?: OutputSize; return_indices?: boolean },
  ...rest: Rest<[return_indices: boolean], { output_size?: OutputSize; return_indices?: boolean }>
): Tensor;
export function adaptive_max_pool3d(input: Tensor, ...args: unknown[]): Tensor | [Tensor, Tensor] {
  const a = bindAll('adaptive_max_pool3d', ['output_size'], { return_indices: false }, args) as {
    output_size: OutputSize;
    return_indices: boolean;
  };
  const os = listWithDefault(a.output_size, input);
  const r = torch.adaptive_max_pool3d(input, typeof os === 'number' ? [os, os, os] : os) as [Tensor, Tensor];
  return a.return_indices ? r : r[0];
}

// ---- fractional max pooling ------------------------------------------------------------------------------

type FractionalRest = Rest<
  [output_size: IntOrList | null, output_ratio: number | readonly number[] | null, return_indices: boolean, _random_samples: Tensor | null],
  FractionalOptions
>;
interface FractionalOptions {
  kernel_size?: IntOrList;
  output_size?: IntOrList | null;
  output_ratio?: number | readonly number[] | null;
  return_indices?: boolean;
  _random_samples?: Tensor | null;
}

/**
 * `fractional_max_pool{2,3}d_with_indices`: output_size, or `int(size · ratio)` per dim from output_ratio, and
 * `_random_samples` drawn as PyTorch draws them (`torch.rand(N, C, dims)` in the input's dtype; N is 1 for an
 * unbatched input), then the native operator.
 */
function fractional(dims: 2 | 3, input: Tensor, args: readonly unknown[], withIndices = false): Tensor | [Tensor, Tensor] {
  const fname = `fractional_max_pool${dims}d`;
  const a = bindAll(
    fname,
    ['kernel_size'],
    {
      output_size: null as IntOrList | null,
      output_ratio: null as number | readonly number[] | null,
      return_indices: false,
      _random_samples: null as Tensor | null,
    },
    args,
  ) as Required<FractionalOptions> & { kernel_size: IntOrList };
  let outputSize = a.output_size;
  if (outputSize === null) {
    if (a.output_ratio === null) throw new Error(`${fname} requires specifying either an output_size or an output_ratio`);
    const ratio = a.output_ratio;
    if (dims === 2 && typeof ratio !== 'number' && ratio.length > 2) {
      throw new Error('fractional_max_pool2d requires output_ratio to either be a single Int or tuple of Ints.');
    }
    const r = typeof ratio === 'number' ? new Array<number>(dims).fill(ratio) : [...ratio];
    const nd = input.dim();
    outputSize = r.map((v, i) => Math.trunc((input.sizes[nd - dims + i] as number) * v));
  }
  let samples = a._random_samples;
  if (samples === null) {
    const nBatch = input.dim() === dims + 1 ? 1 : (input.sizes[0] as number);
    samples = torch.rand([nBatch, input.sizes[input.dim() - dims - 1] as number, dims], { dtype: input.dtype, device: input.device });
  }
  const r =
    dims === 2
      ? torch.fractional_max_pool2d(input, a.kernel_size, outputSize, samples)
      : torch.fractional_max_pool3d(input, a.kernel_size, outputSize, samples);
  return a.return_indices || withIndices ? (r as [Tensor, Tensor]) : (r as [Tensor, Tensor])[0];
}

/**
 * `F.fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
 * _random_samples=None)`: the output, or [output, indices] with return_indices.
 */
export function fractional_max_pool2d(
  input: Tensor,
  kernel_size: IntOrList,
  options: FractionalOptions & { return_indices: true },
): [Tensor, Tensor];
export function fractional_max_pool2d(input: Tensor, kernel_size: IntOrList | FractionalOptions, ...rest: FractionalRest): Tensor;
export function fractional_max_pool2d(input: Tensor, ...args: unknown[]): Tensor | [Tensor, Tensor] {
  return fractional(2, input, args);
}

/** `F.fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False, _random_samples=None)`. */
export function fractional_max_pool3d(
  input: Tensor,
  kernel_size: IntOrList,
  options: FractionalOptions & { return_indices: true },
): [Tensor, Tensor];
export function fractional_max_pool3d(input: Tensor, kernel_size: IntOrList | FractionalOptions, ...rest: FractionalRest): Tensor;
export function fractional_max_pool3d(input: Tensor, ...args: unknown[]): Tensor | [Tensor, Tensor] {
  return fractional(3, input, args);
}

/** `F.fractional_max_pool2d_with_indices(...)`: [output, indices]. */
export function fractional_max_pool2d_with_indices(
  input: Tensor,
  kernel_size: IntOrList | FractionalOptions,
  ...rest: FractionalRest
): [Tensor, Tensor];
export function fractional_max_pool2d_with_indices(input: Tensor, ...args: unknown[]): [Tensor, Tensor] {
  return fractional(2, input, args, true) as [Tensor, Tensor];
}

/** `F.fractional_max_pool3d_with_indices(...)`: [output, indices]. */
export function fractional_max_pool3d_with_indices(
  input: Tensor,
  kernel_size: IntOrList | FractionalOptions,
  ...rest: FractionalRest
): [Tensor, Tensor];
export function fractional_max_pool3d_with_indices(input: Tensor, ...args: unknown[]): [Tensor, Tensor] {
  return fractional(3, input, args, true) as [Tensor, Tensor];
}
