// LayerNorm, GroupNorm, RMSNorm, LocalResponseNorm. Mirrors torch/nn/modules/normalization.py.

import type { Tensor } from '../../tensor/Tensor.js';
import * as torch from '../../api/torch.js';
import * as F from '../functional.js';
import * as init from '../init.js';
import { Parameter } from '../parameter.js';
import { Module } from './module.js';
import { parseArgs, pyFloat, pyRepr, type FactoryKwargs, type Rest } from './utils.js';

export interface LayerNormOptions extends FactoryKwargs {
  eps?: number;
  elementwise_affine?: boolean;
  bias?: boolean;
}

/** `nn.LayerNorm(normalized_shape, eps=1e-5, elementwise_affine=True, bias=True)`. */
export class LayerNorm extends Module {
  declare normalized_shape: number[];
  declare eps: number;
  declare elementwise_affine: boolean;
  declare weight: Parameter | null;
  declare bias: Parameter | null;

  constructor(
    normalized_shape: number | readonly number[],
    ...rest: Rest<[eps: number, elementwise_affine: boolean, bias: boolean], LayerNormOptions>
  ) {
    super();
    const a = parseArgs(
      'LayerNorm',
      { eps: 1e-5, elementwise_affine: true, bias: true, device: null as string | null, dtype: null as string | null },
      rest,
    );
    this.normalized_shape = typeof normalized_shape === 'number' ? [normalized_shape] : [...normalized_shape];
    this.eps = a.eps;
    this.elementwise_affine = a.elementwise_affine;
    const fk = { device: a.device, dtype: a.dtype };
    if (a.elementwise_affine) {
      this.weight = new Parameter(torch.empty(this.normalized_shape, fk));
      if (a.bias) this.bias = new Parameter(torch.empty(this.normalized_shape, fk));
      else this.register_parameter('bias', null);
    } else {
      this.register_parameter('weight', null);
      this.register_parameter('bias', null);
    }
    this.reset_parameters();
  }

  reset_parameters(): void {
    if (this.elementwise_affine) {
      init.ones_(this.weight as Parameter);
      if (this.bias !== null) init.zeros_(this.bias);
    }
  }

  override forward(input: Tensor): Tensor {
    return F.layer_norm(input, this.normalized_shape, this.weight, this.bias, this.eps);
  }

  override extra_repr(): string {
    return `${pyRepr(this.normalized_shape)}, eps=${pyFloat(this.eps)}, elementwise_affine=${pyRepr(this.elementwise_affine)}, bias=${pyRepr(this.bias !== null)}`;
  }
}

export interface GroupNormOptions extends FactoryKwargs {
  eps?: number;
  affine?: boolean;
  bias?: boolean;
}

/** `nn.GroupNorm(num_groups, num_channels, eps=1e-5, affine=True)`. */
export class GroupNorm extends Module {
  declare num_groups: number;
  declare num_channels: number;
  declare eps: number;
  declare affine: boolean;
  declare weight: Parameter | null;
  declare bias: Parameter | null;

  constructor(num_groups: number, num_channels: number, ...rest: Rest<[eps: number, affine: boolean], GroupNormOptions>) {
    super();
    const a = parseArgs(
      'GroupNorm',
      { eps: 1e-5, affine: true, device: null as string | null, dtype: null as string | null, bias: true },
      rest,
    );
    if (num_channels % num_groups !== 0) throw new Error(`num_channels (${num_channels}) must be divisible by num_groups (${num_groups})`);
    this.num_groups = num_groups;
    this.num_channels = num_channels;
    this.eps = a.eps;
    this.affine = a.affine;
    const fk = { device: a.device, dtype: a.dtype };
    if (a.affine) {
      this.weight = new Parameter(torch.empty([num_channels], fk));
      if (a.bias) this.bias = new Parameter(torch.empty([num_channels], fk));
      else this.register_parameter('bias', null);
    } else {
      this.register_parameter('weight', null);
      this.register_parameter('bias', null);
    }
    this.reset_parameters();
  }

  reset_parameters(): void {
    if (this.affine) {
      init.ones_(this.weight as Parameter);
      if (this.bias !== null) init.zeros_(this.bias);
    }
  }

  override forward(input: Tensor): Tensor {
    return F.group_norm(input, this.num_groups, this.weight, this.bias, this.eps);
  }

  override extra_repr(): string {
    return `${this.num_groups}, ${this.num_channels}, eps=${pyFloat(this.eps)}, affine=${pyRepr(this.affine)}, bias=${pyRepr(this.bias !== null)}`;
  }
}

/** `nn.RMSNorm(normalized_shape, eps=None, elementwise_affine=True, device=None, dtype=None)`: weight initialised to ones. */
export class RMSNorm extends Module {
  declare normalized_shape: number[];
  declare eps: number | null;
  declare elementwise_affine: boolean;
  declare weight: Parameter | null;
  constructor(
    normalized_shape: number | readonly number[],
    ...rest: Rest<[eps: number | null, elementwise_affine: boolean], { eps?: number | null; elementwise_affine?: boolean } & FactoryKwargs>
  ) {
    super();
    const a = parseArgs(
      'RMSNorm',
      { eps: null as number | null, elementwise_affine: true, device: null as string | null, dtype: null as string | null },
      rest,
    );
    this.normalized_shape = typeof normalized_shape === 'number' ? [normalized_shape] : [...normalized_shape];
    this.eps = a.eps;
    this.elementwise_affine = a.elementwise_affine;
    if (a.elementwise_affine) this.weight = new Parameter(torch.empty(this.normalized_shape, { device: a.device, dtype: a.dtype }));
    else this.register_parameter('weight', null);
    this.reset_parameters();
  }
  reset_parameters(): void {
    if (this.weight !== null) init.ones_(this.weight);
  }
  override forward(input: Tensor): Tensor {
    return F.rms_norm(input, this.normalized_shape, this.weight, this.eps);
  }
  override extra_repr(): string {
    return `${pyRepr(this.normalized_shape)}, eps=${pyRepr(this.eps)}, elementwise_affine=${pyRepr(this.elementwise_affine)}`;
  }
}

/** `nn.LocalResponseNorm(size, alpha=1e-4, beta=0.75, k=1.0)`. */
export class LocalResponseNorm extends Module {
  declare size: number;
  declare alpha: number;
  declare beta: number;
  declare k: number;
  constructor(size: number, ...rest: Rest<[alpha: number, beta: number, k: number], { alpha?: number; beta?: number; k?: number }>) {
    super();
    const a = parseArgs('LocalResponseNorm', { alpha: 1e-4, beta: 0.75, k: 1.0 }, rest);
    this.size = size;
    this.alpha = a.alpha;
    this.beta = a.beta;
    this.k = a.k;
  }
  override forward(input: Tensor): Tensor {
    return F.local_response_norm(input, this.size, this.alpha, this.beta, this.k);
  }
  override extra_repr(): string {
    return `${this.size}, alpha=${pyFloat(this.alpha)}, beta=${pyFloat(this.beta)}, k=${pyFloat(this.k)}`;
  }
}
