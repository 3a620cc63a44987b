// The schema type system: a small class hierarchy mirroring c10's jit types as far as the schema
// language can spell them. Every type prints two ways: `str()` is the schema spelling
// (`Tensor?`, `int[]`, `Dict(str, t)`), `annotationStr()` is what Python's `str(type)` shows
// (`Optional[Tensor]`, `List[int]`, `number` for Scalar).

/** c10::TypeKind, in enum order (the order matters: Union members are sorted by it). */
export const TypeKind = {
  AnyType: 0,
  EnumType: 1,
  AnyEnumType: 2,
  TensorType: 3,
  StorageType: 4,
  TupleType: 5,
  ListType: 6,
  DictType: 7,
  NumberType: 8,
  FloatType: 9,
  ComplexType: 10,
  FutureType: 11,
  AwaitType: 12,
  RRefType: 13,
  IntType: 14,
  NoneType: 15,
  StringType: 16,
  GeneratorType: 17,
  QuantizerType: 18,
  BoolType: 19,
  OptionalType: 20,
  VarType: 21,
  DeviceObjType: 22,
  StreamObjType: 23,
  FunctionType: 24,
  ClassType: 25,
  PyObjectType: 26,
  CapsuleType: 27,
  InterfaceType: 28,
  QSchemeType: 29,
  ScalarTypeType: 30,
  LayoutType: 31,
  MemoryFormatType: 32,
  AnyListType: 33,
  AnyTupleType: 34,
  AnyClassType: 35,
  SymIntType: 36,
  SymFloatType: 37,
  SymBoolType: 38,
  UnionType: 39,
  DynamicType: 40,
} as const;
export type TypeKindName = keyof typeof TypeKind;

/** Raised for type constructions PyTorch rejects (e.g. a Union that unifies to one type). */
export class SchemaTypeError extends Error {
  override readonly name = 'SchemaTypeError';
}

/** The type of a schema argument (c10::Type): `Tensor`, `int`, `Scalar?`, `int[2]`, `Tensor(a!)[]`... */
export abstract class SchemaType {
  abstract readonly kind: TypeKindName;
  /** Schema spelling, as c10's Type::str(). */
  abstract str(): string;
  /** Python's str(type) (c10's Type::annotation_str()). */
  abstract annotationStr(): string;
  containedTypes(): readonly SchemaType[] {
    return [];
  }
  /** Structural equality (c10's Type::operator==). */
  abstract equals(other: SchemaType): boolean;
  /** c10's Type::isSubtypeOf, for the types the schema language can express. */
  isSubtypeOf(rhs: SchemaType): boolean {
    return baseIsSubtype(this, rhs);
  }
  toString(): string {
    return this.str();
  }
}

function baseIsSubtype(lhs: SchemaType, rhs: SchemaType): boolean {
  if (rhs.kind === 'AnyType' || lhs.equals(rhs)) return true;
  if (rhs instanceof OptionalType) return lhs.isSubtypeOf(rhs.elem);
  if (rhs instanceof UnionType) return rhs.types.some((t) => lhs.isSubtypeOf(t));
  return false;
}

/** A type without parameters (Tensor, int, Scalar, Device, ...). Instances are singletons. */
export class BaseType extends SchemaType {
  constructor(
    readonly kind: TypeKindName,
    private readonly spelling: string,
    private readonly annotation: string,
  ) {
    super();
  }
  str(): string {
    return this.spelling;
  }
  annotationStr(): string {
    return this.annotation;
  }
  equals(other: SchemaType): boolean {
    return other.kind === this.kind;
  }
  override isSubtypeOf(rhs: SchemaType): boolean {
    if ((this.kind === 'IntType' || this.kind === 'FloatType' || this.kind === 'ComplexType') && rhs.kind === 'NumberType') {
      return true;
    }
    if (this.kind === 'NoneType' && rhs.kind === 'OptionalType') return true;
    return baseIsSubtype(this, rhs);
  }
}

const base = (kind: TypeKindName, spelling: string, annotation = spelling): BaseType => new BaseType(kind, spelling, annotation);

