// Unary pointwise kernels on TensorIterator: neg, abs, sign, exp, exp2, log, log2, log1p, expm1, sqrt, rsqrt,
// sin, cos, tan, asin, acos, atan, sinh, cosh, tanh, sigmoid, silu, erf, floor, ceil, round (and
// round.decimals), trunc, frac, reciprocal, nan_to_num, logical_not, bitwise_not — functional, in-place and out
// variants, structured as PyTorch's (the iterator is the meta step, the loop the impl; meta tensors stop after
// the iterator). Mirrors aten/src/ATen/native/UnaryOps.cpp, native/cpu/UnaryOpsKernel.cpp (silu's loop:
// native/cpu/Activation.cpp) and c10/util/math_compat / fdlibm's s_erf.c (erf); like UnaryOps.cpp (about 1,000
// lines) it is a little over this project's ~600-line guide.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import {
  ScalarType,
  isComplexType,
  isFloatingType,
  isIntegralType,
  notImplementedForDtype,
  scalarTypeToString,
  toRealValueType,
} from '../c10/ScalarType.js';
import {
  type ComplexOp,
  type ScalarOp,
  TensorIterator,
  TensorIteratorConfig,
  type VecOp,
  cpuKernel,
  cpuKernelComplex,
  cpuKernelVec,
} from '../iter/index.js';
import { fmaf } from '../random/fma.js';
import type { StorageArray } from '../tensor/Storage.js';
import type { Tensor } from '../tensor/Tensor.js';
import type { StructuredKernel } from './TensorMeta.js';
import * as ref from '../wasm/kernels/reference.js';
import { wasmUnaryVec } from '../wasm/kernels/vec.js';

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
    else throw notImplementedForDtype('bitwise_not_cpu', d);
  },
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

// ---------------------------------------------------------------------------------------------------
// erf (fdlibm s_erf.c: rational approximations on [0, 0.84375), [0.84375, 1.25), [1.25, 1/0.35), [1/0.35, 6))
// ---------------------------------------------------------------------------------------------------

const ERX = 8.45062911510467529297e-1;
const EFX = 1.28379167095512586316e-1;
const PP = [
  1.28379167095512558561e-1, -3.2504210724700149937e-1, -2.84817495755985104766e-2, -5.77027029648944159157e-3, -2.37630166566501626084e-5,
];
const QQ = [
  1, 3.97917223959155352819e-1, 6.50222499887672944485e-2, 5.08130628187576562776e-3, 1.32494738004321644526e-4, -3.9602282787753681232e-6,
];
const PA = [
  -2.36211856075265944077e-3, 4.14856118683748331666e-1, -3.72207876035701323847e-1, 3.18346619901161753674e-1, -1.10894694282396677476e-1,
  3.54783043256182359371e-2, -2.166375594868790843e-3,
];
const QA = [
  1, 1.06420880400844228286e-1, 5.40397917702171048937e-1, 7.18286544141962662868e-2, 1.26171219808761642112e-1, 1.36370839120290507362e-2,
  1.1984499846799107417e-2,
];
const RA = [
  -9.86494403484714822705e-3, -6.93858572707181764372e-1, -1.05586262253232909814e1, -6.23753324503260060396e1, -1.62396669462573470355e2,
  -1.84605092906711035994e2, -8.12874355063065934246e1, -9.81432934416914548592,
];
const SA = [
  1, 1.96512716674392571292e1, 1.376577541435190426e2, 4.34565877475229228821e2, 6.45387271733267880336e2, 4.29008140027567833386e2,
  1.08635005541779435134e2, 6.57024977031928170135, -6.04244152148580987438e-2,
];
const RB = [
  -9.86494292470009928597e-3, -7.99283237680523006574e-1, -1.77579549177547519889e1, -1.60636384855821916062e2, -6.37566443368389627722e2,
  -1.02509513161107724954e3, -4.83519191608651397019e2,
];
const SB = [
  1, 3.03380607434824582924e1, 3.25792512996573918826e2, 1.53672958608443695994e3, 3.19985821950859553908e3, 2.55305040643316442583e3,
  4.74528541206955367215e2, -2.24409524465858183362e1,
];

