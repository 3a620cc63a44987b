// Dropout, Dropout2d, Dropout3d, AlphaDropout, FeatureAlphaDropout. Mirrors torch/nn/modules/dropout.py.

import type { Tensor } from '../../tensor/Tensor.js';
import * as F from '../functional.js';
import { Module } from './module.js';
import { parseArgs, pyFloat, type Rest } from './utils.js';

/** `nn.Dropout(p=0.5, inplace=False)`: PyTorch's mask for the same seed in training, the identity in eval. */
export class Dropout extends Module {
  declare p: number;
  declare inplace: boolean;
  constructor(...rest: Rest<[p: number, inplace: boolean], { p?: number; inplace?: boolean }>) {
    super();
    const a = parseArgs('Dropout', { p: 0.5, inplace: false }, rest);
    if (a.p < 0 || a.p > 1) throw new Error(`dropout probability has to be between 0 and 1, but got ${a.p}`);
    this.p = a.p;
    this.inplace = a.inplace;
  }
  override forward(input: Tensor): Tensor {
    return F.dropout(input, this.p, this.training, this.inplace);
  }
  override extra_repr(): string {
    return `p=${pyFloat(this.p)}, inplace=${this.inplace ? 'True' : 'False'}`;
  }
}

type DropoutArgs = Rest<[p: number, inplace: boolean], { p?: number; inplace?: boolean }>;

/** `_DropoutNd(p=0.5, inplace=False)`: the options and repr every dropout module shares. */
class _DropoutNd extends Module {
  declare p: number;
  declare inplace: boolean;
  constructor(rest: DropoutArgs, name: string) {
    super();
    const a = parseArgs(name, { p: 0.5, inplace: false }, rest);
    if (a.p < 0 || a.p > 1) throw new Error(`dropout probability has to be between 0 and 1, but got ${a.p}`);
    this.p = a.p;
    this.inplace = a.inplace;
  }
  override extra_repr(): string {
    return `p=${pyFloat(this.p)}, inplace=${this.inplace ? 'True' : 'False'}`;
  }
}

/** `nn.Dropout2d(p=0.5, inplace=False)`: whole channels zeroed in training. */
export class Dropout2d extends _DropoutNd {
  constructor(...rest: DropoutArgs) {
    super(rest, 'Dropout2d');
  }
  override forward(input: Tensor): Tensor {
    return F.dropout2d(input, this.p, this.training, this.inplace);
  }
}

/** `nn.Dropout3d(p=0.5, inplace=False)`. */
export class Dropout3d extends _DropoutNd {
  constructor(...rest: DropoutArgs) {
    super(rest, 'Dropout3d');
  }
  override forward(input: Tensor): Tensor {
    return F.dropout3d(input, this.p, this.training, this.inplace);
  }
}

/** `nn.AlphaDropout(p=0.5, inplace=False)`: keeps SELU's self-normalizing mean and variance (the `inplace` flag unused, as in PyTorch). */
export class AlphaDropout extends _DropoutNd {
  constructor(...rest: DropoutArgs) {
    super(rest, 'AlphaDropout');
  }
  override forward(input: Tensor): Tensor {
    return F.alpha_dropout(input, this.p, this.training);
  }
}

/** `nn.FeatureAlphaDropout(p=0.5, inplace=False)`. */
export class FeatureAlphaDropout extends _DropoutNd {
  constructor(...rest: DropoutArgs) {
    super(rest, 'FeatureAlphaDropout');
  }
  override forward(input: Tensor): Tensor {
    return F.feature_alpha_dropout(input, this.p, this.training);
  }
}
