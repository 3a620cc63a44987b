// 2-d convolution as matrix products: im2col unfolds the input windows into columns, a gemm multiplies them
// by the weight, col2im folds gradient columns back. Mirrors aten/src/ATen/native/ConvolutionMM2d.cpp
// (slow_conv2d_forward / backward) with native/im2col.h (im2col, col2im).
//
// Note [Convolution through gemm]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// For one image and one group, with K = cg·kh·kw rows (an input channel and a kernel offset each) and
// L = oh·ow columns (an output position each):
//   columns[K, L] = im2col(x[b, group's channels])        (zero where a window reaches into the padding)
//   out[b, group's outputs] (og × L) = W_g (og × K) · columns (+ bias, written first and accumulated onto)
//   grad columns (K × L) = W_gᵀ · grad_out[b, g];  grad_x[b, g] = col2im(grad columns)  (a scatter-add)
//   grad_W_g (og × K) += grad_out[b, g] · columnsᵀ   (summed over the batch)
// The products run on LinearAlgebra's gemmInto (the packed WebAssembly gemm for float32 and float64 in
// linear memory, reading transposed operands through their strides). float16/bfloat16 compute in float32
// and round the result once, as PyTorch's CPU kernels accumulate them in float. Sums follow the gemm's
// order, so results can differ from PyTorch's (oneDNN's) in the last bits.

import { ScalarType } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';
import { gemmInto } from './LinearAlgebra.js';
import { contiguousOf, emptyLike } from './StorageAccess.js';
import type { Im2colKernel } from '../wasm/kernels.js';
import * as ref from '../wasm/referenceIm2col.js';
import { addressOf, wasmKernelFor } from '../wasm/vec.js';

/** The geometry of one convolution: input [n, c, h, w], weight [o, cg, kh, kw], output [n, o, oh, ow]. */
export interface Conv2dGeometry {
  readonly n: number;
  readonly c: number;
  readonly h: number;
  readonly w: number;
  readonly o: number;
  readonly cg: number;
  readonly kh: number;
  readonly kw: number;
  readonly oh: number;
  readonly ow: number;
  readonly sh: number;
  readonly sw: number;
  readonly ph: number;
  readonly pw: number;
  readonly dh: number;
  readonly dw: number;
  readonly groups: number;
}

export type FloatArray = Float32Array | Float64Array;

/** The geometry arguments of the im2col kernels: cg, h, w, kh, kw, oh, ow, sh, sw, ph, pw, dh, dw. */
export const im2colGeometry = (g: Conv2dGeometry): Geometry13 => [
  g.cg,
  g.h,
  g.w,
  g.kh,
  g.kw,
  g.oh,
  g.ow,
  g.sh,
  g.sw,
  g.ph,
  g.pw,
  g.dh,
  g.dw,
];
type Geometry13 = Parameters<Im2colKernel> extends [number, number, ...infer G] ? G : never;

/**
 * columns[(ic·kh + p)·kw + q, i·ow + j] = x[ic, i·sh − ph + p·dh, j·sw − pw + q·dw] (0 outside), for the cg
 * channels of x starting at element `xi` (a contiguous [cg, h, w] block): the f32_im2col / f64_im2col kernel
 * when both are in linear memory, else its JS twin.
 */
function im2col(g: Conv2dGeometry, x: FloatArray, xi: number, cols: FloatArray, ci: number): void {
  const k = wasmKernelFor<Im2colKernel>(x instanceof Float32Array ? 'f32_im2col' : 'f64_im2col', x, cols);
  if (k !== null) k(addressOf(x, xi), addressOf(cols, ci), ...im2colGeometry(g));
  else ref.im2col(x, xi, cols, ci, ...im2colGeometry(g));
}

/** The adjoint of im2col: x[...] += columns[...] for every window position inside the input. */
function col2im(g: Conv2dGeometry, cols: FloatArray, ci: number, x: FloatArray, xi: number): void {
  const k = wasmKernelFor<Im2colKernel>(x instanceof Float32Array ? 'f32_col2im' : 'f64_col2im', cols, x);
  if (k !== null) k(addressOf(cols, ci), addressOf(x, xi), ...im2colGeometry(g));
  else ref.col2im(cols, ci, x, xi, ...im2colGeometry(g));
}

