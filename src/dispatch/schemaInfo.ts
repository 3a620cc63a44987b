// What the dispatcher needs from a function schema: its name, the types of its arguments (to decide which
// contribute dispatch keys) and its number of returns (for boxing), plus PyTorch's printed form.

/** The dispatcher's view of a FunctionSchema. */
export interface DispatcherSchema {
  /** `ns::name`. */
  readonly name: string;
  readonly overloadName: string;
  /** Printed argument types, e.g. `Tensor`, `Tensor(a!)`, `Tensor?[]`, `int`. */
  readonly argumentTypes: readonly string[];
  readonly numReturns: number;
  toString(): string;
}

// TEMPORARY shim until src/schema lands: splits `name.overload(args) -> returns` at top level.
function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(' || ch === '[') depth++;
    if (ch === ')' || ch === ']') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim() !== '') out.push(cur.trim());
  return out;
}

export function parseDispatcherSchema(text: string, ns?: string): DispatcherSchema {
  const full = ns !== undefined && !/^[^(]*::/.test(text) ? `${ns}::${text}` : text;
  const open = full.indexOf('(');
  const head = full.slice(0, open);
  const dot = head.indexOf('.', head.indexOf('::') + 2);
  const close = full.lastIndexOf(')', full.indexOf('->'));
  const args = splitTopLevel(full.slice(open + 1, close)).filter((a) => a !== '*');
  const rets = full.slice(full.indexOf('->') + 2).trim();
  const numReturns = rets === '()' ? 0 : rets.startsWith('(') ? splitTopLevel(rets.slice(1, -1)).length : 1;
  return {
    name: dot < 0 ? head : head.slice(0, dot),
    overloadName: dot < 0 ? '' : head.slice(dot + 1),
    argumentTypes: args.map((a) => a.slice(0, a.lastIndexOf(' '))),
    numReturns,
    toString: () => full,
  };
}

export function checkInferredSchema(
  opName: string,
  expected: DispatcherSchema,
  expectedDebug: string,
  inferred: string,
  inferredDebug: string,
): void {
  const inf = parseDispatcherSchema(`_${inferred}`);
  let reason: string | null = null;
  if (inf.argumentTypes.length !== expected.argumentTypes.length) {
    reason = `The number of arguments is different. ${expected.argumentTypes.length} vs ${inf.argumentTypes.length}.`;
  } else if (inf.numReturns !== expected.numReturns) {
    reason = `The number of returns is different. ${expected.numReturns} vs ${inf.numReturns}.`;
  }
  if (reason !== null) {
    throw new Error(
      "Inferred operator schema for a C++ kernel function doesn't match the expected function schema.\n" +
        `  operator: ${opName}\n  expected schema: ${expected.toString()}\n    ${expectedDebug}\n` +
        `  inferred schema: ${inferred}\n    ${inferredDebug}\n  reason: ${reason}`,
    );
  }
}
