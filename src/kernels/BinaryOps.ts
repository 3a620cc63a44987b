// The binary pointwise operators: add, sub, mul, div (and div with rounding_mode), the comparisons eq ne lt le
// gt ge, logical_and/or/xor, bitwise_and/or/xor, maximum, minimum, remainder, fmod, atan2, hypot, logaddexp,
// logaddexp2, xlogy, copysign, nextafter, heaviside, ldexp, and float_power of Pow.cpp. Mirrors
// aten/src/ATen/native/BinaryOps.cpp: the meta functions (the TensorIterator each op builds, its argument
// checks), the structured declarations (meta + impl; the variants are generated from native_functions.yaml)
// and the wrappers of the Scalar overloads. The loops are BinaryOpsKernel.ts (native/cpu/BinaryOpsKernel.cpp).

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isComplexType, isFloatingType, scalarTypeToString } from '../c10/ScalarType.js';
import { TensorIterator } from '../iter/index.js';
import { aten } from '../generated/Operators.js';
import { wrapScalar } from '../tensor/ScalarOps.js';
import type { Tensor } from '../tensor/Tensor.js';
import {
  type BinaryLoop,
  addFast,
  subFast,
  addKernel,
  atan2Kernel,
  bitwiseAndKernel,
  bitwiseOrKernel,
  bitwiseXorKernel,
  copysignKernel,
  divRoundingKernel,
  divTrueKernel,
  divTrueModeKernel,
  eqKernel,
  fmaxKernel,
  fminKernel,
  fmodKernel,
  gcdKernel,
  geKernel,
  gtKernel,
  heavisideKernel,
  hypotKernel,
  igammaKernel,
  igammacKernel,
  lcmKernel,
  leKernel,
  logaddexp2Kernel,
  logaddexpKernel,
  logicalAndKernel,
  logicalOrKernel,
  logicalXorKernel,
  lshiftKernel,
  ltKernel,
  maximumKernel,
  minimumKernel,
  mulFast,
  mulKernel,
  neKernel,
  nextafterKernel,
  remainderKernel,
  rshiftKernel,
  xlogyKernel,
} from './BinaryOpsKernel.js';
import type { StructuredKernel } from './TensorMeta.js';

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

// Note [Comparisons are structured]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// As in PyTorch, eq/ne/lt/le/gt/ge are structured for both their Tensor and Scalar overloads, and so are
// the Tensor overloads of bitwise_and/or/xor, bitwise_not, maximum, minimum, clamp (Scalar and Tensor
// bounds), remainder, fmod, atan2 and lerp (Scalar and Tensor weights) further down; logical_* and where are
// plain kernels, as in PyTorch. `meta` builds the iterator (for comparisons a bool result unless
// out= or in-place says otherwise), `impl` runs the loop; the functional, in-place and out= kernels for CPU
// and Meta are generated (Note [Structured kernels in aten-ts]).

type ComparisonLoops = { tensor: BinaryLoop; scalar: BinaryLoop };

function comparison(loops: ComparisonLoops): StructuredKernel<[self: Tensor, other: Tensor]> {
  return {
    meta: (out, self, other) => TensorIterator.comparisonOp(out, self, other),
    impl: (iter) => loops.tensor(iter),
  };
}

function comparisonScalar(loops: ComparisonLoops): StructuredKernel<[self: Tensor, other: Num]> {
  return {
    meta: (out, self, other) => TensorIterator.comparisonOp(out, self, wrapScalar(other)),
    impl: (iter) => loops.scalar(iter),
  };
}

