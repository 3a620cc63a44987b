// unfold_backward of aten/src/ATen/native/UnfoldBackward.cpp: the gradient of `Tensor.unfold` — every window's
// gradient added back at the input positions it was read from (overlapping windows sum).

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import * as at from '../generated/TensorBody.js';
import type { Tensor } from '../tensor/Tensor.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';

/** `unfold_backward(grad_in, input_sizes, dim, size, step)`: zeros of input_sizes with each window added in. */
export function unfoldBackward(_ks: DispatchKeySet, gradIn: Tensor, inputSizes: number[], dim: number, size: number, step: number): Tensor {
  const out = at.zeros([...inputSizes], gradIn.scalarType, null, gradIn.device, null);
  if (out.isMeta() || gradIn.isMeta() || gradIn.numel() === 0) return out;
  if (inputSizes.length === 0) return at.add_Tensor(out, at.reshape(gradIn, []));
  const d = maybeWrapDim(dim, inputSizes.length);
  const windows = gradIn.sizes[d] as number;
  // Windows in increasing order, as UnfoldBackward's kernel visits them for each input element.
  for (let w = 0; w < windows; w++) {
    const window = at.movedim_int(at.select_int(gradIn, d, w), -1, d);
    at.add__Tensor(at.narrow(out, d, w * step, size), window);
  }
  return out;
}
