// The loops of the binary pointwise operators: the comparisons, logical and bitwise ops, maximum / minimum,
// remainder / fmod, atan2, div's rounding modes, add / sub / mul / div (their SIMD kernels and JS twins, the
// same-shape fast path), hypot, logaddexp, logaddexp2, xlogy, copysign, nextafter, heaviside. Mirrors
// aten/src/ATen/native/cpu/BinaryOpsKernel.cpp: each export is the loop PyTorch registers for a stub
// (`add_stub`, `eq_stub`, ...), run on an iterator the meta step built; the meta functions, structured
// declarations and wrappers are BinaryOps.ts (native/BinaryOps.cpp).

import { DeviceType } from '../c10/Device.js';
import { ScalarType, elementSize, isComplexType, isFloatingType, isIntegralType, notImplementedForDtype } from '../c10/ScalarType.js';
import {
  type ComplexOp,
  type ScalarOp,
  type TensorIterator,
  type VecOp,
  castValue,
  cpuKernel,
  cpuKernelComplex,
  cpuKernelVec,
  elementBase,
} from '../iter/index.js';
import type { StorageArray } from '../tensor/Storage.js';
import type { Tensor } from '../tensor/Tensor.js';
import { wrapInt64Run } from '../tensor/elements.js';
import type { TensorImpl } from '../tensor/TensorImpl.js';
import { igamma as igammaOp, igammac as igammacOp } from './IncompleteGamma.js';
import { newContiguousUnchecked } from '../tensor/EmptyTensor.js';
import { cdiv } from './zmath.js';
import * as pw from '../wasm/kernels/generated/PointwiseTwins.js';
import { binaryVec, wasmAxpyVec, wasmScalarVec } from '../wasm/kernels/vec.js';
import { divFloorFloat, divOpmath, mulOpmath, reducedFloatScalarLoop, truncDivOpmath, xlogyFloatOp } from './BinaryOpsReducedFloat.js';

/** A loop over an iterator the meta step built (PyTorch's `void kernel(TensorIteratorBase& iter)`). */
export type BinaryLoop = (iter: TensorIterator) => void;

// ---------------------------------------------------------------------------------------------------
// Comparisons: eq ne lt le gt ge
// ---------------------------------------------------------------------------------------------------

const eqOp: ScalarOp = (a, b) => (a === b ? 1 : 0);
const neOp: ScalarOp = (a, b) => (a !== b ? 1 : 0);
const ltOp: ScalarOp = (a, b) => (a < b ? 1 : 0);
const leOp: ScalarOp = (a, b) => (a <= b ? 1 : 0);
const gtOp: ScalarOp = (a, b) => (a > b ? 1 : 0);
const geOp: ScalarOp = (a, b) => (a >= b ? 1 : 0);
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

/** The Tensor and Scalar overloads' loops of one comparison (the general loop unless a fast case applies). */
function comparisonLoops(
  op: ScalarOp,
  vec: CompareVec,
  complex: ComplexOp | null,
  name: string,
): { tensor: BinaryLoop; scalar: BinaryLoop } {
  const run = (iter: TensorIterator, fast: boolean): void => {
    if (isComplexType(iter.commonDtype)) {
      if (iter.isMeta) return;
      if (complex === null) throw notImplementedForDtype(name, iter.commonDtype);
      cpuKernelComplex(iter, complex);
    } else if (!fast) cpuKernel(iter, op);
  };
  return {
    tensor: (iter) => run(iter, !isComplexType(iter.commonDtype) && compareContiguous(iter, vec)),
    scalar: (iter) => run(iter, !isComplexType(iter.commonDtype) && compareScalarContiguous(iter, vec)),
  };
}

// complex == and != compare both parts (a bool result: the loop stores the real part)
const eqComplex: ComplexOp = (ins, out) => {
  out[0] = ins[0] === ins[2] && ins[1] === ins[3] ? 1 : 0;
  out[1] = 0;
};
const neComplex: ComplexOp = (ins, out) => {
  out[0] = ins[0] !== ins[2] || ins[1] !== ins[3] ? 1 : 0;
  out[1] = 0;
};

