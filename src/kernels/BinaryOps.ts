// Binary pointwise kernels on TensorIterator: add, sub, mul, div (and div with rounding_mode), the comparisons
// eq ne lt le gt ge, logical_and/or/xor, bitwise_and/or/xor, maximum, minimum, remainder, fmod, atan2 —
// structured where PyTorch makes them structured (a meta function that builds the iterator, an impl that runs
// the loop; the variants are generated from native_functions.yaml). Mirrors aten/src/ATen/native/BinaryOps.cpp
// and native/cpu/BinaryOpsKernel.cpp; like them (about 1,600 and 1,400 lines) the family is one file, a little
// over this project's ~600-line guide.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, elementSize, isComplexType, isFloatingType, isIntegralType, notImplementedForDtype } from '../c10/ScalarType.js';
import {
  type ScalarOp,
  TensorIterator,
  type VecOp,
  castValue,
  cpuKernel,
  cpuKernelComplex,
  cpuKernelVec,
  elementBase,
} from '../iter/index.js';
import { aten } from '../generated/Operators.js';
import { wrapScalar } from '../tensor/ScalarOps.js';
import type { StorageArray } from '../tensor/Storage.js';
import type { Tensor } from '../tensor/Tensor.js';
import { type TensorImpl, contiguousStrides } from '../tensor/TensorImpl.js';
import { noComplex } from './Pow.js';
import { newStridedUnchecked } from './TensorFactories.js';
import type { StructuredKernel } from './TensorMeta.js';
import * as ref from '../wasm/kernels/reference.js';
import { binaryVec, wasmAxpyVec, wasmScalarVec } from '../wasm/kernels/vec.js';

export type Num = number | boolean;
export type OptTensor = Tensor | null | undefined;

// Note [Dtype errors belong to the impl step]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's structured kernels split an op into a meta function (shapes, dtypes, the iterator) and a CPU
// impl that AT_DISPATCHes on a dtype. `"bitwise_and_cpu" not implemented for 'Float'` and `ZeroDivisionError`
// come from the impl, so meta tensors never raise them (torch.bitwise_and on float meta tensors returns a
// float meta tensor). The kernels below raise them only after checking `iter.isMeta`.

function complexCheck(a: Tensor, b: Tensor, op: string): void {
  if (isComplexType(a.scalarType) || isComplexType(b.scalarType)) throw new Error(`${op} not implemented for complex tensors.`);
}

// ---------------------------------------------------------------------------------------------------
// Comparisons: eq ne lt le gt ge (comparison_op: bool output unless out= says otherwise)
// ---------------------------------------------------------------------------------------------------

const eqOp: ScalarOp = (a, b) => (a === b ? 1 : 0);
const neOp: ScalarOp = (a, b) => (a !== b ? 1 : 0);
const ltOp: ScalarOp = (a, b) => (a < b ? 1 : 0);
const leOp: ScalarOp = (a, b) => (a <= b ? 1 : 0);
const gtOp: ScalarOp = (a, b) => (a > b ? 1 : 0);
const geOp: ScalarOp = (a, b) => (a >= b ? 1 : 0);

// Note [Comparisons are structured]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// As in PyTorch, eq/ne/lt/le/gt/ge are structured for both their Tensor and Scalar overloads, and so are
// the Tensor overloads of bitwise_and/or/xor, bitwise_not, maximum, minimum, clamp (Scalar and Tensor
// bounds), remainder, fmod, atan2 and lerp (Scalar and Tensor weights) further down; logical_* and where are
// plain kernels, as in PyTorch. `meta` builds the iterator (for comparisons a bool result unless
// out= or in-place says otherwise), `impl` runs the loop; the functional, in-place and out= kernels for CPU
// and Meta are generated (Note [Structured kernels in aten-ts]).

/** A comparison over three contiguous runs: `out[i] = a[i] <op> b[i] ? 1 : 0`. */
type CompareVec = (out: StorageArray, o: number, a: StorageArray, ao: number, b: StorageArray, bo: number, n: number) => void;