/** Horner evaluation of c[0] + c[1] z + c[2] z^2 + ... */
function poly(c: readonly number[], z: number): number {
  let r = c[c.length - 1] as number;
  for (let i = c.length - 2; i >= 0; i--) r = r * z + (c[i] as number);
  return r;
}

const erfBits = new Float64Array(1);
const erfWords = new Uint32Array(erfBits.buffer);

/** The error function in double (fdlibm's algorithm; < 1 ulp). JavaScript's Math has none. */
export function erfDouble(x: number): number {
  if (Number.isNaN(x)) return x;
  const ax = Math.abs(x);
  if (ax === Infinity) return x > 0 ? 1 : -1;
  if (ax < 0.84375) {
    if (ax < 2 ** -28) return x + EFX * x;
    const z = x * x;
    return x + x * (poly(PP, z) / poly(QQ, z));
  }
  if (ax < 1.25) {
    const s = ax - 1;
    const v = ERX + poly(PA, s) / poly(QA, s);
    return x > 0 ? v : -v;
  }
  if (ax >= 6) return x > 0 ? 1 : -1;
  const s = 1 / (ax * ax);
  const big = ax >= 1 / 0.35;
  const R = big ? poly(RB, s) : poly(RA, s);
  const S = big ? poly(SB, s) : poly(SA, s);
  // z = ax with the low 32 bits cleared, so that -z*z is exact (fdlibm's SET_LOW_WORD(z, 0)).
  erfBits[0] = ax;
  erfWords[0] = 0;
  const z = erfBits[0] as number;
  const r = Math.exp(-z * z - 0.5625) * Math.exp((z - ax) * (z + ax) + R / S);
  const v = 1 - r / ax;
  return x > 0 ? v : -v;
}

// Note [erf of float16 and bfloat16]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's erf kernel for float16/bfloat16 converts to float and calls Vectorized<float>::erf, which is not
// SLEEF's erf but Abramowitz & Stegun 7.1.26 (absolute error ~1.5e-7, so erf(1e-6) is 1.19e-6 and erf(1e-20)
// is 0) evaluated with fused multiply-adds. erfReducedFloat replays it step by step in float (fmaf emulates
// the hardware FMA); only its exp differs from SLEEF's expf (< 1 ulp). float32 and float64 erf use SLEEF's
// erff / glibc's erf, which erfDouble matches to an ulp.
const AS_P = Math.fround(0.3275911);
const AS_P1 = Math.fround(0.254829592);
const AS_P2 = Math.fround(-0.284496736);
const AS_P3 = Math.fround(1.421413741);
const AS_P4 = Math.fround(-1.453152027);
const AS_P5 = Math.fround(1.061405429);

