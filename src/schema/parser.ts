// Port of torch/csrc/jit/frontend/function_schema_parser.cpp and schema_type_parser.cpp
// (PyTorch 2.13): same grammar, same canonicalisation of types and defaults, same errors.

import { AliasInfo, AliasSetOrder, type AliasSymbolTable, defaultAliasSymbols } from './AliasInfo.js';
import { FunctionSchema, Argument, OperatorName, nonDefaultAfterDefault } from './FunctionSchema.js';
import { Lexer, TK, type Token } from './lexer.js';
import { NumberConversionError, stod, stoll, toInt32, utf8Bytes } from './numbers.js';
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
import {
  type DefaultValue,
  NONE,
  boolValue,
  complexValue,
  doubleValue,
  intValue,
  parseDevice,
  stringValue,
} from './values.js';

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

/** Sizes beyond this for `T[N] x=<scalar>` are refused instead of materialising the list. */
const MAX_EXPANDED_LIST = 1 << 20;

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

const LPAREN = 40;
const RPAREN = 41;
const STAR = 42;
const COMMA = 44;
const MINUS = 45;
const DOT = 46;
const COLON = 58;
const EQUALS = 61;
const QUESTION = 63;
const LBRACKET = 91;
const RBRACKET = 93;
const BANG = 33;
const PIPE = 124;

type Scalar = DefaultValue;

class SchemaParser {
  private readonly L: Lexer;
  private readonly symbols: AliasSymbolTable;
  private readonly allowTypevars: boolean;
  private readonly isCustomClass: (name: string) => boolean;
  private nextId = 0;
  private depth = 0;

  constructor(
    private readonly src: string,
    opts: ParseOptions,
  ) {
    this.symbols = opts.aliasSymbols ?? defaultAliasSymbols;
    this.allowTypevars = opts.allowTypevars ?? true;
    this.isCustomClass = opts.isCustomClass ?? ((n) => registeredClasses.has(n));
    this.L = new Lexer(src);
  }

  // ---- errors ----
  private report(reason: string, tok: Token): never {
    this.L.report(reason, tok.start, tok.end);
  }
  private check(reason: string, tok?: Token): never {
    throw new SchemaParseError({
      schema: this.src,
      offset: tok?.start,
      end: tok?.end,
      reason,
      style: 'check',
    });
  }
  private conversion(e: unknown, tok: Token): never {
    if (e instanceof NumberConversionError) {
      const what = e.failure === 'range' ? 'out of range' : 'not a number';
      this.check(`${e.fn}: ${JSON.stringify(this.L.text(tok))} is ${what}`, tok);
    }
    throw e;
  }

  // ---- declarations ----
  parseExactlyOneDeclaration(): OperatorName | FunctionSchema {
    const result = this.parseDeclaration();
    this.L.nextIf(TK.NEWLINE);
    this.L.expect(TK.EOF);
    return result;
  }

  private parseName(): OperatorName {
    const L = this.L;
    let name = L.text(L.expect(TK.IDENT));
    if (L.nextIf(COLON)) {
      L.expect(COLON);
      name = `${name}::${L.text(L.expect(TK.IDENT))}`;
    }
    let overload = '';
    let overloadTok: Token | undefined;
    if (L.nextIf(DOT)) {
      overloadTok = L.expect(TK.IDENT);
      overload = L.text(overloadTok);
    }
    if (overload === 'default' || overload.startsWith('__')) {
      this.check(`${overload} is not a legal overload name for aten operators`, overloadTok);
    }
    return new OperatorName(name, overload);
  }

  private parseDeclaration(): OperatorName | FunctionSchema {
    const L = this.L;
    const name = this.parseName();
    if (L.cur().kind !== LPAREN) return name;

    const args: Argument[] = [];
    const argToks: Token[] = [];
    const returns: Argument[] = [];
    let kwargOnly = false;
    let isVararg = false;
    let isVarret = false;
    L.expect(LPAREN);
    if (L.cur().kind !== RPAREN) {
      do {
        if (isVararg) this.report('... must be the last element of the argument list', L.cur());
        if (L.nextIf(STAR)) {
          kwargOnly = true;
        } else if (L.nextIf(TK.DOTS)) {
          isVararg = true;
        } else {
          argToks.push(L.cur());
          args.push(this.parseArgument(false, kwargOnly));
        }
      } while (L.nextIf(COMMA));
    }
    L.expect(RPAREN);
    if (isVararg && args.some((a) => a.defaultValue !== undefined)) {
      this.report("schemas with vararg (...) can't have default value args", L.cur());
    }
    L.expect(TK.ARROW);
    if (L.nextIf(TK.DOTS)) {
      isVarret = true;
    } else if (L.cur().kind === LPAREN) {
      L.expect(LPAREN);
      if (L.cur().kind !== RPAREN) {
        do {
          if (isVarret) this.report('... must be the last element of the return list', L.cur());
          if (L.nextIf(TK.DOTS)) isVarret = true;
          else returns.push(this.parseArgument(true, false));
        } while (L.nextIf(COMMA));
      }
      L.expect(RPAREN);
    } else {
      returns.push(this.parseArgument(true, false));
    }
    const bad = nonDefaultAfterDefault(args);
    if (bad >= 0) {
      const text = new FunctionSchema({
        name: name.name,
        overloadName: name.overloadName,
        arguments: args,
        returns,
        isVararg,
        isVarret,
        unchecked: true,
      }).toString();
      this.check(
        `Non-default positional argument follows default argument. Parameter ${args[bad]!.name} in ${text}`,
        argToks[bad],
      );
    }
    return new FunctionSchema({
      name: name.name,
      overloadName: name.overloadName,
      arguments: args,
      returns,
      isVararg,
      isVarret,
    });
  }

