// The argument types of the kernels whose signature kernels.yaml gives as TypeScript (geometry blocks,
// workspaces, parameter blocks); the generated table (generated/KernelNames.ts) names them. Not PyTorch's: the
// pointer-level kernel ABI of src/wasm/kernels/assembly.

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

/** f32_gemm_batch / f64_gemm_batch: `count` GemmKernel products, each operand advanced by its step (elements) per product. */
export type GemmBatchKernel = (
  count: number,
  m: number,
  n: number,
  k: number,
  alpha: number,
  a: number,
  rsa: number,
  csa: number,
  sa: number,
  b: number,
  rsb: number,
  csb: number,
  sb: number,
  c: number,
  ldc: number,
  sc: number,
  accumulate: number,
  ws: number,
) => void;

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
export type Geometry13 = [number, number, number, number, number, number, number, number, number, number, number, number, number];

/**
 * f32_depthwise / f64_depthwise(mode, x, w, out, c, mult, h, w, kh, kw, oh, ow, sh, sw, ph, pw, dh, dw): mode 0
 * out += conv(x, w); 1 x += the input gradient of out; 2 w += the weight gradient (out the output gradient).
 */
export type DepthwiseKernel = (mode: number, x: number, wt: number, out: number, c: number, mult: number, ...geometry: Geometry12) => void;
export type Geometry12 = [number, number, number, number, number, number, number, number, number, number, number, number];

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
