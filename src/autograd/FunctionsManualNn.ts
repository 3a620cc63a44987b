// The derivative helpers of the nn operators (softmax / log_softmax, normalization, pooling, padding, upsampling,
// activations; the losses are in FunctionsManualLoss.ts, the convolutions in FunctionsManualConvolution.ts): the
// parts of torch/csrc/autograd/FunctionsManual.cpp that derivatives.yaml's native_batch_norm, native_group_norm,
// ... entries call. Re-exported by FunctionsManual.ts, where the generated autograd code imports every helper from.

import { autogradState } from '../c10/AutogradState.js';
import { ScalarType } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';
import * as at from '../generated/TensorBody.js';
import { wrapScalar } from '../tensor/ScalarOps.js';
import { reluBackwardSimd } from '../kernels/ActivationBackward.js';
import { normBackward } from './FunctionsManualReduce.js';

// Note [One backward call for three gradients]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's derivatives.yaml gives native_batch_norm's input, weight and bias one formula
// (`input, weight, bias: native_batch_norm_backward(..., grad_input_mask)`); aten-ts's formulas are one per
// input, so the three call one helper with the index of the gradient they want. The helper runs the backward
// operator once per upstream gradient: the result is kept against the `grad` tensor (a WeakMap, so nothing
// outlives the node's apply) and the two other formulas of the same apply take theirs from it. Under
// create_graph (grad mode on in the backward) the gradients are built from differentiable operators instead,
// recomputing the statistics from the input, so double backward works (PyTorch's
// batchnorm_double_backward / infinitely_differentiable_native_group_norm_backward give the same values).
const cache = new WeakMap<Tensor, { key: Tensor; grads: Tensor[] }>();

function cached(grad: Tensor, key: Tensor, compute: () => Tensor[]): Tensor[] {
  const hit = cache.get(grad);
  if (hit !== undefined && hit.key === key) return hit.grads;
  const grads = compute();
  cache.set(grad, { key, grads });
  return grads;
}

/** [1, C, 1, ...]: a per-channel tensor broadcast over the input. */
function channelShape(input: Tensor): number[] {
  return input.sizes.map((s, i) => (i === 1 ? s : 1));
}

/** native_batch_norm's gradient number `which` (0 input, 1 weight, 2 bias). See Note [One backward call for three gradients]. */
export function batchNormBackward(
  which: 0 | 1 | 2,
  grad: Tensor,
  input: Tensor,
  weight: Tensor | null,
  runningMean: Tensor | null,
  runningVar: Tensor | null,
  saveMean: Tensor,
  saveInvstd: Tensor,
  training: boolean,
  eps: number,
): Tensor {
  if (!autogradState.gradMode) {
    const grads = cached(grad, saveInvstd, () =>
      aten().native_batch_norm_backward.call(grad, input, weight, runningMean, runningVar, saveMean, saveInvstd, training, eps, [
        true,
        true,
        true,
      ]),
    );
    return grads[which] as Tensor;
  }
  const dims = input.sizes.map((_, i) => i).filter((i) => i !== 1);
  const cs = channelShape(input);
  if (which === 2) return at.sum_dim_IntList(grad, dims);
  let mean: Tensor;
  let invstd: Tensor;
  if (training) {
    mean = at.mean_dim(input, dims, true);
    const xc = at.sub_Tensor(input, mean);
    invstd = at.rsqrt(at.add_Tensor(at.mean_dim(at.mul_Tensor(xc, xc), dims, true), wrapScalar(eps)));
  } else {
    mean = at.reshape(runningMean as Tensor, cs);
    invstd = at.reshape(at.rsqrt(at.add_Tensor(runningVar as Tensor, wrapScalar(eps))), cs);
  }
  const xhat = at.mul_Tensor(at.sub_Tensor(input, mean), invstd);
  if (which === 1) return at.sum_dim_IntList(at.mul_Tensor(grad, xhat), dims);
  const g = weight === null ? grad : at.mul_Tensor(grad, at.reshape(weight, cs));
  if (!training) return at.mul_Tensor(g, invstd);
  const n = input.numel() / (input.sizes[1] as number);
  return at.mul_Tensor(
    at.div_Tensor(invstd, wrapScalar(n)),
    at.sub_Tensor(
      at.sub_Tensor(at.mul_Tensor(g, wrapScalar(n)), at.sum_dim_IntList(g, dims, true)),
      at.mul_Tensor(xhat, at.sum_dim_IntList(at.mul_Tensor(g, xhat), dims, true)),
    ),
  );
}

