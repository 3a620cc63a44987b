// Unit tests of the schema model: queries, kinds, signatures, equality, errors, values.
import { describe, expect, it } from 'vitest';
import {
  AliasSymbolTable,
  FunctionSchema,
  ListType,
  OperatorName,
  OptionalType,
  SchemaParseError,
  Types,
  UnionType,
  formatDouble,
  formatG17,
  parseName,
  parseSchema,
  parseSchemaOrName,
  registerCustomClass,
  valueToJS,
} from '../../src/schema/index.js';

const ADD_TENSOR = 'aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor';
const ADD_OUT = 'aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)';
const ADD_ = 'aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)';

function parseError(text: string): SchemaParseError {
  try {
    parseSchema(text);
  } catch (e) {
    if (e instanceof SchemaParseError) return e;
    throw e;
  }
  throw new Error(`parsed: ${text}`);
}

describe('data model', () => {
  it('breaks add.Tensor and add.out down', () => {
    const s = parseSchema(ADD_TENSOR);
    expect(s.name).toBe('aten::add');
    expect(s.namespace).toBe('aten');
    expect(s.baseName).toBe('add');
    expect(s.overloadName).toBe('Tensor');
    expect(s.qualifiedName).toBe('aten::add.Tensor');
    expect(s.operatorName.toString()).toBe('aten::add.Tensor');
    expect(s.arguments.map((a) => a.name)).toEqual(['self', 'other', 'alpha']);
    expect(s.arguments[2]!.kwargOnly).toBe(true);
    expect(s.arguments[2]!.type).toBe(Types.Number);
    expect(valueToJS(s.arguments[2]!.defaultValue!)).toBe(1n);
    expect(s.isMutable).toBe(false);
    expect(s.kind()).toBe('functional');

    const o = parseSchema(ADD_OUT);
    expect(o.isMutable).toBe(true);
    expect(o.writtenArguments().map((a) => a.name)).toEqual(['out']);
    expect(o.writtenArgumentIndices()).toEqual([3]);
    expect(o.outArguments().map((a) => a.name)).toEqual(['out']);
    expect(o.aliasedArguments(0)).toEqual([3]);
    expect(o.returnAliases()).toEqual([3]);
    expect(o.aliasedReturnNames()).toEqual(['out']);
    expect(o.arguments[3]!.aliasInfo!.toString()).toBe('(a!)');
    expect(o.kind()).toBe('out');
    expect(o.toString()).toBe(ADD_OUT);
  });

  it('keeps written and fake types apart', () => {
    const s = parseSchema('f(ScalarType? dtype=None, SymInt[2] size=1, Layout l=strided, int[2] k=1) -> ()');
    const [dtype, size, l, k] = s.arguments;
    expect(dtype!.type.str()).toBe('ScalarType?');
    expect(dtype!.fakeType.str()).toBe('int?');
    expect(size!.type).toBeInstanceOf(ListType);
    expect(size!.N).toBe(2);
    expect(size!.fakeType.str()).toBe('int[]');
    expect(valueToJS(size!.defaultValue!)).toEqual([1n, 1n]);
    expect(valueToJS(l!.defaultValue!)).toBe(0n);
    expect(s.toString()).toBe('f(ScalarType? dtype=None, SymInt[2] size=[1, 1], Layout l=0, int[2] k=1) -> ()');
    expect(k!.defaultToString()).toBe('1');
    expect(k!.typeToString()).toBe('int[2]');
  });

  it('models alias info of containers and wildcards', () => {
    const s = parseSchema('aten::unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]');
    const self = s.arguments[0]!;
    expect(self.aliasInfo!.beforeSets).toEqual(['a']);
    expect(self.aliasInfo!.afterSets).toEqual(['*']);
    expect(self.aliasInfo!.isWildcardAfter).toBe(true);
    const ret = s.returns[0]!;
    expect(ret.aliasInfo!.beforeSets).toEqual([]);
    expect(ret.aliasInfo!.containedTypes[0]!.beforeSets).toEqual(['a']);
    expect(s.aliasedArguments(0)).toEqual([0]);
    expect(s.toString()).toBe('aten::unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]');
  });

  it('orders alias sets like libstdc++ unordered_set over interned symbol ids', () => {
    const fresh = () => ({ aliasSymbols: new AliasSymbolTable() });
    expect(parseSchema('f(Tensor(a|b) x) -> ()', fresh()).toString()).toBe('f(Tensor(b|a) x) -> ()');
    expect(parseSchema('f(Tensor(y|a|b) x) -> ()', fresh()).toString()).toBe('f(Tensor(a|b|y) x) -> ()');
    expect(parseSchema('f(Tensor(a|*) x) -> ()', fresh()).toString()).toBe('f(Tensor(*|a) x) -> ()');
    // the order depends on what was interned before, as in a PyTorch process
    const symbols = new AliasSymbolTable();
    parseSchema('f(Tensor(q) x) -> ()', { aliasSymbols: symbols });
    expect(parseSchema('f(Tensor(y|a|b) x) -> ()', { aliasSymbols: symbols }).toString()).toBe(
      'f(Tensor(b|a|y) x) -> ()', // checked against torch 2.13 in a fresh process
    );
  });

  it('parses names and schemas', () => {
    const n = parseSchemaOrName('aten::add.Tensor');
    expect(n).toBeInstanceOf(OperatorName);
    expect(n.toString()).toBe('aten::add.Tensor');
    expect((n as OperatorName).namespace).toBe('aten');
    expect(parseName('foo').toString()).toBe('foo');
    expect(parseSchemaOrName(ADD_TENSOR)).toBeInstanceOf(FunctionSchema);
    expect(() => parseName(ADD_TENSOR)).toThrow(SchemaParseError);
    expect(() => parseSchema('aten::add.Tensor')).toThrow('Tried to parse a function schema but only the operator name was given');
  });

  it('is immutable', () => {
    const s = parseSchema(ADD_OUT);
    expect(Object.isFrozen(s)).toBe(true);
    expect(Object.isFrozen(s.arguments)).toBe(true);
    expect(Object.isFrozen(s.arguments[3])).toBe(true);
    expect(Object.isFrozen(s.arguments[3]!.aliasInfo)).toBe(true);
  });

  it('canonicalises optional and union types like c10', () => {
    expect(OptionalType.create(OptionalType.create(Types.Int)).str()).toBe('int?');
    expect(UnionType.create([Types.Int, Types.None]).str()).toBe('int?');
    expect(UnionType.create([Types.Tensor, Types.Int, Types.String]).annotationStr()).toBe('Union[Tensor, int, str]');
    expect(UnionType.create([Types.Int, Types.Float, Types.Complex]).str()).toBe('Union(Scalar)');
    expect(() => UnionType.create([Types.Int])).toThrow(/single type/);
  });

  it('accepts registered custom classes only', () => {
    expect(() => parseSchema('f(__torch__.torch.classes.my.Thing x) -> ()')).toThrow(SchemaParseError);
    registerCustomClass('__torch__.torch.classes.my.Thing');
    expect(parseSchema('f(__torch__.torch.classes.my.Thing x) -> ()').arguments[0]!.type.str()).toBe('__torch__.torch.classes.my.Thing');
  });
});

