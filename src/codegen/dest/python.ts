// The front-end emitter: src/generated/functions.ts (`torch.<name>` functions) and src/generated/methods.ts
// (Tensor methods) from the bindings of api/python.ts. Mirrors tools/autograd/gen_python_functions.py
// (python_torch_functions, python_variable_methods). Pure: returns strings.

import { ListType, OptionalType, type Argument } from '../../schema/index.js';
import { GENERATED_HEADER } from '../api/types.js';
import { sortOverloads } from '../api/sort_overloads.js';
import type { NativeFunction } from '../model.js';
import {
  type Overload,
  type Binding,
  isOptionalTensorListType,
  isIntListType,
  bindings,
  argCheck,
  argConvert,
  handleType,
  pyTypeName,
  defaultExpr,
  pySignature,
  numOuts,
  tsSignatures,
  conditionExpr,
  allowedKw,
  positionalKw,
} from '../api/python.js';

/** The body that parses the rest of the arguments and calls the operator. */
function bodyLines(b: Binding, ov: Overload, method: boolean, numbers: boolean, indent: string): string[] {
  const L: string[] = [];
  const allowed = allowedKw(ov, method);
  const posNames = positionalKw(ov, method);
  const vars = new Map<string, string>();
  if (method) vars.set('self', 'this');
  ov.positional.forEach((arg, i) => {
    const v = `v${i}`;
    vars.set(arg.name, v);
    if (ov.varargs) {
      L.push(`const ${v} = m === 1 && Array.isArray(p[0]) ? toIntList(p[0]) : (p.slice(0, m) as number[]);`);
      return;
    }
    const conv = argConvert(arg, `p[${i}]`, numbers);
    if (i < ov.minPositional) {
      L.push(`const ${v}: ${handleType(arg.type)} = ${conv};`);
      return;
    }
    L.push(`let ${v}: ${handleType(arg.type)};`);
    L.push(`if (m > ${i} && p[${i}] !== undefined) ${v} = ${conv};`);
    kwLines(b, ov, arg, v, 'else ', L);
  });
  ov.kwOnly.forEach((arg, i) => {
    const v = `k${i}`;
    vars.set(arg.name, v);
    L.push(`let ${v}: ${handleType(arg.type)};`);
    kwLines(b, ov, arg, v, '', L);
  });
  // Unknown and repeated keywords after the arguments' own checks, as FunctionSignature::parse orders them.
  if (isNoArgs(b, method)) L.push(`if (o !== undefined) checkNoKw(${JSON.stringify(b.name)}, o);`);
  else L.push(`if (o !== undefined) checkKw(${JSON.stringify(b.name)}, o, ${JSON.stringify(allowed)}, ${JSON.stringify(posNames)}, n);`);
  const call = (nf: NativeFunction): string => {
    let k = 0;
    const several = numOuts(nf) > 1;
    const args = nf.func.arguments.map((a) =>
      a.isOut ? (several ? `(out as Tensor[])[${k++}] as Tensor` : 'out as Tensor') : (vars.get(a.name) ?? 'undefined'),
    );
    return `at.${nf.handleName}(${args.join(', ')})`;
  };
  if (ov.out) {
    L.push(`const out = o === undefined ? undefined : o.out;`);
    L.push(`if (out !== undefined && out !== null) {`);
    const n = numOuts(ov.out);
    if (n === 1) L.push(`  kwArg(${JSON.stringify(b.name)}, 'out', 'Tensor', isTensor(out), out);`);
    // Several out= tensors come as one tuple (an array here), checked as PyTorch's parser checks a TensorList.
    else L.push(`  checkOutTuple(${JSON.stringify(b.name)}, out, ${n}, ${ov.positional.length + ov.kwOnly.length});`);
    L.push(`  return ${call(ov.out)};`);
    L.push('}');
  }
  if (ov.tensorOptions) {
    L.push(`const r = ${call(ov.nf)};`);
    L.push(`if (o !== undefined && o.requires_grad === true) setFactoryRequiresGrad(r);`);
    L.push('return r;');
  } else {
    L.push(`return ${call(ov.nf)};`);
  }
  return L.map((l) => indent + l);
}

