// dropout (a Bernoulli mask scaled by 1 / (1 - p) in training). Mirrors aten/src/ATen/native/Dropout.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { type Generator, bernoulliFill } from '../random/index.js';
import type { Tensor } from '../tensor/Tensor.js';
import { writeElement } from '../tensor/elements.js';
import { emptyLike, storedElements } from './StorageAccess.js';
import * as at from '../generated/TensorBody.js';

/**
 * `dropout(input, p, train)`, CompositeImplicitAutograd as in PyTorch's CPU path (`_dropout_impl`): a noise
 * tensor of Bernoulli(1 - p) draws scaled by 1 / (1 - p), multiplied in through the dispatcher, so autograd
 * records the multiplication (`grad_fn=<MulBackward0>`) and its gradient is the same noise.
 */
export function dropout(_ks: DispatchKeySet, input: Tensor, p: number, train: boolean, generator: Generator | null = null): Tensor {
  if (!(p >= 0 && p <= 1)) throw new Error(`dropout probability has to be between 0 and 1, but got ${p}`);
  if (!train || p === 0) return input;
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
