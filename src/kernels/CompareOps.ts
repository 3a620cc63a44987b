// Comparison, logical, bitwise and clamp-family pointwise kernels on TensorIterator (functional, in-place and
// out= variants; the iterator is the structured meta step, the loop the impl): eq ne lt le gt ge,
// logical_and/or/xor/not, bitwise_and/or/xor/not, maximum, minimum, where, clamp (Scalar and Tensor bounds),
// remainder, fmod, atan2, lerp (Scalar and Tensor weights). Mirrors aten/src/ATen/native/BinaryOps.cpp,
// TensorCompare.cpp (where, clamp), UnaryOps.cpp (bitwise_not, logical_not), Lerp.cpp and
// native/cpu/BinaryOpsKernel.cpp, TensorCompareKernel.cpp, UnaryOpsKernel.cpp, LerpKernel.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isComplexType, isFloatingType, isIntegralType, scalarTypeToString, typeMetaName } from '../c10/ScalarType.js';
import { TensorIterator, TensorIteratorConfig, castValue, cpuKernel, cpuKernelVec, elementBase, resultType, type ScalarOp, type VecOp } from '../iter/index.js';
import type { StorageArray } from '../tensor/Storage.js';
import type { TensorImpl } from '../tensor/TensorImpl.js';
import type { Tensor } from '../tensor/Tensor.js';
import { wrapScalar } from '../tensor/ScalarOps.js';
import type { StructuredKernel } from './TensorMeta.js';

type Num = number | boolean;
type OptTensor = Tensor | null | undefined;
type OptNum = Num | null | undefined;


/** `wrapped_scalar_tensor(s)`: the 0-dim CPU tensor a Scalar argument becomes (a wrapped number). */
const wrapNumber = wrapScalar;

/** AT_DISPATCH's error for a dtype outside the kernel's list. */
function notImplemented(name: string, d: ScalarType): Error {
  return new Error(`"${name}" not implemented for '${scalarTypeToString(d)}'`);
}

// Note [Dtype errors belong to the impl step]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's structured kernels split an op into a meta function (shapes, dtypes, the iterator) and a CPU
// impl that AT_DISPATCHes on a dtype. `"bitwise_and_cpu" not implemented for 'Float'` and `ZeroDivisionError`
// come from the impl, so meta tensors never raise them (torch.bitwise_and on float meta tensors returns a
// float meta tensor). The kernels below raise them only after checking `iter.isMeta`.

