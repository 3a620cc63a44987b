// cosine_similarity and pairwise_distance, CompositeImplicitAutograd as in PyTorch; pdist; cdist (`cdist`,
// `_cdist_forward`, `_cdist_backward`, `_euclidean_dist`). Mirrors aten/src/ATen/native/Distance.cpp and
// cpu/DistanceOpsKernel.cpp.

import { autogradState } from '../c10/AutogradState.js';
import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isFloatingType, scalarTypeToString } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import * as at from '../generated/TensorBody.js';
import { inferSize } from '../tensor/ExpandUtils.js';
import { resultType } from '../iter/resultType.js';
import { wrapScalar } from '../tensor/ScalarOps.js';
import type { Tensor } from '../tensor/Tensor.js';
import { writeElement } from '../tensor/elements.js';
import { contiguousOf, elementReader, emptyLike, storedElements } from './StorageAccess.js';
import { rounderFor } from './UnaryOpsKernel.js';

/**
 * `cosine_similarity(x1, x2, dim=1, eps=1e-08)`: each input divided by its 2-norm along `dim` (clamped to eps
 * without recording it, as PyTorch's NoGradGuard), then the sum of their product (SumBackward1).
 */
export function cosineSimilarity(_ks: DispatchKeySet, x1: Tensor, x2: Tensor, dim = 1, eps = 1e-8): Tensor {
  const ops = aten();
  const common = resultType([x1, x2]);
  if (!isFloatingType(common)) {
    throw new Error(`expected common dtype to be floating point, yet common dtype is ${scalarTypeToString(common)}`);
  }
  const cast = (t: Tensor): Tensor => (isFloatingType(t.scalarType) ? t : ops.to_dtype.call(t, common, false, false, null));
  const sizes = inferSize(x1.sizes, x2.sizes);
  const a = ops.expand.call(cast(x1), sizes, false);
  const b = ops.expand.call(cast(x2), sizes, false);
  const n1 = ops.clone.call(ops.norm_ScalarOpt_dim.call(a, 2, [dim], true), null);
  const n2 = ops.clone.call(ops.norm_ScalarOpt_dim.call(b, 2, [dim], true), null);
  const grad = autogradState.gradMode;
  autogradState.gradMode = false;
  try {
    ops.clamp_.call(n1, eps, null);
    ops.clamp_.call(n2, eps, null);
  } finally {
    autogradState.gradMode = grad;
  }
  return ops.sum_dim_IntList.call(ops.mul_Tensor.call(ops.div_Tensor.call(a, n1), ops.div_Tensor.call(b, n2)), [dim], false, null);
}

/** `pairwise_distance(x1, x2, p=2., eps=1e-06, keepdim=False)`: `norm(x1 - x2 + eps, p, last dim, keepdim)` (NormBackward1). */
export function pairwiseDistance(_ks: DispatchKeySet, x1: Tensor, x2: Tensor, p = 2, eps = 1e-6, keepdim = false): Tensor {
  const ops = aten();
  const innermost = Math.max(x1.dim(), x2.dim()) - 1;
  return ops.norm_ScalarOpt_dim.call(
    ops.add_Tensor.call(ops.sub_Tensor.call(x1, x2, 1), wrapScalar(eps, ScalarType.Double), 1),
    p,
    [innermost],
    keepdim,
  );
}

/** `dist(self, other, p=2)`: the p-norm of the difference (Distance.cpp; DistBackward0). */
export function dist(_ks: DispatchKeySet, self: Tensor, other: Tensor, p: number | boolean = 2): Tensor {
  return aten().norm_Scalar.call(aten().sub_Tensor.call(self, other, 1), p);
}

// ---- pdist: the p-norm distance of every pair of rows (i < j), row-major over the pairs, and its backward
// (Distance.cpp, native/cpu/DistanceOpsKernel.cpp). Computed in double and rounded once to the dtype (PyTorch's
// float kernel accumulates in float vectors: a few ulps apart).

/** `pdist(self, p=2)`, CompositeImplicitAutograd: the checks, then `_pdist_forward` of the contiguous input. */
export function pdist(_ks: DispatchKeySet, self: Tensor, p = 2): Tensor {
  if (self.dim() !== 2) throw new Error(`pdist only supports 2D tensors, got: ${self.dim()}D`);
  if (!isFloatingType(self.scalarType)) throw new Error('pdist only supports floating-point dtypes');
  if (!(p >= 0)) throw new Error('pdist only supports non-negative p values');
  return aten()._pdist_forward.call(contiguousOf(self), p);
}

