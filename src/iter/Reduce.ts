// The reduction loop over a built reduction TensorIterator: one combine step per output element over its
// reduced slice. Mirrors ATen/native/cpu/Reduce.h (binary_kernel_reduce and the reduce loops, simplified).

import { ScalarType, scalarTypeToString } from '../c10/ScalarType.js';
import type { StorageArray } from '../tensor/Storage.js';
import type { TensorImpl } from '../tensor/TensorImpl.js';
import type { TensorIterator } from './TensorIterator.js';
import { elementBase } from './Loops.js';
import { CHUNK, castChunk, castValue, gather, isComplex, isDirect, loadOne, storeReal } from './TypeCast.js';

// ---------------------------------------------------------------------------------------------------
// Reductions (binary_kernel_reduce / the reduce loops of native/cpu/Reduce.h, simplified)
// ---------------------------------------------------------------------------------------------------

/**
 * A reduction's combine step: the value of one output element from the `n` input values
 * `src[offset + i * stride]` (i < n) of its reduced slice, as numbers (bool as 0/1, float16/bfloat16
 * decoded, converted to the input's compute dtype). Called with `n = 0` for an empty slice: return the
 * identity (0 for sum, 1 for prod, NaN for mean, ...). `src` may be a storage array or the shared gather
 * buffer: read it, do not keep it.
 */
export type ReduceOp = (src: ArrayLike<number>, offset: number, stride: number, n: number) => number;

// Note [Simple reduction loops]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// reduceKernel walks a reduction iterator (Note [Reduction iterators] in ReduceOpsUtils.ts) one output
// element at a time and hands the kernel that element's whole reduced slice. When the slice is one strided
// run (the reduced dims coalesced into one, as for any reduction over contiguous memory) of a dtype whose
// storage array holds the values themselves (float32/64, int8/16/32/64, uint8, bool) read in its own dtype,
// the kernel reads the storage array in place: `sum` of 10^6 float32 is one call over the Float32Array.
// Otherwise (several reduced dims left after coalescing, float16/bfloat16 bits, a conversion to another
// compute dtype) the slice is gathered, decoded and converted into one Float64Array reused for every output
// element of the call, and the kernel reads that; the storage offsets of the slice's elements (in iteration
// order, fastest dim first) are computed once per call. Unlike PyTorch's loops there is no vectorisation
// across output elements (an outer reduction, e.g. sum over dim 0 of a row-major matrix, reads each slice
// with a large stride).

/** The dtypes whose storage array holds the element values as they are (Note [Simple reduction loops]). */
function isPlainReadable(d: ScalarType): boolean {
  return isDirect(d) || d === ScalarType.Long || d === ScalarType.Bool;
}

/**
 * Whether converting every value of `from` to `to` leaves it unchanged (small integers and float32 widened to
 * int64/float64, ...): the reduction then reads the input as it is (sum of int32 into int64).
 */
function isLosslessConversion(from: ScalarType, to: ScalarType): boolean {
  if (from === to) return true;
  const small = from === ScalarType.Bool || from === ScalarType.Byte || from === ScalarType.Char || from === ScalarType.Short;
  switch (to) {
    case ScalarType.Double:
      return small || from === ScalarType.Int || from === ScalarType.Float || from === ScalarType.Half || from === ScalarType.BFloat16;
    case ScalarType.Long:
      return small || from === ScalarType.Int;
    case ScalarType.Float:
    case ScalarType.Int:
      return small;
    default:
      return false;
  }
}

const EMPTY_VALUES = new Float64Array(0);
let reduceBuffer = new Float64Array(CHUNK);

/** The reused gather buffer, grown to `n`; slices beyond 2^16 elements get a buffer of their own. */
function gatherBuffer(n: number): Float64Array {
  if (n <= reduceBuffer.length) return reduceBuffer;
  if (n > 65536) return new Float64Array(n);
  reduceBuffer = new Float64Array(n);
  return reduceBuffer;
}

/** Stores a real value in a strided tensor's every element (the identity of an empty reduction). */
function fillReal(t: TensorImpl, v: number, im = 0): void {
  const n = t.numel();
  if (n === 0) return;
  const arr = t.storage.data(t.scalarType);
  const sizes = t.sizes;
  const strides = t.strides;
  const nd = sizes.length;
  const counter = new Array<number>(nd).fill(0);
  let p = elementBase(t);
  const lanes = isComplex(t.scalarType) ? 2 : 1;
  const value = castValue(v, t.scalarType);
  for (let e = 0; e < n; e++) {
    if (lanes === 2) {
      arr[2 * p] = value;
      arr[2 * p + 1] = castValue(im, t.scalarType);
    } else {
      storeReal(t.scalarType, arr, p, value);
    }
    for (let d = nd - 1; d >= 0; d--) {
      const c = (counter[d] as number) + 1;
      if (c < (sizes[d] as number)) {
        counter[d] = c;
        p += strides[d] as number;
        break;
      }
      counter[d] = 0;
      p -= (c - 1) * (strides[d] as number);
    }
  }
}

