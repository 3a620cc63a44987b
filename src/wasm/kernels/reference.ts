// The plain-JS twins of the WASM kernels (src/wasm/kernels/assembly/*.ts) that are not one expression per
// element: sums, rows (softmax), copies, and the scalar functions the pointwise twins call (expf). The same
// arithmetic in the same order, over typed arrays and element offsets, so that they (1) run wherever
// WebAssembly SIMD does not, or on ordinary ArrayBuffer-backed storage, and (2) give the tests a second
// implementation to compare against. float32 kernels round every intermediate with Math.fround, so the twins
// agree with the SIMD kernels bit for bit (test/wasm/kernels.test.ts checks it). The pointwise twins (+ - * /,
// axpy, exp, sigmoid, relu, relu's gradient) are generated from their kernels.yaml expression into
// generated/PointwiseTwins.ts (Note [Pointwise twins from one expression] in tools/wasm/twins.ts).
//
// Signature convention: (n, a, aOffset, b, bOffset, y, yOffset): counts and offsets in elements.

import type { StorageArray } from '../../tensor/Storage.js';

const fround = Math.fround;

/** The arrays a twin runs over: any storage array (the twins are also the 'js' backend's loops for every dtype). */
export type Elements = StorageArray;

// ---- exp (assembly/exp.ts) ----

const X_MIN = -104;
const X_MAX = 89;
const LOG2E = fround(1.4426950408889634);
const MAGIC = 12582912; // 1.5 * 2^23
const LN2_HI = 0.693359375;
const LN2_LO = fround(-2.1219444e-4);
const P0 = fround(1.98756915e-4);
const P1 = fround(1.3981999507e-3);
const P2 = fround(8.3334519073e-3);
const P3 = fround(4.1665795894e-2);
const P4 = fround(1.6666665459e-1);
const P5 = fround(5.0000001201e-1);

// 2^k for k in [-75, 64], built by exact doubling: POW2[k + 75].
const POW2 = new Float64Array(140);
for (let k = 0, v = 2 ** -75; k < 140; k++, v *= 2) POW2[k] = v;

/** exp of one float32, the same float32 operations as the kernel's expf1 / expf4 (see assembly/exp.ts). */
export function expf(x: number): number {
  x = x > X_MAX ? X_MAX : x < X_MIN ? X_MIN : x; // NaN stays NaN (both comparisons false)
  const n = fround(fround(fround(x * LOG2E) + MAGIC) - MAGIC);
  let r = fround(x - fround(n * LN2_HI));
  r = fround(r - fround(n * LN2_LO));
  let p = fround(fround(P0 * r) + P1);
  p = fround(fround(p * r) + P2);
  p = fround(fround(p * r) + P3);
  p = fround(fround(p * r) + P4);
  p = fround(fround(p * r) + P5);
  p = fround(fround(fround(p * fround(r * r)) + r) + 1);
  const k = n | 0; // NaN -> 0, as i32.trunc_sat
  const k1 = k >> 1;
  return fround(p * (POW2[k1 + 75] as number) * (POW2[k - k1 + 75] as number));
}

// ---- sum (assembly/reduce.ts, Note [Cascade sum in wasm]) ----

function levelPowerOf(steps: number): number {
  const ceilLog2 = steps <= 2 ? 1 : 32 - Math.clz32(steps - 1);
  return Math.max(4, ceilLog2 >> 2);
}

// The accumulators of f64_rsum: a[2j + l] is lane l of the level-0 accumulator a_j; l1, l2, l3 are the upper
// levels (module scratch: the twins never re-enter).
const S64 = { a: new Float64Array(8), l1: new Float64Array(2), l2: new Float64Array(2), l3: new Float64Array(2) };

/**
 * Sum of the n float32s x[xi + i·s], in the kernel's cascade order (f32_rsum is the unit-stride case): the
 * one order of every float32 sum (Note [One rule for float sums] in src/kernels/ReduceOpsKernel.ts).
 */
