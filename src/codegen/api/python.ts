// The Python-style api of the generator: the bindings of the `variants` of native_functions.yaml (one per
// name, its overloads, positional and keyword-only arguments, the out= grouping, the TensorOptions keywords of
// factories), their TypeScript types, checks and conversions, and the signatures Python prints. Mirrors
// torchgen/api/python.py (PythonSignature) and the grouping of tools/autograd/gen_python_functions.py; the
// parsing rules are those of torch/csrc/utils/python_arg_parser.cpp. The emitter is dest/python.ts. Pure.

import { ListType, OptionalType, type Argument, type SchemaType } from '../../schema/index.js';
import type { DefaultValue } from '../../schema/values.js';
import { NativeFunctionsError, type NativeFunction, type Variant } from '../model.js';

// Note [Generated argument parsing]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's Python bindings hold each signature as data and run one generic parser (PythonArgParser) over
// every call. The parser's cost would be the whole budget of a 1-element `torch.add` here, so the generator
// writes the matching out per name instead, in straight-line code: strip trailing `undefined`s, take a
// trailing plain object as the keyword arguments, then try each overload in file order on the positional
// arguments' JavaScript types (a second pass lets a number stand for a Tensor in the ops PyTorch allows it
// for: Note [Numbers as tensors]). Within an overload, positional arguments come in schema order; any
// defaulted positional argument and every keyword-only argument may be given by its schema name in the
// options object; `out` in the options object selects the `.out` overload; defaults are filled from the
// schema. A lone `int[]` positional argument also takes varargs (`x.view(2, 3)` and `x.view([2, 3])`).
// TypeScript overloads, one per number of positional arguments, are generated from the same schemas, so a
// wrong call is a compile error; the runtime checks keep untyped callers honest with PyTorch's texts.

// Note [Every argument by keyword]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Python lets any parameter be named, required ones included: `torch.softmax(x, dim=1)`,
// `x.sum(dim=1, keepdim=True)`, `torch.max_pool2d(x, kernel_size=2)`. Here the options object plays the part
// of the keywords: before an overload is tried, its positional parameters after those given positionally
// are looked up in the options object by name (a function's `self` as `input`, as Python names it), and the
// overload is matched on that list (`kwPositional` in src/api/python_arg_parser.ts). Only calls that give
// fewer positional arguments than the overload has and an options object pay for the look-up. A keyword that
// repeats a positional argument is PyTorch's "got multiple values for argument" error; an unknown one is
// "got an unexpected keyword argument" (or, with several overloads, no overload fits and the "invalid
// combination of arguments" text lists them all).

// Note [Numbers as tensors]
// ~~~~~~~~~~~~~~~~~~~~~~~~~
// python_arg_parser.cpp accepts a Python number for a Tensor parameter only for the ops in
// `should_allow_numbers_as_tensors` (add, sub, mul, div, ... and their in-place/out forms); it becomes a
// wrapped-number tensor (src/tensor/ScalarOps.ts). The other ops reject it.
const NUMBERS_AS_TENSORS = new Set(['add', 'add_', 'sub', 'sub_', 'mul', 'mul_', 'div', 'div_']);

/**
 * Names bound by hand (gen_python_functions.py's SKIP_PYTHON_BINDINGS): `to` also takes a device (PyTorch
 * binds it by hand too); `uniform_` keeps a lenient options object (it ignores keys it does not take, so a
 * factory's options can be passed on), which existing callers rely on.
 */
export const SKIP_BINDINGS: ReadonlySet<string> = new Set(['to', 'uniform_']);

/**
 * Overloads with no Python binding (gen_python_functions.py's SKIP_PYTHON_BINDINGS_SIGNATURES): `div.Scalar` is
 * reached only from C++ (`tensor / n`, as cross_entropy's mean); Python's `x / 2` wraps 2 as a tensor (div.Tensor).
 */
export const SKIP_OVERLOADS: ReadonlySet<string> = new Set(['div.Scalar', 'mul.Scalar']);

/**
 * The JavaScript name of an op: verbatim from the schema (`torch.index_select`, `x.masked_fill_`), as a
 * PyTorch user types it; only argument names become camelCase identifiers (see paramIdent).
 */
export function jsName(name: string): string {
  return name;
}

