// PairwiseDistance, CosineSimilarity. Mirrors torch/nn/modules/distance.py.

import type { Tensor } from '../../tensor/Tensor.js';
import * as F from '../functional.js';
import { Module } from './module.js';
import { parseArgs, type Rest } from './utils.js';

/** `nn.PairwiseDistance(p=2.0, eps=1e-6, keepdim=False)`: `F.pairwise_distance` (the order kept as `norm`). */
export class PairwiseDistance extends Module {
  declare norm: number;
  declare eps: number;
  declare keepdim: boolean;
  constructor(...rest: Rest<[p: number, eps: number, keepdim: boolean], { p?: number; eps?: number; keepdim?: boolean }>) {
    super();
    const a = parseArgs('PairwiseDistance', { p: 2.0, eps: 1e-6, keepdim: false }, rest);
    this.norm = a.p;
    this.eps = a.eps;
    this.keepdim = a.keepdim;
  }
  override forward(x1: Tensor, x2: Tensor): Tensor {
    return F.pairwise_distance(x1, x2, this.norm, this.eps, this.keepdim);
  }
}

/** `nn.CosineSimilarity(dim=1, eps=1e-8)`: `F.cosine_similarity`. */
export class CosineSimilarity extends Module {
  declare dim: number;
  declare eps: number;
  constructor(...rest: Rest<[dim: number, eps: number], { dim?: number; eps?: number }>) {
    super();
    const a = parseArgs('CosineSimilarity', { dim: 1, eps: 1e-8 }, rest);
    this.dim = a.dim;
    this.eps = a.eps;
  }
  override forward(x1: Tensor, x2: Tensor): Tensor {
    return F.cosine_similarity(x1, x2, this.dim, this.eps);
  }
}
