// The batched steps of the im2col convolution: unfolding a chunk of images into columns and folding gradient
// columns back on all threads, and a run of gemms sharing one workspace. Mirrors
// aten/src/ATen/native/cpu/Unfold2d.cpp (unfolded2d_copy / unfolded2d_acc, which slow_conv2d calls per image
// inside a parallel_for over the batch) and the per-image gemm loop of native/ConvolutionMM2d.cpp.

import { ScalarType } from '../c10/ScalarType.js';
import type { Tensor } from '../tensor/Tensor.js';
import type { Conv2dGeometry } from './ConvolutionMM2d.js';
import type { GemmKernel } from '../wasm/kernels/KernelTable.js';
import { GEMM_WORKSPACE_BYTES } from '../wasm/kernels/reference.js';
import { addressOf, runKernelCalls, splitRange, threadsFor, wasmKernelFor } from '../wasm/kernels/vec.js';
import { gemmWorkspace, releaseGemmWorkspace, splitGemm } from './BlasKernel.js';
import { GEMM_WORK_PER_UNIT } from './LinearAlgebra.js';

type FloatArray = Float32Array | Float64Array;
const floats = (t: Tensor): FloatArray => t.storage.data(t.scalarType) as FloatArray;
const base = (t: Tensor): number => t.storage.arrayOffset(t.scalarType) + t.storageOffset;

/** Whether the batched path can run on these tensors: WASM kernels for their dtype, every storage in linear memory. */
export function batchedApplies(...ts: Tensor[]): boolean {
  const dtype = ts[0]?.scalarType;
  if (dtype !== ScalarType.Float && dtype !== ScalarType.Double) return false;
  return wasmKernelFor(dtype === ScalarType.Float ? 'f32_gemm' : 'f64_gemm', ...ts.map(floats)) !== null;
}

/** One operand of `gemmRun`: element offset from the tensor's first element, row and column strides, the step per product. */
export interface Operand {
  readonly t: Tensor;
  readonly off: number;
  readonly rs: number;
  readonly cs: number;
  readonly step: number;
}

// Note [Images among threads]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A run of products whose each is too small to split (LeNet conv2's input gradient: 150×64 by 16 per image)
// used to run one product at a time on one thread, the other idle. When each product would get one thread
// and the products write distinct C blocks, the run is split instead: each thread takes a contiguous range of
// products in one f32_gemm_batch call on its own workspace (PyTorch's slow_conv2d puts its parallel_for
// around the batch the same way). Each product is the same single-call gemm either way, so the bits do not
// depend on the thread count. Products summed into one C (a weight gradient, C step 0) stay in order on
// the caller's thread count per product.

/**
 * For i < count: C_i (+)= A_i · B_i, with A_i m×k, B_i k×n, C_i a contiguous m×n block (row stride n), each
 * operand at `off + i·step` (a C step of 0 sums every product into one C: C accumulates from the second on).
 * The first product accumulates onto C when `accumulate`. Products big enough run the packed gemm split
 * among threads by Note [Gemm split], small ones are split among threads by product (Note [Images among
 * threads]); so each C element is summed in one order whatever the thread count. All products share one
 * workspace per thread: no tensor or view is made per product. All storages must be in linear memory
 * (batchedApplies).
 */
