// batch_norm, native_batch_norm (training statistics, running-statistics update, evaluation with the running
// statistics), native_batch_norm_backward and instance_norm. Mirrors aten/src/ATen/native/Normalization.cpp
// (batch_norm, _batch_norm_impl_index, batch_norm_cpu, batch_norm_backward_cpu, instance_norm) and
// native/cpu/batch_norm_kernel.cpp; renorm (structured, as PyTorch's).

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import * as at from '../generated/TensorBody.js';
import { formatDouble } from '../random/distributions.js';
import type { Tensor } from '../tensor/Tensor.js';
import { wrapScalar } from '../tensor/ScalarOps.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';
import { batchNormFloatPath, batchNormForwardFloat } from './batch_norm_kernel.js';
import { checkFloating, reader, strided1d, writer } from './FloatAccess.js';
import { contiguousOf, emptyLike } from './StorageAccess.js';
import type { StructuredOutputsKernel } from './TensorMeta.js';

/** `is_mixed_type` + `check_mixed_data_type` (mixed_data_type.h): the parameters' dtype when it differs from the input's. */
export function mixedType(input: Tensor, ...params: (Tensor | null)[]): boolean {
  const defined = params.filter((p): p is Tensor => p !== null);
  const mixed = defined.some((p) => p.scalarType !== input.scalarType);
  if (mixed) {
    if (defined.some((p) => p.scalarType !== ScalarType.Float))
      throw new Error('mixed dtype (CPU): expect parameter to have scalar type of Float');
    if (input.scalarType !== ScalarType.Half && input.scalarType !== ScalarType.BFloat16)
      throw new Error('mixed dtype (CPU): all inputs must share same datatype.');
  }
  return mixed;
}

/** `check_dims_match_num_input_features`. */
function checkFeatures(name: string, expected: number, actual: number): void {
  if (actual !== expected) throw new Error(`${name} should contain ${expected} elements not ${actual}`);
}

/**
 * `batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled)`,
 * CompositeImplicitAutograd (`_batch_norm_impl_index`'s checks, then native_batch_norm through the dispatcher,
 * so the graph records NativeBatchNormBackward0 as in PyTorch).
 */
export function batchNorm(
  _ks: DispatchKeySet,
  input: Tensor,
  weight: Tensor | null,
  bias: Tensor | null,
  runningMean: Tensor | null,
  runningVar: Tensor | null,
  training: boolean,
  momentum: number,
  eps: number,
  _cudnnEnabled: boolean,
): Tensor {
  if (input.numel() === 0) {
    // "don't return view of input, don't return empty tensor because it will break gradient chain"
    let out = aten().clone.call(input, null);
    if (weight !== null) out = aten().mul_Tensor.call(out, aten().select_int.call(weight, 0, 0));
    if (bias !== null) out = aten().add_Tensor.call(out, aten().select_int.call(bias, 0, 0), 1);
    return out;
  }
  // (PyTorch reads sizes()[1] unchecked, after the empty case: a 1-d empty input is cloned above)
  const C = input.sizes[maybeWrapDim(1, input.dim())] as number;
  if (runningMean !== null) checkFeatures('running_mean', C, runningMean.numel());
  else if (!training) throw new Error('running_mean must be defined in evaluation mode');
  if (runningVar !== null) checkFeatures('running_var', C, runningVar.numel());
  else if (!training) throw new Error('running_var must be defined in evaluation mode');
  if (weight !== null) checkFeatures('weight', C, weight.numel());
  if (bias !== null) checkFeatures('bias', C, bias.numel());
  return aten().native_batch_norm.call(input, weight, bias, runningMean, runningVar, training, momentum, eps)[0];
}

/** The input as [N, C, S] (S: the product of the spatial sizes). */
function ncs(input: Tensor): [number, number, number] {
  const N = input.sizes[0] as number;
  const C = input.dim() > 1 ? (input.sizes[1] as number) : 1;
  return [N, C, N * C === 0 ? 0 : input.numel() / (N * C)];
}

/**
 * `native_batch_norm(...) -> (output, save_mean, save_invstd)` (batch_norm_cpu). Training: per channel, the
 * mean and biased variance over the batch and spatial dims normalize the input; save_mean and save_invstd
 * (1 / sqrt(var + eps)) are returned for the backward; running_mean / running_var (when given) are updated in
 * place: `running = momentum * stat + (1 - momentum) * running`, with the unbiased variance (n - 1) as
 * PyTorch. Evaluation: the running statistics normalize, and save_mean / save_invstd are empty.
 */
