// Activation functions that are not structured unary ops: relu (functional and in-place, as PyTorch) and
// gelu (with `approximate`). Mirrors aten/src/ATen/native/Activation.cpp and native/cpu/Activation.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isFloatingType, isIntegralType, notImplementedForDtype, scalarTypeToString } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import { TensorIterator, TensorIteratorConfig, cpuKernel } from '../iter/index.js';
import type { Tensor } from '../tensor/Tensor.js';
import type { StructuredKernel } from './TensorMeta.js';
import { erfDouble } from './Math.js';
import { build } from './UnaryOps.js';
import { GELU_BETA, GELU_KAPPA, SPECS, SQRT1_2, rounderFor, runLoop } from './UnaryOpsKernel.js';
import { MemoryFormat } from '../c10/Layout.js';
import { type Generator, defaultGenerator } from '../random/index.js';
import { checkFloating, reader, writer } from './FloatAccess.js';
import { contiguousOf, emptyLike } from './StorageAccess.js';
import * as at from '../generated/TensorBody.js';

// ---- relu (functional and in-place only, as in PyTorch) --------------------------------------------

function reluCheck(iter: TensorIterator): void {
  if (!iter.isMeta && iter.commonDtype === ScalarType.Bool) throw new Error('Boolean inputs not supported for relu');
}

export function relu(_ks: DispatchKeySet, self: Tensor): Tensor {
  const iter = build(SPECS.relu, null, self);
  reluCheck(iter);
  runLoop(SPECS.relu, iter);
  return iter.output() as Tensor;
}

export function relu_(_ks: DispatchKeySet, self: Tensor): Tensor {
  const iter = build(SPECS.relu, self, self);
  reluCheck(iter);
  runLoop(SPECS.relu, iter);
  return self;
}

// ---- gelu -------------------------------------------------------------------------------------------

/** `get_gelutype_enum`. */
function geluIsTanh(approximate: string): boolean {
  if (approximate === 'none') return false;
  if (approximate === 'tanh') return true;
  throw new Error('approximate argument must be either none or tanh.');
}

/** GeluKernelImpl: x * 0.5 * (1 + erf(x / sqrt 2)), or 0.5 * x * (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))). */
function geluLoop(iter: TensorIterator, tanhApprox: boolean): void {
  if (iter.isMeta) return;
  const dtype = iter.commonDtype;
  if (!isFloatingType(dtype)) throw notImplementedForDtype('GeluKernelImpl', dtype);
  const r = rounderFor(dtype);
  if (tanhApprox) {
    cpuKernel(iter, (x) => {
      const cube = r(r(x * x) * x);
      const inner = r(GELU_BETA * r(x + r(GELU_KAPPA * cube)));
      return r(r(0.5 * x) * r(1 + r(Math.tanh(inner))));
    });
  } else {
    cpuKernel(iter, (x) => r(r(x * 0.5) * r(1 + r(erfDouble(r(x * SQRT1_2))))));
  }
}

export function gelu(_ks: DispatchKeySet, self: Tensor, approximate: string = 'none'): Tensor {
  const t = geluIsTanh(approximate);
  const iter = TensorIterator.unaryOp(null, self);
  geluLoop(iter, t);
  return iter.output() as Tensor;
}

export function gelu_(_ks: DispatchKeySet, self: Tensor, approximate: string = 'none'): Tensor {
  geluLoop(TensorIterator.unaryOp(self, self), geluIsTanh(approximate));
  return self;
}

export function geluOut(_ks: DispatchKeySet, self: Tensor, approximate: string, out: Tensor): Tensor {
  geluLoop(TensorIterator.unaryOp(out, self), geluIsTanh(approximate));
  return out;
}

// ---- the activations leaky_relu, elu, softplus, hardtanh, hardswish, hardsigmoid, mish, log_sigmoid
// (structured pointwise, their functional / in-place / out= variants generated) and their backward operators;
// selu, celu and relu6 are compositions (Activation.cpp). Each loop computes in double and rounds once to the
// dtype (PyTorch's float kernels compute in float: the values agree to a few ulps).

type Num = number | boolean;

