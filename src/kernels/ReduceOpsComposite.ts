// The reductions PyTorch keeps unstructured and the overloads that only redispatch: var/std (.correction),
// var_mean/std_mean, logsumexp, and max.other/min.other, max.unary_out/min.unary_out, max.out/min.out,
// var/std (unbiased, .dim), count_nonzero. Mirrors those functions of aten/src/ATen/native/ReduceOps.cpp
// (and ReduceAllOps.cpp's max/min unary_out); the structured reductions are in ReduceOps.ts, which re-exports
// this file (the yaml names these kernels `ReduceOps.*`).

import { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isComplexType, isFloatingType } from '../c10/ScalarType.js';
import { makeReduction, reduceKernel } from '../iter/index.js';
import { canCast } from '../iter/resultType.js';
import { resizeOutput } from '../iter/Resize.js';
import type { Tensor } from '../tensor/Tensor.js';
import { aten } from '../generated/Operators.js';
import { sumRun } from './ReduceOpsKernel.js';

// ---- var / std / logsumexp (not structured in PyTorch) -------------------------------------------------

function varianceOf(self: Tensor, dim: number[] | null, correction: number | null, keepdim: boolean, op: 'var' | 'std'): Tensor {
  if (!isFloatingType(self.scalarType)) {
    throw new Error(`std and var only support floating point and complex dtypes`);
  }
  const c = correction ?? 1;
  const iter = makeReduction(null, self, dim, keepdim, self.scalarType);
  reduceKernel(iter, (src, o, s, n) => {
    const m = sumRun(src, o, s, n) / n;
    let ss = 0;
    for (let i = 0, q = o; i < n; i++, q += s) {
      const d = (src[q] as number) - m;
      ss += d * d;
    }
    const r = ss / Math.max(0, n - c);
    return op === 'var' ? r : Math.sqrt(r);
  });
  return iter.output() as Tensor;
}

/** `var.correction(self, dim=None, *, correction=None, keepdim=False)` (`var` is a JavaScript keyword). */
export function varCorrection(
  _ks: DispatchKeySet,
  self: Tensor,
  dim: number[] | null = null,
  correction: number | null = null,
  keepdim = false,
): Tensor {
  return varianceOf(self, dim, correction, keepdim, 'var');
}

/** `std.correction(self, dim=None, *, correction=None, keepdim=False)`. */
export function std(
  _ks: DispatchKeySet,
  self: Tensor,
  dim: number[] | null = null,
  correction: number | null = null,
  keepdim = false,
): Tensor {
  return varianceOf(self, dim, correction, keepdim, 'std');
}

/**
 * `var_mean.correction` / `std_mean.correction`: (var or std, mean) over the same dims, as std_var_mean_out
 * (a floating or complex input; the mean is the reduction mean.dim computes).
 */
function momentsAndMean(
  self: Tensor,
  dim: number[] | null,
  correction: number | null,
  keepdim: boolean,
  op: 'var' | 'std',
): [Tensor, Tensor] {
  if (!isFloatingType(self.scalarType) && !isComplexType(self.scalarType)) {
    throw new Error(`${op}_mean only support floating point and complex dtypes`);
  }
  return [varianceOf(self, dim, correction, keepdim, op), aten().mean_dim.call(self, dim, keepdim, null)];
}
export function varMean(
  _ks: DispatchKeySet,
  self: Tensor,
  dim: number[] | null = null,
  correction: number | null = null,
  keepdim = false,
): [Tensor, Tensor] {
  return momentsAndMean(self, dim, correction, keepdim, 'var');
}
export function stdMean(
  _ks: DispatchKeySet,
  self: Tensor,
  dim: number[] | null = null,
  correction: number | null = null,
  keepdim = false,
): [Tensor, Tensor] {
  return momentsAndMean(self, dim, correction, keepdim, 'std');
}
/** `var_mean(self, unbiased=True)`, `var_mean.dim(self, dim, unbiased=True, keepdim=False)` (CompositeImplicitAutograd). */
export function varMeanUnbiased(_ks: DispatchKeySet, self: Tensor, unbiased = true): [Tensor, Tensor] {
  return aten().var_mean_correction.call(self, null, unbiased ? 1 : 0, false);
}
export function varMeanDim(_ks: DispatchKeySet, self: Tensor, dim: number[] | null, unbiased = true, keepdim = false): [Tensor, Tensor] {
  return aten().var_mean_correction.call(self, dim, unbiased ? 1 : 0, keepdim);
}
export function stdMeanUnbiased(_ks: DispatchKeySet, self: Tensor, unbiased = true): [Tensor, Tensor] {
  return aten().std_mean_correction.call(self, null, unbiased ? 1 : 0, false);
}
export function stdMeanDim(_ks: DispatchKeySet, self: Tensor, dim: number[] | null, unbiased = true, keepdim = false): [Tensor, Tensor] {
  return aten().std_mean_correction.call(self, dim, unbiased ? 1 : 0, keepdim);
}