/** `eq.Tensor_out` */
export const eqStructured = comparison(eqKernel);
/** `eq.Scalar_out` */
export const eqScalarStructured = comparisonScalar(eqKernel);
/** `ne.Tensor_out` */
export const neStructured = comparison(neKernel);
/** `ne.Scalar_out` */
export const neScalarStructured = comparisonScalar(neKernel);
/** `lt.Tensor_out` */
export const ltStructured = comparison(ltKernel);
/** `lt.Scalar_out` */
export const ltScalarStructured = comparisonScalar(ltKernel);
/** `le.Tensor_out` */
export const leStructured = comparison(leKernel);
/** `le.Scalar_out` */
export const leScalarStructured = comparisonScalar(leKernel);
/** `gt.Tensor_out` */
export const gtStructured = comparison(gtKernel);
/** `gt.Scalar_out` */
export const gtScalarStructured = comparisonScalar(gtKernel);
/** `ge.Tensor_out` */
export const geStructured = comparison(geKernel);
/** `ge.Scalar_out` */
export const geScalarStructured = comparisonScalar(geKernel);

/** A comparison-style iterator and loop (bool result unless `out` says otherwise); for the logical ops. */
function compare(loop: BinaryLoop, out: Tensor | null, self: Tensor, other: Tensor): Tensor {
  const iter = TensorIterator.comparisonOp(out, self, other);
  loop(iter);
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

export function logicalAnd(_ks: DispatchKeySet, self: Tensor, other: Tensor): Tensor {
  return compare(logicalAndKernel, null, self, other);
}
export function logicalAnd_(_ks: DispatchKeySet, self: Tensor, other: Tensor): Tensor {
  return compare(logicalAndKernel, self, self, other);
}
export function logicalAndOut(_ks: DispatchKeySet, self: Tensor, other: Tensor, out: Tensor): Tensor {
  return compare(logicalAndKernel, out, self, other);
}
export function logicalOr(_ks: DispatchKeySet, self: Tensor, other: Tensor): Tensor {
  return compare(logicalOrKernel, null, self, other);
}
export function logicalOr_(_ks: DispatchKeySet, self: Tensor, other: Tensor): Tensor {
  return compare(logicalOrKernel, self, self, other);
}
export function logicalOrOut(_ks: DispatchKeySet, self: Tensor, other: Tensor, out: Tensor): Tensor {
  return compare(logicalOrKernel, out, self, other);
}
export function logicalXor(_ks: DispatchKeySet, self: Tensor, other: Tensor): Tensor {
  return compare(logicalXorKernel, null, self, other);
}
export function logicalXor_(_ks: DispatchKeySet, self: Tensor, other: Tensor): Tensor {
  return compare(logicalXorKernel, self, self, other);
}
export function logicalXorOut(_ks: DispatchKeySet, self: Tensor, other: Tensor, out: Tensor): Tensor {
  return compare(logicalXorKernel, out, self, other);
}

// ---------------------------------------------------------------------------------------------------
// Bitwise ops (binary_op iterators; integers and bool only: Note [int64 bitwise operations])
// ---------------------------------------------------------------------------------------------------

function binaryImpl(loop: BinaryLoop, out: Tensor | null, self: Tensor, other: Tensor): Tensor {
  const iter = TensorIterator.binaryOp(out, self, other);
  loop(iter);
  return iter.output() as Tensor;
}

/** The Tensor overloads of bitwise_and/or/xor, structured as in PyTorch (Note [Comparisons are structured]). */
function binaryStructured(loop: BinaryLoop): StructuredKernel<[self: Tensor, other: Tensor]> {
  return {
    meta: (out, self, other) => TensorIterator.binaryOp(out, self, other),
    impl: (iter) => loop(iter),
  };
}

interface BitwiseKernels extends ScalarOverloadKernels {
  scalarTensor: (ks: DispatchKeySet, self: Num, other: Tensor) => Tensor;
}

/** The Scalar overloads: the Tensor op of a wrapped number. */
function scalarOverloads(loop: BinaryLoop): BitwiseKernels {
  return {
    fnScalar: (_ks, self, other) => binaryImpl(loop, null, self, wrapScalar(other)),
    inplaceScalar: (_ks, self, other) => binaryImpl(loop, self, self, wrapScalar(other)),
    outScalar: (_ks, self, other, out) => binaryImpl(loop, out, self, wrapScalar(other)),
    scalarTensor: (_ks, self, other) => binaryImpl(loop, null, wrapScalar(self), other),
  };
}

const andK = scalarOverloads(bitwiseAndKernel);
const orK = scalarOverloads(bitwiseOrKernel);
const xorK = scalarOverloads(bitwiseXorKernel);

/** `bitwise_and.Tensor_out` (structured). */
export const bitwiseAndStructured = binaryStructured(bitwiseAndKernel);
export const bitwiseAndScalar = andK.fnScalar;
export const bitwiseAndScalar_ = andK.inplaceScalar;
export const bitwiseAndScalarOut = andK.outScalar;
export const bitwiseAndScalarTensor = andK.scalarTensor;
/** `bitwise_or.Tensor_out` (structured). */
export const bitwiseOrStructured = binaryStructured(bitwiseOrKernel);
export const bitwiseOrScalar = orK.fnScalar;
export const bitwiseOrScalar_ = orK.inplaceScalar;
export const bitwiseOrScalarOut = orK.outScalar;
export const bitwiseOrScalarTensor = orK.scalarTensor;
/** `bitwise_xor.Tensor_out` (structured). */
export const bitwiseXorStructured = binaryStructured(bitwiseXorKernel);
export const bitwiseXorScalar = xorK.fnScalar;
export const bitwiseXorScalar_ = xorK.inplaceScalar;
export const bitwiseXorScalarOut = xorK.outScalar;
export const bitwiseXorScalarTensor = xorK.scalarTensor;

// ---------------------------------------------------------------------------------------------------
// maximum / minimum (binary_op; complex rejected by the meta step)
// ---------------------------------------------------------------------------------------------------

function maxMin(name: string, loop: BinaryLoop): StructuredKernel<[self: Tensor, other: Tensor]> {
  return {
    meta(out, self, other) {
      complexCheck(self, other, name);
      return TensorIterator.binaryOp(out, self, other);
    },
    impl: (iter) => loop(iter),
  };
}

/** `maximum.out` (structured, as in PyTorch). */
export const maximumStructured = maxMin('maximum', maximumKernel);
/** `minimum.out` (structured). */
export const minimumStructured = maxMin('minimum', minimumKernel);

// ---------------------------------------------------------------------------------------------------
// remainder and fmod (Note [remainder and fmod])
// ---------------------------------------------------------------------------------------------------

const remK = scalarOverloads(remainderKernel);
const fmodK = scalarOverloads(fmodKernel);

/** `remainder.Tensor_out` (structured, as in PyTorch; the Scalar overloads are plain kernels there too). */
export const remainderStructured = binaryStructured(remainderKernel);
export const remainderScalar = remK.fnScalar;
export const remainderScalar_ = remK.inplaceScalar;
export const remainderScalarOut = remK.outScalar;
/** `remainder.Scalar_Tensor(Scalar self, Tensor other)` */
export const remainderScalarTensor = remK.scalarTensor;
/**
 * `div.Scalar(Tensor self, Scalar other)`: div.Tensor of `other` wrapped (CompositeExplicitAutograd, as
 * BinaryOps.cpp), so autograd records DivBackward1 for the kernels that divide by a number (cross_entropy).
 */
export function divScalar(_ks: DispatchKeySet, self: Tensor, other: Num): Tensor {
  return aten().div_Tensor.call(self, wrapScalar(other));
}
/** `mul.Scalar`: the Tensor op of a wrapped number, recorded as MulBackward1 (trapezoid's dx, special_ndtr). */
export function mulScalar(_ks: DispatchKeySet, self: Tensor, other: Num): Tensor {
  return aten().mul_Tensor.call(self, wrapScalar(other));
}
/** `fmod.Tensor_out` (structured). */
export const fmodStructured = binaryStructured(fmodKernel);
export const fmodScalar = fmodK.fnScalar;
export const fmodScalar_ = fmodK.inplaceScalar;
export const fmodScalarOut = fmodK.outScalar;

// ---------------------------------------------------------------------------------------------------
// atan2 (binary_float_op) and div with a rounding mode
// ---------------------------------------------------------------------------------------------------

/** `atan2.out` (structured, as in PyTorch): a float op (integer inputs compute in the default float dtype). */
export const atan2Structured: StructuredKernel<[self: Tensor, other: Tensor]> = {
  meta: (out, self, other) => TensorIterator.binaryFloatOp(out, self, other),
  impl: atan2Kernel,
};

/**
 * `div.Tensor_mode(self, other, *, rounding_mode)`: `null` is true division (integers promote to float);
 * 'trunc' and 'floor' keep integer dtypes and raise ZeroDivisionError for an integer division by zero.
 */
export function divMode(_ks: DispatchKeySet, self: Tensor, other: Tensor, roundingMode: string | null = null): Tensor {
  if (roundingMode === null) {
    const iter = TensorIterator.binaryFloatOp(null, self, other);
    if (isComplexType(iter.commonDtype)) divTrueKernel(iter);
    else divTrueModeKernel(iter);
    return iter.output() as Tensor;
  }
  if (roundingMode !== 'trunc' && roundingMode !== 'floor') {
    throw new Error(`div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '${roundingMode}'`);
  }
  const iter = TensorIterator.binaryOp(null, self, other);
  divRoundingKernel(iter, roundingMode);
  return iter.output() as Tensor;
}

// ---------------------------------------------------------------------------------------------------
// add, sub, mul, div
// ---------------------------------------------------------------------------------------------------

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
    addKernel(iter, Number(alpha));
  },
  fast(self, other, alpha) {
    return alpha === 1 ? addFast(self, other) : null;
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
    addKernel(iter, -Number(alpha));
  },
  fast(self, other, alpha) {
    return alpha === 1 ? subFast(self, other) : null;
  },
};

