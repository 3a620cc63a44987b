// The kernel table: one signature for the WASM exports and for the JS twins running over the same linear
// memory, so a caller (and every test) picks a backend and calls the same names the same way. Arguments
// are element counts and byte addresses in the runtime's WasmMemory; see src/wasm/README.md.

import type { WasmMemory } from '../runtime/memory.js';
import * as ref from './reference.js';
import * as refIm2col from './referenceIm2col.js';
import * as refPool from './referencePooling.js';
import * as refAttn from './referenceAttention.js';
import * as refOptim from './referenceOptim.js';

const fround = Math.fround;
const same = (v: number): number => v;
import type { WasmInstanceObject } from '../runtime/webassembly.js';

/** f32_gemm / f64_gemm: C = alpha·A·B (+ C), A and B through element strides, byte addresses, a workspace. */
export type GemmKernel = (
  m: number,
  n: number,
  k: number,
  alpha: number,
  a: number,
  rsa: number,
  csa: number,
  b: number,
  rsb: number,
  csb: number,
  c: number,
  ldc: number,
  accumulate: number,
  ws: number,
) => void;

/** Every kernel of src/wasm/assembly, by its export name (counts in elements, addresses in bytes). */
export interface Kernels {
  /** y[i] = a[i] + b[i], float32. */
  f32_vadd(n: number, a: number, b: number, y: number): void;
  /** y[i] = a[i] * b[i], float32. */
  f32_vmul(n: number, a: number, b: number, y: number): void;
  /** y[i] = a[i] + b, float32; `b` is rounded to float32. */
  f32_vadd_scalar(n: number, a: number, b: number, y: number): void;
  /** y[i] = a[i] * b, float32; `b` is rounded to float32. */
  f32_vmul_scalar(n: number, a: number, b: number, y: number): void;
  /** y[i] = a[i] + b[i], float64. */
  f64_vadd(n: number, a: number, b: number, y: number): void;
  /** y[i] = a[i] * b[i], float64. */
  f64_vmul(n: number, a: number, b: number, y: number): void;
  /** y[i] = a[i] + b, float64. */
  f64_vadd_scalar(n: number, a: number, b: number, y: number): void;
  /** y[i] = a[i] * b, float64. */
  f64_vmul_scalar(n: number, a: number, b: number, y: number): void;
  /** y[i] = a[i] - b[i], float32. */
  f32_vsub(n: number, a: number, b: number, y: number): void;
  /** y[i] = a[i] / b[i], float32. */
  f32_vdiv(n: number, a: number, b: number, y: number): void;
  /** y[i] = a[i] - b[i], float64. */
  f64_vsub(n: number, a: number, b: number, y: number): void;
  /** y[i] = a[i] / b[i], float64. */
  f64_vdiv(n: number, a: number, b: number, y: number): void;
  /** y[i] = a[i] - b, float32. */
  f32_vsub_scalar(n: number, a: number, b: number, y: number): void;
  /** y[i] = a[i] / b, float32. */
  f32_vdiv_scalar(n: number, a: number, b: number, y: number): void;
  /** y[i] = a[i] - b, float64. */
  f64_vsub_scalar(n: number, a: number, b: number, y: number): void;
  /** y[i] = a[i] / b, float64. */
  f64_vdiv_scalar(n: number, a: number, b: number, y: number): void;
  /** y[i] = a[i] + alpha·b[i] in double, rounded to float32 (Note [axpy in double]). */
  f32_vaxpy(n: number, a: number, b: number, alpha: number, y: number): void;
  /** `_fused_adam_`'s float32 body (assembly/optim.ts; flags and scalars documented there). */
  f32_fused_adam(...args: FusedAdamArgs): void;
  /** y[i] = a[i] + alpha·b[i], float64. */
  f64_vaxpy(n: number, a: number, b: number, alpha: number, y: number): void;
  /** y[i] = exp(x[i]), float32 (within 2 ulp of the correctly rounded result). */
  f32_vexp(n: number, x: number, y: number): void;
  /** y[i] = 1 / (1 + exp(-x[i])), float32. */
  f32_vsigmoid(n: number, x: number, y: number): void;
  /** y[i] = x[i] < 0 ? 0 : x[i], float32 (relu). */
  f32_vrelu(n: number, x: number, y: number): void;
  /** Sum of n float32s, cascade order; the result is a float32 value. */
  f32_rsum(n: number, x: number): number;
  /** Sum of n float64s, cascade order. */
  f64_rsum(n: number, x: number): number;
  /** Max / min of n float32s or float64s: NaN if any is NaN (which zero a ±0 tie gives is unspecified). */
  f32_rmax(n: number, x: number): number;
  f32_rmin(n: number, x: number): number;
  f64_rmax(n: number, x: number): number;
  f64_rmin(n: number, x: number): number;
  /** Softmax of each of `rows` contiguous rows of `cols` float32s. */
  f32_softmax_rows(rows: number, cols: number, x: number, y: number): void;
  /** Log-softmax of each of `rows` contiguous rows of `cols` float32s. */
  f32_log_softmax_rows(rows: number, cols: number, x: number, y: number): void;
  /**
   * C = alpha·A·B (+ C when `accumulate` is 1), float32: A m×k and B k×n through element strides, C row-major
   * with row stride ldc, `ws` a workspace of GEMM_WORKSPACE_BYTES (Note [Packed gemm]).
   */
  f32_gemm: GemmKernel;
  /** f32_gemm for float64 (alpha a double), the same arguments and workspace (Note [Packed gemm]). */
  f64_gemm: GemmKernel;
  /** cols = im2col(x) for cg channels of one image, float32 (Note [Convolution through gemm]). */
  f32_im2col: Im2colKernel;
  /** f32_im2col for float64. */
  f64_im2col: Im2colKernel;
  /** x += col2im(cols) (the adjoint of im2col), float32; the arguments are (cols, x, geometry). */
  f32_col2im: Im2colKernel;
  /** f32_col2im for float64. */
  f64_col2im: Im2colKernel;
  /** The depthwise convolution sweeps of one image, float32 (Note [Depthwise convolution without im2col]). */
  f32_depthwise: DepthwiseKernel;
  /** f32_depthwise for float64. */
  f64_depthwise: DepthwiseKernel;
  /** y[i] = r[i] <= 0 ? 0 : g[i], float32 (relu's gradient from its result r). */
  f32_vrelu_backward(n: number, g: number, r: number, y: number): void;
  /** out[c] = f32_rsum of chunk c (`chunk` elements; the last may be shorter) of x[0..n): float32 partials. */
  f32_rsum_chunks(n: number, chunk: number, x: number, out: number): void;
  /** f32_rsum_chunks for float64 (f64_rsum per chunk). */
  f64_rsum_chunks(n: number, chunk: number, x: number, out: number): void;
  /** out, ind = max_pool2d of nc float32 planes (ind: int64 as doubles), Note [Vectorised 2×2 pooling]. */
  f32_maxpool2d(x: number, out: number, ind: number, ...geometry: PoolGeometry<[number, number]>): void;
  /** gi = max_pool2d's input gradient from g and ind (nc planes of h × w, outputs oh × ow). */
  f32_maxpool2d_backward(g: number, ind: number, gi: number, nc: number, h: number, w: number, oh: number, ow: number): void;
  /** out = avg_pool2d of nc float32 planes; the last two geometry arguments are count_include_pad (0/1) and the divisor override (0: none). */
  f32_avgpool2d(x: number, out: number, ...geometry: PoolGeometry<[number, number]>): void;
  /** gi = avg_pool2d's input gradient from g, same geometry as f32_avgpool2d. */
  f32_avgpool2d_backward(g: number, gi: number, ...geometry: PoolGeometry<[number, number]>): void;
  /**
   * out = conv2d(x, wt) (+ bias when hasBias is 1) of n float32 images, column stride 1, ws a workspace for
   * a padded image (c·(h + 2ph)·(w + 2pw) floats when padded) and then c·kh·kw tap offsets; geometry c, h, w, o, kh, kw, oh, ow, sh, ph, pw, dh, dw (Note [Direct convolution]).
   */
  f32_conv2d_direct(
    n: number,
    x: number,
    wt: number,
    bias: number,
    hasBias: number,
    out: number,
    ws: number,
    ...geometry: Geometry13
  ): void;
  /** gw rows [oc0, oc1) = the weight gradient of f32_conv2d_direct from gout (geometry as there, then oc0, oc1). */
  f32_conv2d_direct_wgrad(n: number, x: number, gout: number, gw: number, ws: number, ...geometry: [...Geometry13, number, number]): void;
  /**
   * Flash attention forward of work items [item0, item1) (referenceAttention.flashForward): `params` the
   * address of the u32 block (FLASH_PARAMS), `ws` the call's workspace (Note [Flash attention on CPU]).
   */
  f32_flash_attention(item0: number, item1: number, params: number, scale: number, ws: number): void;
  /** Flash attention backward of work items [item0, item1) (referenceAttention.flashBackward). */
  f32_flash_attention_backward(item0: number, item1: number, params: number, scale: number, ws: number): void;
}