/** A structured unary floating-point op: `f(scalars)` gives the elementwise function. */
function floatUnary(name: string, f: (...args: number[]) => (x: number) => number): StructuredKernel<[Tensor, ...Num[]]> {
  return {
    meta: (out, self) => TensorIterator.unaryOp(out, self),
    impl(iter, _self, ...args) {
      if (iter.isMeta) return;
      const dtype = iter.commonDtype;
      if (!isFloatingType(dtype)) throw notImplementedForDtype(name, dtype);
      const r = rounderFor(dtype);
      const g = f(...args.map((a) => Number(a)));
      cpuKernel(iter, (x) => r(g(x)));
    },
  };
}

/** A backward operator: `f(grad, x)` over the broadcast (grad_output, self) pair. */
function floatBackward(ks: DispatchKeySet, name: string, grad: Tensor, self: Tensor, f: (g: number, x: number) => number): Tensor {
  void ks;
  const iter = TensorIterator.binaryOp(null, grad, self);
  if (!iter.isMeta) {
    const dtype = iter.commonDtype;
    if (!isFloatingType(dtype)) throw notImplementedForDtype(name, dtype);
    const r = rounderFor(dtype);
    cpuKernel(iter, (g, x) => r(f(g, x)));
  }
  return iter.output() as Tensor;
}

const softplusOf = (x: number): number => (x > 20 ? x : Math.log1p(Math.exp(x)));

export const leakyReluStructured = floatUnary(
  'leaky_relu_cpu',
  (slope = 0) =>
    (x) =>
      x > 0 ? x : x * slope,
);

export function leakyReluBackward(ks: DispatchKeySet, grad: Tensor, self: Tensor, negativeSlope: Num, selfIsResult: boolean): Tensor {
  const s = Number(negativeSlope);
  if (selfIsResult && s < 0) {
    throw new Error(
      'In-place leakyReLu backward calculation is triggered with a negative slope which is not supported. This is caused by calling in-place forward function with a negative slope, please call out-of-place version instead. File an issue at https://github.com/pytorch/pytorch if you do require supporting in-place leakRelu backward calculation with negative slope',
    );
  }
  return floatBackward(ks, 'leaky_relu_backward_cpu', grad, self, (g, x) => (x > 0 ? g : g * s));
}

export const eluStructured = floatUnary(
  'elu_cpu',
  (alpha = 1, scale = 1, inputScale = 1) =>
    (x) =>
      x <= 0 ? Math.expm1(x * inputScale) * alpha * scale : x * scale,
);

export function eluBackward(
  ks: DispatchKeySet,
  grad: Tensor,
  alpha: Num,
  scale: Num,
  inputScale: Num,
  isResult: boolean,
  selfOrResult: Tensor,
): Tensor {
  const [negcoef, poscoef, negiptcoef] = [Number(alpha) * Number(scale), Number(scale), Number(inputScale)];
  if (isResult && Number(alpha) < 0) {
    throw new Error(
      'In-place elu backward calculation is triggered with a negative slope which is not supported. This is caused by calling in-place forward function with a negative slope, please call out-of-place version instead.',
    );
  }
  return floatBackward(ks, 'elu_backward_cpu', grad, selfOrResult, (g, b) =>
    isResult
      ? b <= 0
        ? g * negiptcoef * (b + negcoef)
        : g * poscoef
      : b <= 0
        ? g * negiptcoef * negcoef * Math.exp(b * negiptcoef)
        : g * poscoef,
  );
}

export const softplusStructured = floatUnary(
  'softplus_cpu',
  (beta = 1, threshold = 20) =>
    (x) =>
      x * beta > threshold ? x : Math.log1p(Math.exp(x * beta)) / beta,
);

export function softplusBackward(ks: DispatchKeySet, grad: Tensor, self: Tensor, beta: Num, threshold: Num): Tensor {
  const [b, t] = [Number(beta), Number(threshold)];
  return floatBackward(ks, 'softplus_backward_cpu', grad, self, (g, x) => {
    if (x * b > t) return g;
    const z = Math.exp(x * b);
    return (g * z) / (z + 1);
  });
}

