// Reductions over all dims or a dim list, with keepdim and dtype: sum, mean, prod, amax, amin, all, any,
// argmax, argmin, max.dim, min.dim, var, std, logsumexp. Mirrors aten/src/ATen/native/ReduceOps.cpp (its meta
// functions decide the result shape and dtype) and native/cpu/ReduceOpsKernel.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isComplexType, isFloatingType, isIntegralType, scalarTypeToString } from '../c10/ScalarType.js';
import { fromStored, readElement, toStored } from '../tensor/elements.js';
import type { Tensor } from '../tensor/Tensor.js';
import { contiguousStrides } from '../tensor/TensorImpl.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';
import { newStrided } from './TensorFactories.js';

/** The dims a reduction runs over: all for null/[] (as `dim=None` and `dim=[]` mean in PyTorch), wrapped, unique. */
function reductionDims(self: Tensor, dim: readonly number[] | number | null | undefined): boolean[] {
  const n = self.dim();
  const mask = new Array<boolean>(Math.max(n, 1)).fill(false);
  const dims = dim == null ? [] : typeof dim === 'number' ? [dim] : dim;
  if (dims.length === 0) return mask.fill(true);
  for (const d of dims) {
    const w = maybeWrapDim(d, n);
    if (mask[w]) throw new Error(`dim ${w} appears multiple times in the list of dims`);
    mask[w] = true;
  }
  return mask;
}

/** Output sizes: reduced dims removed, or kept as 1 with keepdim. */
function reducedSizes(self: Tensor, mask: readonly boolean[], keepdim: boolean): number[] {
  const out: number[] = [];
  self.sizes.forEach((s, i) => {
    if (!mask[i]) out.push(s);
    else if (keepdim) out.push(1);
  });
  return out;
}

// Note [Simple reduction loops]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// These kernels compute, once per call, the storage offsets of the kept and of the reduced index
// combinations; for each output element they gather the reduced values (row-major order of the reduced dims)
// into one reused buffer and combine it. That handles every layout without per-element allocation, but it is
// not TensorIterator's reduction machinery (vectorised inner loops, no gather); reductions will move onto it
// when the iterator grows reduction loops.

/** Storage offsets (in elements) of every index combination over `dims`, row-major. */
function offsetsOver(self: Tensor, dims: readonly number[]): Float64Array {
  let count = 1;
  for (const d of dims) count *= self.sizes[d] as number;
  const offsets = new Float64Array(count);
  let len = 1;
  for (const d of dims) {
    const size = self.sizes[d] as number;
    const stride = self.strides[d] as number;
    // expand in place from the back so each old entry o becomes o, o + stride, ..., o + (size-1)*stride
    for (let j = len - 1; j >= 0; j--) {
      const o = offsets[j] as number;
      for (let i = size - 1; i >= 0; i--) offsets[j * size + i] = o + i * stride;
    }
    len *= size;
  }
  return offsets;
}

/**
 * Calls `visit(outIndex, values)` for every output element with the input values reduced into it (as
 * numbers, row-major over the reduced dims). `values` is one buffer reused across calls: read it, do not keep it.
 */
function forEachReduction(self: Tensor, mask: readonly boolean[], visit: (outIndex: number, values: number[]) => void): void {
  const n = self.dim();
  const keptDims: number[] = [];
  const reducedDims: number[] = [];
  for (let i = 0; i < n; i++) (mask[i] ? reducedDims : keptDims).push(i);
  const { base, lanes } = self.dataView();
  const src = self.storage.data(self.dtype);
  const dtype = self.dtype;
  const decode = dtype === ScalarType.Half || dtype === ScalarType.BFloat16;
  const outer = offsetsOver(self, keptDims);
  const inner = offsetsOver(self, reducedDims);
  const m = inner.length;
  for (let j = 0; j < m; j++) inner[j] = base + (inner[j] as number) * lanes;
  const values = new Array<number>(m).fill(0);
  for (let k = 0; k < outer.length; k++) {
    const o = (outer[k] as number) * lanes;
    if (decode) for (let j = 0; j < m; j++) values[j] = fromStored(dtype, src[o + (inner[j] as number)] as number);
    else for (let j = 0; j < m; j++) values[j] = src[o + (inner[j] as number)] as number;
    visit(k, values);
  }
}

function checkNonEmpty(self: Tensor, mask: readonly boolean[], op: string): void {
  for (let i = 0; i < self.dim(); i++) {
    if (mask[i] && self.sizes[i] === 0) throw new Error(`${op}(): Expected reduction dim ${i} to have non-zero size.`);
  }
}

/** A full reduction (no dim) of an empty tensor has no identity for max/min-like ops. */
function checkFullReductionNonEmpty(self: Tensor, allDims: boolean, op: string, hint: string): void {
  if (allDims && self.numel === 0) throw new Error(`${op}(): Expected reduction dim to be specified for input.numel() == 0.${hint}`);
}