/** Pooling geometry: nc, h, w, oh, ow, kh, kw, sh, sw, ph, pw, then two more (dh, dw or includePad, override). */
export type PoolGeometry<T extends [number, number]> = [
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  ...T,
];

/**
 * f32_im2col / f32_col2im (and f64): source and destination byte addresses, then the geometry of one group
 * of one image: cg, h, w, kh, kw, oh, ow, sh, sw, ph, pw, dh, dw.
 */
export type Im2colKernel = (src: number, dst: number, ...geometry: Geometry13) => void;
type Geometry13 = [number, number, number, number, number, number, number, number, number, number, number, number, number];

/**
 * f32_depthwise / f64_depthwise(mode, x, w, out, c, mult, h, w, kh, kw, oh, ow, sh, sw, ph, pw, dh, dw): mode 0
 * out += conv(x, w); 1 x += the input gradient of out; 2 w += the weight gradient (out the output gradient).
 */
export type DepthwiseKernel = (mode: number, x: number, wt: number, out: number, c: number, mult: number, ...geometry: Geometry12) => void;
type Geometry12 = [number, number, number, number, number, number, number, number, number, number, number, number];

/** f32_fused_adam(n, p, g, m, v, mx, vecEnd, flags, wd, decay, c1, c1m1, c2, b2, bc2Sqrt, eps, negStep). */
export type FusedAdamArgs = [
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
];

