// The dispatcher's use of function schemas (src/schema): parsing a def, the argument types that decide
// which arguments contribute dispatch keys, and the check of a kernel's declared signature against the
// schema (PyTorch's "Inferred operator schema ... doesn't match" error).

import { parseSchema, type FunctionSchema } from '../schema/index.js';

/** The dispatcher's view of a schema is the FunctionSchema itself. */
export type DispatcherSchema = FunctionSchema;

/** Parses a schema; an unqualified name gets namespace `ns` (as a Library does with setNamespaceIfNotSet). */
export function parseDispatcherSchema(text: string, ns?: string): FunctionSchema {
  const schema = parseSchema(text);
  if (ns === undefined || schema.name.includes('::')) return schema;
  return parseSchema(`${ns}::${text.trimStart()}`);
}

/** The printed types of a schema's arguments (`Tensor`, `Tensor?`, `Tensor?[]`, `int[]`, ...). */
export function argumentTypesOf(schema: FunctionSchema): string[] {
  return schema.arguments.map((a) => a.type.toString());
}

/**
 * Checks a kernel's declared signature (`(Tensor _0) -> Tensor _0`) against the operator's schema, as
 * PyTorch checks the schema it infers from a C++ kernel's type: same number of arguments and returns, and
 * the same types, position by position (argument names do not matter).
 */
export function checkInferredSchema(
  opName: string,
  expected: FunctionSchema,
  expectedDebug: string,
  inferred: string,
  inferredDebug: string,
): void {
  const inf = parseSchema(`_${inferred}`);
  let reason: string | null = null;
  if (inf.arguments.length !== expected.arguments.length) {
    reason = `The number of arguments is different. ${expected.arguments.length} vs ${inf.arguments.length}.`;
  } else if (inf.returns.length !== expected.returns.length) {
    reason = `The number of returns is different. ${expected.returns.length} vs ${inf.returns.length}.`;
  } else {
    const argIndex = expected.arguments.findIndex((a, i) => a.fakeType.toString() !== inf.arguments[i]!.fakeType.toString());
    const retIndex = expected.returns.findIndex((r, i) => r.fakeType.toString() !== inf.returns[i]!.fakeType.toString());
    if (argIndex >= 0) {
      reason = `Type mismatch in argument ${argIndex + 1}: ${expected.arguments[argIndex]!.fakeType} vs ${inf.arguments[argIndex]!.fakeType}`;
    } else if (retIndex >= 0) {
      reason = `Type mismatch in return ${retIndex + 1}: ${expected.returns[retIndex]!.fakeType} vs ${inf.returns[retIndex]!.fakeType}`;
    }
  }
  if (reason !== null) {
    throw new Error(
      "Inferred operator schema for a C++ kernel function doesn't match the expected function schema.\n" +
        `  operator: ${opName}\n  expected schema: ${expected.toString()}\n    ${expectedDebug}\n` +
        `  inferred schema: ${inf.toString().slice(1)}\n    ${inferredDebug}\n  reason: ${reason}`,
    );
  }
}
