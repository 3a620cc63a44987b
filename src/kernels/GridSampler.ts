// grid_sampler (the composite choosing the 2-d or 3-d operator), grid_sampler_3d and its backward, and the
// argument checks every grid sampler shares. Mirrors aten/src/ATen/native/GridSampler.cpp (the scalar 3-d
// loops over GridSampler.h's helpers) and GridSamplerUtils.h (the checks, with their texts); the 2-d kernels
// are in GridSamplerKernel.ts. See Note [grid_sampler arithmetic] there.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isFloatingType, notImplementedForDtype, scalarTypeToString } from '../c10/ScalarType.js';
import type { Tensor } from '../tensor/Tensor.js';
import { reader, writer } from './FloatAccess.js';
import { contiguousOf, emptyLike } from './StorageAccess.js';
import * as at from '../generated/TensorBody.js';

/** GridSamplerPadding. */
export const enum Padding {
  Zeros = 0,
  Border = 1,
  Reflection = 2,
}

const sizesOf = (t: Tensor): string => `[${t.sizes.join(', ')}]`;

/** std::nearbyint: round half to even. */
export function nearbyint(v: number): number {
  const f = Math.floor(v);
  const d = v - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

/** Rounding to the dtype the kernels compute in (float32 for float, float16 and bfloat16). */
export function samplerRound(dtype: ScalarType): (v: number) => number {
  return dtype === ScalarType.Double ? (v) => v : Math.fround;
}

/** AT_DISPATCH_FLOATING_TYPES_AND2(Half, BFloat16), then the grid read as the input's scalar_t. */
export function gridSamplerDtype(input: Tensor, grid: Tensor, op: string): ScalarType {
  if (!isFloatingType(input.scalarType)) throw notImplementedForDtype(op, input.scalarType);
  if (grid.scalarType !== input.scalarType) {
    throw new Error(`expected scalar type ${scalarTypeToString(input.scalarType)} but found ${scalarTypeToString(grid.scalarType)}`);
  }
  return input.scalarType;
}

/** check_grid_sampler_common. */
export function checkGridSamplerCommon(input: Tensor, grid: Tensor): void {
  if (input.device.type !== grid.device.type) {
    throw new Error(
      `grid_sampler(): expected input and grid to be on same device, but input is on ${input.device.type} and grid is on ${grid.device.type}`,
    );
  }
  if (input.sizes[0] !== grid.sizes[0]) {
    throw new Error(
      `grid_sampler(): expected grid and input to have same batch size, but got input with sizes ${sizesOf(input)} and grid with sizes ${sizesOf(grid)}`,
    );
  }
  if (grid.sizes[grid.dim() - 1] !== input.dim() - 2) {
    throw new Error(
      `grid_sampler(): expected grid to have size ${input.dim() - 2} in last dimension, but got grid with sizes ${sizesOf(grid)}`,
    );
  }
  for (let i = 2; i < input.dim(); i++) {
    if (!((input.sizes[i] as number) > 0)) {
      throw new Error(
        `grid_sampler(): expected input to have non-empty spatial dimensions, but input has sizes ${sizesOf(input)} with dimension ${i} being empty`,
      );
    }
  }
}

/** The grad_output of a backward: [N, C, *grid.sizes[1:-1]]. */
function checkGradOutput(input: Tensor, grid: Tensor, gradOutput: Tensor): void {
  const want = [input.sizes[0] as number, input.sizes[1] as number, ...grid.sizes.slice(1, -1)];
  if (gradOutput.dim() !== want.length || gradOutput.sizes.some((s, i) => s !== want[i])) {
    throw new Error(
      `grid_sampler(): expected grad_output to have sizes [${want.join(', ')}] but got grad_output with sizes ${sizesOf(gradOutput)}`,
    );
  }
}

/** check_grid_sampler_common + check_grid_sampler_2d (and the grad_output's sizes in a backward). */
export function checkGridSampler2d(input: Tensor, grid: Tensor, gradOutput: Tensor | null = null): void {
  checkGridSamplerCommon(input, grid);
  if (!(input.dim() === 4 && input.dim() === grid.dim())) {
    throw new Error(
      `grid_sampler(): expected 4D input and grid with same number of dimensions, but got input with sizes ${sizesOf(input)} and grid with sizes ${sizesOf(grid)}`,
    );
  }
  if (gradOutput !== null) checkGradOutput(input, grid, gradOutput);
}

/** check_grid_sampler_common + check_grid_sampler_3d. */
function checkGridSampler3d(input: Tensor, grid: Tensor, interpolationMode: number, gradOutput: Tensor | null = null): void {
  checkGridSamplerCommon(input, grid);
  if (!(input.dim() === 5 && input.dim() === grid.dim())) {
    throw new Error(
      `grid_sampler(): expected 5D input and grid with same number of dimensions, but got input with sizes ${sizesOf(input)} and grid with sizes ${sizesOf(grid)}`,
    );
  }
  if (interpolationMode === 2) throw new Error('grid_sampler(): bicubic interpolation only supports 4D input');
  if (gradOutput !== null) checkGradOutput(input, grid, gradOutput);
}

/** `grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners)`: the 2-d or 3-d operator. */
export function gridSampler(
  _ks: DispatchKeySet,
  input: Tensor,
  grid: Tensor,
  interpolationMode: number,
  paddingMode: number,
  alignCorners: boolean,
): Tensor {
  if (input.dim() === 4) return at.grid_sampler_2d(input, grid, interpolationMode, paddingMode, alignCorners);
  return at.grid_sampler_3d(input, grid, interpolationMode, paddingMode, alignCorners);
}

/** GridSampler.h's scalar location helpers for one spatial size. */
class ScalarLocation {
  constructor(
    readonly size: number,
    readonly padding: Padding,
    readonly alignCorners: boolean,
    readonly r: (v: number) => number,
  ) {}

  /** grid_sampler_unnormalize_set_grad: the location and its derivative. */
  unnormalize(v: number): [number, number] {
    const { r, size } = this;
    if (this.alignCorners) return [r(r(r(v + 1) / 2) * (size - 1)), r((size - 1) / 2)];
    return [r(r(r(r(v + 1) * size) - 1) / 2), r(size / 2)];
  }

  /** clip_coordinates_set_grad. */
  clip(v: number): [number, number] {
    if (v <= 0) return [0, 0];
    const max = this.size - 1;
    if (v >= max) return [max, 0];
    // (NaN falls through: std::min(size - 1, std::max(NaN, 0)) of clip_coordinates is size - 1, with gradient 1)
    return Number.isNaN(v) ? [max, 1] : [v, 1];
  }

  /** reflect_coordinates_set_grad over [twiceLow / 2, twiceHigh / 2]. */
  reflect(v: number, twiceLow: number, twiceHigh: number): [number, number] {
    if (twiceLow === twiceHigh) return [0, 0];
    const r = this.r;
    const min = twiceLow / 2;
    const span = (twiceHigh - twiceLow) / 2;
    let x = r(v - min);
    let mult = 1;
    if (x < 0) {
      mult = -1;
      x = -x;
    }
    const extra = r(x % span);
    const flips = Math.floor(r(x / span));
    return flips % 2 === 0 ? [r(extra + min), mult] : [r(r(span - extra) + min), -mult];
  }

  /** grid_sampler_compute_source_index_set_grad. */
  source(v: number): [number, number] {
    let [c, g] = this.unnormalize(v);
    const r = this.r;
    if (this.padding === Padding.Border) {
      const [cc, gc] = this.clip(c);
      return [cc, r(g * gc)];
    }
    if (this.padding === Padding.Reflection) {
      const [cr, gr] = this.alignCorners ? this.reflect(c, 0, 2 * (this.size - 1)) : this.reflect(c, -1, 2 * this.size - 1);
      const [cc, gc] = this.clip(cr);
      c = cc;
      g = r(r(g * gr) * gc);
    }
    return [c, g];
  }
}

interface Geometry3d {
  N: number;
  C: number;
  D: number;
  H: number;
  W: number;
  out: number;
}

function geometry3d(input: Tensor, grid: Tensor): Geometry3d {
  const [N, C, D, H, W] = input.sizes as [number, number, number, number, number];
  return { N, C, D, H, W, out: (grid.sizes[1] as number) * (grid.sizes[2] as number) * (grid.sizes[3] as number) };
}

/** The eight corners of a trilinear cell: [dz, dy, dx] offsets from (iz_tnw, iy_tnw, ix_tnw), in PyTorch's order. */
const CORNERS: readonly (readonly [number, number, number])[] = [
  [0, 0, 0],
  [0, 0, 1],
  [0, 1, 0],
  [0, 1, 1],
  [1, 0, 0],
  [1, 0, 1],
  [1, 1, 0],
  [1, 1, 1],
];

/** Per corner: the three distances, (opposite corner - location) or (location - opposite corner). */
function trilinear(ix: number, iy: number, iz: number, r: (v: number) => number): { idx: number[]; d: number[][] } {
  const [x0, y0, z0] = [Math.floor(ix), Math.floor(iy), Math.floor(iz)];
  const d = CORNERS.map(([dz, dy, dx]) => [
    dx === 0 ? r(x0 + 1 - ix) : r(ix - x0),
    dy === 0 ? r(y0 + 1 - iy) : r(iy - y0),
    dz === 0 ? r(z0 + 1 - iz) : r(iz - z0),
  ]);
  return { idx: [x0, y0, z0], d };
}

/** `grid_sampler_3d(input, grid, interpolation_mode, padding_mode, align_corners)` (grid_sampler_3d_cpu). */
export function gridSampler3d(
  _ks: DispatchKeySet,
  input: Tensor,
  grid: Tensor,
  interpolationMode: number,
  paddingMode: number,
  alignCorners: boolean,
): Tensor {
  checkGridSampler3d(input, grid, interpolationMode);
  const g = geometry3d(input, grid);
  const output = emptyLike(input, [g.N, g.C, ...grid.sizes.slice(1, 4)]);
  if (input.isMeta() || output.numel() === 0) return output;
  const r = samplerRound(gridSamplerDtype(input, grid, 'grid_sampler3d_cpu'));
  const [ci, cg] = [contiguousOf(input), contiguousOf(grid)];
  const [x, gr, out] = [reader(ci), reader(cg), writer(output)];
  const locs = [g.W, g.H, g.D].map((s) => new ScalarLocation(s, paddingMode as Padding, alignCorners, r));
  const vol = g.D * g.H * g.W;
  const inside = (z: number, y: number, xx: number): boolean => z >= 0 && z < g.D && y >= 0 && y < g.H && xx >= 0 && xx < g.W;
  for (let n = 0; n < g.N; n++) {
    for (let p = 0; p < g.out; p++) {
      const at3 = (n * g.out + p) * 3;
      const [ix, iy, iz] = [0, 1, 2].map((k) => (locs[k] as ScalarLocation).source(gr(at3 + k))[0]) as [number, number, number];
      if (interpolationMode === 0) {
        const { idx, d } = trilinear(ix, iy, iz, r);
        const [x0, y0, z0] = idx as [number, number, number];
        const wts = d.map(([a, b, c]) => r(r((a as number) * (b as number)) * (c as number)));
        for (let c = 0; c < g.C; c++) {
          const base = (n * g.C + c) * vol;
          let acc = 0;
          CORNERS.forEach(([dz, dy, dx], k) => {
            if (inside(z0 + dz, y0 + dy, x0 + dx)) {
              acc = r(acc + r(x(base + ((z0 + dz) * g.H + y0 + dy) * g.W + x0 + dx) * (wts[k] as number)));
            }
          });
          out((n * g.C + c) * g.out + p, acc);
        }
      } else {
        const [xn, yn, zn] = [nearbyint(ix), nearbyint(iy), nearbyint(iz)];
        const ok = inside(zn, yn, xn);
        for (let c = 0; c < g.C; c++) {
          out((n * g.C + c) * g.out + p, ok ? x((n * g.C + c) * vol + (zn * g.H + yn) * g.W + xn) : 0);
        }
      }
    }
  }
  return output;
}

/** `grid_sampler_3d_backward(grad_output, input, grid, interpolation_mode, padding_mode, align_corners, output_mask)`. */
export function gridSampler3dBackward(
  _ks: DispatchKeySet,
  gradOutput: Tensor,
  input: Tensor,
  grid: Tensor,
  interpolationMode: number,
  paddingMode: number,
  alignCorners: boolean,
  outputMask: boolean[],
): [Tensor, Tensor] {
  checkGridSampler3d(input, grid, interpolationMode, gradOutput);
  const g = geometry3d(input, grid);
  const inputGrad = outputMask[0] === true;
  const gradInput = emptyLike(input, inputGrad ? [...input.sizes] : [0]);
  const gradGrid = emptyLike(grid, [...grid.sizes]);
  if (input.isMeta()) return [gradInput, gradGrid];
  const r = samplerRound(gridSamplerDtype(input, grid, 'grid_sampler_3d_backward_cpu'));
  const [ci, cg, co] = [contiguousOf(input), contiguousOf(grid), contiguousOf(gradOutput)];
  const [x, gr, go] = [reader(ci), reader(cg), reader(co)];
  const locs = [g.W, g.H, g.D].map((s) => new ScalarLocation(s, paddingMode as Padding, alignCorners, r));
  const vol = g.D * g.H * g.W;
  const gi = new Float64Array(inputGrad ? g.N * g.C * vol : 0);
  const gg = new Float64Array(g.N * g.out * 3);
  const inside = (z: number, y: number, xx: number): boolean => z >= 0 && z < g.D && y >= 0 && y < g.H && xx >= 0 && xx < g.W;
  for (let n = 0; n < g.N; n++) {
    for (let p = 0; p < g.out; p++) {
      const at3 = (n * g.out + p) * 3;
      const src = [0, 1, 2].map((k) => (locs[k] as ScalarLocation).source(gr(at3 + k)));
      const [ix, iy, iz] = src.map((s) => s[0]) as [number, number, number];
      if (interpolationMode === 0) {
        const { idx, d } = trilinear(ix, iy, iz, r);
        const [x0, y0, z0] = idx as [number, number, number];
        const wts = d.map(([a, b, c]) => r(r((a as number) * (b as number)) * (c as number)));
        const grads = [0, 0, 0];
        for (let c = 0; c < g.C; c++) {
          const base = (n * g.C + c) * vol;
          const gOut = go((n * g.C + c) * g.out + p);
          CORNERS.forEach(([dz, dy, dx], k) => {
            if (!inside(z0 + dz, y0 + dy, x0 + dx)) return;
            const e = base + ((z0 + dz) * g.H + y0 + dy) * g.W + x0 + dx;
            if (inputGrad) gi[e] = r((gi[e] as number) + r((wts[k] as number) * gOut));
            const val = x(e);
            const [a, b, cc] = d[k] as [number, number, number];
            // d weight / d coordinate: the other two distances, signed by which side of the cell the corner is on
            const terms = [r(r(r(val * b) * cc) * gOut), r(r(r(val * a) * cc) * gOut), r(r(r(val * a) * b) * gOut)];
            const sides = [dx, dy, dz];
            for (let q = 0; q < 3; q++) {
              grads[q] = sides[q] === 1 ? r((grads[q] as number) + (terms[q] as number)) : r((grads[q] as number) - (terms[q] as number));
            }
          });
        }
        for (let q = 0; q < 3; q++) gg[at3 + q] = r(((src[q] as number[])[1] as number) * (grads[q] as number));
      } else if (inputGrad) {
        const [xn, yn, zn] = [nearbyint(ix), nearbyint(iy), nearbyint(iz)];
        if (inside(zn, yn, xn)) {
          for (let c = 0; c < g.C; c++) {
            const e = (n * g.C + c) * vol + (zn * g.H + yn) * g.W + xn;
            gi[e] = r((gi[e] as number) + go((n * g.C + c) * g.out + p));
          }
        }
      }
    }
  }
  const [wi, wg] = [inputGrad ? writer(gradInput) : null, writer(gradGrid)];
  if (wi !== null) for (let e = 0; e < gi.length; e++) wi(e, gi[e] as number);
  for (let e = 0; e < gg.length; e++) wg(e, gg[e] as number);
  return [gradInput, gradGrid];
}
