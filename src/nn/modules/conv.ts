// Conv1d, Conv2d, ConvTranspose1d, ConvTranspose2d (their shared _ConvNd, _ConvTransposeNd). Mirrors torch/nn/modules/conv.py.

import type { Tensor } from '../../tensor/Tensor.js';
import * as torch from '../../api/torch.js';
import * as F from '../functional.js';
import * as init from '../init.js';
import { Parameter } from '../parameter.js';
import { Module } from './module.js';
import { ntuple, parseArgs, pyRepr, requiredArgs, type FactoryKwargs, type IntOrList, type Rest } from './utils.js';

/** The optional arguments of `nn.Conv1d` / `nn.Conv2d` (PyTorch's keywords: stride, padding, dilation, groups, bias, padding_mode, device, dtype). */
export interface ConvOptions extends FactoryKwargs {
  stride?: IntOrList;
  padding?: IntOrList | 'same' | 'valid';
  dilation?: IntOrList;
  groups?: number;
  bias?: boolean;
  padding_mode?: 'zeros' | 'reflect' | 'replicate' | 'circular';
}
export interface ConvTransposeOptions extends FactoryKwargs {
  stride?: IntOrList;
  padding?: IntOrList;
  output_padding?: IntOrList;
  groups?: number;
  bias?: boolean;
  dilation?: IntOrList;
  padding_mode?: 'zeros';
}

const VALID_PADDING_MODES = ['zeros', 'reflect', 'replicate', 'circular'];

/** `_ConvNd`: the parameters, checks, initialisation and repr shared by every convolution. */
export class _ConvNd extends Module {
  declare in_channels: number;
  declare out_channels: number;
  declare kernel_size: number[];
  declare stride: number[];
  declare padding: number[] | string;
  declare dilation: number[];
  declare transposed: boolean;
  declare output_padding: number[];
  declare groups: number;
  declare padding_mode: string;
  declare _reversed_padding_repeated_twice: number[];
  declare weight: Parameter;
  declare bias: Parameter | null;

  constructor(
    in_channels: number,
    out_channels: number,
    kernel_size: number[],
    stride: number[],
    padding: number[] | string,
    dilation: number[],
    transposed: boolean,
    output_padding: number[],
    groups: number,
    bias: boolean,
    padding_mode: string,
    factory: FactoryKwargs,
  ) {
    super();
    if (groups <= 0) throw new Error('groups must be a positive integer');
    if (in_channels % groups !== 0) throw new Error('in_channels must be divisible by groups');
    if (out_channels % groups !== 0) throw new Error('out_channels must be divisible by groups');
    if (typeof padding === 'string') {
      if (padding !== 'valid' && padding !== 'same')
        throw new Error(`Invalid padding string '${padding}', should be one of ['valid', 'same']`);
      if (padding === 'same' && stride.some((s) => s !== 1)) throw new Error("padding='same' is not supported for strided convolutions");
    }
    if (!VALID_PADDING_MODES.includes(padding_mode)) {
      throw new Error(`padding_mode must be one of ['zeros', 'reflect', 'replicate', 'circular'], but got padding_mode='${padding_mode}'`);
    }
    this.in_channels = in_channels;
    this.out_channels = out_channels;
    this.kernel_size = kernel_size;
    this.stride = stride;
    this.padding = padding;
    this.dilation = dilation;
    this.transposed = transposed;
    this.output_padding = output_padding;
    this.groups = groups;
    this.padding_mode = padding_mode;
    // F.pad's argument: (left, right) per dim, last dim first.
    if (typeof padding === 'string') {
      // _ConvNd.__init__: for 'same', dilation·(k−1) in total per dim, the odd one on the right; last dim first.
      const pads: number[] = [];
      for (let i = kernel_size.length - 1; i >= 0; i--) {
        const total = padding === 'same' ? (dilation[i] as number) * ((kernel_size[i] as number) - 1) : 0;
        const left = Math.floor(total / 2);
        pads.push(left, total - left);
      }
      this._reversed_padding_repeated_twice = pads;
    } else {
      this._reversed_padding_repeated_twice = [...padding].reverse().flatMap((p) => [p, p]);
    }
    const wshape = transposed ? [in_channels, out_channels / groups, ...kernel_size] : [out_channels, in_channels / groups, ...kernel_size];
    this.weight = new Parameter(torch.empty(wshape, { device: factory.device ?? null, dtype: factory.dtype ?? null }));
    if (bias) this.bias = new Parameter(torch.empty([out_channels], { device: factory.device ?? null, dtype: factory.dtype ?? null }));
    else this.register_parameter('bias', null);
    this.reset_parameters();
  }

