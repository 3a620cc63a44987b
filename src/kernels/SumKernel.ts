// nansum (the reduction of aten/src/ATen/native/cpu/SumKernel.cpp's nansum_stub, driven by ReduceOps.cpp's
// nansum_out) and nanmean (ReduceOps.cpp, CompositeImplicitAutograd: nansum / the count of non-NaN elements).
// sum itself lives in ReduceOps.ts / ReduceOpsKernel.ts.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { type ScalarType, isComplexType, isFloatingType, isIntegralType, scalarTypeToString } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';

type Opt<T> = T | null | undefined;

/**
 * The nansum reduction: integral (and bool) inputs are summed as they are; floating ones are summed with NaN
 * taken as 0 (the mask is applied before the reduction, so ±inf still propagate and the sum's order is sum's).
 */
function nansumOf(self: Tensor, dim: Opt<number[]>, keepdim: boolean, dtype: Opt<ScalarType>, out: Tensor | null): Tensor {
  if (isComplexType(self.scalarType)) throw new Error('nansum does not support complex inputs');
  const ops = aten();
  const src = isIntegralType(self.scalarType, true) ? self : ops.masked_fill_Scalar.call(self, ops.isnan.call(self), 0);
  return out === null
    ? ops.sum_dim_IntList.call(src, dim ?? null, keepdim, dtype ?? null)
    : ops.sum_IntList_out.call(src, dim ?? null, keepdim, dtype ?? null, out);
}

/** `nansum(self, dim=None, keepdim=False, *, dtype=None)`. */
export function nansum(
  _ks: DispatchKeySet,
  self: Tensor,
  dim: Opt<number[]> = null,
  keepdim = false,
  dtype: Opt<ScalarType> = null,
): Tensor {
  return nansumOf(self, dim, keepdim, dtype, null);
}
export function nansumOut(
  _ks: DispatchKeySet,
  self: Tensor,
  dim: Opt<number[]>,
  keepdim: boolean,
  dtype: Opt<ScalarType>,
  out: Tensor,
): Tensor {
  return nansumOf(self, dim, keepdim, dtype, out);
}

function nanmeanCheck(self: Tensor): void {
  if (!isFloatingType(self.scalarType) && !isComplexType(self.scalarType)) {
    throw new Error(`nanmean(): expected input to have floating point or complex dtype but got ${scalarTypeToString(self.scalarType)}`);
  }
}

/** `nanmean(self, dim=None, keepdim=False, *, dtype=None)`: nansum / count of non-NaN (DivBackward0). */
export function nanmean(
  _ks: DispatchKeySet,
  self: Tensor,
  dim: Opt<number[]> = null,
  keepdim = false,
  dtype: Opt<ScalarType> = null,
): Tensor {
  nanmeanCheck(self);
  const ops = aten();
  const factor = ops.sum_dim_IntList.call(ops.logical_not.call(ops.isnan.call(self)), dim ?? null, keepdim, null);
  return ops.div_Tensor.call(ops.nansum.call(self, dim ?? null, keepdim, dtype ?? null), factor);
}
export function nanmeanOut(
  _ks: DispatchKeySet,
  self: Tensor,
  dim: Opt<number[]>,
  keepdim: boolean,
  dtype: Opt<ScalarType>,
  out: Tensor,
): Tensor {
  nanmeanCheck(self);
  const ops = aten();
  const factor = ops.sum_dim_IntList.call(ops.logical_not.call(ops.isnan.call(self)), dim ?? null, keepdim, null);
  return ops.div_out.call(ops.nansum.call(self, dim ?? null, keepdim, dtype ?? null), factor, out);
}
