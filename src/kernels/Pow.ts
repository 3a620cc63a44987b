// pow in its Tensor/Scalar overloads, on TensorIterator. Mirrors aten/src/ATen/native/Pow.cpp and
// native/cpu/PowKernel.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isComplexType, isFloatingType, isIntegralType } from '../c10/ScalarType.js';
import { type ComplexOp, TensorIterator, castValue, cpuKernel, cpuKernelComplex } from '../iter/index.js';
import { wrapScalar } from '../tensor/ScalarOps.js';
import type { Tensor } from '../tensor/Tensor.js';
import { Z, cdiv, cpow } from './zmath.js';

export function noComplex(dtype: ScalarType, op: string): void {
  if (isComplexType(dtype)) throw new Error(`${op}: complex tensors are not supported by aten-ts yet`);
}

/** Integer power by squaring (exact while the result stays below 2^53). */
function intPow(base: number, exp: number): number {
  let result = 1;
  let b = base;
  let e = exp;
  while (e > 0) {
    if (e & 1) result *= b;
    b *= b;
    e = Math.floor(e / 2);
  }
  return result;
}

const powComplex: ComplexOp = (ins, out) => cpow(ins[0] as number, ins[1] as number, ins[2] as number, ins[3] as number, out);
const powComplexFloat: ComplexOp = (ins, out) =>
  cpow(ins[0] as number, ins[1] as number, ins[2] as number, ins[3] as number, out, Math.fround);

/** pow_tensor_scalar_kernel's complex cases: 0.5, 2, 3, -0.5, -1, -2 have loops of their own, else std::pow. */
function complexScalarPow(exponent: number, dtype: ScalarType): ComplexOp {
  if (exponent === 0.5) return Z.sqrt;
  if (exponent === -0.5) return Z.rsqrt;
  if (exponent === -1) return Z.reciprocal;
  if (exponent === 2 || exponent === -2 || exponent === 3) {
    return (ins, out) => {
      const a = ins[0] as number;
      const b = ins[1] as number;
      let re = a * a - b * b;
      let im = a * b + b * a;
      if (exponent === 3) {
        const t = re * a - im * b;
        im = re * b + im * a;
        re = t;
      }
      if (exponent === -2) cdiv(1, 0, re, im, out);
      else {
        out[0] = re;
        out[1] = im;
      }
    };
  }
  const r = dtype === ScalarType.ComplexFloat ? Math.fround : undefined;
  return (ins, out) => cpow(ins[0] as number, ins[1] as number, exponent, 0, out, r);
}

function powLoop(iter: TensorIterator): void {
  if (isComplexType(iter.commonDtype)) {
    if (!iter.isMeta) cpuKernelComplex(iter, iter.commonDtype === ScalarType.ComplexFloat ? powComplexFloat : powComplex);
    return;
  }
  if (isIntegralType(iter.commonDtype, true) && !iter.isMeta) {
    cpuKernel(iter, (a, b) => {
      // powi of Pow.h: a negative exponent gives 0 except for bases ±1 (pow.Tensor_Scalar raises before this)
      if (b < 0) {
        if (a === 1) return 1;
        if (a === -1) return b % 2 === 0 ? 1 : -1;
        return 0;
      }
      return intPow(a, b);
    });
  } else {
    cpuKernel(iter, (a, b) => a ** b);
  }
}

/** `pow.Tensor_Tensor(self, exponent)`. */
export function powTensor(_ks: DispatchKeySet, self: Tensor, exponent: Tensor): Tensor {
  const iter = TensorIterator.binaryOp(null, self, exponent);
  powLoop(iter);
  return iter.output() as Tensor;
}

/** pow_Tensor_Scalar_out's check: an integral tensor to a negative integral number. */
function checkIntegerExponent(self: Tensor, exponent: number | boolean): void {
  if (isIntegralType(self.scalarType, true) && typeof exponent === 'number' && Number.isInteger(exponent) && exponent < 0) {
    throw new Error('Integers to negative integer powers are not allowed.');
  }
}