export const eqKernel = comparisonLoops(eqOp, eqVec, eqComplex, 'eq_cpu');
export const neKernel = comparisonLoops(neOp, neVec, neComplex, 'ne_cpu');
export const ltKernel = comparisonLoops(ltOp, ltVec, null, 'lt_cpu');
export const leKernel = comparisonLoops(leOp, leVec, null, 'le_cpu');
export const gtKernel = comparisonLoops(gtOp, gtVec, null, 'gt_cpu');
export const geKernel = comparisonLoops(geOp, geVec, null, 'ge_cpu');

// ---------------------------------------------------------------------------------------------------
// Logical ops (any nonzero value, NaN included, is true)
// ---------------------------------------------------------------------------------------------------

const andOp: ScalarOp = (a, b) => (a !== 0 && b !== 0 ? 1 : 0);
const orOp: ScalarOp = (a, b) => (a !== 0 || b !== 0 ? 1 : 0);
const xorOp: ScalarOp = (a, b) => ((a !== 0) !== (b !== 0) ? 1 : 0);

export const logicalAndKernel: BinaryLoop = (iter) => cpuKernel(iter, andOp);
export const logicalOrKernel: BinaryLoop = (iter) => cpuKernel(iter, orOp);
export const logicalXorKernel: BinaryLoop = (iter) => cpuKernel(iter, xorOp);

// ---------------------------------------------------------------------------------------------------
// Bitwise ops (integers and bool only)
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

export const bitwiseAndKernel: BinaryLoop = (iter) => bitwiseLoop('bitwise_and_cpu', bitAnd, iter);
export const bitwiseOrKernel: BinaryLoop = (iter) => bitwiseLoop('bitwise_or_cpu', bitOr, iter);
export const bitwiseXorKernel: BinaryLoop = (iter) => bitwiseLoop('bitwise_xor_cpu', bitXor, iter);

// ---------------------------------------------------------------------------------------------------
// maximum / minimum (NaN propagates; bool is or / and)
// ---------------------------------------------------------------------------------------------------

export const maxOp: ScalarOp = (a, b) => (a !== a || b !== b ? NaN : a < b ? b : a);
export const minOp: ScalarOp = (a, b) => (a !== a || b !== b ? NaN : b < a ? b : a);

export const maximumKernel: BinaryLoop = (iter) => cpuKernel(iter, maxOp);
export const minimumKernel: BinaryLoop = (iter) => cpuKernel(iter, minOp);

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

export const remainderKernel: BinaryLoop = (iter) => modLoop('remainder_cpu', remainderOp, remainderInt, iter);
export const fmodKernel: BinaryLoop = (iter) => modLoop('fmod_cpu', fmodOp, fmodInt, iter);

// ---------------------------------------------------------------------------------------------------
// atan2, div's rounding modes
// ---------------------------------------------------------------------------------------------------

export const atan2Kernel: BinaryLoop = (iter) => cpuKernel(iter, Math.atan2);

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

/** div_true_kernel of `div.Tensor_mode` with no rounding mode: a / b per element. */
export const divTrueModeKernel: BinaryLoop = (iter) => {
  if (!reducedFloatScalarLoop(iter, divOpmath)) cpuKernel(iter, divOpmath);
};

/** div_trunc_kernel / div_floor_kernel: integers raise ZeroDivisionError for a division by zero. */
export function divRoundingKernel(iter: TensorIterator, roundingMode: 'trunc' | 'floor'): void {
  if (iter.isMeta) return;
  const d = iter.commonDtype;
  if (isComplexType(d) || d === ScalarType.Bool) throw notImplementedForDtype(`div_${roundingMode}_cpu`, d);
  if (isFloatingType(d)) {
    if (reducedFloatScalarLoop(iter, roundingMode === 'trunc' ? truncDivOpmath : divFloorFloat)) return;
    cpuKernel(iter, roundingMode === 'trunc' ? (a, b) => Math.trunc(a / b) : divFloorFloating);
  } else {
    cpuKernel(iter, (a, b) => {
      if (b === 0) throw new Error('ZeroDivisionError');
      const q = Math.trunc(a / b);
      return roundingMode === 'floor' && q * b !== a && a < 0 !== b < 0 ? q - 1 : q;
    });
  }
}