// Note [Reducing runs, then partials]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A reduction over several dims whose fastest reduced dim is a contiguous run (a convolution's bias
// gradient, sum over [0, 2, 3] of [n, c, h, w]: runs of h·w, n of them per channel) would gather each
// output's whole slice, element by element, into the double buffer. With `runsThenPartials` (an op for which
// reducing partial results is the same reduction: sum, amax, amin, all, any) the op reduces each run in place
// (the SIMD sum on linear memory) and then the runs' partials, in run order: the gather is gone and each
// element is read once. It is a different summation order (each run's own cascade, then the partials in
// doubles), within Note [Reduction order]'s tolerance, and the same on any thread count. An op with a planes
// form (PlanesOp: the float sums, Note [Per-channel sums]) takes two reduced dims in one call per row of
// outputs instead, with its own rule for the partials.

/**
 * An op's form for `cols` runs that start at consecutive elements (the columns of a row-major matrix, Note
 * [Column sums]): writes op(src, o + c, s, n) for each c < cols into `into`, or returns false (the op then
 * runs per column).
 */
export type ColumnsOp = (src: ArrayLike<number>, o: number, s: number, n: number, cols: number, into: Float64Array) => boolean;

/**
 * An op's form for planes of runs (Note [Per-channel sums] in src/kernels/ReduceOpsKernel.ts): for p < planes,
 * writes into `into[p]` the op over the `runs` runs of n elements at src[o + p·ps + r·rs] (unit stride), or
 * returns false (the op then runs per run and reduces the partials).
 */
export type PlanesOp = (
  src: ArrayLike<number>,
  o: number,
  n: number,
  runs: number,
  rs: number,
  planes: number,
  ps: number,
  into: Float64Array,
) => boolean;

/** Runs of at least this many elements are reduced in place (Note [Reducing runs, then partials]). */
const MIN_RUN = 16;

/**
 * `binary_kernel_reduce`: for every output element of a reduction iterator (one output, one input; see
 * makeReduction), `op` combines the element's reduced slice into its value, which is converted to the
 * output's dtype and stored. Reduced slices are walked in iteration order (fastest dim first: row-major over
 * the reduced dims for a single reduced dim or a linear iterator), so `op` may return an index (argmax). An
 * empty iteration space fills the result with `op` of an empty slice. Meta iterators do nothing. See Note
 * [Simple reduction loops].
 */
