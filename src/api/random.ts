// `torch.get_rng_state()` / `torch.set_rng_state(state)`: the default CPU generator's state as a uint8 tensor
// (a torch.ByteTensor). Mirrors torch/random.py. The bytes are PyTorch's CPUGeneratorImplState layout (5056 bytes,
// Note [Generator state bytes] in src/random/Generator.ts), so a state saved by PyTorch loads here and back.

import { ScalarType } from '../c10/ScalarType.js';
import { defaultGenerator } from '../random/index.js';
import { Tensor } from '../tensor/Tensor.js';
import { from } from './tensor_new.js';

/**
 * `torch.get_rng_state()`: the default generator's state, a new uint8 tensor of 5056 bytes.
 *
 * @example
 * const s = torch.get_rng_state();
 * const a = torch.rand(3);
 * torch.set_rng_state(s);
 * torch.rand(3); // equals a
 */
export function get_rng_state(): Tensor {
  return from(defaultGenerator().getState());
}

/**
 * `torch.set_rng_state(new_state)`: restores the default generator from a uint8 tensor that `get_rng_state`
 * (or PyTorch's) returned. PyTorch's errors: `RNG state must be a torch.ByteTensor` (TypeError) and
 * `Expected a CPUGeneratorImplState of size 5056 but found the input RNG state size to be <n>`.
 */
export function set_rng_state(new_state: Tensor): void {
  if (!(new_state instanceof Tensor) || new_state.scalarType !== ScalarType.Byte) {
    throw new TypeError('RNG state must be a torch.ByteTensor');
  }
  const bytes = new_state.detach().contiguous().numpy() as Uint8Array;
  defaultGenerator().setState(bytes);
}

/** camelCase aliases of the RNG-state functions. */
export { get_rng_state as getRngState, set_rng_state as setRngState };
