// nn.functional: the margin and embedding losses (hinge_embedding_loss, margin_ranking_loss,
// soft_margin_loss, multilabel_soft_margin_loss, multi_margin_loss, multilabel_margin_loss, cosine_embedding_loss, poisson_nll_loss,
// triplet_margin_loss) and glu / pixel_shuffle / pixel_unshuffle / channel_shuffle. Mirrors those parts of
// torch/nn/functional.py: the Python checks, `_Reduction`, then the native operator or PyTorch's Python form.

import type { Tensor } from '../../tensor/Tensor.js';
import * as torch from '../../api/torch.js';
import { parseArgs, pyFloat, type Rest } from '../modules/utils.js';
import { reductionEnum, type Reduction } from './loss.js';

export { channel_shuffle, pixel_shuffle, pixel_unshuffle } from '../../api/torch.js';

type Legacy = { size_average?: boolean | null; reduce?: boolean | null; reduction?: Reduction };
const LEGACY = { size_average: null as boolean | null, reduce: null as boolean | null, reduction: 'mean' as string };

/** `_Reduction.legacy_get_string` when size_average or reduce is given, else the reduction string. */
function reductionString(a: { size_average: boolean | null; reduce: boolean | null; reduction: string }): string {
  if (a.size_average === null && a.reduce === null) return a.reduction;
  return a.reduce === false ? 'none' : a.size_average === false ? 'sum' : 'mean';
}
const reductionOf = (a: { size_average: boolean | null; reduce: boolean | null; reduction: string }): number =>
  reductionEnum(reductionString(a));

/** `F.glu(input, dim=-1)`: torch._C._nn.glu (GluBackward0). */
export function glu(input: Tensor, ...rest: Rest<[dim: number], { dim?: number }>): Tensor {
  const { dim } = parseArgs('glu', { dim: -1 }, rest);
  if (input.dim() === 0) throw new Error('glu does not support scalars because halving size must be even');
  return torch.glu(input, dim);
}

/** `F.hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction='mean')`. */
export function hinge_embedding_loss(
  input: Tensor,
  target: Tensor,
  ...rest: Rest<[margin: number, size_average: boolean | null, reduce: boolean | null, reduction: Reduction], Legacy & { margin?: number }>
): Tensor {
  const a = parseArgs('hinge_embedding_loss', { margin: 1.0, ...LEGACY }, rest);
  return torch.hinge_embedding_loss(input, target, a.margin, reductionOf(a));
}

const sizeStr = (t: Tensor): string => `torch.Size([${t.sizes.join(', ')}])`;

/** `F.margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction='mean')`. */
export function margin_ranking_loss(
  input1: Tensor,
  input2: Tensor,
  target: Tensor,
  ...rest: Rest<[margin: number, size_average: boolean | null, reduce: boolean | null, reduction: Reduction], Legacy & { margin?: number }>
): Tensor {
  const a = parseArgs('margin_ranking_loss', { margin: 0, ...LEGACY }, rest);
  const reduction = reductionOf(a);
  if (input1.dim() !== input2.dim() || input1.dim() !== target.dim()) {
    throw new Error(
      `margin_ranking_loss : All input tensors should have same dimension but got sizes: input1: ${sizeStr(input1)}, input2: ${sizeStr(input2)}, target: ${sizeStr(target)} `,
    );
  }
  return torch.margin_ranking_loss(input1, input2, target, a.margin, reduction);
}

/** `F.soft_margin_loss(input, target, size_average=None, reduce=None, reduction='mean')`. */
export function soft_margin_loss(
  input: Tensor,
  target: Tensor,
  ...rest: Rest<[size_average: boolean | null, reduce: boolean | null, reduction: Reduction], Legacy>
): Tensor {
  const a = parseArgs('soft_margin_loss', { ...LEGACY }, rest);
  return torch.soft_margin_loss(input, target, reductionOf(a));
}

