// nn.functional: the everyday functions of issue 15 that torch/nn/functional.py defines in Python or binds
// from torch._C._nn — elu, selu, softplus, hardswish, mish, one_hot, huber_loss, normalize,
// cosine_similarity, pairwise_distance and interpolate (nearest / bilinear on 4-d inputs). Mirrors those
// parts of torch/nn/functional.py: each is the native operator (same grad_fn, Meta kernel and errors) or
// PyTorch's own decomposition.

import type { Tensor } from '../../tensor/Tensor.js';
import * as torch from '../../api/torch.js';
import { parseArgs, type Rest } from '../modules/utils.js';
import type { Reduction } from './loss.js';

// F.softplus, F.one_hot, F.cosine_similarity, F.pairwise_distance are the native bindings themselves
// (torch._C._nn.softplus, torch._C._nn.one_hot, torch.cosine_similarity, torch.pairwise_distance).
export { cosine_similarity, one_hot, pairwise_distance, softplus } from '../../api/torch.js';

/** `F.elu(input, alpha=1.0, inplace=False)`: `torch.elu` / `elu_`. */
export function elu(input: Tensor, ...rest: Rest<[alpha: number, inplace: boolean], { alpha?: number; inplace?: boolean }>): Tensor {
  const { alpha, inplace } = parseArgs('elu', { alpha: 1.0, inplace: false }, rest);
  return inplace ? torch.elu_(input, alpha) : torch.elu(input, alpha);
}

/** `F.selu(input, inplace=False)`: `torch.selu` / `selu_`. */
export function selu(input: Tensor, ...rest: Rest<[inplace: boolean], { inplace?: boolean }>): Tensor {
  const { inplace } = parseArgs('selu', { inplace: false }, rest);
  return inplace ? torch.selu_(input) : torch.selu(input);
}

/** `F.hardswish(input, inplace=False)`: `torch.hardswish` / `hardswish_`. */
export function hardswish(input: Tensor, ...rest: Rest<[inplace: boolean], { inplace?: boolean }>): Tensor {
  const { inplace } = parseArgs('hardswish', { inplace: false }, rest);
  return inplace ? torch.hardswish_(input) : torch.hardswish(input);
}

/** `F.mish(input, inplace=False)`: `torch.mish` / `mish_`. */
export function mish(input: Tensor, ...rest: Rest<[inplace: boolean], { inplace?: boolean }>): Tensor {
  const { inplace } = parseArgs('mish', { inplace: false }, rest);
  return inplace ? torch.mish_(input) : torch.mish(input);
}

/**
 * `F.huber_loss(input, target, reduction='mean', delta=1.0, weight=None)`: the native `huber_loss`; with a
 * weight, PyTorch's Python form (the unreduced loss times weight, then reduced).
 */
export function huber_loss(
  input: Tensor,
  target: Tensor,
  ...rest: Rest<
    [reduction: Reduction, delta: number, weight: Tensor | null],
    { reduction?: Reduction; delta?: number; weight?: Tensor | null }
  >
): Tensor {
  const { reduction, delta, weight } = parseArgs(
    'huber_loss',
    { reduction: 'mean' as Reduction, delta: 1.0, weight: null as Tensor | null },
    rest,
  );
  if (weight === null) return torch.huber_loss(input, target, { reduction, delta });
  if (weight.dim() !== input.dim() || weight.sizes.some((n, i) => n !== input.sizes[i])) {
    throw new Error('Weights and input must have the same size.');
  }
  const weighted = torch.huber_loss(input, target, { reduction: 'none', delta }).mul(weight);
  if (reduction === 'none') return weighted;
  if (reduction === 'sum') return weighted.sum();
  if (reduction === 'mean') return weighted.mean();
  throw new Error(`Invalid reduction mode: ${String(reduction)}. Expected one of 'none', 'mean', 'sum'.`);
}

/**
 * `F.normalize(input, p=2.0, dim=1, eps=1e-12, out=None)`: input / max(‖input‖_p over dim, eps), PyTorch's
 * decomposition (`norm` with keepdim, `clamp_min`, `expand_as`, `div`: grad_fn DivBackward0).
 */
export function normalize(
  input: Tensor,
  ...rest: Rest<[p: number, dim: number, eps: number, out: Tensor | null], { p?: number; dim?: number; eps?: number; out?: Tensor | null }>
): Tensor {
  const { p, dim, eps, out } = parseArgs('normalize', { p: 2.0, dim: 1, eps: 1e-12, out: null as Tensor | null }, rest);
  const norm = torch.norm(input, p, { dim, keepdim: true });
  if (out === null) return input.div(norm.clamp_min(eps).expandAs(input));
  return torch.div(input, norm.clamp_min_(eps).expandAs(input), { out });
}

