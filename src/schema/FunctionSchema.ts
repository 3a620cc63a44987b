// The schema data model: OperatorName, Argument and FunctionSchema, printed exactly like
// PyTorch 2.13's `str(torch._C.parse_schema(text))`, plus the queries the dispatcher and the
// code generator need (mutation, aliasing, torchgen's schema kind and signature).

import { AliasInfo } from './AliasInfo.js';
import { quoteString } from './numbers.js';
import { SchemaParseError } from './SchemaParseError.js';
import { ListType, OptionalType, type SchemaType } from './types.js';
import { type DefaultValue, formatValue, valuesEqual, doubleValue } from './values.js';

/** `ns::name.overload` (the namespace is part of `name`, as in c10::OperatorName). */
export class OperatorName {
  constructor(
    /** Possibly namespace-qualified name, e.g. `aten::add` (or `add` when written without one). */
    readonly name: string,
    readonly overloadName: string = '',
  ) {
    Object.freeze(this);
  }
  /** The namespace (`aten`), or undefined when the name is unqualified. */
  get namespace(): string | undefined {
    const i = this.name.indexOf('::');
    return i < 0 ? undefined : this.name.slice(0, i);
  }
  /** The name without its namespace (`add`). */
  get baseName(): string {
    const i = this.name.indexOf('::');
    return i < 0 ? this.name : this.name.slice(i + 2);
  }
  toString(): string {
    return this.overloadName ? `${this.name}.${this.overloadName}` : this.name;
  }
  equals(other: OperatorName): boolean {
    return this.name === other.name && this.overloadName === other.overloadName;
  }
}

export interface ArgumentInit {
  readonly name: string;
  /** The type as written (PyTorch's `real_type`): ScalarType, Layout, SymInt[] ... */
  readonly type: SchemaType;
  /** PyTorch's `type()` ("fake" type: int for ScalarType/Layout/MemoryFormat/SymInt). Defaults to `type`. */
  readonly fakeType?: SchemaType | undefined;
  /** Fixed list size, as in `int[2]`. */
  readonly N?: number | undefined;
  readonly defaultValue?: DefaultValue | undefined;
  readonly kwargOnly?: boolean | undefined;
  readonly aliasInfo?: AliasInfo | undefined;
}

/** One argument or return of a schema (c10::Argument): name, type, default value, keyword-only flag, alias annotation. */
export class Argument {
  readonly name: string;
  readonly type: SchemaType;
  readonly fakeType: SchemaType;
  readonly N: number | undefined;
  readonly defaultValue: DefaultValue | undefined;
  readonly kwargOnly: boolean;
  readonly aliasInfo: AliasInfo | undefined;

  constructor(init: ArgumentInit) {
    this.name = init.name;
    this.type = init.type;
    this.fakeType = init.fakeType ?? init.type;
    this.N = init.N;
    this.defaultValue = init.defaultValue;
    this.kwargOnly = init.kwargOnly ?? false;
    this.aliasInfo = init.aliasInfo;
    Object.freeze(this);
  }

  /** Written to by the operator (`Tensor(a!)`, `Tensor(a!)[]`). */
  get isWrite(): boolean {
    return this.aliasInfo?.isWrite ?? false;
  }
  /** c10's is_out(): a kwarg-only argument that is written to. */
  get isOut(): boolean {
    return this.kwargOnly && this.isWrite;
  }
  get hasDefault(): boolean {
    return this.defaultValue !== undefined;
  }

  with(changes: Partial<ArgumentInit>): Argument {
    return new Argument({ ...this, ...changes });
  }

  /** The default as PyTorch prints it after `=` (undefined when there is none). */
  defaultToString(): string | undefined {
    const d = this.defaultValue;
    if (d === undefined) return undefined;
    const type = this.type;
    const unopt = type instanceof OptionalType ? type.elem : type;
    if ((type.kind === 'StringType' || unopt.kind === 'StringType') && d.tag === 'String') {
      return quoteString(d.bytes);
    }
    if (type instanceof ListType && type.elem.kind === 'IntType' && d.tag === 'List') {
      // native_functions.yaml style: `int[2] stride=1` rather than `[1, 1]`
      const items = d.items;
      if (items.length > 1 && items.every((x) => valuesEqual(x, items[0]!))) return formatValue(items[0]!);
    }
    return formatValue(d);
  }

