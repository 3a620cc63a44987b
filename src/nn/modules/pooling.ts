// MaxPool1d/2d/3d, AvgPool1d/2d/3d, AdaptiveAvgPool1d/2d/3d, AdaptiveMaxPool1d/2d/3d, LPPool1d/2d/3d, MaxUnpool1d/2d/3d,
// FractionalMaxPool2d/3d.
// Mirrors torch/nn/modules/pooling.py.

import type { Tensor } from '../../tensor/Tensor.js';
import * as F from '../functional.js';
import { Module } from './module.js';
import { ntuple, parseArgs, pyRepr, single, type IntOrList, type Rest } from './utils.js';

const fmt = (v: IntOrList | null): string => (typeof v === 'number' ? String(v) : pyRepr(v));

export interface MaxPoolOptions {
  stride?: IntOrList | null;
  padding?: IntOrList;
  dilation?: IntOrList;
  return_indices?: boolean;
  ceil_mode?: boolean;
}
type MaxPoolRest = Rest<
  [stride: IntOrList | null, padding: IntOrList, dilation: IntOrList, return_indices: boolean, ceil_mode: boolean],
  MaxPoolOptions
>;

/** `_MaxPoolNd`: the options and repr of MaxPool1d/2d. */
export class _MaxPoolNd extends Module {
  declare kernel_size: IntOrList;
  declare stride: IntOrList;
  declare padding: IntOrList;
  declare dilation: IntOrList;
  declare return_indices: boolean;
  declare ceil_mode: boolean;

  constructor(name: string, kernel_size: IntOrList, rest: MaxPoolRest) {
    super();
    const a = parseArgs(
      name,
      { stride: null as IntOrList | null, padding: 0 as IntOrList, dilation: 1 as IntOrList, return_indices: false, ceil_mode: false },
      rest,
    );
    this.kernel_size = kernel_size;
    this.stride = a.stride ?? kernel_size;
    this.padding = a.padding;
    this.dilation = a.dilation;
    this.return_indices = a.return_indices;
    this.ceil_mode = a.ceil_mode;
  }

  override extra_repr(): string {
    return `kernel_size=${fmt(this.kernel_size)}, stride=${fmt(this.stride)}, padding=${fmt(this.padding)}, dilation=${fmt(this.dilation)}, ceil_mode=${pyRepr(this.ceil_mode)}`;
  }
}

/** `nn.MaxPool1d(kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False)`. */
export class MaxPool1d extends _MaxPoolNd {
  constructor(kernel_size: IntOrList, ...rest: MaxPoolRest) {
    super('MaxPool1d', kernel_size, rest);
  }
  override forward(input: Tensor): Tensor | [Tensor, Tensor] {
    if (this.return_indices)
      return F.max_pool1d_with_indices(input, this.kernel_size, this.stride, this.padding, this.dilation, this.ceil_mode);
    return F.max_pool1d(input, this.kernel_size, this.stride, this.padding, this.dilation, this.ceil_mode);
  }
}

/** `nn.MaxPool2d(kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False)`. */
export class MaxPool2d extends _MaxPoolNd {
  constructor(kernel_size: IntOrList, ...rest: MaxPoolRest) {
    super('MaxPool2d', kernel_size, rest);
  }
  override forward(input: Tensor): Tensor | [Tensor, Tensor] {
    if (this.return_indices)
      return F.max_pool2d_with_indices(input, this.kernel_size, this.stride, this.padding, this.dilation, this.ceil_mode);
    return F.max_pool2d(input, this.kernel_size, this.stride, this.padding, this.dilation, this.ceil_mode);
  }
}

export interface AvgPoolOptions {
  stride?: IntOrList | null;
  padding?: IntOrList;
  ceil_mode?: boolean;
  count_include_pad?: boolean;
  divisor_override?: number | null;
}