export function nativeBatchNorm(
  _ks: DispatchKeySet,
  input: Tensor,
  weight: Tensor | null,
  bias: Tensor | null,
  runningMean: Tensor | null,
  runningVar: Tensor | null,
  training: boolean,
  momentum: number,
  eps: number,
): [Tensor, Tensor, Tensor] {
  const mixed = mixedType(input, weight, bias, runningMean, runningVar);
  checkFloating(input, 'batch_norm');
  maybeWrapDim(1, input.dim());
  if (!training && (runningMean === null || runningVar === null)) {
    throw new Error(`${runningMean === null ? 'running_mean' : 'running_var'} must be defined in evaluation mode`);
  }
  const statDtype = mixed ? ScalarType.Float : input.scalarType;
  const [N, C, S] = ncs(input);
  const sizes = [...input.sizes];
  const out = emptyLike(input, sizes);
  // The CPU kernel returns empty statistics in evaluation; PyTorch's meta function returns [C] either way.
  const statSize = training || input.isMeta() ? C : 0;
  const saveMean = emptyLike(input, [statSize], statDtype);
  const saveInvstd = emptyLike(input, [statSize], statDtype);
  if (input.isMeta()) return [out, saveMean, saveInvstd];
  const cx = contiguousOf(input);
  if (batchNormFloatPath(input, weight, bias, runningMean, runningVar)) {
    batchNormForwardFloat(cx, weight, bias, runningMean, runningVar, training, momentum, eps, out, saveMean, saveInvstd, [N, C, S]);
    if (cx !== input) cx.dispose(); // Note [Storage lifetime]
    return [out, saveMean, saveInvstd];
  }
  const cw = weight === null ? null : contiguousOf(weight);
  const cb = bias === null ? null : contiguousOf(bias);
  const x = reader(cx);
  const w = cw === null ? null : reader(cw);
  const b = cb === null ? null : reader(cb);
  const y = writer(out);
  const sm = writer(saveMean);
  const si = writer(saveInvstd);
  const rm = runningMean === null ? null : strided1d(runningMean);
  const rv = runningVar === null ? null : strided1d(runningVar);
  const n = N * S;
  for (let c = 0; c < C; c++) {
    let mean: number;
    let invstd: number;
    if (training) {
      let sum = 0;
      for (let i = 0; i < N; i++) for (let s = 0; s < S; s++) sum += x((i * C + c) * S + s);
      mean = sum / n;
      let varSum = 0;
      for (let i = 0; i < N; i++) {
        for (let s = 0; s < S; s++) {
          const d = x((i * C + c) * S + s) - mean;
          varSum += d * d;
        }
      }
      invstd = n === 0 ? 0 : 1 / Math.sqrt(varSum / n + eps);
      sm(c, mean);
      si(c, invstd);
      if (rm !== null) rm.set(c, momentum * mean + (1 - momentum) * rm.get(c));
      if (rv !== null) rv.set(c, momentum * (varSum / (n - 1)) + (1 - momentum) * rv.get(c));
    } else {
      mean = (rm as NonNullable<typeof rm>).get(c);
      invstd = 1 / Math.sqrt((rv as NonNullable<typeof rv>).get(c) + eps);
    }
    // batch_norm_cpu_transform_input: y = x * alpha + beta
    const alpha = invstd * (w === null ? 1 : w(c));
    const beta = (b === null ? 0 : b(c)) - mean * alpha;
    for (let i = 0; i < N; i++) {
      const o = (i * C + c) * S;
      for (let s = 0; s < S; s++) y(o + s, x(o + s) * alpha + beta);
    }
  }
  return [out, saveMean, saveInvstd];
}

/**
 * `native_batch_norm_backward(grad_out, input, weight, running_mean, running_var, save_mean, save_invstd,
 * train, eps, output_mask) -> (grad_input, grad_weight, grad_bias)` (batch_norm_backward_cpu_template). In
 * training the saved statistics are used, in evaluation the running ones. An output whose mask entry is false
 * is an empty tensor (PyTorch's is undefined).
 */
