// Port of torch/csrc/jit/frontend/schema_type_parser.{h,cpp} (PyTorch 2.13): the type half of the schema
// language — base type names, `Tensor(a!)` alias annotations, lists, optionals, tuples, dicts, unions,
// futures and TorchBind classes, each type as the pair of fake and real types c10 keeps. The declaration
// half (names, arguments, defaults) is parser.ts, as function_schema_parser.cpp is in PyTorch.

import { AliasInfo, AliasSetOrder, type AliasSymbolTable, defaultAliasSymbols } from './AliasInfo.js';
import { TK, type Lexer, type Token } from './lexer.js';
import { SchemaParseError } from './SchemaParseError.js';
import {
  ClassType,
  ContainerType,
  DictType,
  ListType,
  OptionalType,
  SchemaTypeError,
  type SchemaType,
  TupleType,
  Types,
  UnionType,
  VarType,
} from './types.js';

/** TorchBind classes registered in torch 2.13.0+cpu (`__torch__.torch.classes.<ns>.<Name>`). */
export const TORCH_CUSTOM_CLASSES: readonly string[] = [
  '_nnapi.Compilation',
  'aten.OpaqueObject',
  'backendutils.BackendDebugInfo',
  'c10d.ProcessGroup',
  'c10d.ReduceOp',
  'c10d.SymmetricMemory',
  'c10d.Work',
  'dist_rpc.WorkerInfo',
  'mkldnn.ConvOpContext',
  'profiler._RecordFunction',
  'profiling.InstructionStats',
  'profiling.SourceRef',
  'profiling.SourceStats',
  'profiling._ScriptProfile',
  'quantized.Conv2dPackedParamsBase',
  'quantized.Conv3dPackedParamsBase',
  'quantized.EmbeddingPackedParamsBase',
  'quantized.LinearPackedParamsBase',
  'rnn.CellParamsBase',
  'sparse.LinearPackedParamsBase',
];

const registeredClasses = new Set(TORCH_CUSTOM_CLASSES);

/** Registers a TorchBind class name (`ns.Name`) so schemas may mention it. */
export function registerCustomClass(qualifiedName: string): void {
  registeredClasses.add(qualifiedName.replace(/^__torch__\.torch\.classes\./, ''));
}

const opaqueTypes = new Set<string>();

/** torch._C._register_opaque_type: schemas may then use `name` (e.g. `my.Opaque`) as a PyObject type. */
export function registerOpaqueType(name: string): void {
  if (opaqueTypes.has(name)) throw new Error(`Type '${name}' is already registered as an opaque type`);
  opaqueTypes.add(name);
}
export function unregisterOpaqueType(name: string): void {
  opaqueTypes.delete(name);
}
export function isRegisteredOpaqueType(name: string): boolean {
  return opaqueTypes.has(name);
}

export interface ParseOptions {
  /** Lowercase unknown type names are type variables (default true, like torch._C.parse_schema). */
  readonly allowTypevars?: boolean;
  /** Symbol table ordering alias sets (default: the process-wide one). */
  readonly aliasSymbols?: AliasSymbolTable;
  /** Whether `ns.Name` is a known custom class (default: the built-in list + registerCustomClass). */
  readonly isCustomClass?: (qualifiedName: string) => boolean;
}

/** Nested types deeper than this are refused (the recursive descent would overflow the stack). */
const MAX_TYPE_DEPTH = 500;

const BASE_TYPES: ReadonlyMap<string, SchemaType> = new Map<string, SchemaType>([
  ['Generator', Types.Generator],
  ['ScalarType', Types.ScalarType],
  ['Layout', Types.Layout],
  ['MemoryFormat', Types.MemoryFormat],
  ['Storage', Types.Storage],
  ['QScheme', Types.QScheme],
  ['Quantizer', Types.Quantizer],
  ['ConstQuantizerPtr', Types.Int],
  ['Device', Types.Device],
  ['DeviceIndex', Types.Int],
  ['Stream', Types.Stream],
  ['Scalar', Types.Number],
  ['str', Types.String],
  ['float', Types.Float],
  ['complex', Types.Complex],
  ['int', Types.Int],
  ['SymInt', Types.SymInt],
  ['SymBool', Types.SymBool],
  ['bool', Types.Bool],
  ['None', Types.None],
  ['NoneType', Types.None],
  ['Capsule', Types.Capsule],
  ['Any', Types.Any],
  ['AnyClassType', Types.AnyClass],
  ['AnyEnumType', Types.AnyEnum],
]);

const UNKNOWN_TYPE =
  'unknown type specifier. Common valid schema types include Tensor, SymInt, int, float, bool, Scalar; ' +
  'for a full list, please see https://github.com/pytorch/pytorch/blob/main/aten/src/ATen/native/README.md#func ';