/**
 * native_group_norm's gradient number `which` (0 input, 1 weight, 2 bias) from the gradients of its three
 * outputs (output, mean, rstd: PyTorch differentiates all three, infinitely_differentiable_native_group_norm_backward).
 * See Note [One backward call for three gradients].
 */
export function groupNormBackward(
  which: 0 | 1 | 2,
  grads: readonly (Tensor | null | undefined)[],
  input: Tensor,
  mean: Tensor,
  rstd: Tensor,
  weight: Tensor | null,
  N: number,
  C: number,
  HxW: number,
  group: number,
  eps: number,
): Tensor | null {
  const grad = grads[0] ?? null;
  const gMean = grads[1] ?? null;
  const gRstd = grads[2] ?? null;
  if (which !== 0 && grad === null) return null;
  if (!autogradState.gradMode && grad !== null && gMean === null && gRstd === null) {
    const all = cached(grad, rstd, () =>
      aten().native_group_norm_backward.call(at.contiguous(grad), at.contiguous(input), mean, rstd, weight, N, C, HxW, group, [
        true,
        true,
        true,
      ]),
    );
    return all[which] as Tensor;
  }
  const g3 = grad === null ? null : at.reshape(grad, [N, C, HxW]);
  if (which === 2) return at.sum_dim_IntList(g3 as Tensor, [0, 2]);
  const xg = at.reshape(input, [N, group, -1]);
  const m = at.mean_dim(xg, [2], true);
  const xc = at.sub_Tensor(xg, m);
  const r = at.rsqrt(at.add_Tensor(at.mean_dim(at.mul_Tensor(xc, xc), [2], true), wrapScalar(eps)));
  const xhat = at.mul_Tensor(xc, r);
  if (which === 1) return at.sum_dim_IntList(at.mul_Tensor(g3 as Tensor, at.reshape(xhat, [N, C, HxW])), [0, 2]);
  const n = (C / group) * HxW;
  let gi: Tensor | null = null;
  if (g3 !== null) {
    const gw = at.reshape(weight === null ? g3 : at.mul_Tensor(g3, at.reshape(weight, [1, C, 1])), [N, group, -1]);
    gi = at.mul_Tensor(
      at.div_Tensor(r, wrapScalar(n)),
      at.sub_Tensor(
        at.sub_Tensor(at.mul_Tensor(gw, wrapScalar(n)), at.sum_dim_IntList(gw, [2], true)),
        at.mul_Tensor(xhat, at.sum_dim_IntList(at.mul_Tensor(gw, xhat), [2], true)),
      ),
    );
  }
  // mean = Σx/n: each x gets gMean/n; rstd = (var + eps)^-½ with var = Σ(x-mean)²/n: each x gets -gRstd·rstd³·(x-mean)/n
  if (gMean !== null) {
    const t = at.expand(at.div_Tensor(at.reshape(gMean, [N, group, 1]), wrapScalar(n)), [N, group, xg.sizes[2] as number]);
    gi = gi === null ? t : at.add_Tensor(gi, t);
  }
  if (gRstd !== null) {
    const t = at.div_Tensor(at.mul_Tensor(at.mul_Tensor(at.reshape(gRstd, [N, group, 1]), at.pow_Tensor_Scalar(r, 3)), xc), wrapScalar(-n));
    gi = gi === null ? t : at.add_Tensor(gi, t);
  }
  return gi === null ? null : at.reshape(gi, [...input.sizes]);
}

/** `_adaptive_avg_pool2d_backward(grad, self)`. */
export function adaptiveAvgPool2dBackward(grad: Tensor, self: Tensor): Tensor {
  return aten()._adaptive_avg_pool2d_backward.call(grad, self);
}

/** `_adaptive_avg_pool2d(grad, output_size)`: the derivative of the backward in its grad_output. */
export function adaptiveAvgPool2dForward(grad: Tensor, outputSize: number[]): Tensor {
  return aten()._adaptive_avg_pool2d.call(grad, outputSize);
}