  /** The type part as PyTorch prints it: `Tensor(a!)?`, `int[2]`, `Tensor(a)[]`. */
  typeToString(): string {
    const type = this.type;
    const isOpt = type instanceof OptionalType;
    const unopt = type instanceof OptionalType ? type.elem : type;
    let out: string;
    if (unopt instanceof ListType) {
      out = unopt.elem.str();
      const contained = this.aliasInfo?.containedTypes[0];
      if (contained) out += contained.toString();
      out += `[${this.N !== undefined ? String(this.N) : ''}]`;
    } else {
      out = unopt.str();
    }
    if (this.aliasInfo && this.aliasInfo.beforeSets.length > 0) out += this.aliasInfo.toString();
    if (isOpt) out += '?';
    return out;
  }

  /** c10's `operator<<(ostream&, const Argument&)`. */
  toString(): string {
    let out = this.typeToString();
    if (this.name) out += ` ${this.name}`;
    const d = this.defaultToString();
    if (d !== undefined) out += `=${d}`;
    return out;
  }

  /** c10 operator==: name, (fake) type, N, default, kwarg_only and alias info. */
  equals(other: Argument): boolean {
    return (
      this.name === other.name &&
      this.fakeType.equals(other.fakeType) &&
      this.N === other.N &&
      (this.defaultValue === undefined
        ? other.defaultValue === undefined
        : other.defaultValue !== undefined && valuesEqual(this.defaultValue, other.defaultValue)) &&
      this.kwargOnly === other.kwargOnly &&
      aliasEqual(this.aliasInfo, other.aliasInfo)
    );
  }

  /** c10 Argument::isBackwardCompatibleWith(old). */
  isBackwardCompatibleWith(old: Argument): boolean {
    if (!(this.name === old.name && this.N === old.N && aliasEqual(this.aliasInfo, old.aliasInfo))) return false;
    if (this.kwargOnly && !old.kwargOnly) return false;
    if (!old.fakeType.isSubtypeOf(this.fakeType)) return false;
    if (old.defaultValue !== undefined && (this.defaultValue === undefined || !valuesEqual(this.defaultValue, old.defaultValue))) {
      return false;
    }
    return true;
  }
}

function aliasEqual(a: AliasInfo | undefined, b: AliasInfo | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.equals(b);
}

/** torchgen's SchemaKind. */
export type SchemaKind = 'functional' | 'inplace' | 'out' | 'mutable' | 'scratch';

export interface SignatureOptions {
  /** Drop default values (torchgen `strip_default`). */
  readonly stripDefault?: boolean;
  /** Pair `foo_copy` with `foo` and `*_scatter` with `*_inverse` (torchgen `strip_view_copy_name`). */
  readonly stripViewCopyName?: boolean;
  /** Keep return names, naming returns made from mutable inputs `<arg>_out` (torchgen `keep_return_names`). */
  readonly keepReturnNames?: boolean;
}

// Python's augmented-assignment dunders (torchgen AUGMENTED_ASSIGNMENT_NAMES).
const AUGMENTED = ['add', 'sub', 'mul', 'div', 'mod', 'pow', 'lshift', 'rshift', 'and', 'xor', 'or'];

/** torchgen's BaseOperatorName decomposition of a (namespace-less) operator name. */
export function splitBaseName(name: string): {
  base: string;
  inplace: boolean;
  dunder: boolean;
  functionalOverload: boolean;
} {
  const m = /^__([^_]+)__$/.exec(name);
  let base: string;
  let inplace: boolean;
  let dunder = false;
  if (m) {
    dunder = true;
    base = m[1]!;
    inplace = AUGMENTED.some((n) => base === `i${n}`);
    if (inplace) base = base.slice(1);
  } else {
    base = name;
    inplace = base.endsWith('_');
    if (inplace) base = base.slice(0, -1);
  }
  let functionalOverload = false;
  if (base.endsWith('_functional')) {
    functionalOverload = true;
    base = base.slice(0, -'_functional'.length);
  }
  return { base, inplace, dunder, functionalOverload };
}

export interface FunctionSchemaInit {
  readonly name: string;
  readonly overloadName?: string;
  readonly arguments: readonly Argument[];
  readonly returns: readonly Argument[];
  readonly isVararg?: boolean;
  readonly isVarret?: boolean;
  /** Skip c10's checkSchema() (used by the parser to build error messages). */
  readonly unchecked?: boolean;
}

