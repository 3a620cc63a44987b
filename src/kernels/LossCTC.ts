// ctc_loss (IntList and Tensor overloads), _ctc_loss and _ctc_loss_backward: the Connectionist Temporal
// Classification loss by the forward-backward algorithm of Graves et al. (2006) in log space. Mirrors
// aten/src/ATen/native/LossCTC.cpp: ctc_loss_allocate_outputs' checks and texts, the alpha recursion
// (eq. 6-8) of ctc_loss_cpu_template, the beta recursion and the collected alpha*beta (eq. 10-16) of
// ctc_loss_backward_cpu_template, each logsumexp as PyTorch computes it (the maximum subtracted, -inf kept
// out of inf - inf), and ctc_loss_impl's zero_infinity and reductions.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isIntegralType, notImplementedForDtype, scalarTypeToString } from '../c10/ScalarType.js';
import type { Tensor } from '../tensor/Tensor.js';
import { reader, writer } from './FloatAccess.js';
import { contiguousOf, elementReader, emptyLike } from './StorageAccess.js';
import { Reduction } from './Loss.js';
import * as at from '../generated/TensorBody.js';

const C = 'ctc_loss_allocate_outputs';
const NEGINF = -Infinity;

interface Layout {
  batch: number;
  labels: number;
  maxTarget: number;
  /** Per batch entry: its targets, read from the flat or the padded targets tensor. */
  targetAt: (b: number, i: number) => number;
}

/** ctc_loss_allocate_outputs' checks (and the target offsets they compute). */
function allocateChecks(logProbs: Tensor, targets: Tensor, inputLengths: number[], targetLengths: number[], blank: number): Layout {
  const tType = targets.scalarType === ScalarType.Long ? ScalarType.Long : ScalarType.Int;
  if (targets.scalarType !== tType) {
    throw new Error(
      `Expected tensor for argument #2 'targets' to have scalar type ${scalarTypeToString(tType)}; but got torch.${scalarTypeToString(targets.scalarType)}Tensor instead (while checking arguments for ${C})`,
    );
  }
  if (logProbs.dim() !== 3) {
    throw new Error(
      `Expected 3-dimensional tensor, but got ${logProbs.dim()}-dimensional tensor for argument #1 'log_probs' (while checking arguments for ${C})`,
    );
  }
  if (!(targets.dim() >= 1 && targets.dim() < 3)) {
    throw new Error(
      `Expected 1 to 2 dimensions, but got ${targets.dim()}-dimensional tensor for argument #2 'targets' (while checking arguments for ${C})`,
    );
  }
  const batch = logProbs.sizes[1] as number;
  const labels = logProbs.sizes[2] as number;
  if (!(blank >= 0 && blank < labels)) throw new Error('blank must be in label range');
  if (inputLengths.length !== batch) throw new Error('input_lengths must be of size batch_size');
  if (targetLengths.length !== batch) throw new Error('target_lengths must be of size batch_size');
  const checkNonNeg = (v: number, what: string): void => {
    if (v < 0) throw new Error(`Expected ${what} to have value at least 0, but got value ${v} (while checking arguments for ${C})`);
  };
  const sizeError = (want: number, dim: number): Error =>
    new Error(
      `Expected tensor to have size ${want} at dimension ${dim}, but got size ${targets.sizes[dim]} for argument #2 'targets' (while checking arguments for ${C})`,
    );
  const offsets: number[] = [];
  let maxTarget = 0;
  let pos = 0;
  for (let b = 0; b < batch; b++) {
    const tl = targetLengths[b] as number;
    checkNonNeg(tl, 'target_lengths');
    offsets.push(pos);
    pos += tl;
    if (maxTarget < tl) maxTarget = tl;
  }
  const flat = targets.dim() === 1;
  if (flat) {
    if (targets.sizes[0] !== pos) throw sizeError(pos, 0);
  } else {
    if (targets.sizes[0] !== batch) throw sizeError(batch, 0);
    if ((targets.sizes[1] as number) < maxTarget) {
      throw new Error(
        `Expected tensor to have size at least ${maxTarget} at dimension 1, but got size ${targets.sizes[1]} for argument #2 'targets' (while checking arguments for ${C})`,
      );
    }
  }
  const T = logProbs.sizes[0] as number;
  for (const il of inputLengths) {
    checkNonNeg(il, 'input_lengths');
    if (il > T)
      throw new Error(`Expected input_lengths to have value at most ${T}, but got value ${il} (while checking arguments for ${C})`);
  }
  let targetAt: Layout['targetAt'] = () => 0;
  if (!targets.isMeta()) {
    // (copied out: a reader over the storage would go stale when the outputs' allocation grows the memory)
    const c = contiguousOf(targets);
    const read0 = elementReader(c);
    const vals = Array.from({ length: c.numel() }, (_, i) => read0(i));
    const read = (i: number): number => vals[i] as number;
    const width = flat ? 0 : (targets.sizes[1] as number);
    targetAt = flat ? (b, i) => read((offsets[b] as number) + i) : (b, i) => read(b * width + i);
  }
  return { batch, labels, maxTarget, targetAt };
}