/** Types whose schema spelling differs from their fake type (c10 "fake" vs "real" types). */
function fakeOf(real: SchemaType): SchemaType {
  switch (real.kind) {
    case 'ScalarTypeType':
    case 'MemoryFormatType':
    case 'LayoutType':
    case 'SymIntType':
      return Types.Int;
    default:
      return real;
  }
}

// Token kinds of single characters are their character codes (lexer.ts).
const LPAREN = 40;
const RPAREN = 41;
const STAR = 42;
const COMMA = 44;
const DOT = 46;
const QUESTION = 63;
const LBRACKET = 91;
const RBRACKET = 93;
const BANG = 33;
const PIPE = 124;

/** A failed TORCH_CHECK of the parser (`style: 'check'`), pointing at `tok` when given. */
export function checkFailed(L: Lexer, reason: string, tok?: Token): never {
  throw new SchemaParseError({
    schema: L.src,
    offset: tok?.start,
    end: tok?.end,
    reason,
    style: 'check',
  });
}

/**
 * `SchemaTypeParser`: parses types from the token stream of the schema parser (parser.ts), which owns the
 * lexer and calls in for the type of each argument and return.
 */
export class SchemaTypeParser {
  private readonly symbols: AliasSymbolTable;
  private readonly allowTypevars: boolean;
  private readonly isCustomClass: (name: string) => boolean;
  private nextId = 0;
  private depth = 0;

  constructor(
    private readonly L: Lexer,
    opts: ParseOptions,
  ) {
    this.symbols = opts.aliasSymbols ?? defaultAliasSymbols;
    this.allowTypevars = opts.allowTypevars ?? true;
    this.isCustomClass = opts.isCustomClass ?? ((n) => registeredClasses.has(n));
  }

  // ---- errors ----
  private report(reason: string, tok: Token): never {
    this.L.report(reason, tok.start, tok.end);
  }
  private check(reason: string, tok?: Token): never {
    checkFailed(this.L, reason, tok);
  }

  /** `Optional[t]`, canonicalised as c10 does; an invalid one is a check failure at `tok`. */
  optional(t: SchemaType, tok: Token): SchemaType {
    try {
      return OptionalType.create(t);
    } catch (e) {
      if (e instanceof SchemaTypeError) this.check(e.message, tok);
      throw e;
    }
  }

  // ---- types ----
  private parseBaseType(): SchemaType {
    const L = this.L;
    const tok = L.cur();
    if (!L.nextIf(TK.NONE) && !L.nextIf(TK.NONE_TYPE)) L.expect(TK.IDENT);
    let text = L.text(tok);
    // dotted identifiers (`foo.Bar`) name opaque types
    while (L.cur().kind === DOT && L.lookahead().kind === TK.IDENT) {
      L.next();
      text += '.' + L.text(L.expect(TK.IDENT));
    }
    if (opaqueTypes.has(text)) return Types.PyObject;
    const t = BASE_TYPES.get(text);
    if (t) return t;
    if (this.allowTypevars && text.length > 0 && text.charCodeAt(0) >= 97 && text.charCodeAt(0) <= 122) {
      return new VarType(text);
    }
    if (text === 'double') {
      this.report(
        "Use `float` instead of `double` in an operator's schema string. `float` in schema corresponds to the double type in C++",
        tok,
      );
    }
    if (text === 'int64_t') {
      this.report(
        "Use `SymInt` or `int` instead of `int64_t` in an operator's schema string. `SymInt` corresponds to c10::SymInt in C++ while `int` in schema corresponds to the int64_t type in C++.",
        tok,
      );
    }
    this.report(UNKNOWN_TYPE, tok);
  }

  /** `(a)`, `(a!)`, `(a|b -> c)`, `(*)`, or the `!` shorthand; undefined when absent. */
  parseAliasAnnotation(): AliasInfo | undefined {
    const L = this.L;
    if (L.nextIf(LPAREN)) {
      const before = new AliasSetOrder(this.symbols);
      let isWrite = false;
      this.parseAliasSet(before);
      if (L.nextIf(BANG)) isWrite = true;
      const beforeNames = before.ordered();
      const after = new AliasSetOrder(this.symbols);
      if (L.nextIf(TK.ARROW)) {
        this.parseAliasSet(after);
      } else {
        // no `->`: the after set is the before set (filled by iterating it)
        for (const n of beforeNames) after.insert(n);
      }
      L.expect(RPAREN);
      return new AliasInfo({ beforeSets: beforeNames, afterSets: after.ordered(), isWrite });
    }
    if (L.nextIf(BANG)) {
      const name = `$${this.nextId++}`;
      this.symbols.idOf(name);
      return new AliasInfo({ beforeSets: [name], afterSets: [], isWrite: true });
    }
    return undefined;
  }