/** `nn.AvgPool2d(kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None)`. */
export class AvgPool2d extends Module {
  declare kernel_size: IntOrList;
  declare stride: IntOrList;
  declare padding: IntOrList;
  declare ceil_mode: boolean;
  declare count_include_pad: boolean;
  declare divisor_override: number | null;

  constructor(
    kernel_size: IntOrList,
    ...rest: Rest<
      [stride: IntOrList | null, padding: IntOrList, ceil_mode: boolean, count_include_pad: boolean, divisor_override: number | null],
      AvgPoolOptions
    >
  ) {
    super();
    const a = parseArgs(
      new.target.name === 'AvgPool3d' ? 'AvgPool3d' : 'AvgPool2d', // by name: a self-reference would make the bundler rename the class
      {
        stride: null as IntOrList | null,
        padding: 0 as IntOrList,
        ceil_mode: false,
        count_include_pad: true,
        divisor_override: null as number | null,
      },
      rest,
    );
    this.kernel_size = kernel_size;
    this.stride = a.stride ?? kernel_size;
    this.padding = a.padding;
    this.ceil_mode = a.ceil_mode;
    this.count_include_pad = a.count_include_pad;
    this.divisor_override = a.divisor_override;
  }

  override forward(input: Tensor): Tensor {
    return F.avg_pool2d(input, this.kernel_size, this.stride, this.padding, this.ceil_mode, this.count_include_pad, this.divisor_override);
  }

  override extra_repr(): string {
    return `kernel_size=${fmt(this.kernel_size)}, stride=${fmt(this.stride)}, padding=${fmt(this.padding)}`;
  }
}

/** `nn.AdaptiveAvgPool2d(output_size)`. */
export class AdaptiveAvgPool2d extends Module {
  declare output_size: IntOrList;
  constructor(output_size: IntOrList) {
    super();
    this.output_size = output_size;
  }
  override forward(input: Tensor): Tensor {
    return F.adaptive_avg_pool2d(input, this.output_size);
  }
  override extra_repr(): string {
    return `output_size=${fmt(this.output_size)}`;
  }
}

/** `nn.AdaptiveAvgPool3d(output_size)`. */
export class AdaptiveAvgPool3d extends Module {
  declare output_size: IntOrList;
  constructor(output_size: IntOrList) {
    super();
    this.output_size = output_size;
  }
  override forward(input: Tensor): Tensor {
    return F.adaptive_avg_pool3d(input, this.output_size);
  }
  override extra_repr(): string {
    return `output_size=${fmt(this.output_size)}`;
  }
}

/** `nn.AvgPool1d(kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True)`: its sizes stored as 1-tuples. */
export class AvgPool1d extends Module {
  declare kernel_size: number[];
  declare stride: number[];
  declare padding: number[];
  declare ceil_mode: boolean;
  declare count_include_pad: boolean;
  constructor(
    kernel_size: IntOrList,
    ...rest: Rest<
      [stride: IntOrList | null, padding: IntOrList, ceil_mode: boolean, count_include_pad: boolean],
      { stride?: IntOrList | null; padding?: IntOrList; ceil_mode?: boolean; count_include_pad?: boolean }
    >
  ) {
    super();
    const a = parseArgs(
      'AvgPool1d',
      { stride: null as IntOrList | null, padding: 0 as IntOrList, ceil_mode: false, count_include_pad: true },
      rest,
    );
    this.kernel_size = single(kernel_size);
    this.stride = single(a.stride ?? kernel_size);
    this.padding = single(a.padding);
    this.ceil_mode = a.ceil_mode;
    this.count_include_pad = a.count_include_pad;
  }
  override forward(input: Tensor): Tensor {
    return F.avg_pool1d(input, this.kernel_size, this.stride, this.padding, this.ceil_mode, this.count_include_pad);
  }
  override extra_repr(): string {
    return `kernel_size=${pyRepr(this.kernel_size)}, stride=${pyRepr(this.stride)}, padding=${pyRepr(this.padding)}`;
  }
}

