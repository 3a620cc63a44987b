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

// Note [Messages from the integral-number rule]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The rule above makes `torch.tensor([1.0, 2.0])` int64, where a JavaScript user often meant floats, and the
// first sign of it is an error about an integer tensor (`requires_grad`: "Only Tensors of floating point and
// complex dtype can require gradients"; `mean()`: "could not infer output dtype"; an in-place float result
// that "can't be cast to the desired output type Long"). Those messages keep PyTorch's text and add how to ask
// for a float tensor — when the int64 came from the rule: the factories that infer a dtype from JavaScript
// numbers (`torch.tensor`, `torch.arange`) mark the storage they create, so every view of it is recognised and
// an int64 tensor the caller asked for by dtype gets PyTorch's text alone.

const INFERRED_INT64 = new WeakSet<object>();

/** Marks storage whose int64 dtype was inferred from integral JavaScript numbers (Note [Messages from the integral-number rule]). */
export function markInt64FromNumbers(t: { readonly storage: object }): void {
  INFERRED_INT64.add(t.storage);
}

/** The hint PyTorch's text gets for a tensor made int64 by the integral-number rule; '' for any other. */
export function int64Hint(t: { readonly storage: object; readonly scalarType: ScalarType }): string {
  return t.scalarType === ScalarType.Long && INFERRED_INT64.has(t.storage) ? INT64_HINT : '';
}

/** What int64Hint adds (exported for tests that compare the PyTorch part of a message). */
export const INT64_HINT =
  ' (this int64 tensor was made from integral JavaScript numbers, which act as Python ints: ask for a float tensor ' +
  'with { dtype: torch.float32 }, e.g. torch.tensor([1, 2], { dtype: torch.float32 }), or convert with x.float())';