export function reduceKernel(iter: TensorIterator, op: ReduceOp, runsThenPartials = false): void {
  if (iter.numOutputs !== 1 || iter.tensors.length !== 2 || !iter.isReduction) {
    throw new Error('reduceKernel: expected a reduction iterator with one output and one input (makeReduction)');
  }
  if (iter.isMeta) return;
  const out = iter.tensors[0] as TensorImpl;
  const inp = iter.tensors[1] as TensorImpl;
  const outDtype = out.scalarType;
  if (isComplex(outDtype)) throw new Error(`reduceKernel: complex outputs (${scalarTypeToString(outDtype)}) are not supported`);
  if (iter.numel() === 0) {
    fillReal(iter.output(), op(EMPTY_VALUES, 0, 1, 0));
    return;
  }
  const shape = iter.shape;
  const ndim = shape.length;
  const st = iter.strides;
  const inDtype0 = inp.scalarType;
  const convert = !isLosslessConversion(inDtype0, iter.computeDtype(1));
  if (ndim <= 2 && isPlainReadable(inDtype0) && !convert && (ndim < 2 || (st[0] === 0 && st[2] !== 0))) {
    // The common shapes without the general bookkeeping: one run (a full reduction, or one element per output),
    // or reduced runs along dim 0 for each output along dim 1.
    const inArr = inp.storage.data(inDtype0);
    const outArr = out.storage.data(outDtype);
    const po = elementBase(out);
    const pi = elementBase(inp);
    if (ndim === 0) {
      storeReal(outDtype, outArr, po, op(inArr, pi, 0, 1));
    } else if (st[0] === 0) {
      const n = shape[0] as number;
      const s = st[1] as number;
      const rows = ndim === 2 ? (shape[1] as number) : 1;
      const os = ndim === 2 ? (st[2] as number) : 0;
      const is = ndim === 2 ? (st[3] as number) : 0;
      const columns = (op as ReduceOp & { columns?: ColumnsOp }).columns;
      if (columns !== undefined && is === 1 && rows > 1) {
        const values = new Float64Array(rows);
        if (columns(inArr, pi, s, n, rows, values)) {
          for (let r = 0; r < rows; r++) storeReal(outDtype, outArr, po + r * os, values[r] as number);
          return;
        }
      }
      for (let r = 0; r < rows; r++) storeReal(outDtype, outArr, po + r * os, op(inArr, pi + r * is, s, n));
    } else {
      const n = shape[0] as number;
      const os = st[0] as number;
      const is = st[1] as number;
      for (let r = 0; r < n; r++) storeReal(outDtype, outArr, po + r * os, op(inArr, pi + r * is, 0, 1));
    }
    return;
  }
  // Reduced dims (output stride 0) and kept dims, each in iteration order.
  const redSizes: number[] = [];
  const redStrides: number[] = [];
  const keptSizes: number[] = [];
  const keptOut: number[] = [];
  const keptIn: number[] = [];
  for (let d = 0; d < ndim; d++) {
    const size = shape[d] as number;
    if (st[2 * d] === 0) {
      redSizes.push(size);
      redStrides.push(st[2 * d + 1] as number);
    } else {
      keptSizes.push(size);
      keptOut.push(st[2 * d] as number);
      keptIn.push(st[2 * d + 1] as number);
    }
  }
  let m = 1;
  for (const s of redSizes) m *= s;
  const inDtype = inp.scalarType;
  const inCompute = iter.computeDtype(1);
  const inArr = inp.storage.data(inDtype);
  const outArr = out.storage.data(outDtype);
  const direct = redSizes.length <= 1 && !convert && isPlainReadable(inDtype);
  const runStride = redSizes.length === 1 ? (redStrides[0] as number) : 0;
  if (
    runsThenPartials &&
    redSizes.length > 1 &&
    redStrides[0] === 1 &&
    (redSizes[0] as number) >= MIN_RUN &&
    !convert &&
    isPlainReadable(inDtype)
  ) {
    reduceRunsThenPartials(
      inArr,
      elementBase(inp),
      outArr,
      elementBase(out),
      outDtype,
      redSizes,
      redStrides,
      keptSizes,
      keptOut,
      keptIn,
      op,
    );
    return;
  }
  // The slice's element offsets, fastest reduced dim varying fastest, when it is not one strided run.
  let rel: Float64Array | null = null;
  if (redSizes.length > 1) {
    rel = new Float64Array(m);
    let len = 1;
    for (let k = 0; k < redSizes.length; k++) {
      const size = redSizes[k] as number;
      const stride = redStrides[k] as number;
      for (let i = size - 1; i >= 1; i--) for (let j = 0; j < len; j++) rel[i * len + j] = (rel[j] as number) + i * stride;
      len *= size;
    }
  }
  const buf = direct ? EMPTY_VALUES : gatherBuffer(m);
  const plain = isPlainReadable(inDtype);
  const nk = keptSizes.length;
  const counter = new Array<number>(nk).fill(0);
  let total = 1;
  for (const s of keptSizes) total *= s;
  let po = elementBase(out);
  let pi = elementBase(inp);
  for (let e = 0; e < total; e++) {
    let v: number;
    if (direct) {
      v = op(inArr, pi, runStride, m);
    } else {
      if (rel === null) {
        gather(inDtype, inArr, pi, runStride, buf, m);
      } else if (plain) {
        for (let j = 0; j < m; j++) buf[j] = inArr[pi + (rel[j] as number)] as number;
      } else {
        for (let j = 0; j < m; j++) buf[j] = loadOne(inDtype, inArr, pi + (rel[j] as number));
      }
      if (convert) castChunk(buf, m, inCompute);
      v = op(buf, 0, 1, m);
    }
    storeReal(outDtype, outArr, po, v);
    for (let d = 0; d < nk; d++) {
      const c = (counter[d] as number) + 1;
      if (c < (keptSizes[d] as number)) {
        counter[d] = c;
        po += keptOut[d] as number;
        pi += keptIn[d] as number;
        break;
      }
      counter[d] = 0;
      po -= (c - 1) * (keptOut[d] as number);
      pi -= (c - 1) * (keptIn[d] as number);
    }
  }
}

