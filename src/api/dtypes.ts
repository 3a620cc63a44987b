// torch's dtype objects by name (torch.float32, torch.long, ...) and the default-dtype functions: the Python-side
// names of torch/__init__.py and torch/csrc/utils/tensor_dtypes.cpp, over the interned objects of c10/Dtype.ts.
import { Dtype, toScalarType, type DtypeLike } from '../c10/Dtype.js';
import { ScalarType } from '../c10/ScalarType.js';
import { getDefaultDtype, setDefaultDtype } from '../tensor/defaults.js';
// dtype constants, as torch.float32 etc.: the interned torch.dtype objects (See Note [dtype objects over the ScalarType number]).
/** `torch.dtype`: the class of `torch.float32` etc. (`x.dtype instanceof torch.dtype`). */
export { Dtype as dtype };
/** The dtype `torch.bool`. */
export const bool = Dtype.of(ScalarType.Bool);
/** The dtype `torch.uint8` (Byte). */
export const uint8 = Dtype.of(ScalarType.Byte);
/** The dtype `torch.int8` (Char). */
export const int8 = Dtype.of(ScalarType.Char);
/** The dtype `torch.int16` (Short). */
export const int16 = Dtype.of(ScalarType.Short);
/** The dtype `torch.int32` (Int). */
export const int32 = Dtype.of(ScalarType.Int);
/** The dtype `torch.int64` (Long). */
export const int64 = Dtype.of(ScalarType.Long);
/** The dtype `torch.float16` (Half). */
export const float16 = Dtype.of(ScalarType.Half);
/** The dtype `torch.bfloat16`. */
export const bfloat16 = Dtype.of(ScalarType.BFloat16);
/** The dtype `torch.float32` (Float). */
export const float32 = Dtype.of(ScalarType.Float);
/** The dtype `torch.float64` (Double). */
export const float64 = Dtype.of(ScalarType.Double);
/** The dtype `torch.complex32` (ComplexHalf). */
export const complex32 = Dtype.of(ScalarType.ComplexHalf);
/** The dtype `torch.complex64` (ComplexFloat). */
export const complex64 = Dtype.of(ScalarType.ComplexFloat);
/** The dtype `torch.complex128` (ComplexDouble). */
export const complex128 = Dtype.of(ScalarType.ComplexDouble);
/** The quantized dtype `torch.qint8` (no kernels; a name and attributes, as `torch.dtype` has them). */
export const qint8 = Dtype.of(ScalarType.QInt8);
/** The quantized dtype `torch.quint8`. */
export const quint8 = Dtype.of(ScalarType.QUInt8);
/** The quantized dtype `torch.qint32`. */
export const qint32 = Dtype.of(ScalarType.QInt32);
/** The quantized dtype `torch.quint4x2`. */
export const quint4x2 = Dtype.of(ScalarType.QUInt4x2);
/** The quantized dtype `torch.quint2x4`. */
export const quint2x4 = Dtype.of(ScalarType.QUInt2x4);
/** `torch.half`: the same dtype as `torch.float16`. */
export const half = float16;
/** `torch.float`: the same dtype as `torch.float32`. */
export const float = float32;
/** `torch.double`: the same dtype as `torch.float64`. */
export const double = float64;
/** `torch.long`: the same dtype as `torch.int64`. */
export const long = int64;
/** `torch.int`: the same dtype as `torch.int32`. */
export const int = int32;
/** `torch.short`: the same dtype as `torch.int16`. */
export const short = int16;
/** `torch.chalf`: the same dtype as `torch.complex32`. */
export const chalf = complex32;
/** `torch.cfloat`: the same dtype as `torch.complex64`. */
export const cfloat = complex64;
/** `torch.cdouble`: the same dtype as `torch.complex128`. */
export const cdouble = complex128;

/** `torch.get_default_dtype()`: the floating-point dtype of new tensors, `torch.float32` unless changed. */
export function get_default_dtype(): Dtype {
  return Dtype.of(getDefaultDtype());
}

/** `torch.set_default_dtype(d)`: float32, float64, float16 or bfloat16, as a dtype, its name or its ScalarType. */
export function set_default_dtype(d: DtypeLike): void {
  setDefaultDtype(toScalarType(d));
}