/** hardtanh: a clamp (integer dtypes too, as hardtanh_out calls clamp_out); Bool is rejected. */
export const hardtanhStructured: StructuredKernel<[Tensor, Num, Num]> = {
  meta: (out, self) => TensorIterator.unaryOp(out, self),
  impl(iter, _self, minVal, maxVal) {
    if (iter.isMeta) return;
    const dtype = iter.commonDtype;
    if (dtype === ScalarType.Bool) throw new Error('Bool inputs not supported for hardtanh');
    const [lo, hi] = [Number(minVal), Number(maxVal)];
    if (dtype === ScalarType.Byte && (lo < 0 || hi < 0)) {
      throw new Error('hardtanh with uint8 inputs ... min_val and max_val must be non-negative');
    }
    const r = rounderFor(dtype);
    const [l, h] = isFloatingType(dtype) ? [r(lo), r(hi)] : [Math.trunc(lo), Math.trunc(hi)];
    cpuKernel(iter, (x) => (x !== x ? x : Math.min(Math.max(x, l), h)));
  },
};

export function hardtanhBackward(ks: DispatchKeySet, grad: Tensor, self: Tensor, minVal: Num, maxVal: Num): Tensor {
  const [lo, hi] = [Number(minVal), Number(maxVal)];
  return floatBackward(ks, 'hardtanh_backward_cpu', grad, self, (g, x) => (x <= lo || x >= hi ? 0 : g));
}

export const hardswishStructured = floatUnary('hardswish_cpu', () => (x) => (x * Math.min(Math.max(x + 3, 0), 6)) / 6);

export function hardswishBackward(ks: DispatchKeySet, grad: Tensor, self: Tensor): Tensor {
  return floatBackward(ks, 'hardswish_backward_cpu', grad, self, (g, x) => (x < -3 ? 0 : x <= 3 ? g * (x / 3 + 0.5) : g));
}

export const hardsigmoidStructured = floatUnary('hardsigmoid_cpu', () => (x) => Math.min(Math.max(x + 3, 0), 6) / 6);

export function hardsigmoidBackward(ks: DispatchKeySet, grad: Tensor, self: Tensor): Tensor {
  return floatBackward(ks, 'hardsigmoid_backward_cpu', grad, self, (g, x) => (x > -3 && x < 3 ? g / 6 : 0));
}

export const mishStructured = floatUnary('mish_cpu', () => (x) => x * Math.tanh(softplusOf(x)));

export function mishBackward(ks: DispatchKeySet, grad: Tensor, self: Tensor): Tensor {
  return floatBackward(ks, 'mish_backward_cpu', grad, self, (g, x) => {
    const sigmoid = 1 / (1 + Math.exp(-x));
    const t = Math.tanh(softplusOf(x));
    return g * (t + x * sigmoid * (1 - t * t));
  });
}

/** `log_sigmoid_forward(self) -> (output, buffer)`: min(x, 0) - log1p(exp(-|x|)), buffer exp(-|x|). */
export function logSigmoidForward(_ks: DispatchKeySet, self: Tensor): [Tensor, Tensor] {
  const out = TensorIterator.unaryOp(null, self);
  const buf = TensorIterator.unaryOp(null, self);
  if (!out.isMeta) {
    const dtype = out.commonDtype;
    if (!isFloatingType(dtype)) throw notImplementedForDtype('log_sigmoid_cpu', dtype);
    const r = rounderFor(dtype);
    cpuKernel(out, (x) => r(Math.min(x, 0) - Math.log1p(Math.exp(-Math.abs(x)))));
    cpuKernel(buf, (x) => r(Math.exp(-Math.abs(x))));
  }
  return [out.output() as Tensor, buf.output() as Tensor];
}

/** `log_sigmoid(self)`, CompositeImplicitAutograd: the output of log_sigmoid_forward (LogSigmoidBackward0). */
export function logSigmoid(_ks: DispatchKeySet, self: Tensor): Tensor {
  return aten().log_sigmoid_forward.call(self)[0];
}

