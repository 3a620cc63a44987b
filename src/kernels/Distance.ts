// cosine_similarity and pairwise_distance, CompositeImplicitAutograd as in PyTorch. Mirrors
// aten/src/ATen/native/Distance.cpp.

import { autogradState } from '../c10/AutogradState.js';
import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isFloatingType, scalarTypeToString } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import { inferSize } from '../tensor/ExpandUtils.js';
import { resultType } from '../iter/resultType.js';
import { wrapScalar } from '../tensor/ScalarOps.js';
import type { Tensor } from '../tensor/Tensor.js';

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
