// Depthwise 2-d convolution (groups == input channels, each output channel reading one input channel) as
// direct loops, forward and both gradients. Mirrors aten/src/ATen/native/cpu/DepthwiseConvKernel.cpp and
// the CUDA conv_depthwise2d (DepthwiseConv2d.cu), which PyTorch uses for this case instead of im2col.
//
// Note [Depthwise convolution without im2col]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// With one input channel per group, im2col's gemm per image and group is (mult × kh·kw) · (kh·kw × oh·ow):
// a product too thin to pay for the column copy and the gemm's packing, one call per channel. Here each
// kernel tap (p, q) is one sweep along the output rows: out[oc, i, j] += w[oc, p, q] · x[ic, i·sh − ph + p·dh,
// j·sw − pw + q·dw] over the j range that stays inside the input (the same bounds as im2col), so no padded
// copy and no columns are made. The input gradient is the same sweep scattering into x's plane, and the
// weight gradient the same sweep reduced into one number per tap. Sums run tap by tap, so results can differ
// from the gemm path's in the last bits.

import type { Tensor } from '../tensor/Tensor.js';
import { type Conv2dGeometry, floatArray, freeCopy, inFloat, offsetOf } from './ConvolutionMM2d.js';
import { contiguousOf, emptyLike } from './StorageAccess.js';

/** True for the depthwise case these loops handle: one input channel per group (any channel multiplier). */
export const isDepthwise = (g: Conv2dGeometry): boolean => g.groups > 1 && g.cg === 1 && g.groups === g.c;

/** Output columns j whose input column j·sw + dx lies in [0, w): [j0, j1). */
function columnRange(g: Conv2dGeometry, dx: number): [number, number] {
  const j0 = dx >= 0 ? 0 : Math.min(g.ow, Math.ceil(-dx / g.sw));
  const j1 = Math.max(j0, Math.min(g.ow, Math.floor((g.w - 1 - dx) / g.sw) + 1));
  return [j0, j1];
}

/**
 * Calls `tap(xRow, outRow, j0, j1, wIndex)` for every (image, output channel, tap, output row) whose input
 * row is inside the input: xRow is the element of x[b, ic, y, dx] (dx may be negative), outRow of out[b, oc, i, 0].
 */
function sweep(g: Conv2dGeometry, tap: (xRow: number, outRow: number, j0: number, j1: number, wi: number) => void): void {
  const { n, c, h, w, o, kh, kw, oh, ow, sh, ph, pw, dh, dw } = g;
  const mult = o / c;
  for (let b = 0; b < n; b++) {
    for (let oc = 0; oc < o; oc++) {
      const plane = (b * c + Math.floor(oc / mult)) * h * w;
      const outPlane = (b * o + oc) * oh * ow;
      for (let p = 0; p < kh; p++) {
        for (let q = 0; q < kw; q++) {
          const dx = q * dw - pw;
          const [j0, j1] = columnRange(g, dx);
          if (j0 >= j1) continue;
          const wi = (oc * kh + p) * kw + q;
          for (let i = 0; i < oh; i++) {
            const y = i * sh - ph + p * dh;
            if (y >= 0 && y < h) tap(plane + y * w + dx, outPlane + i * ow, j0, j1, wi);
          }
        }
      }
    }
  }
}

/** out[n, o, oh, ow] = depthwise conv of x [n, c, h, w] with weight [o, 1, kh, kw] (+ bias). */
export function depthwiseForward(x: Tensor, weight: Tensor, bias: Tensor | null, g: Conv2dGeometry): Tensor {
  return inFloat([x, weight, bias], ([x0, w0, b0]) => {
    const xc = contiguousOf(x0 as Tensor);
    const wc = contiguousOf(w0 as Tensor);
    const bc = b0 === null || b0 === undefined ? null : contiguousOf(b0);
    const { n, o, oh, ow, sw } = g;
    const out = emptyLike(xc, [n, o, oh, ow]);
    const [X, W, O] = [floatArray(xc), floatArray(wc), floatArray(out)];
    const [xo, wo, oo] = [offsetOf(xc), offsetOf(wc), offsetOf(out)];
    const L = oh * ow;
    for (let b = 0; b < n; b++) {
      for (let oc = 0; oc < o; oc++) {
        const v = bc === null ? 0 : (floatArray(bc)[offsetOf(bc) + oc] as number);
        O.fill(v, oo + (b * o + oc) * L, oo + (b * o + oc + 1) * L);
      }
    }
    sweep(g, (xRow, outRow, j0, j1, wi) => {
      const wv = W[wo + wi] as number;
      const xs = xo + xRow;
      const os = oo + outRow;
      if (sw === 1) for (let j = j0; j < j1; j++) O[os + j] = (O[os + j] as number) + wv * (X[xs + j] as number);
      else for (let j = j0; j < j1; j++) O[os + j] = (O[os + j] as number) + wv * (X[xs + j * sw] as number);
    });
    freeCopy(xc, x0);
    freeCopy(wc, w0);
    freeCopy(bc, b0);
    return out;
  });
}

/** d loss / d input [n, c, h, w] of the depthwise convolution. */
export function depthwiseBackwardInput(gradOut: Tensor, weight: Tensor, g: Conv2dGeometry): Tensor {
  return inFloat([gradOut, weight], ([g0, w0]) => {
    const gc = contiguousOf(g0 as Tensor);
    const wc = contiguousOf(w0 as Tensor);
    const { n, c, h, w, sw } = g;
    const gx = emptyLike(gc, [n, c, h, w]);
    const [G, W, X] = [floatArray(gc), floatArray(wc), floatArray(gx)];
    const [go, wo, xo] = [offsetOf(gc), offsetOf(wc), offsetOf(gx)];
    X.fill(0, xo, xo + n * c * h * w);
    sweep(g, (xRow, outRow, j0, j1, wi) => {
      const wv = W[wo + wi] as number;
      const xs = xo + xRow;
      const gs = go + outRow;
      for (let j = j0; j < j1; j++) X[xs + j * sw] = (X[xs + j * sw] as number) + wv * (G[gs + j] as number);
    });
    freeCopy(gc, g0);
    freeCopy(wc, w0);
    return gx;
  });
}

/** d loss / d weight [o, 1, kh, kw] of the depthwise convolution, summed over the batch. */
export function depthwiseBackwardWeight(gradOut: Tensor, x: Tensor, g: Conv2dGeometry): Tensor {
  return inFloat([gradOut, x], ([g0, x0]) => {
    const gc = contiguousOf(g0 as Tensor);
    const xc = contiguousOf(x0 as Tensor);
    const { o, kh, kw, sw } = g;
    const gw = emptyLike(gc, [o, 1, kh, kw]);
    const [G, X, W] = [floatArray(gc), floatArray(xc), floatArray(gw)];
    const [go, xo, wo] = [offsetOf(gc), offsetOf(xc), offsetOf(gw)];
    W.fill(0, wo, wo + o * kh * kw);
    sweep(g, (xRow, outRow, j0, j1, wi) => {
      const xs = xo + xRow;
      const gs = go + outRow;
      let s = 0;
      for (let j = j0; j < j1; j++) s += (G[gs + j] as number) * (X[xs + j * sw] as number);
      W[wo + wi] = (W[wo + wi] as number) + s;
    });
    freeCopy(gc, g0);
    freeCopy(xc, x0);
    return gw;
  });
}