export const floatArray = (t: Tensor): FloatArray => t.storage.data(t.dtype) as FloatArray;
export const offsetOf = (t: Tensor): number => t.storage.arrayOffset(t.dtype) + t.storageOffset;
export const freeCopy = (copy: Tensor | null, of: Tensor | null | undefined): void => {
  if (copy !== null && copy.storage !== of?.storage) copy.dispose();
};

/** Runs `f` on float32 copies of float16/bfloat16 tensors and rounds its result back (Note [Convolution through gemm]). */
export function inFloat(ts: readonly (Tensor | null)[], f: (ts: (Tensor | null)[]) => Tensor): Tensor {
  const dtype = ts[0]?.dtype as ScalarType;
  if (dtype === ScalarType.Float || dtype === ScalarType.Double) return f([...ts]);
  const wide = ts.map((t) => (t === null ? null : t.to(ScalarType.Float)));
  const r = f(wide);
  wide.forEach((t, i) => freeCopy(t, ts[i] ?? null));
  const out = r.to(dtype);
  r.dispose();
  return out;
}

/** A contiguous [rows, cols] view of `t`'s storage from element `offset` (t contiguous). */
const block = (t: Tensor, offset: number, rows: number, cols: number): Tensor =>
  aten().as_strided.call(t, [rows, cols], [cols, 1], t.storageOffset + offset);

const transposed = (t: Tensor): Tensor => aten().t.call(t);

/** The weight as og×K matrices, one per group: rows [g·og, (g+1)·og) of weight viewed [o, K]. */
const weightMatrix = (weight: Tensor, g: Conv2dGeometry, group: number): Tensor => {
  const og = g.o / g.groups;
  return block(weight, group * og * g.cg * g.kh * g.kw, og, g.cg * g.kh * g.kw);
};

/** slow_conv2d_forward: out[n, o, oh, ow] for float input, weight and bias of one dtype. */
export function conv2dForward(x: Tensor, weight: Tensor, bias: Tensor | null, g: Conv2dGeometry): Tensor {
  return inFloat([x, weight, bias], ([x0, w0, b0]) => {
    const xc = contiguousOf(x0 as Tensor);
    const wc = contiguousOf(w0 as Tensor);
    const bc = b0 === null || b0 === undefined ? null : contiguousOf(b0);
    const { n, c, h, w, o, cg, kh, kw, oh, ow, groups } = g;
    const [og, K, L] = [o / groups, cg * kh * kw, oh * ow];
    const out = emptyLike(xc, [n, o, oh, ow]);
    const cols = emptyLike(xc, [K, L]);
    for (let b = 0; b < n; b++) {
      for (let gr = 0; gr < groups; gr++) {
        const outBlock = block(out, (b * o + gr * og) * L, og, L);
        if (bc !== null) {
          const [O, B] = [floatArray(out), floatArray(bc)];
          const [oo, bo] = [offsetOf(out), offsetOf(bc)];
          for (let oc = gr * og; oc < (gr + 1) * og; oc++) O.fill(B[bo + oc] as number, oo + (b * o + oc) * L, oo + (b * o + oc + 1) * L);
        }
        im2col(g, floatArray(xc), offsetOf(xc) + (b * c + gr * cg) * h * w, floatArray(cols), offsetOf(cols));
        gemmInto(weightMatrix(wc, g, gr), cols, outBlock, bc !== null);
      }
    }
    cols.dispose();
    freeCopy(xc, x0);
    freeCopy(wc, w0);
    freeCopy(bc, b0);
    return out;
  });
}

/** d loss / d input of slow_conv2d: [n, c, h, w]. */
export function conv2dBackwardInputMM(gradOut: Tensor, weight: Tensor, g: Conv2dGeometry): Tensor {
  return inFloat([gradOut, weight], ([g0, w0]) => backwardInput(g0 as Tensor, w0 as Tensor, null, g));
}