function kwLines(b: Binding, ov: Overload, arg: Argument, v: string, prefix: string, L: string[]): void {
  const key = `o.${arg.name}`;
  const check = argCheck(arg, key, ov.numbersAsTensors);
  L.push(`${prefix}if (o !== undefined && ${key} !== undefined) {`);
  L.push(`  kwArg(${JSON.stringify(b.name)}, '${arg.name}', '${pyTypeName(arg.type)}', ${check}, ${key});`);
  L.push(`  ${v} = ${argConvert(arg, key, ov.numbersAsTensors)};`);
  if (arg.defaultValue !== undefined) {
    L.push(`} else ${v} = ${defaultExpr(ov.nf, arg.defaultValue)};`);
  } else if (b.overloads.length === 1) {
    L.push(`} else return ${badName(b)}(a);`);
  } else {
    L.push(`} else missingKw(${JSON.stringify(b.name)}, '${arg.name}');`);
  }
}

/** The implementation of one binding: the function body shared by functions and methods. */
function implLines(b: Binding, method: boolean): string[] {
  const L: string[] = [];
  // The argument-parsing clock of the profiler (Note [Dispatch phase timing] in src/dispatch/debug.ts).
  L.push('  if (hooks.active) frontEndEnter();');
  L.push('  let n = a.length;');
  L.push('  while (n > 0 && a[n - 1] === undefined) n--;');
  L.push('  let o: Kw | undefined;');
  // Keys in snake_case (Note [Option keys] in src/c10/Kwargs.ts).
  L.push(`  if (n > 0 && isKw(a[n - 1])) o = normalizeKw(${JSON.stringify(b.name)}, a[--n] as Kw);`);
  const passes = [false];
  if (b.overloads.some((ov) => ov.numbersAsTensors)) passes.push(true);
  for (const numbers of passes) {
    for (const ov of b.overloads) {
      if (numbers && !ov.numbersAsTensors) continue;
      L.push(`  // ${ov.nf.opName}${ov.out ? ` (out=: ${ov.out.opName})` : ''}${numbers ? ', numbers as tensors' : ''}`);
      // Positional parameters given by keyword (Note [Every argument by keyword] in api/python.ts).
      const P = ov.positional.length;
      if (P === 0) {
        L.push('  {', '    const m = n;');
      } else {
        L.push('  {');
        L.push(`    const p = o === undefined || n >= ${P} ? a : kwPositional(a, n, o, ${JSON.stringify(positionalKw(ov, method))});`);
        L.push('    const m = p === a ? n : p.length;');
      }
      L.push(`    if (${conditionExpr(ov, numbers, b.overloads.length > 1, method)}) {`);
      L.push(...bodyLines(b, ov, method, numbers, '      '));
      L.push('    }');
      L.push('  }');
    }
  }
  if (isNoArgs(b, method)) L.push(`  return noArgs(${JSON.stringify(b.name)}, a);`);
  else if (b.overloads.length === 1) L.push(`  return ${badName(b)}(a);`);
  else L.push(`  return noMatch(${JSON.stringify(method ? `Tensor.${b.name}` : b.name)}, a, ${sigsName(b)});`);
  return L;
}

/** A method without arguments: PyTorch binds it METH_NOARGS (gen_python_functions.py's is_noarg). */
function isNoArgs(b: Binding, method: boolean): boolean {
  if (!method || b.overloads.length !== 1) return false;
  const ov = b.overloads[0]!;
  return ov.positional.length === 0 && ov.kwOnly.length === 0 && ov.out === null && !ov.tensorOptions;
}

function badName(b: Binding): string {
  return `bad_${b.js}`;
}

/**
 * The error path of a single-signature binding (Note [Single-signature errors] in src/api/python_arg_parser.ts): a function that
 * describes the signature as FunctionSignature holds it and lets `badCall` find PyTorch's text. The description
 * is built only when a call fails.
 */