// ---------------------------------------------------------------------------------------------------
// add / sub / mul / div
// ---------------------------------------------------------------------------------------------------

// Note [Vectorised loops are unrolled]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// V8 runs a loop over typed arrays passed as parameters about three times slower than one over arrays it
// can see are constant; unrolling by four recovers most of it (bench/iter.bench.ts). The scalar tail
// handles the remainder. Results of + - * on doubles rounded once into a Float32Array equal float32
// arithmetic, and Int32Array/Int8Array/... stores wrap like C++ integer arithmetic. The loops are the
// kernels' JS twins (src/wasm/kernels/generated/PointwiseTwins.ts, Note [Pointwise twins from one expression]),
// also the fallback (Note [The twin is the fallback]); the strided loops call the same expression (`*_op`).

function axpyVec(alpha: number): VecOp {
  return alpha === -1 ? subVec : wasmAxpyVec(axpyVecJs(alpha), alpha);
}

function axpyVecJs(alpha: number): VecOp {
  return (out, o, ins, offs, n) => pw.vaxpy(n, ins[0]!, offs[0]!, ins[1]!, offs[1]!, alpha, out, o);
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
const addVec = binaryVec(pw.vadd, 'f32_vadd', 'f64_vadd');
const addScalarVec = wasmScalarVec(pw.vadd_scalar, 'f32_vadd_scalar', 'f64_vadd_scalar');
const subScalarVec = wasmScalarVec(pw.vsub_scalar, 'f32_vsub_scalar', 'f64_vsub_scalar');
const mulScalarVec = wasmScalarVec(pw.vmul_scalar, 'f32_vmul_scalar', 'f64_vmul_scalar');
const divScalarVec = wasmScalarVec(pw.vdiv_scalar, 'f32_vdiv_scalar', 'f64_vdiv_scalar');
const subVec = binaryVec(pw.vsub, 'f32_vsub', 'f64_vsub');
const mulVec = binaryVec(pw.vmul, 'f32_vmul', 'f64_vmul');
const divVec = binaryVec(pw.vdiv, 'f32_vdiv', 'f64_vdiv');

/** add_kernel (sub is add with -alpha): out = a + alpha * b (bool: a || b). */
export function addKernel(iter: TensorIterator, alpha: number): void {
  if (isComplexType(iter.commonDtype)) {
    cpuKernelComplex(iter, (ins, out) => {
      out[0] = ins[0]! + alpha * ins[2]!;
      out[1] = ins[1]! + alpha * ins[3]!;
    });
  } else if (alpha === 1) {
    cpuKernelVec(iter, pw.vadd_op, addVec, addScalarVec);
  } else if (iter.commonDtype === ScalarType.Half || iter.commonDtype === ScalarType.BFloat16) {
    // alpha in the reduced dtype, fused in float (Note [Reduced-float kernels read a scalar operand in float])
    const a16 = castValue(alpha, iter.commonDtype);
    cpuKernel(iter, (a, b) => Math.fround((a as number) + a16 * (b as number)));
  } else {
    cpuKernelVec(iter, (a, b) => pw.vaxpy_op(a, b, alpha), axpyVec(alpha), alpha === -1 ? subScalarVec : undefined);
  }
}

/** mul_kernel. */
export function mulKernel(iter: TensorIterator): void {
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
  } else if (!reducedFloatScalarLoop(iter, mulOpmath)) {
    cpuKernelVec(iter, pw.vmul_op, mulVec, mulScalarVec);
  }
}