/** `adaptive_max_pool2d_backward(grad, self, indices)`. */
export function adaptiveMaxPool2dBackward(grad: Tensor, self: Tensor, indices: Tensor): Tensor {
  return aten().adaptive_max_pool2d_backward.call(grad, self, indices);
}

/** `constant_pad_nd_backward`: the gradient cut back out of the padding (the pads negated). */
export function constantPadNdBackward(grad: Tensor, pad: number[]): Tensor {
  return aten().constant_pad_nd.call(
    grad,
    pad.map((p) => -p),
    0,
  );
}

type PadOp = 'reflection_pad1d' | 'reflection_pad2d' | 'reflection_pad3d' | 'replication_pad1d' | 'replication_pad2d' | 'replication_pad3d';

/** `<mode>_pad<n>d_backward(grad, self, padding)`. */
export function padBackwardOp(op: `${PadOp}_backward`, grad: Tensor, self: Tensor, padding: number[]): Tensor {
  return aten()[op].call(grad, self, padding);
}

/** `<mode>_pad<n>d(grad, padding)`: the derivative of a padding backward in its grad_output. */
export function padForwardOp(op: PadOp, grad: Tensor, padding: number[]): Tensor {
  return aten()[op].call(grad, padding);
}

/** `_adaptive_avg_pool3d_backward(grad, self)`. */
export function adaptiveAvgPool3dBackward(grad: Tensor, self: Tensor): Tensor {
  return aten()._adaptive_avg_pool3d_backward.call(grad, self);
}

/** `_adaptive_avg_pool3d(grad, output_size)`: the derivative of the backward in its grad_output. */
export function adaptiveAvgPool3dForward(grad: Tensor, outputSize: number[]): Tensor {
  return aten()._adaptive_avg_pool3d.call(grad, outputSize);
}

type UpsampleOp =
  | 'upsample_nearest1d'
  | '_upsample_nearest_exact1d'
  | 'upsample_nearest2d'
  | '_upsample_nearest_exact2d'
  | 'upsample_nearest3d'
  | '_upsample_nearest_exact3d'
  | 'upsample_linear1d'
  | 'upsample_bilinear2d'
  | 'upsample_bicubic2d'
  | 'upsample_trilinear3d'
  | '_upsample_bilinear2d_aa'
  | '_upsample_bicubic2d_aa';

/** `<upsample op>_backward(grad, output_size, input_size, [align_corners,] ...scales)`. */
export function upsampleBackwardOp(
  op: `${UpsampleOp}_backward`,
  grad: Tensor,
  outputSize: number[],
  inputSize: readonly number[],
  ...rest: (boolean | number | null)[]
): Tensor {
  const call = aten()[op].call as (g: Tensor, o: number[], i: number[], ...r: (boolean | number | null)[]) => Tensor;
  return call(grad, outputSize, [...inputSize], ...rest);
}

/** `<upsample op>(grad, output_size, [align_corners,] ...scales)`: the derivative of a backward in its grad_output. */
export function upsampleForwardOp(op: UpsampleOp, grad: Tensor, outputSize: number[], ...rest: (boolean | number | null)[]): Tensor {
  const call = aten()[op].call as (g: Tensor, o: number[], ...r: (boolean | number | null)[]) => Tensor;
  return call(grad, outputSize, ...rest);
}

type ActivationBackward =
  'leaky_relu_backward' | 'softplus_backward' | 'hardtanh_backward' | 'hardswish_backward' | 'hardsigmoid_backward' | 'mish_backward';

/** An activation's backward operator, `<op>(grad, self, ...scalars)`. */
export function activationBackward(op: ActivationBackward, grad: Tensor, self: Tensor, ...rest: (number | boolean)[]): Tensor {
  const call = aten()[op].call as (g: Tensor, s: Tensor, ...r: (number | boolean)[]) => Tensor;
  return call(grad, self, ...rest);
}

/** `elu_backward(grad, alpha, scale, input_scale, is_result, self_or_result)`. */
export function eluBackward(
  grad: Tensor,
  alpha: number | boolean,
  scale: number | boolean,
  inputScale: number | boolean,
  isResult: boolean,
  selfOrResult: Tensor,
): Tensor {
  return aten().elu_backward.call(grad, alpha, scale, inputScale, isResult, selfOrResult);
}