function badCallLines(b: Binding): string[] {
  const ov = b.overloads[0]!;
  const numbers = ov.numbersAsTensors;
  const param = (a: Argument): string => {
    const base = a.type instanceof OptionalType ? a.type.elem : a.type;
    const list =
      base instanceof ListType
        ? isIntListType(base)
          ? 'int'
          : isOptionalTensorListType(base)
            ? 'Tensor?'
            : base.elem.kind === 'TensorType'
              ? 'Tensor'
              : null
        : null;
    const fields = [
      `name: ${JSON.stringify(a.name === 'self' ? 'input' : a.name)}`,
      `type: ${JSON.stringify(pyTypeName(a.type))}`,
      `check: (v) => ${argCheck(a, 'v', numbers)}`,
      `optional: ${a.hasDefault}`,
      `kwOnly: ${a.kwargOnly}`,
    ];
    if (list !== null) fields.push(`list: '${list}'`);
    return `    { ${fields.join(', ')} },`;
  };
  const L = [`function ${badName(b)}(a: readonly unknown[]): never {`, `  return badCall(${JSON.stringify(b.name)}, a, [`];
  for (const a of [...ov.positional, ...ov.kwOnly]) L.push(param(a));
  if (ov.out) {
    const tuple = numOuts(ov.out) > 1;
    L.push(
      tuple
        ? `    { name: 'out', type: 'tuple of Tensors', check: (v) => v === null || Array.isArray(v), optional: true, kwOnly: true },`
        : `    { name: 'out', type: 'Tensor', check: (v) => v === null || isTensor(v), optional: true, kwOnly: true },`,
    );
  }
  if (ov.tensorOptions) L.push(`    { name: 'requires_grad', type: 'bool', check: (v) => isBool(v), optional: true, kwOnly: true },`);
  L.push(`  ], ${ov.varargs}, ${sigsName(b)});`, '}');
  return L;
}

function sigsName(b: Binding): string {
  return `SIGS_${b.name}`;
}

const RUNTIME_NAMES = [
  'checkKw',
  'kwPositional',
  'isBool',
  'isDevice',
  'isDtype',
  'isFloat',
  'isGenerator',
  'isInt',
  'isIntList',
  'isIntVarargs',
  'isOptionalTensorList',
  'toOptionalTensorList',
  'isKw',
  'normalizeKw',
  'kwFits',
  'toIntListN',
  'checkOutTuple',
  'isScalar',
  'isTensor',
  'isTensorOrNumber',
  'kwArg',
  'missingKw',
  'noMatch',
  'toDevice',
  'toDtype',
  'toIntList',
  'toReduction',
  'badCall',
  'checkNoKw',
  'isTensorList',
  'noArgs',
  'toTensor',
  'type DeviceLike',
  'type DtypeLike',
  'type Kw',
];

const TYPE_IMPORTS: readonly (readonly [names: readonly string[], from: string])[] = [
  [['Device'], '../c10/Device.js'],
  [['Layout', 'MemoryFormat'], '../c10/Layout.js'],
  [['ScalarType'], '../c10/ScalarType.js'],
  [['Generator'], '../random/index.js'],
  [['ScalarValue'], '../tensor/elements.js'],
  [['Tensor'], '../tensor/Tensor.js'],
];

/** The file: header, the imports the body uses, the body. */
function file(what: string, body: readonly string[]): string {
  const text = body.join('\n');
  const uses = (name: string): boolean => new RegExp(`\\b${name}\\b`).test(text);
  const imports: string[] = [];
  for (const [names, from] of TYPE_IMPORTS) {
    const used = names.filter(uses);
    if (used.length > 0) imports.push(`import type { ${used.join(', ')} } from '${from}';`);
  }
  // The parsed arguments go to the typed layer (Note [The typed Tensor layer] in src/codegen/dest/TensorBody.ts).
  if (/\bat\.[A-Za-z_]/.test(text)) imports.push("import * as at from './TensorBody.js';");
  if (uses('frontEndEnter')) imports.push("import { frontEndEnter, hooks } from '../dispatch/debug.js';");
  if (uses('setFactoryRequiresGrad')) imports.push("import { setFactoryRequiresGrad } from '../autograd/variable.js';");
  const runtime = RUNTIME_NAMES.filter((n) => uses(n.replace('type ', '')));
  if (runtime.length > 0) imports.push(`import { ${runtime.join(', ')} } from '../api/python_arg_parser.js';`);
  return [
    GENERATED_HEADER,
    '//',
    what,
    '// See Note [Generated argument parsing] in src/codegen/api/python.ts and src/codegen/README.md.',
    '',
    ...imports,
    '',
    text,
  ].join('\n');
}