/** The parameterless types, by their c10 name. */
export const Types = {
  Tensor: base('TensorType', 'Tensor'),
  /** `Scalar` in schemas (c10::NumberType). */
  Number: base('NumberType', 'Scalar', 'number'),
  Int: base('IntType', 'int'),
  SymInt: base('SymIntType', 'SymInt', 'int'),
  SymBool: base('SymBoolType', 'SymBool', 'bool'),
  Float: base('FloatType', 'float'),
  Complex: base('ComplexType', 'complex'),
  Bool: base('BoolType', 'bool'),
  String: base('StringType', 'str'),
  None: base('NoneType', 'NoneType'),
  Device: base('DeviceObjType', 'Device'),
  Stream: base('StreamObjType', 'Stream'),
  Storage: base('StorageType', 'Storage'),
  Generator: base('GeneratorType', 'Generator'),
  Quantizer: base('QuantizerType', 'Quantizer'),
  QScheme: base('QSchemeType', 'QScheme'),
  Capsule: base('CapsuleType', 'Capsule'),
  Any: base('AnyType', 'Any'),
  AnyClass: base('AnyClassType', 'AnyClassType'),
  AnyEnum: base('AnyEnumType', 'AnyEnumType'),
  ScalarType: base('ScalarTypeType', 'ScalarType'),
  Layout: base('LayoutType', 'Layout'),
  MemoryFormat: base('MemoryFormatType', 'MemoryFormat'),
  /** What a registered opaque type name (see registerOpaqueType) parses to. */
  PyObject: base('PyObjectType', 'PyObject'),
} as const;

/** `T[]`. A fixed size (`int[2]`) is stored on the Argument (`Argument.N`), as in PyTorch. */
export class ListType extends SchemaType {
  readonly kind = 'ListType' as const;
  constructor(readonly elem: SchemaType) {
    super();
  }
  str(): string {
    return `${this.elem.str()}[]`;
  }
  annotationStr(): string {
    return `List[${this.elem.annotationStr()}]`;
  }
  override containedTypes(): readonly SchemaType[] {
    return [this.elem];
  }
  equals(other: SchemaType): boolean {
    return other instanceof ListType && this.elem.equals(other.elem);
  }
}

/** `T?`. Build it with OptionalType.create, which canonicalises like c10 (`int??` is `int?`). */
export class OptionalType extends SchemaType {
  readonly kind = 'OptionalType' as const;
  private constructor(readonly elem: SchemaType) {
    super();
  }
  static create(contained: SchemaType): OptionalType {
    // fast path: `T?` of a plain type standardises to {T, None}
    if (contained instanceof BaseType && contained.kind !== 'NumberType' && contained.kind !== 'NoneType') {
      let cached = OPTIONAL_CACHE.get(contained);
      if (!cached) {
        cached = new OptionalType(contained);
        OPTIONAL_CACHE.set(contained, cached);
      }
      return cached;
    }
    if (
      contained instanceof ListType ||
      contained instanceof TupleType ||
      contained instanceof DictType ||
      contained instanceof VarType ||
      contained instanceof ClassType ||
      contained instanceof ContainerType
    ) {
      return new OptionalType(contained);
    }
    const std = standardizeUnion([contained, Types.None]);
    let elem: SchemaType;
    if (std.length === 1) {
      throw new SchemaTypeError(
        `After type unification was performed, the Union with the original types {${contained.str()} NoneType } has the single type NoneType. Use the common supertype instead of creating a Uniontype`,
      );
    } else if (std.length === 2) {
      elem = std[0]!.kind !== 'NoneType' ? std[0]! : std[1]!;
    } else if (
      contained.kind === 'NumberType' ||
      (contained instanceof UnionType && contained.types.length === 3 && contained.canHoldNumber())
    ) {
      elem = Types.Number;
    } else {
      elem = UnionType.create(std.filter((t) => t.kind !== 'NoneType'));
    }
    return new OptionalType(elem);
  }
  str(): string {
    return `${this.elem.str()}?`;
  }
  annotationStr(): string {
    return `Optional[${this.elem.annotationStr()}]`;
  }
  override containedTypes(): readonly SchemaType[] {
    return [this.elem];
  }
  equals(other: SchemaType): boolean {
    return other instanceof OptionalType && this.elem.equals(other.elem);
  }
  override isSubtypeOf(rhs: SchemaType): boolean {
    if (rhs instanceof OptionalType) return this.elem.isSubtypeOf(rhs.elem);
    if (rhs instanceof UnionType) return rhs.canHold(Types.None) && rhs.canHold(this.elem);
    return baseIsSubtype(this, rhs);
  }
}

