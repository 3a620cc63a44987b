// ScalarType: PyTorch's dtypes with their enum values, item sizes, category predicates and the type
// promotion table. Mirrors c10/core/ScalarType.h and c10/core/ScalarType.cpp (promoteTypes).

/** PyTorch's ScalarType enum; the numeric values are PyTorch's. */
export enum ScalarType {
  Byte = 0,
  Char = 1,
  Short = 2,
  Int = 3,
  Long = 4,
  Half = 5,
  Float = 6,
  Double = 7,
  ComplexHalf = 8,
  ComplexFloat = 9,
  ComplexDouble = 10,
  Bool = 11,
  QInt8 = 12,
  QUInt8 = 13,
  QInt32 = 14,
  BFloat16 = 15,
  QUInt4x2 = 16,
  QUInt2x4 = 17,
}

interface ScalarTypeInfo {
  /** C++ name, as `toString(ScalarType)` prints it: `Float`. */
  readonly name: string;
  /** Python name without the `torch.` prefix: `float32`. */
  readonly dtype: string;
  /** Other Python spellings: `float`, `long`, `cfloat`, ... */
  readonly aliases: readonly string[];
  readonly itemSize: number;
  readonly kind: 'bool' | 'int' | 'uint' | 'float' | 'complex' | 'qint';
}

const INFO: readonly ScalarTypeInfo[] = [
  { name: 'Byte', dtype: 'uint8', aliases: [], itemSize: 1, kind: 'uint' },
  { name: 'Char', dtype: 'int8', aliases: [], itemSize: 1, kind: 'int' },
  { name: 'Short', dtype: 'int16', aliases: ['short'], itemSize: 2, kind: 'int' },
  { name: 'Int', dtype: 'int32', aliases: ['int'], itemSize: 4, kind: 'int' },
  { name: 'Long', dtype: 'int64', aliases: ['long'], itemSize: 8, kind: 'int' },
  { name: 'Half', dtype: 'float16', aliases: ['half'], itemSize: 2, kind: 'float' },
  { name: 'Float', dtype: 'float32', aliases: ['float'], itemSize: 4, kind: 'float' },
  { name: 'Double', dtype: 'float64', aliases: ['double'], itemSize: 8, kind: 'float' },
  { name: 'ComplexHalf', dtype: 'complex32', aliases: ['chalf'], itemSize: 4, kind: 'complex' },
  { name: 'ComplexFloat', dtype: 'complex64', aliases: ['cfloat'], itemSize: 8, kind: 'complex' },
  { name: 'ComplexDouble', dtype: 'complex128', aliases: ['cdouble'], itemSize: 16, kind: 'complex' },
  { name: 'Bool', dtype: 'bool', aliases: [], itemSize: 1, kind: 'bool' },
  { name: 'QInt8', dtype: 'qint8', aliases: [], itemSize: 1, kind: 'qint' },
  { name: 'QUInt8', dtype: 'quint8', aliases: [], itemSize: 1, kind: 'qint' },
  { name: 'QInt32', dtype: 'qint32', aliases: [], itemSize: 4, kind: 'qint' },
  { name: 'BFloat16', dtype: 'bfloat16', aliases: [], itemSize: 2, kind: 'float' },
  { name: 'QUInt4x2', dtype: 'quint4x2', aliases: [], itemSize: 1, kind: 'qint' },
  { name: 'QUInt2x4', dtype: 'quint2x4', aliases: [], itemSize: 1, kind: 'qint' },
];

function info(t: ScalarType): ScalarTypeInfo {
  const i = INFO[t];
  if (i === undefined) throw new RangeError(`unknown ScalarType value ${String(t)}; expected 0..${INFO.length - 1}`);
  return i;
}

/** Every ScalarType, in enum order. */
export const ALL_SCALAR_TYPES: readonly ScalarType[] = INFO.map((_, i) => i as ScalarType);

/** `elementSize(t)`: bytes per element. */
export function elementSize(t: ScalarType): number {
  return info(t).itemSize;
}

/** `toString(ScalarType)` as C++ prints it: `Float`, `Long`, `ComplexFloat`. */
export function scalarTypeToString(t: ScalarType): string {
  return info(t).name;
}