  /** `a|b|*` (c10 ignores names after a wildcard but still wants the `|`). */
  private parseAliasSet(set: AliasSetOrder): void {
    const L = this.L;
    do {
      const tok = L.cur();
      try {
        if (L.nextIf(STAR)) {
          set.insert('*');
        } else if (!set.has('*')) {
          set.insert(L.text(L.expect(TK.IDENT)));
        }
      } catch (e) {
        if (e instanceof RangeError) this.check(e.message, tok);
        throw e;
      }
    } while (L.nextIf(PIPE));
  }

  /** parseType(): the fake type (what nested positions of c10's parser keep) and its alias info. */
  private parseType(): [SchemaType, AliasInfo | undefined] {
    const [fake, , alias] = this.parseFakeAndRealType();
    return [fake, alias];
  }

  /** `parseFakeAndRealType()`: the fake type, the real type (as written) and the alias info. */
  parseFakeAndRealType(): [SchemaType, SchemaType, AliasInfo | undefined] {
    if (++this.depth > MAX_TYPE_DEPTH) this.check('type nesting is too deep', this.L.cur());
    try {
      return this.parseFakeAndRealTypeInner();
    } finally {
      this.depth--;
    }
  }

  private parseFakeAndRealTypeInner(): [SchemaType, SchemaType, AliasInfo | undefined] {
    const L = this.L;
    let fake: SchemaType;
    let real: SchemaType;
    let alias: AliasInfo | undefined;
    const cur = L.cur();
    const curText = cur.kind === TK.IDENT ? L.text(cur) : '';
    if (cur.kind === LPAREN) {
      const types: SchemaType[] = [];
      L.expect(LPAREN);
      if (L.cur().kind !== RPAREN) {
        do {
          // (c10 only records element alias info when the tuple itself has one, which it never does)
          types.push(this.parseType()[0]);
        } while (L.nextIf(COMMA));
      }
      L.expect(RPAREN);
      fake = real = new TupleType(types);
    } else if (curText === 'Future' || curText === 'Await' || curText === 'RRef') {
      L.next();
      L.expect(LPAREN);
      const [sub] = this.parseType();
      L.expect(RPAREN);
      fake = real = new ContainerType(curText === 'Future' ? 'FutureType' : curText === 'Await' ? 'AwaitType' : 'RRefType', sub);
    } else if (curText === 'Tensor') {
      L.next();
      fake = real = Types.Tensor;
      alias = this.parseAliasAnnotation();
    } else if (curText === 'Dict') {
      L.next();
      L.expect(LPAREN);
      const [k] = this.parseType();
      L.expect(COMMA);
      const [v] = this.parseType();
      L.expect(RPAREN);
      alias = this.parseAliasAnnotation();
      try {
        fake = real = DictType.create(k, v);
      } catch (e) {
        if (e instanceof SchemaTypeError) this.check(e.message, L.cur());
        throw e;
      }
    } else if (curText === 'Union') {
      const unionTok = L.next();
      L.expect(LPAREN);
      const types: SchemaType[] = [this.parseType()[0]];
      while (L.cur().kind !== RPAREN) {
        L.expect(COMMA);
        types.push(this.parseType()[0]);
      }
      L.expect(RPAREN);
      alias = this.parseAliasAnnotation();
      try {
        fake = real = UnionType.create(types);
      } catch (e) {
        if (e instanceof SchemaTypeError) this.check(e.message, unionTok);
        throw e;
      }
    } else if (curText === '__torch__') {
      L.next();
      L.expect(DOT);
      const torchTok = L.expect(TK.IDENT);
      if (L.text(torchTok) !== 'torch') this.report(`Expected classes namespace but got ${L.text(torchTok)}`, torchTok);
      L.expect(DOT);
      const classesTok = L.expect(TK.IDENT);
      if (L.text(classesTok) !== 'classes') {
        this.report(`Expected classes namespace but got ${L.text(classesTok)}`, classesTok);
      }
      L.expect(DOT);
      const ns = L.text(L.expect(TK.IDENT));
      L.expect(DOT);
      const classTok = L.expect(TK.IDENT);
      const qualified = `${ns}.${L.text(classTok)}`;
      if (!this.isCustomClass(qualified)) {
        this.report(`Unknown custom class type ${qualified}. Please ensure it is registered.`, classTok);
      }
      fake = real = new ClassType(`__torch__.torch.classes.${qualified}`);
    } else {
      real = this.parseBaseType();
      fake = fakeOf(real);
      alias = this.parseAliasAnnotation();
    }
    for (;;) {
      if (L.cur().kind === LBRACKET && L.lookahead().kind === RBRACKET) {
        L.next();
        L.next();
        fake = new ListType(fake);
        real = new ListType(real);
        let container = this.parseAliasAnnotation();
        if (alias) {
          if (!container) container = new AliasInfo({ isWrite: alias.isWrite });
          container = container.withContained(alias);
        }
        alias = container;
      } else if (L.cur().kind === QUESTION) {
        const q = L.next();
        fake = this.optional(fake, q);
        real = this.optional(real, q);
      } else {
        break;
      }
    }
    return [fake, real, alias];
  }
}