const OPTIONAL_CACHE = new Map<SchemaType, OptionalType>();

/** `(A, B)`: tuple types (only unnamed tuples can be spelled in schemas). */
export class TupleType extends SchemaType {
  readonly kind = 'TupleType' as const;
  constructor(readonly elements: readonly SchemaType[]) {
    super();
  }
  str(): string {
    return `(${this.elements.map((e) => e.str()).join(', ')})`;
  }
  annotationStr(): string {
    if (this.elements.length === 0) return 'Tuple[()]';
    return `Tuple[${this.elements.map((e) => e.annotationStr()).join(', ')}]`;
  }
  override containedTypes(): readonly SchemaType[] {
    return this.elements;
  }
  equals(other: SchemaType): boolean {
    return (
      other instanceof TupleType &&
      other.elements.length === this.elements.length &&
      this.elements.every((e, i) => e.equals(other.elements[i]!))
    );
  }
  override isSubtypeOf(rhs: SchemaType): boolean {
    if (baseIsSubtype(this, rhs)) return true;
    return (
      rhs instanceof TupleType &&
      rhs.elements.length === this.elements.length &&
      this.elements.every((e, i) => e.isSubtypeOf(rhs.elements[i]!))
    );
  }
}

const DICT_KEY_KINDS: ReadonlySet<TypeKindName> = new Set<TypeKindName>([
  'AnyType',
  'IntType',
  'BoolType',
  'FloatType',
  'ComplexType',
  'StringType',
  'TensorType',
  'DeviceObjType',
]);

export class DictType extends SchemaType {
  readonly kind = 'DictType' as const;
  /** c10::DictType::create: only int, bool, float, complex, str, Tensor, Device and Any keys. */
  static create(key: SchemaType, value: SchemaType): DictType {
    if (!DICT_KEY_KINDS.has(key.kind)) {
      throw new SchemaTypeError(
        `Cannot create dict for key type '${key.str()}', only int, float, complex, Tensor, device and string keys are supported`,
      );
    }
    return new DictType(key, value);
  }
  constructor(
    readonly key: SchemaType,
    readonly value: SchemaType,
  ) {
    super();
  }
  str(): string {
    return `Dict(${this.key.str()}, ${this.value.str()})`;
  }
  annotationStr(): string {
    return `Dict[${this.key.annotationStr()}, ${this.value.annotationStr()}]`;
  }
  override containedTypes(): readonly SchemaType[] {
    return [this.key, this.value];
  }
  equals(other: SchemaType): boolean {
    return other instanceof DictType && this.key.equals(other.key) && this.value.equals(other.value);
  }
}

/** `Future(T)`, `Await(T)` and `RRef(T)`. */
export class ContainerType extends SchemaType {
  constructor(
    readonly kind: 'FutureType' | 'AwaitType' | 'RRefType',
    readonly elem: SchemaType,
  ) {
    super();
  }
  private get label(): string {
    return this.kind === 'FutureType' ? 'Future' : this.kind === 'AwaitType' ? 'Await' : 'RRef';
  }
  str(): string {
    return `${this.label}(${this.elem.str()})`;
  }
  annotationStr(): string {
    return `${this.label}[${this.elem.annotationStr()}]`;
  }
  override containedTypes(): readonly SchemaType[] {
    return [this.elem];
  }
  equals(other: SchemaType): boolean {
    return other instanceof ContainerType && other.kind === this.kind && this.elem.equals(other.elem);
  }
  override isSubtypeOf(rhs: SchemaType): boolean {
    if (this.kind !== 'RRefType' && rhs instanceof ContainerType && rhs.kind === this.kind) {
      return this.elem.isSubtypeOf(rhs.elem);
    }
    return baseIsSubtype(this, rhs);
  }
}

