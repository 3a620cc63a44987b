// dropout (a Bernoulli mask scaled by 1 / (1 - p) in training). Mirrors aten/src/ATen/native/Dropout.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType } from '../c10/ScalarType.js';
import { type Generator, bernoulliFill } from '../random/index.js';
import type { Tensor } from '../tensor/Tensor.js';
import { writeElement } from '../tensor/elements.js';
import { emptyLike, storedElements } from './StorageAccess.js';
import * as at from '../generated/TensorBody.js';
import { wrapScalar } from '../tensor/ScalarOps.js';

/**
 * `dropout(input, p, train)`, CompositeImplicitAutograd as in PyTorch's CPU path (`_dropout_impl`): a noise
 * tensor of Bernoulli(1 - p) draws scaled by 1 / (1 - p), multiplied in through the dispatcher, so autograd
 * records the multiplication (`grad_fn=<MulBackward0>`) and its gradient is the same noise.
 */
export function dropout(_ks: DispatchKeySet, input: Tensor, p: number, train: boolean, generator: Generator | null = null): Tensor {
  if (!(p >= 0 && p <= 1)) throw new Error(`dropout probability has to be between 0 and 1, but got ${p}`);
  if (!train || p === 0) return input;
  // A device whose memory the host cannot write (an out-of-tree backend: the webgpu device) draws its noise with
  // its own bernoulli_, as PyTorch's `_dropout_impl` does off the CPU's fused path.
  if (!input.isMeta() && input.storage.deviceContext !== null) return dropoutImpl(input, p, train, false, false, false);
  const n = input.numel();
  const noise = emptyLike(input, [...input.sizes]);
  if (!noise.isMeta()) {
    // The draws first (a JS array of the generator's), then the noise written in place in the input's dtype.
    const mask = p === 1 ? null : bernoulliFill(generator, new Float32Array(n), 1 - p);
    const scale = 1 / (1 - p);
    const y = storedElements(noise);
    for (let i = 0; i < n; i++)
      writeElement(noise.scalarType, y.data, y.base + i * y.lanes, mask === null ? 0 : (mask[i] as number) * scale);
  }
  return at.mul_Tensor(input, noise);
}

// ---- feature_dropout, alpha_dropout, feature_alpha_dropout and their in-place forms: `_dropout_impl` of
// Dropout.cpp, CompositeImplicitAutograd, every step a dispatched operator as in PyTorch (so the noise is
// bernoulli_'s draws for the generator's state, and autograd records the multiplication).

/** SELU's alpha times its scale: alpha dropout keeps the mean and variance of SELU's output. */
const ALPHA = 1.7580993408473766;

/** `make_feature_noise`: one draw per (batch, channel), broadcast over the remaining dims. */
function featureNoise(input: Tensor): Tensor {
  if (input.dim() < 2) throw new Error('Feature dropout requires at least 2 dimensions in the input');
  const sizes = input.sizes.map((s, i) => (i < 2 ? s : 1));
  // input.new_empty(sizes) in PyTorch (not differentiable); empty with the input's options is the same tensor
  return at.empty_memory_format(sizes, input.scalarType, null, input.device);
}

function dropoutImpl(input: Tensor, p: number, train: boolean, feature: boolean, alpha: boolean, inplace: boolean): Tensor {
  if (!(p >= 0 && p <= 1)) throw new Error(`dropout probability has to be between 0 and 1, but got ${p}`);
  if (p === 0 || !train || input.numel() === 0) return input;
  const multiply = (a: Tensor, b: Tensor): Tensor => (inplace ? at.mul__Tensor(a, b) : at.mul_Tensor(a, b));
  if (p === 1) return multiply(input, at.zeros([], input.scalarType, null, input.device));
  const noise = feature ? featureNoise(input) : at.empty_like(input);
  at.bernoulli__float(noise, 1 - p);
  if (!alpha) {
    at.div__Tensor(noise, wrapScalar(1 - p));
    return multiply(input, noise);
  }
  const a = 1 / Math.sqrt((ALPHA * ALPHA * p + 1) * (1 - p));
  const b = at.add__Tensor(at.mul__Tensor(at.add_Tensor(noise, wrapScalar(-1)), wrapScalar(ALPHA * a)), wrapScalar(ALPHA * a * p));
  at.mul__Tensor(noise, wrapScalar(a));
  return at.add__Tensor(multiply(input, noise), b);
}

/** `feature_dropout(input, p, train)`: whole channels zeroed (F.dropout1d/2d/3d). */
export function featureDropout(_ks: DispatchKeySet, input: Tensor, p: number, train: boolean): Tensor {
  return dropoutImpl(input, p, train, true, false, false);
}
export function featureDropout_(_ks: DispatchKeySet, self: Tensor, p: number, train: boolean): Tensor {
  return dropoutImpl(self, p, train, true, false, true);
}
/** `alpha_dropout(input, p, train)`: dropped elements set to SELU's negative saturation, then an affine correction. */
export function alphaDropout(_ks: DispatchKeySet, input: Tensor, p: number, train: boolean): Tensor {
  return dropoutImpl(input, p, train, false, true, false);
}
export function alphaDropout_(_ks: DispatchKeySet, self: Tensor, p: number, train: boolean): Tensor {
  return dropoutImpl(self, p, train, false, true, true);
}
/** `feature_alpha_dropout(input, p, train)`: alpha dropout of whole channels. */
export function featureAlphaDropout(_ks: DispatchKeySet, input: Tensor, p: number, train: boolean): Tensor {
  return dropoutImpl(input, p, train, true, true, false);
}
export function featureAlphaDropout_(_ks: DispatchKeySet, self: Tensor, p: number, train: boolean): Tensor {
  return dropoutImpl(self, p, train, true, true, true);
}

/** `native_dropout_backward(grad_output, mask, scale)` (Dropout.cpp): `grad_output * mask * scale`. */
export function nativeDropoutBackward(_ks: DispatchKeySet, gradOutput: Tensor, mask: Tensor, scale: number): Tensor {
  return at.mul_Tensor(at.mul_Tensor(gradOutput, mask), wrapScalar(scale, ScalarType.Double)); // a float, even when integral
}