/** div_true_kernel. */
export function divTrueKernel(iter: TensorIterator): void {
  if (isComplexType(iter.commonDtype)) {
    // c10::complex's scaled Smith division (See Note [Complex loops in JS])
    cpuKernelComplex(iter, (ins, out) => cdiv(ins[0]!, ins[1]!, ins[2]!, ins[3]!, out));
  } else if (!reducedFloatScalarLoop(iter, divOpmath)) {
    cpuKernelVec(iter, pw.vdiv_op, divVec, divScalarVec);
  }
}

// Note [Same-shape fast path]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The commonest elementwise call has two contiguous tensors of one shape and one dtype: no broadcasting, no
// promotion, a contiguous result of the same shape. For it the functional kernels skip building a
// TensorIterator (about half the cost of a 1-element add) and run the vectorised loop directly; the answer
// is the one the iterator would give (same dtype, shape and contiguous strides). Everything else, and every
// dtype the vectorised loops do not cover, takes the general path.
const FAST_DTYPES: readonly boolean[] = Array.from({ length: 32 }, (_, d) =>
  [ScalarType.Float, ScalarType.Double, ScalarType.Int, ScalarType.Long, ScalarType.Short, ScalarType.Char, ScalarType.Byte].includes(d),
);
const fastIns: StorageArray[] = [new Float32Array(0), new Float32Array(0)];
const fastOffs = [0, 0];

function sameShapeFast(a: Tensor, b: Tensor): boolean {
  const dtype = a.scalarType;
  if (dtype !== b.scalarType || FAST_DTYPES[dtype] !== true || a.isWrappedNumber || b.isWrappedNumber) return false;
  const as = a.sizes;
  const bs = b.sizes;
  const n = as.length;
  if (n !== bs.length) return false;
  for (let i = 0; i < n; i++) if (as[i] !== bs[i]) return false;
  return a.device.type !== DeviceType.Meta && b.device.type !== DeviceType.Meta && a.isContiguous() && b.isContiguous();
}

/** Runs `vec` over two same-shape contiguous tensors into a new contiguous result. */
function runSameShape(a: Tensor, b: Tensor, vec: VecOp): Tensor {
  const dtype = a.scalarType;
  const n = a.numel();
  const out = newContiguousUnchecked(a.sizes.slice(), n, dtype, a.device);
  // These dtypes have one lane per element of their item size, so a byte offset divided by it is the element
  // offset (storage.arrayOffset without its lookups; the item size comes from the dtype, not from the array,
  // whose class varies with the dtype and would make the load megamorphic).
  const size = elementSize(dtype);
  const sa = a.storage;
  const sb = b.storage;
  const so = out.storage;
  fastIns[0] = sa.data(dtype);
  fastIns[1] = sb.data(dtype);
  fastOffs[0] = sa.byteOffset / size + a.storageOffset;
  fastOffs[1] = sb.byteOffset / size + b.storageOffset;
  const o = so.data(dtype);
  vec(o, so.byteOffset / size, fastIns, fastOffs, n);
  if (dtype === ScalarType.Long) wrapInt64Run(o, so.byteOffset / size, n); // Note [Typed storage of each dtype]
  return out;
}

/** The functional add's fast path with alpha 1 (Note [Same-shape fast path]); null when it does not apply. */
export function addFast(self: Tensor, other: Tensor): Tensor | null {
  return sameShapeFast(self, other) ? runSameShape(self, other, addVec) : null;
}

/** The functional sub's fast path with alpha 1 (Note [Same-shape fast path]); null when it does not apply. */
export function subFast(self: Tensor, other: Tensor): Tensor | null {
  return sameShapeFast(self, other) ? runSameShape(self, other, subVec) : null;
}

/** The functional mul's fast path (Note [Same-shape fast path]); null when it does not apply. */
export function mulFast(self: Tensor, other: Tensor): Tensor | null {
  return sameShapeFast(self, other) ? runSameShape(self, other, self.scalarType === ScalarType.Long ? mulVecInt64 : mulVec) : null;
}

// ---------------------------------------------------------------------------------------------------
// hypot, logaddexp, logaddexp2, xlogy, copysign, nextafter, heaviside
// ---------------------------------------------------------------------------------------------------

