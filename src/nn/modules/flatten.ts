// Flatten, Unflatten. Mirrors torch/nn/modules/flatten.py.

import type { Tensor } from '../../tensor/Tensor.js';
import { Module } from './module.js';
import { parseArgs, pyRepr, type Rest } from './utils.js';

/** `nn.Flatten(start_dim=1, end_dim=-1)`. */
export class Flatten extends Module {
  declare start_dim: number;
  declare end_dim: number;
  constructor(...rest: Rest<[start_dim: number, end_dim: number], { start_dim?: number; end_dim?: number }>) {
    super();
    const a = parseArgs('Flatten', { start_dim: 1, end_dim: -1 }, rest);
    this.start_dim = a.start_dim;
    this.end_dim = a.end_dim;
  }
  override forward(input: Tensor): Tensor {
    return input.flatten(this.start_dim, this.end_dim);
  }
  override extra_repr(): string {
    return `start_dim=${this.start_dim}, end_dim=${this.end_dim}`;
  }
}

/** `nn.Unflatten(dim, unflattened_size)`. */
export class Unflatten extends Module {
  declare dim: number;
  declare unflattened_size: number[];
  constructor(dim: number, unflattened_size: readonly number[]) {
    super();
    this.dim = dim;
    this.unflattened_size = [...unflattened_size];
  }
  override forward(input: Tensor): Tensor {
    return input.unflatten(this.dim, this.unflattened_size);
  }
  override extra_repr(): string {
    return `dim=${this.dim}, unflattened_size=${pyRepr(this.unflattened_size)}`;
  }
}