/** `log_sigmoid_backward(grad, self, buffer)`. */
export function logSigmoidBackward(grad: Tensor, self: Tensor, buffer: Tensor): Tensor {
  return aten().log_sigmoid_backward.call(grad, self, buffer);
}

/**
 * _scaled_dot_product_flash_attention_for_cpu's gradient number `which` (0 query, 1 key, 2 value): one call of
 * its backward operator per upstream gradient (Note [One backward call for three gradients]). The backward
 * has no derivative of its own, in PyTorch as here: a double backward raises "not implemented".
 */
export function flashAttentionForCpuBackward(
  which: 0 | 1 | 2,
  grad: Tensor,
  query: Tensor,
  key: Tensor,
  value: Tensor,
  output: Tensor,
  logsumexp: Tensor,
  dropoutP: number,
  isCausal: boolean,
  attnMask: Tensor | null | undefined,
  scale: number | null | undefined,
): Tensor {
  const grads = cached(grad, logsumexp, () =>
    aten()._scaled_dot_product_flash_attention_for_cpu_backward.call(
      grad,
      query,
      key,
      value,
      output,
      logsumexp,
      dropoutP,
      isCausal,
      attnMask ?? null,
      scale ?? null,
    ),
  );
  return grads[which] as Tensor;
}

/**
 * `_prelu_kernel`'s gradient number `which` (0 self, 1 weight): one `_prelu_kernel_backward` call per upstream
 * gradient (See Note [One backward call for three gradients]); under create_graph, the same values from
 * differentiable operators (where, mul, sum), so a double backward works.
 */
export function preluKernelBackward(which: 0 | 1, grad: Tensor, self: Tensor, weight: Tensor): Tensor {
  if (!autogradState.gradMode) {
    return cached(grad, self, () => aten()._prelu_kernel_backward.call(grad, self, weight))[which] as Tensor;
  }
  const positive = at.gt_Scalar(self, 0);
  if (which === 0) return aten().where_self.call(positive, grad, at.mul_Tensor(weight, grad));
  const zero = aten().zeros_like.call(self, null, null, null, null, null);
  const gw = aten().where_self.call(positive, zero, at.mul_Tensor(self, grad));
  // weight has self's rank (prelu reshaped it): sum the broadcast dims back (sum_to_size)
  const dims = gw.sizes.flatMap((s, i) => (weight.sizes[i] === 1 && s !== 1 ? [i] : []));
  return dims.length > 0 ? at.sum_dim_IntList(gw, dims, true) : gw;
}

/**
 * native_layer_norm's mean and rstd for a formula: the saved outputs, except when the gradient itself is being
 * differentiated (create_graph, the input requiring grad): they are outputs without a derivative, so they are
 * recomputed from the input by differentiable operators and second-order gradients see their dependence on it.
 */
function layerNormStats(input: Tensor, normalizedShape: readonly number[], mean: Tensor, rstd: Tensor, eps: number): [Tensor, Tensor] {
  if (!autogradState.gradMode || !input.requiresGrad) return [mean, rstd];
  const dims = normalizedShape.map((_, i) => input.dim() - normalizedShape.length + i);
  const m = at.mean_dim(input, dims, true);
  const xc = at.sub_Tensor(input, m);
  return [m, at.rsqrt(at.add_Tensor(at.mean_dim(at.mul_Tensor(xc, xc), dims, true), wrapScalar(eps)))];
}

/** native_layer_norm's input gradient from the saved mean and rstd (`native_layer_norm_backward`'s dX). */
function layerNormBackward(
  grad: Tensor,
  input: Tensor,
  normalizedShape: readonly number[],
  savedMean: Tensor,
  savedRstd: Tensor,
  weight: Tensor | null,
  eps: number,
): Tensor {
  const [mean, rstd] = layerNormStats(input, normalizedShape, savedMean, savedRstd, eps);
  const dims = normalizedShape.map((_, i) => input.dim() - normalizedShape.length + i);
  const n = normalizedShape.reduce((a, b) => a * b, 1);
  const xhat = at.mul_Tensor(at.sub_Tensor(input, mean), rstd);
  const g = weight === null ? grad : at.mul_Tensor(grad, weight);
  const a = at.sum_dim_IntList(g, dims, true);
  const b = at.sum_dim_IntList(at.mul_Tensor(g, xhat), dims, true);
  return at.mul_Tensor(
    at.div_Tensor(rstd, wrapScalar(n)),
    at.sub_Tensor(at.sub_Tensor(at.mul_Tensor(g, wrapScalar(n)), a), at.mul_Tensor(xhat, b)),
  );
}