export function nativeBatchNormBackward(
  _ks: DispatchKeySet,
  gradOut: Tensor,
  input: Tensor,
  weight: Tensor | null,
  runningMean: Tensor | null,
  runningVar: Tensor | null,
  saveMean: Tensor | null,
  saveInvstd: Tensor | null,
  train: boolean,
  eps: number,
  outputMask: boolean[],
): [Tensor, Tensor, Tensor] {
  const mixed = mixedType(input, weight, runningMean, runningVar, saveMean, saveInvstd);
  checkFloating(input, 'batch_norm_backward_cpu');
  const paramDtype = mixed ? ScalarType.Float : input.scalarType;
  const [N, C, S] = ncs(input);
  const [m0, m1, m2] = [outputMask[0] === true, outputMask[1] === true, outputMask[2] === true];
  const gi = emptyLike(input, m0 ? [...input.sizes] : [0]);
  const gw = emptyLike(input, m1 ? [C] : [0], paramDtype);
  const gb = emptyLike(input, m2 ? [C] : [0], paramDtype);
  if (input.isMeta()) return [gi, gw, gb];
  if (train ? saveMean === null || saveInvstd === null : runningMean === null || runningVar === null) {
    throw new Error(
      train ? 'save_mean and save_invstd must be defined in training mode' : 'running_mean must be defined in evaluation mode',
    );
  }
  const cx = contiguousOf(input);
  const cg = contiguousOf(gradOut);
  const cw = weight === null ? null : contiguousOf(weight);
  const x = reader(cx);
  const g = reader(cg);
  const w = cw === null ? null : reader(cw);
  const [gix, gwx, gbx] = [writer(gi), writer(gw), writer(gb)];
  const meanOf = strided1d((train ? saveMean : runningMean) as Tensor);
  const statOf = strided1d((train ? saveInvstd : runningVar) as Tensor);
  const n = N * S;
  for (let c = 0; c < C; c++) {
    const mean = meanOf.get(c);
    const invstd = train ? statOf.get(c) : 1 / Math.sqrt(statOf.get(c) + eps);
    const wc = w === null ? 1 : w(c);
    let sum = 0;
    let dotp = 0;
    for (let i = 0; i < N; i++) {
      const o = (i * C + c) * S;
      for (let s = 0; s < S; s++) {
        const gv = g(o + s);
        sum += gv;
        dotp += (x(o + s) - mean) * gv;
      }
    }
    if (m0) {
      if (train) {
        const k = (dotp * invstd * invstd) / n;
        const gradMean = sum / n;
        for (let i = 0; i < N; i++) {
          const o = (i * C + c) * S;
          for (let s = 0; s < S; s++) gix(o + s, (g(o + s) - (x(o + s) - mean) * k - gradMean) * invstd * wc);
        }
      } else {
        for (let i = 0; i < N; i++) {
          const o = (i * C + c) * S;
          for (let s = 0; s < S; s++) gix(o + s, g(o + s) * invstd * wc);
        }
      }
    }
    if (m1) gwx(c, dotp * invstd);
    if (m2) gbx(c, sum);
  }
  return [gi, gw, gb];
}

// ---- the functional batch-norm operators (Normalization.cpp: _batch_norm_legit_cpu, _batch_norm_with_update_cpu,
// _batch_norm_no_update, _new_batch_norm_backward_cpu): export's and torch.compile's forms of native_batch_norm,
// the same kernels

/** `_native_batch_norm_legit(...)`: native_batch_norm with the running statistics given (updated in training). */
export function nativeBatchNormLegit(
  ks: DispatchKeySet,
  input: Tensor,
  weight: Tensor | null,
  bias: Tensor | null,
  runningMean: Tensor,
  runningVar: Tensor,
  training: boolean,
  momentum: number,
  eps: number,
): [Tensor, Tensor, Tensor] {
  return nativeBatchNorm(ks, input, weight, bias, runningMean, runningVar, training, momentum, eps);
}

/** `_native_batch_norm_legit.no_stats(...)`: native_batch_norm without running statistics. */
export function nativeBatchNormLegitNoStats(
  ks: DispatchKeySet,
  input: Tensor,
  weight: Tensor | null,
  bias: Tensor | null,
  training: boolean,
  momentum: number,
  eps: number,
): [Tensor, Tensor, Tensor] {
  return nativeBatchNorm(ks, input, weight, bias, null, null, training, momentum, eps);
}

/**
 * `_batch_norm_with_update(...) -> (output, save_mean, save_invstd, reserve)`: native_batch_norm in training,
 * the running statistics updated; `reserve` (cuDNN's workspace) is an empty uint8 tensor on the CPU.
 */
export function batchNormWithUpdate(
  ks: DispatchKeySet,
  input: Tensor,
  weight: Tensor | null,
  bias: Tensor | null,
  runningMean: Tensor,
  runningVar: Tensor,
  momentum: number,
  eps: number,
): [Tensor, Tensor, Tensor, Tensor] {
  const [out, saveMean, saveInvstd] = nativeBatchNorm(ks, input, weight, bias, runningMean, runningVar, true, momentum, eps);
  return [out, saveMean, saveInvstd, emptyLike(input, [0], ScalarType.Byte)];
}

/** `_batch_norm_no_update(...)`, CompositeExplicitAutograd: native_batch_norm in evaluation, and an empty `reserve`. */
export function batchNormNoUpdate(
  _ks: DispatchKeySet,
  input: Tensor,
  weight: Tensor | null,
  bias: Tensor | null,
  runningMean: Tensor | null,
  runningVar: Tensor | null,
  momentum: number,
  eps: number,
): [Tensor, Tensor, Tensor, Tensor] {
  const [out, saveMean, saveInvstd] = at.native_batch_norm(input, weight, bias, runningMean, runningVar, false, momentum, eps);
  return [out, saveMean, saveInvstd, at.empty_memory_format([0], ScalarType.Byte, null, input.device)];
}