// One loop per comparison so that V8 inlines the comparison (a shared loop calling a lambda per element
// cannot); NaN compares as in C++ (only `!=` is true).
const eqVec: CompareVec = (out, o, a, ao, b, bo, n) => {
  for (let i = 0; i < n; i++) out[o + i] = (a[ao + i] as number) === (b[bo + i] as number) ? 1 : 0;
};
const neVec: CompareVec = (out, o, a, ao, b, bo, n) => {
  for (let i = 0; i < n; i++) out[o + i] = (a[ao + i] as number) !== (b[bo + i] as number) ? 1 : 0;
};
const ltVec: CompareVec = (out, o, a, ao, b, bo, n) => {
  for (let i = 0; i < n; i++) out[o + i] = (a[ao + i] as number) < (b[bo + i] as number) ? 1 : 0;
};
const leVec: CompareVec = (out, o, a, ao, b, bo, n) => {
  for (let i = 0; i < n; i++) out[o + i] = (a[ao + i] as number) <= (b[bo + i] as number) ? 1 : 0;
};
const gtVec: CompareVec = (out, o, a, ao, b, bo, n) => {
  for (let i = 0; i < n; i++) out[o + i] = (a[ao + i] as number) > (b[bo + i] as number) ? 1 : 0;
};
const geVec: CompareVec = (out, o, a, ao, b, bo, n) => {
  for (let i = 0; i < n; i++) out[o + i] = (a[ao + i] as number) >= (b[bo + i] as number) ? 1 : 0;
};

/**
 * The comparison's fast case: a bool output and two inputs of one dtype stored as plain numbers (no float16
 * decoding, no complex), all contiguous and of the same shape. Returns false when the general loop must run.
 */
function compareContiguous(iter: TensorIterator, vec: CompareVec): boolean {
  if (iter.isMeta || !iter.isContiguous() || iter.numOutputs !== 1) return false;
  const [out, a, b] = iter.tensors as [TensorImpl, TensorImpl, TensorImpl];
  if (iter.tensors.length !== 3 || out.scalarType !== ScalarType.Bool || a.scalarType !== b.scalarType) return false;
  const d = a.scalarType;
  if (d === ScalarType.Half || d === ScalarType.BFloat16 || isComplexType(d)) return false;
  vec(
    out.storage.data(out.scalarType),
    elementBase(out),
    a.storage.data(d),
    elementBase(a),
    b.storage.data(d),
    elementBase(b),
    iter.numel(),
  );
  return true;
}

function comparison(op: ScalarOp, vec: CompareVec): StructuredKernel<[self: Tensor, other: Tensor]> {
  return {
    meta: (out, self, other) => TensorIterator.comparisonOp(out, self, other),
    impl: (iter) => {
      if (!compareContiguous(iter, vec)) cpuKernel(iter, op);
    },
  };
}

/**
 * The Scalar overload's fast case: a contiguous input already in the common dtype against the wrapped number
 * (cast to that dtype, as the iterator would), into a contiguous bool output of the same shape. The number
 * fills a scratch run so that the Tensor overload's loop serves both.
 */
function compareScalarContiguous(iter: TensorIterator, vec: CompareVec): boolean {
  if (iter.isMeta || iter.numOutputs !== 1 || iter.tensors.length !== 3) return false;
  const [out, a, w] = iter.tensors as [TensorImpl, TensorImpl, TensorImpl];
  const d = a.scalarType;
  if (out.scalarType !== ScalarType.Bool || d !== iter.commonDtype || w.numel() !== 1) return false;
  // (a wrapped number is bool, int64 or double: its stored value is the value)
  if (d === ScalarType.Half || d === ScalarType.BFloat16 || isComplexType(d) || !w.isWrappedNumber) return false;
  if (!a.isContiguous() || !out.isContiguous() || out.numel() !== a.numel()) return false;
  const n = a.numel();
  const wv = castValue(w.storage.data(w.scalarType)[elementBase(w)] as number, d);
  // The scalar repeated in a reused run, chunk by chunk (not a fresh n-element array per call).
  const run = scalarRun.fill(wv);
  const [o, od, ad, ao] = [out.storage.data(out.scalarType), elementBase(out), a.storage.data(d), elementBase(a)];
  for (let i = 0; i < n; i += SCALAR_RUN) vec(o, od + i, ad, ao + i, run, 0, Math.min(SCALAR_RUN, n - i));
  return true;
}
const SCALAR_RUN = 4096;
const scalarRun = new Float64Array(SCALAR_RUN);

function comparisonScalar(op: ScalarOp, vec: CompareVec): StructuredKernel<[self: Tensor, other: Num]> {
  return {
    meta: (out, self, other) => TensorIterator.comparisonOp(out, self, wrapScalar(other)),
    impl: (iter) => {
      if (!compareScalarContiguous(iter, vec)) cpuKernel(iter, op);
    },
  };
}