/** Name of the first positional argument without a default that follows one with a default, if any. */
export function nonDefaultAfterDefault(args: readonly Argument[]): number {
  let seenDefault = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.defaultValue !== undefined) {
      seenDefault = true;
    } else {
      // historically serialized broadcasting lists may lack defaults
      if (a.fakeType.kind === 'ListType') continue;
      if (seenDefault && !a.kwargOnly) return i;
    }
  }
  return -1;
}

/** A parsed operator schema (c10::FunctionSchema): name, overload name, arguments, returns, vararg flags; `toString()` prints it as PyTorch does. */
export class FunctionSchema {
  /** Possibly namespace-qualified name (`aten::add`). */
  readonly name: string;
  readonly overloadName: string;
  readonly arguments: readonly Argument[];
  readonly returns: readonly Argument[];
  /** Takes extra arguments after the listed ones (`...` in the argument list). */
  readonly isVararg: boolean;
  /** Returns extra values after the listed ones (`...` in the returns). */
  readonly isVarret: boolean;

  constructor(init: FunctionSchemaInit) {
    this.name = init.name;
    this.overloadName = init.overloadName ?? '';
    this.arguments = Object.freeze([...init.arguments]);
    this.returns = Object.freeze([...init.returns]);
    this.isVararg = init.isVararg ?? false;
    this.isVarret = init.isVarret ?? false;
    Object.freeze(this);
    const bad = init.unchecked ? -1 : nonDefaultAfterDefault(this.arguments);
    if (bad >= 0) {
      throw new SchemaParseError({
        schema: this.toString(),
        reason: `Non-default positional argument follows default argument. Parameter ${this.arguments[bad]!.name} in ${this.toString()}`,
        style: 'check',
      });
    }
  }

  get operatorName(): OperatorName {
    return new OperatorName(this.name, this.overloadName);
  }
  /** The namespace (`aten`), or undefined. */
  get namespace(): string | undefined {
    const i = this.name.indexOf('::');
    return i < 0 ? undefined : this.name.slice(0, i);
  }
  /** The name without namespace (`add`). */
  get baseName(): string {
    const i = this.name.indexOf('::');
    return i < 0 ? this.name : this.name.slice(i + 2);
  }
  /** `aten::add.Tensor` (or `add.Tensor` for a schema written without namespace). */
  get qualifiedName(): string {
    return this.operatorName.toString();
  }

  /** c10 FunctionSchema::is_mutable(): some argument is written to. */
  get isMutable(): boolean {
    return this.arguments.some((a) => a.isWrite);
  }
  /** Indices of the arguments written to. */
  writtenArgumentIndices(): number[] {
    const out: number[] = [];
    this.arguments.forEach((a, i) => {
      if (a.isWrite) out.push(i);
    });
    return out;
  }
  /** The arguments written to. */
  writtenArguments(): Argument[] {
    return this.arguments.filter((a) => a.isWrite);
  }
  /** c10's out arguments (kwarg-only and written to). */
  outArguments(): Argument[] {
    return this.arguments.filter((a) => a.isOut);
  }
  argumentIndexWithName(name: string): number {
    return this.arguments.findIndex((a) => a.name === name);
  }
  hasAnyAliasInfo(): boolean {
    return this.arguments.some((a) => a.aliasInfo) || this.returns.some((r) => r.aliasInfo);
  }

  /**
   * Indices of the arguments that return `i` may alias: those whose alias sets (before the
   * call, including those of contained elements, wildcard excluded) share a name with the
   * return's. `unbind(Tensor(a -> *) self) -> Tensor(a)[]` gives [0] for return 0.
   */
  aliasedArguments(returnIndex: number): number[] {
    const ret = this.returns[returnIndex];
    if (!ret?.aliasInfo) return [];
    const retSets = aliasNames(ret.aliasInfo);
    const out: number[] = [];
    this.arguments.forEach((a, i) => {
      if (!a.aliasInfo) return;
      for (const n of aliasNames(a.aliasInfo)) {
        if (retSets.has(n)) {
          out.push(i);
          return;
        }
      }
    });
    return out;
  }

  /** For each return, the argument index it aliases (first match) or -1. */
  returnAliases(): number[] {
    return this.returns.map((_, i) => this.aliasedArguments(i)[0] ?? -1);
  }