/** camelCase of a snake_case schema argument name: `memory_format` → `memoryFormat`. */
function camelName(name: string): string {
  return name.replace(/([a-zA-Z0-9])_+([a-z0-9])/g, (_, a: string, c: string) => a + c.toUpperCase());
}

/** A schema argument as a TypeScript identifier: `self` → `input` (as Python names it), camelCase. */
function paramIdent(name: string, fn: boolean): string {
  if (name === 'self') return fn ? 'input' : 'self';
  const c = camelName(name);
  return ['from', 'to', 'in', 'default', 'function'].includes(c) ? `${c}_` : c;
}

export interface Overload {
  readonly nf: NativeFunction;
  /** The `.out` sibling selected by `out` in the options object. */
  readonly out: NativeFunction | null;
  readonly positional: readonly Argument[];
  readonly kwOnly: readonly Argument[];
  /** Index of the first positional argument that (with all after it) has a default. */
  readonly minPositional: number;
  readonly varargs: boolean;
  readonly numbersAsTensors: boolean;
  readonly tensorOptions: boolean;
}

export interface Binding {
  readonly name: string;
  readonly js: string;
  readonly overloads: Overload[];
}

function fail(nf: NativeFunction, what: string): never {
  const open = nf.funcText.indexOf('(');
  throw new NativeFunctionsError(nf.file, nf.line, `${nf.funcText.slice(0, open)}(...)`, what);
}

/** `Tensor?[]` (index's indices): a list whose elements are Tensors or null. */
export function isOptionalTensorListType(t: SchemaType): boolean {
  return t instanceof ListType && t.elem instanceof OptionalType && t.elem.elem.kind === 'TensorType';
}

export function isIntListType(t: SchemaType): boolean {
  return t instanceof ListType && (t.elem.kind === 'IntType' || t.elem.kind === 'SymIntType');
}

/** The variants of an entry; torchgen defaults an entry without `variants` to `function`. */
function variantsOf(nf: NativeFunction): readonly Variant[] {
  return nf.variants.length > 0 ? nf.variants : ['function'];
}

function sameArgs(a: readonly Argument[], b: readonly Argument[]): boolean {
  return a.length === b.length && a.every((x, i) => x.name === b[i]!.name && x.type.str() === b[i]!.type.str());
}

/** Groups the entries with `variant` into bindings, one per base name, out= overloads folded into theirs. */
export function bindings(functions: readonly NativeFunction[], variant: Variant): Binding[] {
  const byName = new Map<string, Binding>();
  const outs = functions.filter((nf) => nf.func.kind() === 'out');
  for (const nf of functions) {
    if (nf.func.kind() === 'out' || !variantsOf(nf).includes(variant) || SKIP_BINDINGS.has(nf.func.name) || SKIP_OVERLOADS.has(nf.opName))
      continue;
    const args = nf.func.arguments.filter((a) => !(variant === 'method' && a.name === 'self'));
    if (variant === 'method' && args.length === nf.func.arguments.length) fail(nf, "a method variant needs a 'Tensor self' argument");
    const positional = args.filter((a) => !a.kwargOnly);
    const kwOnly = args.filter((a) => a.kwargOnly);
    let minPositional = positional.length;
    while (minPositional > 0 && positional[minPositional - 1]!.hasDefault) minPositional--;
    const out =
      outs.find(
        (o) =>
          o.func.name === nf.func.name &&
          sameArgs(
            o.func.arguments.filter((a) => !a.isOut),
            nf.func.arguments,
          ),
      ) ?? null;
    const names = new Set(args.map((a) => a.name));
    const ov: Overload = {
      nf,
      out,
      positional,
      kwOnly,
      minPositional,
      varargs: positional.length === 1 && isIntListType(positional[0]!.type),
      numbersAsTensors: NUMBERS_AS_TENSORS.has(nf.func.name),
      tensorOptions: ['dtype', 'layout', 'device', 'pin_memory'].every((n) => names.has(n)),
    };
    let b = byName.get(nf.func.name);
    if (!b) byName.set(nf.func.name, (b = { name: nf.func.name, js: jsName(nf.func.name), overloads: [] }));
    b.overloads.push(ov);
  }
  return [...byName.values()];
}

// ---- types -------------------------------------------------------------------------------------------------

