// grid_sampler_2d and its backward: bilinear / nearest / bicubic sampling of an [N, C, H, W] input at the
// [N, H_out, W_out, 2] grid's locations. Mirrors aten/src/ATen/native/cpu/GridSamplerKernel.cpp (the
// vectorised kernel PyTorch's CPU runs for float and double), one lane at a time: ComputeLocation's
// unnormalisation ((x + 1) * scale - 0.5), its trunc-based reflection and clip-with-gradient, and
// ApplyGridSample's weights and sums in their order. See Note [grid_sampler arithmetic].

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import type { Tensor } from '../tensor/Tensor.js';
import { reader, writer } from './FloatAccess.js';
import { contiguousOf, emptyLike } from './StorageAccess.js';
import { checkGridSampler2d, gridSamplerDtype, nearbyint, Padding, samplerRound } from './GridSampler.js';

// Note [grid_sampler arithmetic]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Every operation rounds to the input's dtype (`r`: Math.fround for float32, nothing for float64), in the
// order PyTorch's CPU kernels compute: the 2-d kernel here follows the vectorised GridSamplerKernel.cpp (its
// unnormalisation, reflection and bilinear weights differ in rounding from GridSampler.h's scalar helpers),
// the 3-d kernels of GridSampler.ts follow GridSampler.cpp's scalar loops over GridSampler.h. Nearest rounds
// half to even (std::nearbyint / Vectorized::round). float16 and bfloat16 compute in float32 and round once
// when stored.

/** ComputeLocation<padding, align_corners> for one spatial size (GridSamplerKernel.cpp). */
class Location {
  readonly maxVal: number;
  readonly scale: number;
  readonly low: number;
  readonly twiceSpan: number;
  readonly empty: boolean;
  constructor(
    size: number,
    readonly padding: Padding,
    readonly alignCorners: boolean,
    readonly r: (v: number) => number,
  ) {
    this.maxVal = size - 1;
    this.scale = r(alignCorners ? (size - 1) / 2 : size / 2);
    this.low = alignCorners ? 0 : -0.5;
    this.twiceSpan = alignCorners ? (size - 1) * 2 : size * 2;
    this.empty = alignCorners ? size <= 1 : size <= 0;
  }

  unnormalize(v: number): number {
    const r = this.r;
    const u = r(r(v + 1) * this.scale);
    return this.alignCorners ? u : r(u - 0.5);
  }

  /** clamp_max(max_val, clamp_min(0, in)): NaN goes to 0. */
  clip(v: number): number {
    const lo = v > 0 ? v : 0;
    return lo < this.maxVal ? lo : this.maxVal;
  }

  reflect(v: number): number {
    if (this.alignCorners && this.empty) return 0;
    const r = this.r;
    const ts = this.twiceSpan;
    const a = Math.abs(r(v - this.low));
    const extra = r(a - r(Math.trunc(r(a / ts)) * ts));
    return r(Math.min(extra, r(ts - extra)) + this.low);
  }

  /** compute_coordinates: padding applied to an unnormalised coordinate. */
  coordinates(v: number): number {
    if (this.padding === Padding.Border) return this.clip(v);
    if (this.padding === Padding.Reflection) return this.clip(this.reflect(v));
    return v;
  }

  apply(v: number): number {
    return this.coordinates(this.unnormalize(v));
  }

  /** apply_get_grad: the location and d location / d grid. */
  applyGetGrad(v: number): [number, number] {
    const u = this.unnormalize(v);
    if (this.padding !== Padding.Border && this.padding !== Padding.Reflection) return [u, this.scale];
    let res = u;
    let grad = this.scale;
    if (this.padding === Padding.Reflection) {
      if (this.alignCorners && this.empty) return [0, 0];
      const r = this.r;
      const ts = this.twiceSpan;
      const inMinusLow = r(u - this.low);
      const neg = inMinusLow < 0;
      const a = Math.abs(inMinusLow);
      const extra = r(a - r(Math.trunc(r(a / ts)) * ts));
      const reflected = r(ts - extra);
      const oneMore = extra > reflected;
      res = r((oneMore ? reflected : extra) + this.low);
      grad = oneMore !== neg ? -grad : grad;
    }
    // clip_coordinates_get_grad: the borders count as out of bounds
    const boundedLo = Number.isNaN(res) ? res : Math.max(res, 0);
    const clipped = Number.isNaN(boundedLo) ? boundedLo : Math.min(boundedLo, this.maxVal);
    const inside = !Object.is(boundedLo, 0) && boundedLo !== 0 && clipped !== this.maxVal;
    return [clipped, inside ? grad : 0];
  }
}