/** The p-norm of the differences of two rows. */
function pnorm(x: (e: number) => number, a: number, b: number, m: number, p: number): number {
  let acc = 0;
  for (let k = 0; k < m; k++) {
    const d = Math.abs(x(a + k) - x(b + k));
    if (p === 0) acc += d !== 0 ? 1 : 0;
    else if (p === 1) acc += d;
    else if (p === 2) acc += d * d;
    else if (p === Infinity) acc = Math.max(acc, d);
    else acc += d ** p;
  }
  return p === 0 || p === 1 || p === Infinity ? acc : p === 2 ? Math.sqrt(acc) : acc ** (1 / p);
}

export function pdistForward(_ks: DispatchKeySet, self: Tensor, p = 2): Tensor {
  if (!self.isContiguous()) throw new Error('_pdist_forward requires contiguous input');
  const [n, m] = self.sizes as [number, number];
  const c = n <= 1 ? 0 : (n * (n - 1)) / 2;
  const out = emptyLike(self, [c]);
  if (self.isMeta() || c === 0) return out;
  const x = elementReader(self);
  const r = rounderFor(self.scalarType);
  const y = storedElements(out);
  let k = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) writeElement(out.scalarType, y.data, y.base + k++ * y.lanes, r(pnorm(x, i * m, j * m, m, p)));
  }
  return out;
}

/** The gradient of one pair's distance in (x_i - x_j) per element: PyTorch's `backward` of each p. */
function pdistGrad(diff: number, grad: number, dist: number, p: number): number {
  if (p === 0) return 0;
  const sign = diff > 0 ? 1 : diff < 0 ? -1 : 0;
  if (p === 1) return sign * grad;
  if (p === 2) return dist === 0 ? 0 : (grad * diff) / dist;
  if (p === Infinity) return grad * sign * (Math.abs(diff) === dist ? 1 : 0);
  if (p < 2) return dist === 0 || (diff === 0 && p < 1) ? 0 : (sign * Math.abs(diff) ** (p - 1) * grad) / dist ** (p - 1);
  return dist === 0 ? 0 : (diff * Math.abs(diff) ** (p - 2) * grad) / dist ** (p - 1);
}

/** `_pdist_backward(grad, self, p, pdist)`: each pair's gradient added to row i and subtracted from row j. */
export function pdistBackward(_ks: DispatchKeySet, grad: Tensor, self: Tensor, p: number, pdistOut: Tensor): Tensor {
  if (!self.isContiguous()) throw new Error('_pdist_backward requires self to be contiguous');
  if (!pdistOut.isContiguous()) throw new Error('_pdist_backward requires pdist to be contiguous');
  const [n, m] = self.sizes as [number, number];
  const out = emptyLike(self, [n, m]);
  if (self.isMeta() || grad.isMeta()) return out;
  const acc = new Float64Array(n * m);
  if (n > 1 && m > 0 && p !== 0) {
    const [x, g, d] = [elementReader(self), elementReader(contiguousOf(grad)), elementReader(pdistOut)];
    let k = 0;
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++, k++) {
        const [gk, dk] = [g(k), d(k)];
        for (let c = 0; c < m; c++) {
          const v = pdistGrad(x(i * m + c) - x(j * m + c), gk, dk, p);
          acc[i * m + c] = (acc[i * m + c] as number) + v;
          acc[j * m + c] = (acc[j * m + c] as number) - v;
        }
      }
    }
  }
  const r = rounderFor(self.scalarType);
  const y = storedElements(out);
  for (let e = 0; e < n * m; e++) writeElement(out.scalarType, y.data, y.base + e * y.lanes, r(acc[e] as number));
  return out;
}

// Note [cdist's two algorithms]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// cdist with p = 2 takes `_euclidean_dist` (|x1|² - 2 x1·x2 + |x2|² by one matmul, clamped at 1e-30, then sqrt)
// when compute_mode is 1 ('use_mm_for_euclid_dist'), or 0 (the default) with more than 25 rows on either side;
// then autograd sees _euclidean_dist's own graph (EuclideanDistBackward0). Every other case is
// `_cdist_forward` (CdistBackward0): for each pair of rows, a sequential loop over the columns in the input's
// precision, agg = red(agg, map(|a - b|)) then finish(agg) — p = 0: count of nonzero differences, 1: sum,
// 2: sqrt of the sum of squares (no fused multiply-add: the wheel's float32 results are the plain roundings),
// inf: max, else (Σ |d|^p)^(1/p). Its backward sums each row's per-pair terms in the same row order.

