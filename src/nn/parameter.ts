// nn.Parameter: a Tensor that modules register as a parameter when it is assigned to one of their
// attributes. Mirrors torch/nn/parameter.py.

import { Tensor } from '../tensor/Tensor.js';
import * as torch from '../api/torch.js';

/**
 * `nn.Parameter(data, requires_grad=True)`: shares `data`'s storage (as `data.detach()` does) and requires
 * grad. Operations on it give plain Tensors, as in PyTorch.
 *
 * @example
 * const p = new nn.Parameter(torch.zeros(2)); // Parameter containing:\ntensor([0., 0.], requires_grad=True)
 */
export class Parameter extends Tensor {
  constructor(data?: Tensor | null, requires_grad = true) {
    const d = data ?? torch.empty(0);
    super(d.storage, d.scalarType, [...d.sizes], [...d.strides], d.storageOffset, d.keySet);
    if (requires_grad) this.requiresGrad_(true);
  }

  /** `repr(param)`: "Parameter containing:\n" then the tensor's repr. */
  override toString(): string {
    return `Parameter containing:\n${super.toString()}`;
  }
}

/** `isinstance(v, nn.Parameter)`. */
export function isParameter(v: unknown): v is Parameter {
  return v instanceof Parameter;
}