/** Vectorized<float>::erf: sign(x) * (1 - r(t) * t * exp(-x^2)), t = 1 / (1 + p|x|), in float with FMAs. */
export function erfReducedFloat(x: number): number {
  const f = Math.fround;
  const ax = Math.abs(x);
  const t = f(1 / fmaf(AS_P, ax, 1));
  const r = fmaf(fmaf(fmaf(fmaf(AS_P5, t, AS_P4), t, AS_P3), t, AS_P2), t, AS_P1);
  const e = f(Math.exp(-f(x * x)));
  const v = fmaf(f(-e * t), r, 1);
  return x < 0 || Object.is(x, -0) ? -v : v;
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
  if (out instanceof Float32Array && a instanceof Float32Array) return ref.f32_vexp(n, a, ao, out, o);
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
const reluVecJs: VecOp = (out, o, ins, io, n) => ref.vrelu(n, ins[0] as StorageArray, io[0] as number, out, o);
// The SIMD kernels where input and output are in linear memory (Note [Kernel backends]): float32 exp is
// within 2 ulp of the correctly rounded result (PyTorch's Sleef_expf8_u10 is within 1).
const expVec = wasmUnaryVec(expVecJs, 'f32_vexp', null);
// sigmoid as `real` computes it: each step rounded to the array's precision (a store into it rounds);
// float32 through the kernel's twin (its exp, Note [The twin is the fallback]).
const sigmoidVecJs: VecOp = (out, o, ins, io, n) => {
  const a = ins[0] as StorageArray;
  const ao = io[0] as number;
  if (out instanceof Float32Array && a instanceof Float32Array) return ref.f32_vsigmoid(n, a, ao, out, o);
  const r = out instanceof Float32Array ? Math.fround : (v: number): number => v;
  for (let i = 0; i < n; i++) out[o + i] = 1 / r(1 + r(Math.exp(-(a[ao + i] as number))));
};
const sigmoidVec = wasmUnaryVec(sigmoidVecJs, 'f32_vsigmoid', null);
const reluVec = wasmUnaryVec(reluVecJs, 'f32_vrelu', null);

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

export const SPECS = {
  neg: {
    kind: Kind.Same,
    dispatchName: 'neg_cpu',
    supports: (d: ScalarType) => d !== ScalarType.Bool,
    real: () => (x: number) => -x,
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
    real: (_r: Rounder, d: ScalarType) => (d === ScalarType.Bool ? identity : (x: number) => (x > 0 ? 1 : 0) - (x < 0 ? 1 : 0)),
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
  exp2: { kind: Kind.Float, dispatchName: 'exp2', supports: allReal, real: floatFn((x) => 2 ** x) },
  log: { kind: Kind.Float, dispatchName: 'log_vml_cpu', supports: allReal, real: floatFn(Math.log), vec: logVec },
  log2: { kind: Kind.Float, dispatchName: 'log2', supports: allReal, real: floatFn(Math.log2) },
  log1p: { kind: Kind.Float, dispatchName: 'log1p_vml_cpu', supports: allReal, real: floatFn(Math.log1p) },
  expm1: { kind: Kind.Float, dispatchName: 'expm1_vml_cpu', supports: allReal, real: floatFn(Math.expm1) },
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
  rsqrt: { kind: Kind.Float, dispatchName: 'rsqrt_cpu', supports: allReal, real: (r: Rounder) => (x: number) => r(1 / r(Math.sqrt(x))) },
  sin: { kind: Kind.Float, dispatchName: 'sin_vml_cpu', supports: allReal, real: floatFn(Math.sin) },
  cos: { kind: Kind.Float, dispatchName: 'cos_vml_cpu', supports: allReal, real: floatFn(Math.cos) },
  tan: { kind: Kind.Float, dispatchName: 'tan_vml_cpu', supports: allReal, real: floatFn(Math.tan) },
  asin: { kind: Kind.Float, dispatchName: 'asin_vml_cpu', supports: allReal, real: floatFn(Math.asin) },
  acos: { kind: Kind.Float, dispatchName: 'acos_vml_cpu', supports: allReal, real: floatFn(Math.acos) },
  atan: { kind: Kind.Float, dispatchName: 'atan_vml_cpu', supports: allReal, real: floatFn(Math.atan) },
  sinh: { kind: Kind.Float, dispatchName: 'sinh_vml_cpu', supports: allReal, real: floatFn(Math.sinh) },
  cosh: { kind: Kind.Float, dispatchName: 'cosh_vml_cpu', supports: allReal, real: floatFn(Math.cosh) },
  tanh: { kind: Kind.Float, dispatchName: 'tanh_vml_cpu', supports: allReal, real: floatFn(Math.tanh), vec: tanhVec },
  // sigmoid: (1 + exp(-x)).reciprocal(), each step in the compute precision.
  sigmoid: {
    kind: Kind.Float,
    dispatchName: 'sigmoid_cpu',
    supports: allReal,
    real: (r: Rounder) => (x: number) => r(1 / r(1 + r(Math.exp(-x)))),
    vec: sigmoidVec,
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
  reciprocal: { kind: Kind.Float, dispatchName: 'reciprocal_cpu', supports: allReal, real: floatFn((x) => 1 / x) },
} satisfies Record<string, UnarySpec>;

type SpecName = keyof typeof SPECS;

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
  if (spec.vec !== undefined) cpuKernelVec(iter, spec.real(rounderFor(dtype), dtype), spec.vec);
  else cpuKernel(iter, spec.real(rounderFor(dtype), dtype));
}

export function build(spec: UnarySpec, out: Tensor | null, self: Tensor): TensorIterator {
  spec.precheck?.(self);
  return spec.kind === Kind.Float ? TensorIterator.unaryFloatOp(out, self) : TensorIterator.unaryOp(out, self);
}

type Functional = (ks: DispatchKeySet, self: Tensor) => Tensor;
type OutVariant = (ks: DispatchKeySet, self: Tensor, out: Tensor) => Tensor;

function functional(name: SpecName): Functional {
  const spec: UnarySpec = SPECS[name];
  return (_ks, self) => {
    const iter = build(spec, null, self);
    runLoop(spec, iter);
    return iter.output() as Tensor;
  };
}

function inplace(name: SpecName): Functional {
  const spec: UnarySpec = SPECS[name];
  return (_ks, self) => {
    runLoop(spec, build(spec, self, self));
    return self;
  };
}

function outVariant(name: SpecName): OutVariant {
  const spec: UnarySpec = SPECS[name];
  return (_ks, self, out) => {
    runLoop(spec, build(spec, out, self));
    return out;
  };
}

// ---------------------------------------------------------------------------------------------------
// The kernels: the structured ops, then abs, relu, gelu, round.decimals, isnan/isinf/isfinite, nan_to_num
// ---------------------------------------------------------------------------------------------------

// Note [Unary ops are structured]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// As in PyTorch, the unary ops whose out= overload is `structured: True` there (every op of SPECS but abs and
// relu) are structured kernels: `meta` builds the unary iterator (result dtype, set_output, the in-place and
// out= cast checks), `impl` runs the loop. The generator writes their functional, in-place and out= kernels
// for CPU and Meta and `atenCpu.<op>` around them (Note [Structured kernels in aten-ts]).

type StructuredName = Exclude<SpecName, 'abs' | 'relu'>;

function structured(name: StructuredName): StructuredKernel<[self: Tensor]> {
  const spec: UnarySpec = SPECS[name];
  return {
    meta: (out, self) => build(spec, out, self),
    impl: (iter) => runLoop(spec, iter),
  };
}

export const negStructured = structured('neg');
export const signStructured = structured('sign');
export const expStructured = structured('exp');
export const exp2Structured = structured('exp2');
export const logStructured = structured('log');
export const log2Structured = structured('log2');
export const log1pStructured = structured('log1p');
export const expm1Structured = structured('expm1');
export const sqrtStructured = structured('sqrt');
export const rsqrtStructured = structured('rsqrt');
export const sinStructured = structured('sin');
export const cosStructured = structured('cos');
export const tanStructured = structured('tan');
export const asinStructured = structured('asin');
export const acosStructured = structured('acos');
export const atanStructured = structured('atan');
export const sinhStructured = structured('sinh');
export const coshStructured = structured('cosh');
export const tanhStructured = structured('tanh');
export const sigmoidStructured = structured('sigmoid');
export const erfStructured = structured('erf');
export const siluStructured = structured('silu');
export const floorStructured = structured('floor');
export const ceilStructured = structured('ceil');
export const roundStructured = structured('round');
export const truncStructured = structured('trunc');
export const fracStructured = structured('frac');
export const reciprocalStructured = structured('reciprocal');

// ---- abs: complex inputs give real results ---------------------------------------------------------

const absComplex: ComplexOp = (ins, out) => {
  out[0] = Math.hypot(ins[0] as number, ins[1] as number);
  out[1] = 0;
};

/** abs of a complex tensor into a real one (`unary_op_impl_with_complex_to_float`). */
function absComplexInto(out: Tensor | null, self: Tensor): TensorIterator {
  const real = toRealValueType(self.scalarType);
  const config = new TensorIteratorConfig().checkAllSameDtype(false);
  if (out === null) config.declareStaticDtype(real);
  else if (out.scalarType !== real)
    throw new Error(`Found dtype ${scalarTypeToString(out.scalarType)} but expected ${scalarTypeToString(real)}`);
  const iter = config.addOutput(out).addConstInput(self).build();
  cpuKernelComplex(iter, absComplex);
  return iter;
}

const absSame = functional('abs');
const absSameOut = outVariant('abs');

export function abs(ks: DispatchKeySet, self: Tensor): Tensor {
  return isComplexType(self.scalarType) ? (absComplexInto(null, self).output() as Tensor) : absSame(ks, self);
}

const absInplace = inplace('abs');

export function abs_(ks: DispatchKeySet, self: Tensor): Tensor {
  if (isComplexType(self.scalarType)) throw new Error('In-place abs is not supported for complex tensors.');
  return absInplace(ks, self);
}

export function absOut(ks: DispatchKeySet, self: Tensor, out: Tensor): Tensor {
  if (!isComplexType(self.scalarType)) return absSameOut(ks, self, out);
  absComplexInto(out, self);
  return out;
}

// ---- round.decimals --------------------------------------------------------------------------------

/**
 * round_decimals_kernel: nearbyint(x * 10^d) / 10^d, or for negative d nearbyint(x / 10^-d) * 10^-d, in the
 * compute precision (float for float32/float16/bfloat16), with 10^|d| rounded to it first.
 */
function roundDecimalsLoop(iter: TensorIterator, decimals: number): void {
  if (iter.isMeta) return;
  const dtype = iter.commonDtype;
  if (!isFloatingType(dtype)) throw notImplementedForDtype('round_cpu', dtype);
  const r = rounderFor(dtype);
  const negative = decimals < 0;
  const p = r(10 ** Math.abs(decimals));
  if (negative) cpuKernel(iter, (x) => r(roundHalfEven(r(x / p)) * p));
  else cpuKernel(iter, (x) => r(roundHalfEven(r(x * p)) / p));
}

export function roundDecimals(_ks: DispatchKeySet, self: Tensor, decimals: number): Tensor {
  const iter = TensorIterator.unaryOp(null, self);
  roundDecimalsLoop(iter, decimals);
  return iter.output() as Tensor;
}

export function roundDecimals_(_ks: DispatchKeySet, self: Tensor, decimals: number): Tensor {
  roundDecimalsLoop(TensorIterator.unaryOp(self, self), decimals);
  return self;
}

export function roundDecimalsOut(_ks: DispatchKeySet, self: Tensor, decimals: number, out: Tensor): Tensor {
  roundDecimalsLoop(TensorIterator.unaryOp(out, self), decimals);
  return out;
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
function nanToNumLoop(
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

type OptNumber = number | null | undefined;

export function nanToNum(_ks: DispatchKeySet, self: Tensor, nan?: OptNumber, posinf?: OptNumber, neginf?: OptNumber): Tensor {
  const iter = TensorIterator.unaryOp(null, self);
  nanToNumLoop(iter, nan, posinf, neginf);
  return iter.output() as Tensor;
}

export function nanToNum_(_ks: DispatchKeySet, self: Tensor, nan?: OptNumber, posinf?: OptNumber, neginf?: OptNumber): Tensor {
  nanToNumLoop(TensorIterator.unaryOp(self, self), nan, posinf, neginf);
  return self;
}

export function nanToNumOut(_ks: DispatchKeySet, self: Tensor, nan: OptNumber, posinf: OptNumber, neginf: OptNumber, out: Tensor): Tensor {
  if (out.scalarType !== self.scalarType) {
    throw new Error(
      `nan_to_num: dtype of out: ${scalarTypeToString(out.scalarType)} should be same as input: ${scalarTypeToString(self.scalarType)}`,
    );
  }
  nanToNumLoop(TensorIterator.unaryOp(out, self), nan, posinf, neginf);
  return out;
}