  // ---- arguments ----
  private parseArgument(isReturn: boolean, kwargOnly: boolean): Argument {
    const L = this.L;
    let [fake, real, alias] = this.parseFakeAndRealType();
    let N: number | undefined;
    if (L.nextIf(LBRACKET)) {
      // a list with a size can only occur at the argument level
      fake = new ListType(fake);
      real = new ListType(real);
      const numTok = L.expect(TK.NUMBER);
      try {
        N = toInt32(stoll(L.text(numTok)));
      } catch (e) {
        this.conversion(e, numTok);
      }
      L.expect(RBRACKET);
      let container = this.parseAliasAnnotation();
      if (alias) {
        if (!container) container = new AliasInfo({ isWrite: alias.isWrite });
        container = container.withContained(alias);
      }
      alias = container;
      if (L.nextIf(QUESTION)) {
        fake = this.optional(fake, L.cur());
        real = this.optional(real, L.cur());
      }
    }
    let name = '';
    let defaultValue: DefaultValue | undefined;
    if (isReturn) {
      if (L.cur().kind === TK.IDENT) name = L.text(L.next());
    } else {
      name = L.text(L.expect(TK.IDENT));
      if (L.nextIf(EQUALS)) defaultValue = this.parseDefaultValue(fake, N);
    }
    return new Argument({
      name,
      type: real,
      fakeType: fake,
      N,
      defaultValue,
      kwargOnly: !isReturn && kwargOnly,
      aliasInfo: alias,
    });
  }

