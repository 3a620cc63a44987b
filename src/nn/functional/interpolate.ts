// F.interpolate: size vs scale_factor, recompute_scale_factor, align_corners, antialias and the choice of
// native operator by input rank and mode (upsample_nearest{1,2,3}d, _upsample_nearest_exact{1,2,3}d,
// upsample_linear1d, upsample_bilinear2d, upsample_bicubic2d, upsample_trilinear3d, and 'area' as
// adaptive_avg_pool{1,2,3}d). Mirrors `interpolate` in torch/nn/functional.py, with its error texts.

import type { Tensor } from '../../tensor/Tensor.js';
import * as torch from '../../api/torch.js';
import { parseArgs, type Rest } from '../modules/utils.js';

type Sizes = number | readonly number[];

interface InterpolateOptions {
  size?: Sizes | null;
  scale_factor?: Sizes | null;
  mode?: string;
  align_corners?: boolean | null;
  recompute_scale_factor?: boolean | null;
  antialias?: boolean;
}

/** A float as Python's repr prints it in a list (`2.0`, `1.5`). */
const pyFloat = (v: number): string => (Number.isInteger(v) ? `${v}.0` : String(v));

/** `output_size` / `scale_factors` after the size and scale_factor checks of F.interpolate. */
function sizesAndScales(input: Tensor, size: Sizes | null, scaleFactor: Sizes | null): [number[] | null, number[] | null] {
  const dim = input.dim() - 2;
  const spatial = `[${input.sizes.slice(2).join(', ')}]`;
  if (size !== null && scaleFactor !== null) throw new Error('only one of size or scale_factor should be defined');
  if (size !== null) {
    if (typeof size !== 'number') {
      if (size.length !== dim) {
        throw new Error(
          `Input and output must have the same number of spatial dimensions, but got input with spatial dimensions of ` +
            `${spatial} and output size of [${size.join(', ')}]. Please provide input tensor in (N, C, d1, d2, ...,dK) ` +
            `format and output size in (o1, o2, ...,oK) format.`,
        );
      }
      if (!size.every((s) => Number.isInteger(s))) {
        const types = size.map((s) => (Number.isInteger(s) ? "<class 'int'>" : "<class 'float'>"));
        throw new TypeError(
          `expected size to be one of int or Tuple[int] or Tuple[int, int] or Tuple[int, int, int], but got size with types [${types.join(', ')}]`,
        );
      }
      return [[...size], null];
    }
    return [new Array<number>(Math.max(dim, 0)).fill(size), null];
  }
  if (scaleFactor !== null) {
    if (typeof scaleFactor !== 'number') {
      if (scaleFactor.length !== dim) {
        throw new Error(
          `Input and scale_factor must have the same number of spatial dimensions, but got input with spatial dimensions ` +
            `of ${spatial} and scale_factor of shape [${scaleFactor.map(pyFloat).join(', ')}]. Please provide input tensor ` +
            `in (N, C, d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) format.`,
        );
      }
      return [null, [...scaleFactor]];
    }
    return [null, new Array<number>(Math.max(dim, 0)).fill(scaleFactor)];
  }
  throw new Error('either size or scale_factor should be defined');
}

/**
 * `F.interpolate(input, size=None, scale_factor=None, mode='nearest', align_corners=None,
 * recompute_scale_factor=None, antialias=False)`: the native upsample operator of the input's rank and the
 * mode (grad_fn UpsampleNearest2DBackward0, UpsampleBicubic2DBackward0, ...), 'area' through
 * adaptive_avg_pool{1,2,3}d. antialias=True runs _upsample_bilinear2d_aa / _upsample_bicubic2d_aa (lanczos is not implemented).
 */
