// Port of torch/csrc/jit/frontend/function_schema_parser.cpp (PyTorch 2.13): the declaration half of the
// schema language — operator names, argument and return lists, `*` and `...`, default values and string
// literals (parse_string_literal.h) — with the same grammar, canonicalisation of defaults and errors. Types
// are parsed by typeParser.ts (schema_type_parser.cpp), which shares this parser's lexer.

import { AliasInfo } from './AliasInfo.js';
import { FunctionSchema, Argument, OperatorName, nonDefaultAfterDefault } from './FunctionSchema.js';
import { Lexer, TK, isIdentifierToken, type Token } from './lexer.js';
import { NumberConversionError, stod, stoll, toInt32, utf8Bytes } from './numbers.js';
import { SchemaParseError } from './SchemaParseError.js';
import { scalarTypeOfDtypeName } from './scalarTypeNames.js';
import { ListType, OptionalType, type SchemaType } from './types.js';
import { SchemaTypeParser, checkFailed, type ParseOptions } from './typeParser.js';
import { type DefaultValue, NONE, boolValue, complexValue, doubleValue, intValue, parseDevice, stringValue } from './values.js';

export {
  TORCH_CUSTOM_CLASSES,
  isRegisteredOpaqueType,
  registerCustomClass,
  registerOpaqueType,
  unregisterOpaqueType,
  type ParseOptions,
} from './typeParser.js';

/** Sizes beyond this for `T[N] x=<scalar>` are refused instead of materialising the list. */
const MAX_EXPANDED_LIST = 1 << 20;

// Token kinds of single characters are their character codes (lexer.ts).
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

type Scalar = DefaultValue;

/** `SchemaParser` of function_schema_parser.cpp: owns the lexer and the type parser reading from it. */
class SchemaParser {
  private readonly L: Lexer;
  private readonly types: SchemaTypeParser;

  constructor(src: string, opts: ParseOptions) {
    this.L = new Lexer(src);
    this.types = new SchemaTypeParser(this.L, opts);
  }

  // ---- errors ----
  private report(reason: string, tok: Token): never {
    this.L.report(reason, tok.start, tok.end);
  }
  private check(reason: string, tok?: Token): never {
    checkFailed(this.L, reason, tok);
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
      this.check(`Non-default positional argument follows default argument. Parameter ${args[bad]!.name} in ${text}`, argToks[bad]);
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
    let [fake, real, alias] = this.types.parseFakeAndRealType();
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
      let container = this.types.parseAliasAnnotation();
      if (alias) {
        if (!container) container = new AliasInfo({ isWrite: alias.isWrite });
        container = container.withContained(alias);
      }
      alias = container;
      if (L.nextIf(QUESTION)) {
        fake = this.types.optional(fake, L.cur());
        real = this.types.optional(real, L.cur());
      }
    }
    let name = '';
    let defaultValue: DefaultValue | undefined;
    if (isReturn) {
      if (L.cur().kind === TK.IDENT) name = L.text(L.next());
    } else {
      name = L.text(L.expect(TK.IDENT));
      if (L.nextIf(EQUALS)) defaultValue = this.parseDefaultValue(fake, N, takesDtypeNames(real));
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

  // ---- defaults ----
  private parseDefaultValue(type: SchemaType, N: number | undefined, dtypeNames: boolean): DefaultValue {
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
        return this.parseSingleConstant(type.kind, dtypeNames);
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
          const v = this.parseSingleConstant(elem.kind, dtypeNames);
          if (N < 0) this.check('cannot create std::vector larger than max_size()', start);
          if (N > MAX_EXPANDED_LIST) this.check(`list default of size ${N} is too large to expand`, start);
          return this.convertToList(elem.kind, start, new Array<Scalar>(N).fill(v));
        }
        const open = L.expect(LBRACKET);
        const vs: Scalar[] = [];
        if (L.cur().kind !== RBRACKET) {
          do {
            vs.push(this.parseSingleConstant(elem.kind, dtypeNames));
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
      kind === 'ComplexType'
        ? 'Complex'
        : kind === 'FloatType'
          ? 'Double'
          : kind === 'IntType'
            ? 'Int'
            : kind === 'BoolType'
              ? 'Bool'
              : undefined;
    if (want === undefined) this.report('lists are only supported for float, int and complex types', tok);
    const name = { Complex: 'complex', Double: 'double', Int: 'int', Bool: 'bool' }[want];
    for (const v of vs) {
      if (v.tag !== want) this.check(`expected ${name} in a ${name} list default, found ${v.tag}`, tok);
    }
    return Object.freeze({ tag: 'List', elementTag: want, items: Object.freeze(vs) }) as DefaultValue;
  }

  private parseSingleConstant(kind: string, dtypeNames = false): Scalar {
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
          default: {
            // See Note [Dtype names as ScalarType defaults].
            const dtype = dtypeNames ? scalarTypeOfDtypeName(L.text(cur)) : undefined;
            if (dtype !== undefined) return intValue(BigInt(dtype));
            this.report('invalid numeric default value', L.cur());
          }
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
  // The common case, `ns::name.overload` of plain identifiers, without the lexer: the result the parser gives
  // (start-up registers some thousand kernels by name). Anything else, errors included, takes the parser.
  const m = /^([A-Za-z_]\w*)(?:::([A-Za-z_]\w*))?(?:\.([A-Za-z_]\w*))?$/.exec(text);
  if (m !== null) {
    const [, first, second, overload = ''] = m as unknown as [string, string, string | undefined, string | undefined];
    const plain =
      isIdentifierToken(first) &&
      (second === undefined || isIdentifierToken(second)) &&
      (overload === '' || isIdentifierToken(overload)) &&
      overload !== 'default' &&
      !overload.startsWith('__');
    if (plain) return new OperatorName(second === undefined ? first : `${first}::${second}`, overload);
  }
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

// Note [Dtype names as ScalarType defaults]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Defaults are parsed against the argument's "fake" type, which is `int` for `ScalarType`, so an identifier
// default is only one of the six legacy names (float, complex, long, strided, Mean, contiguous_format) for
// most types. PyTorch 2.13 also reads every dtype name (`half`, `float32`, `cdouble`, `bits8`, ...) when the
// argument's real type is `ScalarType`, `ScalarType?` or `ScalarType[]`, and stores its enum value
// (`ScalarType h=half` prints `h=5`); the same names under `int` or `Layout` stay "invalid numeric default
// value". The names and values are c10's (scalarTypeNames.ts).
function takesDtypeNames(real: SchemaType): boolean {
  const t = real instanceof OptionalType || real instanceof ListType ? real.elem : real;
  return t.kind === 'ScalarTypeType';
}
