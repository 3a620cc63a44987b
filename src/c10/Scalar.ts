// JavaScript numbers where PyTorch takes Python numbers: the dtype a number stands for. Mirrors
// c10/core/Scalar.h (`Scalar::type()`: a Python bool, int or float is a Bool, Long or Double scalar).

import { ScalarType } from './ScalarType.js';

// Note [JavaScript numbers as Python scalars]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Python tells `2` from `2.0`; JavaScript has one number type. aten-ts treats an integral-valued number as a
// Python int and any other number as a Python float, so `torch.tensor([1, 2])` is int64 (as in PyTorch) and
// `torch.tensor([1.5, 2])` is float32, but `torch.tensor([1.0, 2.0])` is also int64 — pass `{ dtype }` when
// floats that happen to be integral are meant. The same rule decides how a number operand promotes:
// `int_tensor.add(2.5)` is float32, `int_tensor.add(2.0)` stays an integer tensor. `-0` is the one integral
// value a Python int cannot hold (Python's `-0` is `0`): only a float has a sign on zero, so `-0` is a float
// (`torch.tensor([-0.0])`, and `int_tensor.add(-0)` is float32), everywhere a number stands for a scalar.

/** The ScalarType PyTorch gives a Python scalar of this value: bool, int64 or float64 (wrapped numbers). */
export function scalarTypeOfNumber(v: number | boolean): ScalarType {
  if (typeof v === 'boolean') return ScalarType.Bool;
  return Number.isInteger(v) && !Object.is(v, -0) ? ScalarType.Long : ScalarType.Double;
}