// Note [Fixed-size int lists take a single int]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's argument parser accepts one int for an `int[N]`/`SymInt[N]` argument and repeats it N times:
// `x.sum(1)` (int[1] dim), `conv2d(x, w, stride=2)` (SymInt[2] stride). These helpers wrap the type-based
// ones with that rule, for arguments whose schema gives a size N.
function fixedIntList(a: Argument): number | null {
  if (isReduction(a)) return null;
  const base = a.type instanceof OptionalType ? a.type.elem : a.type;
  return a.N !== undefined && isIntListType(base) ? a.N : null;
}

// Note [Reduction by name]
// ~~~~~~~~~~~~~~~~~~~~~~~~~
// The loss schemas take `int reduction=Mean` (at::Reduction: 0 none, 1 mean, 2 sum), which is what
// `torch.mse_loss` takes in Python; torch.nn.functional passes the name (`reduction='sum'`) and converts it
// with `_Reduction.get_enum`. The front end takes both: an `int reduction` argument also accepts
// 'none' | 'mean' | 'sum', converted by `toReduction` (src/api/python_arg_parser.ts), whose error for any
// other string is get_enum's ("avg is not a valid value for reduction").
function isReduction(a: Argument): boolean {
  return a.name === 'reduction' && a.type.kind === 'IntType';
}

function argPublicType(nf: NativeFunction, a: Argument, numbers: boolean): string {
  if (isReduction(a)) return "number | 'none' | 'mean' | 'sum'";
  if (fixedIntList(a) === null) return publicType(nf, a.type, numbers);
  return `number | readonly number[]${a.type instanceof OptionalType ? ' | null' : ''}`;
}

export function argCheck(a: Argument, v: string, numbers: boolean): string {
  if (isReduction(a)) return `(isInt(${v}) || typeof ${v} === 'string')`;
  if (fixedIntList(a) === null) return checkExpr(a.type, v, numbers);
  const check = `(isInt(${v}) || isIntList(${v}))`;
  return a.type instanceof OptionalType ? `(${v} === null || ${check})` : check;
}

export function argConvert(a: Argument, v: string, numbers: boolean): string {
  if (isReduction(a)) return `toReduction(${v})`;
  const n = fixedIntList(a);
  if (n === null) return convertExpr(a.type, v, numbers);
  const conv = `toIntListN(${v}, ${n})`;
  return a.type instanceof OptionalType ? `${v} === null ? null : ${conv}` : conv;
}

/** The public TypeScript type of an argument (what callers may pass). */
function publicType(nf: NativeFunction, t: SchemaType, numbers: boolean): string {
  if (t instanceof OptionalType) return `${publicType(nf, t.elem, numbers)} | null`;
  if (t instanceof ListType) {
    const e = publicType(nf, t.elem, false);
    return `readonly ${e.includes(' ') ? `(${e})` : e}[]`;
  }
  switch (t.kind) {
    case 'TensorType':
      return numbers ? 'Tensor | number | boolean' : 'Tensor';
    case 'NumberType':
      return 'number | boolean';
    case 'IntType':
    case 'SymIntType':
    case 'FloatType':
      return 'number';
    case 'BoolType':
      return 'boolean';
    case 'StringType':
      return 'string';
    case 'ScalarTypeType':
      return 'DtypeLike';
    case 'DeviceObjType':
      return 'DeviceLike';
    case 'LayoutType':
      return 'Layout';
    case 'MemoryFormatType':
      return 'MemoryFormat';
    case 'GeneratorType':
      return 'Generator';
    default:
      return fail(nf, `unsupported argument type '${t.str()}' for a Python binding`);
  }
}

/** The type the operator handle takes (src/generated/Operators.ts), for the casts of converted values. */
export function handleType(t: SchemaType): string {
  if (t instanceof OptionalType) return `${handleType(t.elem)} | null`;
  if (t instanceof ListType) {
    const e = handleType(t.elem);
    return `${e.includes(' ') ? `(${e})` : e}[]`;
  }
  switch (t.kind) {
    case 'TensorType':
      return 'Tensor';
    case 'NumberType':
      return 'number | boolean';
    case 'BoolType':
      return 'boolean';
    case 'StringType':
      return 'string';
    case 'ScalarTypeType':
      return 'ScalarType';
    case 'DeviceObjType':
      return 'Device';
    case 'LayoutType':
      return 'Layout';
    case 'GeneratorType':
      return 'Generator';
    default:
      return 'number';
  }
}