/** get_target_prime: the augmented target l' (blanks between and around the labels). */
const prime = (L: Layout, b: number, s: number, blank: number): number => (s % 2 === 0 ? blank : L.targetAt(b, (s - 1) / 2));

function floatingDtype(logProbs: Tensor, op: string): (v: number) => number {
  const dt = logProbs.scalarType;
  if (dt !== ScalarType.Float && dt !== ScalarType.Double) throw notImplementedForDtype(op, dt);
  return dt === ScalarType.Float ? Math.fround : (v) => v;
}

/** log(exp(a - m) + exp(b - m) + exp(c - m)) + m, m the maximum (0 when all are -inf), in scalar_t. */
function logsumexp3(a: number, b: number, c: number, r: (v: number) => number): number {
  let m = a;
  if (b > m) m = b;
  if (c > m) m = c;
  if (m === NEGINF) m = 0;
  const e = (v: number): number => r(Math.exp(r(v - m)));
  return r(r(Math.log(r(r(e(a) + e(b)) + e(c)))) + m);
}

/** `_ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, zero_infinity=False)` (ctc_loss_cpu / ctc_loss_meta). */
export function ctcLossInternal(
  _ks: DispatchKeySet,
  logProbs: Tensor,
  targets: Tensor,
  inputLengths: number[],
  targetLengths: number[],
  blank = 0,
  _zeroInfinity = false,
): [Tensor, Tensor] {
  if (logProbs.isMeta()) floatingDtype(logProbs, 'ctc_loss_meta');
  else {
    if (!(logProbs.numel() > 0)) throw new Error('log_probs tensor must not be empty');
  }
  const r = logProbs.isMeta() ? (v: number): number => v : floatingDtype(logProbs, 'ctc_loss_cpu');
  const L = allocateChecks(logProbs, targets, inputLengths, targetLengths, blank);
  const T = logProbs.sizes[0] as number;
  const S = 2 * L.maxTarget + 1;
  const logAlpha = emptyLike(logProbs, [L.batch, T, S]);
  const nll = emptyLike(logProbs, [L.batch]);
  if (logProbs.isMeta()) return [nll, logAlpha];
  const lp = reader(contiguousOf(logProbs));
  const lpAt = (b: number, t: number, c: number): number => lp((t * L.batch + b) * L.labels + c);
  const alpha = new Float64Array(L.batch * T * S).fill(NEGINF);
  const out = new Float64Array(L.batch);
  for (let b = 0; b < L.batch; b++) {
    const il = inputLengths[b] as number;
    const tl = targetLengths[b] as number;
    const a = (t: number, s: number): number => (b * T + t) * S + s;
    if (il === 0) {
      out[b] = tl === 0 ? -0 : Infinity;
      continue;
    }
    alpha[a(0, 0)] = lpAt(b, 0, blank);
    if (tl > 0) alpha[a(0, 1)] = lpAt(b, 0, prime(L, b, 1, blank));
    for (let t = 1; t < il; t++) {
      for (let s = 0; s < 2 * tl + 1; s++) {
        const cur = prime(L, b, s, blank);
        const la1 = alpha[a(t - 1, s)] as number;
        const la2 = s > 0 ? (alpha[a(t - 1, s - 1)] as number) : NEGINF;
        const la3 = s > 1 && prime(L, b, s - 2, blank) !== cur ? (alpha[a(t - 1, s - 2)] as number) : NEGINF;
        alpha[a(t, s)] = r(logsumexp3(la1, la2, la3, r) + lpAt(b, t, cur));
      }
    }
    if (tl === 0) out[b] = -(alpha[a(il - 1, 0)] as number);
    else out[b] = -logsumexp3(alpha[a(il - 1, 2 * tl)] as number, alpha[a(il - 1, 2 * tl - 1)] as number, NEGINF, r);
  }
  const [wa, wn] = [writer(logAlpha), writer(nll)];
  for (let i = 0; i < alpha.length; i++) wa(i, alpha[i] as number);
  for (let b = 0; b < L.batch; b++) wn(b, out[b] as number);
  return [nll, logAlpha];
}