  reset_parameters(): void {
    // Setting a=sqrt(5) in kaiming_uniform is the same as initializing with uniform(-1/sqrt(k), 1/sqrt(k)),
    // where k = weight.size(1) * prod(*kernel_size). See https://github.com/pytorch/pytorch/issues/57109
    init.kaiming_uniform_(this.weight, { a: Math.sqrt(5) });
    if (this.bias !== null) {
      const [fanIn] = init._calculate_fan_in_and_fan_out(this.weight);
      if (fanIn !== 0) {
        const bound = 1 / Math.sqrt(fanIn);
        init.uniform_(this.bias, -bound, bound);
      }
    }
  }

  override extra_repr(): string {
    const allEq = (xs: readonly number[], v: number): boolean => xs.every((x) => x === v);
    let s = `${this.in_channels}, ${this.out_channels}, kernel_size=${pyRepr(this.kernel_size)}, stride=${pyRepr(this.stride)}`;
    if (typeof this.padding === 'string') s += `, padding=${this.padding}`;
    else if (!allEq(this.padding, 0)) s += `, padding=${pyRepr(this.padding)}`;
    if (!allEq(this.dilation, 1)) s += `, dilation=${pyRepr(this.dilation)}`;
    if (!allEq(this.output_padding, 0)) s += `, output_padding=${pyRepr(this.output_padding)}`;
    if (this.groups !== 1) s += `, groups=${this.groups}`;
    if (this.bias === null) s += ', bias=False';
    if (this.padding_mode !== 'zeros') s += `, padding_mode=${this.padding_mode}`;
    return s;
  }
}

export type ConvRest = Rest<
  [
    stride: IntOrList,
    padding: IntOrList | 'same' | 'valid',
    dilation: IntOrList,
    groups: number,
    bias: boolean,
    padding_mode: ConvOptions['padding_mode'],
  ],
  ConvOptions
>;
const CONV_REQUIRED = ['in_channels', 'out_channels', 'kernel_size'];
/** The optional arguments of Conv1d/2d with their defaults (also LazyConv1d/2d's, lazy.ts). */
export const convSpec = () => ({
  stride: 1 as IntOrList,
  padding: 0 as IntOrList | string,
  dilation: 1 as IntOrList,
  groups: 1,
  bias: true,
  padding_mode: 'zeros' as string,
  device: null as string | null,
  dtype: null as string | null,
});

/** `nn.Conv1d(in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True, padding_mode='zeros')`. */
export class Conv1d extends _ConvNd {
  constructor(in_channels: number, out_channels: number, kernel_size: IntOrList, ...rest: ConvRest);
  /** The required arguments by keyword too: `new nn.Conv1d(1, 16, { kernel_size: 3, stride: 2 })`. */
  constructor(in_channels: number, out_channels: number, options: ConvOptions & { kernel_size: IntOrList });
  constructor(...args: unknown[]) {
    const [in_channels, out_channels, kernel_size, ...rest] = requiredArgs('Conv1d', CONV_REQUIRED, args) as [
      number,
      number,
      IntOrList,
      ...ConvRest,
    ];
    const a = parseArgs('Conv1d', convSpec(), rest);
    const pad = typeof a.padding === 'string' ? a.padding : ntuple(1, a.padding, 'padding');
    super(
      in_channels,
      out_channels,
      ntuple(1, kernel_size, 'kernel_size'),
      ntuple(1, a.stride, 'stride'),
      pad,
      ntuple(1, a.dilation, 'dilation'),
      false,
      [0],
      a.groups,
      a.bias,
      a.padding_mode,
      a,
    );
  }

  _conv_forward(input: Tensor, weight: Tensor, bias: Tensor | null): Tensor {
    if (this.padding_mode !== 'zeros') {
      return F.conv1d(
        F.pad(input, this._reversed_padding_repeated_twice, this.padding_mode),
        weight,
        bias,
        this.stride,
        0,
        this.dilation,
        this.groups,
      );
    }
    return F.conv1d(input, weight, bias, this.stride, this.padding, this.dilation, this.groups);
  }

  override forward(input: Tensor): Tensor {
    return this._conv_forward(input, this.weight, this.bias);
  }
}