/** `eq.Tensor_out` */
export const eqStructured = comparison(eqOp, eqVec);
/** `eq.Scalar_out` */
export const eqScalarStructured = comparisonScalar(eqOp, eqVec);
/** `ne.Tensor_out` */
export const neStructured = comparison(neOp, neVec);
/** `ne.Scalar_out` */
export const neScalarStructured = comparisonScalar(neOp, neVec);
/** `lt.Tensor_out` */
export const ltStructured = comparison(ltOp, ltVec);
/** `lt.Scalar_out` */
export const ltScalarStructured = comparisonScalar(ltOp, ltVec);
/** `le.Tensor_out` */
export const leStructured = comparison(leOp, leVec);
/** `le.Scalar_out` */
export const leScalarStructured = comparisonScalar(leOp, leVec);
/** `gt.Tensor_out` */
export const gtStructured = comparison(gtOp, gtVec);
/** `gt.Scalar_out` */
export const gtScalarStructured = comparisonScalar(gtOp, gtVec);
/** `ge.Tensor_out` */
export const geStructured = comparison(geOp, geVec);
/** `ge.Scalar_out` */
export const geScalarStructured = comparisonScalar(geOp, geVec);

/** A comparison-style iterator and loop (bool result unless `out` says otherwise); for the logical ops. */
function compare(op: ScalarOp, out: Tensor | null, self: Tensor, other: Tensor): Tensor {
  const iter = TensorIterator.comparisonOp(out, self, other);
  cpuKernel(iter, op);
  return iter.output() as Tensor;
}

/** The kernels of a binary op's Scalar overloads (functional, in-place, out=). */
interface ScalarOverloadKernels {
  fnScalar: (ks: DispatchKeySet, self: Tensor, other: Num) => Tensor;
  inplaceScalar: (ks: DispatchKeySet, self: Tensor, other: Num) => Tensor;
  outScalar: (ks: DispatchKeySet, self: Tensor, other: Num, out: Tensor) => Tensor;
}

// ---------------------------------------------------------------------------------------------------
// Logical ops (comparison_op iterators: bool results; any nonzero value, NaN included, is true)
// ---------------------------------------------------------------------------------------------------

const andOp: ScalarOp = (a, b) => (a !== 0 && b !== 0 ? 1 : 0);
const orOp: ScalarOp = (a, b) => (a !== 0 || b !== 0 ? 1 : 0);
const xorOp: ScalarOp = (a, b) => ((a !== 0) !== (b !== 0) ? 1 : 0);

export function logicalAnd(_ks: DispatchKeySet, self: Tensor, other: Tensor): Tensor {
  return compare(andOp, null, self, other);
}
export function logicalAnd_(_ks: DispatchKeySet, self: Tensor, other: Tensor): Tensor {
  return compare(andOp, self, self, other);
}
export function logicalAndOut(_ks: DispatchKeySet, self: Tensor, other: Tensor, out: Tensor): Tensor {
  return compare(andOp, out, self, other);
}
export function logicalOr(_ks: DispatchKeySet, self: Tensor, other: Tensor): Tensor {
  return compare(orOp, null, self, other);
}
export function logicalOr_(_ks: DispatchKeySet, self: Tensor, other: Tensor): Tensor {
  return compare(orOp, self, self, other);
}
export function logicalOrOut(_ks: DispatchKeySet, self: Tensor, other: Tensor, out: Tensor): Tensor {
  return compare(orOp, out, self, other);
}
export function logicalXor(_ks: DispatchKeySet, self: Tensor, other: Tensor): Tensor {
  return compare(xorOp, null, self, other);
}
export function logicalXor_(_ks: DispatchKeySet, self: Tensor, other: Tensor): Tensor {
  return compare(xorOp, self, self, other);
}
export function logicalXorOut(_ks: DispatchKeySet, self: Tensor, other: Tensor, out: Tensor): Tensor {
  return compare(xorOp, out, self, other);
}

// ---------------------------------------------------------------------------------------------------
// Bitwise ops (binary_op iterators; integers and bool only)
// ---------------------------------------------------------------------------------------------------

// Note [int64 bitwise operations]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// int64 values live in doubles (Note [Typed storage of each dtype]); JavaScript's `& | ^` work on int32.
// Values in the int32 range take the fast operators (the int32 result, sign-extended, is the int64
// result); wider values go through BigInt. `~a` is `-a - 1`, exact for every stored int64.
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