const usesEuclid = (p: number, mode: number, r1: number, r2: number): boolean =>
  p === 2 && (mode === 1 || (mode === 0 && (r1 > 25 || r2 > 25)));

function checkCdist(x1: Tensor, x2: Tensor): void {
  if (x1.dim() < 2) throw new Error(`cdist only supports at least 2D tensors, X1 got: ${x1.dim()}D`);
  if (x2.dim() < 2) throw new Error(`cdist only supports at least 2D tensors, X2 got: ${x2.dim()}D`);
  const c1 = x1.sizes[x1.dim() - 1] as number;
  const c2 = x2.sizes[x2.dim() - 1] as number;
  if (c1 !== c2) throw new Error(`X1 and X2 must have the same number of columns. X1: ${c1} X2: ${c2}`);
}

/** `cdist(x1, x2, p=2, compute_mode=None)`. See Note [cdist's two algorithms]. */
export function cdist(_ks: DispatchKeySet, x1: Tensor, x2: Tensor, p = 2, computeMode: number | null = null): Tensor {
  checkCdist(x1, x2);
  if (x1.numel() === 0 || x2.numel() === 0) return at._cdist_forward(x1, x2, p, computeMode);
  const r1 = x1.sizes[x1.dim() - 2] as number;
  const r2 = x2.sizes[x2.dim() - 2] as number;
  if (usesEuclid(p, computeMode ?? 0, r1, r2)) return cdistImpl(x1, x2, p, computeMode);
  return at._cdist_forward(x1, x2, p, computeMode);
}

/** `_cdist_forward(x1, x2, p, compute_mode)`. */
export function _cdist_forward(_ks: DispatchKeySet, x1: Tensor, x2: Tensor, p: number, computeMode: number | null): Tensor {
  checkCdist(x1, x2);
  return cdistImpl(x1, x2, p, computeMode);
}

interface Batch {
  batch: number[];
  product: number;
  r1: number;
  r2: number;
  c: number;
}

function batchOf(x1: Tensor, x2: Tensor): Batch {
  const batch = inferSize(x1.sizes.slice(0, -2), x2.sizes.slice(0, -2));
  return {
    batch,
    product: batch.reduce((a, b) => a * b, 1),
    r1: x1.sizes[x1.dim() - 2] as number,
    r2: x2.sizes[x2.dim() - 2] as number,
    c: x1.sizes[x1.dim() - 1] as number,
  };
}

function cdistImpl(x1: Tensor, x2: Tensor, p: number, computeMode: number | null): Tensor {
  if (!isFloatingType(x1.scalarType))
    throw new Error(`cdist only supports floating-point dtypes, X1 got: ${scalarTypeToString(x1.scalarType)}`);
  if (!isFloatingType(x2.scalarType))
    throw new Error(`cdist only supports floating-point dtypes, X2 got: ${scalarTypeToString(x2.scalarType)}`);
  if (!(p >= 0)) throw new Error('cdist only supports non-negative p values');
  const mode = computeMode ?? 0;
  if (mode < 0 || mode > 2) throw new Error(`possible modes: 0, 1, 2, but was: ${mode}`);
  const { batch, product, r1, r2, c } = batchOf(x1, x2);
  const outShape = [...batch, r1, r2];
  if (r1 === 0 || r2 === 0 || product === 0) return at.empty_memory_format(outShape, x1.scalarType, null, x1.device);
  if (c === 0) return at.zeros(outShape, x1.scalarType, null, x1.device);
  const e1 = at.reshape(at.expand(x1, [...batch, r1, c]), [product, r1, c]);
  const e2 = at.reshape(at.expand(x2, [...batch, r2, c]), [product, r2, c]);
  if (usesEuclid(p, mode, r1, r2)) {
    return at.view(product === 1 ? at._euclidean_dist(x1, x2) : at._euclidean_dist(e1, e2), outShape);
  }
  const out = at.empty_memory_format(outShape, x1.scalarType, null, x1.device);
  if (out.isMeta()) return out;
  const a = at.contiguous(e1);
  const b = at.contiguous(e2);
  const A = a.dataView();
  const B = b.dataView();
  const O = out.dataView();
  const round = x1.scalarType === ScalarType.Float ? Math.fround : (v: number): number => v;
  let o = O.base;
  for (let l = 0; l < product; l++) {
    for (let i = 0; i < r1; i++) {
      const ai = A.base + (l * r1 + i) * c;
      for (let j = 0; j < r2; j++) {
        const bj = B.base + (l * r2 + j) * c;
        O.data[o++] = pairDistance(A.data, ai, B.data, bj, c, p, round);
      }
    }
  }
  return out;
}