type Size2 = number | readonly number[];
/** A float as Python's repr prints it in a list (`2.0`, `1.5`). */
const pyFloat = (v: number): string => (Number.isInteger(v) ? `${v}.0` : String(v));
interface InterpolateOptions {
  size?: Size2 | null;
  scale_factor?: number | readonly number[] | null;
  mode?: string;
  align_corners?: boolean | null;
  recompute_scale_factor?: boolean | null;
  antialias?: boolean;
}

/**
 * `F.interpolate(input, size=None, scale_factor=None, mode='nearest', align_corners=None,
 * recompute_scale_factor=None, antialias=False)` for 4-d inputs in the modes 'nearest' and 'bilinear'
 * (`upsample_nearest2d.vec` / `upsample_bilinear2d.vec`), with PyTorch's argument checks and texts.
 */
export function interpolate(
  input: Tensor,
  ...rest: Rest<
    [
      size: Size2 | null,
      scale_factor: number | readonly number[] | null,
      mode: string,
      align_corners: boolean | null,
      recompute_scale_factor: boolean | null,
      antialias: boolean,
    ],
    InterpolateOptions
  >
): Tensor {
  const a = parseArgs(
    'interpolate',
    {
      size: null as Size2 | null,
      scale_factor: null as number | readonly number[] | null,
      mode: 'nearest',
      align_corners: null as boolean | null,
      recompute_scale_factor: null as boolean | null,
      antialias: false,
    },
    rest,
  );
  const interpolating = ['linear', 'bilinear', 'bicubic', 'trilinear'];
  if (!interpolating.includes(a.mode) && a.align_corners !== null) {
    throw new Error('align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | trilinear');
  }
  const alignCorners = a.align_corners ?? false;
  const dim = input.dim() - 2;
  if (a.size !== null && a.scale_factor !== null) throw new Error('only one of size or scale_factor should be defined');
  let outputSize: number[] | null = null;
  let scaleFactors: number[] | null = null;
  if (a.size !== null) {
    if (typeof a.size !== 'number' && a.size.length !== dim) {
      throw new Error(
        `Input and output must have the same number of spatial dimensions, but got input with spatial dimensions of ` +
          `[${input.sizes.slice(2).join(', ')}] and output size of [${a.size.join(', ')}]. Please provide input tensor in ` +
          `(N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format.`,
      );
    }
    outputSize = typeof a.size === 'number' ? new Array<number>(dim).fill(a.size) : [...a.size];
  } else if (a.scale_factor !== null) {
    if (typeof a.scale_factor !== 'number' && a.scale_factor.length !== dim) {
      throw new Error(
        `Input and scale_factor must have the same number of spatial dimensions, but got input with spatial dimensions ` +
          `of [${input.sizes.slice(2).join(', ')}] and scale_factor of shape [${a.scale_factor.map(pyFloat).join(', ')}]. Please provide ` +
          `input tensor in (N, C, d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) format.`,
      );
    }
    scaleFactors = typeof a.scale_factor === 'number' ? new Array<number>(dim).fill(a.scale_factor) : [...a.scale_factor];
  } else throw new Error('either size or scale_factor should be defined');
  if (a.recompute_scale_factor === true && a.size !== null) {
    throw new Error('recompute_scale_factor is not meaningful with an explicit size.');
  }
  if (a.recompute_scale_factor === true && scaleFactors !== null) {
    outputSize = scaleFactors.map((s, i) => Math.floor((input.sizes[i + 2] as number) * s));
    scaleFactors = null;
  }
  if (a.antialias) throw new Error('F.interpolate: antialias=True is not supported by aten-ts (no _upsample_*_aa kernels)');
  if (input.dim() === 4 && a.mode === 'nearest') return torch.upsample_nearest2d(input, outputSize, scaleFactors);
  if (input.dim() === 4 && a.mode === 'bilinear') return torch.upsample_bilinear2d(input, outputSize, alignCorners, scaleFactors);
  const modes = ['nearest', 'linear', 'bilinear', 'bicubic', 'trilinear', 'area', 'nearest-exact'];
  if (![3, 4, 5].includes(input.dim()) || !modes.includes(a.mode)) {
    throw new Error(
      `Input Error: Only 3D, 4D and 5D input Tensors supported (got ${input.dim()}D) for the modes: ` +
        `nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact (got ${a.mode})`,
    );
  }
  throw new Error(
    `F.interpolate: mode '${a.mode}' on a ${input.dim()}-d input is not supported by aten-ts yet (4-d nearest and bilinear are)`,
  );
}