function fitsInt32(v: number): boolean {
  return v >= INT32_MIN && v <= INT32_MAX;
}

const bitAnd: ScalarOp = (a, b) => (fitsInt32(a) && fitsInt32(b) ? a & b : Number(BigInt(a) & BigInt(b)));
const bitOr: ScalarOp = (a, b) => (fitsInt32(a) && fitsInt32(b) ? a | b : Number(BigInt(a) | BigInt(b)));
const bitXor: ScalarOp = (a, b) => (fitsInt32(a) && fitsInt32(b) ? a ^ b : Number(BigInt(a) ^ BigInt(b)));

/**
 * The bitwise kernels dispatch on `iter.dtype()`, integral types and bool. On the CPU that is the common
 * dtype: an out= of another dtype is written through a temporary of the common dtype (here, a conversion).
 */
function bitwiseLoop(name: string, op: ScalarOp, iter: TensorIterator): void {
  if (iter.isMeta) return;
  const d = iter.commonDtype;
  if (!isIntegralType(d, true)) throw notImplementedForDtype(name, d);
  cpuKernel(iter, op);
}

function bitwiseImpl(name: string, op: ScalarOp, out: Tensor | null, self: Tensor, other: Tensor): Tensor {
  const iter = TensorIterator.binaryOp(out, self, other);
  bitwiseLoop(name, op, iter);
  return iter.output() as Tensor;
}

/** The Tensor overloads of bitwise_and/or/xor, structured as in PyTorch (Note [Comparisons are structured]). */
function bitwiseStructured(name: string, op: ScalarOp): StructuredKernel<[self: Tensor, other: Tensor]> {
  return {
    meta: (out, self, other) => TensorIterator.binaryOp(out, self, other),
    impl: (iter) => bitwiseLoop(name, op, iter),
  };
}

interface BitwiseKernels extends ScalarOverloadKernels {
  scalarTensor: (ks: DispatchKeySet, self: Num, other: Tensor) => Tensor;
}

function bitwiseKernels(name: string, op: ScalarOp): BitwiseKernels {
  return {
    fnScalar: (_ks, self, other) => bitwiseImpl(name, op, null, self, wrapScalar(other)),
    inplaceScalar: (_ks, self, other) => bitwiseImpl(name, op, self, self, wrapScalar(other)),
    outScalar: (_ks, self, other, out) => bitwiseImpl(name, op, out, self, wrapScalar(other)),
    scalarTensor: (_ks, self, other) => bitwiseImpl(name, op, null, wrapScalar(self), other),
  };
}

const andK = bitwiseKernels('bitwise_and_cpu', bitAnd);
const orK = bitwiseKernels('bitwise_or_cpu', bitOr);
const xorK = bitwiseKernels('bitwise_xor_cpu', bitXor);

/** `bitwise_and.Tensor_out` (structured). */
export const bitwiseAndStructured = bitwiseStructured('bitwise_and_cpu', bitAnd);
export const bitwiseAndScalar = andK.fnScalar;
export const bitwiseAndScalar_ = andK.inplaceScalar;
export const bitwiseAndScalarOut = andK.outScalar;
export const bitwiseAndScalarTensor = andK.scalarTensor;
/** `bitwise_or.Tensor_out` (structured). */
export const bitwiseOrStructured = bitwiseStructured('bitwise_or_cpu', bitOr);
export const bitwiseOrScalar = orK.fnScalar;
export const bitwiseOrScalar_ = orK.inplaceScalar;
export const bitwiseOrScalarOut = orK.outScalar;
export const bitwiseOrScalarTensor = orK.scalarTensor;
/** `bitwise_xor.Tensor_out` (structured). */
export const bitwiseXorStructured = bitwiseStructured('bitwise_xor_cpu', bitXor);
export const bitwiseXorScalar = xorK.fnScalar;
export const bitwiseXorScalar_ = xorK.inplaceScalar;
export const bitwiseXorScalarOut = xorK.outScalar;
export const bitwiseXorScalarTensor = xorK.scalarTensor;

// ---------------------------------------------------------------------------------------------------
// maximum / minimum (binary_op; NaN propagates; bool is or / and)
// ---------------------------------------------------------------------------------------------------

export const maxOp: ScalarOp = (a, b) => (a !== a || b !== b ? NaN : a < b ? b : a);
export const minOp: ScalarOp = (a, b) => (a !== a || b !== b ? NaN : b < a ? b : a);