/** The impl of a floating-only kernel (AT_DISPATCH_FLOATING_TYPES_AND2(Half, BFloat16, name, ...)). */
function floatingLoop(name: string, op: ScalarOp): BinaryLoop {
  return (iter) => {
    if (iter.isMeta) return;
    const d = iter.commonDtype;
    if (!isFloatingType(d)) throw notImplementedForDtype(name, d);
    cpuKernel(iter, op);
  };
}

const hypotOp: ScalarOp = (a, b) => Math.hypot(a as number, b as number);

/** logaddexp_kernel: a when both are the same infinity, else max + log1p(exp(-|a - b|)). */
const logaddexpOp: ScalarOp = (a, b) => {
  const x = a as number;
  const y = b as number;
  if (x === y && !Number.isFinite(x)) return x;
  const m = Math.max(x, y);
  return m + Math.log1p(Math.exp(-Math.abs(x - y)));
};
/** logaddexp2_kernel: the same in base 2 (log1p(2^-|a - b|) / ln 2). */
const logaddexp2Op: ScalarOp = (a, b) => {
  const x = a as number;
  const y = b as number;
  if (x === y && !Number.isFinite(x)) return x;
  const m = Math.max(x, y);
  return m + Math.log1p(2 ** -Math.abs(x - y)) / Math.LN2;
};
/** xlogy_kernel: NaN where y is NaN, 0 where x is 0, else x log(y). */
const xlogyOp: ScalarOp = (a, b) => {
  const x = a as number;
  const y = b as number;
  if (Number.isNaN(y)) return NaN;
  if (x === 0) return 0;
  return x * Math.log(y);
};
/** std::copysign. */
const copysignOp: ScalarOp = (a, b) => {
  const x = Math.abs(a as number);
  const y = b as number;
  return y < 0 || Object.is(y, -0) ? -x : x;
};

export const hypotKernel: BinaryLoop = floatingLoop('hypot_cpu', hypotOp);
export const logaddexpKernel: BinaryLoop = floatingLoop('logaddexp_cpu', logaddexpOp);
export const logaddexp2Kernel: BinaryLoop = floatingLoop('logaddexp2_cpu', logaddexp2Op);
export const xlogyKernel: BinaryLoop = (iter) => {
  const d = iter.commonDtype;
  floatingLoop('xlogy_cpu', d === ScalarType.Double || !isFloatingType(d) ? xlogyOp : xlogyFloatOp(d))(iter);
};
export const copysignKernel: BinaryLoop = floatingLoop('copysign_cpu', copysignOp);

// ---- nextafter ----------------------------------------------------------------------------------------

const f64 = new Float64Array(1);
const i64 = new BigInt64Array(f64.buffer);
const f32 = new Float32Array(1);
const i32 = new Int32Array(f32.buffer);

/** std::nextafter in double: the neighbour of a towards b. */
function nextafter64(a: number, b: number): number {
  if (Number.isNaN(a) || Number.isNaN(b)) return NaN;
  if (a === b) return b;
  if (a === 0) return b > 0 ? Number.MIN_VALUE : -Number.MIN_VALUE;
  f64[0] = a;
  i64[0] = (i64[0] as bigint) + (b > a === a > 0 ? 1n : -1n);
  return f64[0] as number;
}
/** std::nextafter in float. */
function nextafter32(a: number, b: number): number {
  if (Number.isNaN(a) || Number.isNaN(b)) return NaN;
  if (a === b) return b;
  if (a === 0) return b > 0 ? 1.401298464324817e-45 : -1.401298464324817e-45;
  f32[0] = a;
  i32[0] = (i32[0] as number) + (b > a === a > 0 ? 1 : -1);
  return f32[0] as number;
}

export const nextafterKernel: BinaryLoop = (iter) => {
  if (iter.isMeta) return;
  const d = iter.commonDtype;
  if (d === ScalarType.Double) cpuKernel(iter, nextafter64 as ScalarOp);
  else if (d === ScalarType.Float) cpuKernel(iter, nextafter32 as ScalarOp);
  else throw notImplementedForDtype('nextafter_cpu', d);
};