export function interpolate(
  input: Tensor,
  ...rest: Rest<
    [
      size: Sizes | null,
      scale_factor: Sizes | null,
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
      size: null as Sizes | null,
      scale_factor: null as Sizes | null,
      mode: 'nearest',
      align_corners: null as boolean | null,
      recompute_scale_factor: null as boolean | null,
      antialias: false,
    },
    rest,
  );
  const mode = a.mode;
  let alignCorners = a.align_corners;
  if (mode === 'nearest' || mode === 'area' || mode === 'nearest-exact') {
    if (alignCorners !== null) {
      throw new Error('align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | trilinear');
    }
  } else alignCorners ??= false;
  let [outputSize, scaleFactors] = sizesAndScales(input, a.size, a.scale_factor);
  let recompute = a.recompute_scale_factor;
  if (recompute === true && a.size !== null) throw new Error('recompute_scale_factor is not meaningful with an explicit size.');
  // "area" always needs an explicit size: the recompute_scale_factor path computes it.
  if (mode === 'area' && outputSize === null) recompute = true;
  if (recompute === true && scaleFactors !== null) {
    const sf = scaleFactors;
    outputSize = sf.map((s, i) => Math.trunc((input.sizes[i + 2] as number) * s));
    scaleFactors = null;
  }
  const nd = input.dim();
  if (a.antialias && !((mode === 'bilinear' || mode === 'bicubic' || mode === 'lanczos') && nd === 4)) {
    throw new Error('Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires a 4-D tensor as input');
  }
  const ac = alignCorners ?? false;
  if (mode === 'nearest' && nd >= 3 && nd <= 5) {
    if (nd === 3) return torch.upsample_nearest1d(input, outputSize, scaleFactors);
    if (nd === 4) return torch.upsample_nearest2d(input, outputSize, scaleFactors);
    return torch.upsample_nearest3d(input, outputSize, scaleFactors);
  }
  if (mode === 'nearest-exact' && nd >= 3 && nd <= 5) {
    if (nd === 3) return torch._upsample_nearest_exact1d(input, outputSize, scaleFactors);
    if (nd === 4) return torch._upsample_nearest_exact2d(input, outputSize, scaleFactors);
    return torch._upsample_nearest_exact3d(input, outputSize, scaleFactors);
  }
  if (mode === 'area' && nd >= 3 && nd <= 5) {
    const os = outputSize as number[];
    if (nd === 3) return torch.adaptive_avg_pool1d(input, os);
    if (nd === 4) return torch.adaptive_avg_pool2d(input, os);
    return torch.adaptive_avg_pool3d(input, os);
  }
  if (nd === 3 && mode === 'linear') return torch.upsample_linear1d(input, outputSize, ac, scaleFactors);
  if ((nd === 4 && (mode === 'bilinear' || mode === 'bicubic')) || (nd === 4 && mode === 'lanczos')) {
    if (mode === 'lanczos') {
      if (ac) throw new Error('Lanczos mode does not support align_corners=True');
      if (!a.antialias) throw new Error('Lanczos mode requires antialias=True');
    }
    if (a.antialias && mode === 'lanczos') {
      throw new Error("F.interpolate: antialias=True (mode 'lanczos', the _upsample_lanczos2d_aa kernel) is not implemented in aten-ts");
    }
    if (a.antialias && mode === 'bilinear') return torch._upsample_bilinear2d_aa(input, outputSize, ac, scaleFactors);
    if (a.antialias) return torch._upsample_bicubic2d_aa(input, outputSize, ac, scaleFactors);
    if (mode === 'bilinear') return torch.upsample_bilinear2d(input, outputSize, ac, scaleFactors);
    return torch.upsample_bicubic2d(input, outputSize, ac, scaleFactors);
  }
  if (nd === 5 && mode === 'trilinear') return torch.upsample_trilinear3d(input, outputSize, ac, scaleFactors);
  const needs: Record<string, string> = { linear: '3D', bilinear: '4D', trilinear: '5D' };
  if (nd >= 3 && nd <= 5 && needs[mode] !== undefined) {
    throw new Error(`Got ${nd}D input, but ${mode} mode needs ${needs[mode]} input`);
  }
  throw new Error(
    `Input Error: Only 3D, 4D and 5D input Tensors supported (got ${nd}D) for the modes: ` +
      `nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact (got ${mode})`,
  );
}

type UpsampleRest = Rest<[size: Sizes | null, scale_factor: Sizes | null], { size?: Sizes | null; scale_factor?: Sizes | null }>;

/**
 * `F.upsample(input, size=None, scale_factor=None, mode='nearest', align_corners=None)`: deprecated in
 * PyTorch (it warns "Use `nn.functional.interpolate` instead"), `interpolate` with those arguments.
 */
export function upsample(
  input: Tensor,
  ...rest: Rest<
    [size: Sizes | null, scale_factor: Sizes | null, mode: string, align_corners: boolean | null],
    { size?: Sizes | null; scale_factor?: Sizes | null; mode?: string; align_corners?: boolean | null }
  >
): Tensor {
  const a = parseArgs(
    'upsample',
    { size: null as Sizes | null, scale_factor: null as Sizes | null, mode: 'nearest', align_corners: null as boolean | null },
    rest,
  );
  return interpolate(input, a.size, a.scale_factor, a.mode, a.align_corners);
}

/** `F.upsample_nearest(input, size=None, scale_factor=None)` (deprecated): `interpolate(mode='nearest')`. */
export function upsample_nearest(input: Tensor, ...rest: UpsampleRest): Tensor {
  const a = parseArgs('upsample_nearest', { size: null as Sizes | null, scale_factor: null as Sizes | null }, rest);
  return interpolate(input, a.size, a.scale_factor, 'nearest');
}

/** `F.upsample_bilinear(input, size=None, scale_factor=None)` (deprecated): `interpolate(mode='bilinear', align_corners=True)`. */
export function upsample_bilinear(input: Tensor, ...rest: UpsampleRest): Tensor {
  const a = parseArgs('upsample_bilinear', { size: null as Sizes | null, scale_factor: null as Sizes | null }, rest);
  return interpolate(input, a.size, a.scale_factor, 'bilinear', true);
}