/** A type variable (a lowercase identifier such as `t`), accepted when typevars are allowed. */
export class VarType extends SchemaType {
  readonly kind = 'VarType' as const;
  constructor(readonly name: string) {
    super();
  }
  str(): string {
    return this.name;
  }
  annotationStr(): string {
    return this.name;
  }
  equals(other: SchemaType): boolean {
    return other instanceof VarType && other.name === this.name;
  }
}

/** A TorchBind class, `__torch__.torch.classes.<ns>.<Name>`. */
export class ClassType extends SchemaType {
  readonly kind = 'ClassType' as const;
  constructor(readonly qualifiedName: string) {
    super();
  }
  str(): string {
    return this.qualifiedName;
  }
  annotationStr(): string {
    return this.qualifiedName;
  }
  equals(other: SchemaType): boolean {
    return other instanceof ClassType && other.qualifiedName === this.qualifiedName;
  }
}

/** `Union(A, B, ...)`, canonicalised like c10 (flattened, unified, sorted). Build with create(). */
export class UnionType extends SchemaType {
  readonly kind = 'UnionType' as const;
  private constructor(readonly types: readonly SchemaType[]) {
    super();
  }

  /** c10::UnionType::create: may return an OptionalType; throws SchemaTypeError like c10. */
  static create(types: readonly SchemaType[]): UnionType | OptionalType {
    if (types.length === 0) throw new SchemaTypeError('Cannot create an empty Union');
    const std = standardizeUnion(types);
    if (std.length === 1) {
      throw new SchemaTypeError(
        `After type unification was performed, the Union with the original types {${types.map((t) => t.str() + ' ').join('')}} has the single type ${std[0]!.str()}. Use the common supertype instead of creating a Uniontype`,
      );
    }
    let hasInt = false;
    let hasFloat = false;
    let hasComplex = false;
    let hasNone = false;
    for (const t of std) {
      if (t.kind === 'IntType') hasInt = true;
      else if (t.kind === 'FloatType') hasFloat = true;
      else if (t.kind === 'ComplexType') hasComplex = true;
      else if (t.kind === 'NoneType') hasNone = true;
    }
    if (hasNone) {
      if (std.length === 4 && hasInt && hasFloat && hasComplex) return OptionalType.create(Types.Number);
      if (std.length === 2) return OptionalType.create(std[0]!.kind !== 'NoneType' ? std[0]! : std[1]!);
    }
    return new UnionType(std);
  }

  canHold(t: SchemaType): boolean {
    if (t.kind === 'NumberType') return this.canHoldNumber();
    return this.types.some((inner) => t.isSubtypeOf(inner));
  }
  canHoldNumber(): boolean {
    return this.canHold(Types.Int) && this.canHold(Types.Float) && this.canHold(Types.Complex);
  }

  private unionStr(annotation: boolean): string {
    // faithful to c10::UnionType::unionStr, including its separator quirk
    const holdsNumber = this.canHoldNumber();
    const isNumber = (t: SchemaType): boolean => t.kind === 'IntType' || t.kind === 'FloatType' || t.kind === 'ComplexType';
    let s = annotation ? 'Union[' : 'Union(';
    let printed = false;
    this.types.forEach((t, i) => {
      if (!holdsNumber || !isNumber(t)) {
        if (i > 0) {
          s += ', ';
          printed = true;
        }
        s += annotation ? t.annotationStr() : t.str();
      }
    });
    if (holdsNumber) {
      if (printed) s += ', ';
      s += annotation ? Types.Number.annotationStr() : Types.Number.str();
    }
    return s + (annotation ? ']' : ')');
  }
  str(): string {
    return this.unionStr(false);
  }
  annotationStr(): string {
    return this.unionStr(true);
  }
  override containedTypes(): readonly SchemaType[] {
    return this.types;
  }
  equals(other: SchemaType): boolean {
    return other instanceof UnionType && other.types.length === this.types.length && this.types.every((t, i) => t.equals(other.types[i]!));
  }
  override isSubtypeOf(rhs: SchemaType): boolean {
    let rhsTypes: readonly SchemaType[];
    if (rhs instanceof UnionType) {
      if (this.equals(rhs)) return true;
      rhsTypes = rhs.types;
    } else if (rhs instanceof OptionalType) {
      rhsTypes = rhs.elem.kind === 'NumberType' ? [Types.None, Types.Int, Types.Float, Types.Complex] : [Types.None, rhs.elem];
    } else if (rhs.kind === 'NumberType') {
      rhsTypes = [Types.Int, Types.Float, Types.Complex];
    } else {
      rhsTypes = [rhs];
    }
    return this.types.every((l) => rhsTypes.some((r) => l.isSubtypeOf(r)));
  }
}

