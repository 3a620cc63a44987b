// The loops of the unary pointwise operators: each op's scalar (and complex) function and, for the most used,
// a loop of its own over contiguous runs (SIMD kernels where the operands are in linear memory), in one table
// (SPECS) that the structured declarations of UnaryOps.ts read; the loops of logical_not, bitwise_not, abs of
// complex, round.decimals, nan_to_num, polygamma, logit and i1. Mirrors aten/src/ATen/native/cpu/
// UnaryOpsKernel.cpp (silu's loop: native/cpu/Activation.cpp); the special functions come from Math.ts. The
// meta functions, structured declarations and wrappers are UnaryOps.ts (native/UnaryOps.cpp).

import {
  ScalarType,
  isComplexType,
  isFloatingType,
  isIntegralType,
  notImplementedForDtype,
  scalarTypeToString,
} from '../c10/ScalarType.js';
import {
  type ComplexOp,
  type ScalarOp,
  type TensorIterator,
  type VecOp,
  cpuKernel,
  cpuKernelComplex,
  cpuKernelVec,
} from '../iter/index.js';
import type { StorageArray } from '../tensor/Storage.js';
import type { Tensor } from '../tensor/Tensor.js';
import { Z } from './zmath.js';
import { digamma, erfDouble, erfReducedFloat, erfcDouble, erfinv, i0, i1, lgamma, polygamma } from './Math.js';
import * as pw from '../wasm/kernels/generated/PointwiseTwins.js';
import { wasmUnaryVec } from '../wasm/kernels/vec.js';

/** A loop over an iterator the meta step built (PyTorch's `void kernel(TensorIteratorBase& iter)`). */
export type UnaryLoop = (iter: TensorIterator) => void;

/** logical_not_kernel: `!a`, read in the input's dtype and stored in the output's. */
export const logicalNotKernel: UnaryLoop = (iter) => cpuKernel(iter, (a) => (a === 0 ? 1 : 0));

const bitwiseNotBool: ScalarOp = (a) => (a === 0 ? 1 : 0);
/**
 * `~a` as `-a - 1` (exact below 2^53, wraps like C++ for uint8); ~INT64_MIN is INT64_MAX, whose nearest double
 * (2^63) is out of range: the largest stored int64, 2^63 - 1024 (Note [Typed storage of each dtype]).
 */
const bitwiseNot = (a: number): number => (a <= -9223372036854775808 ? 9223372036854774784 : -a - 1);
const bitwiseNotInt: ScalarOp = (a) => bitwiseNot(a as number);
/** `~a` over a contiguous run of an integer dtype. */
const bitwiseNotVec: VecOp = (out, o, ins, offs, n) => {
  const a = ins[0] as StorageArray;
  const ao = offs[0] as number;
  for (let i = 0; i < n; i++) out[o + i] = bitwiseNot(a[ao + i] as number);
};

/** bitwise_not_kernel: bool is `!a`, integers `~a`, other dtypes AT_DISPATCH's error (not on Meta). */
export const bitwiseNotKernel: UnaryLoop = (iter) => {
  if (iter.isMeta) return;
  const d = iter.dtype(0);
  if (d === ScalarType.Bool) cpuKernel(iter, bitwiseNotBool);
  else if (isIntegralType(d, false)) cpuKernelVec(iter, bitwiseNotInt, bitwiseNotVec);
  else throw notImplementedForDtype('bitwise_not_cpu', d);
};