  /**
   * torchgen's aliased_return_names(): for each return, the name of the argument with an equal
   * alias annotation, or null. Throws if a return aliases several arguments.
   */
  aliasedReturnNames(): (string | null)[] {
    return this.returns.map((r) => {
      const hits = this.arguments.filter((a) => r.aliasInfo && a.aliasInfo && a.aliasInfo.equals(r.aliasInfo));
      if (hits.length > 1) {
        throw new Error(`Found a return (${r.name})that aliases multiple inputs (${hits.map((a) => a.name).join(', ')})`);
      }
      return hits[0]?.name ?? null;
    });
  }

  // ---- torchgen views ----

  /** The argument named `self` (torchgen's self_arg), if positional. */
  selfArgumentIndex(): number {
    return this.arguments.findIndex((a) => !a.kwargOnly && a.name === 'self');
  }
  /** torchgen's post_self_positional: positional arguments after `self` (all of them without self). */
  postSelfPositional(): Argument[] {
    const positional = this.arguments.filter((a) => !a.kwargOnly);
    const s = positional.findIndex((a) => a.name === 'self');
    return s < 0 ? positional : positional.slice(s + 1);
  }
  /** Whether torchgen's BaseOperatorName calls this operator inplace (`add_`, `__iadd__`). */
  get isInplace(): boolean {
    return splitBaseName(this.baseName).inplace;
  }

  /** The schema kind as torchgen's FunctionSchema.kind() classifies it. */
  kind(): SchemaKind {
    const outs = this.outArguments();
    const isOut = outs.length > 0;
    const isScratch = outs.some((a) => a.name.startsWith('_scratch_'));
    const isInplace = this.isInplace;
    const isMutable = this.postSelfPositional().some((a) => a.isWrite);
    if (isOut && isInplace) throw new Error('A schema cannot be both out= and inplace');
    if (isInplace) return 'inplace';
    if (isScratch) return 'scratch';
    if (isOut) return 'out';
    if (isMutable) return 'mutable';
    return 'functional';
  }

  /**
   * torchgen's FunctionSchema.signature(): the "core" functional signature shared by the
   * functional, inplace, out and mutable variants. Drops the namespace and overload name,
   * inplace-ness, out arguments, TensorOptions arguments (dtype, layout, device, pin_memory),
   * alias annotations and return names; mutable inputs that are not returned become returns.
   */
  signature(opts: SignatureOptions = {}): FunctionSchema {
    const parts = splitBaseName(this.baseName);
    let base = parts.base;
    if (opts.stripViewCopyName) {
      if (base.endsWith('_copy')) base = base.replaceAll('_copy', '');
      else if (base.endsWith('_scatter')) base = base.replaceAll('scatter', 'inverse');
    }
    const name = parts.dunder ? `__${base}__` : base;
    const strip = (a: Argument): Argument => a.with({ aliasInfo: undefined, defaultValue: opts.stripDefault ? undefined : a.defaultValue });

    const positional = this.arguments.filter((a) => !a.kwargOnly);
    const kwargs = this.arguments.filter((a) => a.kwargOnly && !a.isWrite);
    const kept: Argument[] = [];
    for (let i = 0; i < kwargs.length;) {
      if (i + 4 <= kwargs.length && isTensorOptions(kwargs.slice(i, i + 4))) {
        i += 4;
        continue;
      }
      kept.push(kwargs[i]!);
      i++;
    }
    let args = [...positional, ...kept].map(strip);
    if (this.baseName === 'bernoulli' && this.name === 'bernoulli' && this.overloadName === 'p') {
      // Note [bernoulli.p schema]
      // ~~~~~~~~~~~~~~~~~~~~~~~~~~
      // As torchgen's note of that name: the Python signature of bernoulli.p gives `p` PyTorch's default 0.5.
      args = args.map((a) => (a.name === 'p' && a.defaultValue === undefined ? a.with({ defaultValue: doubleValue(0.5) }) : a));
    }

    const returns = this.returns.map((r) => r.with({ name: opts.keepReturnNames ? r.name : '', aliasInfo: undefined }));
    const selfIdx = this.selfArgumentIndex();
    const candidates = [
      ...(selfIdx >= 0 ? [this.arguments[selfIdx]!] : []),
      ...this.arguments.filter((a) => a.isWrite && a.kwargOnly),
      ...this.postSelfPositional(),
    ];
    for (const a of candidates) {
      if (!a.isWrite) continue;
      if (this.returns.some((r) => r.aliasInfo && a.aliasInfo!.equals(r.aliasInfo))) continue;
      returns.push(
        new Argument({
          name: opts.keepReturnNames ? `${a.name}_out` : '',
          type: a.type,
          fakeType: a.fakeType,
          N: a.N,
        }),
      );
    }
    return new FunctionSchema({ name, overloadName: '', arguments: args, returns });
  }