/** `mul.out`: out = self * other. */
export const mulStructured: StructuredKernel<PlainArgs> = {
  meta(out, self, other) {
    return TensorIterator.binaryOp(out, self, other);
  },
  impl(iter) {
    mulKernel(iter);
  },
  fast: mulFast,
};

/** `div.out`: true division; integer inputs compute in the default float dtype. */
export const divStructured: StructuredKernel<PlainArgs> = {
  meta(out, self, other) {
    return TensorIterator.binaryFloatOp(out, self, other);
  },
  impl(iter) {
    divTrueKernel(iter);
  },
};

// ---------------------------------------------------------------------------------------------------
// hypot, logaddexp, logaddexp2, xlogy, copysign, nextafter, heaviside (structured, as in PyTorch)
// ---------------------------------------------------------------------------------------------------

export const hypotStructured = binaryStructured(hypotKernel);
export const logaddexpStructured = binaryStructured(logaddexpKernel);
export const logaddexp2Structured = binaryStructured(logaddexp2Kernel);
export const xlogyStructured: StructuredKernel<[self: Tensor, other: Tensor]> = {
  meta: (out, self, other) => TensorIterator.binaryFloatOp(out, self, other),
  impl: xlogyKernel,
};
export const copysignStructured: StructuredKernel<[self: Tensor, other: Tensor]> = {
  meta: (out, self, other) => TensorIterator.binaryFloatOp(out, self, other),
  impl: copysignKernel,
};
export const nextafterStructured = binaryStructured(nextafterKernel);