/** get_cubic_coefficients (the vectorised form, A = -0.75). */
function cubicCoefficients(t: number, r: (v: number) => number): number[] {
  const A = -0.75;
  const outer = (x: number): number => r(r(r(r(r(r(A * x) - r(5 * A)) * x) + r(8 * A)) * x) - r(4 * A));
  const inner = (x: number): number => r(r(r(r(r((A + 2) * x) - (A + 3)) * x) * x) + 1);
  return [outer(r(t + 1)), inner(t), inner(r(1 - t)), outer(r(2 - t))];
}

/** get_cubic_coefficients_grad (the vectorised form). */
function cubicCoefficientsGrad(t: number, r: (v: number) => number): number[] {
  const A = -0.75;
  const outerL = (x: number): number => r(r(r(r(r(-3 * A) * x) - r(10 * A)) * x) - r(8 * A));
  const outerR = (x: number): number => r(r(r(r(r(3 * A) * x) - r(10 * A)) * x) + r(8 * A));
  const innerL = (x: number): number => r(r(r(r(-3 * (A + 2)) * x) - r(2 * (A + 3))) * x);
  const innerR = (x: number): number => r(r(r(r(3 * (A + 2)) * x) - r(2 * (A + 3))) * x);
  return [outerL(r(-1 - t)), innerL(r(0 - t)), innerR(r(1 - t)), outerR(r(2 - t))];
}

interface Geometry {
  N: number;
  C: number;
  H: number;
  W: number;
  oH: number;
  oW: number;
}

function geometry(input: Tensor, grid: Tensor): Geometry {
  const [N, C, H, W] = input.sizes as [number, number, number, number];
  return { N, C, H, W, oH: grid.sizes[1] as number, oW: grid.sizes[2] as number };
}

