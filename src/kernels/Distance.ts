// cosine_similarity and pairwise_distance, CompositeImplicitAutograd as in PyTorch; pdist. Mirrors
// aten/src/ATen/native/Distance.cpp.

import { autogradState } from '../c10/AutogradState.js';
import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isFloatingType, scalarTypeToString } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
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