/** `logsumexp(self, dim, keepdim=False)`: stable (subtracts the maximum); integers compute in the default float. */
export function logsumexp(_ks: DispatchKeySet, self: Tensor, dim: number[], keepdim = false): Tensor {
  const dtype = isFloatingType(self.scalarType) ? self.scalarType : ScalarType.Float;
  const iter = makeReduction(null, self, dim, keepdim, dtype, { inDtype: dtype });
  reduceKernel(iter, (src, o, s, n) => {
    if (n === 0) return -Infinity;
    let m = -Infinity;
    for (let i = 0, q = o; i < n; i++, q += s) {
      const x = src[q] as number;
      if (x > m || x !== x) m = x;
    }
    if (!Number.isFinite(m)) return m === m ? m : NaN;
    let acc = 0;
    for (let i = 0, q = o; i < n; i++, q += s) acc += Math.exp((src[q] as number) - m);
    return m + Math.log(acc);
  });
  return iter.output() as Tensor;
}

// ---- Overloads a PyTorch user types (composites of the ops above) ----------------------------------------

/** `max.other(self, other)`: `maximum` (CompositeImplicitAutograd, so MaximumBackward0 as in PyTorch). */
export function maxOther(_ks: DispatchKeySet, self: Tensor, other: Tensor): Tensor {
  return aten().maximum.call(self, other);
}

/** `min.other(self, other)`: `minimum`. */
export function minOther(_ks: DispatchKeySet, self: Tensor, other: Tensor): Tensor {
  return aten().minimum.call(self, other);
}

/** `max_unary_out` / `min_unary_out` (ReduceAllOps.cpp): same device, a castable dtype, `out` resized to 0-dim. */
function unaryOut(name: 'max' | 'min', self: Tensor, out: Tensor): Tensor {
  // PyTorch's TORCH_CHECK without a message (the device check's failure shows as the copy's, as here).
  if (!canCast(self.scalarType, out.scalarType)) {
    throw new Error(
      'Expected canCast( typeMetaToScalarType(self.dtype()), typeMetaToScalarType(out.dtype())) to be true, but got false.  ' +
        '(Could this error message be improved?  If so, please report an enhancement request to PyTorch.)',
    );
  }
  const ops = aten();
  const r = name === 'max' ? ops.max.call(self) : ops.min.call(self);
  resizeOutput(out, []);
  ops.copy_.call(out, r, false);
  return out;
}

/** `max.unary_out(self, *, out)`. */
export function maxUnaryOut(_ks: DispatchKeySet, self: Tensor, out: Tensor): Tensor {
  return unaryOut('max', self, out);
}

/** `min.unary_out(self, *, out)`. */
export function minUnaryOut(_ks: DispatchKeySet, self: Tensor, out: Tensor): Tensor {
  return unaryOut('min', self, out);
}

/** `max.out(self, other, *, out)`: `maximum_out`. */
export function maxOut(_ks: DispatchKeySet, self: Tensor, other: Tensor, out: Tensor): Tensor {
  return aten().maximum_out.call(self, other, out);
}

/** `min.out(self, other, *, out)`: `minimum_out`. */
export function minOut(_ks: DispatchKeySet, self: Tensor, other: Tensor, out: Tensor): Tensor {
  return aten().minimum_out.call(self, other, out);
}

/** `var(self, unbiased=True)`: `var.correction` with correction 1 or 0 (VarBackward0). */
export function varUnbiased(_ks: DispatchKeySet, self: Tensor, unbiased = true): Tensor {
  return aten().var_correction.call(self, null, unbiased ? 1 : 0, false);
}

/** `var.dim(self, dim, unbiased=True, keepdim=False)`. */
export function varDim(_ks: DispatchKeySet, self: Tensor, dim: number[] | null, unbiased = true, keepdim = false): Tensor {
  return aten().var_correction.call(self, dim, unbiased ? 1 : 0, keepdim);
}

/** `std(self, unbiased=True)`: `std.correction` (StdBackward0). */
export function stdUnbiased(_ks: DispatchKeySet, self: Tensor, unbiased = true): Tensor {
  return aten().std_correction.call(self, null, unbiased ? 1 : 0, false);
}

/** `std.dim(self, dim, unbiased=True, keepdim=False)`. */
export function stdDim(_ks: DispatchKeySet, self: Tensor, dim: number[] | null, unbiased = true, keepdim = false): Tensor {
  return aten().std_correction.call(self, dim, unbiased ? 1 : 0, keepdim);
}

/** `count_nonzero.dim_IntList(self, dim)`: the number of nonzero elements over dims (int64). */
export function countNonzeroDims(_ks: DispatchKeySet, self: Tensor, dim: number[]): Tensor {
  const ops = aten();
  return ops.sum_dim_IntList.call(ops.ne_Scalar.call(self, 0), dim, false, null);
}
/** `count_nonzero(self, dim=None)`: over one dim, or over all (CompositeExplicitAutograd). */
export function countNonzero(_ks: DispatchKeySet, self: Tensor, dim: number | null = null): Tensor {
  return aten().count_nonzero_dim_IntList.call(self, dim === null ? [] : [dim]);
}
