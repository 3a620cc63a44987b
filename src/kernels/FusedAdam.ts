// `_fused_adam_` and `_fused_adamw_` on CPU: the whole Adam/AdamW update of each parameter in one pass over its
// elements. Mirrors aten/src/ATen/native/FusedAdam.cpp (the list checks, found_inf, grad_scale) and
// native/cpu/FusedAdamKernel.cpp (`adam_math`, its order of operations). The rounding helpers are shared with
// FusedSGD.ts.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isFloatingType, notImplementedForDtype } from '../c10/ScalarType.js';
import type { Tensor } from '../tensor/Tensor.js';
import type { FusedAdamArgs } from '../wasm/kernels/KernelTable.js';
import { f32_fused_adam } from '../wasm/kernels/referenceOptim.js';
import { addressOf, wasmKernelFor } from '../wasm/kernels/vec.js';
import * as at from '../generated/TensorBody.js';

// Note [The fused optimiser kernels' rounding]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's fused CPU kernels compute in the parameter's dtype with `Vectorized<scalar_t>` and a scalar tail, and
// the compiler of the wheel (GCC, -ffp-contract=fast, AVX512 on the machine the goldens come from) fuses some
// multiply-adds. Measured against the wheel, element by element:
// - the vector body (the first numel - numel % W elements, W = 16 floats / 8 doubles, as parallel_for hands out
//   64-byte units) and, when the tail has at least W/2 elements, its first W/2 (GCC's 256-bit epilogue) use
//   the *vector form*: Adam `g = fma(p, wd, g)`, `m = fma(c, g - m, m)` (lerp), `v = fma(c2·g, g, v·β2)`;
//   SGD `g = fma(p, wd, g)`, `b = fma(g, 1 - dampening, b·momentum)`, `g = fma(b, momentum, g)` (nesterov),
//   `p = fma(g, -lr, p)`;
// - the remaining elements use the *scalar form*, which differs in one place each: Adam
//   `v = fma(v, β2, c2·g·g)`, SGD `b = fma(b, momentum, g·(1 - dampening))`.
// Every other step is one rounded operation (sqrt, the divisions, AdamW's `p·(1 - lr·wd)`). Both forms are
// emulated here: float32 steps are doubles rounded with Math.fround (a float32 product is exact in a double,
// so `fround(a·b + c)` is the fused result up to a double rounding no golden has met), float64 fused steps use
// `fma64` (an error-free product and sum). The split depends only on numel, so 1 and 2 threads agree.

/** float64 `fma(a, b, c)`: Dekker's exact product and Knuth's two-sum, rounded once at the end (almost always the correctly rounded result). */
export function fma64(a: number, b: number, c: number): number {
  const p = a * b;
  if (!Number.isFinite(p) || p === 0) return p + c;
  const SPLIT = 134217729; // 2^27 + 1
  let t = SPLIT * a;
  const ah = t - (t - a);
  const al = a - ah;
  t = SPLIT * b;
  const bh = t - (t - b);
  const bl = b - bh;
  const e = al * bl - (p - ah * bh - al * bh - ah * bl);
  const s = p + c;
  const bb = s - p;
  const err = p - (s - bb) + (c - bb);
  return s + (err + e);
}

/** The high and low parts of a·b (Dekker): a·b = hi + lo exactly. */
function twoProd(a: number, b: number): [number, number] {
  const p = a * b;
  const SPLIT = 134217729;
  let t = SPLIT * a;
  const ah = t - (t - a);
  const al = a - ah;
  t = SPLIT * b;
  const bh = t - (t - b);
  const bl = b - bh;
  return [p, al * bl - (p - ah * bh - al * bh - ah * bl)];
}

/**
 * `std::pow(x, n)` for the step counts of the bias corrections: glibc's pow is correctly rounded and V8's `**` is
 * not (1 ulp apart for 0.9 ** 4), so an integral n in [0, 2^31) is raised in double-double arithmetic and rounded
 * once. Other exponents use `**`.
 */
export function powStep(x: number, n: number): number {
  if (!Number.isInteger(n) || n < 0 || n >= 2 ** 31 || !Number.isFinite(x) || x === 0) return x ** n;
  let rh = 1;
  let rl = 0;
  let bh = x;
  let bl = 0;
  for (let k = n; k > 0; k = Math.floor(k / 2)) {
    if (k % 2 === 1) [rh, rl] = ddMul(rh, rl, bh, bl);
    if (k > 1) [bh, bl] = ddMul(bh, bl, bh, bl);
  }
  return rh + rl;
}

function ddMul(ah: number, al: number, bh: number, bl: number): [number, number] {
  const [p, e0] = twoProd(ah, bh);
  const e = e0 + (ah * bl + al * bh);
  const h = p + e;
  return [h, e - (h - p)];
}