/** The Python type name in messages (python_arg_parser.cpp's FunctionParameter::type_name). */
export function pyTypeName(t: SchemaType): string {
  const base = t instanceof OptionalType ? t.elem : t;
  if (base instanceof ListType) return isIntListType(base) ? 'tuple of ints' : `tuple of ${pyTypeName(base.elem)}s`;
  switch (base.kind) {
    case 'TensorType':
      return 'Tensor';
    case 'NumberType':
      return 'Number';
    case 'IntType':
    case 'SymIntType':
      return 'int';
    case 'FloatType':
      return 'float';
    case 'BoolType':
      return 'bool';
    case 'StringType':
      return 'str';
    case 'ScalarTypeType':
      return 'torch.dtype';
    case 'DeviceObjType':
      return 'torch.device';
    case 'LayoutType':
      return 'torch.layout';
    case 'MemoryFormatType':
      return 'torch.memory_format';
    case 'GeneratorType':
      return 'torch.Generator';
    default:
      return base.str();
  }
}

/** A runtime check of value expression `v` against `t`. */
function checkExpr(t: SchemaType, v: string, numbers: boolean): string {
  if (t instanceof OptionalType) return `(${v} === null || ${checkExpr(t.elem, v, numbers)})`;
  if (t instanceof ListType) {
    if (isIntListType(t)) return `isIntList(${v})`;
    if (isOptionalTensorListType(t)) return `isOptionalTensorList(${v})`;
    if (t.elem.kind === 'TensorType') return `isTensorList(${v})`;
    return `Array.isArray(${v})`;
  }
  switch (t.kind) {
    case 'TensorType':
      return numbers ? `isTensorOrNumber(${v})` : `isTensor(${v})`;
    case 'NumberType':
      return `isScalar(${v})`;
    case 'IntType':
    case 'SymIntType':
    case 'LayoutType':
    case 'MemoryFormatType':
      return `isInt(${v})`;
    case 'FloatType':
      return `isFloat(${v})`;
    case 'BoolType':
      return `isBool(${v})`;
    case 'StringType':
      return `typeof ${v} === 'string'`;
    case 'ScalarTypeType':
      return `isDtype(${v})`;
    case 'DeviceObjType':
      return `isDevice(${v})`;
    case 'GeneratorType':
      return `isGenerator(${v})`;
    default:
      return 'false';
  }
}

/** The conversion of a checked value expression `v` to what the handle takes. */
function convertExpr(t: SchemaType, v: string, numbers: boolean): string {
  if (t instanceof OptionalType) {
    const inner = convertExpr(t.elem, v, numbers);
    return inner === `${v} as ${handleType(t.elem)}` ? `${v} as ${handleType(t)}` : `${v} === null ? null : ${inner}`;
  }
  if (isIntListType(t)) return `toIntList(${v})`;
  if (isOptionalTensorListType(t)) return `toOptionalTensorList(${v})`;
  switch (t.kind) {
    case 'TensorType':
      return numbers ? `toTensor(${v})` : `${v} as Tensor`;
    case 'ScalarTypeType':
      return `toDtype(${v})`;
    case 'DeviceObjType':
      return `toDevice(${v})`;
    default:
      return `${v} as ${handleType(t)}`;
  }
}

/** A schema default as a JavaScript expression. */
export function defaultExpr(nf: NativeFunction, d: DefaultValue): string {
  switch (d.tag) {
    case 'None':
      return 'null';
    case 'Int':
      return d.value.toString();
    case 'Double':
      return Object.is(d.value, -0) ? '-0' : String(d.value);
    case 'Bool':
      return String(d.value);
    case 'String':
      return JSON.stringify(d.value);
    case 'List':
      return `[${d.items.map((i) => (i.tag === 'Int' ? i.value.toString() : i.tag === 'Double' || i.tag === 'Bool' ? String(i.value) : '0')).join(', ')}]`;
    default:
      return fail(nf, `unsupported default '${d.tag}' for a Python binding`);
  }
}

/** Python's spelling of a default in signatures (`None`, `1`, `False`). */
export function pyDefault(d: DefaultValue): string {
  switch (d.tag) {
    case 'None':
      return 'None';
    case 'Bool':
      return d.value ? 'True' : 'False';
    case 'Int':
      return d.value.toString();
    case 'Double':
      return String(d.value);
    default:
      return '...';
  }
}

