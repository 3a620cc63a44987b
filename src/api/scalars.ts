// JavaScript numbers where PyTorch takes Python numbers: wrapped-number tensors and dtype inference.

import { Device, DeviceType } from '../c10/Device.js';
import { ScalarType } from '../c10/ScalarType.js';
import { Storage, cpuAllocator } from '../tensor/Storage.js';
import { Tensor } from '../tensor/Tensor.js';
import { toStored } from '../tensor/elements.js';

// Note [JavaScript numbers as Python scalars]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Python tells `2` from `2.0`; JavaScript has one number type. aten-ts treats an integral-valued number as a
// Python int and any other number as a Python float, so `torch.tensor([1, 2])` is int64 (as in PyTorch) and
// `torch.tensor([1.5, 2])` is float32, but `torch.tensor([1.0, 2.0])` is also int64 — pass `{ dtype }` when
// floats that happen to be integral are meant. The same rule decides how a number operand promotes:
// `int_tensor.add(2.5)` is float32, `int_tensor.add(2.0)` stays an integer tensor.

/** The ScalarType PyTorch gives a Python scalar of this value: bool, int64 or float64 (wrapped numbers). */
export function scalarTypeOfNumber(v: number | boolean): ScalarType {
  if (typeof v === 'boolean') return ScalarType.Bool;
  // -0 cannot come from an integer literal: it is a float, as in `torch.tensor([-0.0])`.
  return Number.isInteger(v) && !Object.is(v, -0) ? ScalarType.Long : ScalarType.Double;
}

const CPU = new Device(DeviceType.CPU);

/** `scalar_to_tensor` + `set_wrapped_number`: the 0-dim tensor PyTorch makes of a number passed as a Tensor. */
export function wrapScalar(v: number | boolean): Tensor {
  const dtype = scalarTypeOfNumber(v);
  const t = new Tensor(new Storage(8, cpuAllocator), dtype, [], [], 0);
  const { data, base } = t.dataView();
  data[base] = toStored(dtype, Number(v));
  t.isWrappedNumber = true;
  return t;
}

/** A Tensor argument given as a tensor or a number. */
export function asTensor(v: Tensor | number | boolean): Tensor {
  return v instanceof Tensor ? v : wrapScalar(v);
}

export { CPU as cpuDevice };
