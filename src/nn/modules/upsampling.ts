// Upsample, UpsamplingNearest2d, UpsamplingBilinear2d. Mirrors torch/nn/modules/upsampling.py: each forward
// is F.interpolate with the stored options.

import type { Tensor } from '../../tensor/Tensor.js';
import * as F from '../functional.js';
import { Module } from './module.js';
import { parseArgs, pyRepr, type Rest } from './utils.js';

type Sizes = number | readonly number[];

/** The options of `nn.Upsample` (PyTorch's keyword arguments: `size`, `scale_factor`, `mode`, `align_corners`, `recompute_scale_factor`). */
export interface UpsampleOptions {
  size?: Sizes | null;
  scale_factor?: Sizes | null;
  mode?: string;
  align_corners?: boolean | null;
  recompute_scale_factor?: boolean | null;
}

/** `nn.Upsample(size=None, scale_factor=None, mode='nearest', align_corners=None, recompute_scale_factor=None)`. */
export class Upsample extends Module {
  declare name: string;
  declare size: Sizes | null;
  declare scale_factor: Sizes | null;
  declare mode: string;
  declare align_corners: boolean | null;
  declare recompute_scale_factor: boolean | null;

  constructor(
    ...rest: Rest<
      [size: Sizes | null, scale_factor: Sizes | null, mode: string, align_corners: boolean | null, recompute_scale_factor: boolean | null],
      UpsampleOptions
    >
  ) {
    super();
    const a = parseArgs(
      'Upsample',
      {
        size: null as Sizes | null,
        scale_factor: null as Sizes | null,
        mode: 'nearest',
        align_corners: null as boolean | null,
        recompute_scale_factor: null as boolean | null,
      },
      rest,
    );
    this.name = new.target.name;
    this.size = a.size;
    // Python stores float(scale_factor) (None for 0 / None), a tuple of floats for a tuple.
    this.scale_factor = typeof a.scale_factor === 'number' ? (a.scale_factor === 0 ? null : a.scale_factor) : a.scale_factor;
    this.mode = a.mode;
    this.align_corners = a.align_corners;
    this.recompute_scale_factor = a.recompute_scale_factor;
  }

  override forward(input: Tensor): Tensor {
    return F.interpolate(input, this.size, this.scale_factor, this.mode, this.align_corners, {
      recompute_scale_factor: this.recompute_scale_factor,
    });
  }

  override extra_repr(): string {
    const info = this.scale_factor !== null ? `scale_factor=${pyRepr(this.scale_factor, true)}` : `size=${pyRepr(this.size)}`;
    return `${info}, mode=${pyRepr(this.mode)}`;
  }
}

type PairRest = Rest<[size: Sizes | null, scale_factor: Sizes | null], { size?: Sizes | null; scale_factor?: Sizes | null }>;

/** `nn.UpsamplingNearest2d(size=None, scale_factor=None)`: Upsample with mode='nearest'. */
export class UpsamplingNearest2d extends Upsample {
  constructor(...rest: PairRest) {
    const a = parseArgs('UpsamplingNearest2d', { size: null as Sizes | null, scale_factor: null as Sizes | null }, rest);
    super(a.size, a.scale_factor, 'nearest');
  }
}

/** `nn.UpsamplingBilinear2d(size=None, scale_factor=None)`: Upsample with mode='bilinear', align_corners=True. */
export class UpsamplingBilinear2d extends Upsample {
  constructor(...rest: PairRest) {
    const a = parseArgs('UpsamplingBilinear2d', { size: null as Sizes | null, scale_factor: null as Sizes | null }, rest);
    super(a.size, a.scale_factor, 'bilinear', true);
  }
}