type Data = ArrayLike<number>;

/** One output of the forward loop (DistanceOpsKernel.cpp's zdist/odist/tdist/idist/pdist calc). */
function pairDistance(a: Data, ai: number, b: Data, bj: number, c: number, p: number, round: (v: number) => number): number {
  let agg = 0;
  for (let x = 0; x < c; x++) {
    const d = round(Math.abs(round((a[ai + x] as number) - (b[bj + x] as number))));
    if (p === 0) agg = round(agg + Math.min(Math.ceil(d), 1));
    else if (p === 1) agg = round(agg + d);
    else if (p === 2) agg = round(agg + round(d * d));
    else if (p === Infinity) agg = Math.max(agg, d);
    else agg = round(agg + round(Math.pow(d, p)));
  }
  if (p === 2) return round(Math.sqrt(agg));
  if (p === 0 || p === 1 || p === Infinity) return agg;
  return round(Math.pow(agg, round(1 / p)));
}

/** `_cdist_backward(grad, x1, x2, p, cdist)`: the gradient of x1 (x1's broadcast batch shape). */
export function _cdist_backward(_ks: DispatchKeySet, grad: Tensor, x1: Tensor, x2: Tensor, p: number, cdistT: Tensor): Tensor {
  const { batch, product, r1, r2, c } = batchOf(x1, x2);
  if (r1 === 0 || r2 === 0 || c === 0 || product === 0) return at.zeros_like(x1);
  const xa = at.contiguous(at.expand(x1, [...batch, r1, c]));
  const xb = at.contiguous(at.expand(x2, [...batch, r2, c]));
  const out = at.empty_memory_format([...batch, r1, c], x1.scalarType, null, x1.device);
  if (out.isMeta()) return out;
  const D = at.contiguous(cdistT).dataView();
  const G = at.contiguous(grad).dataView();
  const A = xa.dataView();
  const B = xb.dataView();
  const O = out.dataView();
  const round = x1.scalarType === ScalarType.Float ? Math.fround : (v: number): number => v;
  for (let l = 0; l < product; l++) {
    for (let i = 0; i < r1; i++) {
      for (let x = 0; x < c; x++) {
        const av = A.data[A.base + (l * r1 + i) * c + x] as number;
        let acc = 0;
        for (let j = 0; j < r2; j++) {
          const k = (l * r1 + i) * r2 + j;
          const dist = D.data[D.base + k] as number;
          const g = G.data[G.base + k] as number;
          const diff = round(av - (B.data[B.base + (l * r2 + j) * c + x] as number));
          acc = round(acc + round(pairGrad(diff, g, dist, p)));
        }
        O.data[O.base + (l * r1 + i) * c + x] = acc;
      }
    }
  }
  return out;
}

/** One term of the backward (DistanceOpsKernel.cpp's one/lt_two/two/inf/general backward). */
function pairGrad(diff: number, grad: number, dist: number, p: number): number {
  if (p === 0) return 0;
  if (p === 1) return grad * Math.sign(diff);
  if (p < 2)
    return dist === 0 || (diff === 0 && p < 1) ? 0 : (Math.sign(diff) * Math.pow(Math.abs(diff), p - 1) * grad) / Math.pow(dist, p - 1);
  if (p === 2) return dist === 0 ? 0 : (grad * diff) / dist;
  if (p === Infinity) return grad * Math.sign(diff) * (1 - Math.min(1, Math.ceil(Math.abs(Math.abs(diff) - dist))));
  return dist === 0 ? 0 : (diff * Math.pow(Math.abs(diff), p - 2) * grad) / Math.pow(dist, p - 1);
}

/** `_euclidean_dist(x1, x2)`: |x1|² - 2 x1·x2 + |x2|² as one matmul of padded operands, clamped, then sqrt. */
export function _euclidean_dist(_ks: DispatchKeySet, x1: Tensor, x2: Tensor): Tensor {
  const x1Norm = at.sum_dim_IntList(at.pow_Tensor_Scalar(x1, 2), [-1], true);
  const x2Norm = at.sum_dim_IntList(at.pow_Tensor_Scalar(x2, 2), [-1], true);
  const x1p = at.cat([at.mul_Scalar(x1, -2), x1Norm, at.ones_like(x1Norm)], -1);
  const x2p = at.cat([x2, at.ones_like(x2Norm), x2Norm], -1);
  const r = at.matmul(x1p, at.transpose_int(x2p, -2, -1));
  return at.sqrt_(at.clamp_min_(r, 1e-30));
}