/** The runsThenPartials loop of reduceKernel (Note [Reducing runs, then partials]). */
function reduceRunsThenPartials(
  inArr: ArrayLike<number>,
  pi0: number,
  outArr: StorageArray,
  po0: number,
  outDtype: ScalarType,
  redSizes: readonly number[],
  redStrides: readonly number[],
  keptSizes: readonly number[],
  keptOut: readonly number[],
  keptIn: readonly number[],
  op: ReduceOp,
): void {
  const r0 = redSizes[0] as number;
  const planesOp = (op as ReduceOp & { planes?: PlanesOp }).planes;
  if (
    planesOp !== undefined &&
    redSizes.length === 2 &&
    reducePlanes(planesOp, inArr, pi0, outArr, po0, outDtype, r0, redSizes, redStrides, keptSizes, keptOut, keptIn)
  ) {
    return;
  }
  // The start of every run, relative to the slice's first element, outer reduced dims in iteration order.
  let nruns = 1;
  for (let k = 1; k < redSizes.length; k++) nruns *= redSizes[k] as number;
  const starts = new Float64Array(nruns);
  let len = 1;
  for (let k = 1; k < redSizes.length; k++) {
    const size = redSizes[k] as number;
    const stride = redStrides[k] as number;
    for (let i = size - 1; i >= 1; i--) for (let j = 0; j < len; j++) starts[i * len + j] = (starts[j] as number) + i * stride;
    len *= size;
  }
  const nk = keptSizes.length;
  const partials = new Float64Array(nruns);
  const counter = new Array<number>(nk).fill(0);
  let total = 1;
  for (const s of keptSizes) total *= s;
  let po = po0;
  let pi = pi0;
  for (let e = 0; e < total; e++) {
    for (let j = 0; j < nruns; j++) partials[j] = op(inArr, pi + (starts[j] as number), 1, r0);
    storeReal(outDtype, outArr, po, op(partials, 0, 1, nruns));
    for (let d = 0; d < nk; d++) {
      const c = (counter[d] as number) + 1;
      if (c < (keptSizes[d] as number)) {
        counter[d] = c;
        po += keptOut[d] as number;
        pi += keptIn[d] as number;
        break;
      }
      counter[d] = 0;
      po -= (c - 1) * (keptOut[d] as number);
      pi -= (c - 1) * (keptIn[d] as number);
    }
  }
}

/**
 * reduceRunsThenPartials over two reduced dims with an op's planes form: the first kept dim's elements are
 * its planes, one planesOp call per element of the other kept dims. False (nothing written) when the op
 * declines.
 */
function reducePlanes(
  planesOp: PlanesOp,
  inArr: ArrayLike<number>,
  pi0: number,
  outArr: StorageArray,
  po0: number,
  outDtype: ScalarType,
  r0: number,
  redSizes: readonly number[],
  redStrides: readonly number[],
  keptSizes: readonly number[],
  keptOut: readonly number[],
  keptIn: readonly number[],
): boolean {
  const runs = redSizes[1] as number;
  const rs = redStrides[1] as number;
  const nk = keptSizes.length;
  const planes = nk === 0 ? 1 : (keptSizes[0] as number);
  const ps = nk === 0 ? 0 : (keptIn[0] as number);
  const pos = nk === 0 ? 0 : (keptOut[0] as number);
  const values = new Float64Array(planes);
  const counter = new Array<number>(nk).fill(0);
  let total = 1;
  for (let d = 1; d < nk; d++) total *= keptSizes[d] as number;
  let po = po0;
  let pi = pi0;
  for (let e = 0; e < total; e++) {
    if (!planesOp(inArr, pi, r0, runs, rs, planes, ps, values)) {
      if (e === 0) return false;
      throw new Error('reduceKernel: a planes op declined after its first call');
    }
    for (let p = 0; p < planes; p++) storeReal(outDtype, outArr, po + p * pos, values[p] as number);
    for (let d = 1; d < nk; d++) {
      const c = (counter[d] as number) + 1;
      if (c < (keptSizes[d] as number)) {
        counter[d] = c;
        po += keptOut[d] as number;
        pi += keptIn[d] as number;
        break;
      }
      counter[d] = 0;
      po -= (c - 1) * (keptOut[d] as number);
      pi -= (c - 1) * (keptIn[d] as number);
    }
  }
  return true;
}