/** The Python dtype name without `torch.`: `float32`, `int64`, `bool`. */
export function dtypeName(t: ScalarType): string {
  return info(t).dtype;
}

export function isFloatingType(t: ScalarType): boolean {
  return info(t).kind === 'float';
}

export function isComplexType(t: ScalarType): boolean {
  return info(t).kind === 'complex';
}

export function isQIntType(t: ScalarType): boolean {
  return info(t).kind === 'qint';
}

/** `isIntegralType(t, includeBool)`. */
export function isIntegralType(t: ScalarType, includeBool: boolean): boolean {
  const k = info(t).kind;
  return k === 'int' || k === 'uint' || (includeBool && k === 'bool');
}

/** `isSignedType(t)`: false for bool and uint8. */
export function isSignedType(t: ScalarType): boolean {
  const k = info(t).kind;
  return k !== 'bool' && k !== 'uint' && t !== ScalarType.QUInt8 && t !== ScalarType.QUInt4x2 && t !== ScalarType.QUInt2x4;
}

/** The real type of a complex type (`ComplexFloat` → `Float`); other types map to themselves. */
export function toRealValueType(t: ScalarType): ScalarType {
  switch (t) {
    case ScalarType.ComplexHalf:
      return ScalarType.Half;
    case ScalarType.ComplexFloat:
      return ScalarType.Float;
    case ScalarType.ComplexDouble:
      return ScalarType.Double;
    default:
      return t;
  }
}

/** The complex type of a floating type (`Float` → `ComplexFloat`). */
export function toComplexType(t: ScalarType): ScalarType {
  switch (t) {
    case ScalarType.Half:
    case ScalarType.ComplexHalf:
      return ScalarType.ComplexHalf;
    case ScalarType.Float:
    case ScalarType.BFloat16:
    case ScalarType.ComplexFloat:
      return ScalarType.ComplexFloat;
    case ScalarType.Double:
    case ScalarType.ComplexDouble:
      return ScalarType.ComplexDouble;
    default:
      throw new Error(`Unknown Complex ScalarType for ${scalarTypeToString(t)}`);
  }
}

// Note [Type promotion table]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's promoteTypes is a 13×13 lookup table over u1 i1 i2 i4 i8 f2 f4 f8 c2 c4 c8 b1 bf16. It is
// written out here in the same order rather than derived from rules, so that every entry can be compared
// one for one with PyTorch's source and with the golden table from `torch.promote_types`. Promotion only
// rises within a category (bool < integral < floating < complex); mixing uint8 and int8 gives int16,
// float16 and bfloat16 give float32, and a complex type with a wider float widens the complex type.
const u1 = ScalarType.Byte;
const i1 = ScalarType.Char;
const i2 = ScalarType.Short;
const i4 = ScalarType.Int;
const i8 = ScalarType.Long;
const f2 = ScalarType.Half;
const f4 = ScalarType.Float;
const f8 = ScalarType.Double;
const c2 = ScalarType.ComplexHalf;
const c4 = ScalarType.ComplexFloat;
const c8 = ScalarType.ComplexDouble;
const b1 = ScalarType.Bool;
const bf = ScalarType.BFloat16;
const PROMOTION_ORDER: readonly ScalarType[] = [u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, b1, bf];
// prettier-ignore
const PROMOTION_TABLE: readonly (readonly ScalarType[])[] = [
  /*        u1  i1  i2  i4  i8  f2  f4  f8  c2  c4  c8  b1  bf */
  /* u1 */ [u1, i2, i2, i4, i8, f2, f4, f8, c2, c4, c8, u1, bf],
  /* i1 */ [i2, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, i1, bf],
  /* i2 */ [i2, i2, i2, i4, i8, f2, f4, f8, c2, c4, c8, i2, bf],
  /* i4 */ [i4, i4, i4, i4, i8, f2, f4, f8, c2, c4, c8, i4, bf],
  /* i8 */ [i8, i8, i8, i8, i8, f2, f4, f8, c2, c4, c8, i8, bf],
  /* f2 */ [f2, f2, f2, f2, f2, f2, f4, f8, c2, c4, c8, f2, f4],
  /* f4 */ [f4, f4, f4, f4, f4, f4, f4, f8, c4, c4, c8, f4, f4],
  /* f8 */ [f8, f8, f8, f8, f8, f8, f8, f8, c8, c8, c8, f8, f8],
  /* c2 */ [c2, c2, c2, c2, c2, c2, c4, c8, c2, c4, c8, c2, c4],
  /* c4 */ [c4, c4, c4, c4, c4, c4, c4, c8, c4, c4, c8, c4, c4],
  /* c8 */ [c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8],
  /* b1 */ [u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, b1, bf],
  /* bf */ [bf, bf, bf, bf, bf, f4, f4, f8, c4, c4, c8, bf, bf],
];
const PROMOTION_INDEX: readonly number[] = (() => {
  const idx = new Array<number>(INFO.length).fill(-1);
  PROMOTION_ORDER.forEach((t, i) => (idx[t] = i));
  return idx;
})();

