// The schema emitter: src/generated/RegisterSchema.ts, the schema of every aten operator in file order
// (torchgen's RegisterSchema.cpp, from torchgen/gen.py). Pure: returns a string.

import type { NativeFunction } from '../model.js';
import { GENERATED_HEADER, quote } from '../api/types.js';

/** The text of src/generated/RegisterSchema.ts for `functions` (the parsed native_functions.yaml). */
export function emitRegisterSchema(functions: readonly NativeFunction[]): string {
  return [
    GENERATED_HEADER,
    '//',
    "// The schema of every aten operator (torchgen's RegisterSchema.cpp); src/aten/register.ts defines them.",
    '',
    "import type { AtenOps } from './Operators.js';",
    '',
    '/** Every operator of native_functions.yaml, in file order (which is registration order). */',
    'export const SCHEMAS: Readonly<Record<keyof AtenOps, string>> = {',
    ...functions.map((nf) => `  ${nf.handleName}: ${quote(nf.funcText)},`),
    '};',
    '',
  ].join('\n');
}
