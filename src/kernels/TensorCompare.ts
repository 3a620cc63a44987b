// where, clamp (Scalar and Tensor bounds), max.dim / min.dim, isnan, isinf, isfinite. Mirrors
// aten/src/ATen/native/TensorCompare.cpp and native/cpu/TensorCompareKernel.cpp.

import { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { scalarTypeOfNumber } from '../c10/Scalar.js';
import { ScalarType, isComplexType, isFloatingType, notImplementedForDtype, scalarTypeToString, typeMetaName } from '../c10/ScalarType.js';
import {
  type ComplexOp,
  type ScalarOp,
  type TensorIterator,
  TensorIteratorConfig,
  type VecOp,
  castValue,
  cpuKernel,
  cpuKernelComplex,
  cpuKernelVec,
  elementBase,
  makeReduction,
  reduceKernel,
  resultType,
} from '../iter/index.js';
import { wrapScalar } from '../tensor/ScalarOps.js';
import type { StorageArray } from '../tensor/Storage.js';
import type { Tensor } from '../tensor/Tensor.js';
import type { TensorImpl } from '../tensor/TensorImpl.js';
import { aten } from '../generated/Operators.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';
import { resizeOutput } from '../iter/Resize.js';
import type { Num, OptTensor } from './BinaryOps.js';
import { maxOp, minOp } from './BinaryOpsKernel.js';
import { functionalOutputs, zeroNumelCheckDims } from './ReduceOps.js';
import { argmaxRun, argminRun, maxRunVec, minRunVec } from './ReduceOpsKernel.js';
import { emptyLike } from './StorageAccess.js';
import type { StructuredKernel, StructuredMeta, StructuredOutputsKernel } from './TensorMeta.js';
import * as at from '../generated/TensorBody.js';

type OptNum = Num | null | undefined;

// ---------------------------------------------------------------------------------------------------
// where(condition, self, other)
// ---------------------------------------------------------------------------------------------------

// Note [where without temporaries]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's where_self_out converts `self` and `other` to their result type (`self.to(result_type)`) and
// runs an iterator without promotion whose output has that type. Converting the selected value on store
// gives the same element (one conversion either way, the output dtype being the result type), so the
// iterator here reads each input in its own dtype and allocates nothing but the output.
function whereImpl(out: Tensor | null, condition: Tensor, self: Tensor, other: Tensor): Tensor {
  const result = resultType([self, other]);
  if (out !== null && out.scalarType !== result) {
    throw new Error(`Expected out type to be ${scalarTypeToString(result)} but got ${scalarTypeToString(out.scalarType)}`);
  }
  if (condition.scalarType !== ScalarType.Bool && condition.scalarType !== ScalarType.Byte) {
    throw new Error(
      `where expected condition to be a boolean tensor, but got a tensor with dtype ${scalarTypeToString(condition.scalarType)}`,
    );
  }
  const config = new TensorIteratorConfig()
    .checkAllSameDtype(false)
    .addOutput(out)
    .addConstInput(condition)
    .addConstInput(self)
    .addConstInput(other);
  if (out === null) config.declareStaticDtype(result);
  const iter = config.build();
  if (isComplexType(result)) {
    cpuKernelComplex(iter, (ins, o) => {
      const k = (ins[0] as number) !== 0 ? 2 : 4;
      o[0] = ins[k] as number;
      o[1] = ins[k + 1] as number;
    });
  } else if (!whereFloat(iter)) cpuKernel(iter, (c, a, b) => (c !== 0 ? a : b));
  return iter.output() as Tensor;
}

// Note [where's float loop]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
// A float32/float64 `where` whose two value operands are of the result dtype (or wrapped numbers, cast to it
// once) picks stored values as they are: the loop walks the iterator's dims (broadcast masks have stride 0)
// and copies `cond ? a : b` between typed arrays, instead of the generic loop's gather into doubles and
// scatter back (about 15 ns an element; attention masking runs it over every score).

/** `where`'s loop for float results (Note [where's float loop]); false when the generic loop must run. */
function whereFloat(iter: TensorIterator): boolean {
  if (iter.isMeta || iter.tensors.length !== 4) return false;
  const [out, c, a, b] = iter.tensors as [TensorImpl, TensorImpl, TensorImpl, TensorImpl];
  const d = out.scalarType;
  if (d !== ScalarType.Float && d !== ScalarType.Double) return false;
  if (c.scalarType !== ScalarType.Bool && c.scalarType !== ScalarType.Byte) return false;
  const plain = (t: TensorImpl): boolean => t.scalarType === d || (t.isWrappedNumber && !isComplexType(t.scalarType));
  if (!plain(a) || !plain(b)) return false;
  const shape = iter.shape;
  const nd = shape.length;
  const st = iter.strides;
  let total = 1;
  for (const n of shape) total *= n;
  if (total === 0) return true;
  const O = out.storage.data(d);
  const C = c.storage.data(c.scalarType);
  const A = a.storage.data(a.scalarType);
  const B = b.storage.data(b.scalarType);
  let [po, pc, pa, pb] = [elementBase(out), elementBase(c), elementBase(a), elementBase(b)];
  // A wrapped number is read once, cast to the result dtype (its strides are 0).
  const av = a.isWrappedNumber ? castValue(A[pa] as number, d) : NaN;
  const bv = b.isWrappedNumber ? castValue(B[pb] as number, d) : NaN;
  const n0 = nd === 0 ? 1 : (shape[0] as number);
  const [so, sc, sa, sb] = nd === 0 ? [0, 0, 0, 0] : [st[0] as number, st[1] as number, st[2] as number, st[3] as number];
  const counter = new Array<number>(Math.max(nd, 1)).fill(0);
  for (let done = 0; done < total; done += n0) {
    if (a.isWrappedNumber || b.isWrappedNumber) {
      for (let i = 0; i < n0; i++) {
        const take = (C[pc + i * sc] as number) !== 0;
        O[po + i * so] = take ? (a.isWrappedNumber ? av : (A[pa + i * sa] as number)) : b.isWrappedNumber ? bv : (B[pb + i * sb] as number);
      }
    } else {
      for (let i = 0; i < n0; i++)
        O[po + i * so] = (C[pc + i * sc] as number) !== 0 ? (A[pa + i * sa] as number) : (B[pb + i * sb] as number);
    }
    for (let k = 1; k < nd; k++) {
      const cnt = (counter[k] as number) + 1;
      const base = k * 4;
      if (cnt < (shape[k] as number)) {
        counter[k] = cnt;
        po += st[base] as number;
        pc += st[base + 1] as number;
        pa += st[base + 2] as number;
        pb += st[base + 3] as number;
        break;
      }
      counter[k] = 0;
      po -= (cnt - 1) * (st[base] as number);
      pc -= (cnt - 1) * (st[base + 1] as number);
      pa -= (cnt - 1) * (st[base + 2] as number);
      pb -= (cnt - 1) * (st[base + 3] as number);
    }
  }
  return true;
}

/** `where.self` */
export function where(_ks: DispatchKeySet, condition: Tensor, self: Tensor, other: Tensor): Tensor {
  return whereImpl(null, condition, self, other);
}
/** `where.self_out` */
export function whereOut(_ks: DispatchKeySet, condition: Tensor, self: Tensor, other: Tensor, out: Tensor): Tensor {
  return whereImpl(out, condition, self, other);
}
/**
 * A number of `where`'s Scalar overloads as a wrapped 0-dim tensor on `like`'s device: PyTorch makes it with
 * `scalar_tensor(v, like.options())`, so `where(metaCondition, 1.5, -2.5)` runs on Meta. A Meta one holds no value.
 */
function wrapOn(v: Num, like: Tensor): Tensor {
  if (!like.isMeta()) return wrapScalar(v);
  const t = emptyLike(like, [], scalarTypeOfNumber(v));
  t.isWrappedNumber = true;
  return t;
}
/** `where.ScalarSelf` */
export function whereScalarSelf(_ks: DispatchKeySet, condition: Tensor, self: Num, other: Tensor): Tensor {
  return whereImpl(null, condition, wrapOn(self, other), other);
}
/** `where.ScalarOther` */
export function whereScalarOther(_ks: DispatchKeySet, condition: Tensor, self: Tensor, other: Num): Tensor {
  return whereImpl(null, condition, self, wrapOn(other, self));
}
/** `where.Scalar` */
export function whereScalar(_ks: DispatchKeySet, condition: Tensor, self: Num, other: Num): Tensor {
  return whereImpl(null, condition, wrapOn(self, condition), wrapOn(other, condition));
}

// ---------------------------------------------------------------------------------------------------
// clamp
// ---------------------------------------------------------------------------------------------------

const NONE_ERROR = "torch.clamp: At least one of 'min' or 'max' must not be None";

// Note [clamp's result type]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
// clamp with Scalar bounds keeps a floating `self`'s dtype (float16 clamped by 0.1 stays float16, the bound
// rounded to it); an integral or bool `self` promotes with the bounds as wrapped numbers (int64 clamped by
// 2.5 is float32), which in-place forms reject with `result type Float can't be cast to the desired output
// type long int` (C++'s type name, as PyTorch prints it). The iterator is a unary_op over `self.to(result)`:
// here `self` is read in its own dtype and converted to the result type inside the loop, and an out= of
// another dtype gets unary_op's `Found dtype X but expected Y`.

// Note [clamp loops]
// ~~~~~~~~~~~~~~~~~~
// clamp is `min(max(x, lo), hi)` with NaN propagating from `x` (a NaN bound is handled before the loop for
// Scalar bounds and per element for Tensor bounds); with lo > hi every element is hi. Where the iterator
// needs no conversion (input and output of one dtype stored as plain numbers) the loops run over the typed
// arrays (cpuKernelVec); float16/bfloat16, promoted inputs and strided outputs take the scalar lambda.

/** Both Scalar bounds, already in the output's dtype. */
function clampBothVec(l: number, h: number): VecOp {
  return (out, o, ins, offs, n) => {
    const a = ins[0] as StorageArray;
    const ao = offs[0] as number;
    for (let i = 0; i < n; i++) {
      const x = a[ao + i] as number;
      const y = x < l ? l : x;
      out[o + i] = h < y ? h : y;
    }
  };
}
/** Only `min` (`clamp_min`): NaN passes because `NaN < l` is false. */
function clampMinVec(l: number): VecOp {
  return (out, o, ins, offs, n) => {
    const a = ins[0] as StorageArray;
    const ao = offs[0] as number;
    for (let i = 0; i < n; i++) {
      const x = a[ao + i] as number;
      out[o + i] = x < l ? l : x;
    }
  };
}
/** Only `max` (`clamp_max`). */
function clampMaxVec(h: number): VecOp {
  return (out, o, ins, offs, n) => {
    const a = ins[0] as StorageArray;
    const ao = offs[0] as number;
    for (let i = 0; i < n; i++) {
      const x = a[ao + i] as number;
      out[o + i] = h < x ? h : x;
    }
  };
}

/**
 * `clamp.out` (structured, as in PyTorch's TORCH_META_FUNC(clamp) / TORCH_IMPL_FUNC(clamp_out)): the meta
 * settles the result type (Note [clamp's result type]) and builds the unary iterator; the impl runs
 * clamp_scalar / clamp_min_scalar / clamp_max_scalar, or fills NaN when a bound is NaN.
 */
export const clampStructured: StructuredKernel<[self: Tensor, min: OptNum, max: OptNum]> = {
  meta(out, self, min, max) {
    const hasMin = min !== null && min !== undefined;
    const hasMax = max !== null && max !== undefined;
    if (!hasMin && !hasMax) throw new Error(NONE_ERROR);
    let result = self.scalarType;
    if (isComplexType(result)) throw new Error('clamp is not supported for complex types');
    if (!isFloatingType(result)) {
      const operands: (Tensor | Num)[] = [self];
      if (hasMin) operands.push(min);
      if (hasMax) operands.push(max);
      result = resultType(operands);
      if (result !== self.scalarType && out === self) {
        throw new Error(
          `result type ${scalarTypeToString(result)} can't be cast to the desired output type ${typeMetaName(self.scalarType)}`,
        );
      }
    }
    if (out !== null && out.scalarType !== result) {
      throw new Error(`Found dtype ${scalarTypeToString(out.scalarType)} but expected ${scalarTypeToString(result)}`);
    }
    const config = new TensorIteratorConfig().checkAllSameDtype(false).addOutput(out).addConstInput(self);
    if (out === null) config.declareStaticDtype(result);
    return config.build();
  },
  impl(iter, _self, min, max) {
    if (iter.isMeta) return;
    const hasMin = min !== null && min !== undefined;
    const hasMax = max !== null && max !== undefined;
    const r = iter.dtype(0);
    if (r === ScalarType.Bool) {
      throw notImplementedForDtype(hasMin && hasMax ? 'clamp_scalar_cpu' : hasMin ? 'clamp_min_scalar_cpu' : 'clamp_max_scalar_cpu', r);
    }
    const lo = hasMin ? Number(min) : NaN;
    const hi = hasMax ? Number(max) : NaN;
    if (hasMin && hasMax) {
      // clamp_out fills the result with NaN when a bound is NaN (the result type is floating then).
      if (lo !== lo || hi !== hi) {
        cpuKernel(iter, () => NaN);
        return;
      }
      const l = castValue(lo, r);
      const h = castValue(hi, r);
      cpuKernelVec(
        iter,
        (a) => {
          const x = castValue(a, r);
          if (x !== x) return x;
          const y = x < l ? l : x;
          return h < y ? h : y;
        },
        clampBothVec(l, h),
      );
    } else if (hasMin) {
      const l = castValue(lo, r);
      cpuKernelVec(
        iter,
        (a) => {
          const x = castValue(a, r);
          return x !== x ? x : x < l ? l : x;
        },
        clampMinVec(l),
      );
    } else {
      const h = castValue(hi, r);
      cpuKernelVec(
        iter,
        (a) => {
          const x = castValue(a, r);
          return x !== x ? x : h < x ? h : x;
        },
        clampMaxVec(h),
      );
    }
  },
};

const clampTensorOp: ScalarOp = (a, l, h) => {
  if (l !== l || h !== h) return NaN;
  if (a !== a) return a;
  const y = a < l ? l : a;
  return h < y ? h : y;
};
/** Tensor bounds, one dtype throughout (integer arrays hold no NaN, so the NaN tests only cost a compare). */
const clampTensorVec: VecOp = (out, o, ins, offs, n) => {
  const a = ins[0] as StorageArray;
  const lo = ins[1] as StorageArray;
  const hi = ins[2] as StorageArray;
  const ao = offs[0] as number;
  const lo0 = offs[1] as number;
  const ho = offs[2] as number;
  for (let i = 0; i < n; i++) {
    const x = a[ao + i] as number;
    const l = lo[lo0 + i] as number;
    const h = hi[ho + i] as number;
    if (l !== l || h !== h) {
      out[o + i] = NaN;
    } else {
      const y = x < l ? l : x;
      out[o + i] = h < y ? h : y;
    }
  }
};
/** One Tensor bound: maximum (`min=`) or minimum (`max=`), NaN from either side propagating. */
const clampMinTensorVec: VecOp = (out, o, ins, offs, n) => {
  const a = ins[0] as StorageArray;
  const b = ins[1] as StorageArray;
  const ao = offs[0] as number;
  const bo = offs[1] as number;
  for (let i = 0; i < n; i++) {
    const x = a[ao + i] as number;
    const l = b[bo + i] as number;
    out[o + i] = l !== l ? l : x < l ? l : x;
  }
};
const clampMaxTensorVec: VecOp = (out, o, ins, offs, n) => {
  const a = ins[0] as StorageArray;
  const b = ins[1] as StorageArray;
  const ao = offs[0] as number;
  const bo = offs[1] as number;
  for (let i = 0; i < n; i++) {
    const x = a[ao + i] as number;
    const h = b[bo + i] as number;
    out[o + i] = h !== h ? h : h < x ? h : x;
  }
};

/**
 * `clamp.Tensor_out` (structured, as in PyTorch's TORCH_META_FUNC2(clamp, Tensor)): one promoting iterator
 * over self and the given bounds (safe casting to out=); with both bounds the clamp kernel (a NaN bound gives
 * NaN), with one of them maximum / minimum.
 */
export const clampTensorStructured: StructuredKernel<[self: Tensor, min: OptTensor, max: OptTensor]> = {
  meta(out, self, min, max) {
    const hasMin = min !== null && min !== undefined;
    const hasMax = max !== null && max !== undefined;
    if (!hasMin && !hasMax) throw new Error(NONE_ERROR);
    if (isComplexType(self.scalarType)) throw new Error('clamp is not supported for complex types');
    const config = new TensorIteratorConfig()
      .setCheckMemOverlap(true)
      .addOutput(out)
      .addConstInput(self)
      .promoteInputsToCommonDtype(true)
      .castCommonDtypeToOutputs(true)
      .enforceSafeCastingToOutput(true);
    if (hasMin) config.addConstInput(min);
    if (hasMax) config.addConstInput(max);
    return config.build();
  },
  impl(iter, _self, min, max) {
    if (iter.isMeta) return;
    const hasMin = min !== null && min !== undefined;
    const hasMax = max !== null && max !== undefined;
    if (hasMin && hasMax) {
      if (iter.commonDtype === ScalarType.Bool) throw notImplementedForDtype('clamp_cpu', ScalarType.Bool);
      cpuKernelVec(iter, clampTensorOp, clampTensorVec);
    } else if (hasMin) {
      cpuKernelVec(iter, maxOp, clampMinTensorVec);
    } else {
      cpuKernelVec(iter, minOp, clampMaxTensorVec);
    }
  },
};

/** `clamp_min.Tensor_out(self, min, *, out)` (TORCH_META_FUNC2(clamp_min, Tensor)): maximum with NaN propagating. */
export const clampMinTensorStructured: StructuredKernel<[self: Tensor, min: Tensor]> = {
  meta: (out, self, min) => clampTensorStructured.meta(out, self, min, null),
  impl: (iter, self, min) => clampTensorStructured.impl(iter, self, min, null),
};

/** `clamp_max.Tensor_out(self, max, *, out)` (TORCH_META_FUNC2(clamp_max, Tensor)): minimum with NaN propagating. */
export const clampMaxTensorStructured: StructuredKernel<[self: Tensor, max: Tensor]> = {
  meta: (out, self, max) => clampTensorStructured.meta(out, self, null, max),
  impl: (iter, self, max) => clampTensorStructured.impl(iter, self, null, max),
};

// ---- isnan, isinf, isfinite (bool results; functional only) -----------------------------------------

function predicate(self: Tensor, real: ScalarOp, complex: ComplexOp): Tensor {
  const iter = new TensorIteratorConfig()
    .checkAllSameDtype(false)
    .declareStaticDtype(ScalarType.Bool)
    .addOutput(null)
    .addConstInput(self)
    .build();
  if (!iter.isMeta) {
    if (isComplexType(self.scalarType)) cpuKernelComplex(iter, complex);
    else cpuKernel(iter, real);
  }
  return iter.output() as Tensor;
}

/** `isnan`: `self != self`. */
export function isnan(_ks: DispatchKeySet, self: Tensor): Tensor {
  return predicate(
    self,
    (x) => (Number.isNaN(x) ? 1 : 0),
    (ins, out) => {
      out[0] = Number.isNaN(ins[0]) || Number.isNaN(ins[1]) ? 1 : 0;
      out[1] = 0;
    },
  );
}

/** `isinf`: false for integers. */
export function isinf(_ks: DispatchKeySet, self: Tensor): Tensor {
  return predicate(
    self,
    (x) => (x === Infinity || x === -Infinity ? 1 : 0),
    (ins, out) => {
      out[0] = Math.abs(ins[0] as number) === Infinity || Math.abs(ins[1] as number) === Infinity ? 1 : 0;
      out[1] = 0;
    },
  );
}

/** `isfinite`: true for integers. */
export function isfinite(_ks: DispatchKeySet, self: Tensor): Tensor {
  return predicate(
    self,
    (x) => (Number.isFinite(x) ? 1 : 0),
    (ins, out) => {
      out[0] = Number.isFinite(ins[0]) && Number.isFinite(ins[1]) ? 1 : 0;
      out[1] = 0;
    },
  );
}

// ---- max.dim / min.dim (structured on MetaBase: two outputs, precomputed dim) -------------------------

// Note [Structured max.dim and min.dim]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// As in PyTorch 2.13, max.dim_max / min.dim_min are structured without a TensorIterator base (MetaBase) and
// max.dim / min.dim delegate to them. The meta is TORCH_PRECOMPUTE_META_FUNC2(max, dim): wrap the dim (the
// range error), zero_numel_check_dims (`max(): Expected reduction dim 1 to have non-zero size.`), reject
// complex (`max(): does not support complex input`), then resize_reduction_with_indices: two outputs of the
// reduced shape, values in self's dtype and int64 indices (an out= of another dtype fails the wrapper's
// resize_out: `Expected out tensor to have dtype long int, but got int instead`). `precomputed: dim -> int
// dim` hands the wrapped dim to the impl. The impl (minmax_out_impl) fills a 0-dim input's value and index
// 0 directly, and otherwise runs two reductions over the settled outputs (the values with maxRun, the
// indices with argmaxRun: both take the first NaN, so they agree); bool inputs are allowed, unlike argmax.

type MinMaxDimArgs = [self: Tensor, dim: number, keepdim: boolean];

function minMaxDimMeta(self: Tensor, dim: number, keepdim: boolean, op: 'max' | 'min'): StructuredMeta<{ dim: number }> {
  const n = self.dim();
  const d = maybeWrapDim(dim, n);
  if (self.numel() === 0) zeroNumelCheckDims(self, [d], op === 'max' ? 'max()' : 'min()');
  if (isComplexType(self.scalarType)) throw new Error(`${op}(): does not support complex input`);
  // resize_reduction_with_indices' shape: dim d dropped, or kept as 1 (a 0-dim input stays 0-dim)
  const shape: number[] = [];
  for (let k = 0; k < n; k++) {
    if (k !== d) shape.push(self.sizes[k] as number);
    else if (keepdim) shape.push(1);
  }
  return {
    outputs: [
      { sizes: shape, dtype: self.scalarType, device: self.device },
      { sizes: shape, dtype: ScalarType.Long, device: self.device },
    ],
    precomputed: { dim: d },
  };
}

function minMaxDimImpl(outs: readonly Tensor[], self: Tensor, dim: number, keepdim: boolean, op: 'max' | 'min'): void {
  const values = outs[0] as Tensor;
  const indices = outs[1] as Tensor;
  if (self.numel() === 0) return;
  const v = makeReduction(values, self, [dim], keepdim, self.scalarType);
  reduceKernel(v, op === 'max' ? maxRunVec : minRunVec);
  const i = makeReduction(indices, self, [dim], keepdim, ScalarType.Long);
  reduceKernel(i, op === 'max' ? argmaxRun : argminRun);
}

/** `max.dim_max` (structured, MetaBase; max.dim delegates to it): (values, indices) along one dim. */
export const maxDimStructured: StructuredOutputsKernel<MinMaxDimArgs, MinMaxDimArgs, { dim: number }> = {
  meta: (_outs, self, dim, keepdim) => minMaxDimMeta(self, dim, keepdim, 'max'),
  impl: (outs, self, dim, keepdim) => minMaxDimImpl(outs, self, dim, keepdim, 'max'),
};

/** `min.dim_min` (structured, MetaBase; min.dim delegates to it). */
export const minDimStructured: StructuredOutputsKernel<MinMaxDimArgs, MinMaxDimArgs, { dim: number }> = {
  meta: (_outs, self, dim, keepdim) => minMaxDimMeta(self, dim, keepdim, 'min'),
  impl: (outs, self, dim, keepdim) => minMaxDimImpl(outs, self, dim, keepdim, 'min'),
};

/** `max.dim` / `min.dim`: (values, indices) along one dim (the functional form, for tests). */
export function maxDim(_ks: DispatchKeySet, self: Tensor, dim: number, keepdim = false): [Tensor, Tensor] {
  const [v, i] = functionalOutputs(maxDimStructured, (m) => [self, m.precomputed.dim, keepdim], self, dim, keepdim);
  return [v as Tensor, i as Tensor];
}

export function minDim(_ks: DispatchKeySet, self: Tensor, dim: number, keepdim = false): [Tensor, Tensor] {
  const [v, i] = functionalOutputs(minDimStructured, (m) => [self, m.precomputed.dim, keepdim], self, dim, keepdim);
  return [v as Tensor, i as Tensor];
}

/** `allclose(self, other, rtol, atol, equal_nan)`: `isclose(...).all().item()`, as PyTorch. */
export function allclose(_ks: DispatchKeySet, self: Tensor, other: Tensor, rtol = 1e-5, atol = 1e-8, equalNan = false): boolean {
  return at.item(aten().all.call(aten().isclose.call(self, other, rtol, atol, equalNan))) === true;
}

/**
 * `equal(self, other)` (cpu_equal): different sizes are not equal; otherwise every element `==` after type
 * promotion (PyTorch 2.13 compares a float32 and a float64 tensor by value), NaN never equal.
 */
export function equal(_ks: DispatchKeySet, self: Tensor, other: Tensor): boolean {
  if (self.sizes.length !== other.sizes.length || self.sizes.some((s, i) => s !== other.sizes[i])) return false;
  return at.item(aten().all.call(aten().eq_Tensor.call(self, other))) === true;
}

/**
 * `aminmax(self, *, dim=None, keepdim=False)`: (min, max) over one dim or over everything (the structured
 * op of TensorCompare.cpp, its two reductions taken by amin and amax).
 */
export function aminmax(_ks: DispatchKeySet, self: Tensor, dim: number | null = null, keepdim = false): [Tensor, Tensor] {
  let dims: number[];
  if (dim !== null) {
    const d = maybeWrapDim(dim, self.dim());
    zeroNumelCheckDims(self, [d], 'aminmax');
    dims = self.dim() === 0 ? [] : [d];
  } else {
    if (self.numel() === 0) {
      throw new RangeError('aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity.');
    }
    dims = [];
  }
  const ops = aten();
  return [ops.amin.call(self, dims, keepdim), ops.amax.call(self, dims, keepdim)];
}

/** `aminmax.min(self, *, dim=None, keepdim=False, min, max)`: the structured out= checks, then copies. */
export function aminmaxOut(
  ks: DispatchKeySet,
  self: Tensor,
  dim: number | null,
  keepdim: boolean,
  min: Tensor,
  max: Tensor,
): [Tensor, Tensor] {
  const [lo, hi] = aminmax(ks, self, dim, keepdim);
  for (const out of [min, max]) {
    if (out.scalarType !== self.scalarType) {
      throw new Error(
        `Expected out tensor to have dtype ${typeMetaName(self.scalarType)}, but got ${typeMetaName(out.scalarType)} instead`,
      );
    }
  }
  resizeOutput(min, lo.sizes);
  resizeOutput(max, hi.sizes);
  aten().copy_.call(min, lo, false);
  aten().copy_.call(max, hi, false);
  return [min, max];
}