export function gemmRun(count: number, m: number, n: number, k: number, A: Operand, B: Operand, C: Operand, accumulate: boolean): void {
  if (count === 0 || m * n === 0) return;
  const f32 = C.t.scalarType === ScalarType.Float;
  const name = f32 ? 'f32_gemm' : 'f64_gemm';
  const threads = threadsFor((m * n * k) / GEMM_WORK_PER_UNIT);
  const byProduct = threads === 1 && C.step !== 0 ? Math.min(count, threadsFor((count * m * n * k) / GEMM_WORK_PER_UNIT)) : 1;
  const ws = gemmWorkspace(name, Math.max(threads, byProduct) * GEMM_WORKSPACE_BYTES, C.t.device);
  // Arrays after the last allocation (Note [Storage lifetime]).
  const [a, b, c] = [floats(A.t), floats(B.t), floats(C.t)];
  const W = ws.storage.data(ScalarType.Float);
  const gemm = wasmKernelFor<GemmKernel>(name, a, b, c, W) as GemmKernel;
  const w = addressOf(W, ws.storage.arrayOffset(ScalarType.Float));
  const [ao, bo, co] = [base(A.t) + A.off, base(B.t) + B.off, base(C.t) + C.off];
  const bytes = c.BYTES_PER_ELEMENT;
  if (byProduct > 1) {
    const cuts = splitRange(count, byProduct, 1);
    const calls: number[][] = [];
    for (let t = 0; t + 1 < cuts.length; t++) {
      const [i0, i1] = [cuts[t] as number, cuts[t + 1] as number];
      const [ai, bi, ci] = [addressOf(a, ao + i0 * A.step), addressOf(b, bo + i0 * B.step), addressOf(c, co + i0 * C.step)];
      calls.push([
        i1 - i0,
        m,
        n,
        k,
        1,
        ai,
        A.rs,
        A.cs,
        A.step,
        bi,
        B.rs,
        B.cs,
        B.step,
        ci,
        n,
        C.step,
        accumulate ? 1 : 0,
        w + t * GEMM_WORKSPACE_BYTES,
      ]);
    }
    runKernelCalls(f32 ? 'f32_gemm_batch' : 'f64_gemm_batch', calls);
    releaseGemmWorkspace(ws);
    return;
  }
  for (let i = 0; i < count; i++) {
    const acc = accumulate || (C.step === 0 && i > 0) ? 1 : 0;
    const call: Parameters<GemmKernel> = [
      m,
      n,
      k,
      1,
      addressOf(a, ao + i * A.step),
      A.rs,
      A.cs,
      addressOf(b, bo + i * B.step),
      B.rs,
      B.cs,
      addressOf(c, co + i * C.step),
      n,
      acc,
      w,
    ];
    if (threads === 1) gemm(...call);
    else runKernelCalls(name, splitGemm(threads, call, bytes));
  }
  releaseGemmWorkspace(ws);
}

/** The convolution geometry the unfolding needs. */
type UnfoldGeometry = Omit<Conv2dGeometry, 'n' | 'o'>;

/**
 * Unfolds (im2col) or folds back (col2im, adding onto x) images [b0, b1) of x [n, c, h, w], every group:
 * the columns of image b, group g are the contiguous [cg·kh·kw, oh·ow] block (b − b0)·groups + g of `cols`.
 * The calls split each block by input channels when there are fewer blocks than threads; every element of
 * x or of the columns is written by one call, so the bits do not depend on the thread count.
 */
export function unfoldRun(fold: boolean, g: UnfoldGeometry, x: Tensor, b0: number, b1: number, cols: Tensor): void {
  const { c, h, w, cg, kh, kw, oh, ow, groups } = g;
  const [K, L] = [cg * kh * kw, oh * ow];
  const blocks = (b1 - b0) * groups;
  // A folded element is a load-add-store of x and a load of the columns: two units; an unfolded one a copy.
  const threads = threadsFor(blocks * K * L * (fold ? 2 : 1));
  const parts = Math.min(cg, Math.ceil(threads / blocks));
  const dtype = x.scalarType === ScalarType.Float ? 'f32' : 'f64';
  const [X, CO] = [floats(x), floats(cols)];
  const [xo, colo] = [base(x), base(cols)];
  const calls: number[][] = [];
  for (let blk = 0; blk < blocks; blk++) {
    const [b, gr] = [b0 + Math.floor(blk / groups), blk % groups];
    for (let p = 0; p < parts; p++) {
      const [c0, c1] = [Math.floor((p * cg) / parts), Math.floor(((p + 1) * cg) / parts)];
      if (c1 === c0) continue;
      const xa = addressOf(X, xo + (b * c + gr * cg + c0) * h * w);
      const ca = addressOf(CO, colo + blk * K * L + c0 * kh * kw * L);
      const geo = [c1 - c0, h, w, kh, kw, oh, ow, g.sh, g.sw, g.ph, g.pw, g.dh, g.dw];
      calls.push(fold ? [ca, xa, ...geo] : [xa, ca, ...geo]);
    }
  }
  runKernelCalls(`${dtype}_${fold ? 'col2im' : 'im2col'}`, calls, Math.min(threads, calls.length));
}