/** Runs `combine` over each reduction and writes the result (a number) into a new tensor of `dtype`. */
function reduceInto(self: Tensor, mask: boolean[], keepdim: boolean, dtype: ScalarType, combine: (values: number[]) => number): Tensor {
  const sizes = reducedSizes(self, mask, keepdim);
  const out = newStrided(sizes, contiguousStrides(sizes), dtype, self.device);
  if (self.isMeta()) return out;
  const { data, base } = out.dataView();
  forEachReduction(self, mask, (k, values) => {
    data[base + k] = toStored(dtype, combine(values));
  });
  return out;
}

/** sum/prod result dtype: integers and bool accumulate into int64 unless a dtype is given. */
function accumulateDtype(self: Tensor, dtype: ScalarType | null | undefined): ScalarType {
  if (dtype != null) return dtype;
  return isIntegralType(self.dtype, true) ? ScalarType.Long : self.dtype;
}

function noComplex(self: Tensor, op: string): void {
  if (isComplexType(self.dtype)) throw new Error(`${op}: complex tensors are not supported by aten-ts reductions yet`);
}

// Note [Reduction order]
// ~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's CPU sum uses a cascade of partial sums in the accumulation type, so the last bits of a float32
// sum depend on the blocking. These kernels accumulate in double precision (pairwise over the reduced
// elements) and round once: exact for integers below 2^53 and at least as accurate as PyTorch's float
// sums, but not bit-identical to them; tests compare floating results with a relative tolerance.
function pairwiseSum(v: number[], lo = 0, hi = v.length): number {
  if (hi - lo <= 8) {
    let s = 0;
    for (let i = lo; i < hi; i++) s += v[i] as number;
    return s;
  }
  const mid = (lo + hi) >>> 1;
  return pairwiseSum(v, lo, mid) + pairwiseSum(v, mid, hi);
}

/** `sum.dim_IntList(self, dim, keepdim, *, dtype)` and `sum(self, *, dtype)` (dim = null). */
export function sum(_ks: DispatchKeySet, self: Tensor, dim: number[] | null = null, keepdim = false, dtype: ScalarType | null = null): Tensor {
  noComplex(self, 'sum');
  const mask = reductionDims(self, dim);
  return reduceInto(self, mask, keepdim, accumulateDtype(self, dtype), (v) => pairwiseSum(v));
}

/** `prod`: product over all elements or one dim. */
export function prod(_ks: DispatchKeySet, self: Tensor, dim: number | null = null, keepdim = false, dtype: ScalarType | null = null): Tensor {
  noComplex(self, 'prod');
  return reduceInto(self, reductionDims(self, dim), keepdim, accumulateDtype(self, dtype), (v) => v.reduce((a, b) => a * b, 1));
}

/** `mean.dim(self, dim, keepdim, *, dtype)`: floating and complex inputs only. */
export function mean(_ks: DispatchKeySet, self: Tensor, dim: number[] | null = null, keepdim = false, dtype: ScalarType | null = null): Tensor {
  const outDtype = dtype ?? self.dtype;
  if (!isFloatingType(outDtype)) {
    throw new Error(
      'mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. ' +
        `Got: ${scalarTypeToString(outDtype)}`,
    );
  }
  return reduceInto(self, reductionDims(self, dim), keepdim, outDtype, (v) => (v.length === 0 ? NaN : pairwiseSum(v) / v.length));
}

function extremum(self: Tensor, dim: number[] | null, keepdim: boolean, op: 'amax' | 'amin'): Tensor {
  noComplex(self, op);
  checkFullReductionNonEmpty(self, dim === null || dim.length === 0, op, " Specify the reduction dim with the 'dim' argument.");
  const mask = reductionDims(self, dim);
  checkNonEmpty(self, mask, op);
  const better = op === 'amax' ? (a: number, b: number) => a > b : (a: number, b: number) => a < b;
  return reduceInto(self, mask, keepdim, self.dtype, (v) => {
    let best = v[0] as number;
    for (const x of v) {
      if (x !== x) return NaN; // NaN propagates
      if (better(x, best)) best = x;
    }
    return best;
  });
}

/** `amax(self, dim=[], keepdim=False)`: NaN propagates. */
export function amax(_ks: DispatchKeySet, self: Tensor, dim: number[] = [], keepdim = false): Tensor {
  return extremum(self, dim, keepdim, 'amax');
}

/** `amin(self, dim=[], keepdim=False)`. */
export function amin(_ks: DispatchKeySet, self: Tensor, dim: number[] = [], keepdim = false): Tensor {
  return extremum(self, dim, keepdim, 'amin');
}