/** JavaScript reserved words that are also PyTorch function names. */
const RESERVED_WORDS: ReadonlySet<string> = new Set(['var', 'delete', 'new', 'in', 'function', 'default', 'import', 'export']);

/** The text of src/generated/functions.ts: one exported `torch.<name>` function per function-variant name. */
export function emitFunctions(functions: readonly NativeFunction[]): string {
  const L: string[] = [];
  for (const b of bindings(functions, 'function')) {
    // A name that is a reserved word (`var`) is declared under another identifier and exported under its own
    // name, which export clauses allow (`torch.var` then works as in PyTorch).
    const reserved = RESERVED_WORDS.has(b.js);
    const ident = reserved ? `${b.js}Function` : b.js;
    const exp = reserved ? '' : 'export ';
    L.push(`const ${sigsName(b)} = ${JSON.stringify(sortOverloads(b).map((ov) => pySignature(ov)))};`);
    L.push('');
    L.push(`/** \`torch.${b.name}\`: ${b.overloads.map((ov) => `\`${ov.nf.opName}\``).join(', ')}. */`);
    for (const ov of b.overloads) for (const s of tsSignatures(ov, false)) L.push(`${exp}function ${ident}${s};`);
    L.push(`${exp}function ${ident}(...a: unknown[]): unknown {`);
    L.push(...implLines(b, false));
    L.push('}');
    if (reserved) L.push(`export { ${ident} as ${b.js} };`);
    L.push('');
    if (b.overloads.length === 1) L.push(...badCallLines(b), '');
  }
  return file("// The `torch.<name>` functions of the aten operators with `variants: function` (torchgen's python_torch_functions).", L);
}

/** The text of src/generated/methods.ts: the `TensorMethods` interface and `installTensorMethods`. */
export function emitMethods(functions: readonly NativeFunction[]): string {
  const L: string[] = [];
  const bs = bindings(functions, 'method');
  L.push('/** The generated methods of Tensor (merged into the class by src/tensor/Tensor.ts). */');
  L.push('export interface TensorMethods {');
  for (const b of bs) {
    L.push(`  /** ${b.overloads.map((ov) => `\`${ov.nf.funcText.replace(/\*\//g, '*\\/')}\``).join('; ')} */`);
    for (const ov of b.overloads) for (const s of tsSignatures(ov, true)) L.push(`  ${b.js}${s};`);
  }
  L.push('}');
  L.push('');
  for (const b of bs) {
    if (!isNoArgs(b, true)) L.push(`const ${sigsName(b)} = ${JSON.stringify(sortOverloads(b).map((ov) => pySignature(ov)))};`, '');
    L.push(`function method_${b.js}(this: Tensor, ...a: unknown[]): unknown {`);
    L.push(...implLines(b, true));
    L.push('}');
    L.push('');
    if (b.overloads.length === 1 && !isNoArgs(b, true)) L.push(...badCallLines(b), '');
  }
  L.push('// Note [Installing the generated methods]');
  L.push('// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~');
  L.push('// Tensor.ts calls this once, right after defining the class, so the methods exist whatever module is');
  L.push('// imported first. It only reads function declarations (hoisted), never module constants, so it works while');
  L.push('// the Tensor.ts <-> methods.ts import cycle is still being evaluated.');
  L.push('/** Puts the generated methods on `proto` (Tensor.prototype). */');
  L.push('export function installTensorMethods(proto: object): void {');
  L.push('  Object.defineProperties(proto, {');
  for (const b of bs) L.push(`    ${b.js}: { value: method_${b.js}, writable: true, configurable: true },`);
  L.push('  });');
  L.push('}');
  L.push('');
  return file("// The Tensor methods of the aten operators with `variants: method` (torchgen's python_variable_methods).", L);
}
