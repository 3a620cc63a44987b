// Activation functions that are not structured unary ops: relu (functional and in-place, as PyTorch) and
// gelu (with `approximate`). Mirrors aten/src/ATen/native/Activation.cpp and native/cpu/Activation.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isFloatingType, notImplementedForDtype } from '../c10/ScalarType.js';
import { TensorIterator, cpuKernel } from '../iter/index.js';
import type { Tensor } from '../tensor/Tensor.js';
import { GELU_BETA, GELU_KAPPA, SPECS, SQRT1_2, build, erfDouble, rounderFor, runLoop } from './UnaryOps.js';

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