// Note [Transposed convolution as a gradient]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A transposed convolution of x [n, ci, h, w] with weight [ci, co/groups, kh, kw] is the input gradient of
// the convolution whose input is its output [n, co, oh, ow] and whose output is x, with that same weight
// (slow_conv_transpose2d computes it as gemm + col2im too). So its forward is backwardInput with the roles
// renamed (geometry: c = co, h×w = oh×ow, o = ci, oh×ow = h×w) plus the bias; its input gradient is that
// convolution's forward (conv2d of the output gradient) and its weight gradient is that convolution's weight
// gradient with input and output gradient swapped (src/autograd/FunctionsManual.ts).

/** slow_conv_transpose2d: out [n, c, h, w] of the geometry's convolution from x [n, o, oh, ow] (Note [Transposed convolution as a gradient]). */
export function convTranspose2dForward(x: Tensor, weight: Tensor, bias: Tensor | null, g: Conv2dGeometry): Tensor {
  return inFloat([x, weight, bias], ([x0, w0, b0]) => backwardInput(x0 as Tensor, w0 as Tensor, b0 ?? null, g));
}

/** col2im(Wᵀ · gradOut) per image and group, onto zeros or onto the bias. */
function backwardInput(g0: Tensor, w0: Tensor, b0: Tensor | null, g: Conv2dGeometry): Tensor {
  const gc = contiguousOf(g0);
  const wc = contiguousOf(w0);
  const bc = b0 === null ? null : contiguousOf(b0);
  const { n, c, h, w, o, cg, kh, kw, oh, ow, groups } = g;
  const [og, K, L] = [o / groups, cg * kh * kw, oh * ow];
  const gx = emptyLike(gc, [n, c, h, w]);
  const cols = emptyLike(gc, [K, L]);
  const G = floatArray(gx);
  const go = offsetOf(gx);
  if (bc === null) G.fill(0, go, go + n * c * h * w);
  else {
    const [B, bo] = [floatArray(bc), offsetOf(bc)];
    for (let b = 0; b < n; b++)
      for (let ch = 0; ch < c; ch++) G.fill(B[bo + ch] as number, go + (b * c + ch) * h * w, go + (b * c + ch + 1) * h * w);
  }
  for (let b = 0; b < n; b++) {
    for (let gr = 0; gr < groups; gr++) {
      gemmInto(transposed(weightMatrix(wc, g, gr)), block(gc, (b * o + gr * og) * L, og, L), cols, false);
      col2im(g, floatArray(cols), offsetOf(cols), floatArray(gx), offsetOf(gx) + (b * c + gr * cg) * h * w);
    }
  }
  cols.dispose();
  freeCopy(gc, g0);
  freeCopy(wc, w0);
  freeCopy(bc, b0);
  return gx;
}

/** d loss / d weight of slow_conv2d: [o, cg, kh, kw], summed over the batch. */
export function conv2dBackwardWeightMM(gradOut: Tensor, x: Tensor, g: Conv2dGeometry): Tensor {
  return inFloat([gradOut, x], ([g0, x0]) => {
    const gc = contiguousOf(g0 as Tensor);
    const xc = contiguousOf(x0 as Tensor);
    const { n, c, h, w, o, cg, kh, kw, oh, ow, groups } = g;
    const [og, K, L] = [o / groups, cg * kh * kw, oh * ow];
    const gw = emptyLike(gc, [o, cg, kh, kw]);
    const cols = emptyLike(gc, [K, L]);
    if (n === 0) floatArray(gw).fill(0, offsetOf(gw), offsetOf(gw) + o * K);
    for (let b = 0; b < n; b++) {
      for (let gr = 0; gr < groups; gr++) {
        im2col(g, floatArray(xc), offsetOf(xc) + (b * c + gr * cg) * h * w, floatArray(cols), offsetOf(cols));
        gemmInto(block(gc, (b * o + gr * og) * L, og, L), transposed(cols), block(gw, gr * og * K, og, K), b > 0);
      }
    }
    cols.dispose();
    freeCopy(gc, g0);
    freeCopy(xc, x0);
    return gw;
  });
}
