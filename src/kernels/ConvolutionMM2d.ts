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
import * as at from '../generated/TensorBody.js';
import type { Tensor } from '../tensor/Tensor.js';
import { GEMM_WORK_PER_UNIT, gemmInto } from './LinearAlgebra.js';
import { contiguousOf, emptyLike, linearScratch } from './StorageAccess.js';
import { batchedApplies, gemmRun, unfoldRun } from './Unfold2d.js';
import type { Im2colKernel } from '../wasm/kernels/KernelTable.js';
import * as ref from '../wasm/kernels/referenceIm2col.js';
import { addressOf, runKernelCalls, splitRange, threadsFor, wasmKernelFor } from '../wasm/kernels/vec.js';

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

export const floatArray = (t: Tensor): FloatArray => t.storage.data(t.scalarType) as FloatArray;
export const offsetOf = (t: Tensor): number => t.storage.arrayOffset(t.scalarType) + t.storageOffset;
export const freeCopy = (copy: Tensor | null, of: Tensor | null | undefined): void => {
  if (copy !== null && copy.storage !== of?.storage) copy.dispose();
};

/** Runs `f` on float32 copies of float16/bfloat16 tensors and rounds its result back (Note [Convolution through gemm]). */
export function inFloat(ts: readonly (Tensor | null)[], f: (ts: (Tensor | null)[]) => Tensor): Tensor {
  const dtype = ts[0]?.scalarType as ScalarType;
  if (dtype === ScalarType.Float || dtype === ScalarType.Double) return f([...ts]);
  const wide = ts.map((t) => (t === null ? null : at.to_dtype(t, ScalarType.Float)));
  const r = f(wide);
  wide.forEach((t, i) => freeCopy(t, ts[i] ?? null));
  const out = at.to_dtype(r, dtype);
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

// Note [Direct convolution]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
// float32 convolutions with one group, column stride 1 and a small window volume K = cg·kh·kw (≤ directConvSettings.maxK;
// the forward also a little above it on wide outputs, Note [Convolution algorithm per shape])
// skip im2col and the gemm: f32_conv2d_direct (assembly/conv_direct.ts) keeps 4 output channels × 8 output
// columns in registers and streams the K taps from the (zero-padded copy of the) image, a gemm whose B panel
// is read in place. For a 3-channel input (K = 27) the im2col matrix and the packed panels of the gemm path
// cost as much as the 16×27×1024 multiply-adds per image; the direct kernel does only the multiply-adds.
// The weight gradient is f32_conv2d_direct_wgrad: per output channel and tap a dot product of the output
// gradient with the shifted image, four lanes along each row. With unit strides the input gradient is the same kernel (a full correlation of the output gradient with
// the weight transposed in its channels and flipped in space, padding dh·(kh−1)−ph), so both run direct.
// Images split among threads (each image computed by one call, so results do not depend on the thread
// count); the JS twin (referenceIm2col.directConv2d) gives the same bits when storage is in the JS heap.

// Note [Direct weight gradient over the batch]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A weight gradient sums over the whole batch, so f32_conv2d_direct_wgrad keeps each sum's four lanes (and the
// scalar of the row tails) across all images and reduces the lanes once at the end: images, then rows, then
// columns in order. Summed per image instead, the lane reduction and the load-add-store into gw came once per
// image and tap, about a quarter of LeNet conv2's 8×8 outputs' work. The images go by in blocks of nb (a
// block's images and output gradients about fill L1) with the lanes parked in a workspace between blocks,
// 8 per tap pair and block: the blocks change no sum. Threads split the output channels, so 1 and 2 threads
// give the same bits; the twin is referenceIm2col.directConv2dWgrad.

/** Window volumes up to `maxK` run the direct kernel (the gemm's packing pays for itself above it); 0 turns it off (A/B runs). */
export const directConvSettings = { maxK: 256 };

// Note [Convolution algorithm per shape]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Each of a convolution's three computations picks its algorithm from the shape, as PyTorch's CPU
// dispatch picks among its paths (`direct` below; depthwise convolutions go to DepthwiseConvolution.ts):
// - the direct kernels (Note [Direct convolution]) when the window volume K (cg·kh·kw; for the input
//   gradient o·kh·kw) is at most directConvSettings.maxK = 256, and for the forward also up to K = 640 when
//   the output has at least 2048 positions and the batch at least 4 images (each thread an image or more);
// - else im2col + the packed gemm, a chunk of images at a time (`batchedForward` & co. below, the steps
//   in Unfold2d.ts): the chunk's columns (at most convSettings.columnsElems = 2^18 elements, 1 MiB of
//   float32, so that the gemm reads them from cache right after the unfold wrote them; at least one image)
//   are unfolded, or folded back for the input gradient (gemm then col2im), by calls split among the
//   threads by image and input channel; the gemms of the chunk run one per image and group on one
//   workspace (`gemmRun`), each split among threads by Note [Gemm split]. The weight gradient accumulates
//   the images' products into one result. A 1×1 convolution with unit strides and no padding skips the
//   columns (the input is its own im2col; a strided 1×1 unfolds, which is a strided gather).
// Every sum is the one of the per-image loop this replaced, in the same order (the same gemm calls on the
// same operands), so the batched path gives its bits (test/kernels/ConvolutionAlgorithm.test.ts) and 1
// and 2 threads agree; the rule never looks at the thread count. Only the forward of K in (256, 640]
// with wide outputs (ResNet-18's 3×3 layer-1 convolutions) moved from gemm to direct, which sums in
// another order (last-bit differences).
// Not done: one gemm over the whole batch (the weight gradient as grad_out [o, n·L] · columnsᵀ [n·L, K],
// the forward's and input gradient's columns [K, n·L]): with NCHW tensors grad_out is not a strided
// [o, n·L] matrix (a transposing copy) and the unfold kernels write [K, L] blocks; the per-image products
// cost the same multiply-adds, and what the loop paid per image was views and a workspace per gemm
// (LeNet conv2's input gradient: 2.95 -> 1.52 ms, one thread).
// The thresholds, measured on one thread (CPU ms per call, medians of 5–9 rounds alternating the two
// forced families in one process, `AB=algos T=1 npx tsx bench/conv_shapes.ts 9`, shared machine):
//   shape (batch)                        forward        input grad     weight grad   (gemm / direct)
//   LeNet conv1 1->6 5x5 (64)            3.66 / 0.56    3.79 / 1.17    2.44 / 0.70    K 25, o·kh·kw 150
//   LeNet conv2 6->16 5x5 (64)           3.23 / 0.57    1.28 / 3.47    1.37 / 0.88    K 150, o·kh·kw 400
//   ResNet 3x3 64->64 on 56x56 (8)       48.4 / 44.1    48.7 / 47.4    49.6 / 55.2    K 576, L 3136
//   ResNet 3x3 128->128 on 28x28 (8)     44.3 / 47.1    43.2 / 49.6    46.9 / 54.8    K 1152, L 784
//   ResNet 3x3 256->256 on 14x14 (8)     49.0 / 128     53.5 / 139     49.7 / 150     K 2304, L 196
//   ResNet 3x3 512->512 on 7x7 (8)       60.5 / 298     58.6 / 314     50.6 / 282     K 4608, L 49
// (strided ResNet convolutions have no direct forward: both columns ran the gemm.)

/**
 * `algorithm`: 'chosen' is Note [Convolution algorithm per shape]; 'legacy' the rule before it (direct up to
 * directConvSettings.maxK); 'gemm' and 'direct' force one family wherever it applies. `batched` false
 * restores one gemm per image and group (the loop before the batched path). For A/B runs
 * (bench/conv_shapes.ts) and tests. `columnsElems` bounds the columns of one chunk of images.
 */
export const convSettings: { algorithm: 'chosen' | 'legacy' | 'gemm' | 'direct'; batched: boolean; columnsElems: number } = {
  algorithm: 'chosen',
  batched: true,
  columnsElems: 1 << 18,
};

/** Which computation of a convolution: the forward, the input gradient, the weight gradient. */
type Pass = 'fwd' | 'gx' | 'gw';

/**
 * Whether `pass` of `g` (dtype `dtype`) runs the direct kernels (Note [Direct convolution]): float32, one
 * group, unit column stride (the input gradient: unit strides and padding within the window), and then
 * the rule of Note [Convolution algorithm per shape].
 */
function direct(pass: Pass, g: Conv2dGeometry, dtype: ScalarType): boolean {
  if (dtype !== ScalarType.Float || g.groups !== 1 || g.sw !== 1) return false;
  if (pass === 'gx' && (g.sh !== 1 || g.ph > g.dh * (g.kh - 1) || g.pw > g.dw * (g.kw - 1))) return false;
  const a = convSettings.algorithm;
  if (a === 'gemm' || a === 'direct') return a === 'direct';
  const K = (pass === 'gx' ? g.o : g.cg) * g.kh * g.kw;
  if (a === 'legacy' || K <= directConvSettings.maxK) return K <= directConvSettings.maxK;
  // See Note [Convolution algorithm per shape]: wide images at a moderate window volume, forward only.
  return pass === 'fwd' && K <= 640 && g.oh * g.ow >= 2048 && g.n >= 4 && directConvSettings.maxK > 0;
}

/**
 * out [n, o, oh, ow] = the direct convolution of contiguous float32 x with the weight `fillWeight` writes as
 * [o, c, kh, kw] into a linear-memory workspace (+ bias). The geometry's own sizes are used (c for cg).
 */
function directConv(x: Tensor, fillWeight: (W: Float32Array, at: number) => void, bias: Tensor | null, g: Conv2dGeometry): Tensor {
  const { n, c, h, w, o, kh, kw, oh, ow, sh, ph, pw, dh, dw } = g;
  const K = c * kh * kw;
  // Each thread's workspace: the padded image, then K tap offsets (f32_conv2d_direct).
  const padElems = (ph !== 0 || pw !== 0 ? c * (h + 2 * ph) * (w + 2 * pw) : 0) + K;
  const threads = Math.min(n, threadsFor((n * o * oh * ow * K) / GEMM_WORK_PER_UNIT));
  const out = emptyLike(x, [n, o, oh, ow]);
  const ws = linearScratch(x, threads * padElems + o * K + o);
  const [X, O, WS] = [floatArray(x) as Float32Array, floatArray(out) as Float32Array, floatArray(ws) as Float32Array];
  const [xo, oo, wso] = [offsetOf(x), offsetOf(out), offsetOf(ws)];
  const wAt = wso + threads * padElems;
  const bAt = wAt + o * K;
  fillWeight(WS, wAt);
  if (bias !== null) {
    const [B, bo] = [floatArray(bias), offsetOf(bias)];
    for (let i = 0; i < o; i++) WS[bAt + i] = B[bo + i] as number;
  }
  const geo = [c, h, w, o, kh, kw, oh, ow, sh, ph, pw, dh, dw] as const;
  const hasBias = bias === null ? 0 : 1;
  if (wasmKernelFor('f32_conv2d_direct', X, O, WS) === null) {
    ref.directConv2d(X, xo, WS, wAt, WS, bAt, hasBias, O, oo, n, ...geo);
  } else {
    const cuts = splitRange(n, threads, 1);
    const calls: number[][] = [];
    for (let t = 0; t + 1 < cuts.length; t++) {
      const [b0, b1] = [cuts[t] as number, cuts[t + 1] as number];
      const [xa, oa] = [addressOf(X, xo + b0 * c * h * w), addressOf(O, oo + b0 * o * oh * ow)];
      calls.push([b1 - b0, xa, addressOf(WS, wAt), addressOf(WS, bAt), hasBias, oa, addressOf(WS, wso + t * padElems), ...geo]);
    }
    runKernelCalls('f32_conv2d_direct', calls);
  }
  ws.dispose();
  return out;
}

/** slow_conv2d_forward: out[n, o, oh, ow] for float input, weight and bias of one dtype. */
export function conv2dForward(x: Tensor, weight: Tensor, bias: Tensor | null, g: Conv2dGeometry): Tensor {
  return inFloat([x, weight, bias], ([x0, w0, b0]) => {
    if (direct('fwd', g, (x0 as Tensor).scalarType)) {
      const [xc, wc] = [contiguousOf(x0 as Tensor), contiguousOf(w0 as Tensor)];
      const bc = b0 === null || b0 === undefined ? null : contiguousOf(b0);
      const out = directConv(xc, (W, at) => W.set(wSlice(wc, g.o * g.cg * g.kh * g.kw), at), bc, g);
      freeCopy(xc, x0);
      freeCopy(wc, w0);
      freeCopy(bc, b0);
      return out;
    }
    const xc = contiguousOf(x0 as Tensor);
    const wc = contiguousOf(w0 as Tensor);
    const bc = b0 === null || b0 === undefined ? null : contiguousOf(b0);
    const { n, c, h, w, o, cg, kh, kw, oh, ow, groups } = g;
    const [og, K, L] = [o / groups, cg * kh * kw, oh * ow];
    const out = emptyLike(xc, [n, o, oh, ow]);
    if (bc !== null) fillChannels(out, bc, n, o, L);
    if (batched(xc, wc, out)) {
      batchedForward(xc, wc, out, bc !== null, g);
      freeCopy(xc, x0);
      freeCopy(wc, w0);
      freeCopy(bc, b0);
      return out;
    }
    const cols = emptyLike(xc, [K, L]);
    for (let b = 0; b < n; b++) {
      for (let gr = 0; gr < groups; gr++) {
        const outBlock = block(out, (b * o + gr * og) * L, og, L);
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

/** The first `count` elements of contiguous `t`'s storage from its offset. */
const wSlice = (t: Tensor, count: number): FloatArray => floatArray(t).subarray(offsetOf(t), offsetOf(t) + count);

/** d loss / d input of slow_conv2d: [n, c, h, w]. */
export function conv2dBackwardInputMM(gradOut: Tensor, weight: Tensor, g: Conv2dGeometry): Tensor {
  return inFloat([gradOut, weight], ([g0, w0]) => {
    if (!direct('gx', g, (g0 as Tensor).scalarType)) return backwardInput(g0 as Tensor, w0 as Tensor, null, g);
    // The correlation of the output gradient with the weight transposed and flipped (Note [Direct convolution]).
    const { n, c, h, w, o, kh, kw, oh, ow, ph, pw, dh, dw } = g;
    const [gc, wc] = [contiguousOf(g0 as Tensor), contiguousOf(w0 as Tensor)];
    const flipped = (W: Float32Array, at: number): void => {
      const src = wSlice(wc, o * c * kh * kw);
      for (let oc = 0; oc < o; oc++)
        for (let ic = 0; ic < c; ic++)
          for (let p = 0; p < kh; p++)
            for (let q = 0; q < kw; q++)
              W[at + ((ic * o + oc) * kh + (kh - 1 - p)) * kw + (kw - 1 - q)] = src[((oc * c + ic) * kh + p) * kw + q] as number;
    };
    const geometry = { ...g, c: o, cg: o, h: oh, w: ow, o: c, oh: h, ow: w, sh: 1, sw: 1, ph: dh * (kh - 1) - ph, pw: dw * (kw - 1) - pw };
    const gx = directConv(gc, flipped, null, { ...geometry, n });
    freeCopy(gc, g0);
    freeCopy(wc, w0);
    return gx;
  });
}

// Note [Transposed convolution as a gradient]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A transposed convolution of x [n, ci, h, w] with weight [ci, co/groups, kh, kw] is the input gradient of
// the convolution whose input is its output [n, co, oh, ow] and whose output is x, with that same weight
// (slow_conv_transpose2d computes it as gemm + col2im too). So its forward is backwardInput with the roles
// renamed (geometry: c = co, h×w = oh×ow, o = ci, oh×ow = h×w) plus the bias; its input gradient is that
// convolution's forward (conv2d of the output gradient) and its weight gradient is that convolution's weight
// gradient with input and output gradient swapped (src/autograd/FunctionsManualConvolution.ts).

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
  if (bc === null) floatArray(gx).fill(0, offsetOf(gx), offsetOf(gx) + n * c * h * w);
  else fillChannels(gx, bc, n, c, h * w);
  if (batched(gc, wc, gx)) {
    batchedInputGrad(gc, wc, gx, g);
    freeCopy(gc, g0);
    freeCopy(wc, w0);
    freeCopy(bc, b0);
    return gx;
  }
  const cols = emptyLike(gc, [K, L]);
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
    if (direct('gw', g, (x0 as Tensor).scalarType)) {
      const [gc, xc] = [contiguousOf(g0 as Tensor), contiguousOf(x0 as Tensor)];
      const gw = directWeightGrad(gc, xc, g);
      freeCopy(gc, g0);
      freeCopy(xc, x0);
      return gw;
    }
    const gc = contiguousOf(g0 as Tensor);
    const xc = contiguousOf(x0 as Tensor);
    const { n, c, h, w, o, cg, kh, kw, oh, ow, groups } = g;
    const [og, K, L] = [o / groups, cg * kh * kw, oh * ow];
    const gw = emptyLike(gc, [o, cg, kh, kw]);
    if (n === 0) floatArray(gw).fill(0, offsetOf(gw), offsetOf(gw) + o * K);
    else if (batched(gc, xc)) {
      batchedWeightGrad(gc, xc, gw, g);
      freeCopy(gc, g0);
      freeCopy(xc, x0);
      return gw;
    }
    const cols = emptyLike(gc, [K, L]);
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

/**
 * gw [o, c, kh, kw] of the direct convolution: output channels split among threads in fours (Note [Direct
 * convolution]). The sums go into the workspace, which is in linear memory whatever gw's size (a weight
 * gradient of 1 KiB or less, conv1's [6, 1, 5, 5], would be a JS-heap storage), and are copied out.
 */
function directWeightGrad(gc: Tensor, xc: Tensor, g: Conv2dGeometry): Tensor {
  const { n, c, h, w, o, kh, kw, oh, ow, sh, ph, pw, dh, dw } = g;
  const K = c * kh * kw;
  const imageElems = c * (h + 2 * ph) * (w + 2 * pw);
  // Images per block: one block's images and output gradients about fill L1 (at least one image).
  const nb = Math.max(1, Math.min(n, Math.floor(DIRECT_WGRAD_BLOCK_ELEMS / (imageElems + o * oh * ow))));
  const padElems = ph !== 0 || pw !== 0 ? nb * imageElems : 0;
  const threads = Math.min(Math.ceil(o / 4), threadsFor((n * o * oh * ow * K) / GEMM_WORK_PER_UNIT));
  const gw = emptyLike(gc, [o, c, kh, kw]);
  // The workspace: each thread's padded images, the sums, their lanes (16-byte aligned: 4 floats per sum).
  const ws = linearScratch(gc, threads * padElems + o * K + o * K * 4 + 4);
  const [G, X, GW, WS] = [gc, xc, gw, ws].map((t) => floatArray(t) as Float32Array) as [
    Float32Array,
    Float32Array,
    Float32Array,
    Float32Array,
  ];
  const [go, xo, gwo, wso] = [offsetOf(gc), offsetOf(xc), offsetOf(gw), offsetOf(ws)];
  const sumsAt = wso + threads * padElems;
  const geo = [c, h, w, o, kh, kw, oh, ow, sh, ph, pw, dh, dw] as const;
  if (wasmKernelFor('f32_conv2d_direct_wgrad', X, G, WS) === null) {
    ref.directConv2dWgrad(X, xo, G, go, GW, gwo, n, ...geo, 0, o);
  } else {
    const cuts = splitRange(o, threads, 4);
    const calls: number[][] = [];
    const [xa, ga, sa] = [addressOf(X, xo), addressOf(G, go), addressOf(WS, sumsAt)];
    const accAt = sumsAt + o * K;
    const aa = addressOf(WS, accAt) + ((16 - (addressOf(WS, accAt) % 16)) % 16);
    for (let t = 0; t + 1 < cuts.length; t++)
      calls.push([n, xa, ga, sa, aa, addressOf(WS, wso + t * padElems), ...geo, cuts[t] as number, cuts[t + 1] as number, nb]);
    runKernelCalls('f32_conv2d_direct_wgrad', calls);
    GW.set(WS.subarray(sumsAt, sumsAt + o * K), gwo);
  }
  ws.dispose();
  return gw;
}

/** Elements (images plus output gradients) of one block of the direct weight gradient: 32 KiB of float32. */
const DIRECT_WGRAD_BLOCK_ELEMS = 8192;

/** out[b, ch, :] = bias[ch] for every image b < n and channel ch < chans, planes of `plane` elements. */
function fillChannels(out: Tensor, bias: Tensor, n: number, chans: number, plane: number): void {
  const [O, B] = [floatArray(out), floatArray(bias)];
  const [oo, bo] = [offsetOf(out), offsetOf(bias)];
  for (let b = 0; b < n; b++)
    for (let ch = 0; ch < chans; ch++) O.fill(B[bo + ch] as number, oo + (b * chans + ch) * plane, oo + (b * chans + ch + 1) * plane);
}

/** Whether the batched path runs (Note [Convolution algorithm per shape]): on, WASM kernels, linear memory. */
const batched = (...ts: Tensor[]): boolean => convSettings.batched && batchedApplies(...ts);

/** Images per chunk of the batched path: their columns within convSettings.columnsElems elements, at least one image. */
const chunkOf = (g: Conv2dGeometry): number =>
  Math.max(1, Math.min(g.n, Math.floor(convSettings.columnsElems / (g.groups * g.cg * g.kh * g.kw * g.oh * g.ow))));

/** A 1×1 window with unit strides and no padding: the columns are the input itself. */
const pointwise = (g: Conv2dGeometry): boolean => g.kh === 1 && g.kw === 1 && g.sh === 1 && g.sw === 1 && g.ph === 0 && g.pw === 0;

/** out (bias already in it when `hasBias`) = W · im2col(x) per image and group, a chunk of images at a time. */
function batchedForward(xc: Tensor, wc: Tensor, out: Tensor, hasBias: boolean, g: Conv2dGeometry): void {
  const { n, c, h, w, o, cg, kh, kw, oh, ow, groups } = g;
  const [og, K, L] = [o / groups, cg * kh * kw, oh * ow];
  const direct = pointwise(g);
  const nb = direct ? n : chunkOf(g);
  const cols = direct ? null : linearScratch(xc, nb * groups * K * L);
  for (let b0 = 0; b0 < n; b0 += nb) {
    const b1 = Math.min(n, b0 + nb);
    if (cols !== null) unfoldRun(false, g, xc, b0, b1, cols);
    for (let gr = 0; gr < groups; gr++) {
      const B =
        cols === null
          ? { t: xc, off: (b0 * c + gr * cg) * h * w, rs: L, cs: 1, step: c * h * w }
          : { t: cols, off: gr * K * L, rs: L, cs: 1, step: groups * K * L };
      const W = { t: wc, off: gr * og * K, rs: K, cs: 1, step: 0 };
      gemmRun(b1 - b0, og, L, K, W, B, { t: out, off: (b0 * o + gr * og) * L, rs: L, cs: 1, step: o * L }, hasBias);
    }
  }
  cols?.dispose();
}

/** gx (zeros or the bias already in it) += col2im(Wᵀ · gout) per image and group, a chunk of images at a time. */
function batchedInputGrad(gc: Tensor, wc: Tensor, gx: Tensor, g: Conv2dGeometry): void {
  const { n, o, cg, kh, kw, oh, ow, groups } = g;
  const [og, K, L] = [o / groups, cg * kh * kw, oh * ow];
  const nb = chunkOf(g);
  const cols = linearScratch(gc, nb * groups * K * L);
  for (let b0 = 0; b0 < n; b0 += nb) {
    const b1 = Math.min(n, b0 + nb);
    for (let gr = 0; gr < groups; gr++) {
      const Wt = { t: wc, off: gr * og * K, rs: 1, cs: K, step: 0 };
      const G = { t: gc, off: (b0 * o + gr * og) * L, rs: L, cs: 1, step: o * L };
      gemmRun(b1 - b0, K, L, og, Wt, G, { t: cols, off: gr * K * L, rs: L, cs: 1, step: groups * K * L }, false);
    }
    unfoldRun(true, g, gx, b0, b1, cols);
  }
  cols.dispose();
}

/** gw = Σ over images of gout · im2col(x)ᵀ per group, a chunk of images at a time (into linear memory, copied out). */
function batchedWeightGrad(gc: Tensor, xc: Tensor, gw: Tensor, g: Conv2dGeometry): void {
  const { n, c, h, w, o, cg, kh, kw, oh, ow, groups } = g;
  const [og, K, L] = [o / groups, cg * kh * kw, oh * ow];
  const direct = pointwise(g);
  const nb = direct ? n : chunkOf(g);
  const cols = direct ? null : linearScratch(xc, nb * groups * K * L);
  const sums = batchedApplies(gw) ? gw : linearScratch(gc, o * K);
  for (let b0 = 0; b0 < n; b0 += nb) {
    const b1 = Math.min(n, b0 + nb);
    if (cols !== null) unfoldRun(false, g, xc, b0, b1, cols);
    for (let gr = 0; gr < groups; gr++) {
      const G = { t: gc, off: (b0 * o + gr * og) * L, rs: L, cs: 1, step: o * L };
      const Xt =
        cols === null
          ? { t: xc, off: (b0 * c + gr * cg) * h * w, rs: 1, cs: L, step: c * h * w }
          : { t: cols, off: gr * K * L, rs: 1, cs: L, step: groups * K * L };
      gemmRun(b1 - b0, og, K, L, G, Xt, { t: sums, off: gr * og * K, rs: K, cs: 1, step: 0 }, b0 > 0);
    }
  }
  if (sums !== gw) {
    floatArray(gw).set(floatArray(sums).subarray(offsetOf(sums), offsetOf(sums) + o * K), offsetOf(gw));
    sums.dispose();
  }
  cols?.dispose();
}