// ---------------------------------------------------------------------------------------------------
// Complex reductions
// ---------------------------------------------------------------------------------------------------

/**
 * A complex reduction's combine step: the (re, im) value of one output element from the `n` values
 * `(re[i], im[i])` of its reduced slice, in iteration order, written to `out`. `n = 0`: the identity.
 */
export type ComplexReduceOp = (re: Float64Array, im: Float64Array, n: number, out: Float64Array) => void;

/**
 * `binary_kernel_reduce` for a complex output (sum, mean, prod of complex tensors): each output element's
 * slice is gathered as (re, im) pairs converted to the input's compute dtype (a real input gets 0 imaginary
 * parts; complex64 rounds both to float32), `op` combines them, and the result is stored in the output's dtype
 * (See Note [Complex loops in JS]).
 */
export function reduceKernelComplex(iter: TensorIterator, op: ComplexReduceOp): void {
  if (iter.numOutputs !== 1 || iter.tensors.length !== 2 || !iter.isReduction) {
    throw new Error('reduceKernelComplex: expected a reduction iterator with one output and one input (makeReduction)');
  }
  if (iter.isMeta) return;
  const out = iter.tensors[0] as TensorImpl;
  const inp = iter.tensors[1] as TensorImpl;
  const outDtype = out.scalarType;
  const inDtype = inp.scalarType;
  const inCompute = iter.computeDtype(1);
  const res = new Float64Array(2);
  const store = (arr: StorageArray, p: number): void => {
    const re = castValue(res[0] as number, outDtype);
    if (isComplex(outDtype)) {
      arr[2 * p] = re;
      arr[2 * p + 1] = castValue(res[1] as number, outDtype);
    } else storeReal(outDtype, arr, p, re);
  };
  if (iter.numel() === 0) {
    op(new Float64Array(0), new Float64Array(0), 0, res);
    fillReal(iter.output(), res[0] as number, res[1] as number);
    return;
  }
  const shape = iter.shape;
  const ndim = shape.length;
  const st = iter.strides;
  const redSizes: number[] = [];
  const redStrides: number[] = [];
  const keptSizes: number[] = [];
  const keptOut: number[] = [];
  const keptIn: number[] = [];
  for (let d = 0; d < ndim; d++) {
    if (st[2 * d] === 0) {
      redSizes.push(shape[d] as number);
      redStrides.push(st[2 * d + 1] as number);
    } else {
      keptSizes.push(shape[d] as number);
      keptOut.push(st[2 * d] as number);
      keptIn.push(st[2 * d + 1] as number);
    }
  }
  let m = 1;
  for (const s of redSizes) m *= s;
  const rel = new Float64Array(m);
  let len = 1;
  for (let k = 0; k < redSizes.length; k++) {
    const size = redSizes[k] as number;
    const stride = redStrides[k] as number;
    for (let i = size - 1; i >= 1; i--) for (let j = 0; j < len; j++) rel[i * len + j] = (rel[j] as number) + i * stride;
    len *= size;
  }
  const re = new Float64Array(m);
  const im = new Float64Array(m);
  const inArr = inp.storage.data(inDtype);
  const outArr = out.storage.data(outDtype);
  const cplxIn = isComplex(inDtype);
  const cplxCompute = isComplex(inCompute);
  let keptN = 1;
  for (const s of keptSizes) keptN *= s;
  const counter = new Array<number>(keptSizes.length).fill(0);
  let po = elementBase(out);
  let pi = elementBase(inp);
  for (let e = 0; e < keptN; e++) {
    for (let i = 0; i < m; i++) {
      const p = pi + (rel[i] as number);
      let r: number;
      let c = 0;
      if (cplxIn) {
        r = inArr[2 * p] as number;
        c = inArr[2 * p + 1] as number;
      } else r = loadOne(inDtype, inArr, p);
      if (inCompute !== inDtype) {
        r = castValue(r, inCompute);
        c = cplxCompute ? castValue(c, inCompute) : 0;
      }
      re[i] = r;
      im[i] = c;
    }
    op(re, im, m, res);
    store(outArr, po);
    for (let k = 0; k < keptSizes.length; k++) {
      const cnt = (counter[k] as number) + 1;
      if (cnt < (keptSizes[k] as number)) {
        counter[k] = cnt;
        po += keptOut[k] as number;
        pi += keptIn[k] as number;
        break;
      }
      counter[k] = 0;
      po -= (cnt - 1) * (keptOut[k] as number);
      pi -= (cnt - 1) * (keptIn[k] as number);
    }
  }
}