/** `_ctc_loss_backward(grad, log_probs, targets, input_lengths, target_lengths, neg_log_likelihood, log_alpha, blank, zero_infinity=False)`. */
export function ctcLossBackward(
  _ks: DispatchKeySet,
  gradOut: Tensor,
  logProbs: Tensor,
  targets: Tensor,
  inputLengths: number[],
  targetLengths: number[],
  negLogLikelihood: Tensor,
  logAlpha: Tensor,
  blank: number,
  zeroInfinity = false,
): Tensor {
  const grad = emptyLike(logProbs, [...logProbs.sizes]);
  if (logProbs.isMeta()) return grad;
  const r = floatingDtype(logProbs, 'ctc_loss_backward_cpu');
  const L = allocateChecks(logProbs, targets, inputLengths, targetLengths, blank);
  const T = logProbs.sizes[0] as number;
  const S = logAlpha.sizes[2] as number;
  const cs = [logProbs, logAlpha, negLogLikelihood, gradOut].map(contiguousOf);
  const [lp, la, nllAt, go] = cs.map(reader) as [
    (e: number) => number,
    (e: number) => number,
    (e: number) => number,
    (e: number) => number,
  ];
  const idx = (b: number, t: number, c: number): number => (t * L.batch + b) * L.labels + c;
  const g = new Float64Array(logProbs.numel()).fill(NEGINF);
  const beta = new Float64Array(L.batch * T * S);
  for (let b = 0; b < L.batch; b++) {
    const nll = nllAt(b);
    const zeroRows = (from: number): void => {
      for (let t = from; t < T; t++) for (let c = 0; c < L.labels; c++) g[idx(b, t, c)] = 0;
    };
    if (zeroInfinity && nll === Infinity) {
      zeroRows(0);
      continue;
    }
    const il = inputLengths[b] as number;
    const tl = targetLengths[b] as number;
    const ab = (t: number, s: number): number => (b * T + t) * S + s;
    if (il > 0) {
      for (let s = 0; s < S; s++) beta[ab(il - 1, s)] = NEGINF;
      beta[ab(il - 1, 2 * tl)] = lp(idx(b, il - 1, blank));
      g[idx(b, il - 1, blank)] = r(la(ab(il - 1, 2 * tl)) + (beta[ab(il - 1, 2 * tl)] as number));
      if (tl > 0) {
        const cur = prime(L, b, 2 * tl - 1, blank);
        beta[ab(il - 1, 2 * tl - 1)] = lp(idx(b, il - 1, cur));
        g[idx(b, il - 1, cur)] = r(la(ab(il - 1, 2 * tl - 1)) + (beta[ab(il - 1, 2 * tl - 1)] as number));
      }
    }
    for (let t = il - 2; t >= 0; t--) {
      for (let s = 2 * tl; s >= 0; s--) {
        const cur = prime(L, b, s, blank);
        const lb1 = beta[ab(t + 1, s)] as number;
        const lb2 = s < 2 * tl ? (beta[ab(t + 1, s + 1)] as number) : NEGINF;
        const lb3 = s < 2 * tl - 1 && prime(L, b, s + 2, blank) !== cur ? (beta[ab(t + 1, s + 2)] as number) : NEGINF;
        beta[ab(t, s)] = r(logsumexp3(lb1, lb2, lb3, r) + lp(idx(b, t, cur)));
        // collected[b, t, l'[s]] "log+=" log_alpha[t, s] + log_beta[t, s]
        const lab = r(la(ab(t, s)) + (beta[ab(t, s)] as number));
        const lcab = g[idx(b, t, cur)] as number;
        if (lcab === NEGINF) g[idx(b, t, cur)] = lab;
        else {
          const m = Math.max(lcab, lab);
          g[idx(b, t, cur)] = r(r(Math.log(r(r(Math.exp(r(lcab - m))) + r(Math.exp(r(lab - m)))))) + m);
        }
      }
    }
    const gr = go(b);
    for (let t = 0; t < il; t++) {
      for (let c = 0; c < L.labels; c++) {
        const e = idx(b, t, c);
        const p = lp(e);
        g[e] = r(r(r(Math.exp(p)) - r(Math.exp(r(r((g[e] as number) + nll) - p)))) * gr);
      }
    }
    zeroRows(il);
  }
  const w = writer(grad);
  for (let i = 0; i < g.length; i++) w(i, g[i] as number);
  return grad;
}