function argExtremum(self: Tensor, dim: number | null, keepdim: boolean, op: 'argmax' | 'argmin', allowBool = false): Tensor {
  noComplex(self, op);
  if (self.dtype === ScalarType.Bool && !allowBool) throw new Error(`${op}(): does not support bool input`);
  checkFullReductionNonEmpty(self, dim === null, op, '');
  const flat = dim == null;
  const source = flat ? self.reshape(-1) : self;
  const mask = reductionDims(source, flat ? null : dim);
  if (source.numel === 0) {
    throw new Error(`${op}(): Expected reduction dim ${flat ? 0 : maybeWrapDim(dim, self.dim())} to have non-zero size.`);
  }
  const better = op === 'argmax' ? (a: number, b: number) => a > b : (a: number, b: number) => a < b;
  const out = reduceInto(source, mask, flat ? false : keepdim, ScalarType.Long, (v) => {
    let bi = 0;
    for (let i = 0; i < v.length; i++) {
      const x = v[i] as number;
      if (x !== x) return i; // the first NaN wins
      if (better(x, v[bi] as number)) bi = i;
    }
    return bi;
  });
  return flat && keepdim ? out.reshape(self.sizes.map(() => 1)) : out;
}

/** `argmax(self, dim=None, keepdim=False)`: the first index of the maximum (of the flattened tensor for dim=None). */
export function argmax(_ks: DispatchKeySet, self: Tensor, dim: number | null = null, keepdim = false): Tensor {
  return argExtremum(self, dim, keepdim, 'argmax');
}

export function argmin(_ks: DispatchKeySet, self: Tensor, dim: number | null = null, keepdim = false): Tensor {
  return argExtremum(self, dim, keepdim, 'argmin');
}

/** `max.dim` / `min.dim`: (values, indices) along one dim. */
export function maxDim(_ks: DispatchKeySet, self: Tensor, dim: number, keepdim = false): [Tensor, Tensor] {
  return [extremum(self, [dim], keepdim, 'amax'), argExtremum(self, dim, keepdim, 'argmax', true)];
}

export function minDim(_ks: DispatchKeySet, self: Tensor, dim: number, keepdim = false): [Tensor, Tensor] {
  return [extremum(self, [dim], keepdim, 'amin'), argExtremum(self, dim, keepdim, 'argmin', true)];
}

function boolReduce(self: Tensor, dim: number[] | null, keepdim: boolean, all: boolean): Tensor {
  noComplex(self, all ? 'all' : 'any');
  // uint8 inputs keep uint8 results, everything else gives bool (as PyTorch 2.x does)
  const dtype = self.dtype === ScalarType.Byte ? ScalarType.Byte : ScalarType.Bool;
  return reduceInto(self, reductionDims(self, dim), keepdim, dtype, (v) =>
    all ? (v.every((x) => x !== 0) ? 1 : 0) : v.some((x) => x !== 0) ? 1 : 0,
  );
}

/** `all.dims(self, dim=None, keepdim=False)`. */
export function all(_ks: DispatchKeySet, self: Tensor, dim: number[] | null = null, keepdim = false): Tensor {
  return boolReduce(self, dim, keepdim, true);
}

/** `any.dims(self, dim=None, keepdim=False)`. */
export function any(_ks: DispatchKeySet, self: Tensor, dim: number[] | null = null, keepdim = false): Tensor {
  return boolReduce(self, dim, keepdim, false);
}

function varianceOf(self: Tensor, dim: number[] | null, correction: number | null, keepdim: boolean, op: 'var' | 'std'): Tensor {
  if (!isFloatingType(self.dtype)) {
    throw new Error(`std and var only support floating point and complex dtypes`);
  }
  const c = correction ?? 1;
  return reduceInto(self, reductionDims(self, dim), keepdim, self.dtype, (v) => {
    const m = pairwiseSum(v) / v.length;
    const ss = pairwiseSum(v.map((x) => (x - m) * (x - m)));
    const r = ss / Math.max(0, v.length - c);
    return op === 'var' ? r : Math.sqrt(r);
  });
}

/** `var.correction(self, dim=None, *, correction=None, keepdim=False)` (`var` is a JavaScript keyword). */
export function varCorrection(_ks: DispatchKeySet, self: Tensor, dim: number[] | null = null, correction: number | null = null, keepdim = false): Tensor {
  return varianceOf(self, dim, correction, keepdim, 'var');
}

/** `std.correction(self, dim=None, *, correction=None, keepdim=False)`. */
export function std(_ks: DispatchKeySet, self: Tensor, dim: number[] | null = null, correction: number | null = null, keepdim = false): Tensor {
  return varianceOf(self, dim, correction, keepdim, 'std');
}