describe('schema kinds (torchgen)', () => {
  const kind = (t: string) => parseSchema(t).kind();
  it('classifies functional, inplace, out, mutable and scratch schemas', () => {
    expect(kind(ADD_TENSOR)).toBe('functional');
    expect(kind(ADD_)).toBe('inplace');
    expect(kind(ADD_OUT)).toBe('out');
    expect(kind('__iadd__(Tensor(a!) self, Tensor other) -> Tensor(a!)')).toBe('inplace');
    expect(kind('__add__(Tensor self, Tensor other) -> Tensor')).toBe('functional');
    expect(kind('_fused_moving_avg_obs_fq_helper(Tensor self, Tensor(a!) running_min, float c) -> (Tensor output, Tensor mask)')).toBe(
      'mutable',
    );
    expect(kind('_foo.out(Tensor self, *, Tensor(a!) out, Tensor(b!) _scratch_buf) -> Tensor(a!)')).toBe('scratch');
    expect(() => kind('foo_.out(Tensor(a!) self, *, Tensor(b!) out) -> Tensor(b!)')).toThrow(/both out= and inplace/);
  });
});

describe('signature()', () => {
  it('pairs the functional, inplace and out variants', () => {
    const f = parseSchema(ADD_TENSOR);
    const i = parseSchema(ADD_);
    const o = parseSchema(ADD_OUT);
    expect(f.signature().toString()).toBe('add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor');
    expect(i.signature().toString()).toBe(f.signature().toString());
    expect(o.signature().toString()).toBe(f.signature().toString());
    expect(f.hasSameSignature(o)).toBe(true);
    expect(f.signature({ stripDefault: true }).toString()).toBe('add(Tensor self, Tensor other, *, Scalar alpha) -> Tensor');
  });

  it('drops TensorOptions and turns unreturned mutable inputs into returns', () => {
    const empty = parseSchema(
      'empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor',
    );
    const emptyOut = parseSchema('empty.out(SymInt[] size, *, MemoryFormat? memory_format=None, Tensor(a!) out) -> Tensor(a!)');
    expect(empty.signature().toString()).toBe('empty(SymInt[] size, *, MemoryFormat? memory_format=None) -> Tensor');
    expect(empty.hasSameSignature(emptyOut)).toBe(true);
    const m = parseSchema(
      '_fused_moving_avg_obs_fq_helper(Tensor self, Tensor(a!) running_min, Tensor(b!) running_max, float c) -> (Tensor output, Tensor mask)',
    );
    expect(m.signature().toString()).toBe(
      '_fused_moving_avg_obs_fq_helper(Tensor self, Tensor running_min, Tensor running_max, float c) -> (Tensor, Tensor, Tensor, Tensor)',
    );
    expect(m.signature({ keepReturnNames: true }).toString()).toBe(
      '_fused_moving_avg_obs_fq_helper(Tensor self, Tensor running_min, Tensor running_max, float c) -> (Tensor output, Tensor mask, Tensor running_min_out, Tensor running_max_out)',
    );
  });

  it('optionally pairs view_copy names with views', () => {
    const s = parseSchema('aten::view_copy(Tensor self, SymInt[] size) -> Tensor');
    expect(s.signature({ stripViewCopyName: true }).toString()).toBe('view(Tensor self, SymInt[] size) -> Tensor');
    expect(parseSchema('slice_scatter(Tensor self, Tensor src) -> Tensor').signature({ stripViewCopyName: true }).name).toBe(
      'slice_inverse',
    );
  });
});