function maxMin(name: string, op: ScalarOp): StructuredKernel<[self: Tensor, other: Tensor]> {
  return {
    meta(out, self, other) {
      complexCheck(self, other, name);
      return TensorIterator.binaryOp(out, self, other);
    },
    impl: (iter) => cpuKernel(iter, op),
  };
}

/** `maximum.out` (structured, as in PyTorch). */
export const maximumStructured = maxMin('maximum', maxOp);
/** `minimum.out` (structured). */
export const minimumStructured = maxMin('minimum', minOp);

// ---------------------------------------------------------------------------------------------------
// remainder (Python's sign rule) and fmod (C's)
// ---------------------------------------------------------------------------------------------------

// Note [remainder and fmod]
// ~~~~~~~~~~~~~~~~~~~~~~~~~
// JavaScript's `%` is C's fmod (exact, the sign of the dividend), for integers and floats alike. remainder
// takes the divisor's sign: a nonzero result whose sign differs from the divisor's gets the divisor added
// (one rounding, as in PyTorch's kernel). Integer kernels reject a zero divisor with PyTorch's bare
// `ZeroDivisionError`; float kernels give NaN. Bool has neither kernel (`"remainder_cpu" not implemented
// for 'Bool'`). The kernels dispatch on the common dtype.
const fmodOp: ScalarOp = (a, b) => a % b;
const remainderOp: ScalarOp = (a, b) => {
  const m = a % b;
  return m !== 0 && b < 0 !== m < 0 ? m + b : m;
};

function checkedInt(op: ScalarOp): ScalarOp {
  return (a, b) => {
    if (b === 0) throw new Error('ZeroDivisionError');
    return op(a, b) + 0; // no -0 in integers
  };
}
const fmodInt = checkedInt(fmodOp);
const remainderInt = checkedInt(remainderOp);

function modLoop(name: string, floatOp: ScalarOp, intOp: ScalarOp, iter: TensorIterator): void {
  if (iter.isMeta) return;
  const d = iter.commonDtype;
  if (isIntegralType(d, false)) cpuKernel(iter, intOp);
  else if (isFloatingType(d)) cpuKernel(iter, floatOp);
  else throw notImplementedForDtype(name, d);
}

function modImpl(name: string, floatOp: ScalarOp, intOp: ScalarOp, out: Tensor | null, self: Tensor, other: Tensor): Tensor {
  const iter = TensorIterator.binaryOp(out, self, other);
  modLoop(name, floatOp, intOp, iter);
  return iter.output() as Tensor;
}

const rem = (out: Tensor | null, a: Tensor, b: Tensor): Tensor => modImpl('remainder_cpu', remainderOp, remainderInt, out, a, b);
const fmo = (out: Tensor | null, a: Tensor, b: Tensor): Tensor => modImpl('fmod_cpu', fmodOp, fmodInt, out, a, b);

/** `remainder.Tensor_out` (structured, as in PyTorch; the Scalar overloads are plain kernels there too). */
export const remainderStructured: StructuredKernel<[self: Tensor, other: Tensor]> = {
  meta: (out, self, other) => TensorIterator.binaryOp(out, self, other),
  impl: (iter) => modLoop('remainder_cpu', remainderOp, remainderInt, iter),
};
export function remainderScalar(_ks: DispatchKeySet, self: Tensor, other: Num): Tensor {
  return rem(null, self, wrapScalar(other));
}
export function remainderScalar_(_ks: DispatchKeySet, self: Tensor, other: Num): Tensor {
  return rem(self, self, wrapScalar(other));
}
export function remainderScalarOut(_ks: DispatchKeySet, self: Tensor, other: Num, out: Tensor): Tensor {
  return rem(out, self, wrapScalar(other));
}
/**
 * `div.Scalar(Tensor self, Scalar other)`: div.Tensor of `other` wrapped (CompositeExplicitAutograd, as
 * BinaryOps.cpp), so autograd records DivBackward1 for the kernels that divide by a number (cross_entropy).
 */