export function logSigmoidBackward(_ks: DispatchKeySet, grad: Tensor, self: Tensor, buffer: Tensor): Tensor {
  const iter = new TensorIteratorConfig().addOutput(null).addConstInput(grad).addConstInput(self).addConstInput(buffer).build();
  if (!iter.isMeta) {
    const dtype = iter.commonDtype;
    if (!isFloatingType(dtype)) throw notImplementedForDtype('log_sigmoid_backward_cpu', dtype);
    const r = rounderFor(dtype);
    cpuKernel(iter, (g, x, z) => {
      const neg = x < 0;
      return r(g * ((neg ? 1 : 0) - (neg ? 1 : -1) * (z / (1 + z))));
    });
  }
  return iter.output() as Tensor;
}

/** `selu(self)`, CompositeImplicitAutograd: elu with SELU's alpha and scale (EluBackward0). */
const SELU_ALPHA = 1.6732632423543772;
const SELU_SCALE = 1.0507009873554805;
export function selu(_ks: DispatchKeySet, self: Tensor): Tensor {
  return aten().elu.call(self, SELU_ALPHA, SELU_SCALE, 1);
}
export function selu_(_ks: DispatchKeySet, self: Tensor): Tensor {
  return aten().elu_.call(self, SELU_ALPHA, SELU_SCALE, 1);
}

function celuCheck(alpha: Num): number {
  const a = Number(alpha);
  if (a === 0) throw new Error('ZeroDivisionError: alpha cannot be 0 for CELU');
  return a;
}

/**
 * `celu(self, alpha=1.)`: elu's loop with (alpha, 1, 1 / alpha). PyTorch's is CompositeExplicitAutograd over
 * elu; here the loop runs in this kernel (registered at CPU and Meta), so no inner elu is dispatched.
 */
export function celu(_ks: DispatchKeySet, self: Tensor, alpha: Num = 1): Tensor {
  const a = celuCheck(alpha);
  const iter = eluStructured.meta(null, self, a, 1, 1 / a);
  eluStructured.impl(iter, self, a, 1, 1 / a);
  return iter.output() as Tensor;
}
export function celu_(_ks: DispatchKeySet, self: Tensor, alpha: Num = 1): Tensor {
  const a = celuCheck(alpha);
  eluStructured.impl(eluStructured.meta(self, self, a, 1, 1 / a), self, a, 1, 1 / a);
  return self;
}

/** `relu6(self)`, CompositeImplicitAutograd: hardtanh(self, 0, 6) (HardtanhBackward0). */
export function relu6(_ks: DispatchKeySet, self: Tensor): Tensor {
  return aten().hardtanh.call(self, 0, 6);
}
export function relu6_(_ks: DispatchKeySet, self: Tensor): Tensor {
  return aten().hardtanh_.call(self, 0, 6);
}

// ---- prelu -------------------------------------------------------------------------------------------

/**
 * `prelu(self, weight)`, CompositeImplicitAutograd: checks the weight against the channels (dim 1), reshapes it
 * to broadcast over self (`[1, C, 1, ...]`, a view: ViewBackward0) and calls `_prelu_kernel`.
 */
export function prelu(_ks: DispatchKeySet, self: Tensor, weight: Tensor): Tensor {
  const selfDim = self.dim();
  if (self.scalarType !== weight.scalarType) {
    throw new Error(
      `prelu: Type promoting not supported. Got ${scalarTypeToString(self.scalarType)} and ${scalarTypeToString(weight.scalarType)}`,
    );
  }
  const wNumel = weight.numel();
  if (wNumel !== 1) {
    if (selfDim === 0) throw new Error('Not allow zero-dim input tensor.');
    const channelSize = selfDim > 1 ? (self.sizes[1] as number) : 1;
    if (channelSize !== wNumel) {
      throw new Error(
        `Mismatch of parameter numbers and input channel size. Found parameter numbers = ${wNumel} and channel size = ${channelSize}.`,
      );
    }
  }
  if (weight.dim() > 1) throw new Error(`prelu: Expected \`weight\` to be a scalar or 1D tensor, but got: ndim = ${weight.dim()}`);
  let w = weight;
  if (selfDim !== weight.dim()) {
    const dimW = new Array<number>(selfDim).fill(1);
    if (selfDim > 1) dimW[1] = wNumel;
    w = aten().reshape.call(weight, dimW);
  }
  return aten()._prelu_kernel.call(self, w);
}

