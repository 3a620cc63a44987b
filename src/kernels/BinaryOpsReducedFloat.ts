// The float16 / bfloat16 branches of the binary kernels that compute in float (opmath): a scalar second
// operand read as float (mul, div and div's rounding modes), div_floor_floating in float, xlogy's rounded log.
// Mirrors the `isReducedFloatingType` branches of aten/src/ATen/native/cpu/BinaryOpsKernel.cpp; the loops
// that use them are BinaryOpsKernel.ts.

import { ScalarType } from '../c10/ScalarType.js';
import { type ScalarOp, type TensorIterator, castValue, cpuKernel } from '../iter/index.js';

/** `a * b` in float (the float operands' product is exact in a double; the store rounds it). */
export const mulOpmath = (a: number, b: number): number => a * b;
/** `a / b` in float: a double quotient rounded to float is the float quotient. */
export const divOpmath = (a: number, b: number): number => a / b;
/** `std::trunc(a / b)` in float: the quotient rounded to float before truncation. */
export const truncDivOpmath = (a: number, b: number): number => Math.trunc(Math.fround(a / b));

/** `c10::div_floor_floating` on float operands, every step rounded to float (the opmath of float16 / bfloat16). */
export function divFloorFloat(a: number, b: number): number {
  if (b === 0) return a / b;
  const mod = a % b; // fmod is exact
  let div = Math.fround(Math.fround(a - mod) / b);
  if (mod !== 0 && b < 0 !== mod < 0) div = Math.fround(div - 1);
  if (div === 0) return Math.sign(a / b) * 0;
  let floordiv = Math.floor(div);
  if (Math.fround(div - floordiv) > 0.5) floordiv += 1;
  return floordiv;
}

// Note [Reduced-float kernels read a scalar operand in float]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's mul_kernel, div_true_kernel, div_trunc_kernel and div_floor_kernel have a branch for a float16 /
// bfloat16 common dtype whose second input is one value broadcast everywhere (`iter.is_scalar(2)`: a Python
// number, a 0-dim or 1-element tensor, an expanded one): the value is read in its own dtype as float
// (`iter.original_scalar_value<opmath_t>(2)`), the operand removed, and each element computed in float and
// rounded once: `half * 0.1` multiplies by 0.1f, not by 0.1 rounded to float16 (0.0999755859375). The other
// kernels (add, sub, remainder, fmod, clamp, ...) read the scalar in the common dtype, as the converting
// loop does. add / sub's alpha is `alpha.to<scalar_t>()` (rounded to the reduced dtype) and, in the wheel's
// vectorised loop, fused: round(fma(other, alpha, self)) in float, which addKernel computes for every element
// (the wheel's scalar loop — non-contiguous operands and the tail of a contiguous run shorter than a vector,
// 32 float16 elements on AVX512 — rounds alpha * other to the reduced dtype first; that depends on the
// machine's vector width and is not reproduced).
/** The reduced-float scalar branch of those kernels: false (nothing run) when it does not apply. */
export function reducedFloatScalarLoop(iter: TensorIterator, op: (a: number, b: number) => number): boolean {
  const d = iter.commonDtype;
  if ((d !== ScalarType.Half && d !== ScalarType.BFloat16) || iter.isMeta || iter.tensors.length !== 3 || !iter.isScalar(2)) return false;
  const b = Math.fround(iter.originalScalarValue(2));
  iter.removeOperand(2);
  cpuKernel(iter, (a) => op(a as number, b));
  return true;
}

/**
 * xlogy_kernel: float32 computes `x * std::log(y)` in float; for float16 / bfloat16 the log is c10's
 * `std::log(Half)`, which returns the reduced type (rounded), and the product is rounded once.
 */
export function xlogyFloatOp(d: ScalarType): ScalarOp {
  const round = d === ScalarType.Float ? Math.fround : (v: number) => castValue(v, d);
  return (a, b) => {
    const x = a as number;
    const y = b as number;
    if (Number.isNaN(y)) return NaN;
    if (x === 0) return 0;
    return Math.fround(x * round(Math.log(y)));
  };
}
