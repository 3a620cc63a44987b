// `torch.is_floating_point`, `torch.is_complex` and `torch.numel`: the tensor predicates PyTorch binds by hand
// in torch/csrc/autograd/python_torch_functions_manual.cpp, over the Tensor methods of the same names.
import { Tensor } from '../tensor/Tensor.js';
import { typeName } from './python_arg_parser.js';

/** `torch.is_floating_point(input)`: `input.is_floating_point()`. */
export function is_floating_point(input: Tensor): boolean {
  if (!(input instanceof Tensor))
    throw new TypeError(`is_floating_point(): argument 'input' (position 1) must be Tensor, not ${typeName(input)}`);
  return input.is_floating_point();
}

/** `torch.is_complex(input)`: `input.is_complex()`. */
export function is_complex(input: Tensor): boolean {
  if (!(input instanceof Tensor)) throw new TypeError(`is_complex(): argument 'input' (position 1) must be Tensor, not ${typeName(input)}`);
  return input.is_complex();
}

/** `torch.numel(input)`: the number of elements of `input`. */
export function numel(input: Tensor): number {
  return input.numel();
}