/** `_prelu_kernel(self, weight)`: self > 0 ? self : weight * self, the weight broadcast over self (prelu_cpu). */
export function preluKernel(_ks: DispatchKeySet, self: Tensor, weight: Tensor): Tensor {
  const iter = new TensorIteratorConfig().addOutput(null).addConstInput(self).addConstInput(weight).build();
  if (!iter.isMeta) {
    const dtype = iter.commonDtype;
    if (!isFloatingType(dtype)) throw notImplementedForDtype('prelu_cpu', dtype);
    const r = rounderFor(dtype);
    cpuKernel(iter, (x, w) => (x > 0 ? x : r(w * x)));
  }
  return iter.output() as Tensor;
}

/**
 * `_prelu_kernel_backward(grad_output, self, weight) -> (grad_self, grad_weight)`: self > 0 ? grad : weight * grad,
 * and self > 0 ? 0 : self * grad summed to the weight's size (`sum_to_size`), as prelu_backward_cpu does.
 */
export function preluKernelBackward(_ks: DispatchKeySet, grad: Tensor, self: Tensor, weight: Tensor): [Tensor, Tensor] {
  const gi = new TensorIteratorConfig().addOutput(null).addConstInput(self).addConstInput(weight).addConstInput(grad).build();
  const gw = new TensorIteratorConfig().addOutput(null).addConstInput(self).addConstInput(weight).addConstInput(grad).build();
  if (!gi.isMeta) {
    const dtype = gi.commonDtype;
    if (!isFloatingType(dtype)) throw notImplementedForDtype('prelu_backward_cpu', dtype);
    const r = rounderFor(dtype);
    cpuKernel(gi, (x, w, g) => (x > 0 ? g : r(w * g)));
    cpuKernel(gw, (x, _w, g) => (x > 0 ? 0 : r(x * g)));
  }
  const gradSelf = gi.output() as Tensor;
  let gradWeight = gw.output() as Tensor;
  const ws = weight.sizes;
  const gs = gradWeight.sizes;
  if (gs.length !== ws.length || gs.some((s, i) => s !== ws[i])) {
    const lead = gs.length - ws.length;
    const dims: number[] = [];
    for (let i = 0; i < gs.length; i++) if (i < lead || (ws[i - lead] === 1 && gs[i] !== 1)) dims.push(i);
    gradWeight = aten().sum_dim_IntList.call(gradWeight, dims, true, null);
    if (lead > 0) gradWeight = aten().view.call(gradWeight, [...ws]);
  }
  return [gradSelf, gradWeight];
}

// ---- threshold, hardshrink, softshrink (Activation.cpp) and their backward operators

/** The scalar as the iterator's dtype computes with it: truncated for the integer dtypes, rounded for the floats. */
function scalarIn(dtype: ScalarType, v: Num): number {
  return isFloatingType(dtype) ? rounderFor(dtype)(Number(v)) : Math.trunc(Number(v));
}

/** `threshold(self, threshold, value)`: x <= threshold ? value : x, every dtype but Bool (NaN stays NaN). */
export const thresholdStructured: StructuredKernel<[Tensor, Num, Num]> = {
  meta: (out, self) => TensorIterator.unaryOp(out, self),
  impl(iter, _self, threshold, value) {
    if (iter.isMeta) return;
    const dtype = iter.commonDtype;
    if (dtype === ScalarType.Bool || !(isFloatingType(dtype) || isIntegralType(dtype, false)))
      throw notImplementedForDtype('threshold_cpu', dtype);
    const [t, v] = [scalarIn(dtype, threshold), scalarIn(dtype, value)];
    cpuKernel(iter, (x) => (x <= t ? v : x));
  },
};

// threshold_backward: with relu's SIMD pass, in ActivationBackward.ts.
export { thresholdBackward } from './ActivationBackward.js';