/** `grid_sampler_2d(input, grid, interpolation_mode, padding_mode, align_corners)` (grid_sampler_2d_cpu). */
export function gridSampler2d(
  _ks: DispatchKeySet,
  input: Tensor,
  grid: Tensor,
  interpolationMode: number,
  paddingMode: number,
  alignCorners: boolean,
): Tensor {
  checkGridSampler2d(input, grid);
  const g = geometry(input, grid);
  const output = emptyLike(input, [g.N, g.C, g.oH, g.oW]);
  if (input.isMeta() || output.numel() === 0) return output;
  const r = samplerRound(gridSamplerDtype(input, grid, 'grid_sampler_2d_cpu_kernel_impl'));
  const padding = paddingMode as Padding;
  const [ci, cg] = [contiguousOf(input), contiguousOf(grid)];
  const [x, gr, out] = [reader(ci), reader(cg), writer(output)];
  const locW = new Location(g.W, padding, alignCorners, r);
  const locH = new Location(g.H, padding, alignCorners, r);
  const zeros = padding !== Padding.Border && padding !== Padding.Reflection;
  const plane = g.H * g.W;
  const oPlane = g.oH * g.oW;
  const inBounds = (iy: number, ix: number): boolean => iy > -1 && iy < g.H && ix > -1 && ix < g.W;
  // get_value_bounded: padding applied to an integer location, then a masked read
  const bounded = (base: number, xx: number, yy: number): number => {
    const ix = Math.trunc(locW.coordinates(xx));
    const iy = Math.trunc(locH.coordinates(yy));
    return zeros && !inBounds(iy, ix) ? 0 : x(base + iy * g.W + ix);
  };
  for (let n = 0; n < g.N; n++) {
    for (let p = 0; p < oPlane; p++) {
      const gx = gr((n * oPlane + p) * 2);
      const gy = gr((n * oPlane + p) * 2 + 1);
      const outAt = (c: number): number => (n * g.C + c) * oPlane + p;
      if (interpolationMode === 0) {
        const ix = locW.apply(gx);
        const iy = locH.apply(gy);
        const [xw, yn] = [Math.floor(ix), Math.floor(iy)];
        const w = r(ix - xw);
        const e = r(1 - w);
        const nn = r(iy - yn);
        const s = r(1 - nn);
        const wts = [r(s * e), r(s * w), r(nn * e), r(nn * w)];
        const ok = [inBounds(yn, xw), inBounds(yn, xw + 1), inBounds(yn + 1, xw), inBounds(yn + 1, xw + 1)];
        const offs = [yn * g.W + xw, yn * g.W + xw + 1, (yn + 1) * g.W + xw, (yn + 1) * g.W + xw + 1];
        for (let c = 0; c < g.C; c++) {
          const base = (n * g.C + c) * plane;
          let acc = 0;
          for (let k = 0; k < 4; k++) {
            const v = ok[k] === true ? x(base + (offs[k] as number)) : 0;
            const term = r(v * (wts[k] as number));
            acc = k === 0 ? term : r(acc + term);
          }
          out(outAt(c), acc);
        }
      } else if (interpolationMode === 1) {
        const xn = nearbyint(locW.apply(gx));
        const yn = nearbyint(locH.apply(gy));
        const ok = !zeros || inBounds(yn, xn);
        for (let c = 0; c < g.C; c++) out(outAt(c), ok ? x((n * g.C + c) * plane + yn * g.W + xn) : 0);
      } else {
        const ux = locW.unnormalize(gx);
        const uy = locH.unnormalize(gy);
        const [fx, fy] = [Math.floor(ux), Math.floor(uy)];
        const cx = cubicCoefficients(r(ux - fx), r);
        const cy = cubicCoefficients(r(uy - fy), r);
        for (let c = 0; c < g.C; c++) {
          const base = (n * g.C + c) * plane;
          let acc = 0;
          for (let i = 0; i < 4; i++) {
            let row = 0;
            for (let j = 0; j < 4; j++) {
              const term = r((cx[j] as number) * bounded(base, fx - 1 + j, fy - 1 + i));
              row = j === 0 ? term : r(row + term);
            }
            const term = r((cy[i] as number) * row);
            acc = i === 0 ? term : r(acc + term);
          }
          out(outAt(c), acc);
        }
      }
    }
  }
  return output;
}

