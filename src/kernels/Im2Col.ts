// im2col (torch.nn.functional.unfold) of aten/src/ATen/native/Im2Col.cpp with im2col_shape_check of
// native/im2col_shape_check.h, and the element pairing col2im (Col2Im.ts) shares: each column element with the
// image element it reads (none where the window lies on the padding).

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { formatSizes } from '../tensor/ExpandUtils.js';
import type { Tensor } from '../tensor/Tensor.js';
import { scatterElements } from './IndexKernel.js';
import { emptyLike } from './StorageAccess.js';

/** kernel_size, dilation, padding, stride as (height, width) pairs. */
export interface Im2ColParams {
  kh: number;
  kw: number;
  dh: number;
  dw: number;
  ph: number;
  pw: number;
  sh: number;
  sw: number;
}

export function im2colParams(kernel: number[], dilation: number[], padding: number[], stride: number[]): Im2ColParams {
  const [kh, kw] = kernel as [number, number];
  const [dh, dw] = dilation as [number, number];
  const [ph, pw] = padding as [number, number];
  const [sh, sw] = stride as [number, number];
  if (!(kw > 0 && kh > 0)) throw new Error(`kernel size should be greater than zero, but got kernel_height: ${kh} kernel_width: ${kw}`);
  if (!(dw > 0 && dh > 0)) throw new Error(`dilation should be greater than zero, but got dilation_height: ${dh} dilation_width: ${dw}`);
  if (!(pw >= 0 && ph >= 0)) throw new Error(`padding should be non-negative, but got pad_height: ${ph} pad_width: ${pw}`);
  if (!(sw > 0 && sh > 0)) throw new Error(`stride should be greater than zero, but got stride_height: ${sh} stride_width: ${sw}`);
  return { kh, kw, dh, dw, ph, pw, sh, sw };
}

/** The number of blocks along one spatial dim (div_rtn: rounds toward -inf). */
export function blocks(size: number, k: number, d: number, p: number, s: number): number {
  return Math.floor((size + 2 * p - (d * (k - 1) + 1)) / s) + 1;
}

/**
 * The pairs (column offset, image offset) of every column element that reads the image, in the column's
 * row-major order. Batch n, channel c, spatial (h, w); offsets through each tensor's strides (`colStrides` of
 * the 3-d [N, C*kh*kw, L] view, `imStrides` of the 4-d [N, C, H, W] view).
 */
export function colImPairs(
  n: number,
  c: number,
  h: number,
  w: number,
  oh: number,
  ow: number,
  p: Im2ColParams,
  colStrides: readonly number[],
  imStrides: readonly number[],
): [Float64Array, Float64Array] {
  const cols: number[] = [];
  const ims: number[] = [];
  const [c0, c1, c2] = colStrides as [number, number, number];
  const [i0, i1, i2, i3] = imStrides as [number, number, number, number];
  for (let b = 0; b < n; b++) {
    for (let ch = 0; ch < c; ch++) {
      for (let ki = 0; ki < p.kh; ki++) {
        for (let kj = 0; kj < p.kw; kj++) {
          const row = (ch * p.kh + ki) * p.kw + kj;
          for (let y = 0; y < oh; y++) {
            const hi = y * p.sh - p.ph + ki * p.dh;
            if (hi < 0 || hi >= h) continue;
            for (let x = 0; x < ow; x++) {
              const wi = x * p.sw - p.pw + kj * p.dw;
              if (wi < 0 || wi >= w) continue;
              cols.push(b * c0 + row * c1 + (y * ow + x) * c2);
              ims.push(b * i0 + ch * i1 + hi * i2 + wi * i3);
            }
          }
        }
      }
    }
  }
  return [Float64Array.from(cols), Float64Array.from(ims)];
}

/** `im2col(self, kernel_size, dilation, padding, stride)`: [N, C, H, W] → [N, C*kh*kw, L] (3-d: unbatched). */
export function im2col(
  _ks: DispatchKeySet,
  self: Tensor,
  kernelSize: number[],
  dilation: number[],
  padding: number[],
  stride: number[],
): Tensor {
  const p = im2colParams(kernelSize, dilation, padding, stride);
  const nd = self.dim();
  const s = self.sizes;
  const valid = nd >= 3 && s[1] !== 0 && s[2] !== 0;
  if (!((nd === 3 && s[0] !== 0 && valid) || (nd === 4 && valid && s[3] !== 0))) {
    throw new Error(
      `Expected 3D or 4D (batch mode) tensor input with possible 0 batch size and non-zero dimensions, but got: ${formatSizes(s)}`,
    );
  }
  const batched = nd === 4;
  const [n, c, h, w] = (batched ? s : [1, ...s]) as [number, number, number, number];
  const oh = blocks(h, p.kh, p.dh, p.ph, p.sh);
  const ow = blocks(w, p.kw, p.dw, p.pw, p.sw);
  if (oh < 1 || ow < 1) {
    throw new Error(
      `Given input with spatial size (${h}, ${h}), kernel_size=(${p.kh}, ${p.kw}), dilation=(${p.dh}, ${p.dw}), padding=(${p.ph}, ${p.pw}), calculated shape of the array of sliding blocks as (${oh}, ${ow}), but its components must be at least one.`,
    );
  }
  const rows = c * p.kh * p.kw;
  const sizes = batched ? [n, rows, oh * ow] : [rows, oh * ow];
  const out = emptyLike(self, sizes);
  if (self.isMeta() || out.numel() === 0) return out;
  const y = out.dataView();
  y.data.fill(0, y.base, y.base + out.numel() * y.lanes);
  const imStrides = batched ? self.strides : [0, ...self.strides];
  const [cols, ims] = colImPairs(n, c, h, w, oh, ow, p, [rows * oh * ow, oh * ow, 1], imStrides);
  scatterElements(y, cols, self.dataView(), ims);
  return out;
}