/** `hardshrink(self, lambd=0.5)`: 0 on [-lambd, lambd], x elsewhere (NaN stays NaN). */
export const hardshrinkStructured = floatUnary(
  'hardshrink_cpu',
  (lambd = 0.5) =>
    (x) =>
      x >= -lambd && x <= lambd ? 0 : x,
);

export function hardshrinkBackward(ks: DispatchKeySet, grad: Tensor, self: Tensor, lambd: Num): Tensor {
  const l = Number(lambd);
  return floatBackward(ks, 'hardshrink_backward_cpu', grad, self, (g, x) => (x >= -l && x <= l ? 0 : g));
}

/** The largest finite value of a floating dtype (PyTorch's `std::numeric_limits<T>::max()`), as C++ prints it. */
const MAX_TEXT: Partial<Record<ScalarType, string>> = {
  [ScalarType.Float]: '3.40282e+38',
  [ScalarType.Double]: '1.79769e+308',
  [ScalarType.Half]: '65504',
  [ScalarType.BFloat16]: '3.38953e+38',
};
const MAX_VALUE: Partial<Record<ScalarType, number>> = {
  [ScalarType.Float]: 3.4028234663852886e38,
  [ScalarType.Double]: Number.MAX_VALUE,
  [ScalarType.Half]: 65504,
  [ScalarType.BFloat16]: 3.3895313892515355e38,
};

/** `softshrink(self, lambd=0.5)`: x ∓ lambd outside [-lambd, lambd], a signed zero inside (x·0), NaN kept; lambd in [0, max]. */
export const softshrinkStructured: StructuredKernel<[Tensor, Num]> = {
  meta(out, self, lambd) {
    const dtype = self.scalarType;
    if (!isFloatingType(dtype)) throw notImplementedForDtype('softshrink_check', dtype);
    const l = Number(lambd);
    if (!(l >= 0 && l <= (MAX_VALUE[dtype] ?? Infinity))) {
      throw new Error(
        `lambda must be in range [0, ${MAX_TEXT[dtype] ?? ''}] for input dtype ${scalarTypeToString(dtype)}, but found ${cppDouble(l)}`,
      );
    }
    return TensorIterator.unaryOp(out, self);
  },
  impl(iter, _self, lambd) {
    if (iter.isMeta) return;
    const r = rounderFor(iter.commonDtype);
    const l = r(Number(lambd));
    cpuKernel(iter, (x) => (x !== x ? x : x > l ? r(x - l) : x < -l ? r(x + l) : x * 0));
  },
};

export function softshrinkBackward(ks: DispatchKeySet, grad: Tensor, self: Tensor, lambd: Num): Tensor {
  const l = Number(lambd);
  return floatBackward(ks, 'softshrink_backward_cpu', grad, self, (g, x) => (x >= -l && x <= l ? 0 : g));
}

/** A double as C++'s `ostream <<` prints it (6 significant digits, no trailing zeros). */
function cppDouble(v: number): string {
  if (!Number.isFinite(v)) return Number.isNaN(v) ? 'nan' : v > 0 ? 'inf' : '-inf';
  const s = v.toPrecision(6);
  if (s.includes('e')) {
    const [m, e] = s.split('e') as [string, string];
    const mm = m.includes('.') ? m.replace(/\.?0+$/, '') : m;
    const n = Number(e);
    return `${mm}e${n < 0 ? '-' : '+'}${String(Math.abs(n)).padStart(2, '0')}`;
  }
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}

// ---- rrelu: rrelu / rrelu_ (CompositeImplicitAutograd over rrelu_with_noise), rrelu_with_noise(_) and its
// backward. Activation.cpp's `_rrelu_with_noise_train`: in training each non-positive element draws its slope
// from uniform_real_distribution<double>(lower, upper) (one random64() per draw, in element order) and the
// slope is kept in `noise` (1 for positive elements); in evaluation it is leaky_relu with (lower + upper) / 2.

/** rrelu's checks and its `noise` buffer (Activation.cpp's rrelu / rrelu_: `at::empty_like(self, LEGACY_CONTIGUOUS_MEMORY_FORMAT)`). */
function rreluNoise(self: Tensor, lower: Num, upper: Num): Tensor {
  if (!(Number(lower) <= Number(upper))) throw new Error('Lower bound should be less than or equal to the upper bound');
  return at.empty_like(self, null, null, null, null, MemoryFormat.Contiguous);
}

