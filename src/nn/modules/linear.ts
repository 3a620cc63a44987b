// Identity, Linear, Bilinear. Mirrors torch/nn/modules/linear.py.

import type { Tensor } from '../../tensor/Tensor.js';
import * as torch from '../../api/torch.js';
import * as F from '../functional.js';
import * as init from '../init.js';
import { Parameter } from '../parameter.js';
import { Module } from './module.js';
import { parseArgs, pyRepr, requiredArgs, type FactoryKwargs, type Rest } from './utils.js';

/** `nn.Identity()`: returns its input. */
export class Identity extends Module {
  constructor(..._args: unknown[]) {
    super();
  }

  override forward(input: Tensor): Tensor {
    return input;
  }
}

export interface LinearOptions extends FactoryKwargs {
  bias?: boolean;
}

/**
 * `nn.Linear(in_features, out_features, bias=True, device=None, dtype=None)`: y = x·Wᵀ + b.
 *
 * @example
 * torch.manualSeed(0);
 * const fc = new nn.Linear(784, 128); // PyTorch's exact initial weights for the same seed
 */
export class Linear extends Module {
  declare in_features: number;
  declare out_features: number;
  declare weight: Parameter;
  declare bias: Parameter | null;

  constructor(in_features: number, out_features: number, ...rest: Rest<[bias: boolean], LinearOptions>);
  /** Every argument by keyword: `nn.Linear(in_features=784, out_features=20)`. */
  constructor(options: LinearOptions & { in_features: number; out_features: number });
  constructor(...args: unknown[]) {
    super();
    const [in_features, out_features, ...rest] = requiredArgs('Linear', ['in_features', 'out_features'], args) as [
      number,
      number,
      ...unknown[],
    ];
    const a = parseArgs('Linear', { bias: true, device: null as string | null, dtype: null as string | null }, rest);
    this.in_features = in_features;
    this.out_features = out_features;
    this.weight = new Parameter(torch.empty([out_features, in_features], { device: a.device, dtype: a.dtype }));
    if (a.bias) this.bias = new Parameter(torch.empty([out_features], { device: a.device, dtype: a.dtype }));
    else this.register_parameter('bias', null);
    this.reset_parameters();
  }

  reset_parameters(): void {
    // Setting a=sqrt(5) in kaiming_uniform is the same as initializing with uniform(-1/sqrt(in_features),
    // 1/sqrt(in_features)). See https://github.com/pytorch/pytorch/issues/57109
    init.kaiming_uniform_(this.weight, { a: Math.sqrt(5) });
    if (this.bias !== null) {
      const [fanIn] = init._calculate_fan_in_and_fan_out(this.weight);
      const bound = fanIn > 0 ? 1 / Math.sqrt(fanIn) : 0;
      init.uniform_(this.bias, -bound, bound);
    }
  }

  override forward(input: Tensor): Tensor {
    return F.linear(input, this.weight, this.bias);
  }

  override extra_repr(): string {
    return `in_features=${this.in_features}, out_features=${this.out_features}, bias=${pyRepr(this.bias !== null)}`;
  }
}

/** MultiheadAttention's out_proj class (a Linear under another name, as in PyTorch). */
export class NonDynamicallyQuantizableLinear extends Linear {}

/** `nn.Bilinear(in1_features, in2_features, out_features, bias=True)`: y = x1ᵀ·A·x2 + b. */
export class Bilinear extends Module {
  declare in1_features: number;
  declare in2_features: number;
  declare out_features: number;
  declare weight: Parameter;
  declare bias: Parameter | null;

  constructor(in1_features: number, in2_features: number, out_features: number, ...rest: Rest<[bias: boolean], LinearOptions>) {
    super();
    const a = parseArgs('Bilinear', { bias: true, device: null as string | null, dtype: null as string | null }, rest);
    this.in1_features = in1_features;
    this.in2_features = in2_features;
    this.out_features = out_features;
    this.weight = new Parameter(torch.empty([out_features, in1_features, in2_features], { device: a.device, dtype: a.dtype }));
    if (a.bias) this.bias = new Parameter(torch.empty([out_features], { device: a.device, dtype: a.dtype }));
    else this.register_parameter('bias', null);
    this.reset_parameters();
  }

  reset_parameters(): void {
    const bound = 1 / Math.sqrt(this.weight.sizes[1] as number);
    init.uniform_(this.weight, -bound, bound);
    if (this.bias !== null) init.uniform_(this.bias, -bound, bound);
  }

  override forward(input1: Tensor, input2: Tensor): Tensor {
    return F.bilinear(input1, input2, this.weight, this.bias);
  }

  override extra_repr(): string {
    return `in1_features=${this.in1_features}, in2_features=${this.in2_features}, out_features=${this.out_features}, bias=${pyRepr(this.bias !== null)}`;
  }
}