// Note [Float opmath in unary kernels]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch computes float32 kernels in float (Vectorized<float>, SLEEF), and float16/bfloat16 kernels by
// converting to float, computing in float and rounding the float result (opmath_t = float). A cast `out=`
// (sqrt of float32 into a float64 out) still computes in float and casts afterwards. aten-ts computes every
// step in double and rounds to float32 wherever PyTorch's code rounds to float (`Math.fround` after each
// float operation, the Rounder `r` below); the loop then stores into the output's dtype. For correctly
// rounded operations (+ - * /, sqrt, floor, ...) a double result rounded once to float32 *is* the float32
// result, so these ops match PyTorch bit for bit, also for float16/bfloat16 (float result, then rounded).
// Exceptions found against the oracle: PyTorch's vectorised sqrt/rsqrt are not always correctly rounded
// (float32 sqrt(65504) and float64 sqrt(1e-20) are an ulp off, rsqrt of float16/bfloat16 too), and its gelu
// (approximate='none') on float32/bfloat16 runs oneDNN's approximation (see Note [gelu through oneDNN] in
// the test). Transcendental functions (exp, log, sin, tanh, ...) come from V8's Math (fdlibm ports, < 1 ulp
// in double), while PyTorch uses SLEEF (u10: < 1 ulp in float) and glibc's libm for double: results can
// differ in the last bit or two. The tests compare those within 1-2 ulps of the compute dtype
// (test/kernels/UnaryOps.test.ts, ULP_TOLERANCE) and the others bit for bit.

/** A rounding step: `Math.fround` when the op computes in float, the identity when in double. */
export type Rounder = (v: number) => number;
const exact: Rounder = (v) => v;