export type KernelName = keyof Kernels;

// A Record over the names: adding a kernel to the interface without listing it here is a type error.
const NAMES: Record<KernelName, true> = {
  f32_vadd: true,
  f32_vmul: true,
  f32_vadd_scalar: true,
  f32_vmul_scalar: true,
  f64_vadd: true,
  f64_vmul: true,
  f64_vadd_scalar: true,
  f64_vmul_scalar: true,
  f32_vsub: true,
  f32_vdiv: true,
  f64_vsub: true,
  f64_vdiv: true,
  f32_vsub_scalar: true,
  f32_vdiv_scalar: true,
  f64_vsub_scalar: true,
  f64_vdiv_scalar: true,
  f32_vaxpy: true,
  f32_fused_adam: true,
  f64_vaxpy: true,
  f32_vexp: true,
  f32_vrelu: true,
  f32_vsigmoid: true,
  f32_rsum: true,
  f64_rsum: true,
  f32_rmax: true,
  f32_rmin: true,
  f64_rmax: true,
  f64_rmin: true,
  f32_softmax_rows: true,
  f32_log_softmax_rows: true,
  f32_gemm: true,
  f64_gemm: true,
  f32_im2col: true,
  f64_im2col: true,
  f32_col2im: true,
  f64_col2im: true,
  f32_depthwise: true,
  f64_depthwise: true,
  f32_vrelu_backward: true,
  f32_rsum_chunks: true,
  f64_rsum_chunks: true,
  f32_maxpool2d: true,
  f32_maxpool2d_backward: true,
  f32_avgpool2d: true,
  f32_avgpool2d_backward: true,
  f32_conv2d_direct: true,
  f32_conv2d_direct_wgrad: true,
  f32_flash_attention: true,
  f32_flash_attention_backward: true,
};