export function f32_rsum(n: number, x: Float32Array, xi: number, s = 1): number {
  if (n < 16) return f32_rsumShort(n, x, xi, s);
  // Lane l of the level-0 accumulator a_j is a{j}{l}; m{1,2,3}{l} the upper levels: locals, not arrays (V8).
  let a00 = 0,
    a01 = 0,
    a02 = 0,
    a03 = 0,
    a10 = 0,
    a11 = 0,
    a12 = 0,
    a13 = 0,
    a20 = 0,
    a21 = 0,
    a22 = 0,
    a23 = 0,
    a30 = 0,
    a31 = 0,
    a32 = 0,
    a33 = 0,
    m10 = 0,
    m11 = 0,
    m12 = 0,
    m13 = 0,
    m20 = 0,
    m21 = 0,
    m22 = 0,
    m23 = 0,
    m30 = 0,
    m31 = 0,
    m32 = 0,
    m33 = 0;
  const steps = Math.floor(n / 16);
  const levelPower = levelPowerOf(steps);
  const levelStep = 2 ** levelPower;
  const mask1 = (levelStep - 1) * levelStep;
  const mask2 = mask1 * levelStep;
  let p = xi;
  let i = 0;
  for (; i + levelStep <= steps;) {
    for (let j = 0; j < levelStep; j++, i++) {
      a00 = fround(a00 + (x[p] as number));
      a01 = fround(a01 + (x[p + s] as number));
      a02 = fround(a02 + (x[p + 2 * s] as number));
      a03 = fround(a03 + (x[p + 3 * s] as number));
      a10 = fround(a10 + (x[p + 4 * s] as number));
      a11 = fround(a11 + (x[p + 5 * s] as number));
      a12 = fround(a12 + (x[p + 6 * s] as number));
      a13 = fround(a13 + (x[p + 7 * s] as number));
      a20 = fround(a20 + (x[p + 8 * s] as number));
      a21 = fround(a21 + (x[p + 9 * s] as number));
      a22 = fround(a22 + (x[p + 10 * s] as number));
      a23 = fround(a23 + (x[p + 11 * s] as number));
      a30 = fround(a30 + (x[p + 12 * s] as number));
      a31 = fround(a31 + (x[p + 13 * s] as number));
      a32 = fround(a32 + (x[p + 14 * s] as number));
      a33 = fround(a33 + (x[p + 15 * s] as number));
      p += 16 * s;
    }
    m10 = fround(m10 + fround(fround(a00 + a10) + fround(a20 + a30)));
    m11 = fround(m11 + fround(fround(a01 + a11) + fround(a21 + a31)));
    m12 = fround(m12 + fround(fround(a02 + a12) + fround(a22 + a32)));
    m13 = fround(m13 + fround(fround(a03 + a13) + fround(a23 + a33)));
    a00 = a01 = a02 = a03 = a10 = a11 = a12 = a13 = a20 = a21 = a22 = a23 = a30 = a31 = a32 = a33 = 0;
    if ((i & mask1) !== 0) continue;
    m20 = fround(m20 + m10);
    m21 = fround(m21 + m11);
    m22 = fround(m22 + m12);
    m23 = fround(m23 + m13);
    m10 = m11 = m12 = m13 = 0;
    if ((i & mask2) !== 0) continue;
    m30 = fround(m30 + m20);
    m31 = fround(m31 + m21);
    m32 = fround(m32 + m22);
    m33 = fround(m33 + m23);
    m20 = m21 = m22 = m23 = 0;
  }
  for (; i < steps; i++) {
    a00 = fround(a00 + (x[p] as number));
    a01 = fround(a01 + (x[p + s] as number));
    a02 = fround(a02 + (x[p + 2 * s] as number));
    a03 = fround(a03 + (x[p + 3 * s] as number));
    a10 = fround(a10 + (x[p + 4 * s] as number));
    a11 = fround(a11 + (x[p + 5 * s] as number));
    a12 = fround(a12 + (x[p + 6 * s] as number));
    a13 = fround(a13 + (x[p + 7 * s] as number));
    a20 = fround(a20 + (x[p + 8 * s] as number));
    a21 = fround(a21 + (x[p + 9 * s] as number));
    a22 = fround(a22 + (x[p + 10 * s] as number));
    a23 = fround(a23 + (x[p + 11 * s] as number));
    a30 = fround(a30 + (x[p + 12 * s] as number));
    a31 = fround(a31 + (x[p + 13 * s] as number));
    a32 = fround(a32 + (x[p + 14 * s] as number));
    a33 = fround(a33 + (x[p + 15 * s] as number));
    p += 16 * s;
  }
  let k = steps * 16;
  for (; k + 4 <= n; k += 4, p += 4 * s) {
    a00 = fround(a00 + (x[p] as number));
    a01 = fround(a01 + (x[p + s] as number));
    a02 = fround(a02 + (x[p + 2 * s] as number));
    a03 = fround(a03 + (x[p + 3 * s] as number));
  }
  let t = 0;
  for (; k < n; k++, p += s) t = fround(t + (x[p] as number));
  t = fround(t + fround(fround(fround(fround(fround(a00 + a10) + fround(a20 + a30)) + m10) + m20) + m30));
  t = fround(t + fround(fround(fround(fround(fround(a01 + a11) + fround(a21 + a31)) + m11) + m21) + m31));
  t = fround(t + fround(fround(fround(fround(fround(a02 + a12) + fround(a22 + a32)) + m12) + m22) + m32));
  t = fround(t + fround(fround(fround(fround(fround(a03 + a13) + fround(a23 + a33)) + m13) + m23) + m33));
  return t;
}

