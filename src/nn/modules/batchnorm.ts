// BatchNorm1d, BatchNorm2d, BatchNorm3d (their shared _NormBase and _BatchNorm). Mirrors torch/nn/modules/batchnorm.py.

import { noGrad } from '../../autograd/grad_mode.js';
import type { Tensor } from '../../tensor/Tensor.js';
import * as torch from '../../api/torch.js';
import * as F from '../functional.js';
import * as init from '../init.js';
import { Parameter } from '../parameter.js';
import { Module } from './module.js';
import { parseArgs, pyFloat, pyRepr, type FactoryKwargs, type Rest } from './utils.js';

export interface BatchNormOptions extends FactoryKwargs {
  eps?: number;
  momentum?: number | null;
  affine?: boolean;
  track_running_stats?: boolean;
  bias?: boolean;
}

type BNRest = Rest<[eps: number, momentum: number | null, affine: boolean, track_running_stats: boolean], BatchNormOptions>;

/** `_NormBase`: weight, bias and the running statistics (running_mean, running_var, num_batches_tracked). */
export class _NormBase extends Module {
  declare num_features: number;
  declare eps: number;
  declare momentum: number | null;
  declare affine: boolean;
  declare track_running_stats: boolean;
  declare weight: Parameter | null;
  declare bias: Parameter | null;
  declare running_mean: Tensor | null;
  declare running_var: Tensor | null;
  declare num_batches_tracked: Tensor | null;

  /** `affineDefault`: InstanceNorm's `affine` and `track_running_stats` default to False. */
  constructor(name: string, num_features: number, rest: BNRest, affineDefault = true) {
    super();
    const a = parseArgs(
      name,
      {
        eps: 1e-5,
        momentum: 0.1 as number | null,
        affine: affineDefault,
        track_running_stats: affineDefault,
        device: null as string | null,
        dtype: null as string | null,
        bias: true,
      },
      rest,
    );
    const fk = { device: a.device, dtype: a.dtype };
    this.num_features = num_features;
    this.eps = a.eps;
    this.momentum = a.momentum;
    this.affine = a.affine;
    this.track_running_stats = a.track_running_stats;
    if (a.affine) {
      this.weight = new Parameter(torch.empty([num_features], fk));
      if (a.bias) this.bias = new Parameter(torch.empty([num_features], fk));
      else this.register_parameter('bias', null);
    } else {
      this.register_parameter('weight', null);
      this.register_parameter('bias', null);
    }
    if (a.track_running_stats) {
      this.register_buffer('running_mean', torch.zeros([num_features], fk));
      this.register_buffer('running_var', torch.ones([num_features], fk));
      this.register_buffer('num_batches_tracked', torch.tensor(0, { dtype: 'int64', device: a.device ?? undefined }));
    } else {
      this.register_buffer('running_mean', null);
      this.register_buffer('running_var', null);
      this.register_buffer('num_batches_tracked', null);
    }
    this.reset_parameters();
  }

  reset_running_stats(): void {
    if (this.track_running_stats) {
      noGrad(() => {
        (this.running_mean as Tensor).zero_();
        (this.running_var as Tensor).fill_(1);
        (this.num_batches_tracked as Tensor).zero_();
      });
    }
  }

  reset_parameters(): void {
    this.reset_running_stats();
    if (this.affine) {
      init.ones_(this.weight as Parameter);
      if (this.bias !== null) init.zeros_(this.bias);
    }
  }

  _check_input_dim(_input: Tensor): void {
    throw new Error('_check_input_dim is abstract');
  }

  override extra_repr(): string {
    return `${this.num_features}, eps=${pyFloat(this.eps)}, momentum=${this.momentum === null ? 'None' : pyFloat(this.momentum)}, affine=${pyRepr(this.affine)}, bias=${pyRepr(this.bias !== null)}, track_running_stats=${pyRepr(this.track_running_stats)}`;
  }
}

/** `_BatchNorm.forward`: batch statistics in training (updating the running ones), running ones in eval. */
export class _BatchNorm extends _NormBase {
  override forward(input: Tensor): Tensor {
    this._check_input_dim(input);
    let factor = this.momentum ?? 0.0;
    if (this.training && this.track_running_stats && this.num_batches_tracked !== null) {
      const nbt = this.num_batches_tracked;
      noGrad(() => nbt.add_(torch.tensor(1, { dtype: 'int64' })));
      factor = this.momentum === null ? 1.0 / Number(nbt.item()) : this.momentum;
    }
    const bnTraining = this.training ? true : this.running_mean === null && this.running_var === null;
    const useRunning = !this.training || this.track_running_stats;
    return F.batch_norm(
      input,
      useRunning ? this.running_mean : null,
      useRunning ? this.running_var : null,
      this.weight,
      this.bias,
      bnTraining,
      factor,
      this.eps,
    );
  }
}

/** `nn.BatchNorm1d(num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True)`: (N, C) or (N, C, L). */
export class BatchNorm1d extends _BatchNorm {
  constructor(num_features: number, ...rest: BNRest) {
    super('BatchNorm1d', num_features, rest);
  }
  override _check_input_dim(input: Tensor): void {
    if (input.dim() !== 2 && input.dim() !== 3) throw new Error(`expected 2D or 3D input (got ${input.dim()}D input)`);
  }
}

/** `nn.BatchNorm2d(num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True)`: (N, C, H, W). */
export class BatchNorm2d extends _BatchNorm {
  constructor(num_features: number, ...rest: BNRest) {
    super('BatchNorm2d', num_features, rest);
  }
  override _check_input_dim(input: Tensor): void {
    if (input.dim() !== 4) throw new Error(`expected 4D input (got ${input.dim()}D input)`);
  }
}

/** `nn.BatchNorm3d(num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True)`: (N, C, D, H, W). */
export class BatchNorm3d extends _BatchNorm {
  constructor(num_features: number, ...rest: BNRest) {
    super('BatchNorm3d', num_features, rest);
  }
  override _check_input_dim(input: Tensor): void {
    if (input.dim() !== 5) throw new Error(`expected 5D input (got ${input.dim()}D input)`);
  }
}
