// The handles emitter: src/generated/Operators.ts, the typed operator handles (torchgen's Operators.h,
// `at::_ops::<name>`, from torchgen/gen.py's compute_operator_headers). Handles only: the file imports no
// kernel, so every floor above dispatch can call operators through it. Pure: returns a string.

import type { NativeFunction } from '../model.js';
import { GENERATED_HEADER, TsTypes, quote } from '../api/types.js';
import { typeImports } from './RegisterDispatchKey.js';

/** The text of src/generated/Operators.ts for `functions` (the parsed native_functions.yaml). */
export function emitOperators(functions: readonly NativeFunction[]): string {
  const handleLines: string[] = [];
  const handleFinds: string[] = [];
  const seenHandles = new Map<string, NativeFunction>();
  for (const nf of functions) {
    const ctx = new TsTypes(nf);
    const clash = seenHandles.get(nf.handleName);
    if (clash) ctx.fail(`handle name '${nf.handleName}' clashes with '${clash.opName}' (${clash.file}:${clash.line})`);
    seenHandles.set(nf.handleName, nf);
    handleLines.push(`  /** \`${nf.funcText.replace(/\*\//g, '*\\/')}\` */`);
    handleLines.push(`  ${nf.handleName}: OperatorHandle<${ctx.signature()}>;`);
    handleFinds.push(`    ${nf.handleName}: find(${quote(`aten::${nf.func.name}`)}, ${quote(nf.func.overloadName)}),`);
  }
  const body = [
    '/** An optional argument: `None` is `null`; an omitted trailing argument is `undefined`. */',
    'export type Opt<T> = T | null | undefined;',
    '',
    '/** Typed handles of the aten operators, named as torchgen names `at::_ops` (overload joined by `_`). */',
    'export interface AtenOps {',
    ...handleLines,
    '}',
    '',
    '// Note [Handles in one object literal]',
    '// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~',
    '// Every call through the front end and every generated autograd kernel reads a handle from this object, so',
    '// it is built as one literal: V8 gives it fast properties (an object that grows to hundreds of properties one',
    '// by one falls back to dictionary mode, a hash lookup per read).',
    '/** The typed handles, each found with `find(name, overload)` after registration. */',
    'export function buildHandles(find: (name: string, overload: string) => OperatorHandle): AtenOps {',
    '  return {',
    ...handleFinds,
    '  } as AtenOps;',
    '}',
    '',
    'let handles: AtenOps | null = null;',
    '',
    '/**',
    ' * The aten operator handles of the process-wide dispatcher, found on first use (the aten library is',
    ' * registered before the dispatcher is first used: Note [Static registration] in src/dispatch/Dispatcher.ts).',
    ' */',
    'export function aten(): AtenOps {',
    '  if (handles === null) {',
    '    const dispatcher = Dispatcher.singleton();',
    '    handles = buildHandles((name, overload) => dispatcher.findSchemaOrThrow(name, overload));',
    '  }',
    '  return handles;',
    '}',
    '',
  ].join('\n');
  return [
    GENERATED_HEADER,
    '//',
    "// The typed handles of the aten operators (torchgen's Operators.h, `at::_ops::<name>`). Kernels, autograd",
    '// formulas, Tensor methods and the front end call operators through these; no kernel is imported here (the',
    '// registrations are src/generated/Register<Key>.ts). See src/codegen/README.md.',
    '',
    "import { Dispatcher } from '../dispatch/Dispatcher.js';",
    ...typeImports(body, ['Opt', 'AtenOps']),
    '',
    body,
  ].join('\n');
}