/** `promoteTypes(a, b)`: the smallest type both promote to, identical to `torch.promote_types`. */
export function promoteTypes(a: ScalarType, b: ScalarType): ScalarType {
  if (a === b) return a;
  if (isQIntType(a) || isQIntType(b)) {
    throw new Error(
      'promoteTypes with quantized numbers is not handled yet; figure out what the correct rules should be, ' +
        `offending types: ${scalarTypeToString(a)} ${scalarTypeToString(b)}`,
    );
  }
  const ia = PROMOTION_INDEX[a] as number;
  const ib = PROMOTION_INDEX[b] as number;
  return (PROMOTION_TABLE[ia] as readonly ScalarType[])[ib] as ScalarType;
}

const BY_NAME: ReadonlyMap<string, ScalarType> = (() => {
  const m = new Map<string, ScalarType>();
  INFO.forEach((i, t) => {
    m.set(i.dtype, t);
    m.set(`torch.${i.dtype}`, t);
    for (const a of i.aliases) {
      m.set(a, t);
      m.set(`torch.${a}`, t);
    }
  });
  return m;
})();

/** True if `name` is a dtype's name or alias (`'float32'`, `'torch.float32'`, `'double'`). */
export function isScalarTypeName(name: string): boolean {
  return BY_NAME.has(name);
}

/**
 * The ScalarType of a Python dtype name: `float32`, `torch.float32`, `float`, `long`, `cfloat`, ...
 * Throws naming the bad string and the valid names.
 */

export function parseScalarType(name: string): ScalarType {
  const t = BY_NAME.get(name);
  if (t === undefined) {
    throw new Error(
      `unknown dtype '${name}'; expected one of ${INFO.map((i) => i.dtype).join(', ')} ` +
        `(optionally prefixed with 'torch.', or an alias such as ${[...new Set(INFO.flatMap((i) => i.aliases))].join(', ')})`,
    );
  }
  return t;
}

/** C++'s name of a dtype's TypeMeta (`float`, `long int`), as the structured `resize_out` check prints it. */
export function typeMetaName(d: ScalarType): string {
  switch (d) {
    case ScalarType.Bool:
      return 'bool';
    case ScalarType.Byte:
      return 'unsigned char';
    case ScalarType.Char:
      return 'signed char';
    case ScalarType.Short:
      return 'short int';
    case ScalarType.Int:
      return 'int';
    case ScalarType.Long:
      return 'long int';
    case ScalarType.Half:
      return 'c10::Half';
    case ScalarType.BFloat16:
      return 'c10::BFloat16';
    case ScalarType.Float:
      return 'float';
    case ScalarType.Double:
      return 'double';
    case ScalarType.ComplexFloat:
      return 'c10::complex<float>';
    case ScalarType.ComplexDouble:
      return 'c10::complex<double>';
    default:
      return scalarTypeToString(d);
  }
}

/** AT_DISPATCH's error for a dtype outside a kernel's list: `"add_cpu" not implemented for 'Bool'`. */
export function notImplementedForDtype(name: string, dtype: ScalarType): Error {
  return new Error(`"${name}" not implemented for '${scalarTypeToString(dtype)}'`);
}