/** `nn.AdaptiveAvgPool1d(output_size)`. */
export class AdaptiveAvgPool1d extends AdaptiveAvgPool2d {
  override forward(input: Tensor): Tensor {
    return F.adaptive_avg_pool1d(input, this.output_size);
  }
}

/** `_AdaptiveMaxPoolNd(output_size, return_indices=False)`. */
abstract class _AdaptiveMaxPoolNd extends Module {
  declare output_size: IntOrList;
  declare return_indices: boolean;
  constructor(output_size: IntOrList, ...rest: Rest<[return_indices: boolean], { return_indices?: boolean }>) {
    super();
    this.output_size = output_size;
    this.return_indices = parseArgs(new.target.name, { return_indices: false }, rest).return_indices;
  }
  override extra_repr(): string {
    return `output_size=${fmt(this.output_size)}`;
  }
}

/** `nn.AdaptiveMaxPool1d(output_size, return_indices=False)`. */
export class AdaptiveMaxPool1d extends _AdaptiveMaxPoolNd {
  override forward(input: Tensor): Tensor | [Tensor, Tensor] {
    return F.adaptive_max_pool1d(input, this.output_size, { return_indices: this.return_indices });
  }
}

/** `nn.AdaptiveMaxPool2d(output_size, return_indices=False)`. */
export class AdaptiveMaxPool2d extends _AdaptiveMaxPoolNd {
  override forward(input: Tensor): Tensor | [Tensor, Tensor] {
    return F.adaptive_max_pool2d(input, this.output_size, { return_indices: this.return_indices });
  }
}

/** `_LPPoolNd(norm_type, kernel_size, stride=None, ceil_mode=False)`. */
abstract class _LPPoolNd extends Module {
  declare norm_type: number;
  declare kernel_size: IntOrList;
  declare stride: IntOrList | null;
  declare ceil_mode: boolean;
  constructor(
    norm_type: number,
    kernel_size: IntOrList,
    ...rest: Rest<[stride: IntOrList | null, ceil_mode: boolean], { stride?: IntOrList | null; ceil_mode?: boolean }>
  ) {
    super();
    const a = parseArgs(new.target.name, { stride: null as IntOrList | null, ceil_mode: false }, rest);
    this.norm_type = norm_type;
    this.kernel_size = kernel_size;
    this.stride = a.stride;
    this.ceil_mode = a.ceil_mode;
  }
  override extra_repr(): string {
    return `norm_type=${pyRepr(this.norm_type)}, kernel_size=${fmt(this.kernel_size)}, stride=${fmt(this.stride)}, ceil_mode=${pyRepr(this.ceil_mode)}`;
  }
}

/** `nn.LPPool1d(norm_type, kernel_size, stride=None, ceil_mode=False)`. */
export class LPPool1d extends _LPPoolNd {
  override forward(input: Tensor): Tensor {
    return F.lp_pool1d(input, this.norm_type, this.kernel_size as number, this.stride, this.ceil_mode);
  }
}

/** `nn.LPPool2d(norm_type, kernel_size, stride=None, ceil_mode=False)`. */
export class LPPool2d extends _LPPoolNd {
  override forward(input: Tensor): Tensor {
    return F.lp_pool2d(input, this.norm_type, this.kernel_size, this.stride, this.ceil_mode);
  }
}

/** `nn.LPPool3d(norm_type, kernel_size, stride=None, ceil_mode=False)`. */
export class LPPool3d extends _LPPoolNd {
  override forward(input: Tensor): Tensor {
    return F.lp_pool3d(input, this.norm_type, this.kernel_size, this.stride, this.ceil_mode);
  }
}

const tupleRepr = (v: readonly number[]): string => `(${v.join(', ')}${v.length === 1 ? ',' : ''})`;