/** `batch_norm_backward(...)` (_new_batch_norm_backward_cpu): native_batch_norm_backward, `update` as `train`. */
export function batchNormBackwardNew(
  ks: DispatchKeySet,
  gradOut: Tensor,
  input: Tensor,
  weight: Tensor,
  runningMean: Tensor | null,
  runningVar: Tensor | null,
  saveMean: Tensor | null,
  saveVar: Tensor | null,
  update: boolean,
  eps: number,
  outputMask: boolean[],
  _reserve: Tensor,
): [Tensor, Tensor, Tensor] {
  return nativeBatchNormBackward(ks, gradOut, input, weight, runningMean, runningVar, saveMean, saveVar, update, eps, outputMask);
}

/**
 * `instance_norm(...)`, CompositeImplicitAutograd (Normalization.cpp): batch_norm over the input viewed as
 * [1, N * C, *], with the weight, bias and running statistics repeated per batch element; the running
 * statistics are then averaged back over the batch (`use_input_stats`).
 */
export function instanceNorm(
  _ks: DispatchKeySet,
  input: Tensor,
  weight: Tensor | null,
  bias: Tensor | null,
  runningMean: Tensor | null,
  runningVar: Tensor | null,
  useInputStats: boolean,
  momentum: number,
  eps: number,
  cudnnEnabled: boolean,
): Tensor {
  if (!useInputStats && (runningMean === null || runningVar === null)) {
    throw new Error('Expected running_mean and running_var to be defined when use_input_stats is false');
  }
  const ops = aten();
  const shape = [...input.sizes];
  const b = shape[0] as number;
  const c = shape[1] as number;
  const shapeOut = [1, b * c, ...shape.slice(2)];
  const repeat = (t: Tensor | null): Tensor | null => (t === null ? null : ops.repeat.call(t, [b]));
  const rm = repeat(runningMean);
  const rv = repeat(runningVar);
  const inputReshaped = ops.view.call(ops.contiguous.call(input, 0), shapeOut);
  const out = ops.batch_norm.call(inputReshaped, repeat(weight), repeat(bias), rm, rv, useInputStats, momentum, eps, cudnnEnabled);
  // The running statistics were updated per (batch, channel): their mean over the batch goes back.
  if (runningMean !== null && rm !== null)
    ops.copy_.call(runningMean, ops.mean_dim.call(ops.view.call(rm, [b, c]), [0], false, null), false);
  if (runningVar !== null && rv !== null) ops.copy_.call(runningVar, ops.mean_dim.call(ops.view.call(rv, [b, c]), [0], false, null), false);
  return ops.view.call(out, shape);
}

// ---- renorm (Normalization.cpp) ------------------------------------------------------------------------------

type RenormArgs = [self: Tensor, p: number | boolean, dim: number, maxnorm: number | boolean];

/**
 * `renorm.out` (structured, MetaBase; renorm and renorm_ delegate to it): each slice along dim whose p-norm
 * exceeds maxnorm is scaled by maxnorm / (norm + 1e-7) (the meta's checks and texts; the norm is
 * linalg_vector_norm over the other dims, as renorm_out computes it).
 */
export const renormStructured: StructuredOutputsKernel<RenormArgs> = {
  meta: (_outs, self, p, _dim, maxnorm) => {
    if (!(Number(p) > 0)) throw new Error('renorm: non-positive-norm not supported');
    if (!(Number(maxnorm) >= 0)) throw new Error(`renorm: expected maxnorm to be >= 0 but got ${formatDouble(Number(maxnorm))}`);
    if (self.dim() <= 1) throw new Error(`renorm: input needs at least 2 dimensions, got ${self.dim()} dimensions`);
    return { outputs: [{ sizes: self.sizes, dtype: self.scalarType, device: self.device }], precomputed: undefined };
  },
  impl: (outs, self, p, dim, maxnorm) => {
    const out = outs[0] as Tensor;
    if (out.isMeta()) return;
    const d = maybeWrapDim(dim, self.dim());
    const dims = [...Array(self.dim()).keys()].filter((i) => i !== d);
    const norm = at.linalg_vector_norm(self, Number(p), dims, true);
    const m = wrapScalar(Number(maxnorm));
    const factor = at.where_self(at.gt_Tensor(norm, m), at.div_Tensor(m, at.add_Tensor(norm, wrapScalar(1e-7))), at.ones_like(norm));
    at.copy_(out, at.mul_Tensor(self, factor));
  },
};
