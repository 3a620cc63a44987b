// `Tensor.data`: the property of torch.Tensor defined in torch/csrc/autograd/python_variable.cpp
// (THPVariable_get_data: `variable_data()`, THPVariable_set_data: `set_data`). Installed on the prototype by
// the public entry point (src/api/torch.ts), as installTensorIndexing is.

import { scalarTypeToString } from '../c10/ScalarType.js';
import { Tensor } from '../tensor/Tensor.js';
import { typeName } from './python_arg_parser.js';

// Note [Tensor.data shares the version counter]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's `x.data` is a shallow copy of x without autograd metadata (not a dispatched operation: a dispatch
// mode does not see it) and with a version counter of its own, so an in-place change through `x.data` is
// invisible to autograd. aten-ts keeps the version counter on the storage (Storage.version), which `x.data`
// shares: such a change bumps x's version too, and a backward that saved x reports the in-place modification
// where PyTorch would silently use the new values. Everything else (shared memory, no history,
// `requires_grad` false, a leaf) is PyTorch's.

/** Installs `data` (getter and setter) on Tensor.prototype. See Note [Tensor.data shares the version counter]. */
export function installVariableData(proto: Tensor): void {
  Object.defineProperty(proto, 'data', {
    get(this: Tensor): Tensor {
      return new Tensor(this.storage, this.scalarType, [...this.sizes], [...this.strides], this.storageOffset, this.keySet);
    },
    set(this: Tensor, value: unknown) {
      if (!(value instanceof Tensor)) throw new TypeError(`Variable data has to be a tensor, but got ${typeName(value)}`);
      if (String(value.device) !== String(this.device) || value.scalarType !== this.scalarType) {
        // PyTorch also lets `x.data = y` change x's dtype; aten-ts's dtype and device are fixed at creation.
        throw new Error(
          `aten-ts: x.data = y needs y of x's dtype and device (x is ${scalarTypeToString(this.scalarType)} on ${String(this.device)}, ` +
            `y is ${scalarTypeToString(value.scalarType)} on ${String(value.device)}); use x = y or x.data.copy_(y)`,
        );
      }
      this.storage = value.storage;
      this.setSizesAndStrides([...value.sizes], [...value.strides], value.storageOffset);
    },
    configurable: true,
  });
}