/** `_MaxUnpoolNd`: kernel_size, stride (default kernel_size) and padding as n-tuples, and their repr. */
export class _MaxUnpoolNd extends Module {
  declare kernel_size: number[];
  declare stride: number[];
  declare padding: number[];
  constructor(
    name: string,
    n: number,
    kernel_size: IntOrList,
    rest: Rest<[stride: IntOrList | null, padding: IntOrList], { stride?: IntOrList | null; padding?: IntOrList }>,
  ) {
    super();
    const a = parseArgs(name, { stride: null as IntOrList | null, padding: 0 as IntOrList }, rest);
    this.kernel_size = ntuple(n, kernel_size, 'kernel_size');
    this.stride = ntuple(n, a.stride ?? kernel_size, 'stride');
    this.padding = ntuple(n, a.padding, 'padding');
  }
  override extra_repr(): string {
    return `kernel_size=${tupleRepr(this.kernel_size)}, stride=${tupleRepr(this.stride)}, padding=${tupleRepr(this.padding)}`;
  }
}

type UnpoolRest = Rest<[stride: IntOrList | null, padding: IntOrList], { stride?: IntOrList | null; padding?: IntOrList }>;

/** `nn.MaxUnpool1d(kernel_size, stride=None, padding=0)`: forward(input, indices, output_size=None). */
export class MaxUnpool1d extends _MaxUnpoolNd {
  constructor(kernel_size: IntOrList, ...rest: UnpoolRest) {
    super('MaxUnpool1d', 1, kernel_size, rest);
  }
  override forward(input: Tensor, indices: Tensor, output_size: readonly number[] | null = null): Tensor {
    return F.max_unpool1d(input, indices, this.kernel_size, this.stride, this.padding, output_size);
  }
}

/** `nn.MaxUnpool2d(kernel_size, stride=None, padding=0)`: forward(input, indices, output_size=None). */
export class MaxUnpool2d extends _MaxUnpoolNd {
  constructor(kernel_size: IntOrList, ...rest: UnpoolRest) {
    super('MaxUnpool2d', 2, kernel_size, rest);
  }
  override forward(input: Tensor, indices: Tensor, output_size: readonly number[] | null = null): Tensor {
    return F.max_unpool2d(input, indices, this.kernel_size, this.stride, this.padding, output_size);
  }
}

/** `nn.MaxUnpool3d(kernel_size, stride=None, padding=0)`: forward(input, indices, output_size=None). */
export class MaxUnpool3d extends _MaxUnpoolNd {
  constructor(kernel_size: IntOrList, ...rest: UnpoolRest) {
    super('MaxUnpool3d', 3, kernel_size, rest);
  }
  override forward(input: Tensor, indices: Tensor, output_size: readonly number[] | null = null): Tensor {
    return F.max_unpool3d(input, indices, this.kernel_size, this.stride, this.padding, output_size);
  }
}

/** `nn.MaxPool3d(kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False)`. */
export class MaxPool3d extends _MaxPoolNd {
  constructor(kernel_size: IntOrList, ...rest: MaxPoolRest) {
    super('MaxPool3d', kernel_size, rest);
  }
  override forward(input: Tensor): Tensor | [Tensor, Tensor] {
    if (this.return_indices)
      return F.max_pool3d_with_indices(input, this.kernel_size, this.stride, this.padding, this.dilation, this.ceil_mode);
    return F.max_pool3d(input, this.kernel_size, this.stride, this.padding, this.dilation, this.ceil_mode);
  }
}

/** `nn.AvgPool3d(kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None)`. */
export class AvgPool3d extends AvgPool2d {
  override forward(input: Tensor): Tensor {
    return F.avg_pool3d(input, this.kernel_size, this.stride, this.padding, this.ceil_mode, this.count_include_pad, this.divisor_override);
  }
}

/** `nn.AdaptiveMaxPool3d(output_size, return_indices=False)`. */
export class AdaptiveMaxPool3d extends Module {
  declare output_size: IntOrList;
  declare return_indices: boolean;
  constructor(output_size: IntOrList, ...rest: Rest<[return_indices: boolean], { return_indices?: boolean }>) {
    super();
    this.output_size = output_size;
    this.return_indices = parseArgs('AdaptiveMaxPool3d', { return_indices: false }, rest).return_indices;
  }
  override forward(input: Tensor): Tensor | [Tensor, Tensor] {
    return this.return_indices
      ? F.adaptive_max_pool3d(input, this.output_size, { return_indices: true })
      : F.adaptive_max_pool3d(input, this.output_size);
  }
  override extra_repr(): string {
    return `output_size=${fmt(this.output_size)}`;
  }
}

