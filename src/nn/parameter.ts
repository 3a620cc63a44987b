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

  /** This parameter's class around other data (`Module._apply` converting it keeps the class). */
  _rewrap(data: Tensor): Parameter {
    return new Parameter(data, this.requiresGrad);
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

/**
 * `nn.UninitializedParameter(requires_grad=True, device=None, dtype=None)`: a parameter whose shape is not known
 * yet (a lazy module's, torch/nn/modules/lazy.py); its dtype and device follow `to()`. See Note [Materialising
 * a lazy parameter].
 */
export class UninitializedParameter extends Parameter {
  constructor(requires_grad = true, device: torch.TensorOptions['device'] = null, dtype: torch.TensorOptions['dtype'] = null) {
    super(torch.empty(0, { device, dtype }), requires_grad);
  }

  override _rewrap(data: Tensor): Parameter {
    return new UninitializedParameter(this.requiresGrad, data.device, data.dtype);
  }

  // Note [Materialising a lazy parameter]
  // ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
  // PyTorch's `materialize(shape)` gives the UninitializedParameter new data in place and turns its class
  // into Parameter. A Tensor here cannot change its shape in place, so `materialize` returns the new
  // Parameter (uninitialised memory of the shape, this one's dtype and device) and the lazy module assigns it
  // over the old one.
  /** `materialize(shape)`: a Parameter of `shape` with this one's dtype, device and requires_grad. */
  materialize(shape: readonly number[]): Parameter {
    return new Parameter(torch.empty([...shape], { device: this.device, dtype: this.dtype }), this.requiresGrad);
  }

  /** `repr`: PyTorch prints `<UninitializedParameter>`. */
  override toString(): string {
    return '<UninitializedParameter>';
  }
}