/** f32_rsum_cols: y[c] = f32_rsum of column c (the run x[c], x[c + s], ...) for c < cols (Note [Column sums]). */
export function f32_rsum_cols(n: number, x: Float32Array, xi: number, s: number, cols: number, y: Float32Array, yi: number): void {
  for (let c = 0; c < cols; c++) y[yi + c] = f32_rsum(n, x, xi + c, s);
}

/**
 * f32_rsum of fewer than 16 values (no whole step): lane l of a0 sums x[l], x[4 + l], x[8 + l]; the tail
 * goes into t, then the lanes in order. The other accumulators are +0 and a lane is never -0 (it starts at
 * +0), so adding them changes nothing: the cascade's bits without its scratch.
 */
function f32_rsumShort(n: number, x: Float32Array, xi: number, s: number): number {
  let a0 = 0;
  let a1 = 0;
  let a2 = 0;
  let a3 = 0;
  let k = 0;
  for (; k + 4 <= n; k += 4) {
    const p = xi + k * s;
    a0 = fround(a0 + (x[p] as number));
    a1 = fround(a1 + (x[p + s] as number));
    a2 = fround(a2 + (x[p + 2 * s] as number));
    a3 = fround(a3 + (x[p + 3 * s] as number));
  }
  let t = 0;
  for (; k < n; k++) t = fround(t + (x[xi + k * s] as number));
  return fround(fround(fround(fround(t + a0) + a1) + a2) + a3);
}

/** Sum of the n float64s x[xi + i·s] in the kernel's cascade order (a step is 8 doubles, 2 lanes). */
export function f64_rsum(n: number, x: Float64Array, xi: number, s = 1): number {
  const { a, l1, l2, l3 } = S64;
  a.fill(0);
  l1.fill(0);
  l2.fill(0);
  l3.fill(0);
  const steps = Math.floor(n / 8);
  const levelPower = levelPowerOf(steps);
  const levelStep = 2 ** levelPower;
  const mask1 = (levelStep - 1) * levelStep;
  const mask2 = mask1 * levelStep;
  let p = xi;
  let i = 0;
  const addStep = (): void => {
    for (let k = 0; k < 8; k++) a[k] = (a[k] as number) + (x[p + k * s] as number);
    p += 8 * s;
  };
  for (; i + levelStep <= steps;) {
    for (let j = 0; j < levelStep; j++, i++) addStep();
    for (let l = 0; l < 2; l++) {
      l1[l] = (l1[l] as number) + ((a[l] as number) + (a[2 + l] as number) + ((a[4 + l] as number) + (a[6 + l] as number)));
    }
    a.fill(0);
    if ((i & mask1) !== 0) continue;
    for (let l = 0; l < 2; l++) l2[l] = (l2[l] as number) + (l1[l] as number);
    l1.fill(0);
    if ((i & mask2) !== 0) continue;
    for (let l = 0; l < 2; l++) l3[l] = (l3[l] as number) + (l2[l] as number);
    l2.fill(0);
  }
  for (; i < steps; i++) addStep();
  let k = steps * 8;
  for (; k + 2 <= n; k += 2) for (let l = 0; l < 2; l++) a[l] = (a[l] as number) + (x[xi + (k + l) * s] as number);
  let t = 0;
  for (; k < n; k++) t += x[xi + k * s] as number;
  for (let l = 0; l < 2; l++) {
    let v = (a[l] as number) + (a[2 + l] as number) + ((a[4 + l] as number) + (a[6 + l] as number));
    v += l1[l] as number;
    v += l2[l] as number;
    v += l3[l] as number;
    t += v;
  }
  return t;
}