/** `logsumexp(self, dim, keepdim=False)`: stable (subtracts the maximum); integers compute in the default float. */
export function logsumexp(_ks: DispatchKeySet, self: Tensor, dim: number[], keepdim = false): Tensor {
  const dtype = isFloatingType(self.dtype) ? self.dtype : ScalarType.Float;
  return reduceInto(self, reductionDims(self, dim), keepdim, dtype, (v) => {
    if (v.length === 0) return -Infinity;
    let m = -Infinity;
    for (const x of v) m = x > m || x !== x ? x : m;
    if (!Number.isFinite(m)) return m === m ? m : NaN;
    return m + Math.log(pairwiseSum(v.map((x) => Math.exp(x - m))));
  });
}

/** `sum(self, *, dtype=None)`: every element. */
export function sumAll(ks: DispatchKeySet, self: Tensor, dtype: ScalarType | null = null): Tensor {
  return sum(ks, self, null, false, dtype);
}

/** `mean(self, *, dtype=None)`: every element. */
export function meanAll(ks: DispatchKeySet, self: Tensor, dtype: ScalarType | null = null): Tensor {
  return mean(ks, self, null, false, dtype);
}

/** `prod(self, *, dtype=None)`: every element. */
export function prodAll(ks: DispatchKeySet, self: Tensor, dtype: ScalarType | null = null): Tensor {
  return prod(ks, self, null, false, dtype);
}

function cumulative(self: Tensor, dim: number, dtype: ScalarType | null, op: 'cumsum' | 'cumprod'): Tensor {
  noComplex(self, op);
  const outDtype = accumulateDtype(self, dtype);
  const d = self.dim() === 0 ? 0 : maybeWrapDim(dim, self.dim());
  const out = newStrided([...self.sizes], contiguousStrides(self.sizes), outDtype, self.device);
  if (self.isMeta() || self.numel === 0) return out;
  const sizes = self.dim() === 0 ? [1] : self.sizes;
  const size = sizes[d] as number;
  let inner = 1;
  for (let i = d + 1; i < sizes.length; i++) inner *= sizes[i] as number;
  const outer = self.numel / (size * inner);
  const src = self.contiguous();
  const { data: sd, base: sb } = src.dataView();
  const { data, base } = out.dataView();
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      let acc = op === 'cumsum' ? 0 : 1;
      for (let k = 0; k < size; k++) {
        const at = (o * size + k) * inner + i;
        const v = Number(readElement(src.dtype, sd, sb + at));
        acc = op === 'cumsum' ? acc + v : acc * v;
        data[base + at] = toStored(outDtype, acc);
        // accumulate in the output dtype, as PyTorch's CPU kernel does for float32
        acc = Number(readElement(outDtype, data, base + at));
      }
    }
  }
  return out;
}

/** `cumsum(self, dim, *, dtype=None)`: integers accumulate into int64. */
export function cumsum(_ks: DispatchKeySet, self: Tensor, dim: number, dtype: ScalarType | null = null): Tensor {
  return cumulative(self, dim, dtype, 'cumsum');
}

/** `cumprod(self, dim, *, dtype=None)`. */
export function cumprod(_ks: DispatchKeySet, self: Tensor, dim: number, dtype: ScalarType | null = null): Tensor {
  return cumulative(self, dim, dtype, 'cumprod');
}

/** The p-norm of a list of values: p = 0 counts non-zeros, ±inf take the max/min magnitude. */
function pNorm(v: number[], p: number): number {
  if (p === Infinity) return v.reduce((m, x) => (Math.abs(x) > m || x !== x ? Math.abs(x) : m), 0);
  if (p === -Infinity) return v.length === 0 ? Infinity : v.reduce((m, x) => (Math.abs(x) < m || x !== x ? Math.abs(x) : m), Infinity);
  if (p === 0) return v.reduce((c, x) => c + (x !== 0 ? 1 : 0), 0);
  if (p === 1) return pairwiseSum(v.map(Math.abs));
  if (p === 2) return Math.sqrt(pairwiseSum(v.map((x) => x * x)));
  return pairwiseSum(v.map((x) => Math.abs(x) ** p)) ** (1 / p);
}

/** `norm.ScalarOpt_dim(self, p, dim, keepdim=False)`: floating inputs only. */
export function norm(_ks: DispatchKeySet, self: Tensor, p: number | null, dim: number[], keepdim = false): Tensor {
  if (!isFloatingType(self.dtype)) {
    throw new Error(`linalg.vector_norm: Expected a floating point or complex tensor as input. Got ${scalarTypeToString(self.dtype)}`);
  }
  return reduceInto(self, reductionDims(self, dim), keepdim, self.dtype, (v) => pNorm(v, p ?? 2));
}

/** `norm.Scalar(self, p=2)`: over every element. */
export function normAll(ks: DispatchKeySet, self: Tensor, p = 2): Tensor {
  return norm(ks, self, p, [], false);
}