export function divScalar(_ks: DispatchKeySet, self: Tensor, other: Num): Tensor {
  return aten().div_Tensor.call(self, wrapScalar(other));
}
/** `remainder.Scalar_Tensor(Scalar self, Tensor other)` */
export function remainderScalarTensor(_ks: DispatchKeySet, self: Num, other: Tensor): Tensor {
  return rem(null, wrapScalar(self), other);
}
/** `fmod.Tensor_out` (structured). */
export const fmodStructured: StructuredKernel<[self: Tensor, other: Tensor]> = {
  meta: (out, self, other) => TensorIterator.binaryOp(out, self, other),
  impl: (iter) => modLoop('fmod_cpu', fmodOp, fmodInt, iter),
};
export function fmodScalar(_ks: DispatchKeySet, self: Tensor, other: Num): Tensor {
  return fmo(null, self, wrapScalar(other));
}
export function fmodScalar_(_ks: DispatchKeySet, self: Tensor, other: Num): Tensor {
  return fmo(self, self, wrapScalar(other));
}
export function fmodScalarOut(_ks: DispatchKeySet, self: Tensor, other: Num, out: Tensor): Tensor {
  return fmo(out, self, wrapScalar(other));
}

// ---------------------------------------------------------------------------------------------------
// atan2 (binary_float_op) and lerp
// ---------------------------------------------------------------------------------------------------

/** `atan2.out` (structured, as in PyTorch): a float op (integer inputs compute in the default float dtype). */
export const atan2Structured: StructuredKernel<[self: Tensor, other: Tensor]> = {
  meta: (out, self, other) => TensorIterator.binaryFloatOp(out, self, other),
  impl: (iter) => cpuKernel(iter, Math.atan2),
};

/** PyTorch's `div_floor_floating`: floor(a / b) computed through fmod so that it is exact near integers. */
function divFloorFloating(a: number, b: number): number {
  if (b === 0) return a / b;
  const mod = a % b;
  let div = (a - mod) / b;
  if (mod !== 0 && b < 0 !== mod < 0) div -= 1;
  if (div === 0) return Math.sign(a / b) * 0;
  let floordiv = Math.floor(div);
  if (div - floordiv > 0.5) floordiv += 1;
  return floordiv;
}

/**
 * `div.Tensor_mode(self, other, *, rounding_mode)`: `null` is true division (integers promote to float);
 * 'trunc' and 'floor' keep integer dtypes and raise ZeroDivisionError for an integer division by zero.
 */
export function divMode(ks: DispatchKeySet, self: Tensor, other: Tensor, roundingMode: string | null = null): Tensor {
  if (roundingMode === null) {
    const iter = TensorIterator.binaryFloatOp(null, self, other);
    noComplex(iter.commonDtype, 'div');
    cpuKernel(iter, (a, b) => a / b);
    return iter.output() as Tensor;
  }
  if (roundingMode !== 'trunc' && roundingMode !== 'floor') {
    throw new Error(`div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '${roundingMode}'`);
  }
  const iter = TensorIterator.binaryOp(null, self, other);
  noComplex(iter.commonDtype, 'div');
  if (isFloatingType(iter.commonDtype)) {
    cpuKernel(iter, roundingMode === 'trunc' ? (a, b) => Math.trunc(a / b) : divFloorFloating);
  } else {
    cpuKernel(iter, (a, b) => {
      if (b === 0) throw new Error('ZeroDivisionError');
      const q = Math.trunc(a / b);
      return roundingMode === 'floor' && q * b !== a && a < 0 !== b < 0 ? q - 1 : q;
    });
  }
  return iter.output() as Tensor;
}

// Note [Vectorised loops are unrolled]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// V8 runs a loop over typed arrays passed as parameters about three times slower than one over arrays it
// can see are constant; unrolling by four recovers most of it (bench/iter.bench.ts). The scalar tail
// handles the remainder. Results of + - * on doubles rounded once into a Float32Array equal float32
// arithmetic, and Int32Array/Int8Array/... stores wrap like C++ integer arithmetic. The loops are the
// kernels' JS twins (src/wasm/kernels/reference.ts), also the fallback (Note [The twin is the fallback]).

function axpyVec(alpha: number): VecOp {
  return alpha === -1 ? subVec : wasmAxpyVec(axpyVecJs(alpha), alpha);
}

function axpyVecJs(alpha: number): VecOp {
  return (out, o, ins, offs, n) => ref.vaxpy(n, ins[0]!, offs[0]!, ins[1]!, offs[1]!, alpha, out, o);
}

// int64 lives in a Float64Array (Note [Typed storage of each dtype]) and has no negative zero.
const mulVecInt64: VecOp = (out, o, ins, offs, n) => {
  const a = ins[0]!;
  const b = ins[1]!;
  const ia = offs[0]!;
  const ib = offs[1]!;
  for (let i = 0; i < n; i++) out[o + i] = a[ia + i]! * b[ib + i]! + 0;
};