// ---- softmax (assembly/softmax.ts) ----

/** y[r, :] = softmax(x[r, :]) for r < rows, rows of `cols` float32s, in the kernel's order. */
export function f32_softmax_rows(rows: number, cols: number, x: Float32Array, xi: number, y: Float32Array, yi: number): void {
  if (cols === 0) return;
  const cols4 = cols - (cols % 4);
  const lanes = new Float32Array(4);
  for (let r = 0; r < rows; r++) {
    const xr = xi + r * cols;
    const yr = yi + r * cols;
    // max is exact and (with NaN propagating, +0 over -0) independent of order.
    let m = -Infinity;
    for (let i = 0; i < cols; i++) m = Math.max(m, x[xr + i] as number);
    lanes.fill(0);
    let i = 0;
    for (; i < cols4; i++) {
      const e = expf(fround((x[xr + i] as number) - m));
      y[yr + i] = e;
      lanes[i & 3] = (lanes[i & 3] as number) + e;
    }
    let s = fround(fround((lanes[0] as number) + (lanes[1] as number)) + fround((lanes[2] as number) + (lanes[3] as number)));
    for (; i < cols; i++) {
      const e = expf(fround((x[xr + i] as number) - m));
      y[yr + i] = e;
      s = fround(s + e);
    }
    const inv = fround(1 / s);
    for (let k = 0; k < cols; k++) y[yr + k] = (y[yr + k] as number) * inv;
  }
}

/**
 * y[r, :] = log_softmax(x[r, :]) in the kernel's order. The kernel's log is its own series in double (logRow),
 * this twin's Math.log: both round to the same float32 except in rare last-bit ties.
 */
export function f32_log_softmax_rows(rows: number, cols: number, x: Float32Array, xi: number, y: Float32Array, yi: number): void {
  if (cols === 0) return;
  const cols4 = cols - (cols % 4);
  const lanes = new Float32Array(4);
  for (let r = 0; r < rows; r++) {
    const xr = xi + r * cols;
    const yr = yi + r * cols;
    let m = -Infinity;
    for (let i = 0; i < cols; i++) m = Math.max(m, x[xr + i] as number);
    lanes.fill(0);
    let i = 0;
    for (; i < cols4; i++) lanes[i & 3] = (lanes[i & 3] as number) + expf(fround((x[xr + i] as number) - m));
    let s = fround(fround((lanes[0] as number) + (lanes[1] as number)) + fround((lanes[2] as number) + (lanes[3] as number)));
    for (; i < cols; i++) s = fround(s + expf(fround((x[xr + i] as number) - m)));
    const shift = fround(m + fround(Math.log(s)));
    for (let k = 0; k < cols; k++) y[yr + k] = (x[xr + k] as number) - shift;
  }
}

/** Max (or min) of x[xi..xi+n): NaN if any is NaN; the same value as the kernels (zeros: either sign). */
export function rextreme(isMax: boolean, n: number, x: Float32Array | Float64Array, xi: number): number {
  let r = isMax ? -Infinity : Infinity;
  for (let i = 0; i < n; i++) {
    const v = x[xi + i] as number;
    if (v !== v) return NaN;
    if (isMax ? v > r : v < r) r = v;
  }
  return r;
}