/** The export names the kernel module must have (and has no others). */
export const KERNEL_NAMES: readonly KernelName[] = Object.keys(NAMES) as KernelName[];

/** The WASM instance's exports as a Kernels table; throws if one is missing or not a function. */
export function kernelsFromExports(exports: WasmInstanceObject['exports']): Kernels {
  const out: Partial<Record<KernelName, unknown>> = {};
  for (const name of KERNEL_NAMES) {
    const f = exports[name];
    if (typeof f !== 'function') throw new Error(`wasm kernels: the module does not export '${name}' (rebuild with npm run build:wasm)`);
    out[name] = f;
  }
  return out as Kernels;
}

/**
 * The JS twins (reference.ts) behind the same pointer signatures, over `memory`'s current views. Used when
 * the backend is 'js' while storage is in linear memory, and by the tests to run both backends alike.
 */
export function jsKernels(memory: WasmMemory): Kernels {
  const f32 = (): Float32Array => memory.views().f32;
  const f64 = (): Float64Array => memory.views().f64;
  return {
    f32_vadd: (n, a, b, y) => {
      const v = f32();
      ref.f32_vadd(n, v, a >>> 2, v, b >>> 2, v, y >>> 2);
    },
    f32_vmul: (n, a, b, y) => {
      const v = f32();
      ref.f32_vmul(n, v, a >>> 2, v, b >>> 2, v, y >>> 2);
    },
    f32_vadd_scalar: (n, a, b, y) => {
      const v = f32();
      ref.f32_vadd_scalar(n, v, a >>> 2, b, v, y >>> 2);
    },
    f32_vmul_scalar: (n, a, b, y) => {
      const v = f32();
      ref.f32_vmul_scalar(n, v, a >>> 2, b, v, y >>> 2);
    },
    f64_vadd: (n, a, b, y) => {
      const v = f64();
      ref.f64_vadd(n, v, a >>> 3, v, b >>> 3, v, y >>> 3);
    },
    f64_vmul: (n, a, b, y) => {
      const v = f64();
      ref.f64_vmul(n, v, a >>> 3, v, b >>> 3, v, y >>> 3);
    },
    f64_vadd_scalar: (n, a, b, y) => {
      const v = f64();
      ref.f64_vadd_scalar(n, v, a >>> 3, b, v, y >>> 3);
    },
    f64_vmul_scalar: (n, a, b, y) => {
      const v = f64();
      ref.f64_vmul_scalar(n, v, a >>> 3, b, v, y >>> 3);
    },
    f32_vsub: (n, a, b, y) => {
      const v = f32();
      ref.vsub(n, v, a >>> 2, v, b >>> 2, v, y >>> 2);
    },
    f32_vdiv: (n, a, b, y) => {
      const v = f32();
      ref.vdiv(n, v, a >>> 2, v, b >>> 2, v, y >>> 2);
    },
    f64_vsub: (n, a, b, y) => {
      const v = f64();
      ref.vsub(n, v, a >>> 3, v, b >>> 3, v, y >>> 3);
    },
    f64_vdiv: (n, a, b, y) => {
      const v = f64();
      ref.vdiv(n, v, a >>> 3, v, b >>> 3, v, y >>> 3);
    },
    f32_vsub_scalar: (n, a, b, y) => {
      const v = f32();
      ref.vsub_scalar(n, v, a >>> 2, fround(b), v, y >>> 2);
    },
    f32_vdiv_scalar: (n, a, b, y) => {
      const v = f32();
      ref.vdiv_scalar(n, v, a >>> 2, fround(b), v, y >>> 2);
    },
    f64_vsub_scalar: (n, a, b, y) => {
      const v = f64();
      ref.vsub_scalar(n, v, a >>> 3, b, v, y >>> 3);
    },
    f64_vdiv_scalar: (n, a, b, y) => {
      const v = f64();
      ref.vdiv_scalar(n, v, a >>> 3, b, v, y >>> 3);
    },
    f32_vaxpy: (n, a, b, alpha, y) => {
      const v = f32();
      ref.vaxpy(n, v, a >>> 2, v, b >>> 2, alpha, v, y >>> 2);
    },
    f32_fused_adam: (n, p, g, m, v, mx, vecEnd, flags, ...k) => {
      const f = f32();
      refOptim.f32_fused_adam(n, f, p >>> 2, f, g >>> 2, f, m >>> 2, f, v >>> 2, f, mx >>> 2, vecEnd, flags, ...k);
    },
    f64_vaxpy: (n, a, b, alpha, y) => {
      const v = f64();
      ref.vaxpy(n, v, a >>> 3, v, b >>> 3, alpha, v, y >>> 3);
    },
    f32_vexp: (n, x, y) => {
      const v = f32();
      ref.f32_vexp(n, v, x >>> 2, v, y >>> 2);
    },
    f32_vsigmoid: (n, x, y) => {
      const v = f32();
      ref.f32_vsigmoid(n, v, x >>> 2, v, y >>> 2);
    },
    f32_vrelu: (n, x, y) => {
      const v = f32();
      ref.vrelu(n, v, x >>> 2, v, y >>> 2);
    },
    f32_rsum: (n, x) => ref.f32_rsum(n, f32(), x >>> 2),
    f64_rsum: (n, x) => ref.f64_rsum(n, f64(), x >>> 3),
    f32_rmax: (n, x) => ref.rextreme(true, n, f32(), x >>> 2),
    f32_rmin: (n, x) => ref.rextreme(false, n, f32(), x >>> 2),
    f64_rmax: (n, x) => ref.rextreme(true, n, f64(), x >>> 3),
    f64_rmin: (n, x) => ref.rextreme(false, n, f64(), x >>> 3),
    f32_log_softmax_rows: (rows, cols, x, y) => {
      const v = f32();
      ref.f32_log_softmax_rows(rows, cols, v, x >>> 2, v, y >>> 2);
    },
    f32_softmax_rows: (rows, cols, x, y) => {
      const v = f32();
      ref.f32_softmax_rows(rows, cols, v, x >>> 2, v, y >>> 2);
    },
    f32_gemm: (m, n, k, alpha, a, rsa, csa, b, rsb, csb, c, ldc, accumulate) => {
      const v = f32();
      ref.f32_gemm(m, n, k, fround(alpha), v, a >>> 2, rsa, csa, v, b >>> 2, rsb, csb, v, c >>> 2, ldc, accumulate !== 0);
    },
    f64_gemm: (m, n, k, alpha, a, rsa, csa, b, rsb, csb, c, ldc, accumulate) => {
      const v = f64();
      ref.f64_gemm(m, n, k, alpha, v, a >>> 3, rsa, csa, v, b >>> 3, rsb, csb, v, c >>> 3, ldc, accumulate !== 0);
    },
    f32_im2col: (x, cols, ...g) => refIm2col.im2col(f32(), x >>> 2, f32(), cols >>> 2, ...g),
    f64_im2col: (x, cols, ...g) => refIm2col.im2col(f64(), x >>> 3, f64(), cols >>> 3, ...g),
    f32_col2im: (cols, x, ...g) => refIm2col.col2im(f32(), cols >>> 2, f32(), x >>> 2, ...g),
    f64_col2im: (cols, x, ...g) => refIm2col.col2im(f64(), cols >>> 3, f64(), x >>> 3, ...g),
    f32_depthwise: (mode, x, wt, out, c, mult, ...g) =>
      refIm2col.depthwise(fround, mode, f32(), x >>> 2, f32(), wt >>> 2, f32(), out >>> 2, c, mult, ...g),
    f64_depthwise: (mode, x, wt, out, c, mult, ...g) =>
      refIm2col.depthwise(same, mode, f64(), x >>> 3, f64(), wt >>> 3, f64(), out >>> 3, c, mult, ...g),
    f32_vrelu_backward: (n, g, r, y) => {
      const v = f32();
      ref.vrelu_backward(n, v, g >>> 2, v, r >>> 2, v, y >>> 2);
    },
    f32_rsum_chunks: (n, chunk, x, out) => {
      const v = f32();
      ref.rsum_chunks(n, chunk, v, x >>> 2, v, out >>> 2);
    },
    f64_rsum_chunks: (n, chunk, x, out) => {
      const v = f64();
      ref.rsum_chunks(n, chunk, v, x >>> 3, v, out >>> 3);
    },
    f32_maxpool2d: (x, out, ind, ...g) => refPool.maxpool2d(f32(), x >>> 2, f32(), out >>> 2, f64(), ind >>> 3, ...g),
    f32_maxpool2d_backward: (g, ind, gi, ...geo) => refPool.maxpool2dBackward(f32(), g >>> 2, f64(), ind >>> 3, f32(), gi >>> 2, ...geo),
    f32_avgpool2d: (x, out, ...g) => refPool.avgpool2d(f32(), x >>> 2, f32(), out >>> 2, ...g),
    f32_conv2d_direct_wgrad: (n, x, gout, gw, _ws, ...g) =>
      refIm2col.directConv2dWgrad(f32(), x >>> 2, f32(), gout >>> 2, f32(), gw >>> 2, n, ...g),
    f32_conv2d_direct: (n, x, wt, bias, hasBias, out, _ws, ...g) =>
      refIm2col.directConv2d(f32(), x >>> 2, f32(), wt >>> 2, f32(), bias >>> 2, hasBias, f32(), out >>> 2, n, ...g),
    f32_avgpool2d_backward: (g, gi, ...geo) => refPool.avgpool2dBackward(f32(), g >>> 2, f32(), gi >>> 2, ...geo),
    f32_flash_attention: (i0, i1, params, scale, ws) => {
      const v = f32();
      refAttn.flashForward(fround, ref.expf, flashParams(memory, params, scale), flashArrays(v), i0, i1, v, ws >>> 2);
    },
    f32_flash_attention_backward: (i0, i1, params, scale, ws) => {
      const v = f32();
      refAttn.flashBackward(fround, ref.expf, flashParams(memory, params, scale), flashArrays(v), i0, i1, v, ws >>> 2);
    },
  };
}

/** The params block at byte address `at` as FlashParams (element indices in the float32 view). */
function flashParams(memory: WasmMemory, at: number, scale: number): refAttn.FlashParams {
  const u = new Uint32Array(memory.views().i32.buffer, at, refAttn.FLASH_PARAMS);
  const [b, h, hk, l, s, d, qSplit, kvSplit, causal, hasMask] = u as unknown as number[] as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  return { b, h, hk, l, s, d, qSplit, kvSplit, causal, hasMask, scale: fround(scale), at: Float64Array.from(u.subarray(10)) };
}

function flashArrays(v: Float32Array): refAttn.FlashArrays {
  return [v, v, v, v, v, v, v, v, v, v];
}