// The SIMD kernels where every operand is in linear memory, else their twins (Note [Kernel backends]).
const addVec = binaryVec(ref.vadd, 'f32_vadd', 'f64_vadd');
const addScalarVec = wasmScalarVec(ref.vadd_scalar, 'f32_vadd_scalar', 'f64_vadd_scalar');
const subScalarVec = wasmScalarVec(ref.vsub_scalar, 'f32_vsub_scalar', 'f64_vsub_scalar');
const mulScalarVec = wasmScalarVec(ref.vmul_scalar, 'f32_vmul_scalar', 'f64_vmul_scalar');
const divScalarVec = wasmScalarVec(ref.vdiv_scalar, 'f32_vdiv_scalar', 'f64_vdiv_scalar');
const subVec = binaryVec(ref.vsub, 'f32_vsub', 'f64_vsub');
const mulVec = binaryVec(ref.vmul, 'f32_vmul', 'f64_vmul');
const divVec = binaryVec(ref.vdiv, 'f32_vdiv', 'f64_vdiv');

/** `alpha_check`: alpha must fit the result dtype. */
function alphaCheck(dtype: ScalarType, alpha: number | boolean): void {
  if (typeof alpha === 'boolean' && dtype !== ScalarType.Bool) {
    throw new Error('Boolean alpha only supported for Boolean results.');
  }
  if (!isFloatingType(dtype) && !isComplexType(dtype) && typeof alpha === 'number' && !Number.isInteger(alpha)) {
    throw new Error('For integral input tensors, argument alpha must not be a floating point number.');
  }
}

/** `sub_check`: bool subtraction is rejected with advice. */
function subCheck(self: Tensor, other: Tensor): void {
  if (self.scalarType === ScalarType.Bool && other.scalarType === ScalarType.Bool) {
    throw new Error(
      'Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.',
    );
  }
  if (self.scalarType === ScalarType.Bool || other.scalarType === ScalarType.Bool) {
    throw new Error(
      'Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.',
    );
  }
}

/** The add loop: out = a + alpha * b (bool: a || b). */
function addImpl(iter: TensorIterator, alpha: number): void {
  if (isComplexType(iter.commonDtype)) {
    cpuKernelComplex(iter, (ins, out) => {
      out[0] = ins[0]! + alpha * ins[2]!;
      out[1] = ins[1]! + alpha * ins[3]!;
    });
  } else if (alpha === 1) {
    cpuKernelVec(iter, (a, b) => a + b, addVec, addScalarVec);
  } else {
    cpuKernelVec(iter, (a, b) => a + alpha * b, axpyVec(alpha), alpha === -1 ? subScalarVec : undefined);
  }
}

function mulImpl(iter: TensorIterator): void {
  if (isComplexType(iter.commonDtype)) {
    cpuKernelComplex(iter, (ins, out) => {
      const [ar, ai, br, bi] = [ins[0]!, ins[1]!, ins[2]!, ins[3]!];
      out[0] = ar * br - ai * bi;
      out[1] = ar * bi + ai * br;
    });
  } else if (iter.commonDtype === ScalarType.Bool) {
    cpuKernelVec(iter, (a, b) => (a !== 0 && b !== 0 ? 1 : 0), mulVec);
  } else if (iter.commonDtype === ScalarType.Long) {
    cpuKernelVec(iter, (a, b) => a * b + 0, mulVecInt64);
  } else {
    cpuKernelVec(iter, (a, b) => a * b, mulVec, mulScalarVec);
  }
}

function divImpl(iter: TensorIterator): void {
  if (isComplexType(iter.commonDtype)) {
    cpuKernelComplex(iter, (ins, out) => {
      const [ar, ai, br, bi] = [ins[0]!, ins[1]!, ins[2]!, ins[3]!];
      const d = br * br + bi * bi;
      out[0] = (ar * br + ai * bi) / d;
      out[1] = (ai * br - ar * bi) / d;
    });
  } else {
    cpuKernelVec(iter, (a, b) => a / b, divVec, divScalarVec);
  }
}