/** The lengths of the Tensor overloads as lists ("input_lengths must be integral"). */
function lengthsOf(t: Tensor, what: string): number[] {
  if (!isIntegralType(t.scalarType, false)) throw new Error(`${what} must be integral`);
  const read = elementReader(contiguousOf(t));
  return Array.from({ length: t.numel() }, (_, i) => read(i));
}

/** `_ctc_loss.Tensor(...)` (ctc_loss_tensor): the lengths as lists, then _ctc_loss. */
export function ctcLossTensorInternal(
  _ks: DispatchKeySet,
  logProbs: Tensor,
  targets: Tensor,
  inputLengths: Tensor,
  targetLengths: Tensor,
  blank = 0,
  zeroInfinity = false,
): [Tensor, Tensor] {
  const il = lengthsOf(inputLengths, 'input_lengths');
  const tl = lengthsOf(targetLengths, 'target_lengths');
  return at._ctc_loss(logProbs, targets, il, tl, blank, zeroInfinity);
}

/** `_ctc_loss_backward.Tensor(...)` (ctc_loss_backward_tensor). */
export function ctcLossBackwardTensor(
  _ks: DispatchKeySet,
  grad: Tensor,
  logProbs: Tensor,
  targets: Tensor,
  inputLengths: Tensor,
  targetLengths: Tensor,
  negLogLikelihood: Tensor,
  logAlpha: Tensor,
  blank: number,
  zeroInfinity = false,
): Tensor {
  const il = lengthsOf(inputLengths, 'input_lengths');
  const tl = lengthsOf(targetLengths, 'target_lengths');
  return at._ctc_loss_backward(grad, logProbs, targets, il, tl, negLogLikelihood, logAlpha, blank, zeroInfinity);
}

/** ctc_loss_impl: an unbatched [T, C] input as a batch of one, zero_infinity, and the reduction. */
function ctcLossImpl(
  logProbs_: Tensor,
  targets: Tensor,
  inputLengths: number[],
  targetLengths: number[],
  blank: number,
  reduction: number,
  zeroInfinity: boolean,
): Tensor {
  const batched = logProbs_.dim() === 3;
  const logProbs = batched ? logProbs_ : at.unsqueeze(logProbs_, 1);
  const longTargets = targets.scalarType === ScalarType.Long ? targets : at._to_copy(targets, ScalarType.Long);
  let res = at._ctc_loss(logProbs, longTargets, inputLengths, targetLengths, blank, zeroInfinity)[0];
  if (zeroInfinity) {
    const zero = at.zeros([], res.scalarType, null, res.device);
    res = at.where_self(at.eq_Scalar(res, Infinity), zero, res);
  }
  if (reduction === Reduction.Mean) {
    // at::tensor(target_lengths, res.options()).clamp_min(1)
    const list = emptyLike(res, [targetLengths.length]);
    const w = writer(list);
    targetLengths.forEach((v, i) => w(i, v));
    const lengths = at.clamp_min(list, 1);
    return at.mean(at.div_Tensor(res, lengths));
  }
  if (reduction === Reduction.Sum) return at.sum(res);
  return batched ? res : at.squeeze_dim(res, 0);
}

/** `ctc_loss.IntList(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=Mean, zero_infinity=False)`. */
export function ctcLoss(
  _ks: DispatchKeySet,
  logProbs: Tensor,
  targets: Tensor,
  inputLengths: number[],
  targetLengths: number[],
  blank = 0,
  reduction: number = Reduction.Mean,
  zeroInfinity = false,
): Tensor {
  return ctcLossImpl(logProbs, targets, inputLengths, targetLengths, blank, reduction, zeroInfinity);
}

/** `ctc_loss.Tensor(...)`: the lengths as lists (the fast path of regular tensors), then ctc_loss.IntList's body. */
export function ctcLossTensor(
  _ks: DispatchKeySet,
  logProbs: Tensor,
  targets: Tensor,
  inputLengths: Tensor,
  targetLengths: Tensor,
  blank = 0,
  reduction: number = Reduction.Mean,
  zeroInfinity = false,
): Tensor {
  const il = lengthsOf(inputLengths, 'input_lengths');
  const tl = lengthsOf(targetLengths, 'target_lengths');
  return ctcLossImpl(logProbs, targets, il, tl, blank, reduction, zeroInfinity);
}
