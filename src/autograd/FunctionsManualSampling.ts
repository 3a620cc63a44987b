// Gradients of the sampling operators whose backward computes several inputs' gradients in one call:
// grid_sampler_2d / grid_sampler_3d (input and grid from grid_sampler_{2,3}d_backward). Mirrors their
// entries of tools/autograd/derivatives.yaml (`input, grid: grid_sampler_2d_backward(...)`); see
// Note [One backward call for three gradients] in FunctionsManualNn.ts for the per-grad cache.

import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';

const cache = new WeakMap<Tensor, { key: Tensor; grads: Tensor[] }>();

function cached(grad: Tensor, key: Tensor, compute: () => Tensor[]): Tensor[] {
  const hit = cache.get(grad);
  if (hit !== undefined && hit.key === key) return hit.grads;
  const grads = compute();
  cache.set(grad, { key, grads });
  return grads;
}

/**
 * grid_sampler_{2,3}d's gradient number `which` (0 input, 1 grid): one grid_sampler_{2,3}d_backward call per
 * upstream gradient. See Note [One backward call for three gradients].
 */
export function gridSamplerBackwardOf(
  which: 0 | 1,
  spatial: 2 | 3,
  grad: Tensor,
  input: Tensor,
  grid: Tensor,
  interpolationMode: number,
  paddingMode: number,
  alignCorners: boolean,
): Tensor {
  const op = spatial === 2 ? aten().grid_sampler_2d_backward : aten().grid_sampler_3d_backward;
  const grads = cached(grad, grid, () => op.call(grad, input, grid, interpolationMode, paddingMode, alignCorners, [true, true]));
  return grads[which] as Tensor;
}
