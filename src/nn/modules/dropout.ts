// Dropout. Mirrors torch/nn/modules/dropout.py.

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