/** native_layer_norm's weight gradient: grad * normalized input (summed over the batch dimensions by the engine). */
function layerNormWeightBackward(
  grad: Tensor,
  input: Tensor,
  normalizedShape: readonly number[],
  savedMean: Tensor,
  savedRstd: Tensor,
  eps: number,
): Tensor {
  const [mean, rstd] = layerNormStats(input, normalizedShape, savedMean, savedRstd, eps);
  return at.mul_Tensor(grad, at.mul_Tensor(at.sub_Tensor(input, mean), rstd));
}

/**
 * native_layer_norm's gradient number `which` (0 input, 1 weight, 2 bias): `native_layer_norm_backward`, run
 * once for the three (Note [One backward call for three gradients]); under create_graph, differentiable
 * operators (the weight's gradient unreduced: the engine sums it to the weight's shape).
 */
export function nativeLayerNormBackwardOf(
  which: 0 | 1 | 2,
  grad: Tensor,
  input: Tensor,
  normalizedShape: readonly number[],
  mean: Tensor,
  rstd: Tensor,
  weight: Tensor | null,
  bias: Tensor | null,
  eps: number,
): Tensor {
  if (!autogradState.gradMode) {
    const grads = cached(grad, rstd, () =>
      aten().native_layer_norm_backward.call(grad, input, [...normalizedShape], mean, rstd, weight, bias, [
        true,
        weight !== null,
        bias !== null,
      ]),
    );
    return grads[which] as Tensor;
  }
  if (which === 0) return layerNormBackward(grad, input, normalizedShape, mean, rstd, weight, eps);
  if (which === 1) return layerNormWeightBackward(grad, input, normalizedShape, mean, rstd, eps);
  return grad;
}

/** glu_backward (GatedLinearUnit.cpp): [grad * sig(b), grad * a * sig(b) * (1 - sig(b))] along dim. */
export function gluBackward(grad: Tensor, self: Tensor, dim: number): Tensor {
  const d = dim < 0 ? dim + self.dim() : dim;
  const n = (self.sizes[d] as number) / 2;
  const a = at.narrow(self, d, 0, n);
  const sig = at.sigmoid(at.narrow(self, d, n, n));
  const gb = at.mul_Tensor(at.mul_Tensor(at.mul_Tensor(at.sub_Tensor(wrapScalar(1), sig), sig), a), grad);
  return at.cat([at.mul_Tensor(sig, grad), gb], d);
}

/**
 * `renorm_backward` (FunctionsManual.cpp): where a slice's norm exceeds maxnorm, d(self · maxnorm / (norm + 1e-7)),
 * the norm's own derivative through norm_backward of Σ grad · self; elsewhere grad.
 */
export function renormBackward(grad: Tensor, self: Tensor, p: number | boolean, dim: number, maxnorm: number | boolean): Tensor {
  const d = dim < 0 ? dim + self.dim() : dim;
  const dims = [...Array(self.dim()).keys()].filter((i) => i !== d);
  const norm = at.linalg_vector_norm(self, Number(p), dims, true);
  const gradOutput = at.sum_dim_IntList(at.mul_Tensor(self, grad), dims, true);
  const nb = normBackward(gradOutput, self, p, norm, dims, true);
  const invnorm = at.reciprocal(at.add_Tensor(norm, wrapScalar(1e-7)));
  const factor = at.mul_Tensor(invnorm, wrapScalar(Number(maxnorm)));
  const inside = at.sub_Tensor(at.mul_Tensor(factor, grad), at.mul_Tensor(at.mul_Tensor(factor, invnorm), nb));
  return at.where_self(at.gt_Scalar(norm, maxnorm), inside, grad);
}

/**
 * `_euclidean_dist_backward(grad, x1, x2, res)`'s gradient of x1 (`which` 0) or x2 (1): ratio = grad / res, 0
 * where res is 0 (a subgradient), then x1·Σ_j ratio - ratio @ x2 and x2·Σ_i ratio - ratioᵀ @ x1.
 */
