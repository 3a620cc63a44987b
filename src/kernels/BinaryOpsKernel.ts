// More binary pointwise kernels of aten/src/ATen/native/cpu/BinaryOpsKernel.cpp (with their BinaryOps.cpp meta
// functions and wrappers): hypot, logaddexp, logaddexp2, xlogy, copysign, nextafter, heaviside (structured, as
// in PyTorch), the Scalar overloads of xlogy and copysign (CompositeExplicitAutograd: the Tensor op of a wrapped
// number), ldexp, and float_power of Pow.cpp (CompositeImplicitAutograd: pow in double). BinaryOps.ts holds the
// first binary family.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isComplexType, isFloatingType, notImplementedForDtype, scalarTypeToString } from '../c10/ScalarType.js';
import { type ScalarOp, TensorIterator, cpuKernel } from '../iter/index.js';
import { aten } from '../generated/Operators.js';
import { wrapScalar } from '../tensor/ScalarOps.js';
import type { Tensor } from '../tensor/Tensor.js';
import type { StructuredKernel } from './TensorMeta.js';

type Num = number | boolean;

/** The impl of a floating-only kernel (AT_DISPATCH_FLOATING_TYPES_AND2(Half, BFloat16, name, ...)). */
function floatingLoop(name: string, op: ScalarOp): (iter: TensorIterator) => void {
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

export const hypotStructured: StructuredKernel<[self: Tensor, other: Tensor]> = {
  meta: (out, self, other) => TensorIterator.binaryOp(out, self, other),
  impl: floatingLoop('hypot_cpu', hypotOp),
};
export const logaddexpStructured: StructuredKernel<[self: Tensor, other: Tensor]> = {
  meta: (out, self, other) => TensorIterator.binaryOp(out, self, other),
  impl: floatingLoop('logaddexp_cpu', logaddexpOp),
};
export const logaddexp2Structured: StructuredKernel<[self: Tensor, other: Tensor]> = {
  meta: (out, self, other) => TensorIterator.binaryOp(out, self, other),
  impl: floatingLoop('logaddexp2_cpu', logaddexp2Op),
};
export const xlogyStructured: StructuredKernel<[self: Tensor, other: Tensor]> = {
  meta: (out, self, other) => TensorIterator.binaryFloatOp(out, self, other),
  impl: floatingLoop('xlogy_cpu', xlogyOp),
};
export const copysignStructured: StructuredKernel<[self: Tensor, other: Tensor]> = {
  meta: (out, self, other) => TensorIterator.binaryFloatOp(out, self, other),
  impl: floatingLoop('copysign_cpu', copysignOp),
};

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

export const nextafterStructured: StructuredKernel<[self: Tensor, other: Tensor]> = {
  meta: (out, self, other) => TensorIterator.binaryOp(out, self, other),
  impl(iter) {
    if (iter.isMeta) return;
    const d = iter.commonDtype;
    if (d === ScalarType.Double) cpuKernel(iter, nextafter64 as ScalarOp);
    else if (d === ScalarType.Float) cpuKernel(iter, nextafter32 as ScalarOp);
    else throw notImplementedForDtype('nextafter_cpu', d);
  },
};

// ---- heaviside ----------------------------------------------------------------------------------------

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
  impl(iter) {
    if (iter.isMeta) return;
    cpuKernel(iter, (a, b) => (a === 0 ? b : (a as number) > 0 ? 1 : 0));
  },
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
