// The typed-layer emitter: src/generated/TensorBody.ts, one typed function per operator overload calling its
// handle (torchgen's TensorBody.h and Functions.h: `at::mul(self, other)` / `self.mul(other)` are
// `at::_ops::mul_Tensor::call(self, other)`). From torchgen/gen.py's compute_tensor_method_declarations and
// compute_function. Pure: returns a string.

import type { DefaultValue } from '../../schema/index.js';
import type { NativeFunction } from '../model.js';
import { GENERATED_HEADER, TsTypes, paramName } from '../api/types.js';
import { typeImports } from './RegisterDispatchKey.js';

// Note [The typed Tensor layer]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch parses arguments once, where Python meets C++ (python_variable_methods.cpp); ATen's own code (the
// kernels, the derivative formulas of FunctionsManual.cpp and derivatives.yaml) calls typed C++ functions whose
// overload was resolved when the code was compiled: `grad.mul(other)` is `at::_ops::mul_Tensor::call`. aten-ts
// has the same split: src/generated/methods.ts and functions.ts are the users' parsing layer (keyword options,
// overload resolution, numbers as tensors, PyTorch's error texts) and src/generated/TensorBody.ts is the typed
// layer under it, one exported function per operator overload named as its handle (`mul_Tensor`,
// `sum_dim_IntList`, `max_dim`), whose body is the handle call. Everything below the api floor imports it as
// `import * as at from '../generated/TensorBody.js'` and writes `at.mul_Tensor(grad, other)`;
// `npm run check:typed` (tools/check-typed-calls.ts) fails on a parsing method called below the api floor.
// What the parser did implicitly is spelled out at the call: a number where a Tensor is taken is
// `wrapScalar(n)` (src/tensor/ScalarOps.ts, the parser's wrapped number), an `int[1]` dim is `[d]`, a size is
// an array. Trailing arguments with a schema default may be omitted (the default is the schema's, as
// at::sum(self, dim, keepdim=false)), so a call site reads like PyTorch's C++.
// Free functions, not methods on Tensor.prototype: the prototype already holds the users' methods under the
// Python names (`neg`, `t`, `view`), which typed methods would collide with, and a few hundred more members on
// the public Tensor would be API surface nobody outside the core should call. The tensor floor holds the file
// (it imports only the handles below it), so kernels, iterators and the autograd can all use it.

const RESERVED_WORDS: ReadonlySet<string> = new Set(['var', 'delete', 'new', 'in', 'function', 'default', 'import', 'export']);

/** `defaultExpr` for the typed layer: a schema default as a TypeScript expression, or null if it has none. */
function defaultLiteral(d: DefaultValue): string | null {
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
      return `'${d.value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
    case 'List':
      return d.items.every((i) => i.tag === 'Int' || i.tag === 'Double' || i.tag === 'Bool')
        ? `[${d.items.map((i) => (i.tag === 'Int' ? i.value.toString() : String((i as { value: number | boolean }).value))).join(', ')}]`
        : null;
    default:
      return null;
  }
}

/** One line: `export function <handle>(<typed params>): <ret> { return aten().<handle>.call(<args>); }`. */
function typedFunction(nf: NativeFunction): { line: string; ctx: TsTypes } {
  const ctx = new TsTypes(nf);
  const args = nf.func.arguments;
  // Defaults only on the trailing run of arguments that have one (a parameter with a default before a
  // required one would have to be passed as `undefined`).
  const defaults: (string | null)[] = args.map(() => null);
  for (let i = args.length - 1; i >= 0; i--) {
    const a = args[i]!;
    const d = a.defaultValue !== undefined ? defaultLiteral(a.defaultValue) : null;
    if (d === null) break;
    defaults[i] = d;
  }
  const params = args.map((a, i) => {
    const name = paramName(a.name);
    const type = ctx.argType(a.type);
    return defaults[i] === null ? `${name}: ${type}` : `${name}: ${type} = ${defaults[i]}`;
  });
  const rets = nf.func.returns;
  const ret =
    rets.length === 0 ? 'void' : rets.length === 1 ? ctx.returnType(rets[0]!) : `[${rets.map((r) => ctx.returnType(r)).join(', ')}]`;
  const call = `aten().${nf.handleName}.call(${args.map((a) => paramName(a.name)).join(', ')})`;
  // A reserved word (`var`) is declared with a `_` and exported under its own name: `at.var(self)`.
  const name = RESERVED_WORDS.has(nf.handleName) ? `${nf.handleName}_` : nf.handleName;
  const line = `export function ${name}(${params.join(', ')}): ${ret} { return ${call}; }`;
  return { line: name === nf.handleName ? line : `${line.replace(/^export /, '')}\nexport { ${name} as ${nf.handleName} };`, ctx };
}

/** The text of src/generated/TensorBody.ts for `functions` (the parsed native_functions.yaml). */
export function emitTensorBody(functions: readonly NativeFunction[]): string {
  const lines: string[] = [];
  const code: string[] = [];
  for (const nf of functions) {
    const { line } = typedFunction(nf);
    lines.push(`/** \`${nf.funcText.replace(/\*\//g, '*\\/')}\` */`);
    lines.push(line);
    code.push(line);
  }
  const body = lines.join('\n');
  return [
    GENERATED_HEADER,
    '//',
    "// The typed Tensor layer (ATen's TensorBody.h and Functions.h): one function per operator overload, named as",
    '// its handle (`at::_ops::mul_Tensor`), calling the handle with the arguments as given. Kernels, derivative',
    '// formulas and everything else below the api floor call operators through these (`at.mul_Tensor(grad, other)`);',
    "// src/generated/methods.ts parses the users' arguments and calls them too.",
    '// See Note [The typed Tensor layer] in src/codegen/dest/TensorBody.ts.',
    '',
    "import { aten } from './Operators.js';",
    ...typeImports(code.join('\n')),
    '',
    body,
    '',
  ].join('\n');
}