/**
 * pow_tensor_scalar_kernel for float16 / bfloat16: the exponent is `exp_scalar.to<scalar_t>()`, rounded to the
 * tensor's dtype (`half ** 0.1` raises to 0.0999755859375), and the power computed in float; bfloat16 takes
 * pow_tensor_scalar_optimized_kernel, whose 3 and -2 are products in bfloat16, each rounded.
 */
function reducedFloatPow(e: number, d: ScalarType): (a: number) => number {
  if (e === 2) return (a) => a * a;
  if (d === ScalarType.BFloat16 && e === 3) return (a) => castValue(castValue(a * a, d) * a, d);
  if (d === ScalarType.BFloat16 && e === -2) return (a) => 1 / castValue(a * a, d);
  return (a) => a ** e;
}

/** `pow.Tensor_Scalar(self, exponent)`: an integral tensor to a float power gives the default float dtype. */
export function powTensorScalar(ks: DispatchKeySet, self: Tensor, exponent: number | boolean): Tensor {
  // A floating tensor keeps its dtype under a number exponent: a unary loop, no wrapped-scalar operand. As in
  // PyTorch's pow_tensor_scalar_optimized_kernel, 2 is a multiplication (equal to a ** 2 rounded once).
  if (typeof exponent === 'number' && isFloatingType(self.scalarType)) {
    const iter = TensorIterator.unaryOp(null, self);
    const d = self.scalarType;
    if (d === ScalarType.Half || d === ScalarType.BFloat16) cpuKernel(iter, reducedFloatPow(castValue(exponent, d), d));
    else if (exponent === 2) cpuKernel(iter, (a) => a * a);
    else cpuKernel(iter, (a) => a ** exponent);
    return iter.output() as Tensor;
  }
  if (typeof exponent === 'number' && isComplexType(self.scalarType)) {
    const iter = TensorIterator.unaryOp(null, self);
    // pow_out: exponent 0 fills ones, 1 copies
    if (exponent === 0) cpuKernelComplex(iter, (_ins, out) => ((out[0] = 1), (out[1] = 0)));
    else if (exponent === 1) cpuKernelComplex(iter, (ins, out) => ((out[0] = ins[0] as number), (out[1] = ins[1] as number)));
    else cpuKernelComplex(iter, complexScalarPow(exponent, self.scalarType));
    return iter.output() as Tensor;
  }
  checkIntegerExponent(self, exponent);
  return powTensor(ks, self, wrapScalar(exponent));
}

/** `pow.Scalar(self, exponent)`: a number to the power of each element. */
export function powScalar(ks: DispatchKeySet, self: number | boolean, exponent: Tensor): Tensor {
  return powTensor(ks, wrapScalar(self), exponent);
}

// The out= overloads (pow.Tensor_Tensor_out, pow.Tensor_Scalar_out, pow.Scalar_out) build the same iterators
// with `out` as the output: TensorIterator resizes it (with PyTorch's deprecation warning when it had elements)
// and checks that the result type can be cast to it. The ADInplaceOrView kernels bump its version.

/** `pow.Tensor_Tensor_out(self, exponent, *, out)`. */
export function powTensorOut(_ks: DispatchKeySet, self: Tensor, exponent: Tensor, out: Tensor): Tensor {
  powLoop(TensorIterator.binaryOp(out, self, exponent));
  return out;
}

/**
 * `pow.Tensor_Scalar_out(self, exponent, *, out)`: the exponent as a wrapped number, so the result type is
 * `result_type(self, exponent)` and an `out` it cannot be cast to gets PyTorch's "result type ... can't be cast".
 */
export function powTensorScalarOut(_ks: DispatchKeySet, self: Tensor, exponent: number | boolean, out: Tensor): Tensor {
  checkIntegerExponent(self, exponent);
  powLoop(TensorIterator.binaryOp(out, self, wrapScalar(exponent)));
  return out;
}

/** `pow.Scalar_out(self, exponent, *, out)`. */
export function powScalarOut(_ks: DispatchKeySet, self: number | boolean, exponent: Tensor, out: Tensor): Tensor {
  powLoop(TensorIterator.binaryOp(out, wrapScalar(self), exponent));
  return out;
}
