// torch.dtype: the Python object a tensor's `dtype` is, wrapping the ScalarType enum. Mirrors
// torch/csrc/Dtype.h and torch/csrc/Dtype.cpp (THPDtype: one interned object per ScalarType, `is_floating_point`,
// `is_complex`, `is_signed`, `itemsize`, `to_real()`, `to_complex()`, repr `torch.float32`) and
// torch/csrc/utils/tensor_dtypes.cpp (the `torch.float32` / `torch.float` names and aliases).

import {
  ALL_SCALAR_TYPES,
  ScalarType,
  dtypeName,
  elementSize,
  isComplexType,
  isFloatingType,
  isQIntType,
  isSignedType,
  parseScalarType,
  toComplexType,
  toRealValueType,
} from './ScalarType.js';

// Note [dtype objects over the ScalarType number]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// As in PyTorch, C++ (here: TensorImpl, the kernels, TensorIterator, the dispatcher) keeps the ScalarType
// enum, read as a plain number on every hot path (`impl.scalarType`, PyTorch's `scalar_type()`), and only the
// Python surface hands out `torch.dtype` objects (THPDtype). There is exactly one frozen Dtype per
// ScalarType, created here at load time, so `x.dtype === torch.float32` holds and `Dtype.of(t)` is an array
// read. Every API that takes a dtype converts at its boundary with `toScalarType` (a Dtype, a name such as
// 'float32' / 'torch.float32' / 'long', or, for compatibility, the ScalarType number).

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/** `torch.dtype`: one interned, frozen object per ScalarType; `String(torch.float32)` is `'torch.float32'`. */
export class Dtype {
  /** The ScalarType enum value this dtype wraps (C++'s `scalar_type()`). */
  readonly scalarType: ScalarType;
  /** The Python name without `torch.`: `float32`, `int64`, `bool`. */
  readonly name: string;

  private constructor(t: ScalarType) {
    this.scalarType = t;
    this.name = dtypeName(t);
  }

  /** The interned dtype of a ScalarType (See Note [dtype objects over the ScalarType number]). */
  static of(t: ScalarType): Dtype {
    const d = INTERNED[t];
    if (d === undefined) throw new RangeError(`unknown ScalarType value ${String(t)}; expected 0..${INTERNED.length - 1}`);
    return d;
  }

  /** `dtype.itemsize`: bytes per element. */
  get itemsize(): number {
    return elementSize(this.scalarType);
  }

  /** `dtype.is_floating_point`: float16, bfloat16, float32, float64. */
  get is_floating_point(): boolean {
    return isFloatingType(this.scalarType);
  }

  /** `dtype.is_complex`: complex32, complex64, complex128. */
  get is_complex(): boolean {
    return isComplexType(this.scalarType);
  }

  /** `dtype.is_signed`: false for bool and uint8; PyTorch's error for the quantized dtypes. */
  get is_signed(): boolean {
    if (isQIntType(this.scalarType)) throw new Error('isSignedType not supported for quantized types');
    return isSignedType(this.scalarType);
  }

  /** `dtype.to_real()`: the real dtype of a complex dtype (`complex64` → `float32`); other dtypes map to themselves. */
  to_real(): Dtype {
    return Dtype.of(toRealValueType(this.scalarType));
  }

  /** `dtype.to_complex()`: the complex dtype of a floating dtype (`float32` → `complex64`); PyTorch's error for the others. */
  to_complex(): Dtype {
    return Dtype.of(toComplexType(this.scalarType));
  }

  /** `str(dtype)` / `repr(dtype)`: `torch.float32`. */
  toString(): string {
    return `torch.${this.name}`;
  }

  /** JSON form: the same string as `String(dtype)`. */
  toJSON(): string {
    return this.toString();
  }

  /** Node's util.inspect (console.log) form: `torch.float32`. */
  [INSPECT](): string {
    return this.toString();
  }
}

const INTERNED: readonly Dtype[] = ALL_SCALAR_TYPES.map((t) => Object.freeze(new (Dtype as unknown as new (t: ScalarType) => Dtype)(t)));
Object.freeze(Dtype.prototype);

/** A dtype argument: a `torch.dtype`, its name (`'float32'`, `'torch.float32'`, `'long'`) or the ScalarType number. */
export type DtypeLike = Dtype | ScalarType | string;

/** True if `v` is a dtype argument: a Dtype, a dtype name, or a ScalarType number. */
export function isDtypeLike(v: unknown): v is DtypeLike {
  return v instanceof Dtype || typeof v === 'string' || (typeof v === 'number' && INTERNED[v] !== undefined);
}

/**
 * The ScalarType of a dtype argument (See Note [dtype objects over the ScalarType number]). Throws naming the
 * bad value for an unknown name, number or type.
 */
export function toScalarType(v: DtypeLike): ScalarType {
  if (v instanceof Dtype) return v.scalarType;
  if (typeof v === 'string') return parseScalarType(v);
  if (typeof v === 'number' && INTERNED[v] !== undefined) return v;
  throw new TypeError(
    `expected a dtype (torch.dtype, a dtype name such as 'float32', or a ScalarType), but got ${typeof v === 'number' ? String(v) : typeof v}`,
  );
}

/** The interned `torch.dtype` of a dtype argument. */
export function toDtype(v: DtypeLike): Dtype {
  return Dtype.of(toScalarType(v));
}