describe('equality and compatibility', () => {
  it('compares like c10 operator==', () => {
    expect(parseSchema(ADD_OUT).equals(parseSchema(ADD_OUT))).toBe(true);
    expect(parseSchema(ADD_OUT).equals(parseSchema(ADD_TENSOR))).toBe(false);
    // c10 compares the fake types: ScalarType and int are the same type to it
    expect(parseSchema('f(ScalarType x) -> ()').equals(parseSchema('f(int x) -> ()'))).toBe(true);
    expect(parseSchema('f(int x=1) -> ()').equals(parseSchema('f(int x=1.) -> ()'))).toBe(false);
    expect(parseSchema('f(Tensor(a|b) x) -> ()').equals(parseSchema('f(Tensor(b|a) x) -> ()'))).toBe(true);
    expect(parseSchema('f(int x) -> ()').equals(parseSchema('f(int y) -> ()'))).toBe(false);
  });

  it('checks backward compatibility like c10', () => {
    const old = parseSchema('foo(Tensor a, int b) -> Tensor');
    expect(parseSchema('foo(Tensor a, int b, int c=1) -> Tensor').isBackwardCompatibleWith(old)).toBe(true);
    expect(parseSchema('foo(Tensor a, int b, int c) -> Tensor').isBackwardCompatibleWith(old)).toBe(false);
    expect(parseSchema('foo(Tensor a) -> Tensor').isBackwardCompatibleWith(old)).toBe(false);
    expect(parseSchema('foo(Tensor a, int? b) -> Tensor').isBackwardCompatibleWith(old)).toBe(true);
    expect(parseSchema('foo(Tensor a, Scalar b) -> Tensor').isBackwardCompatibleWith(old)).toBe(true);
    expect(old.isBackwardCompatibleWith(parseSchema('foo(Tensor a, int? b) -> Tensor'))).toBe(false);
  });
});

