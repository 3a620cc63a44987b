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
import type { DepthwiseKernel } from '../wasm/kernels/KernelTable.js';
import * as ref from '../wasm/kernels/referenceIm2col.js';
import { addressOf, wasmKernelFor } from '../wasm/kernels/vec.js';
import { type Conv2dGeometry, type FloatArray, floatArray, freeCopy, inFloat, offsetOf } from './ConvolutionMM2d.js';
import { contiguousOf, emptyLike } from './StorageAccess.js';

/** True for the depthwise case these loops handle: one input channel per group (any channel multiplier). */
export const isDepthwise = (g: Conv2dGeometry): boolean => g.groups > 1 && g.cg === 1 && g.groups === g.c;

/**
 * One image's sweeps: f32_depthwise / f64_depthwise (mode 0 forward, 1 input gradient, 2 weight gradient)
 * when every operand is in linear memory, else the JS twin. x, w, out are (array, element index) pairs.
 */
function sweep(g: Conv2dGeometry, mode: number, x: FloatArray, xi: number, w: FloatArray, wi: number, out: FloatArray, oi: number): void {
  const f32 = x instanceof Float32Array;
  const geometry = [g.h, g.w, g.kh, g.kw, g.oh, g.ow, g.sh, g.sw, g.ph, g.pw, g.dh, g.dw] as const;
  const mult = g.o / g.c;
  const k = wasmKernelFor<DepthwiseKernel>(f32 ? 'f32_depthwise' : 'f64_depthwise', x, w, out);
  if (k !== null) k(mode, addressOf(x, xi), addressOf(w, wi), addressOf(out, oi), g.c, mult, ...geometry);
  else ref.depthwise(f32 ? Math.fround : (v) => v, mode, x, xi, w, wi, out, oi, g.c, mult, ...geometry);
}

/** out[n, o, oh, ow] = depthwise conv of x [n, c, h, w] with weight [o, 1, kh, kw] (+ bias). */
export function depthwiseForward(x: Tensor, weight: Tensor, bias: Tensor | null, g: Conv2dGeometry): Tensor {
  return inFloat([x, weight, bias], ([x0, w0, b0]) => {
    const xc = contiguousOf(x0 as Tensor);
    const wc = contiguousOf(w0 as Tensor);
    const bc = b0 === null || b0 === undefined ? null : contiguousOf(b0);
    const { n, c, h, w, o, oh, ow } = g;
    const out = emptyLike(xc, [n, o, oh, ow]);
    const [X, W, O] = [floatArray(xc), floatArray(wc), floatArray(out)];
    const [xo, wo, oo] = [offsetOf(xc), offsetOf(wc), offsetOf(out)];
    const L = oh * ow;
    for (let b = 0; b < n; b++) {
      for (let oc = 0; oc < o; oc++) {
        const v = bc === null ? 0 : (floatArray(bc)[offsetOf(bc) + oc] as number);
        O.fill(v, oo + (b * o + oc) * L, oo + (b * o + oc + 1) * L);
      }
      sweep(g, 0, X, xo + b * c * h * w, W, wo, O, oo + b * o * L);
    }
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
    const { n, c, h, w, o, oh, ow } = g;
    const gx = emptyLike(gc, [n, c, h, w]);
    const [G, W, X] = [floatArray(gc), floatArray(wc), floatArray(gx)];
    const [go, wo, xo] = [offsetOf(gc), offsetOf(wc), offsetOf(gx)];
    X.fill(0, xo, xo + n * c * h * w);
    for (let b = 0; b < n; b++) sweep(g, 1, X, xo + b * c * h * w, W, wo, G, go + b * o * oh * ow);
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
    const { n, c, h, w, o, kh, kw, oh, ow } = g;
    const gw = emptyLike(gc, [o, 1, kh, kw]);
    const [G, X, W] = [floatArray(gc), floatArray(xc), floatArray(gw)];
    const [go, xo, wo] = [offsetOf(gc), offsetOf(xc), offsetOf(gw)];
    W.fill(0, wo, wo + o * kh * kw);
    for (let b = 0; b < n; b++) sweep(g, 2, X, xo + b * c * h * w, W, wo, G, go + b * o * oh * ow);
    freeCopy(gc, g0);
    freeCopy(xc, x0);
    return gw;
  });
}