  /** `signature(opts)` of both schemas are equal. */
  hasSameSignature(other: FunctionSchema, opts: SignatureOptions = {}): boolean {
    return this.signature(opts).equals(other.signature(opts));
  }

  /** c10 FunctionSchema operator==. Types compare as PyTorch does (fake types: ScalarType == int). */
  equals(other: FunctionSchema): boolean {
    return (
      this.name === other.name &&
      this.overloadName === other.overloadName &&
      this.isVararg === other.isVararg &&
      this.isVarret === other.isVarret &&
      this.arguments.length === other.arguments.length &&
      this.returns.length === other.returns.length &&
      this.arguments.every((a, i) => a.equals(other.arguments[i]!)) &&
      this.returns.every((r, i) => r.equals(other.returns[i]!))
    );
  }

  /** c10 FunctionSchema::isBackwardCompatibleWith(old). */
  isBackwardCompatibleWith(old: FunctionSchema): boolean {
    if (!(
      this.name === old.name &&
      this.overloadName === old.overloadName &&
      this.isVararg === old.isVararg &&
      this.isVarret === old.isVarret &&
      this.returns.length === old.returns.length &&
      this.arguments.length >= old.arguments.length
    )) {
      return false;
    }
    for (let i = 0; i < this.returns.length; i++) {
      // covariant returns: the old return must accept the new one
      if (!old.returns[i]!.isBackwardCompatibleWith(this.returns[i]!)) return false;
    }
    const firstOut = (args: readonly Argument[]): number => {
      const i = args.findIndex((a) => a.isOut);
      return i < 0 ? args.length : i;
    };
    const oldOut = firstOut(old.arguments);
    const newOut = firstOut(this.arguments);
    for (let i = 0; i < oldOut; i++) {
      if (!this.arguments[i]!.isBackwardCompatibleWith(old.arguments[i]!)) return false;
    }
    for (let i = oldOut; i < newOut; i++) {
      if (this.arguments[i]!.defaultValue === undefined) return false;
    }
    for (let i = oldOut; i < old.arguments.length; i++) {
      const a = this.arguments[i - oldOut + newOut];
      if (!a || !a.isBackwardCompatibleWith(old.arguments[i]!)) return false;
    }
    return true;
  }

  /** Exactly what PyTorch's `str(schema)` prints. */
  toString(): string {
    let out = this.name;
    if (this.overloadName) out += `.${this.overloadName}`;
    out += '(';
    let seenKwargOnly = false;
    for (let i = 0; i < this.arguments.length; i++) {
      const a = this.arguments[i]!;
      if (i > 0) out += ', ';
      if (a.kwargOnly && !seenKwargOnly) {
        out += '*, ';
        seenKwargOnly = true;
      }
      out += a.toString();
    }
    if (this.isVararg) {
      if (this.arguments.length > 0) out += ', ';
      out += '...';
    }
    out += ') -> ';
    const rets = this.returns;
    let needParen = !((rets.length === 1 && !this.isVarret) || (rets.length === 0 && this.isVarret));
    const retStrs = rets.map((r) => r.toString());
    if (rets.length === 1 && !this.isVarret && retStrs[0]!.startsWith('(')) needParen = true;
    if (needParen) out += '(';
    out += retStrs.join(', ');
    if (this.isVarret) {
      if (rets.length > 0) out += ', ';
      out += '...';
    }
    if (needParen) out += ')';
    return out;
  }
}

function isTensorOptions(four: readonly Argument[]): boolean {
  const want: readonly [string, string][] = [
    ['dtype', 'ScalarType'],
    ['layout', 'Layout'],
    ['device', 'Device'],
    ['pin_memory', 'bool'],
  ];
  return want.every(([name, ty], i) => {
    const a = four[i]!;
    if (a.name !== name || a.N !== undefined) return false;
    const t = a.type instanceof OptionalType ? a.type.elem : a.type;
    return t.str() === ty;
  });
}

function aliasNames(info: AliasInfo, out: Set<string> = new Set()): Set<string> {
  for (const n of info.beforeSets) if (n !== '*') out.add(n);
  for (const c of info.containedTypes) aliasNames(c, out);
  return out;
}
