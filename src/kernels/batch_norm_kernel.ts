// batch_norm's float32 / float64 forward over a contiguous [N, C, S] input, on the WASM kernels split among
// threads or on their JS twins: the training statistics (batch_norm_cpu_collect_stats_contiguous_impl), the
// saved and running statistics (batch_norm_cpu_update_stats_template) and the per-channel affine
// (batch_norm_cpu_collect_linear_and_constant_terms, batch_norm_cpu_contiguous_impl). Mirrors
// aten/src/ATen/native/cpu/batch_norm_kernel.cpp and native/Normalization.cpp.

import { ScalarType } from '../c10/ScalarType.js';
import type { Tensor } from '../tensor/Tensor.js';
import * as ref from '../wasm/kernels/reference.js';
import { addressOf, runKernelCalls, splitRange, threadsFor, wasmKernelFor } from '../wasm/kernels/vec.js';
import { strided1d } from './FloatAccess.js';
import { linearScratch } from './StorageAccess.js';

type Floats = Float32Array | Float64Array;

/** Elements below which the forward runs the JS twins without a linear-memory scratch (a call's overhead). */
const SMALL_INPUT = 4096;

/** The elements of a contiguous float32 / float64 tensor. Take them after the call's last allocation. */
function elements(t: Tensor): Floats {
  const { data, base } = t.dataView();
  return (data as Floats).subarray(base, base + t.numel());
}

/** Whether batchNormForwardFloat runs `input` with these parameters: float32 / float64, one dtype, not empty. */
export function batchNormFloatPath(input: Tensor, ...params: (Tensor | null)[]): boolean {
  const dtype = input.scalarType;
  if (dtype !== ScalarType.Float && dtype !== ScalarType.Double) return false;
  if (input.numel() === 0 || input.isMeta()) return false;
  return params.every((p) => p === null || p.scalarType === dtype);
}

/**
 * native_batch_norm's forward for a contiguous float32 / float64 input `x` viewed as [N, C, S] into the
 * contiguous `out` (batchNormFloatPath's cases): in training the statistics (saved into saveMean / saveInvstd,
 * and the running ones updated), then y = x·alpha + beta per channel, PyTorch's arithmetic (Note [Batch norm's
 * affine in PyTorch's bits] in wasm/kernels/assembly/batch_norm.ts).
 */
export function batchNormForwardFloat(
  x: Tensor,
  weight: Tensor | null,
  bias: Tensor | null,
  runningMean: Tensor | null,
  runningVar: Tensor | null,
  training: boolean,
  momentum: number,
  eps: number,
  out: Tensor,
  saveMean: Tensor,
  saveInvstd: Tensor,
  [N, C, S]: [number, number, number],
): void {
  const f32 = x.scalarType === ScalarType.Float;
  const round = f32 ? Math.fround : (v: number): number => v;
  const bytes = f32 ? 4 : 8;
  // [alpha (C), beta (C), mean (C), sum of squared deviations (C)]: in linear memory even for a few channels;
  // a small input runs the twins (the same bits) on a JS array, without the allocation.
  const small = N * C * S < SMALL_INPUT;
  const scratch = small ? null : linearScratch(x, 4 * C);
  const w = weight === null ? null : strided1d(weight);
  const b = bias === null ? null : strided1d(bias);
  const rm = runningMean === null ? null : strided1d(runningMean);
  const rv = runningVar === null ? null : strided1d(runningVar);
  // Every allocation is done: now the arrays (a growing memory replaces its buffer).
  const [X, Y] = [elements(x), elements(out)];
  const AB = scratch !== null ? elements(scratch) : f32 ? new Float32Array(4 * C) : new Float64Array(4 * C);
  const threads = threadsFor(N * C * S);
  const means: number[] = new Array<number>(C);
  const invstds: number[] = new Array<number>(C);
  if (training) {
    const statsName = f32 ? 'f32_batch_norm_stats' : 'f64_batch_norm_stats';
    if (wasmKernelFor(statsName, X, AB) === null) {
      ref.batch_norm_stats(N, C, S, 0, C, X, 0, AB, 2 * C);
    } else {
      const [px, ps] = [addressOf(X, 0), addressOf(AB, 2 * C)];
      const cuts = splitRange(C, threads, 1);
      const calls: number[][] = [];
      for (let t = 0; t + 1 < cuts.length; t++) calls.push([N, C, S, cuts[t] as number, cuts[t + 1] as number, px, ps]);
      runKernelCalls(statsName, calls);
    }
    const n = N * S;
    const [sm, si] = [strided1d(saveMean), strided1d(saveInvstd)];
    for (let c = 0; c < C; c++) {
      const mean = AB[2 * C + c] as number;
      const varSum = AB[3 * C + c] as number;
      // `_var_sum / n` in the dtype, then VarTransform in double (1 / sqrt(var + eps)), stored in the dtype.
      const invstd = round(1 / Math.sqrt(round(varSum / round(n)) + eps));
      sm.set(c, mean);
      si.set(c, invstd);
      if (rm !== null) rm.set(c, momentum * mean + (1 - momentum) * rm.get(c));
      if (rv !== null) rv.set(c, momentum * round(varSum / round(n - 1)) + (1 - momentum) * rv.get(c));
      means[c] = mean;
      invstds[c] = invstd;
    }
  } else {
    for (let c = 0; c < C; c++) {
      means[c] = (rm as NonNullable<typeof rm>).get(c);
      invstds[c] = round(1 / round(Math.sqrt(round((rv as NonNullable<typeof rv>).get(c) + round(eps)))));
    }
  }
  for (let c = 0; c < C; c++) {
    const alpha = round((invstds[c] as number) * (w === null ? 1 : w.get(c)));
    AB[c] = alpha;
    // float32: mean·alpha is exact in a double, so this is PyTorch's fused b − mean·alpha (Note [Batch norm's affine in PyTorch's bits]).
    AB[C + c] = (b === null ? 0 : b.get(c)) - (means[c] as number) * alpha;
  }
  const planesName = f32 ? 'f32_batch_norm_planes' : 'f64_batch_norm_planes';
  if (wasmKernelFor(planesName, X, Y, AB) === null) {
    if (f32) ref.f32_batch_norm_planes(N * C, S, 0, C, X as Float32Array, 0, AB as Float32Array, 0, Y as Float32Array, 0);
    else ref.f64_batch_norm_planes(N * C, S, 0, C, X as Float64Array, 0, AB as Float64Array, 0, Y as Float64Array, 0);
  } else {
    const [px, py, pab] = [addressOf(X, 0), addressOf(Y, 0), addressOf(AB, 0)];
    const cuts = splitRange(N * C, threads, 1);
    const calls: number[][] = [];
    for (let t = 0; t + 1 < cuts.length; t++) {
      const [p0, p1] = [cuts[t] as number, cuts[t + 1] as number];
      calls.push([p1 - p0, S, p0, C, px + p0 * S * bytes, pab, py + p0 * S * bytes]);
    }
    runKernelCalls(planesName, calls);
  }
  scratch?.dispose();
}