export const heavisideStructured: StructuredKernel<[self: Tensor, values: Tensor]> = {
  meta(out, self, values) {
    if (isComplexType(self.scalarType) || isComplexType(values.scalarType) || (out !== null && isComplexType(out.scalarType))) {
      throw new Error('heaviside is not yet implemented for complex tensors.');
    }
    if (self.scalarType !== values.scalarType || (out !== null && out.scalarType !== self.scalarType)) {
      throw new Error('heaviside is not yet implemented for tensors with different dtypes.');
    }
    return TensorIterator.binaryOp(out, self, values);
  },
  impl: heavisideKernel,
};

// ---- Scalar overloads (CompositeExplicitAutograd) -------------------------------------------------------

export function xlogyScalarSelf(_ks: DispatchKeySet, self: Num, other: Tensor): Tensor {
  return aten().xlogy_Tensor.call(wrapScalar(self), other);
}
export function xlogyScalarOther(_ks: DispatchKeySet, self: Tensor, other: Num): Tensor {
  return aten().xlogy_Tensor.call(self, wrapScalar(other));
}
export function xlogyScalarOther_(_ks: DispatchKeySet, self: Tensor, other: Num): Tensor {
  return aten().xlogy__Tensor.call(self, wrapScalar(other));
}
export function xlogyOutScalarSelf(_ks: DispatchKeySet, self: Num, other: Tensor, out: Tensor): Tensor {
  return aten().xlogy_OutTensor.call(wrapScalar(self), other, out);
}
export function xlogyOutScalarOther(_ks: DispatchKeySet, self: Tensor, other: Num, out: Tensor): Tensor {
  return aten().xlogy_OutTensor.call(self, wrapScalar(other), out);
}
export function copysignScalar(_ks: DispatchKeySet, self: Tensor, other: Num): Tensor {
  return aten().copysign_Tensor.call(self, wrapScalar(other));
}
export function copysignScalar_(_ks: DispatchKeySet, self: Tensor, other: Num): Tensor {
  return aten().copysign__Tensor.call(self, wrapScalar(other));
}
export function copysignScalarOut(_ks: DispatchKeySet, self: Tensor, other: Num, out: Tensor): Tensor {
  return aten().copysign_out.call(self, wrapScalar(other), out);
}