// Note [Same-shape fast path]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The commonest elementwise call has two contiguous tensors of one shape and one dtype: no broadcasting, no
// promotion, a contiguous result of the same shape. For it the functional kernels skip building a
// TensorIterator (about half the cost of a 1-element add) and run the vectorised loop directly; the answer
// is the one the iterator would give (same dtype, shape and contiguous strides). Everything else, and every
// dtype the vectorised loops do not cover, takes the general path.
const FAST_DTYPES = new Set<ScalarType>([
  ScalarType.Float,
  ScalarType.Double,
  ScalarType.Int,
  ScalarType.Long,
  ScalarType.Short,
  ScalarType.Char,
  ScalarType.Byte,
]);
const fastIns: StorageArray[] = [new Float32Array(0), new Float32Array(0)];
const fastOffs = [0, 0];

function sameShapeFast(a: Tensor, b: Tensor): boolean {
  if (a.scalarType !== b.scalarType || a.isWrappedNumber || b.isWrappedNumber || !FAST_DTYPES.has(a.scalarType)) return false;
  const n = a.sizes.length;
  if (n !== b.sizes.length) return false;
  for (let i = 0; i < n; i++) if (a.sizes[i] !== b.sizes[i]) return false;
  return !a.isMeta() && !b.isMeta() && a.isContiguous() && b.isContiguous();
}

/** Runs `vec` over two same-shape contiguous tensors into a new contiguous result. */
function runSameShape(a: Tensor, b: Tensor, vec: VecOp): Tensor {
  const dtype = a.scalarType;
  const out = newStridedUnchecked(a.sizes.slice(), contiguousStrides(a.sizes), dtype, a.device);
  // These dtypes have one lane per element of their item size, so a byte offset divided by it is the element
  // offset (storage.arrayOffset without its lookups; the item size comes from the dtype, not from the array,
  // whose class varies with the dtype and would make the load megamorphic).
  const size = elementSize(dtype);
  const ia = a.storage.data(dtype);
  const ib = b.storage.data(dtype);
  const o = out.storage.data(dtype);
  fastIns[0] = ia;
  fastIns[1] = ib;
  fastOffs[0] = a.storage.byteOffset / size + a.storageOffset;
  fastOffs[1] = b.storage.byteOffset / size + b.storageOffset;
  vec(o, out.storage.byteOffset / size, fastIns, fastOffs, a.numel());
  return out;
}

// Note [Binary ops are structured]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// As in PyTorch, add/sub/mul/div are structured kernels (Note [Structured kernels in aten-ts] in
// src/codegen/structured.ts): each exports a meta (the TensorIterator: broadcasting, promotion, set_output,
// the argument checks) and an impl (the loop); the functional, in-place and out= CPU kernels, the Meta
// kernels and `atenCpu.add(...)` are generated around them. `fast` keeps Note [Same-shape fast path] for the
// functional variant.

type AlphaArgs = [self: Tensor, other: Tensor, alpha: number | boolean];
type PlainArgs = [self: Tensor, other: Tensor];

/** `add.out` (`structured_inherits: TensorIteratorBase`): out = self + alpha * other. */
export const addStructured: StructuredKernel<AlphaArgs> = {
  meta(out, self, other, alpha) {
    const iter = TensorIterator.binaryOp(out, self, other);
    alphaCheck(iter.commonDtype, alpha);
    return iter;
  },
  impl(iter, _self, _other, alpha) {
    addImpl(iter, Number(alpha));
  },
  fast(self, other, alpha) {
    return alpha === 1 && sameShapeFast(self, other) ? runSameShape(self, other, addVec) : null;
  },
};

/** `sub.out`: out = self - alpha * other; bool operands are rejected. */
export const subStructured: StructuredKernel<AlphaArgs> = {
  meta(out, self, other, alpha) {
    subCheck(self, other);
    const iter = TensorIterator.binaryOp(out, self, other);
    alphaCheck(iter.commonDtype, alpha);
    return iter;
  },
  impl(iter, _self, _other, alpha) {
    addImpl(iter, -Number(alpha));
  },
};

/** `mul.out`: out = self * other. */
export const mulStructured: StructuredKernel<PlainArgs> = {
  meta(out, self, other) {
    return TensorIterator.binaryOp(out, self, other);
  },
  impl(iter) {
    mulImpl(iter);
  },
  fast(self, other) {
    return sameShapeFast(self, other) ? runSameShape(self, other, self.scalarType === ScalarType.Long ? mulVecInt64 : mulVec) : null;
  },
};

/** `div.out`: true division; integer inputs compute in the default float dtype. */
export const divStructured: StructuredKernel<PlainArgs> = {
  meta(out, self, other) {
    return TensorIterator.binaryFloatOp(out, self, other);
  },
  impl(iter) {
    divImpl(iter);
  },
};