describe('errors', () => {
  it("say what was expected, what was found and where, in PyTorch's words", () => {
    const e = parseError('foo(Tensor in) -> int');
    expect(e).toBeInstanceOf(SchemaParseError);
    expect(e.name).toBe('SchemaParseError');
    expect(e.expected).toBe('ident');
    expect(e.found).toBe('in');
    expect(e.offset).toBe(11);
    expect(e.end).toBe(13);
    expect(e.line).toBe(1);
    expect(e.column).toBe(11);
    expect(e.schema).toBe('foo(Tensor in) -> int');
    expect(e.reason).toBe("expected ident but found 'in'");
    expect(e.message).toBe("expected ident but found 'in' here:\nfoo(Tensor in) -> int\n           ~~ <--- HERE\n");
  });

  it('locate errors on later lines', () => {
    const e = parseError('f(\n  Tensor x,\n  Tensor y=bad\n) -> ()');
    expect(e.line).toBe(3);
    expect(e.column).toBe(11);
    expect(e.found).toBe('ident');
    expect(e.expected).toBe('None');
  });

  it('word semantic errors like PyTorch', () => {
    expect(parseError('foo(Dimname x) -> Tensor').message).toMatch(/^\nunknown type specifier/);
    expect(parseError('foo(float x=inf) -> Tensor').reason).toBe('invalid numeric default value');
    expect(parseError('foo(float x=5e-324) -> Tensor').message).toMatch(/stod/);
    expect(parseError('foo(int a=1, int b) -> ()').message).toMatch(/Non-default positional argument/);
    expect(parseError('foo(int x) -> ()$').found).toBe('$');
    expect(parseError('').found).toBe('eof');
  });
});

describe('numbers', () => {
  it('prints doubles as IValue does', () => {
    expect(formatDouble(100)).toBe('100.');
    expect(formatDouble(1e10)).toBe('10000000000.');
    expect(formatDouble(-0)).toBe('0.');
    expect(formatDouble(1e-5)).toBe('1.0000000000000001e-05');
    expect(formatDouble(1e20)).toBe('1e+20');
    expect(formatDouble(0.1)).toBe('0.10000000000000001');
    expect(formatDouble(2 ** 63)).toBe('9.2233720368547758e+18');
    expect(formatDouble(-(2 ** 63))).toBe('-9223372036854775808.');
    expect(formatG17(2251799813685246.25)).toBe('2251799813685246.2'); // round half even
    expect(formatG17(2251799813685247.75)).toBe('2251799813685247.8');
    expect(formatG17(1.5e-7)).toBe('1.4999999999999999e-07');
    expect(formatG17(123456789.123)).toBe('123456789.123');
  });

  it('parses numbers like strtod/stoll', () => {
    const d = (t: string) => parseSchema(`f(${t}) -> ()`).arguments[0]!.defaultToString();
    expect(d('int x=0x10')).toBe('0');
    expect(d('int x=1E5')).toBe('1');
    expect(d('int x=1e5')).toBe('100000.');
    expect(d('float x=0x1.8p1')).toBe('3.');
    expect(d('complex x=2.5j')).toBe('0.+2.5j');
    expect(d('int x=-9223372036854775808')).toBe('-9223372036854775808');
    expect(d('str x="a\\101\\n"')).toBe('"aA\\n"');
    expect(d('Device x="cuda:1"')).toBe('cuda:1');
  });
});

describe('parseName without the lexer', () => {
  // parseName reads plain `ns::name.overload` names directly (a start-up fast path); every name must give what
  // the parser gives, and every name the parser rejects must still be rejected with the parser's error.
  const outcome = (f: () => unknown): unknown => {
    try {
      const r = f();
      return r instanceof OperatorName ? { name: r.name, overload: r.overloadName } : r;
    } catch (e) {
      return { error: (e as Error).message };
    }
  };
  it.each([
    'add',
    'aten::add',
    'aten::add.Tensor',
    'aten::_foo_bar2.out_1',
    'myops::None',
    'if',
    'aten::if.Tensor',
    'aten::add.default',
    'aten::add.__foo',
    'aten::add.',
    'aten::add.and',
    'iffy::not_a_keyword.isnot',
    'a::b::c',
    '_',
    '1abc',
    'aten::add.Tensor(Tensor self) -> Tensor',
    ' aten::add',
  ])('%s', (name) => {
    const viaParser = outcome(() => {
      const r = parseSchemaOrName(name);
      if (!(r instanceof OperatorName)) throw new Error('Tried to parse an operator name but function schema was given');
      return r;
    });
    const direct = outcome(() => parseName(name));
    if (typeof viaParser === 'object' && viaParser !== null && 'error' in viaParser) {
      expect(direct).toHaveProperty('error');
    } else {
      expect(direct).toEqual(viaParser);
    }
  });
});