// ---- ldexp (CompositeExplicitAutograd): self * 2^other -----------------------------------------------------

/** `at::pow(2.0, other)`: 2.0 a Python float, so integer exponents give the default float dtype. */
function twoToThe(other: Tensor): Tensor {
  return aten().pow_Tensor_Tensor.call(wrapScalar(2, ScalarType.Double), other);
}
export function ldexp(_ks: DispatchKeySet, self: Tensor, other: Tensor): Tensor {
  return aten().mul_Tensor.call(self, twoToThe(other));
}
export function ldexp_(_ks: DispatchKeySet, self: Tensor, other: Tensor): Tensor {
  return aten().mul_out.call(self, twoToThe(other), self);
}
export function ldexpOut(_ks: DispatchKeySet, self: Tensor, other: Tensor, out: Tensor): Tensor {
  return aten().mul_out.call(self, twoToThe(other), out);
}

// ---- float_power (CompositeImplicitAutograd): pow in float64 (complex128 for complex operands) ---------------

function powerDtype(complex: boolean): ScalarType {
  return complex ? ScalarType.ComplexDouble : ScalarType.Double;
}
function toDtype(t: Tensor, dtype: ScalarType): Tensor {
  return aten().to_dtype.call(t, dtype, false, false, null);
}
function checkOut(out: Tensor, dtype: ScalarType): void {
  if (out.scalarType !== dtype) {
    throw new Error(
      `the output given to float_power has dtype ${scalarTypeToString(out.scalarType)} but the operation's result requires dtype ${scalarTypeToString(dtype)}`,
    );
  }
}
const isComplexNum = (_v: Num): boolean => false;