/**
 * `nn.Conv2d(in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
 * padding_mode='zeros')`; padding may be 'same' or 'valid'.
 *
 * @example
 * torch.manualSeed(0);
 * const conv = new nn.Conv2d(1, 6, 5); // PyTorch's exact initial weights for the same seed
 */
export class Conv2d extends _ConvNd {
  constructor(in_channels: number, out_channels: number, kernel_size: IntOrList, ...rest: ConvRest);
  /** The required arguments by keyword too: `new nn.Conv2d(1, 16, { kernel_size: 3, stride: 2 })`. */
  constructor(in_channels: number, out_channels: number, options: ConvOptions & { kernel_size: IntOrList });
  constructor(...args: unknown[]) {
    const [in_channels, out_channels, kernel_size, ...rest] = requiredArgs('Conv2d', CONV_REQUIRED, args) as [
      number,
      number,
      IntOrList,
      ...ConvRest,
    ];
    const a = parseArgs('Conv2d', convSpec(), rest);
    const pad = typeof a.padding === 'string' ? a.padding : ntuple(2, a.padding, 'padding');
    super(
      in_channels,
      out_channels,
      ntuple(2, kernel_size, 'kernel_size'),
      ntuple(2, a.stride, 'stride'),
      pad,
      ntuple(2, a.dilation, 'dilation'),
      false,
      [0, 0],
      a.groups,
      a.bias,
      a.padding_mode,
      a,
    );
  }

  _conv_forward(input: Tensor, weight: Tensor, bias: Tensor | null): Tensor {
    if (this.padding_mode !== 'zeros') {
      return F.conv2d(
        F.pad(input, this._reversed_padding_repeated_twice, this.padding_mode),
        weight,
        bias,
        this.stride,
        0,
        this.dilation,
        this.groups,
      );
    }
    return F.conv2d(input, weight, bias, this.stride, this.padding, this.dilation, this.groups);
  }

  override forward(input: Tensor): Tensor {
    return this._conv_forward(input, this.weight, this.bias);
  }
}

/**
 * `nn.Conv3d(in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
 * padding_mode='zeros')`; padding may be 'same' or 'valid'.
 */
export class Conv3d extends _ConvNd {
  constructor(in_channels: number, out_channels: number, kernel_size: IntOrList, ...rest: ConvRest);
  /** The required arguments by keyword too: `new nn.Conv3d(1, 16, { kernel_size: 3, stride: 2 })`. */
  constructor(in_channels: number, out_channels: number, options: ConvOptions & { kernel_size: IntOrList });
  constructor(...args: unknown[]) {
    const [in_channels, out_channels, kernel_size, ...rest] = requiredArgs('Conv3d', CONV_REQUIRED, args) as [
      number,
      number,
      IntOrList,
      ...ConvRest,
    ];
    const a = parseArgs('Conv3d', convSpec(), rest);
    const pad = typeof a.padding === 'string' ? a.padding : ntuple(3, a.padding, 'padding');
    super(
      in_channels,
      out_channels,
      ntuple(3, kernel_size, 'kernel_size'),
      ntuple(3, a.stride, 'stride'),
      pad,
      ntuple(3, a.dilation, 'dilation'),
      false,
      [0, 0, 0],
      a.groups,
      a.bias,
      a.padding_mode,
      a,
    );
  }

  _conv_forward(input: Tensor, weight: Tensor, bias: Tensor | null): Tensor {
    if (this.padding_mode !== 'zeros') {
      return F.conv3d(
        F.pad(input, this._reversed_padding_repeated_twice, this.padding_mode),
        weight,
        bias,
        this.stride,
        0,
        this.dilation,
        this.groups,
      );
    }
    return F.conv3d(input, weight, bias, this.stride, this.padding, this.dilation, this.groups);
  }

  override forward(input: Tensor): Tensor {
    return this._conv_forward(input, this.weight, this.bias);
  }
}

export type ConvTransposeRest = Rest<
  [
    stride: IntOrList,
    padding: IntOrList,
    output_padding: IntOrList,
    groups: number,
    bias: boolean,
    dilation: IntOrList,
    padding_mode: 'zeros',
  ],
  ConvTransposeOptions
>;

/** The optional arguments of ConvTranspose1d/2d with their defaults (also LazyConvTranspose1d/2d's, lazy.ts). */
export const convTransposeSpec = () => ({
  stride: 1 as IntOrList,
  padding: 0 as IntOrList,
  output_padding: 0 as IntOrList,
  groups: 1,
  bias: true,
  dilation: 1 as IntOrList,
  padding_mode: 'zeros' as string,
  device: null as string | null,
  dtype: null as string | null,
});