/** `F.multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction='mean')`: PyTorch's Python form. */
export function multilabel_soft_margin_loss(
  input: Tensor,
  target: Tensor,
  ...rest: Rest<
    [weight: Tensor | null, size_average: boolean | null, reduce: boolean | null, reduction: Reduction],
    Legacy & { weight?: Tensor | null }
  >
): Tensor {
  const a = parseArgs('multilabel_soft_margin_loss', { weight: null as Tensor | null, ...LEGACY }, rest);
  const reduction = reductionString(a);
  const pos = torch.mul(target, torch.log_sigmoid(input));
  const neg = torch.mul(torch.add(torch.neg(target), 1), torch.log_sigmoid(torch.neg(input)));
  let loss = torch.neg(torch.add(pos, neg));
  if (a.weight !== null) loss = torch.mul(loss, a.weight);
  const classDim = input.dim() - 1;
  const c = input.dim() === 0 ? 1 : (input.sizes[classDim] as number);
  loss = torch.div(torch.sum(loss, [classDim]), c);
  if (reduction === 'none') return loss;
  if (reduction === 'mean') return torch.mean(loss);
  if (reduction === 'sum') return torch.sum(loss);
  throw new Error(`${reduction} is not valid`);
}

/** `F.cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction='mean')`. */
export function cosine_embedding_loss(
  input1: Tensor,
  input2: Tensor,
  target: Tensor,
  ...rest: Rest<[margin: number, size_average: boolean | null, reduce: boolean | null, reduction: Reduction], Legacy & { margin?: number }>
): Tensor {
  const a = parseArgs('cosine_embedding_loss', { margin: 0, ...LEGACY }, rest);
  return torch.cosine_embedding_loss(input1, input2, target, a.margin, reductionOf(a));
}

/** `F.poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None, reduction='mean')`. */
export function poisson_nll_loss(
  input: Tensor,
  target: Tensor,
  ...rest: Rest<
    [log_input: boolean, full: boolean, size_average: boolean | null, eps: number, reduce: boolean | null, reduction: Reduction],
    Legacy & { log_input?: boolean; full?: boolean; eps?: number }
  >
): Tensor {
  const a = parseArgs(
    'poisson_nll_loss',
    {
      log_input: true,
      full: false,
      size_average: null as boolean | null,
      eps: 1e-8,
      reduce: null as boolean | null,
      reduction: 'mean' as string,
    },
    rest,
  );
  const reduction = reductionString(a);
  if (reduction !== 'none' && reduction !== 'mean' && reduction !== 'sum')
    throw new Error(`${reduction} is not a valid value for reduction`);
  return torch.poisson_nll_loss(input, target, a.log_input, a.full, a.eps, reductionEnum(reduction));
}

/** `F.triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, size_average=None, reduce=None, reduction='mean')`. */
export function triplet_margin_loss(
  anchor: Tensor,
  positive: Tensor,
  negative: Tensor,
  ...rest: Rest<
    [margin: number, p: number, eps: number, swap: boolean, size_average: boolean | null, reduce: boolean | null, reduction: Reduction],
    Legacy & { margin?: number; p?: number; eps?: number; swap?: boolean }
  >
): Tensor {
  const a = parseArgs('triplet_margin_loss', { margin: 1.0, p: 2, eps: 1e-6, swap: false, ...LEGACY }, rest);
  const reduction = reductionOf(a);
  if (a.margin <= 0) throw new Error(`margin must be greater than 0, got ${pyFloat(a.margin)}`);
  return torch.triplet_margin_loss(anchor, positive, negative, a.margin, a.p, a.eps, a.swap, reduction);
}