export function floatPowerTensorTensor(_ks: DispatchKeySet, self: Tensor, exponent: Tensor): Tensor {
  const dtype = powerDtype(isComplexType(self.scalarType) || isComplexType(exponent.scalarType));
  return aten().pow_Tensor_Tensor.call(toDtype(self, dtype), toDtype(exponent, dtype));
}
export function floatPowerTensorTensorOut(_ks: DispatchKeySet, self: Tensor, exponent: Tensor, out: Tensor): Tensor {
  const dtype = powerDtype(isComplexType(self.scalarType) || isComplexType(exponent.scalarType));
  checkOut(out, dtype);
  return aten().pow_Tensor_Tensor_out.call(toDtype(self, dtype), toDtype(exponent, dtype), out);
}
export function floatPowerTensorScalar(_ks: DispatchKeySet, self: Tensor, exponent: Num): Tensor {
  const dtype = powerDtype(isComplexType(self.scalarType) || isComplexNum(exponent));
  return aten().pow_Tensor_Scalar.call(toDtype(self, dtype), Number(exponent));
}
export function floatPowerTensorScalarOut(_ks: DispatchKeySet, self: Tensor, exponent: Num, out: Tensor): Tensor {
  const dtype = powerDtype(isComplexType(self.scalarType) || isComplexNum(exponent));
  checkOut(out, dtype);
  return aten().pow_Tensor_Scalar_out.call(toDtype(self, dtype), Number(exponent), out);
}
export function floatPowerScalar(_ks: DispatchKeySet, self: Num, exponent: Tensor): Tensor {
  const dtype = powerDtype(isComplexNum(self) || isComplexType(exponent.scalarType));
  return aten().pow_Scalar.call(Number(self), toDtype(exponent, dtype));
}
export function floatPowerScalarOut(_ks: DispatchKeySet, self: Num, exponent: Tensor, out: Tensor): Tensor {
  const dtype = powerDtype(isComplexNum(self) || isComplexType(exponent.scalarType));
  checkOut(out, dtype);
  return aten().pow_Scalar_out.call(Number(self), toDtype(exponent, dtype), out);
}

// ---- fmax, fmin, gcd, lcm, igamma, igammac (structured, as in PyTorch) -------------------------------------

/** `fmax.out`: maximum that ignores a NaN operand; complex rejected by the meta step. */
export const fmaxStructured = maxMin('fmax', fmaxKernel);
/** `fmin.out`. */
export const fminStructured = maxMin('fmin', fminKernel);
/** `gcd.out`: integers only. */
export const gcdStructured = binaryStructured(gcdKernel);
/** `lcm.out`: integers only. */
export const lcmStructured = binaryStructured(lcmKernel);
/** `igamma.out`: the regularised lower incomplete gamma function P(self, other) (IncompleteGamma.ts). */
export const igammaStructured = binaryStructured(igammaKernel);
/** `igammac.out`: Q(self, other) = 1 - P(self, other). */
export const igammacStructured = binaryStructured(igammacKernel);

// ---- bitwise_left_shift / bitwise_right_shift, __lshift__ / __rshift__ (Note [Shifts of each width]) ----------

const lshiftK = scalarOverloads(lshiftKernel);
const rshiftK = scalarOverloads(rshiftKernel);

/** `bitwise_left_shift.Tensor_out` (structured). */
export const bitwiseLeftShiftStructured = binaryStructured(lshiftKernel);
export const bitwiseLeftShiftTensorScalar = lshiftK.fnScalar;
export const bitwiseLeftShiftTensorScalar_ = lshiftK.inplaceScalar;
export const bitwiseLeftShiftTensorScalarOut = lshiftK.outScalar;
export const bitwiseLeftShiftScalarTensor = lshiftK.scalarTensor;
/** `bitwise_right_shift.Tensor_out` (structured). */
export const bitwiseRightShiftStructured = binaryStructured(rshiftKernel);
export const bitwiseRightShiftTensorScalar = rshiftK.fnScalar;
export const bitwiseRightShiftTensorScalar_ = rshiftK.inplaceScalar;
export const bitwiseRightShiftTensorScalarOut = rshiftK.outScalar;
export const bitwiseRightShiftScalarTensor = rshiftK.scalarTensor;