interface FractionalMaxPoolOptions {
  output_size?: IntOrList | null;
  output_ratio?: number | readonly number[] | null;
  return_indices?: boolean;
  _random_samples?: Tensor | null;
}
type FractionalMaxPoolRest = Rest<
  [output_size: IntOrList | null, output_ratio: number | readonly number[] | null, return_indices: boolean, _random_samples: Tensor | null],
  FractionalMaxPoolOptions
>;

/** `FractionalMaxPool2d` / `3d`'s constructor: n-tuples, the `_random_samples` buffer (None: not in state_dict), the checks. */
abstract class _FractionalMaxPoolNd extends Module {
  declare kernel_size: number[];
  declare output_size: number[] | null;
  declare output_ratio: number[] | null;
  declare return_indices: boolean;
  declare _random_samples: Tensor | null;
  constructor(n: number, kernel_size: IntOrList, rest: FractionalMaxPoolRest) {
    super();
    const name = new.target.name;
    const a = parseArgs(
      name,
      {
        output_size: null as IntOrList | null,
        output_ratio: null as number | readonly number[] | null,
        return_indices: false,
        _random_samples: null as Tensor | null,
      },
      rest,
    );
    if (n === 3 && ntuple(3, kernel_size).some((k) => k <= 0)) {
      throw new Error(`kernel_size must be greater than 0, but got ${typeof kernel_size === 'number' ? kernel_size : pyRepr(kernel_size)}`);
    }
    this.kernel_size = ntuple(n, kernel_size, 'kernel_size');
    this.return_indices = a.return_indices;
    this.register_buffer('_random_samples', a._random_samples);
    this.output_size = a.output_size === null ? null : ntuple(n, a.output_size, 'output_size');
    this.output_ratio = a.output_ratio === null ? null : ntuple(n, a.output_ratio, 'output_ratio');
    if (a.output_size === null && a.output_ratio === null)
      throw new Error(`${name} requires specifying either an output size, or a pooling ratio`);
    if (a.output_size !== null && a.output_ratio !== null) throw new Error('only one of output_size and output_ratio may be specified');
    if (this.output_ratio !== null && !this.output_ratio.every((r) => r > 0 && r < 1)) {
      const shown = typeof a.output_ratio === 'number' ? String(a.output_ratio) : pyRepr(a.output_ratio as number[]);
      throw new Error(`output_ratio must be between 0 and 1 (got ${shown})`);
    }
  }
}

/** `nn.FractionalMaxPool2d(kernel_size, output_size=None, output_ratio=None, return_indices=False, _random_samples=None)`. */
export class FractionalMaxPool2d extends _FractionalMaxPoolNd {
  constructor(kernel_size: IntOrList, ...rest: FractionalMaxPoolRest) {
    super(2, kernel_size, rest);
  }
  override forward(input: Tensor): Tensor | [Tensor, Tensor] {
    return F.fractional_max_pool2d(input, this.kernel_size, this.output_size, this.output_ratio, this.return_indices, this._random_samples);
  }
}

/** `nn.FractionalMaxPool3d(kernel_size, output_size=None, output_ratio=None, return_indices=False, _random_samples=None)`. */
export class FractionalMaxPool3d extends _FractionalMaxPoolNd {
  constructor(kernel_size: IntOrList, ...rest: FractionalMaxPoolRest) {
    super(3, kernel_size, rest);
  }
  override forward(input: Tensor): Tensor | [Tensor, Tensor] {
    return F.fractional_max_pool3d(input, this.kernel_size, this.output_size, this.output_ratio, this.return_indices, this._random_samples);
  }
}