export const heavisideKernel: BinaryLoop = (iter) => {
  if (iter.isMeta) return;
  cpuKernel(iter, (a, b) => (a === 0 ? b : (a as number) > 0 ? 1 : 0));
};

// ---------------------------------------------------------------------------------------------------
// fmax / fmin (NaN ignored unless both are NaN), gcd / lcm, the shifts, igamma / igammac
// ---------------------------------------------------------------------------------------------------

const fmaxOp: ScalarOp = (a, b) => (a !== a ? b : b !== b ? a : a < b ? b : a);
const fminOp: ScalarOp = (a, b) => (a !== a ? b : b !== b ? a : b < a ? b : a);

/** fmax_kernel / fmin_kernel: floats ignore a NaN operand; other dtypes are maximum / minimum. */
function fmaxFminLoop(floatOp: ScalarOp, otherOp: ScalarOp): BinaryLoop {
  return (iter) => {
    if (iter.isMeta) return;
    cpuKernel(iter, isFloatingType(iter.commonDtype) ? floatOp : otherOp);
  };
}
export const fmaxKernel = fmaxFminLoop(fmaxOp, maxOp);
export const fminKernel = fmaxFminLoop(fminOp, minOp);

/** calc_gcd: Euclid's algorithm on the absolute values. */
function gcdOp(x: number, y: number): number {
  let a = Math.abs(x);
  let b = Math.abs(y);
  while (a !== 0) {
    const c = a;
    a = b % a;
    b = c;
  }
  return b;
}

/** An integral-only kernel (AT_DISPATCH_INTEGRAL_TYPES on the common dtype: bool is rejected too). */
function integralLoop(name: string, op: ScalarOp): BinaryLoop {
  return (iter) => {
    if (iter.isMeta) return;
    const d = iter.commonDtype;
    if (!isIntegralType(d, false)) throw notImplementedForDtype(name, d);
    cpuKernel(iter, op);
  };
}
export const gcdKernel = integralLoop('gcd_cpu', gcdOp as ScalarOp);
/** lcm_kernel: |a / gcd * b|, 0 when the gcd is 0. */
export const lcmKernel = integralLoop('lcm_cpu', ((a: number, b: number) => {
  const g = gcdOp(a, b);
  return g === 0 ? 0 : Math.abs((a / g) * b);
}) as ScalarOp);

// Note [Shifts of each width]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
// lshift_kernel / rshift_kernel work in the dtype's width: a count that is negative (read as signed) or at
// least the width gives 0 for a left shift and the sign fill (a >> (width - 1), or 0 for uint8) for a right
// shift; a left shift goes through the unsigned type, so bits shifted out are lost and the result wraps to
// the dtype. The values go through BigInt (int64 lives in a double: Note [Typed storage of each dtype]).
function shiftLoop(name: string, left: boolean): BinaryLoop {
  return (iter) => {
    if (iter.isMeta) return;
    const d = iter.dtype(0);
    if (!isIntegralType(d, false)) throw notImplementedForDtype(name, d);
    const bits = elementSize(d) * 8;
    const signed = d !== ScalarType.Byte;
    const wrap = (v: bigint): number => Number(signed ? BigInt.asIntN(bits, v) : BigInt.asUintN(bits, v));
    const maxShift = left ? bits : bits - (signed ? 1 : 0);
    cpuKernel(iter, (a, b) => {
      const count = BigInt.asIntN(bits, BigInt(b));
      if (left) return count < 0n || b >= maxShift ? 0 : wrap(BigInt(a) << count);
      return wrap(BigInt(a) >> (count < 0n || b >= maxShift ? BigInt(maxShift) : count));
    });
  };
}
export const lshiftKernel = shiftLoop('lshift_cpu', true);
export const rshiftKernel = shiftLoop('rshift_cpu', false);

export const igammaKernel: BinaryLoop = floatingLoop('igamma_cpu', igammaOp as ScalarOp);
export const igammacKernel: BinaryLoop = floatingLoop('igammac_cpu', igammacOp as ScalarOp);