// ---- Union canonicalisation (c10/core/union_type.cpp) ----

function flattenUnion(t: SchemaType, out: SchemaType[]): void {
  if (t instanceof UnionType) {
    for (const inner of t.types) flattenUnion(inner, out);
  } else if (t instanceof OptionalType) {
    flattenUnion(t.elem, out);
    out.push(Types.None);
  } else if (t.kind === 'NumberType') {
    out.push(Types.Int, Types.Float, Types.Complex);
  } else {
    out.push(t);
  }
}

const isNone = (t: SchemaType): boolean => t.isSubtypeOf(Types.None);

/** c10::unifyTypes(t1, t2, default_to_union=false) for schema-expressible types. */
export function unifyTypes(t1: SchemaType, t2: SchemaType): SchemaType | undefined {
  if (t1.isSubtypeOf(t2)) return t2;
  if (t2.isSubtypeOf(t1)) return t1;
  if (isNone(t1) && !isNone(t2)) return OptionalType.create(t2);
  if (isNone(t2) && !isNone(t1)) return OptionalType.create(t1);
  if (t1 instanceof OptionalType) {
    const e = unifyTypes(t1.elem, t2);
    if (e) return OptionalType.create(e);
  } else if (t2 instanceof OptionalType) {
    const e = unifyTypes(t2.elem, t1);
    if (e) return OptionalType.create(e);
  }
  if (t1 instanceof TupleType && t2 instanceof TupleType) {
    if (t1.elements.length !== t2.elements.length) return undefined;
    const elems: SchemaType[] = [];
    for (let i = 0; i < t1.elements.length; i++) {
      const e = unifyTypes(t1.elements[i]!, t2.elements[i]!);
      if (!e) return undefined;
      elems.push(e);
    }
    return new TupleType(elems);
  }
  if (t1 instanceof ContainerType && t2 instanceof ContainerType && t1.kind === 'FutureType' && t2.kind === 'FutureType') {
    const e = unifyTypes(t1.elem, t2.elem);
    if (e) return new ContainerType('FutureType', e);
  }
  return undefined;
}

function filterDuplicateSubtypes(types: SchemaType[]): void {
  if (types.length === 0) return;
  const superType = (a: SchemaType, b: SchemaType): SchemaType | undefined => {
    if (isNone(a) !== isNone(b)) return undefined;
    return unifyTypes(a, b);
  };
  let endIdx = types.length - 1;
  for (let i = types.length - 1; i > 0; --i) {
    for (let j = Math.min(i - 1, endIdx); ; --j) {
      const unified = superType(types[i]!, types[j]!);
      if (unified) {
        types[j] = unified;
        types[i] = types[endIdx]!;
        --endIdx;
        break;
      }
      if (j === 0) break;
    }
  }
  types.length = endIdx + 1;
}

function standardizeUnion(types: readonly SchemaType[]): SchemaType[] {
  const out: SchemaType[] = [];
  for (const t of types) flattenUnion(t, out);
  filterDuplicateSubtypes(out);
  out.sort((a, b) => {
    const ka = TypeKind[a.kind];
    const kb = TypeKind[b.kind];
    if (ka !== kb) return ka - kb;
    const sa = a.str();
    const sb = b.str();
    return sa < sb ? -1 : sa > sb ? 1 : 0;
  });
  return out;
}

/** Unwraps one level of Optional. */
export function unwrapOptional(t: SchemaType): SchemaType {
  return t instanceof OptionalType ? t.elem : t;
}