function complexCheck(a: Tensor, b: Tensor, op: string): void {
  if (isComplexType(a.dtype) || isComplexType(b.dtype)) throw new Error(`${op} not implemented for complex tensors.`);
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
const eqVec: CompareVec = (out, o, a, ao, b, bo, n) => { for (let i = 0; i < n; i++) out[o + i] = (a[ao + i] as number) === (b[bo + i] as number) ? 1 : 0; };
const neVec: CompareVec = (out, o, a, ao, b, bo, n) => { for (let i = 0; i < n; i++) out[o + i] = (a[ao + i] as number) !== (b[bo + i] as number) ? 1 : 0; };
const ltVec: CompareVec = (out, o, a, ao, b, bo, n) => { for (let i = 0; i < n; i++) out[o + i] = (a[ao + i] as number) < (b[bo + i] as number) ? 1 : 0; };
const leVec: CompareVec = (out, o, a, ao, b, bo, n) => { for (let i = 0; i < n; i++) out[o + i] = (a[ao + i] as number) <= (b[bo + i] as number) ? 1 : 0; };
const gtVec: CompareVec = (out, o, a, ao, b, bo, n) => { for (let i = 0; i < n; i++) out[o + i] = (a[ao + i] as number) > (b[bo + i] as number) ? 1 : 0; };
const geVec: CompareVec = (out, o, a, ao, b, bo, n) => { for (let i = 0; i < n; i++) out[o + i] = (a[ao + i] as number) >= (b[bo + i] as number) ? 1 : 0; };

/**
 * The comparison's fast case: a bool output and two inputs of one dtype stored as plain numbers (no float16
 * decoding, no complex), all contiguous and of the same shape. Returns false when the general loop must run.
 */
function compareContiguous(iter: TensorIterator, vec: CompareVec): boolean {
  if (iter.isMeta || !iter.isContiguous() || iter.numOutputs !== 1) return false;
  const [out, a, b] = iter.tensors as [TensorImpl, TensorImpl, TensorImpl];
  if (iter.tensors.length !== 3 || out.dtype !== ScalarType.Bool || a.dtype !== b.dtype) return false;
  const d = a.dtype;
  if (d === ScalarType.Half || d === ScalarType.BFloat16 || isComplexType(d)) return false;
  vec(out.storage.data(out.dtype), elementBase(out), a.storage.data(d), elementBase(a), b.storage.data(d), elementBase(b), iter.numel());
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
  const d = a.dtype;
  if (out.dtype !== ScalarType.Bool || d !== iter.commonDtype || w.numel !== 1) return false;
  // (a wrapped number is bool, int64 or double: its stored value is the value)
  if (d === ScalarType.Half || d === ScalarType.BFloat16 || isComplexType(d) || !w.isWrappedNumber) return false;
  if (!a.isContiguous() || !out.isContiguous() || out.numel !== a.numel) return false;
  const n = a.numel;
  const wv = castValue(w.storage.data(w.dtype)[elementBase(w)] as number, d);
  vec(out.storage.data(out.dtype), elementBase(out), a.storage.data(d), elementBase(a), new Float64Array(n).fill(wv), 0, n);
  return true;
}

function comparisonScalar(op: ScalarOp, vec: CompareVec): StructuredKernel<[self: Tensor, other: Num]> {
  return {
    meta: (out, self, other) => TensorIterator.comparisonOp(out, self, wrapNumber(other)),
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
const xorOp: ScalarOp = (a, b) => (a !== 0 !== (b !== 0) ? 1 : 0);

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

/**
 * `logical_not_out`: an iterator without promotion or a same-dtype check (the input is read in its own
 * dtype, `!a` is stored in the output's); the functional form writes a bool tensor.
 */
function logicalNotImpl(out: Tensor | null, self: Tensor): Tensor {
  const config = new TensorIteratorConfig().checkAllSameDtype(false).addOutput(out).addConstInput(self);
  if (out === null) config.declareStaticDtype(ScalarType.Bool);
  const iter = config.build();
  cpuKernel(iter, (a) => (a === 0 ? 1 : 0));
  return iter.output() as Tensor;
}

export function logicalNot(_ks: DispatchKeySet, self: Tensor): Tensor {
  return logicalNotImpl(null, self);
}
export function logicalNot_(_ks: DispatchKeySet, self: Tensor): Tensor {
  return logicalNotImpl(self, self);
}
export function logicalNotOut(_ks: DispatchKeySet, self: Tensor, out: Tensor): Tensor {
  return logicalNotImpl(out, self);
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
  if (!isIntegralType(d, true)) throw notImplemented(name, d);
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
    fnScalar: (_ks, self, other) => bitwiseImpl(name, op, null, self, wrapNumber(other)),
    inplaceScalar: (_ks, self, other) => bitwiseImpl(name, op, self, self, wrapNumber(other)),
    outScalar: (_ks, self, other, out) => bitwiseImpl(name, op, out, self, wrapNumber(other)),
    scalarTensor: (_ks, self, other) => bitwiseImpl(name, op, null, wrapNumber(self), other),
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

const bitwiseNotBool: ScalarOp = (a) => (a === 0 ? 1 : 0);
const bitwiseNotInt: ScalarOp = (a) => -a - 1;
/** `~a` over a contiguous run of an integer dtype (`-a - 1`: exact for int64, wraps like C++ for uint8). */
const bitwiseNotVec: VecOp = (out, o, ins, offs, n) => {
  const a = ins[0] as StorageArray;
  const ao = offs[0] as number;
  for (let i = 0; i < n; i++) out[o + i] = -(a[ao + i] as number) - 1;
};

/**
 * `bitwise_not.out` (structured, as in PyTorch): a unary_op iterator (one dtype throughout); bool is `!a`,
 * integers `~a`, other dtypes AT_DISPATCH's error from the impl (Note [Dtype errors belong to the impl step]).
 */
export const bitwiseNotStructured: StructuredKernel<[self: Tensor]> = {
  meta: (out, self) => TensorIterator.unaryOp(out, self),
  impl(iter) {
    if (iter.isMeta) return;
    const d = iter.dtype(0);
    if (d === ScalarType.Bool) cpuKernel(iter, bitwiseNotBool);
    else if (isIntegralType(d, false)) cpuKernelVec(iter, bitwiseNotInt, bitwiseNotVec);
    else throw notImplemented('bitwise_not_cpu', d);
  },
};

// ---------------------------------------------------------------------------------------------------
// maximum / minimum (binary_op; NaN propagates; bool is or / and)
// ---------------------------------------------------------------------------------------------------

const maxOp: ScalarOp = (a, b) => (a !== a || b !== b ? NaN : a < b ? b : a);
const minOp: ScalarOp = (a, b) => (a !== a || b !== b ? NaN : b < a ? b : a);

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
  if (out !== null && out.dtype !== result) {
    throw new Error(`Expected out type to be ${scalarTypeToString(result)} but got ${scalarTypeToString(out.dtype)}`);
  }
  if (condition.dtype !== ScalarType.Bool && condition.dtype !== ScalarType.Byte) {
    throw new Error(`where expected condition to be a boolean tensor, but got a tensor with dtype ${scalarTypeToString(condition.dtype)}`);
  }
  const config = new TensorIteratorConfig()
    .checkAllSameDtype(false)
    .addOutput(out)
    .addConstInput(condition)
    .addConstInput(self)
    .addConstInput(other);
  if (out === null) config.declareStaticDtype(result);
  const iter = config.build();
  cpuKernel(iter, (c, a, b) => (c !== 0 ? a : b));
  return iter.output() as Tensor;
}

/** `where.self` */
export function where(_ks: DispatchKeySet, condition: Tensor, self: Tensor, other: Tensor): Tensor {
  return whereImpl(null, condition, self, other);
}
/** `where.self_out` */
export function whereOut(_ks: DispatchKeySet, condition: Tensor, self: Tensor, other: Tensor, out: Tensor): Tensor {
  return whereImpl(out, condition, self, other);
}
/** `where.ScalarSelf` */
export function whereScalarSelf(_ks: DispatchKeySet, condition: Tensor, self: Num, other: Tensor): Tensor {
  return whereImpl(null, condition, wrapNumber(self), other);
}
/** `where.ScalarOther` */
export function whereScalarOther(_ks: DispatchKeySet, condition: Tensor, self: Tensor, other: Num): Tensor {
  return whereImpl(null, condition, self, wrapNumber(other));
}
/** `where.Scalar` */
export function whereScalar(_ks: DispatchKeySet, condition: Tensor, self: Num, other: Num): Tensor {
  return whereImpl(null, condition, wrapNumber(self), wrapNumber(other));
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
    let result = self.dtype;
    if (isComplexType(result)) throw new Error('clamp is not supported for complex types');
    if (!isFloatingType(result)) {
      const operands: (Tensor | Num)[] = [self];
      if (hasMin) operands.push(min);
      if (hasMax) operands.push(max);
      result = resultType(operands);
      if (result !== self.dtype && out === self) {
        throw new Error(`result type ${scalarTypeToString(result)} can't be cast to the desired output type ${typeMetaName(self.dtype)}`);
      }
    }
    if (out !== null && out.dtype !== result) {
      throw new Error(`Found dtype ${scalarTypeToString(out.dtype)} but expected ${scalarTypeToString(result)}`);
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
      throw notImplemented(hasMin && hasMax ? 'clamp_scalar_cpu' : hasMin ? 'clamp_min_scalar_cpu' : 'clamp_max_scalar_cpu', r);
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
    if (isComplexType(self.dtype)) throw new Error('clamp is not supported for complex types');
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
      if (iter.commonDtype === ScalarType.Bool) throw notImplemented('clamp_cpu', ScalarType.Bool);
      cpuKernelVec(iter, clampTensorOp, clampTensorVec);
    } else if (hasMin) {
      cpuKernelVec(iter, maxOp, clampMinTensorVec);
    } else {
      cpuKernelVec(iter, minOp, clampMaxTensorVec);
    }
  },
};

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
  else throw notImplemented(name, d);
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
  return rem(null, self, wrapNumber(other));
}
export function remainderScalar_(_ks: DispatchKeySet, self: Tensor, other: Num): Tensor {
  return rem(self, self, wrapNumber(other));
}
export function remainderScalarOut(_ks: DispatchKeySet, self: Tensor, other: Num, out: Tensor): Tensor {
  return rem(out, self, wrapNumber(other));
}
/** `remainder.Scalar_Tensor(Scalar self, Tensor other)` */
export function remainderScalarTensor(_ks: DispatchKeySet, self: Num, other: Tensor): Tensor {
  return rem(null, wrapNumber(self), other);
}
/** `fmod.Tensor_out` (structured). */
export const fmodStructured: StructuredKernel<[self: Tensor, other: Tensor]> = {
  meta: (out, self, other) => TensorIterator.binaryOp(out, self, other),
  impl: (iter) => modLoop('fmod_cpu', fmodOp, fmodInt, iter),
};
export function fmodScalar(_ks: DispatchKeySet, self: Tensor, other: Num): Tensor {
  return fmo(null, self, wrapNumber(other));
}
export function fmodScalar_(_ks: DispatchKeySet, self: Tensor, other: Num): Tensor {
  return fmo(self, self, wrapNumber(other));
}
export function fmodScalarOut(_ks: DispatchKeySet, self: Tensor, other: Num, out: Tensor): Tensor {
  return fmo(out, self, wrapNumber(other));
}

// ---------------------------------------------------------------------------------------------------
// atan2 (binary_float_op) and lerp
// ---------------------------------------------------------------------------------------------------

/** `atan2.out` (structured, as in PyTorch): a float op (integer inputs compute in the default float dtype). */
export const atan2Structured: StructuredKernel<[self: Tensor, other: Tensor]> = {
  meta: (out, self, other) => TensorIterator.binaryFloatOp(out, self, other),
  impl: (iter) => cpuKernel(iter, Math.atan2),
};

// Note [lerp's two formulas]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's lerp is `self + w * (end - self)` for |w| < 0.5 and `end - (end - self) * (1 - w)` otherwise, so
// that w = 0 gives `self` and w = 1 gives `end` exactly. It computes in opmath (float for float16 and
// float32, double for float64) with the weight converted to it; each step here rounds to float32 when the
// opmath type is float. (PyTorch's vectorised path fuses the last multiply-add, which can differ in the last
// bit; the tests allow for that.)
function lerpScalarOp(d: ScalarType, weight: number): ScalarOp {
  const f = d === ScalarType.Double ? (x: number) => x : Math.fround;
  const w = f(weight);
  const small = Math.abs(w) < 0.5;
  const oneMinusW = f(1 - w);
  return (a, b) => {
    const diff = f(b - a);
    return small ? f(a + f(w * diff)) : f(b - f(diff * oneMinusW));
  };
}

/** lerp over contiguous runs of float32 (opmath float: every step rounded) or float64. */
function lerpScalarVec(d: ScalarType, weight: number): VecOp {
  if (d === ScalarType.Double) {
    const small = Math.abs(weight) < 0.5;
    const oneMinusW = 1 - weight;
    return (out, o, ins, offs, n) => {
      const a = ins[0] as StorageArray;
      const b = ins[1] as StorageArray;
      const ao = offs[0] as number;
      const bo = offs[1] as number;
      if (small) for (let i = 0; i < n; i++) out[o + i] = (a[ao + i] as number) + weight * ((b[bo + i] as number) - (a[ao + i] as number));
      else for (let i = 0; i < n; i++) out[o + i] = (b[bo + i] as number) - ((b[bo + i] as number) - (a[ao + i] as number)) * oneMinusW;
    };
  }
  const fr = Math.fround;
  const w = fr(weight);
  const small = Math.abs(w) < 0.5;
  const oneMinusW = fr(1 - w);
  return (out, o, ins, offs, n) => {
    const a = ins[0] as StorageArray;
    const b = ins[1] as StorageArray;
    const ao = offs[0] as number;
    const bo = offs[1] as number;
    for (let i = 0; i < n; i++) {
      const x = a[ao + i] as number;
      const y = b[bo + i] as number;
      const diff = fr(y - x);
      out[o + i] = small ? x + fr(w * diff) : y - fr(diff * oneMinusW);
    }
  };
}

/**
 * `lerp.Scalar_out` (structured, as in PyTorch's TORCH_META_FUNC(lerp_Scalar)): `end` must have self's dtype,
 * then a binary_op iterator; the impl is lerp_kernel_scalar_weight over floating dtypes.
 */
export const lerpScalarStructured: StructuredKernel<[self: Tensor, end: Tensor, weight: Num]> = {
  meta(out, self, end) {
    if (self.dtype !== end.dtype) {
      throw new Error(`expected dtype ${typeMetaName(self.dtype)} for \`end\` but got dtype ${typeMetaName(end.dtype)}`);
    }
    return TensorIterator.binaryOp(out, self, end);
  },
  impl(iter, _self, _end, weight) {
    if (iter.isMeta) return;
    const d = iter.commonDtype;
    if (!isFloatingType(d)) throw notImplemented('lerp_kernel_scalar', d);
    const w = Number(weight);
    cpuKernelVec(iter, lerpScalarOp(d, w), lerpScalarVec(d, w));
  },
};

/**
 * `lerp.Tensor_out` (structured, as in PyTorch): a per-element weight of self's dtype, the three inputs
 * broadcast together; the two formulas of Note [lerp's two formulas], chosen per element.
 */
export const lerpTensorStructured: StructuredKernel<[self: Tensor, end: Tensor, weight: Tensor]> = {
  meta(out, self, end, weight) {
    if (self.dtype !== end.dtype) {
      throw new Error(`expected dtype ${typeMetaName(self.dtype)} for \`end\` but got dtype ${typeMetaName(end.dtype)}`);
    }
    if (self.dtype !== weight.dtype) {
      throw new Error(`expected dtype ${typeMetaName(self.dtype)} for \`weight\` but got dtype ${typeMetaName(weight.dtype)}`);
    }
    return new TensorIteratorConfig().addOutput(out).addConstInput(self).addConstInput(end).addConstInput(weight).build();
  },
  impl(iter) {
    const d = iter.commonDtype;
    if (!isFloatingType(d)) throw notImplemented('lerp_kernel_tensor', d);
    const f = d === ScalarType.Double ? (x: number) => x : Math.fround;
    cpuKernel(iter, (a, b, w) => {
      const diff = f(b - a);
      return Math.abs(w) < 0.5 ? f(a + f(w * diff)) : f(b - f(diff * f(1 - w)));
    });
  },
};