export function rrelu(
  _ks: DispatchKeySet,
  self: Tensor,
  lower: Num = 0.125,
  upper: Num = 1 / 3,
  training = false,
  generator: Generator | null = null,
): Tensor {
  return at.rrelu_with_noise(self, rreluNoise(self, lower, upper), lower, upper, training, generator);
}

export function rrelu_(
  _ks: DispatchKeySet,
  self: Tensor,
  lower: Num = 0.125,
  upper: Num = 1 / 3,
  training = false,
  generator: Generator | null = null,
): Tensor {
  return at.rrelu_with_noise_(self, rreluNoise(self, lower, upper), lower, upper, training, generator);
}

function rreluWithNoiseInto(
  self: Tensor,
  noise: Tensor,
  lower: Num,
  upper: Num,
  training: boolean,
  generator: Generator | null,
  out: Tensor | null,
): Tensor {
  if (self.sizes.length !== noise.sizes.length || self.sizes.some((s, i) => s !== noise.sizes[i])) {
    throw new Error(
      `noise tensor shape must match self tensor shape. Got self.shape = [${self.sizes.join(', ')}] noise.shape = [${noise.sizes.join(', ')}]`,
    );
  }
  if (!training) {
    const slope = (Number(lower) + Number(upper)) / 2;
    return out === null ? at.leaky_relu(self, slope) : at.leaky_relu_(out, slope);
  }
  const dtype = checkFloating(self, 'rrelu_with_noise_out_cpu');
  const output = out ?? emptyLike(self, [...self.sizes]);
  if (self.isMeta()) return output;
  const input = contiguousOf(self);
  const tmp = output.isContiguous() ? output : at.contiguous(output);
  const noiseC = noise.isContiguous() ? noise : at.contiguous(noise);
  const opmath = dtype === ScalarType.Double ? (v: number): number => v : Math.fround;
  const lo = opmath(Number(lower));
  const range = opmath(Number(upper)) - lo;
  const gen = generator ?? defaultGenerator();
  const x = reader(input);
  const y = writer(tmp);
  const z = writer(noiseC);
  const n = self.numel();
  for (let i = 0; i < n; i++) {
    const v = x(i);
    if (v <= 0) {
      const hi = gen.random();
      const u = ((hi & 0x1fffff) * 4294967296 + gen.random()) * 1.1102230246251565e-16;
      const r = opmath(u * range + lo);
      y(i, opmath(v * r));
      z(i, r);
    } else {
      z(i, 1);
      y(i, v);
    }
  }
  if (noiseC !== noise) at.copy_(noise, noiseC);
  if (tmp !== output) at.copy_(output, tmp);
  return output;
}

export function rreluWithNoise(
  _ks: DispatchKeySet,
  self: Tensor,
  noise: Tensor,
  lower: Num = 0.125,
  upper: Num = 1 / 3,
  training = false,
  generator: Generator | null = null,
): Tensor {
  return rreluWithNoiseInto(self, noise, lower, upper, training, generator, null);
}

export function rreluWithNoise_(
  _ks: DispatchKeySet,
  self: Tensor,
  noise: Tensor,
  lower: Num = 0.125,
  upper: Num = 1 / 3,
  training = false,
  generator: Generator | null = null,
): Tensor {
  rreluWithNoiseInto(self, noise, lower, upper, training, generator, self);
  return self;
}

/** `rrelu_with_noise_backward`: the kept slopes times the gradient in training (when upper - lower > 1e-6), else leaky_relu_backward. */
export function rreluWithNoiseBackward(
  _ks: DispatchKeySet,
  grad: Tensor,
  selfOrResult: Tensor,
  noise: Tensor,
  lower: Num,
  upper: Num,
  training: boolean,
  isResult: boolean,
): Tensor {
  const l = Number(lower);
  const u = Number(upper);
  if (training && u - l > 1e-6) return at.mul_Tensor(grad, noise);
  return at.leaky_relu_backward(grad, selfOrResult, (l + u) / 2, isResult);
}
