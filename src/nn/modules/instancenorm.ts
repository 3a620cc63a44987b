// InstanceNorm1d, InstanceNorm2d, InstanceNorm3d (their shared _InstanceNorm). Mirrors
// torch/nn/modules/instancenorm.py: a _NormBase whose affine and track_running_stats default to False, normalising
// each sample's channels over their spatial extent with F.instance_norm; an input without its batch dimension
// is normalised as a batch of one.

import { warn } from '../../c10/Warning.js';
import type { Tensor } from '../../tensor/Tensor.js';
import * as F from '../functional.js';
import { _NormBase, type BatchNormOptions } from './batchnorm.js';
import type { Rest } from './utils.js';

type INRest = Rest<[eps: number, momentum: number | null, affine: boolean, track_running_stats: boolean], BatchNormOptions>;

/** `_InstanceNorm(num_features, eps=1e-5, momentum=0.1, affine=False, track_running_stats=False)`. */
export abstract class _InstanceNorm extends _NormBase {
  /** The dimensions of an input without its batch dimension (2, 3, 4 for 1d, 2d, 3d). */
  protected abstract readonly noBatchDim: number;

  constructor(num_features: number, ...rest: INRest) {
    super(new.target.name, num_features, rest, false);
  }

  override _check_input_dim(input: Tensor): void {
    const d = this.noBatchDim;
    if (input.dim() !== d && input.dim() !== d + 1) throw new Error(`expected ${d}D or ${d + 1}D input (got ${input.dim()}D input)`);
  }

  private applyInstanceNorm(input: Tensor): Tensor {
    const useInput = this.training || !this.track_running_stats;
    return F.instance_norm(input, this.running_mean, this.running_var, this.weight, this.bias, useInput, this.momentum ?? 0.0, this.eps);
  }

  override forward(input: Tensor): Tensor {
    this._check_input_dim(input);
    const featureDim = input.dim() - this.noBatchDim;
    if (input.size(featureDim) !== this.num_features) {
      if (this.affine)
        throw new Error(
          `expected input's size at dim=${featureDim} to match num_features (${this.num_features}), but got: ${input.size(featureDim)}.`,
        );
      warn(
        `input's size at dim=${featureDim} does not match num_features. You can silence this warning by not passing in num_features, which is not used because affine=False`,
      );
    }
    if (input.dim() === this.noBatchDim) return this.applyInstanceNorm(input.unsqueeze(0)).squeeze(0);
    return this.applyInstanceNorm(input);
  }
}

/** `nn.InstanceNorm1d`: (N, C, L) or (C, L). */
export class InstanceNorm1d extends _InstanceNorm {
  protected readonly noBatchDim = 2;
}
/** `nn.InstanceNorm2d`: (N, C, H, W) or (C, H, W). */
export class InstanceNorm2d extends _InstanceNorm {
  protected readonly noBatchDim = 3;
}
/** `nn.InstanceNorm3d`: (N, C, D, H, W) or (C, D, H, W). */
export class InstanceNorm3d extends _InstanceNorm {
  protected readonly noBatchDim = 4;
}