/** `__lshift__.Tensor` / `__lshift__.Scalar`: the shift's binary_op iterator and loop. */
export function lshift(_ks: DispatchKeySet, self: Tensor, other: Tensor | Num): Tensor {
  return binaryImpl(lshiftKernel, null, self, typeof other === 'object' ? other : wrapScalar(other));
}
export function ilshift(_ks: DispatchKeySet, self: Tensor, other: Tensor | Num): Tensor {
  return binaryImpl(lshiftKernel, self, self, typeof other === 'object' ? other : wrapScalar(other));
}
export function rshift(_ks: DispatchKeySet, self: Tensor, other: Tensor | Num): Tensor {
  return binaryImpl(rshiftKernel, null, self, typeof other === 'object' ? other : wrapScalar(other));
}
export function irshift(_ks: DispatchKeySet, self: Tensor, other: Tensor | Num): Tensor {
  return binaryImpl(rshiftKernel, self, self, typeof other === 'object' ? other : wrapScalar(other));
}

// ---- floor_divide, true_divide, rsub ------------------------------------------------------------------------

/** `floor_divide`: a binary_op iterator and div_floor's loop (integers stay integers). */
function floorDivideImpl(out: Tensor | null, self: Tensor, other: Tensor): Tensor {
  const iter = TensorIterator.binaryOp(out, self, other);
  if (!iter.isMeta) divRoundingKernel(iter, 'floor');
  return iter.output() as Tensor;
}
export function floorDivide(_ks: DispatchKeySet, self: Tensor, other: Tensor): Tensor {
  return floorDivideImpl(null, self, other);
}
export function floorDivide_(_ks: DispatchKeySet, self: Tensor, other: Tensor): Tensor {
  return floorDivideImpl(self, self, other);
}
export function floorDivideOut(_ks: DispatchKeySet, self: Tensor, other: Tensor, out: Tensor): Tensor {
  return floorDivideImpl(out, self, other);
}
/** `floor_divide.Scalar` (CompositeExplicitAutograd): floor_divide of the wrapped number. */
export function floorDivideScalar(_ks: DispatchKeySet, self: Tensor, other: Num): Tensor {
  return aten().floor_divide.call(self, wrapScalar(other));
}
export function floorDivideScalar_(_ks: DispatchKeySet, self: Tensor, other: Num): Tensor {
  return aten().floor_divide__Tensor.call(self, wrapScalar(other));
}

/** `true_divide` (CompositeImplicitAutograd): div. */
export function trueDivide(_ks: DispatchKeySet, self: Tensor, other: Tensor): Tensor {
  return aten().div_Tensor.call(self, other);
}
export function trueDivide_(_ks: DispatchKeySet, self: Tensor, other: Tensor): Tensor {
  return aten().div__Tensor.call(self, other);
}
export function trueDivideOut(_ks: DispatchKeySet, self: Tensor, other: Tensor, out: Tensor): Tensor {
  return aten().div_out.call(self, other, out);
}
export function trueDivideScalar(_ks: DispatchKeySet, self: Tensor, other: Num): Tensor {
  return aten().div_Scalar.call(self, other);
}
export function trueDivideScalar_(_ks: DispatchKeySet, self: Tensor, other: Num): Tensor {
  return aten().div__Tensor.call(self, wrapScalar(other));
}

/** `rsub.Tensor`: other - alpha * self (sub with the operands swapped). */
export function rsub(_ks: DispatchKeySet, self: Tensor, other: Tensor, alpha: Num = 1): Tensor {
  return aten().sub_Tensor.call(other, self, alpha);
}
/** `rsub.Scalar` (CompositeExplicitAutograd): other - alpha * self for a number other. */
export function rsubScalar(_ks: DispatchKeySet, self: Tensor, other: Num, alpha: Num = 1): Tensor {
  return aten().sub_Tensor.call(wrapScalar(other), self, alpha);
}