  private optional(t: SchemaType, tok: Token): SchemaType {
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
  private parseAliasAnnotation(): AliasInfo | undefined {
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

  private parseFakeAndRealType(): [SchemaType, SchemaType, AliasInfo | undefined] {
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
      fake = real = new ContainerType(
        curText === 'Future' ? 'FutureType' : curText === 'Await' ? 'AwaitType' : 'RRefType',
        sub,
      );
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

  // ---- defaults ----
  private parseDefaultValue(type: SchemaType, N: number | undefined): DefaultValue {
    const L = this.L;
    const start = L.cur();
    switch (type.kind) {
      case 'TensorType':
      case 'GeneratorType':
      case 'QuantizerType':
        L.expect(TK.NONE);
        return NONE;
      case 'StringType':
      case 'OptionalType':
      case 'NumberType':
      case 'IntType':
      case 'BoolType':
      case 'FloatType':
      case 'ComplexType':
        return this.parseSingleConstant(type.kind);
      case 'DeviceObjType': {
        const tok = L.expect(TK.STRINGLITERAL);
        const text = this.parseStringLiteral(tok);
        const dev = parseDevice(text);
        if (typeof dev === 'string') this.check(dev, tok);
        return dev;
      }
      case 'ListType': {
        const elem = (type as ListType).elem;
        if (L.cur().kind === TK.IDENT) {
          L.expect(TK.NONE); // always fails: PyTorch's "expected None but found 'ident'"
          return NONE;
        }
        if (N !== undefined && L.cur().kind !== LBRACKET) {
          const v = this.parseSingleConstant(elem.kind);
          if (N < 0) this.check('cannot create std::vector larger than max_size()', start);
          if (N > MAX_EXPANDED_LIST) this.check(`list default of size ${N} is too large to expand`, start);
          return this.convertToList(elem.kind, start, new Array<Scalar>(N).fill(v));
        }
        const open = L.expect(LBRACKET);
        const vs: Scalar[] = [];
        if (L.cur().kind !== RBRACKET) {
          do {
            vs.push(this.parseSingleConstant(elem.kind));
          } while (L.nextIf(COMMA));
        }
        L.expect(RBRACKET);
        return this.convertToList(elem.kind, open, vs);
      }
      default:
        this.report('unexpected type, file a bug report', start);
    }
  }

  private convertToList(kind: string, tok: Token, vs: Scalar[]): DefaultValue {
    const want =
      kind === 'ComplexType' ? 'Complex' : kind === 'FloatType' ? 'Double' : kind === 'IntType' ? 'Int' : kind === 'BoolType' ? 'Bool' : undefined;
    if (want === undefined) this.report('lists are only supported for float, int and complex types', tok);
    const name = { Complex: 'complex', Double: 'double', Int: 'int', Bool: 'bool' }[want];
    for (const v of vs) {
      if (v.tag !== want) this.check(`expected ${name} in a ${name} list default, found ${v.tag}`, tok);
    }
    return Object.freeze({ tag: 'List', elementTag: want, items: Object.freeze(vs) }) as DefaultValue;
  }

  private parseSingleConstant(kind: string): Scalar {
    const L = this.L;
    const cur = L.cur();
    switch (cur.kind) {
      case TK.TRUE:
        L.next();
        return boolValue(true);
      case TK.FALSE:
        L.next();
        return boolValue(false);
      case TK.NONE:
        L.next();
        return NONE;
      case TK.STRINGLITERAL:
        L.next();
        return stringValue(this.parseStringLiteral(cur));
      case TK.IDENT: {
        L.next();
        switch (L.text(cur)) {
          case 'float':
            return intValue(6n); // at::kFloat
          case 'complex':
            return intValue(9n); // at::kComplexFloat
          case 'long':
            return intValue(4n); // at::kLong
          case 'strided':
            return intValue(0n); // at::kStrided
          case 'Mean':
            return intValue(1n); // at::Reduction::Mean
          case 'contiguous_format':
            return intValue(0n); // c10::MemoryFormat::Contiguous
          default:
            this.report('invalid numeric default value', L.cur());
        }
      }
      // falls through (report() never returns)
      default: {
        const neg = L.nextIf(MINUS);
        const tok = L.expect(TK.NUMBER);
        const n = (neg ? '-' : '') + L.text(tok);
        try {
          if (kind === 'ComplexType' || n.includes('j')) {
            return complexValue(0, stod(n.slice(0, -1)));
          }
          if (kind === 'FloatType' || n.includes('.') || n.includes('e')) {
            return doubleValue(stod(n));
          }
          return intValue(stoll(n));
        } catch (e) {
          this.conversion(e, tok);
        }
      }
    }
  }

  /** torch::jit::parseStringLiteral over UTF-8 bytes; returns a byte string. */
  private parseStringLiteral(tok: Token): string {
    const raw = this.L.text(tok);
    const q = raw[0]!;
    const quoteLen = raw.startsWith(q + q + q) && raw.length >= 6 ? 3 : 1;
    const body = utf8Bytes(raw.slice(quoteLen, raw.length - quoteLen));
    let pos = body.indexOf('\\');
    if (pos < 0) return body;
    let out = '';
    let last = 0;
    while (pos >= 0) {
      out += body.slice(last, pos);
      const c = body[pos + 1];
      let ch: string;
      let consumed = 2;
      switch (c) {
        case '\\':
        case "'":
        case '"':
        case '\n':
          ch = c;
          break;
        case 'a':
          ch = '\x07';
          break;
        case 'b':
          ch = '\b';
          break;
        case 'f':
          ch = '\f';
          break;
        case 'n':
          ch = '\n';
          break;
        case 'v':
          ch = '\v';
          break;
        case 't':
          ch = '\t';
          break;
        case 'x':
          this.report('unsupported hex specifier', tok);
        // eslint-disable-next-line no-fallthrough
        case 'u':
        case 'U':
          this.report('unsupported unicode specifier', tok);
        // eslint-disable-next-line no-fallthrough
        default: {
          // octal \nnn (needs three digits after the backslash, value < 256)
          const d = body.slice(pos + 1, pos + 4);
          if (pos + 3 < body.length && /^[0-7]{3}$/.test(d) && parseInt(d, 8) < 256) {
            ch = String.fromCharCode(parseInt(d, 8));
            consumed = 4;
          } else {
            this.report(' ill formed octal specifier', tok);
          }
        }
      }
      out += ch;
      last = pos + consumed;
      pos = body.indexOf('\\', last);
    }
    return out + body.slice(last);
  }
}

/** Parses a schema or a bare operator name (`aten::add.Tensor`), like torch::jit::parseSchemaOrName. */
export function parseSchemaOrName(text: string, opts: ParseOptions = {}): OperatorName | FunctionSchema {
  return new SchemaParser(text, opts).parseExactlyOneDeclaration();
}

/** Parses a function schema exactly like PyTorch 2.13's `torch._C.parse_schema`. */
export function parseSchema(text: string, opts: ParseOptions = {}): FunctionSchema {
  const r = parseSchemaOrName(text, opts);
  if (!(r instanceof FunctionSchema)) {
    throw new SchemaParseError({
      schema: text,
      reason: 'Tried to parse a function schema but only the operator name was given',
      style: 'check',
    });
  }
  return r;
}

/** Parses an operator name (`aten::add.Tensor`), like torch::jit::parseName. */
export function parseName(text: string, opts: ParseOptions = {}): OperatorName {
  const r = parseSchemaOrName(text, opts);
  if (!(r instanceof OperatorName)) {
    throw new SchemaParseError({
      schema: text,
      reason: 'Tried to parse an operator name but function schema was given',
      style: 'check',
    });
  }
  return r;
}