export function rounderFor(dtype: ScalarType): Rounder {
  return dtype === ScalarType.Double ? exact : Math.fround;
}
/** nearbyint in the default rounding mode: to nearest, ties to even (keeps -0 and the sign of small values). */
export function roundHalfEven(x: number): number {
  const r = Math.round(x); // ties toward +inf
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

// ---------------------------------------------------------------------------------------------------
// The op table
// ---------------------------------------------------------------------------------------------------

/** How an op's iterator treats dtypes. */
export const enum Kind {
  /** `unary_op`: one dtype throughout (integers stay integers). */
  Same,
  /** `unary_float_op`: integral inputs compute in the default float dtype. */
  Float,
}

export interface UnarySpec {
  kind: Kind;
  /** The AT_DISPATCH name in PyTorch's CPU kernel (for `"name" not implemented for 'Bool'`). */
  dispatchName: string;
  /** Which common dtypes the CPU kernel covers (checked after the iterator, not on Meta). */
  supports: (dtype: ScalarType) => boolean;
  /** The real kernel, given the rounding of its compute dtype (Note [Float opmath in unary kernels]). */
  real: (r: Rounder, dtype: ScalarType) => ScalarOp;
  /** The complex kernel, if the op has one. */
  complex?: ComplexOp;
  /** Checks on the input that PyTorch makes before building the iterator (on every device). */
  precheck?: (self: Tensor) => void;
  /** Its own loop over same-dtype contiguous runs (Note [Unary loops of their own]). */
  vec?: VecOp;
  /** `vec` is the floating dtypes' loop only (neg: int64 in a Float64Array has no -0). */
  vecFloatsOnly?: boolean;
}

// Note [Unary loops of their own]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The shared loop calls each op's scalar lambda per element, which V8 cannot inline once many kernels use it.
// The most used ops also carry a loop of their own (`vec`, run by cpuKernelVec when input and output share a
// dtype: Note [cpuKernelVec contract]). Each is the same computation as `real`: one libm call or one exact
// operation, whose double result the float32 array store rounds once, as `Math.fround` would.
// float32 runs the kernel's twin (the SIMD path's bits, Note [The twin is the fallback]); float64 Math.exp.
const expVecJs: VecOp = (out, o, ins, io, n) => {
  const a = ins[0] as StorageArray;
  const ao = io[0] as number;
  if (out instanceof Float32Array && a instanceof Float32Array) return pw.f32_vexp(n, a, ao, out, o);
  for (let i = 0; i < n; i++) out[o + i] = Math.exp(a[ao + i] as number);
};
const logVec: VecOp = (out, o, ins, io, n) => {
  const a = ins[0] as StorageArray;
  const ao = io[0] as number;
  for (let i = 0; i < n; i++) out[o + i] = Math.log(a[ao + i] as number);
};
const tanhVec: VecOp = (out, o, ins, io, n) => {
  const a = ins[0] as StorageArray;
  const ao = io[0] as number;
  for (let i = 0; i < n; i++) out[o + i] = Math.tanh(a[ao + i] as number);
};
const reluVecJs: VecOp = (out, o, ins, io, n) => pw.vrelu(n, ins[0] as StorageArray, io[0] as number, out, o);
// The SIMD kernels where input and output are in linear memory (Note [Kernel backends]): float32 exp is
// within 2 ulp of the correctly rounded result (PyTorch's Sleef_expf8_u10 is within 1).
const expVec = wasmUnaryVec(expVecJs, 'f32_vexp', null);
// sigmoid as `real` computes it: each step rounded to the array's precision (a store into it rounds);
// float32 through the kernel's twin (its exp, Note [The twin is the fallback]).
const sigmoidVecJs: VecOp = (out, o, ins, io, n) => {
  const a = ins[0] as StorageArray;
  const ao = io[0] as number;
  if (out instanceof Float32Array && a instanceof Float32Array) return pw.f32_vsigmoid(n, a, ao, out, o);
  const r = out instanceof Float32Array ? Math.fround : (v: number): number => v;
  for (let i = 0; i < n; i++) out[o + i] = 1 / r(1 + r(Math.exp(-(a[ao + i] as number))));
};
const sigmoidVec = wasmUnaryVec(sigmoidVecJs, 'f32_vsigmoid', null);
const reluVec = wasmUnaryVec(reluVecJs, 'f32_vrelu', null);
const negVec = wasmUnaryVec((out, o, ins, io, n) => pw.vneg(n, ins[0] as StorageArray, io[0] as number, out, o), 'f32_vneg', 'f64_vneg');

export const allReal = (d: ScalarType): boolean => !isComplexType(d);
export const noBool = (d: ScalarType): boolean => d !== ScalarType.Bool && !isComplexType(d);
export const floatsOnly = (d: ScalarType): boolean => isFloatingType(d);
const identity: ScalarOp = (x) => x as number;

/** Integers (and bool where allowed) pass through floor/ceil/round/trunc unchanged; floats use `f`. */
function integerPassThrough(f: (x: number) => number): (r: Rounder, dtype: ScalarType) => ScalarOp {
  return (_r, dtype) => (isIntegralType(dtype, true) ? identity : (x) => f(x as number));
}

/** A float op `f` computed once in double and rounded once (exact for correctly rounded f). */
export function floatFn(f: (x: number) => number): (r: Rounder) => ScalarOp {
  return (r) => (x) => r(f(x as number));
}

export const SQRT1_2 = Math.SQRT1_2;
export const GELU_BETA = Math.SQRT2 * (2 / Math.sqrt(Math.PI)) * 0.5;
export const GELU_KAPPA = 0.044715;

/** A float op computed once in double and rounded once, for every real dtype. */
const float = (name: string, f: (x: number) => number): UnarySpec => ({
  kind: Kind.Float,
  dispatchName: name,
  supports: allReal,
  real: floatFn(f),
});

/** sign_kernel (and sgn's of a real tensor): bool passes through. */
const signReal = (_r: Rounder, d: ScalarType): ScalarOp =>
  d === ScalarType.Bool ? identity : (x) => ((x as number) > 0 ? 1 : 0) - ((x as number) < 0 ? 1 : 0);

export const SPECS = {
  neg: {
    kind: Kind.Same,
    dispatchName: 'neg_cpu',
    supports: (d: ScalarType) => d !== ScalarType.Bool,
    real: () => pw.vneg_op,
    vec: negVec,
    vecFloatsOnly: true,
    complex: (ins: Float64Array, out: Float64Array) => {
      out[0] = -(ins[0] as number);
      out[1] = -(ins[1] as number);
    },
    precheck: (self: Tensor) => {
      if (self.scalarType === ScalarType.Bool) {
        throw new Error(
          'Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.',
        );
      }
    },
  },
  abs: { kind: Kind.Same, dispatchName: 'abs_cpu', supports: noBool, real: () => Math.abs as ScalarOp },
  sign: {
    kind: Kind.Same,
    dispatchName: 'sign_cpu',
    supports: allReal,
    real: signReal,
    precheck: (self: Tensor) => {
      if (isComplexType(self.scalarType)) {
        throw new Error('Unlike NumPy, torch.sign is not intended to support complex numbers. Please use torch.sgn instead.');
      }
    },
  },
  exp: {
    kind: Kind.Float,
    dispatchName: 'exp_vml_cpu',
    supports: () => true,
    real: floatFn(Math.exp),
    vec: expVec,
    complex: (ins: Float64Array, out: Float64Array) => {
      const m = Math.exp(ins[0] as number);
      const b = ins[1] as number;
      if (b === 0) {
        out[0] = m;
        out[1] = b;
        return;
      }
      out[0] = m * Math.cos(b);
      out[1] = m * Math.sin(b);
    },
  },
  exp2: { kind: Kind.Float, dispatchName: 'exp2', supports: () => true, real: floatFn((x) => 2 ** x), complex: Z.exp2 },
  log: { kind: Kind.Float, dispatchName: 'log_vml_cpu', supports: () => true, real: floatFn(Math.log), vec: logVec, complex: Z.log },
  log2: { kind: Kind.Float, dispatchName: 'log2', supports: () => true, real: floatFn(Math.log2), complex: Z.log2 },
  log1p: { kind: Kind.Float, dispatchName: 'log1p_vml_cpu', supports: () => true, real: floatFn(Math.log1p), complex: Z.log1p },
  expm1: { kind: Kind.Float, dispatchName: 'expm1_vml_cpu', supports: () => true, real: floatFn(Math.expm1), complex: Z.expm1 },
  sqrt: {
    kind: Kind.Float,
    dispatchName: 'sqrt_vml_cpu',
    supports: () => true,
    real: floatFn(Math.sqrt),
    complex: (ins: Float64Array, out: Float64Array) => {
      // Principal square root, stable for either sign of the real part.
      const a = ins[0] as number;
      const b = ins[1] as number;
      if (a === 0 && b === 0) {
        out[0] = 0;
        out[1] = b;
        return;
      }
      const t = Math.sqrt((Math.abs(a) + Math.hypot(a, b)) / 2);
      if (a >= 0) {
        out[0] = t;
        out[1] = b / (2 * t);
      } else {
        out[0] = Math.abs(b) / (2 * t);
        out[1] = b < 0 || Object.is(b, -0) ? -t : t;
      }
    },
  },
  // Vectorized<float>::rsqrt is 1 / sqrt(x): two float roundings.
  rsqrt: {
    kind: Kind.Float,
    dispatchName: 'rsqrt_cpu',
    supports: () => true,
    real: (r: Rounder) => (x: number) => r(1 / r(Math.sqrt(x))),
    complex: Z.rsqrt,
  },
  sin: { kind: Kind.Float, dispatchName: 'sin_vml_cpu', supports: () => true, real: floatFn(Math.sin), complex: Z.sin },
  cos: { kind: Kind.Float, dispatchName: 'cos_vml_cpu', supports: () => true, real: floatFn(Math.cos), complex: Z.cos },
  tan: { kind: Kind.Float, dispatchName: 'tan_vml_cpu', supports: () => true, real: floatFn(Math.tan), complex: Z.tan },
  asin: { kind: Kind.Float, dispatchName: 'asin_vml_cpu', supports: () => true, real: floatFn(Math.asin), complex: Z.asin },
  acos: { kind: Kind.Float, dispatchName: 'acos_vml_cpu', supports: () => true, real: floatFn(Math.acos), complex: Z.acos },
  atan: { kind: Kind.Float, dispatchName: 'atan_vml_cpu', supports: () => true, real: floatFn(Math.atan), complex: Z.atan },
  sinh: { kind: Kind.Float, dispatchName: 'sinh_vml_cpu', supports: () => true, real: floatFn(Math.sinh), complex: Z.sinh },
  cosh: { kind: Kind.Float, dispatchName: 'cosh_vml_cpu', supports: () => true, real: floatFn(Math.cosh), complex: Z.cosh },
  tanh: { kind: Kind.Float, dispatchName: 'tanh_vml_cpu', supports: () => true, real: floatFn(Math.tanh), vec: tanhVec, complex: Z.tanh },
  // sigmoid: (1 + exp(-x)).reciprocal(), each step in the compute precision.
  sigmoid: {
    kind: Kind.Float,
    dispatchName: 'sigmoid_cpu',
    supports: allReal,
    real: (r: Rounder) => (x: number) => r(1 / r(1 + r(Math.exp(-x)))),
    vec: sigmoidVec,
    complex: Z.sigmoid,
  },
  erf: {
    kind: Kind.Float,
    dispatchName: 'erf_vml_cpu',
    supports: allReal,
    real: (r: Rounder, d: ScalarType) =>
      d === ScalarType.Half || d === ScalarType.BFloat16 ? erfReducedFloat : (x: number) => r(erfDouble(x)),
  },
  // relu is clamp_min(self, 0): NaN and -0 pass through.
  relu: { kind: Kind.Same, dispatchName: 'clamp_min_cpu', supports: allReal, real: () => (x: number) => (x < 0 ? 0 : x), vec: reluVec },
  // silu: x / (1 + exp(-x)).
  silu: {
    kind: Kind.Same,
    dispatchName: 'silu_cpu',
    supports: floatsOnly,
    real: (r: Rounder) => (x: number) => r(x / r(1 + r(Math.exp(-x)))),
  },
  floor: { kind: Kind.Same, dispatchName: 'floor_vml_cpu', supports: noBool, real: integerPassThrough(Math.floor) },
  ceil: { kind: Kind.Same, dispatchName: 'ceil_vml_cpu', supports: noBool, real: integerPassThrough(Math.ceil) },
  round: { kind: Kind.Same, dispatchName: 'round_vml_cpu', supports: noBool, real: integerPassThrough(roundHalfEven) },
  trunc: { kind: Kind.Same, dispatchName: 'trunc_vml_cpu', supports: noBool, real: integerPassThrough(Math.trunc) },
  // frac: x - trunc(x) (one exact subtraction).
  frac: { kind: Kind.Same, dispatchName: 'frac_cpu', supports: floatsOnly, real: floatFn((x) => x - Math.trunc(x)) },
  reciprocal: {
    kind: Kind.Float,
    dispatchName: 'reciprocal_cpu',
    supports: () => true,
    real: floatFn((x) => 1 / x),
    complex: Z.reciprocal,
  },
  // The special functions (Math.ts).
  acosh: { ...float('acosh_vml_cpu', Math.acosh), supports: () => true, complex: Z.acosh },
  asinh: { ...float('asinh_vml_cpu', Math.asinh), supports: () => true, complex: Z.asinh },
  atanh: { ...float('atanh_vml_cpu', Math.atanh), supports: () => true, complex: Z.atanh },
  log10: { ...float('log10_vml_cpu', Math.log10), supports: () => true, complex: Z.log10 },
  erfinv: float('erfinv_cpu', erfinv),
  lgamma: float('lgamma_vml_cpu', lgamma),
  digamma: { kind: Kind.Float, dispatchName: 'digamma', supports: allReal, real: (r: Rounder) => (x: number) => r(digamma(x, r)) },
  i0: float('i0_cpu', i0),
  erfc: float('erfc_vml_cpu', erfcDouble),
  // sinc: 1 at 0, else sin(pi x) / (pi x) with the product rounded to the compute dtype first.
  sinc: {
    kind: Kind.Float,
    dispatchName: 'sinc_cpu',
    supports: allReal,
    real: (r: Rounder) => (x: number) => {
      if (x === 0) return 1;
      const p = r(Math.PI * x);
      return r(Math.sin(p) / p);
    },
  },
  // sgn of a real tensor is sign (sgn_kernel calls sign_kernel); of a complex one z / |z|
  sgn: { kind: Kind.Same, dispatchName: 'sgn_cpu', supports: allReal, real: signReal, complex: Z.sgn },
  // angle_impl of zmath.h: a real value's angle is pi below 0, else 0 (NaN propagates); a complex one's arg
  angle: {
    kind: Kind.Float,
    dispatchName: 'angle_cpu',
    supports: allReal,
    real: (r: Rounder) => (x: number) => (x !== x ? x : x < 0 ? r(Math.PI) : 0),
    complex: Z.angle,
  },
} satisfies Record<string, UnarySpec>;

export type SpecName = keyof typeof SPECS;

/** Runs spec's loop over a built iterator (nothing for Meta iterators). */
export function runLoop(spec: UnarySpec, iter: TensorIterator): void {
  if (iter.isMeta) return;
  const dtype = iter.commonDtype;
  if (isComplexType(dtype)) {
    if (spec.complex === undefined) throw notImplementedForDtype(spec.dispatchName, dtype);
    cpuKernelComplex(iter, spec.complex);
    return;
  }
  if (!spec.supports(dtype)) throw notImplementedForDtype(spec.dispatchName, dtype);
  if (spec.vec !== undefined && (spec.vecFloatsOnly !== true || isFloatingType(dtype)))
    cpuKernelVec(iter, spec.real(rounderFor(dtype), dtype), spec.vec);
  else cpuKernel(iter, spec.real(rounderFor(dtype), dtype));
}

// ---- abs of complex: real results ---------------------------------------------------------------------

const absComplex: ComplexOp = (ins, out) => {
  out[0] = Math.hypot(ins[0] as number, ins[1] as number);
  out[1] = 0;
};

/** abs_kernel of a complex input into a real output (`unary_op_impl_with_complex_to_float`). */
export const absComplexKernel: UnaryLoop = (iter) => cpuKernelComplex(iter, absComplex);

/** angle_kernel of a complex input into a real output. */
export const angleComplexKernel: UnaryLoop = (iter) => cpuKernelComplex(iter, Z.angle);

// ---- round.decimals --------------------------------------------------------------------------------

/**
 * round_decimals_kernel: nearbyint(x * 10^d) / 10^d, or for negative d nearbyint(x / 10^-d) * 10^-d, in the
 * compute precision (float for float32/float16/bfloat16), with 10^|d| rounded to it first.
 */
export function roundDecimalsKernel(iter: TensorIterator, decimals: number): void {
  if (iter.isMeta) return;
  const dtype = iter.commonDtype;
  if (!isFloatingType(dtype)) throw notImplementedForDtype('round_cpu', dtype);
  const r = rounderFor(dtype);
  const negative = decimals < 0;
  const p = r(10 ** Math.abs(decimals));
  if (negative) cpuKernel(iter, (x) => r(roundHalfEven(r(x / p)) * p));
  else cpuKernel(iter, (x) => r(roundHalfEven(r(x * p)) / p));
}

// ---- nan_to_num --------------------------------------------------------------------------------------

/** The largest finite value of a floating dtype (`std::numeric_limits<scalar_t>::max()`). */
function maxFinite(dtype: ScalarType): number {
  switch (dtype) {
    case ScalarType.Half:
      return 65504;
    case ScalarType.BFloat16:
      return 3.3895313892515355e38;
    case ScalarType.Float:
      return 3.4028234663852886e38;
    default:
      return Number.MAX_VALUE;
  }
}

/** nan_to_num_kernel: NaN → nan (0), +inf → posinf (max), -inf → neginf (lowest); integers are copied. */
export function nanToNumKernel(
  iter: TensorIterator,
  nan: number | null | undefined,
  posinf: number | null | undefined,
  neginf: number | null | undefined,
): void {
  if (iter.isMeta) return;
  const dtype = iter.commonDtype;
  if (!isFloatingType(dtype)) {
    if (isComplexType(dtype)) throw notImplementedForDtype('nan_to_num', dtype);
    cpuKernel(iter, identity);
    return;
  }
  const nanV = nan ?? 0;
  const pos = posinf ?? maxFinite(dtype);
  const negv = neginf ?? -maxFinite(dtype);
  cpuKernel(iter, (x) => (Number.isNaN(x) ? nanV : x === Infinity ? pos : x === -Infinity ? negv : x));
}

// ---- polygamma, logit, i1 ----------------------------------------------------------------------------------

/** polygamma_kernel: a unary float op's loop with n fixed. */
export function polygammaKernel(iter: TensorIterator, n: number): void {
  const spec: UnarySpec = { ...float('polygamma', digamma), real: (r: Rounder) => (x) => r(polygamma(n, x as number, r)) };
  runLoop(spec, iter);
}

type OptNumber = number | null | undefined;

/** logit_kernel: log(x / (1 - x)), x first clamped to [eps, 1 - eps] when eps >= 0; 1 maps to +inf. */
export function logitKernel(iter: TensorIterator, eps: OptNumber): void {
  if (iter.isMeta) return;
  const dtype = iter.commonDtype;
  if (isComplexType(dtype)) throw new Error(`"logit_cpu" not implemented for '${scalarTypeToString(dtype)}'`);
  const r = rounderFor(dtype);
  const e = r(eps ?? -1);
  if (!(e >= 0)) {
    cpuKernel(iter, (x) => (x === 1 ? Infinity : r(Math.log(r((x as number) / r(1 - (x as number)))))));
    return;
  }
  const lo = e;
  const hi = r(1 - e);
  cpuKernel(iter, (v) => {
    const x = (v as number) < lo ? lo : (v as number) > hi ? hi : (v as number);
    return x === 1 ? Infinity : r(Math.log(r(x / r(1 - x))));
  });
}

/** i1 (not differentiable; i0's derivative). */
export const i1Kernel: UnaryLoop = (iter) => runLoop(float('i1_cpu', i1), iter);

// ---- signbit, isposinf, isneginf (bool results), frexp (two results) ------------------------------------

/** signbit_kernel: false for bool, `a < 0` for integers, the sign bit for floats (-0 included). */
export const signbitKernel: UnaryLoop = (iter) => {
  if (iter.isMeta) return;
  const d = iter.dtype(1);
  if (d === ScalarType.Bool) cpuKernel(iter, () => 0);
  else if (!isFloatingType(d)) cpuKernel(iter, (a) => ((a as number) < 0 ? 1 : 0));
  else cpuKernel(iter, (a) => ((a as number) < 0 || Object.is(a, -0) ? 1 : 0));
};

/** isposinf_kernel: `a == +inf`. */
export const isposinfKernel: UnaryLoop = (iter) => cpuKernel(iter, (a) => (a === Infinity ? 1 : 0));
/** isneginf_kernel: `a == -inf`. */
export const isneginfKernel: UnaryLoop = (iter) => cpuKernel(iter, (a) => (a === -Infinity ? 1 : 0));

/** std::frexp: x = m 2^e with 0.5 <= |m| < 1; zero, infinities and NaN give (x, 0). */
export function frexpParts(x: number): [mantissa: number, exponent: number] {
  if (x === 0 || !Number.isFinite(x)) return [x, 0];
  let e = Math.max(-1073, Math.floor(Math.log2(Math.abs(x)))) + 1;
  let m = x * 2 ** -e;
  while (Math.abs(m) >= 1) {
    m /= 2;
    e++;
  }
  while (Math.abs(m) < 0.5) {
    m *= 2;
    e--;
  }
  return [m, e];
}

/** frexp_kernel's two results, one iterator each over the same input (mantissa, then exponent). */
export function frexpKernel(mantissa: TensorIterator, exponent: TensorIterator): void {
  cpuKernel(mantissa, (x) => frexpParts(x as number)[0]);
  cpuKernel(exponent, (x) => frexpParts(x as number)[1]);
}
