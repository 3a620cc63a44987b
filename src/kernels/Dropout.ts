// dropout (a Bernoulli mask scaled by 1 / (1 - p) in training). Mirrors aten/src/ATen/native/Dropout.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { type Generator, bernoulliFill } from '../random/index.js';
import type { Tensor } from '../tensor/Tensor.js';
import { tensorFromValues } from './rowMajor.js';

/**
 * `dropout(input, p, train)`: in training, zeroes each element with probability p (a bernoulli(1 - p) mask
 * from the generator, as PyTorch draws it) and scales the rest by 1 / (1 - p); identity otherwise.
 */
/**
 * `dropout(input, p, train)`, CompositeImplicitAutograd as in PyTorch's CPU path (`_dropout_impl`): a noise
 * tensor of Bernoulli(1 - p) draws scaled by 1 / (1 - p), multiplied in through the dispatcher, so autograd
 * records the multiplication (`grad_fn=<MulBackward0>`) and its gradient is the same noise.
 */
export function dropout(_ks: DispatchKeySet, input: Tensor, p: number, train: boolean, generator: Generator | null = null): Tensor {
  if (!(p >= 0 && p <= 1)) throw new Error(`dropout probability has to be between 0 and 1, but got ${p}`);
  if (!train || p === 0) return input;
  const n = input.numel;
  let noise: Tensor;
  if (input.isMeta()) noise = tensorFromValues(input, [...input.sizes], input.dtype, []);
  else if (p === 1) noise = tensorFromValues(input, [...input.sizes], input.dtype, new Float64Array(n));
  else {
    const mask = bernoulliFill(generator, new Float32Array(n), 1 - p);
    const scale = 1 / (1 - p);
    const values = new Float64Array(n);
    for (let i = 0; i < n; i++) values[i] = (mask[i] as number) * scale;
    noise = tensorFromValues(input, [...input.sizes], input.dtype, values);
  }
  return input.mul(noise);
}