/** float32 `fma(a, b, c)` for float32 operands (see Note [The fused optimiser kernels' rounding]). */
export function fma32(a: number, b: number, c: number): number {
  return Math.fround(a * b + c);
}

const ident = (x: number): number => x;

/** The rounding and fused multiply-add of a dtype's kernel. */
export function roundingOf(dtype: ScalarType): {
  r: (x: number) => number;
  fma: (a: number, b: number, c: number) => number;
  width: number;
} {
  return dtype === ScalarType.Double ? { r: ident, fma: fma64, width: 8 } : { r: Math.fround, fma: fma32, width: 16 };
}

/** How many leading elements take the vector form (Note [The fused optimiser kernels' rounding]). */
export function vectorFormCount(numel: number, width: number): number {
  const tail = numel % width;
  return numel - tail + (tail >= width / 2 ? width / 2 : 0);
}

/** `*grad_scale_ptr` and whether `*found_inf_ptr == 1.0` (FusedAdam.cpp). */
export function ampArgs(
  gradScale: Tensor | null | undefined,
  foundInf: Tensor | null | undefined,
): { scale: number | null; skip: boolean } {
  const scale = gradScale === null || gradScale === undefined ? null : Math.fround(Number(at.item(gradScale)));
  const skip = foundInf !== null && foundInf !== undefined && Number(at.item(foundInf)) === 1;
  return { scale, skip };
}

/** `TORCH_CHECK(cond)` without a message, as PyTorch prints it. */
export function checkSize(cond: boolean, expr: string): void {
  if (!cond) {
    throw new Error(
      `Expected ${expr} to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)`,
    );
  }
}

/** The elements of a contiguous float tensor (the fused kernels write through `data_ptr`). */
export function floatData(t: Tensor, name: string): Float32Array | Float64Array {
  const d = t.scalarType;
  if (!isFloatingType(d) || (d !== ScalarType.Float && d !== ScalarType.Double)) throw notImplementedForDtype(name, d);
  if (!t.isContiguous()) throw new Error(`${name}: aten-ts's fused kernels take contiguous tensors`);
  const { data, base } = t.dataView();
  return (data as Float32Array | Float64Array).subarray(base, base + t.numel());
}

interface AdamArgs {
  lr: number;
  beta1: number;
  beta2: number;
  weightDecay: number;
  eps: number;
  amsgrad: boolean;
  maximize: boolean;
  adamw: boolean;
  scale: number | null;
}

/** `adam_fused_step_impl` + `adam_math` for one parameter. */
function adamStep(param: Tensor, grad: Tensor, expAvg: Tensor, expAvgSq: Tensor, maxSq: Tensor | null, stepT: Tensor, a: AdamArgs): void {
  const name = 'fused_adam_kernel';
  const p = floatData(param, name);
  const g = floatData(grad, name);
  const m = floatData(expAvg, name);
  const v = floatData(expAvgSq, name);
  const mx = maxSq === null ? null : floatData(maxSq, name);
  const { r, fma, width } = roundingOf(param.scalarType);
  const step = Math.fround(Number(at.item(stepT)));
  // "need to use double here to align with non-fused adam"
  const biasCorrection1 = 1 - powStep(a.beta1, step);
  const biasCorrection2 = 1 - powStep(a.beta2, step);
  const stepSize = a.lr / biasCorrection1;
  const c1 = r(1 - a.beta1);
  const c2 = r(1 - a.beta2);
  const b2 = r(a.beta2);
  const bc2Sqrt = r(Math.sqrt(biasCorrection2));
  const eps = r(a.eps);
  const wd = r(a.weightDecay);
  const decay = r(1 - a.lr * a.weightDecay);
  const negStep = r(-stepSize);
  const small = Math.abs(c1) < 0.5;
  const c1m1 = r(c1 - 1);
  const scale = a.scale === null ? null : r(a.scale);
  const n = p.length;
  const vecEnd = vectorFormCount(n, width);
  if (scale === null && p instanceof Float32Array) {
    // f32_fused_adam: the WASM SIMD kernel when every operand is in linear memory, else its JS twin.
    const wdFlag = a.weightDecay === 0 ? 0 : a.adamw ? 8 : 4;
    const flags = (a.maximize ? 1 : 0) | (small ? 2 : 0) | wdFlag | (mx !== null ? 16 : 0);
    const mxArr = (mx ?? v) as Float32Array;
    const k: [number, number, number, number, number, number, number, number, number] = [
      wd,
      decay,
      c1,
      c1m1,
      c2,
      b2,
      bc2Sqrt,
      eps,
      negStep,
    ];
    const w = wasmKernelFor<(...args: FusedAdamArgs) => void>('f32_fused_adam', p, g, m, v, mxArr);
    if (w !== null) w(n, addressOf(p, 0), addressOf(g, 0), addressOf(m, 0), addressOf(v, 0), addressOf(mxArr, 0), vecEnd, flags, ...k);
    else f32_fused_adam(n, p, 0, g as Float32Array, 0, m as Float32Array, 0, v as Float32Array, 0, mxArr, 0, vecEnd, flags, ...k);
    return;
  }
  for (let i = 0; i < n; i++) {
    let gi = g[i] as number;
    if (scale !== null) {
      gi = r(gi / scale);
      g[i] = gi;
    }
    if (a.maximize) gi = -gi;
    let pi = p[i] as number;
    if (a.weightDecay !== 0) {
      if (a.adamw) pi = r(pi * decay);
      else gi = fma(pi, wd, gi);
    }
    const mi = m[i] as number;
    const diff = r(gi - mi);
    const mNew = small ? fma(c1, diff, mi) : fma(c1m1, diff, gi);
    m[i] = mNew;
    const vi = v[i] as number;
    const vNew = i < vecEnd ? fma(r(c2 * gi), gi, r(vi * b2)) : fma(vi, b2, r(r(c2 * gi) * gi));
    v[i] = vNew;
    let s = vNew;
    if (mx !== null) {
      s = Math.max(mx[i] as number, vNew);
      mx[i] = s;
    }
    const denom = r(r(r(Math.sqrt(s)) / bc2Sqrt) + eps);
    p[i] = r(pi + r(r(negStep * mNew) / denom));
  }
}