/** Max of x[xi .. xi + n), NaN if any is NaN (the twin of f32_rmax / f64_rmax). */
export const rmax = (n: number, x: Float32Array | Float64Array, xi: number): number => rextreme(true, n, x, xi);

/** Min of x[xi .. xi + n), NaN if any is NaN (the twin of f32_rmin / f64_rmin). */
export const rmin = (n: number, x: Float32Array | Float64Array, xi: number): number => rextreme(false, n, x, xi);

// ---- gemm (assembly/gemm.ts): referenceGemm.ts ----

export { GEMM_KC, GEMM_WORKSPACE_BYTES, f32_gemm, f64_gemm } from './referenceGemm.js';

// ---- copy (assembly/copy.ts) ----

/** y[yi + Σ iₖ·dₖ] = x[xi + Σ iₖ·sₖ] over (n0, n1, n2, n3) (the twin of f32_copy_strided / f64_copy_strided). */
export function copy_strided(
  n0: number,
  n1: number,
  n2: number,
  n3: number,
  d0: number,
  d1: number,
  d2: number,
  d3: number,
  s0: number,
  s1: number,
  s2: number,
  s3: number,
  x: Float32Array | Float64Array,
  xi: number,
  y: Float32Array | Float64Array,
  yi: number,
): void {
  for (let i0 = 0; i0 < n0; i0++)
    for (let i1 = 0; i1 < n1; i1++)
      for (let i2 = 0; i2 < n2; i2++) {
        const xo = xi + i0 * s0 + i1 * s1 + i2 * s2;
        const yo = yi + i0 * d0 + i1 * d1 + i2 * d2;
        for (let i3 = 0; i3 < n3; i3++) y[yo + i3 * d3] = x[xo + i3 * s3] as number;
      }
}

// ---- layer norm (assembly/layer_norm.ts): referenceLayerNorm.ts ----

export { f32_layer_norm_backward_cols, f32_layer_norm_backward_rows, f32_layer_norm_rows } from './referenceLayerNorm.js';

// ---- batch norm (assembly/batch_norm.ts): referenceBatchNorm.ts ----

export { batch_norm_stats, f32_batch_norm_planes, f64_batch_norm_planes } from './referenceBatchNorm.js';

// ---- chunked sums (assembly/reduce_chunks.ts) ----

/** out[c] = the cascade sum (f32_rsum / f64_rsum) of chunk c of x[xi..xi+n), chunks of `chunk` elements. */
export function rsum_chunks(
  n: number,
  chunk: number,
  x: Float32Array | Float64Array,
  xi: number,
  out: Float32Array | Float64Array,
  oi: number,
): void {
  const sum =
    x instanceof Float32Array
      ? (m: number, at: number): number => f32_rsum(m, x, at)
      : (m: number, at: number): number => f64_rsum(m, x as Float64Array, at);
  for (let i = 0, c = 0; i < n; i += chunk, c++) out[oi + c] = sum(Math.min(chunk, n - i), xi + i);
}

/**
 * rsum_planes: y[p] = the cascade sums of the `runs` runs of n elements at x[xi + p·ps + r·rs], added one after
 * another in the dtype from 0 (Note [Per-channel sums] in src/kernels/ReduceOpsKernel.ts).
 */
export function rsum_planes(
  n: number,
  runs: number,
  rs: number,
  planes: number,
  ps: number,
  x: Float32Array | Float64Array,
  xi: number,
  y: Float32Array | Float64Array,
  yi: number,
): void {
  const f32 = x instanceof Float32Array;
  for (let p = 0; p < planes; p++) {
    let acc = 0;
    for (let r = 0, q = xi + p * ps; r < runs; r++, q += rs) {
      acc = f32 ? fround(acc + f32_rsum(n, x, q)) : acc + f64_rsum(n, x as Float64Array, q);
    }
    y[yi + p] = acc;
  }
}