/** The overload as Python prints it in "expected one of": `(Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None)`. */
export function pySignature(ov: Overload): string {
  const arg = (a: Argument): string => {
    const name = pyArgName(a);
    const base = `${pyTypeName(a.type)} ${name}`;
    return a.defaultValue !== undefined ? `${base} = ${pyDefault(a.defaultValue)}` : base;
  };
  const parts = ov.positional.map(arg);
  const kw = ov.kwOnly.map(arg);
  if (ov.out) kw.push(numOuts(ov.out) > 1 ? 'tuple of Tensors out = None' : 'Tensor out = None');
  if (ov.tensorOptions) kw.push('bool requires_grad = False');
  if (kw.length > 0) parts.push('*', ...kw);
  return `(${parts.join(', ')})`;
}

/**
 * A parameter's name in printed signatures: torchgen's argument_str renames `self` to `input` when its type
 * is Tensor (`pow.Scalar` prints `(Number self, Tensor exponent, ...)`).
 */
export function pyArgName(a: Argument): string {
  return a.name === 'self' && a.type.kind === 'TensorType' ? 'input' : a.name;
}

// ---- emission ----------------------------------------------------------------------------------------------

/** The options-object type of an overload, and whether it must be given. */
/** How many out= tensors an out overload takes (`max.dim_max` has two: values and indices). */
export function numOuts(nf: NativeFunction): number {
  return nf.func.arguments.filter((a) => a.isOut).length;
}

function optionsType(ov: Overload, given: number = ov.minPositional): { type: string; required: boolean } {
  const fields: string[] = [];
  let required = false;
  for (const a of [...ov.positional.slice(given), ...ov.kwOnly]) {
    const opt = a.hasDefault;
    if (!opt) required = true;
    const key = a.name === 'self' ? 'input' : a.name;
    const t = argPublicType(ov.nf, a, ov.numbersAsTensors);
    // The camelCase spelling too (Note [Option keys] in src/c10/Kwargs.ts); a required key with two
    // spellings is optional in the type and checked at run time.
    const camel = camelName(key);
    fields.push(`${key}${opt || camel !== key ? '?' : ''}: ${t}`);
    if (camel !== key) fields.push(`${camel}?: ${t}`);
  }
  if (ov.out) {
    const n = numOuts(ov.out);
    fields.push(n === 1 ? 'out?: Tensor' : `out?: [${new Array<string>(n).fill('Tensor').join(', ')}]`);
  }
  if (ov.tensorOptions) fields.push('requires_grad?: boolean', 'requiresGrad?: boolean');
  return { type: fields.length === 0 ? '' : `{ ${fields.join('; ')} }`, required };
}

function returnType(ov: Overload, method: boolean): string {
  const rets = ov.nf.func.returns;
  // `-> ()` (the in-place _foreach_* and _fused_* operators): Python returns None.
  if (rets.length === 0) return 'void';
  if (rets.length > 1) {
    // `(Tensor values, Tensor indices)`: PyTorch returns a named tuple; here an array in schema order.
    // `(Tensor hist, Tensor[] bin_edges)` (histogramdd): a list of tensors in its place.
    const listOfTensors = (r: (typeof rets)[number]): boolean => r.type.kind === 'ListType' && r.type.toString().startsWith('Tensor');
    for (const r of rets) {
      if (r.type.kind !== 'TensorType' && !listOfTensors(r)) {
        return fail(ov.nf, `unsupported return type '${r.type.str()}' in a multi-return binding`);
      }
    }
    return `[${rets.map((r) => (listOfTensors(r) ? 'Tensor[]' : 'Tensor')).join(', ')}]`;
  }
  const r = rets[0]!;
  if (r.type.kind === 'NumberType') return 'ScalarValue';
  if (r.type.kind === 'BoolType') return 'boolean';
  if (r.type.kind === 'ListType' && r.type.toString().startsWith('Tensor')) return 'Tensor[]';
  if (r.type.kind !== 'TensorType') return fail(ov.nf, `unsupported return type '${r.type.str()}' for a Python binding`);
  const self = ov.nf.func.arguments[0];
  return method && r.isWrite && self?.name === 'self' && self.isWrite ? 'this' : 'Tensor';
}