type Opt<T> = T | null | undefined;

function fusedAdam(
  adamw: boolean,
  self: Tensor[],
  grads: Tensor[],
  expAvgs: Tensor[],
  expAvgSqs: Tensor[],
  maxExpAvgSqs: Tensor[],
  stateSteps: Tensor[],
  lr: number,
  beta1: number,
  beta2: number,
  weightDecay: number,
  eps: number,
  amsgrad: boolean,
  maximize: boolean,
  gradScale: Opt<Tensor>,
  foundInf: Opt<Tensor>,
): void {
  const { scale, skip } = ampArgs(gradScale, foundInf);
  if (skip) return;
  const n = self.length;
  checkSize(grads.length === n, 'grads.size() == n_tensors');
  checkSize(expAvgs.length === n, 'exp_avgs.size() == n_tensors');
  checkSize(expAvgSqs.length === n, 'exp_avg_sqs.size() == n_tensors');
  checkSize(!amsgrad || maxExpAvgSqs.length === n, 'max_exp_avg_sqs.size() == n_tensors');
  checkSize(stateSteps.length === n, 'state_steps.size() == n_tensors');
  const args: AdamArgs = { lr, beta1, beta2, weightDecay, eps, amsgrad, maximize, adamw, scale };
  for (let i = 0; i < n; i++) {
    adamStep(
      self[i] as Tensor,
      grads[i] as Tensor,
      expAvgs[i] as Tensor,
      expAvgSqs[i] as Tensor,
      amsgrad ? (maxExpAvgSqs[i] as Tensor) : null,
      stateSteps[i] as Tensor,
      args,
    );
  }
}

/** `_fused_adam_` (CPU): `_fused_adam_kernel_cpu_`. */
export function fusedAdamKernelCpu_(
  _ks: DispatchKeySet,
  self: Tensor[],
  grads: Tensor[],
  expAvgs: Tensor[],
  expAvgSqs: Tensor[],
  maxExpAvgSqs: Tensor[],
  stateSteps: Tensor[],
  lr: number,
  beta1: number,
  beta2: number,
  weightDecay: number,
  eps: number,
  amsgrad: boolean,
  maximize: boolean,
  gradScale?: Opt<Tensor>,
  foundInf?: Opt<Tensor>,
): void {
  fusedAdam(
    false,
    self,
    grads,
    expAvgs,
    expAvgSqs,
    maxExpAvgSqs,
    stateSteps,
    lr,
    beta1,
    beta2,
    weightDecay,
    eps,
    amsgrad,
    maximize,
    gradScale,
    foundInf,
  );
}

/** `_fused_adamw_` (CPU): `_fused_adamw_kernel_cpu_`. */
export function fusedAdamwKernelCpu_(
  _ks: DispatchKeySet,
  self: Tensor[],
  grads: Tensor[],
  expAvgs: Tensor[],
  expAvgSqs: Tensor[],
  maxExpAvgSqs: Tensor[],
  stateSteps: Tensor[],
  lr: number,
  beta1: number,
  beta2: number,
  weightDecay: number,
  eps: number,
  amsgrad: boolean,
  maximize: boolean,
  gradScale?: Opt<Tensor>,
  foundInf?: Opt<Tensor>,
): void {
  fusedAdam(
    true,
    self,
    grads,
    expAvgs,
    expAvgSqs,
    maxExpAvgSqs,
    stateSteps,
    lr,
    beta1,
    beta2,
    weightDecay,
    eps,
    amsgrad,
    maximize,
    gradScale,
    foundInf,
  );
}
