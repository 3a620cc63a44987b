// Reductions over all dims or a dim list, with keepdim and dtype: sum, mean, prod, amax, amin, all, any,
// argmax, argmin, norm, cumsum, cumprod, max/min over all. Mirrors aten/src/ATen/native/ReduceOps.cpp (the
// meta functions decide the result shape and dtype, the impls run the loops); the loops over a run are
// ReduceOpsKernel.ts (native/cpu/ReduceOpsKernel.cpp). var, std, logsumexp and the overloads that only
// redispatch are in ReduceOpsComposite.ts, re-exported here. The groups PyTorch makes structured are
// StructuredKernels (`sumStructured`, ...) or StructuredOutputsKernels (`cumsumStructured`); see
// Note [Structured reductions].
import { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { int64Hint } from '../c10/Scalar.js';
import {
  ScalarType,
  isComplexType,
  isFloatingType,
  isIntegralType,
  notImplementedForDtype,
  scalarTypeToString,
  toRealValueType,
} from '../c10/ScalarType.js';
import { type TensorIterator, castValue, makeReduction, reduceKernel, reduceKernelComplex } from '../iter/index.js';
import { readElement, toStored } from '../tensor/elements.js';
import type { Tensor } from '../tensor/Tensor.js';
import { type TensorImpl, contiguousStrides } from '../tensor/TensorImpl.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';
import { copy_ } from './Copy.js';
import { newStrided } from './TensorFactories.js';
import { type StructuredKernel, type StructuredMeta, type StructuredOutputsKernel, allocateStructuredOutput } from './TensorMeta.js';
import {
  type ReduceRun,
  allRun,
  anyRun,
  argmaxRun,
  argminRun,
  maxRunVec,
  minRunVec,
  pNormRun,
  prodRun,
  sumRun,
  sumRunVec,
} from './ReduceOpsKernel.js';
import * as at from '../generated/TensorBody.js';
import { zcum, zmean, zprod, zsum } from './zmath.js';

// var, std, logsumexp and the redispatching overloads (the yaml names them `ReduceOps.*`).
export * from './ReduceOpsComposite.js';

type Opt<T> = T | null | undefined;

// Note [Structured reductions]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// As in PyTorch 2.13, sum.IntList_out, mean.out, prod.int_out, amax.out, amin.out, all/any (.out, .dims_out,
// .all_out), argmax.out, argmin.out and norm.out are structured and their functional overloads delegate to
// them. Each is a StructuredKernel whose meta does what PyTorch's meta function does (argument checks, the
// result dtype: infer_dtype_from_optional, get_result_or_bytebool_dtype, get_result_or_self_value_dtype) and
// then makeReduction, which sizes the result (resize_reduction) and builds the reduction TensorIterator that
// PyTorch's impl builds (Note [Reduction iterators]); the impl runs reduceKernel with the op's combine step.
// The input is read in the dtype PyTorch converts it to first (make_reduction_from_out_ty: the result's dtype
// for sum/mean/prod/all/any, its own for amax/amin/argmax/norm) through the iterator's compute dtype, not a
// copy. PyTorch's reductions derive from MetaBase, not TensorIteratorBase; the yaml says
// `structured_inherits: TensorIteratorBase` because here their meta returns the iterator. max.dim_max /
// min.dim_min (two outputs, precomputed dim) and cumsum.out / cumprod.out are structured on MetaBase, as in
// PyTorch (Note [Structured max.dim and min.dim], Note [Structured cumsum and cumprod]). The overloads
// PyTorch keeps unstructured (sum/mean/prod without dims, var, std, logsumexp, norm.Scalar) are plain
// CPU/Meta kernels over the same iterator and loop (var, std and logsumexp in ReduceOpsComposite.ts).

function noComplex(self: Tensor, op: string): void {
  if (isComplexType(self.scalarType)) throw new Error(`${op}: complex tensors are not supported by aten-ts reductions yet`);
}

/** `get_dtype_from_self(self, dtype, promote_integers=true)`: integers and bool accumulate into int64. */
function dtypeFromSelf(self: Tensor, dtype: Opt<ScalarType>): ScalarType {
  if (dtype != null) return dtype;
  return isIntegralType(self.scalarType, true) ? ScalarType.Long : self.scalarType;
}

/** `infer_dtype_from_optional`: the dtype argument, else the out= tensor's dtype, else dtypeFromSelf. */
function inferDtype(self: Tensor, dtype: Opt<ScalarType>, out: Tensor | null): ScalarType {
  if (out !== null) return dtype ?? out.scalarType;
  return dtypeFromSelf(self, dtype);
}

/** `zero_numel_check_dims`: an empty input can only be reduced along non-empty dims (printed as given). */
export function zeroNumelCheckDims(self: Tensor, dims: readonly number[], op: string): void {
  const n = self.dim();
  for (const d of dims) {
    if (n === 0) {
      if (d !== 0 && d !== -1) throw new RangeError(`${op}: Expected reduction dim -1 or 0 for scalar but got ${d}`);
    } else if (self.sizes[maybeWrapDim(d, n)] === 0) {
      throw new RangeError(`${op}: Expected reduction dim ${d} to have non-zero size.`);
    }
  }
}

/** A reduction kernel over a dim list: meta + impl with the argument tuple of its out= overload. */
type DimsArgs = [self: Tensor, dim: Opt<number[]>, keepdim: boolean, dtype?: Opt<ScalarType>];

/** The output dtype a mean/sum-like impl stores in. */
function outDtypeOf(iter: TensorIterator): ScalarType {
  return iter.output().scalarType;
}

// ---- sum ------------------------------------------------------------------------------------------

function sumMeta(
  out: Tensor | null,
  self: Tensor,
  dim: readonly number[] | null,
  keepdim: boolean,
  dtype: Opt<ScalarType>,
): TensorIterator {
  const outDtype = inferDtype(self, dtype, out);
  return makeReduction(out, self, dim, keepdim, outDtype, { inDtype: outDtype });
}

/**
 * The run summer for an iterator: the SIMD one only when the sum accumulates in the input's own float type
 * (float32 into float32, float64 into float64); a float32 input summed into float64 (`dtype=torch.float64`)
 * accumulates in doubles, as PyTorch's cast-then-sum does.
 */
function sumRunFor(iter: TensorIterator): ReduceRun {
  const inDtype = (iter.tensors[1] as TensorImpl).scalarType;
  return outDtypeOf(iter) === inDtype ? sumRunVec : sumRun;
}

function sumImpl(iter: TensorIterator): void {
  if (isComplexType(outDtypeOf(iter))) return reduceKernelComplex(iter, zsum);
  reduceKernel(iter, sumRunFor(iter), true);
}

/** `sum.IntList_out` (structured; sum.dim_IntList delegates to it). */
export const sumStructured: StructuredKernel<DimsArgs> = {
  meta: (out, self, dim, keepdim, dtype) => sumMeta(out, self, dim ?? null, keepdim, dtype),
  impl: sumImpl,
};

// ---- mean -----------------------------------------------------------------------------------------

function meanMeta(
  out: Tensor | null,
  self: Tensor,
  dim: readonly number[] | null,
  keepdim: boolean,
  dtype: Opt<ScalarType>,
): TensorIterator {
  const inDtype = dtypeFromSelf(self, dtype);
  if (!isFloatingType(inDtype) && !isComplexType(inDtype)) {
    const what = dtype != null ? 'Optional' : 'Input';
    throw new Error(
      `mean(): could not infer output dtype. ${what} dtype must be either a floating point or complex dtype. ` +
        `Got: ${scalarTypeToString(dtype ?? self.scalarType)}${dtype == null ? int64Hint(self) : ''}`,
    );
  }
  const outDtype = inferDtype(self, dtype, out);
  return makeReduction(out, self, dim, keepdim, outDtype, { inDtype: outDtype });
}

function meanImpl(iter: TensorIterator): void {
  // PyTorch's CPU mean is `sum_out(result, ...).div_(n)`: the sum is rounded to the result dtype, then divided.
  const outDtype = outDtypeOf(iter);
  if (isComplexType(outDtype))
    return reduceKernelComplex(
      iter,
      zmean((v) => castValue(v, outDtype)),
    );
  if (isIntegralType(outDtype, true)) {
    throw new Error(`result type Float can't be cast to the desired output type ${scalarTypeToString(outDtype)}`);
  }
  const run = sumRunFor(iter);
  if (outDtype === ScalarType.Half || outDtype === ScalarType.BFloat16) {
    // For float16/bfloat16 PyTorch sums into float32 and divides there (mean_out's "cast_fp32 -> sum -> div ->
    // cast" path); the store rounds the float32 quotient once more.
    reduceKernel(iter, (src, o, s, n) => Math.fround(Math.fround(run(src, o, s, n)) / n));
    return;
  }
  reduceKernel(iter, (src, o, s, n) => castValue(run(src, o, s, n), outDtype) / n);
}

/** `mean.out` (structured; mean.dim delegates to it). */
export const meanStructured: StructuredKernel<DimsArgs> = {
  meta: (out, self, dim, keepdim, dtype) => meanMeta(out, self, dim ?? null, keepdim, dtype),
  impl: meanImpl,
};

// ---- prod -----------------------------------------------------------------------------------------

function prodImpl(iter: TensorIterator): void {
  if (isComplexType(outDtypeOf(iter))) return reduceKernelComplex(iter, zprod);
  reduceKernel(iter, prodRun);
}

/** `prod.int_out` (structured; prod.dim_int delegates to it). */
export const prodStructured: StructuredKernel<[self: Tensor, dim: number, keepdim: boolean, dtype?: Opt<ScalarType>]> = {
  meta: (out, self, dim, keepdim, dtype) => {
    const outDtype = inferDtype(self, dtype, out);
    return makeReduction(out, self, [dim], keepdim, outDtype, { inDtype: outDtype });
  },
  impl: prodImpl,
};

// ---- amax / amin ----------------------------------------------------------------------------------

function extremumMeta(out: Tensor | null, self: Tensor, dim: readonly number[], keepdim: boolean, op: 'amax' | 'amin'): TensorIterator {
  if (out !== null && out.scalarType !== self.scalarType) {
    throw new Error(
      `Expected the dtype for input and out to match, but got ${scalarTypeToString(self.scalarType)} for input's dtype and ` +
        `${scalarTypeToString(out.scalarType)} for out's dtype.`,
    );
  }
  noComplex(self, op);
  if (self.numel() === 0) {
    zeroNumelCheckDims(self, dim, `${op}()`);
    if (dim.length === 0) {
      throw new Error(
        `${op}(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.`,
      );
    }
  }
  return makeReduction(out, self, dim, keepdim, self.scalarType);
}

/** `amax.out` (structured; amax delegates to it): NaN propagates. */
export const amaxStructured: StructuredKernel<[self: Tensor, dim: number[], keepdim: boolean]> = {
  meta: (out, self, dim, keepdim) => extremumMeta(out, self, dim, keepdim, 'amax'),
  impl: (iter) => reduceKernel(iter, maxRunVec),
};

/** `amin.out` (structured; amin delegates to it). */
export const aminStructured: StructuredKernel<[self: Tensor, dim: number[], keepdim: boolean]> = {
  meta: (out, self, dim, keepdim) => extremumMeta(out, self, dim, keepdim, 'amin'),
  impl: (iter) => reduceKernel(iter, minRunVec),
};

// ---- argmax / argmin ------------------------------------------------------------------------------

function argMeta(out: Tensor | null, self: Tensor, dim: Opt<number>, keepdim: boolean, op: 'argmax' | 'argmin'): TensorIterator {
  noComplex(self, op);
  if (dim != null) {
    const d = maybeWrapDim(dim, self.dim());
    zeroNumelCheckDims(self, [d], `${op}()`);
  } else if (self.numel() === 0) {
    throw new RangeError(`${op}(): Expected reduction dim to be specified for input.numel() == 0.`);
  }
  // dim=None: the index into the flattened input, so the iterator walks it in row-major order.
  return makeReduction(out, self, dim == null ? null : [dim], keepdim, ScalarType.Long, { linear: dim == null });
}

function argImpl(iter: TensorIterator, op: 'argmax' | 'argmin'): void {
  if (iter.input().scalarType === ScalarType.Bool) throw new Error(`${op}(): does not support bool input`);
  reduceKernel(iter, op === 'argmax' ? argmaxRun : argminRun);
}

/** `argmax.out` (structured; argmax delegates to it): the first index of the maximum. */
export const argmaxStructured: StructuredKernel<[self: Tensor, dim: Opt<number>, keepdim: boolean]> = {
  meta: (out, self, dim, keepdim) => argMeta(out, self, dim, keepdim, 'argmax'),
  impl: (iter) => argImpl(iter, 'argmax'),
};

/** `argmin.out` (structured; argmin delegates to it). */
export const argminStructured: StructuredKernel<[self: Tensor, dim: Opt<number>, keepdim: boolean]> = {
  meta: (out, self, dim, keepdim) => argMeta(out, self, dim, keepdim, 'argmin'),
  impl: (iter) => argImpl(iter, 'argmin'),
};

// ---- all / any ------------------------------------------------------------------------------------

// Note [all, any : uint8 compatibility]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// As PyTorch's note of that name says: the result is bool, or uint8 for a uint8 input; an out=
// must be one of the two. Like PyTorch's CPU kernel, a multi-element input is read converted to the result's
// dtype (so 0.5 is false for a uint8 result), a one-element input converted to bool.
function allAnyMeta(out: Tensor | null, self: Tensor, dim: number[] | null, keepdim: boolean, op: 'all' | 'any'): TensorIterator {
  if (out !== null && out.scalarType !== ScalarType.Bool && out.scalarType !== ScalarType.Byte) {
    throw new Error(`${op} only supports bool tensor for result, got: ${scalarTypeToString(out.scalarType)}`);
  }
  noComplex(self, op);
  const outDtype = out !== null ? out.scalarType : self.scalarType === ScalarType.Byte ? ScalarType.Byte : ScalarType.Bool;
  return makeReduction(out, self, dim, keepdim, outDtype, {
    allowEmptyDims: true,
    inDtype: self.numel() === 1 ? ScalarType.Bool : outDtype,
  });
}

type AllAnyDims = [self: Tensor, dim: Opt<number[]>, keepdim: boolean];

/** `all.dims_out` (structured; all.dims delegates to it); `dim=[]` reduces nothing. */
export const allDimsStructured: StructuredKernel<AllAnyDims> = {
  meta: (out, self, dim, keepdim) => allAnyMeta(out, self, dim ?? null, keepdim, 'all'),
  impl: (iter) => reduceKernel(iter, allRun),
};

/** `all.out` (structured; all.dim delegates to it). */
export const allDimStructured: StructuredKernel<[self: Tensor, dim: number, keepdim: boolean]> = {
  meta: (out, self, dim, keepdim) => allAnyMeta(out, self, [dim], keepdim, 'all'),
  impl: (iter) => reduceKernel(iter, allRun),
};

/** `all.all_out` (structured; all delegates to it). */
export const allAllStructured: StructuredKernel<[self: Tensor]> = {
  meta: (out, self) => allAnyMeta(out, self, null, false, 'all'),
  impl: (iter) => reduceKernel(iter, allRun),
};

/** `any.dims_out` (structured; any.dims delegates to it). */
export const anyDimsStructured: StructuredKernel<AllAnyDims> = {
  meta: (out, self, dim, keepdim) => allAnyMeta(out, self, dim ?? null, keepdim, 'any'),
  impl: (iter) => reduceKernel(iter, anyRun),
};

/** `any.out` (structured; any.dim delegates to it). */
export const anyDimStructured: StructuredKernel<[self: Tensor, dim: number, keepdim: boolean]> = {
  meta: (out, self, dim, keepdim) => allAnyMeta(out, self, [dim], keepdim, 'any'),
  impl: (iter) => reduceKernel(iter, anyRun),
};

/** `any.all_out` (structured; any delegates to it). */
export const anyAllStructured: StructuredKernel<[self: Tensor]> = {
  meta: (out, self) => allAnyMeta(out, self, null, false, 'any'),
  impl: (iter) => reduceKernel(iter, anyRun),
};

// ---- norm -----------------------------------------------------------------------------------------

function normMeta(out: Tensor | null, self: Tensor, dim: readonly number[] | null, keepdim: boolean): TensorIterator {
  // aten::norm's own text is `norm(): input dtype should be either floating point or complex. Got Long
  // instead.`; torch.norm in Python reaches linalg.vector_norm first, whose text users see, so this is it.
  if (!isFloatingType(self.scalarType)) {
    throw new Error(`linalg.vector_norm: Expected a floating point or complex tensor as input. Got ${scalarTypeToString(self.scalarType)}`);
  }
  // The result is in the input's real dtype: an out= of another dtype fails the out check (PyTorch's text).
  return makeReduction(out, self, dim, keepdim, toRealValueType(self.scalarType));
}

function normImpl(iter: TensorIterator, p: Opt<number | boolean>): void {
  reduceKernel(iter, pNormRun(Number(p ?? 2)));
}

/**
 * `linalg_vector_norm(self, ord=2, dim=None, keepdim=False, *, dtype=None)`: the p-norm over `dim` (every
 * dimension when None), the reduction torch.norm dispatches to for a numeric `p` or `'fro'` (torch/functional.py).
 */
export function linalgVectorNorm(
  _ks: DispatchKeySet,
  self: Tensor,
  ord: number | boolean = 2,
  dim: number[] | null = null,
  keepdim = false,
  dtype: ScalarType | null = null,
): Tensor {
  if (dtype !== null && dtype !== undefined && dtype !== self.scalarType) {
    throw new Error('linalg.vector_norm(dtype=...): aten-ts supports only the input dtype; convert the input with x.to(dtype)');
  }
  const iter = normMeta(null, self, dim, keepdim);
  normImpl(iter, ord);
  return iter.output() as Tensor;
}

/** `norm.out` (structured; norm.ScalarOpt_dim delegates to it). */
export const normStructured: StructuredKernel<[self: Tensor, p: Opt<number | boolean>, dim: number[], keepdim: boolean]> = {
  meta: (out, self, _p, dim, keepdim) => normMeta(out, self, dim, keepdim),
  impl: (iter, _self, p) => normImpl(iter, p),
};

// ---- the functional entry points (tests and the unstructured overloads) --------------------------------

/** Runs a structured kernel's functional form: meta(null) + impl, the result. */
function functional<A extends unknown[]>(k: StructuredKernel<A>, ...args: A): Tensor {
  const iter = k.meta(null, ...args);
  k.impl(iter, ...args);
  return iter.output() as Tensor;
}

/** `sum.dim_IntList(self, dim, keepdim, *, dtype)`; dim = null sums everything. */
export function sum(
  _ks: DispatchKeySet,
  self: Tensor,
  dim: number[] | null = null,
  keepdim = false,
  dtype: ScalarType | null = null,
): Tensor {
  return functional(sumStructured, self, dim, keepdim, dtype);
}

/** `sum(self, *, dtype=None)`: every element (PyTorch: CompositeExplicitAutograd over sum.dim_IntList). */
export function sumAll(_ks: DispatchKeySet, self: Tensor, dtype: ScalarType | null = null): Tensor {
  return functional(sumStructured, self, null, false, dtype);
}

/** `mean.dim(self, dim, keepdim, *, dtype)`: floating and complex inputs only. */
export function mean(
  _ks: DispatchKeySet,
  self: Tensor,
  dim: number[] | null = null,
  keepdim = false,
  dtype: ScalarType | null = null,
): Tensor {
  return functional(meanStructured, self, dim, keepdim, dtype);
}

/** `mean(self, *, dtype=None)`: every element. */
export function meanAll(_ks: DispatchKeySet, self: Tensor, dtype: ScalarType | null = null): Tensor {
  return functional(meanStructured, self, null, false, dtype);
}

/** `prod.dim_int`; dim = null multiplies everything. */
export function prod(
  ks: DispatchKeySet,
  self: Tensor,
  dim: number | null = null,
  keepdim = false,
  dtype: ScalarType | null = null,
): Tensor {
  if (dim === null) return prodAll(ks, self, dtype);
  return functional(prodStructured, self, dim, keepdim, dtype);
}

/** `prod(self, *, dtype=None)`: every element (PyTorch's own CPU kernel: impl_func_prod over no dims). */
export function prodAll(_ks: DispatchKeySet, self: Tensor, dtype: ScalarType | null = null): Tensor {
  const outDtype = dtypeFromSelf(self, dtype);
  const iter = makeReduction(null, self, null, false, outDtype, { inDtype: outDtype });
  prodImpl(iter);
  return iter.output() as Tensor;
}

/** `amax(self, dim=[], keepdim=False)`: NaN propagates. */
export function amax(_ks: DispatchKeySet, self: Tensor, dim: number[] = [], keepdim = false): Tensor {
  return functional(amaxStructured, self, dim, keepdim);
}

/** `amin(self, dim=[], keepdim=False)`. */
export function amin(_ks: DispatchKeySet, self: Tensor, dim: number[] = [], keepdim = false): Tensor {
  return functional(aminStructured, self, dim, keepdim);
}

/** `argmax(self, dim=None, keepdim=False)`: the first index of the maximum (of the flattened tensor for dim=None). */
export function argmax(_ks: DispatchKeySet, self: Tensor, dim: number | null = null, keepdim = false): Tensor {
  return functional(argmaxStructured, self, dim, keepdim);
}

export function argmin(_ks: DispatchKeySet, self: Tensor, dim: number | null = null, keepdim = false): Tensor {
  return functional(argminStructured, self, dim, keepdim);
}

/** `all.dims(self, dim=None, keepdim=False)`. */
export function all(_ks: DispatchKeySet, self: Tensor, dim: number[] | null = null, keepdim = false): Tensor {
  return functional(allDimsStructured, self, dim, keepdim);
}

/** `any.dims(self, dim=None, keepdim=False)`. */
export function any(_ks: DispatchKeySet, self: Tensor, dim: number[] | null = null, keepdim = false): Tensor {
  return functional(anyDimsStructured, self, dim, keepdim);
}

/** `norm.ScalarOpt_dim(self, p, dim, keepdim=False)`: floating inputs only. */
export function norm(_ks: DispatchKeySet, self: Tensor, p: number | null, dim: number[], keepdim = false): Tensor {
  return functional(normStructured, self, p, dim, keepdim);
}

/** `norm.Scalar(self, p=2)`: over every element (PyTorch: CompositeExplicitAutograd). */
export function normAll(_ks: DispatchKeySet, self: Tensor, p = 2): Tensor {
  const iter = normMeta(null, self, null, false);
  normImpl(iter, p);
  return iter.output() as Tensor;
}

/** Runs a MetaBase structured kernel's functional form: meta(null), allocate every output, impl. */
export function functionalOutputs<A extends unknown[], P>(
  k: StructuredOutputsKernel<A, A, P>,
  implArgs: (m: StructuredMeta<P>) => A,
  ...args: A
): Tensor[] {
  const m = k.meta(null, ...args);
  const outs = m.outputs.map((_, i) => allocateStructuredOutput(m, i));
  k.impl(outs, ...implArgs(m));
  return outs;
}

// ---- cumsum / cumprod (structured on MetaBase) ------------------------------------------------------

// Note [Structured cumsum and cumprod]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// As in PyTorch 2.13, cumsum.out / cumprod.out are structured (MetaBase) and cumsum, cumsum_, cumprod and
// cumprod_ delegate to them. The meta is meta_func_cum_ops: check the dim (the range error), then one output
// of self's sizes whose dtype is `dtype`, else the out= (or in-place self) tensor's own dtype, else self's
// with integers and bool promoted to int64. So `x.cumsum_(0, dtype=torch.float64)` on a float32 x fails the
// in-place check (`Bad in-place call: input tensor dtype float and output tensor dtype double should match`),
// and an out= takes its own dtype unless `dtype` says otherwise (`Expected out tensor to have dtype double,
// but got float instead`). The impl (impl_func_cum_ops) fills a 0-dim result with self, and otherwise reads
// self converted to the result's dtype (`self.to(result.scalar_type())`: 1.5 into an int64 out= counts 1),
// and rejects a bool result (`"cumsum_out_cpu" not implemented for 'Bool'`). The running value is rounded
// to the result's dtype after each step. A result that is not contiguous (an out= of the right shape keeps
// its strides) is computed contiguous and copied into it.

type CumArgs = [self: Tensor, dim: number, dtype?: Opt<ScalarType>];

function cumMeta(outs: readonly Tensor[] | null, self: Tensor, dim: number, dtype: Opt<ScalarType>): StructuredMeta {
  maybeWrapDim(dim, self.dim());
  const result = outs?.[0];
  const outDtype = result !== undefined ? (dtype ?? result.scalarType) : dtypeFromSelf(self, dtype);
  return { outputs: [{ sizes: self.sizes, dtype: outDtype, device: self.device }], precomputed: undefined };
}

function cumImpl(result: Tensor, self: Tensor, dim: number, op: 'cumsum' | 'cumprod'): void {
  const outDtype = result.scalarType;
  if (outDtype === ScalarType.Bool) throw notImplementedForDtype(`${op}_out_cpu`, ScalarType.Bool);
  if (self.isMeta() || self.numel() === 0) return;
  const d = self.dim() === 0 ? 0 : maybeWrapDim(dim, self.dim());
  const contiguous = result.isContiguous();
  const out = contiguous ? result : newStrided([...result.sizes], contiguousStrides(result.sizes), outDtype, result.device);
  const sizes = self.dim() === 0 ? [1] : self.sizes;
  const size = sizes[d] as number;
  let inner = 1;
  for (let i = d + 1; i < sizes.length; i++) inner *= sizes[i] as number;
  const outer = self.numel() / (size * inner);
  if (isComplexType(outDtype)) {
    const srcC = at.contiguous(at.to_dtype(self, outDtype));
    const [s, o] = [srcC.dataView(), out.dataView()];
    zcum(s.data, s.base, o.data, o.base, outer, size, inner, op === 'cumprod', (v) => castValue(v, outDtype));
    if (!contiguous) copy_(DispatchKeySet.EMPTY, result, out);
    return;
  }
  const src = at.contiguous(self);
  const convert = src.scalarType !== outDtype;
  const { data: sd, base: sb } = src.dataView();
  const { data, base } = out.dataView();
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      let acc = op === 'cumsum' ? 0 : 1;
      for (let k = 0; k < size; k++) {
        const at = (o * size + k) * inner + i;
        let v = Number(readElement(src.scalarType, sd, sb + at));
        if (convert) v = castValue(v, outDtype);
        acc = op === 'cumsum' ? acc + v : acc * v;
        data[base + at] = toStored(outDtype, acc);
        // accumulate in the output dtype, as PyTorch's CPU kernel does for float32
        acc = Number(readElement(outDtype, data, base + at));
      }
    }
  }
  // The copy kernel itself (no dispatch: kernels leave version counters to ADInplaceOrView).
  if (!contiguous) copy_(DispatchKeySet.EMPTY, result, out);
}

