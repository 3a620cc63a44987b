// `not_implemented(name)` of torch/csrc/autograd/FunctionsManual.cpp: the formula of an operator whose
// backward PyTorch declares but does not implement (`_unique2`, `unique_dim`). The node exists, so grad_fn
// names match PyTorch (Unique2Backward0), and running it raises PyTorch's text.

import type { Tensor } from '../tensor/Tensor.js';

/** Raises "the derivative for 'name' is not implemented." when a backward reaches it. */
export function notImplemented(name: string): Tensor {
  throw new Error(`the derivative for '${name}' is not implemented.`);
}