/** The TypeScript overload signatures (parameter lists and return type) of one overload. */
export function tsSignatures(ov: Overload, method: boolean): string[] {
  const fn = !method;
  const { type: opts, required } = optionsType(ov);
  const ret = returnType(ov, method);
  const optsParam = opts === '' ? [] : [`options${required ? '' : '?'}: ${opts}`];
  const param = (a: Argument, optional: boolean): string =>
    `${paramIdent(a.name, fn)}${optional ? '?' : ''}: ${argPublicType(ov.nf, a, ov.numbersAsTensors)}`;
  const out: string[] = [];
  if (ov.varargs) {
    const a = ov.positional[0]!;
    const id = paramIdent(a.name, fn);
    out.push(`(options: ${optionsType(ov, 0).type}): ${ret}`);
    if (!required) out.push(`(...${id}: number[]): ${ret}`);
    if (opts !== '') out.push(`(...args: [...${id}: number[], options: ${opts}]): ${ret}`);
    out.push(`(${[param(a, false), ...optsParam].join(', ')}): ${ret}`);
    return out;
  }
  // Required arguments given by keyword (Note [Every argument by keyword]): `torch.softmax(x, { dim: 1 })`.
  // A function's first Tensor by keyword (`{ input }`) works at run time but gets no signature of its own.
  const first = fn && ov.positional[0]?.type.kind === 'TensorType' ? 1 : 0;
  for (let k = Math.min(first, ov.minPositional); k < ov.minPositional; k++) {
    const ps = ov.positional.slice(0, k).map((a) => param(a, false));
    out.push(`(${[...ps, `options: ${optionsType(ov, k).type}`].join(', ')}): ${ret}`);
  }
  for (let k = ov.minPositional; k <= ov.positional.length; k++) {
    const ps = ov.positional.slice(0, k).map((a, i) => param(a, i >= ov.minPositional));
    out.push(`(${[...ps, ...optsParam].join(', ')}): ${ret}`);
  }
  return out;
}

/** The condition under which overload `ov` matches the positional arguments `a[0..n)`. */
/**
 * The condition under which overload `ov` matches the positional arguments `p[0..m)`: the arguments given
 * positionally, then those of its positional parameters given by keyword (Note [Every argument by keyword]).
 */
export function conditionExpr(ov: Overload, numbers: boolean, overloaded: boolean, method: boolean): string {
  // With several overloads, keyword arguments take part in choosing one, as in PyTorch's parser
  // (`torch.div(a, b, { rounding_mode })` selects div.Tensor_mode over div.Tensor).
  let kw = overloaded ? ` && (o === undefined || kwFits(o, ${JSON.stringify(allowedKw(ov, method))}))` : '';
  // A keyword-only Tensor given as a number selects the next overload (linalg_pinv's rtol=1 is
  // linalg_pinv.atol_rtol_float, not a type error of atol_rtol_tensor), as PyTorch's parser tries each signature.
  if (overloaded && !numbers) {
    for (const a of ov.kwOnly) {
      const t = a.type instanceof OptionalType ? a.type.elem : a.type;
      if (t.kind !== 'TensorType') continue;
      const v = `o[${JSON.stringify(a.name)}]`;
      kw += ` && (o === undefined || ${v} === undefined || ${v} === null || isTensor(${v}))`;
    }
  }
  if (ov.varargs) return `m >= 1 && (m === 1 && isIntList(p[0]) || isIntVarargs(p, m))${kw}`;
  const parts = [
    ov.minPositional === ov.positional.length ? `m === ${ov.minPositional}` : `m >= ${ov.minPositional} && m <= ${ov.positional.length}`,
  ];
  ov.positional.forEach((arg, i) => {
    const c = argCheck(arg, `p[${i}]`, numbers);
    parts.push(i < ov.minPositional ? c : `(m <= ${i} || p[${i}] === undefined || ${c})`);
  });
  return parts.join(' && ') + kw;
}

/** The name a positional parameter goes by as a keyword: a function's `self` is Python's `input`. */
export function kwName(a: Argument, method: boolean): string {
  return a.name === 'self' && !method ? 'input' : a.name;
}

/** The keyword names of an overload's positional parameters, in order (`self` is never a method's keyword). */
export function positionalKw(ov: Overload, method: boolean): string[] {
  return ov.positional.map((a) => kwName(a, method));
}

/** The keyword names an overload accepts. */
export function allowedKw(ov: Overload, method: boolean): string[] {
  const allowed = [...positionalKw(ov, method), ...ov.kwOnly.map((a) => a.name)].filter((a) => a !== 'self');
  if (ov.out) allowed.push('out');
  if (ov.tensorOptions) allowed.push('requires_grad');
  return allowed;
}