/** `F.gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction='mean')`: PyTorch's Python form. */
export function gaussian_nll_loss(
  input: Tensor,
  target: Tensor,
  variance: Tensor | number,
  ...rest: Rest<[full: boolean, eps: number, reduction: Reduction], { full?: boolean; eps?: number; reduction?: Reduction }>
): Tensor {
  const a = parseArgs('gaussian_nll_loss', { full: false, eps: 1e-6, reduction: 'mean' as string }, rest);
  let v: Tensor;
  if (typeof variance === 'number') {
    if (variance < 0) throw new Error('var has negative entry/entries');
    v = torch.mul(torch.ones_like(input), variance);
  } else {
    if (torch.any(torch.lt(variance, 0)).item()) throw new Error('var has negative entry/entries');
    v = variance;
  }
  const same = (x: readonly number[], y: readonly number[]): boolean => x.length === y.length && x.every((s, k) => s === y[k]);
  if (!same(v.sizes, input.sizes)) {
    if (same(input.sizes.slice(0, -1), v.sizes)) v = torch.unsqueeze(v, -1);
    else if (!(input.dim() === v.dim() && v.sizes.reduce((s, y, k) => (y !== input.sizes[k] ? s + y : s), 0) === 1)) {
      throw new Error('var is of incorrect size');
    }
  }
  if (a.reduction !== 'none' && a.reduction !== 'mean' && a.reduction !== 'sum') throw new Error(`${a.reduction} is not valid`);
  v = torch.clone(v);
  const clamped = v;
  torch.no_grad(() => torch.clamp_(clamped, a.eps));
  let loss = torch.mul(torch.add(torch.log(v), torch.div(torch.pow(torch.sub(input, target), 2), v)), 0.5);
  if (a.full) loss = loss.add_(0.5 * Math.log(2 * Math.PI));
  if (a.reduction === 'mean') return torch.mean(loss);
  if (a.reduction === 'sum') return torch.sum(loss);
  return loss;
}

/**
 * `F.triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0,
 * swap=False, reduction='mean')`: PyTorch's Python form over `distance_function` (default
 * `torch.pairwise_distance`).
 */
export function triplet_margin_with_distance_loss(
  anchor: Tensor,
  positive: Tensor,
  negative: Tensor,
  options: {
    distance_function?: ((a: Tensor, b: Tensor) => Tensor) | null;
    margin?: number;
    swap?: boolean;
    reduction?: Reduction;
  } = {},
): Tensor {
  const a = parseArgs(
    'triplet_margin_with_distance_loss',
    { distance_function: null as ((a: Tensor, b: Tensor) => Tensor) | null, margin: 1.0, swap: false, reduction: 'mean' as string },
    [options],
  );
  if (a.reduction !== 'mean' && a.reduction !== 'sum' && a.reduction !== 'none')
    throw new Error(`${a.reduction} is not a valid value for reduction`);
  if (a.margin <= 0) throw new Error(`margin must be greater than 0, got ${pyFloat(a.margin)}`);
  const [ad, pd, nd] = [anchor.dim(), positive.dim(), negative.dim()];
  if (!(ad === pd && pd === nd)) {
    throw new Error(
      `The anchor, positive, and negative tensors are expected to have the same number of dimensions, but got: anchor ${ad}D, positive ${pd}D, and negative ${nd}D inputs`,
    );
  }
  const dist = a.distance_function ?? ((x: Tensor, y: Tensor): Tensor => torch.pairwise_distance(x, y));
  const distPos = dist(anchor, positive);
  let distNeg = dist(anchor, negative);
  if (a.swap) distNeg = torch.minimum(distNeg, dist(positive, negative));
  const loss = torch.clamp_min(distPos.add(a.margin).sub(distNeg), 0);
  return a.reduction === 'sum' ? torch.sum(loss) : a.reduction === 'mean' ? torch.mean(loss) : loss;
}

/** `F.multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None, reduction='mean')`. */
export function multi_margin_loss(
  input: Tensor,
  target: Tensor,
  ...rest: Rest<
    [p: number, margin: number, weight: Tensor | null, size_average: boolean | null, reduce: boolean | null, reduction: Reduction],
    Legacy & { p?: number; margin?: number; weight?: Tensor | null }
  >
): Tensor {
  const a = parseArgs('multi_margin_loss', { p: 1, margin: 1.0, weight: null as Tensor | null, ...LEGACY }, rest);
  const reduction = reductionOf(a);
  if (a.p !== 1 && a.p !== 2) throw new Error('only p == 1 and p == 2 supported');
  if (a.weight !== null && a.weight.dim() !== 1) throw new Error('weight must be one-dimensional');
  return torch.multi_margin_loss(input, target, a.p, a.margin, a.weight, reduction);
}

/** `F.multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction='mean')`. */
export function multilabel_margin_loss(
  input: Tensor,
  target: Tensor,
  ...rest: Rest<[size_average: boolean | null, reduce: boolean | null, reduction: Reduction], Legacy>
): Tensor {
  const a = parseArgs('multilabel_margin_loss', { ...LEGACY }, rest);
  return torch.multilabel_margin_loss(input, target, reductionOf(a));
}