export function euclideanDistBackward(grad: Tensor, x1: Tensor, x2: Tensor, res: Tensor, which: 0 | 1): Tensor {
  const ratio = at.masked_fill__Scalar(at.div_Tensor(grad, res), at.eq_Scalar(res, 0), 0);
  if (which === 0) return at.sub_Tensor(at.mul_Tensor(x1, at.sum_dim_IntList(ratio, [-1], true)), at.matmul(ratio, x2));
  const ratioT = at.transpose_int(ratio, -2, -1);
  return at.sub_Tensor(at.mul_Tensor(x2, at.unsqueeze(at.sum_dim_IntList(ratio, [-2], false), -1)), at.matmul(ratioT, x1));
}

/** `grad.to(other.dtype())` without a dispatch when the dtypes already agree (the common case). */
function asDtypeOf(grad: Tensor, other: Tensor): Tensor {
  return grad.scalarType === other.scalarType ? grad : at.to_dtype(grad, other.scalarType);
}

/** softmax's backward: the native `_softmax_backward_data` (See Note [softmax backward over storage]). */
export function softmaxBackward(grad: Tensor, result: Tensor, dim: number, inputDtype: ScalarType): Tensor {
  return aten()._softmax_backward_data.call(asDtypeOf(grad, result), result, dim, inputDtype);
}

/** log_softmax's backward: the native `_log_softmax_backward_data`. */
export function logSoftmaxBackward(grad: Tensor, result: Tensor, dim: number, inputDtype: ScalarType): Tensor {
  return aten()._log_softmax_backward_data.call(asDtypeOf(grad, result), result, dim, inputDtype);
}

/** softmax_double_backward (FunctionsManual.cpp): grad_output * grad - (output * grad_output).sum(dim, true) * grad - grad_output * (output * grad).sum(dim, true). */
export function softmaxDoubleBackward(grad: Tensor, gradOutput: Tensor, dim: number, output: Tensor): Tensor {
  const g = asDtypeOf(grad, output);
  return at.sub_Tensor(
    at.sub_Tensor(at.mul_Tensor(gradOutput, g), at.mul_Tensor(at.sum_dim_IntList(at.mul_Tensor(output, gradOutput), [dim], true), g)),
    at.mul_Tensor(gradOutput, at.sum_dim_IntList(at.mul_Tensor(output, g), [dim], true)),
  );
}

/** `_log_softmax_backward_data`'s grad_output: grad - (grad * output.exp()).sum(dim, true). */
export function logSoftmaxGradOutputBackward(grad: Tensor, output: Tensor, dim: number): Tensor {
  const g = asDtypeOf(grad, output);
  return at.sub_Tensor(g, at.sum_dim_IntList(at.mul_Tensor(g, at.exp(output)), [dim], true));
}

/** `_log_softmax_backward_data`'s output: -grad_output.sum(dim, true) * output.exp() * grad. */
export function logSoftmaxOutputBackward(grad: Tensor, gradOutput: Tensor, dim: number, output: Tensor): Tensor {
  return at.mul_Tensor(at.mul_Tensor(at.neg(at.sum_dim_IntList(gradOutput, [dim], true)), at.exp(output)), asDtypeOf(grad, output));
}

/** `gelu_backward`. */
export function geluBackward(grad: Tensor, self: Tensor, approximate: string): Tensor {
  if (approximate === 'tanh') {
    const k = Math.sqrt(2 / Math.PI);
    const x3 = at.mul_Tensor(at.mul_Tensor(self, self), self);
    const inner = at.mul_Tensor(at.add_Tensor(self, at.mul_Tensor(x3, wrapScalar(0.044715))), wrapScalar(k));
    const t = at.tanh(inner);
    const dinner = at.mul_Tensor(
      at.add_Tensor(at.mul_Tensor(at.mul_Tensor(self, self), wrapScalar(3 * 0.044715)), wrapScalar(1)),
      wrapScalar(k),
    );
    const left = at.mul_Tensor(at.add_Tensor(t, wrapScalar(1)), wrapScalar(0.5));
    const right = at.mul_Tensor(
      at.mul_Tensor(at.mul_Tensor(self, wrapScalar(0.5)), at.add_Tensor(at.neg(at.mul_Tensor(t, t)), wrapScalar(1))),
      dinner,
    );
    return at.mul_Tensor(grad, at.add_Tensor(left, right));
  }
  const cdf = at.mul_Tensor(at.add_Tensor(at.erf(at.mul_Tensor(self, wrapScalar(Math.SQRT1_2))), wrapScalar(1)), wrapScalar(0.5));
  const pdf = at.mul_Tensor(at.exp(at.mul_Tensor(at.mul_Tensor(self, self), wrapScalar(-0.5))), wrapScalar(1 / Math.sqrt(2 * Math.PI)));
  return at.mul_Tensor(grad, at.add_Tensor(cdf, at.mul_Tensor(self, pdf)));
}

