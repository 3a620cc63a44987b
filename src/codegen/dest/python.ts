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
  argCode,
  pyTypeName,
  defaultExpr,
  pySignature,
  numOuts,
  tsSignatures,
  allowedKw,
  positionalKw,
} from '../api/python.js';

/** A parameter's row in the table (ArgRow in src/api/python_arg_table.ts). */
function argRow(nf: NativeFunction, a: Argument): Record<string, unknown> {
  const base = a.type instanceof OptionalType ? a.type.elem : a.type;
  const list =
    base instanceof ListType
      ? isIntListType(base)
        ? 'int'
        : isOptionalTensorListType(base)
          ? 'Tensor?'
          : base.elem.kind === 'TensorType'
            ? 'Tensor'
            : undefined
      : undefined;
  const { code, N } = argCode(a);
  return {
    n: a.name,
    t: code,
    y: pyTypeName(a.type),
    d: a.defaultValue === undefined ? undefined : defaultExpr(nf, a.defaultValue),
    N,
    h: a.hasDefault,
    ko: a.kwargOnly,
    l: list,
  };
}

/** The references of an operator call: parsed values by index, -1 self, -2 undefined, -3 out, -4-k out[k]. */
function callRefs(nf: NativeFunction, vars: ReadonlyMap<string, number>): number[] {
  let k = 0;
  const several = numOuts(nf) > 1;
  return nf.func.arguments.map((a) => (a.isOut ? (several ? -4 - k++ : -3) : (vars.get(a.name) ?? -2)));
}

/** An overload's row in the table (OverloadRow in src/api/python_arg_table.ts). */
function overloadRow(ov: Overload, method: boolean): Record<string, unknown> {
  const vars = new Map<string, number>();
  if (method) vars.set('self', -1);
  ov.positional.forEach((a, i) => vars.set(a.name, i));
  ov.kwOnly.forEach((a, j) => vars.set(a.name, ov.positional.length + j));
  const tk = ov.kwOnly.filter((a) => (a.type instanceof OptionalType ? a.type.elem : a.type).kind === 'TensorType').map((a) => a.name);
  return {
    op: ov.nf.handleName,
    c: callRefs(ov.nf, vars),
    out: ov.out?.handleName,
    oc: ov.out === null ? undefined : callRefs(ov.out, vars),
    no: ov.out === null ? undefined : numOuts(ov.out),
    p: ov.positional.map((a) => argRow(ov.nf, a)),
    k: ov.kwOnly.map((a) => argRow(ov.nf, a)),
    mn: ov.minPositional,
    va: ov.varargs || undefined,
    nt: ov.numbersAsTensors || undefined,
    to: ov.tensorOptions || undefined,
    al: allowedKw(ov, method),
    pk: positionalKw(ov, method),
    tk,
  };
}

/** A binding's table as a JavaScript string literal (BindingRow in src/api/python_arg_table.ts). */
function tableLiteral(b: Binding, method: boolean): string {
  const row = {
    n: b.name,
    s: isNoArgs(b, method) ? [] : sortOverloads(b).map((ov) => pySignature(ov)),
    o: b.overloads.map((ov) => overloadRow(ov, method)),
    na: isNoArgs(b, method) || undefined,
  };
  return `'${JSON.stringify(row).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** The implementation of one binding: its table, made on the first call, and the call into the parser. */
function implLines(b: Binding, method: boolean): string[] {
  const self = method ? 'this' : 'undefined';
  return [`  return (${tableName(b)} ??= new ArgTable(${tableLiteral(b, method)}, at, ${method})).call(${self}, a);`];
}

/** A method without arguments: PyTorch binds it METH_NOARGS (gen_python_functions.py's is_noarg). */
function isNoArgs(b: Binding, method: boolean): boolean {
  if (!method || b.overloads.length !== 1) return false;
  const ov = b.overloads[0]!;
  return ov.positional.length === 0 && ov.kwOnly.length === 0 && ov.out === null && !ov.tensorOptions;
}

/**
 * The module variable holding a binding's table: a `var`, so that a call made while the module is still being
 * evaluated (the Tensor.ts <-> methods.ts cycle) finds it undefined and makes it, where a `let` would throw.
 */
function tableName(b: Binding): string {
  return `T_${b.js}`;
}

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
  if (uses('ArgTable')) imports.push("import * as at from './TensorBody.js';", "import { ArgTable } from '../api/python_arg_table.js';");
  if (uses('DeviceLike') || uses('DtypeLike')) {
    const names = ['DeviceLike', 'DtypeLike'].filter(uses);
    imports.push(`import type { ${names.join(', ')} } from '../api/python_arg_parser.js';`);
  }
  return [
    GENERATED_HEADER,
    '//',
    what,
    '// See Note [Generated argument parsing] in src/codegen/api/python.ts and Note [Table-driven argument parsing]',
    '// in src/api/python_arg_table.ts.',
    '',
    '/* eslint-disable no-var -- the tables are made on first use, see tableName in src/codegen/dest/python.ts */',
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
    L.push(`var ${tableName(b)}: ArgTable | undefined;`);
    L.push('');
    L.push(`/** \`torch.${b.name}\`: ${b.overloads.map((ov) => `\`${ov.nf.opName}\``).join(', ')}. */`);
    for (const ov of b.overloads) for (const s of tsSignatures(ov, false)) L.push(`${exp}function ${ident}${s};`);
    L.push(`${exp}function ${ident}(...a: unknown[]): unknown {`);
    L.push(...implLines(b, false));
    L.push('}');
    if (reserved) L.push(`export { ${ident} as ${b.js} };`);
    L.push('');
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
    L.push(`var ${tableName(b)}: ArgTable | undefined;`, '');
    L.push(`function method_${b.js}(this: Tensor, ...a: unknown[]): unknown {`);
    L.push(...implLines(b, true));
    L.push('}');
    L.push('');
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
