// Type promotion over operands: result_type, ResultTypeState and canCast. Mirrors
// aten/src/ATen/native/TypeProperties.cpp (update_result_type_state, combine_categories, result_type)
// and c10/core/ScalarType.h (canCast).

import { ScalarType, isComplexType, isFloatingType, isIntegralType, promoteTypes, toComplexType } from '../c10/ScalarType.js';
import { scalarTypeOfNumber } from '../c10/Scalar.js';
import { getDefaultComplexDtype, getDefaultDtype } from '../tensor/defaults.js';
import type { TensorImpl } from '../tensor/TensorImpl.js';

// Note [Result type categories]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch promotes in three priority classes: tensors with dimensions, zero-dim tensors, and wrapped
// numbers (Python scalars turned into 0-dim tensors). Each class is promoted on its own with
// promoteTypes; then a lower class can only change the result if it is of a higher *category*
// (bool < integral < floating < complex). So `int8_tensor + 1000` stays int8 (same category, the number
// is weaker), `int_tensor + 2.5` becomes the default float dtype, `float16_tensor * 2.0` stays float16, and
// a 0-dim float64 tensor plus a 1-d float32 tensor is float32. Wrapped floating numbers count as the
// default dtype and wrapped complex numbers as the default complex dtype, whatever dtype holds them.
// `null` plays the part of ScalarType::Undefined (a class with no operands yet).

/** ResultTypeState: the promoted dtype of each priority class so far (`null` = no operand yet). */
export interface ResultTypeState {
  dimResult: ScalarType | null;
  zeroResult: ScalarType | null;
  wrappedResult: ScalarType | null;
}

/** A fresh state with no operands. */
export function emptyResultTypeState(): ResultTypeState {
  return { dimResult: null, zeroResult: null, wrappedResult: null };
}

/** `promote_skip_undefined`: promoteTypes where `null` is the identity. */
export function promoteSkipUndefined(a: ScalarType | null, b: ScalarType | null): ScalarType | null {
  if (a === null) return b;
  if (b === null) return a;
  return promoteTypes(a, b);
}

/** `combine_categories(higher, lower)`: a lower-priority class changes the result only by category. */
function combineCategories(higher: ScalarType | null, lower: ScalarType | null): ScalarType | null {
  if (higher !== null && isComplexType(higher)) return higher;
  if (lower !== null && isComplexType(lower)) {
    // Keep the precision of a floating higher type: float64 tensor + complex number → complex128.
    if (higher !== null && isFloatingType(higher)) return toComplexType(higher);
    return lower;
  }
  if (higher !== null && isFloatingType(higher)) return higher;
  if (higher === ScalarType.Bool || (lower !== null && isFloatingType(lower))) return promoteSkipUndefined(higher, lower);
  if (higher !== null) return higher;
  return lower;
}

/** The dtype of one operand class: `dim` (dim() > 0), `zero` (0-dim tensor) or `wrapped` (a number). */
export type OperandClass = 'dim' | 'zero' | 'wrapped';

/** `update_result_type_state` for an operand given by dtype and class (mutates and returns `state`). */
export function updateResultTypeStateWith(state: ResultTypeState, dtype: ScalarType, cls: OperandClass): ResultTypeState {
  let current = dtype;
  if (cls === 'wrapped') {
    if (isComplexType(current)) current = getDefaultComplexDtype();
    else if (isFloatingType(current)) current = getDefaultDtype();
  }
  if (cls === 'dim') state.dimResult = promoteSkipUndefined(state.dimResult, current);
  else if (cls === 'wrapped') state.wrappedResult = promoteSkipUndefined(state.wrappedResult, current);
  else state.zeroResult = promoteSkipUndefined(state.zeroResult, current);
  return state;
}

/** `update_result_type_state(tensor, state)` (mutates and returns `state`). */
export function updateResultTypeState(state: ResultTypeState, t: TensorImpl): ResultTypeState {
  const cls: OperandClass = t.sizes.length > 0 ? 'dim' : t.isWrappedNumber ? 'wrapped' : 'zero';
  return updateResultTypeStateWith(state, t.scalarType, cls);
}

/** `result_type(state)`; throws if the state has no operands. */
export function resultTypeOfState(state: ResultTypeState): ScalarType {
  const r = combineCategories(state.dimResult, combineCategories(state.zeroResult, state.wrappedResult));
  if (r === null) throw new Error('result_type: expected at least one operand to compute a result type from');
  return r;
}

// The dtype of a number: one rule, c10's (Note [JavaScript numbers as Python scalars] in src/c10/Scalar.ts).
export { scalarTypeOfNumber };

/**
 * `torch.result_type` over any number of operands: tensors (a 0-dim tensor with `isWrappedNumber` counts as
 * a number) and JavaScript numbers/booleans (see scalarTypeOfNumber). See Note [Result type categories].
 */
export function resultType(operands: readonly (TensorImpl | number | boolean)[]): ScalarType {
  const state = emptyResultTypeState();
  for (const op of operands) {
    if (typeof op === 'number' || typeof op === 'boolean') updateResultTypeStateWith(state, scalarTypeOfNumber(op), 'wrapped');
    else updateResultTypeState(state, op);
  }
  return resultTypeOfState(state);
}

/**
 * `canCast(from, to)`: whether type promotion may write a `from` result into a `to` tensor. Disallowed:
 * complex → non-complex, floating → integral, and non-bool → bool (bool is a category of its own).
 */
export function canCast(from: ScalarType, to: ScalarType): boolean {
  if (isComplexType(from) && !isComplexType(to)) return false;
  if (isFloatingType(from) && isIntegralType(to, false)) return false;
  if (from !== ScalarType.Bool && to === ScalarType.Bool) return false;
  return true;
}