/** `cumsum.out` (structured, MetaBase; cumsum and cumsum_ delegate to it): integers accumulate into int64. */
export const cumsumStructured: StructuredOutputsKernel<CumArgs> = {
  meta: (outs, self, dim, dtype) => cumMeta(outs, self, dim, dtype),
  impl: (outs, self, dim) => cumImpl(outs[0] as Tensor, self, dim, 'cumsum'),
};

/** `cumprod.out` (structured, MetaBase; cumprod and cumprod_ delegate to it). */
export const cumprodStructured: StructuredOutputsKernel<CumArgs> = {
  meta: (outs, self, dim, dtype) => cumMeta(outs, self, dim, dtype),
  impl: (outs, self, dim) => cumImpl(outs[0] as Tensor, self, dim, 'cumprod'),
};

/** `cumsum(self, dim, *, dtype=None)` (the functional form, for tests). */
export function cumsum(_ks: DispatchKeySet, self: Tensor, dim: number, dtype: ScalarType | null = null): Tensor {
  return functionalOutputs(cumsumStructured, (): CumArgs => [self, dim, dtype], self, dim, dtype)[0] as Tensor;
}

/** `cumprod(self, dim, *, dtype=None)`. */
export function cumprod(_ks: DispatchKeySet, self: Tensor, dim: number, dtype: ScalarType | null = null): Tensor {
  return functionalOutputs(cumprodStructured, (): CumArgs => [self, dim, dtype], self, dim, dtype)[0] as Tensor;
}

// ---- Overloads a PyTorch user types -----------------------------------------------------------------------

function reductionOverAll(name: string, self: Tensor): void {
  if (self.numel() === 0) {
    throw new Error(
      `${name}(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.`,
    );
  }
}

/** `max(self)`: the largest element (ReduceAllOps.cpp's max; MaxBackward1 distributes the gradient over ties). */
export function maxAll(ks: DispatchKeySet, self: Tensor): Tensor {
  reductionOverAll('max', self);
  return amax(ks, self, [], false);
}

/** `min(self)`: the smallest element. */
export function minAll(ks: DispatchKeySet, self: Tensor): Tensor {
  reductionOverAll('min', self);
  return amin(ks, self, [], false);
}
