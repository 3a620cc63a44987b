// The default floating dtype (torch.set_default_dtype / get_default_dtype).
import { ScalarType, isFloatingType, scalarTypeToString } from '../c10/ScalarType.js';

let defaultDtype: ScalarType = ScalarType.Float;

/** `torch.get_default_dtype()`: the floating-point dtype of new tensors (float32 unless changed). */
export function getDefaultDtype(): ScalarType {
  return defaultDtype;
}

/** `torch.set_default_dtype`: float32, float64, float16 or bfloat16. */
export function setDefaultDtype(dtype: ScalarType): void {
  if (!isFloatingType(dtype)) {
    throw new TypeError(`only floating-point types are supported as the default type, got ${scalarTypeToString(dtype)}`);
  }
  defaultDtype = dtype;
}

/** The complex dtype that goes with the default float dtype (complex64 for float32). */
export function getDefaultComplexDtype(): ScalarType {
  return defaultDtype === ScalarType.Double ? ScalarType.ComplexDouble : ScalarType.ComplexFloat;
}