/** `_ConvTransposeNd`: ConvTranspose1d/2d, `k` spatial dimensions. */
export abstract class _ConvTransposeNd extends _ConvNd {
  constructor(k: number, name: string, in_channels: number, out_channels: number, kernel_size: IntOrList, rest: ConvTransposeRest) {
    const a = parseArgs(name, convTransposeSpec(), rest);
    if (a.padding_mode !== 'zeros') throw new Error(`Only "zeros" padding mode is supported for ${name}`);
    super(
      in_channels,
      out_channels,
      ntuple(k, kernel_size, 'kernel_size'),
      ntuple(k, a.stride, 'stride'),
      ntuple(k, a.padding, 'padding'),
      ntuple(k, a.dilation, 'dilation'),
      true,
      ntuple(k, a.output_padding, 'output_padding'),
      a.groups,
      a.bias,
      a.padding_mode,
      a,
    );
  }

  /** `_output_padding`: the output_padding that gives `output_size` (PyTorch's check and message). */
  _output_padding(input: Tensor, output_size: readonly number[] | null): number[] {
    if (output_size === null) return this.output_padding;
    const k = this.kernel_size.length;
    const out = output_size.length === k + 2 ? output_size.slice(2) : output_size.slice(-k);
    if (out.length !== k)
      throw new Error(
        `ConvTranspose${k}D: for ${input.dim()}D input, output_size must have ${k} or ${k + 2} elements (got ${output_size.length})`,
      );
    const res: number[] = [];
    for (let d = 0; d < k; d++) {
      const dimSize = input.sizes[input.dim() - k + d] as number;
      const minSize =
        (dimSize - 1) * (this.stride[d] as number) -
        2 * ((this.padding as number[])[d] as number) +
        (this.dilation[d] as number) * ((this.kernel_size[d] as number) - 1) +
        1;
      const maxSize = minSize + (this.stride[d] as number) - 1;
      const size = out[d] as number;
      if (size < minSize || size > maxSize) {
        throw new Error(
          `requested an output size of [${out.join(', ')}], but valid sizes range from [${minSize}] to [${maxSize}] (for an input of [${input.sizes.slice(2).join(', ')}])`,
        );
      }
      res.push(size - minSize);
    }
    return res;
  }
}

/**
 * `nn.ConvTranspose1d(in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0,
 * groups=1, bias=True, dilation=1, padding_mode='zeros')`. `forward(input, output_size?)`.
 */
export class ConvTranspose1d extends _ConvTransposeNd {
  constructor(in_channels: number, out_channels: number, kernel_size: IntOrList, ...rest: ConvTransposeRest) {
    super(1, 'ConvTranspose1d', in_channels, out_channels, kernel_size, rest);
  }
  override forward(input: Tensor, output_size: readonly number[] | null = null): Tensor {
    const outPad = this._output_padding(input, output_size);
    return F.conv_transpose1d(input, this.weight, this.bias, this.stride, this.padding as number[], outPad, this.groups, this.dilation);
  }
}

/**
 * `nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0,
 * groups=1, bias=True, dilation=1, padding_mode='zeros')`. `forward(input, output_size?)`.
 */
export class ConvTranspose2d extends _ConvTransposeNd {
  constructor(in_channels: number, out_channels: number, kernel_size: IntOrList, ...rest: ConvTransposeRest) {
    super(2, 'ConvTranspose2d', in_channels, out_channels, kernel_size, rest);
  }
  override forward(input: Tensor, output_size: readonly number[] | null = null): Tensor {
    const outPad = this._output_padding(input, output_size);
    return F.conv_transpose2d(input, this.weight, this.bias, this.stride, this.padding as number[], outPad, this.groups, this.dilation);
  }
}

/**
 * `nn.ConvTranspose3d(in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0,
 * groups=1, bias=True, dilation=1, padding_mode='zeros')`. `forward(input, output_size?)`.
 */
export class ConvTranspose3d extends _ConvTransposeNd {
  constructor(in_channels: number, out_channels: number, kernel_size: IntOrList, ...rest: ConvTransposeRest) {
    super(3, 'ConvTranspose3d', in_channels, out_channels, kernel_size, rest);
  }
  override forward(input: Tensor, output_size: readonly number[] | null = null): Tensor {
    const outPad = this._output_padding(input, output_size);
    return F.conv_transpose3d(input, this.weight, this.bias, this.stride, this.padding as number[], outPad, this.groups, this.dilation);
  }
}