/** silu's gradient: sigmoid(x) (1 + x (1 - sigmoid(x))). */
export function siluBackward(grad: Tensor, self: Tensor): Tensor {
  const s = at.sigmoid(self);
  return at.mul_Tensor(grad, at.mul_Tensor(s, at.add_Tensor(at.mul_Tensor(self, at.add_Tensor(at.neg(s), wrapScalar(1))), wrapScalar(1))));
}

/** `threshold_backward(grad, result, 0)` for relu: the gradient where the output is positive. */
export function reluBackward(grad: Tensor, result: Tensor): Tensor {
  // One SIMD pass where it applies (the same values as the composite below, bit for bit).
  const fast = autogradState.gradMode && result.requiresGrad ? null : reluBackwardSimd(grad, result);
  if (fast !== null) return fast;
  const g = at.masked_fill_Scalar(grad, at.le_Scalar(result, 0), 0);
  // Under create_graph PyTorch's threshold_backward is itself differentiable in `result` (with a zero
  // derivative); adding 0 * result gives the first-order gradient that history, so double backward works.
  return autogradState.gradMode && result.requiresGrad ? at.add_Tensor(g, at.mul_Tensor(result, wrapScalar(0))) : g;
}

/** max_pool2d_with_indices's gradient: `max_pool2d_with_indices_backward` scatters it to the saved indices. */
export function maxPool2dWithIndicesBackward(
  grad: Tensor,
  self: Tensor,
  kernelSize: number[],
  stride: number[],
  padding: number[],
  dilation: number[],
  ceilMode: boolean,
  indices: Tensor,
): Tensor {
  return aten().max_pool2d_with_indices_backward.call(grad, self, kernelSize, stride, padding, dilation, ceilMode, indices);
}

/**
 * `max_pool_double_backward`: the derivative of the max-pool backward with respect to its output gradient,
 * which that backward scatters to the indices: a gather at the indices, per plane of the last `dim` dims.
 */
export function maxPoolDoubleBackward(grad: Tensor, indices: Tensor, dim: number): Tensor {
  const size = [...indices.sizes.slice(0, indices.dim() - dim), -1];
  return at.view(at.gather(at.reshape(grad, size), -1, at.reshape(indices, size)), [...indices.sizes]);
}

/** `avg_pool2d_backward`. */
export function avgPool2dBackward(
  grad: Tensor,
  self: Tensor,
  kernelSize: number[],
  stride: number[],
  padding: number[],
  ceilMode: boolean,
  countIncludePad: boolean,
  divisorOverride: number | null,
): Tensor {
  return aten().avg_pool2d_backward.call(grad, self, kernelSize, stride, padding, ceilMode, countIncludePad, divisorOverride);
}

/** avg_pool2d_backward is linear in the output gradient: its derivative there is avg_pool2d again. */
export function avgPool2dForward(
  grad: Tensor,
  kernelSize: number[],
  stride: number[],
  padding: number[],
  ceilMode: boolean,
  countIncludePad: boolean,
  divisorOverride: number | null,
): Tensor {
  return aten().avg_pool2d.call(grad, kernelSize, stride, padding, ceilMode, countIncludePad, divisorOverride);
}

/** `native_dropout_double_backward`: native_dropout_backward's gradient of grad_output, `ggI * mask * scale` in grad_output's dtype. */
export function nativeDropoutDoubleBackward(ggI: Tensor, grad: Tensor, mask: Tensor, scale: number): Tensor {
  return at.mul_Tensor(
    at._to_copy(ggI, grad.scalarType),
    at.mul_Tensor(at._to_copy(mask, grad.scalarType), wrapScalar(scale, ScalarType.Double)),
  );
}