/** `grid_sampler_2d_backward(grad_output, input, grid, interpolation_mode, padding_mode, align_corners, output_mask)`. */
export function gridSampler2dBackward(
  _ks: DispatchKeySet,
  gradOutput: Tensor,
  input: Tensor,
  grid: Tensor,
  interpolationMode: number,
  paddingMode: number,
  alignCorners: boolean,
  outputMask: boolean[],
): [Tensor, Tensor] {
  checkGridSampler2d(input, grid, gradOutput);
  const g = geometry(input, grid);
  const inputGrad = outputMask[0] === true;
  const gradInput = emptyLike(input, inputGrad ? [...input.sizes] : [0]);
  const gradGrid = emptyLike(grid, [...grid.sizes]);
  if (input.isMeta()) return [gradInput, gradGrid];
  const r = samplerRound(gridSamplerDtype(input, grid, 'grid_sampler_2d_backward_cpu_kernel_impl'));
  const padding = paddingMode as Padding;
  const [ci, cg, co] = [contiguousOf(input), contiguousOf(grid), contiguousOf(gradOutput)];
  const [x, gr, go] = [reader(ci), reader(cg), reader(co)];
  const plane = g.H * g.W;
  const oPlane = g.oH * g.oW;
  const gi = new Float64Array(inputGrad ? g.N * g.C * plane : 0);
  const gg = new Float64Array(g.N * oPlane * 2);
  const locW = new Location(g.W, padding, alignCorners, r);
  const locH = new Location(g.H, padding, alignCorners, r);
  const zeros = padding !== Padding.Border && padding !== Padding.Reflection;
  const inBounds = (iy: number, ix: number): boolean => iy > -1 && iy < g.H && ix > -1 && ix < g.W;
  const add = (at: number, v: number): void => void (gi[at] = r((gi[at] as number) + v));
  for (let n = 0; n < g.N; n++) {
    for (let p = 0; p < oPlane; p++) {
      const gx0 = gr((n * oPlane + p) * 2);
      const gy0 = gr((n * oPlane + p) * 2 + 1);
      const gOutAt = (c: number): number => go((n * g.C + c) * oPlane + p);
      let gx = 0;
      let gy = 0;
      if (interpolationMode === 0) {
        const [ix, gxMult] = locW.applyGetGrad(gx0);
        const [iy, gyMult] = locH.applyGetGrad(gy0);
        const [xw, yn] = [Math.floor(ix), Math.floor(iy)];
        const w = r(ix - xw);
        const e = r(1 - w);
        const nn = r(iy - yn);
        const s = r(1 - nn);
        const wts = [r(s * e), r(s * w), r(nn * e), r(nn * w)];
        const ok = [inBounds(yn, xw), inBounds(yn, xw + 1), inBounds(yn + 1, xw), inBounds(yn + 1, xw + 1)];
        const offs = [yn * g.W + xw, yn * g.W + xw + 1, (yn + 1) * g.W + xw, (yn + 1) * g.W + xw + 1];
        for (let c = 0; c < g.C; c++) {
          const base = (n * g.C + c) * plane;
          const gOut = gOutAt(c);
          if (inputGrad) {
            for (let k = 0; k < 4; k++) if (ok[k] === true) add(base + (offs[k] as number), r((wts[k] as number) * gOut));
          }
          const [vnw, vne, vsw, vse] = [0, 1, 2, 3].map((k) => (ok[k] === true ? x(base + (offs[k] as number)) : 0)) as [
            number,
            number,
            number,
            number,
          ];
          gx = r(gx + r(r(r(r(vne - vnw) * s) + r(r(vse - vsw) * nn)) * gOut));
          gy = r(gy + r(r(r(r(vsw - vnw) * e) + r(r(vse - vne) * w)) * gOut));
        }
        gx = r(gx * gxMult);
        gy = r(gy * gyMult);
      } else if (interpolationMode === 1) {
        if (inputGrad) {
          const xn = nearbyint(locW.apply(gx0));
          const yn = nearbyint(locH.apply(gy0));
          if (!zeros || inBounds(yn, xn)) {
            for (let c = 0; c < g.C; c++) add((n * g.C + c) * plane + yn * g.W + xn, gOutAt(c));
          }
        }
      } else {
        const ux = locW.unnormalize(gx0);
        const uy = locH.unnormalize(gy0);
        const [fx, fy] = [Math.floor(ux), Math.floor(uy)];
        const [tx, ty] = [r(ux - fx), r(uy - fy)];
        const [cx, cy] = [cubicCoefficients(tx, r), cubicCoefficients(ty, r)];
        const [cxg, cyg] = [cubicCoefficientsGrad(tx, r), cubicCoefficientsGrad(ty, r)];
        for (let c = 0; c < g.C; c++) {
          const base = (n * g.C + c) * plane;
          const gOut = gOutAt(c);
          for (let i = 0; i < 4; i++) {
            for (let j = 0; j < 4; j++) {
              const ixx = Math.trunc(locW.coordinates(fx - 1 + i));
              const iyy = Math.trunc(locH.coordinates(fy - 1 + j));
              const ok = !zeros || inBounds(iyy, ixx);
              if (inputGrad && ok) add(base + iyy * g.W + ixx, r(r(gOut * (cx[i] as number)) * (cy[j] as number)));
              const val = ok ? x(base + iyy * g.W + ixx) : 0;
              gx = r(gx - r(r(r(val * gOut) * (cxg[i] as number)) * (cy[j] as number)));
              gy = r(gy - r(r(r(val * gOut) * (cyg[j] as number)) * (cx[i] as number)));
            }
          }
        }
        gx = r(gx * locW.scale);
        gy = r(gy * locH.scale);
      }
      gg[(n * oPlane + p) * 2] = gx;
      gg[(n * oPlane + p) * 2 + 1] = gy;
    }
  }
  const [wi, wg] = [inputGrad ? writer(gradInput) : null, writer(gradGrid)];
  if (wi !== null) for (let e = 0; e < gi.length; e++) wi(e, gi[e] as number);
  for (let e = 0; e < gg.length; e++) wg(e, gg[e] as number);
  return [gradInput, gradGrid];
}
