// The derivatives file's model: parses src/autograd/derivatives.yaml (PyTorch's derivatives.yaml format) and
// checks every entry against the operators of native_functions.yaml. Mirrors torchgen's
// load_derivatives.py (create_derivative, the checks in create_differentiability_info). Pure.

import { LineCounter, parseDocument, isMap, isScalar, isSeq, type Pair } from 'yaml';
import { parseSchema } from '../schema/index.js';
import { didYouMean, NativeFunctionsError, type NativeFunction } from './model.js';

// Note [Formulas in TypeScript]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A formula is a TypeScript expression, where PyTorch's is C++: the typed layer (`at.mul_Tensor(grad, other)`,
// PyTorch's `grad.mul(other)`; Note [The typed Tensor layer] in dest/TensorBody.ts) and `wrapScalar(n)`, the
// helpers of src/autograd/FunctionsManual.ts by name (`sumBackward(grad, self.sizes, dim, keepdim)`), and
// these names, exactly as torchgen reads them:
//   `grad` (the gradient of the first output), `grads` (all of them, for multi-output operators),
//   `result` (the single output) or an output's schema name (`values`, `indices`), or `resultN`,
//   every argument by its schema name (`self`, `other`, `keepdim`), and for a tensor argument `x` the
//   members `x.sizes`, `x.dtype`, `x.dim()` and `x.numel()`, which are saved on their own (the node then keeps
//   the sizes, not the tensor: no version check, no memory held).
// The generator finds the names a formula uses and saves exactly those (tensors as SavedVariables).

/** One formula: the gradient of one differentiable input. */
export interface DerivativeFormula {
  /** The schema name of the input (`self`, `other`, `tensors`). */
  readonly arg: string;
  readonly expr: string;
}

/** One entry of derivatives.yaml. */
export interface DerivativeInfo {
  /** The schema, verbatim (must equal a native function's schema). */
  readonly name: string;
  /** `add.Tensor`. */
  readonly opName: string;
  readonly formulas: readonly DerivativeFormula[];
  /** Arguments listed as `non_differentiable`. */
  readonly nonDifferentiable: readonly string[];
  /** `output_differentiability`: per output (all true when absent). */
  readonly outputDifferentiability: readonly boolean[] | null;
  readonly file: string;
  readonly line: number;
  /** Set on the entries derived for a `view_copy` operator: the op name of its view (See Note [view_copy derivatives]). */
  readonly viewCopyOf?: string;
}

const KNOWN_KEYS = ['name', 'output_differentiability', 'dispatch', 'result'];

/** Parses and validates derivatives.yaml against the native functions. */
export function parseDerivatives(text: string, functions: readonly NativeFunction[], file = 'derivatives.yaml'): DerivativeInfo[] {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, keepSourceTokens: true });
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    throw new NativeFunctionsError(file, e ? lc.linePos(e.pos[0]).line : 1, '<file>', `invalid YAML: ${e?.message ?? ''}`);
  }
  const root = doc.contents;
  if (root === null) return [];
  if (!isSeq(root)) throw new NativeFunctionsError(file, 1, '<file>', 'expected a list of entries');
  const byOpName = new Map(functions.map((nf) => [nf.opName, nf] as const));
  const seen = new Map<string, number>();
  const out: DerivativeInfo[] = [];
  for (const item of root.items) {
    if (!isMap(item)) throw new NativeFunctionsError(file, lineOf(lc, item), '<entry>', 'expected a mapping with a name: key');
    const line = lineOf(lc, item);
    const pairs = item.items as Pair[];
    const get = (k: string): Pair | undefined => pairs.find((p) => isScalar(p.key) && p.key.value === k);
    const namePair = get('name');
    if (namePair === undefined || !isScalar(namePair.value) || typeof namePair.value.value !== 'string') {
      throw new NativeFunctionsError(file, line, '<entry>', "missing 'name:' (the operator's schema)");
    }
    const name = namePair.value.value;
    const head = name.slice(0, Math.max(0, name.indexOf('(')));
    const fail = (what: string, at = line): never => {
      throw new NativeFunctionsError(file, at, `${head}(...)`, what);
    };
    let schema;
    try {
      schema = parseSchema(name);
    } catch (e) {
      return fail(`invalid schema: ${e instanceof Error ? e.message : String(e)}`);
    }
    const opName = schema.overloadName === '' ? schema.name : `${schema.name}.${schema.overloadName}`;
    const nf = byOpName.get(opName);
    if (nf === undefined) fail(`no operator '${opName}' in native_functions.yaml${didYouMean(opName, [...byOpName.keys()])}`);
    else if (nf.funcText !== name) fail(`schema differs from native_functions.yaml's '${nf.funcText}'`);
    const prev = seen.get(opName);
    if (prev !== undefined) fail(`'${opName}' already has an entry (line ${prev})`);
    seen.set(opName, line);
    const argNames = schema.arguments.map((a) => a.name);
    const formulas: DerivativeFormula[] = [];
    const nonDiff: string[] = [];
    let outputDiff: boolean[] | null = null;
    for (const p of pairs) {
      const key = isScalar(p.key) ? String(p.key.value) : '';
      const at = p.key !== null && p.key !== undefined ? lineOf(lc, p.key) : line;
      if (key === 'name' || key === 'dispatch' || key === 'result') {
        if (key !== 'name') fail(`'${key}:' is not supported yet (forward-mode AD and per-key formulas are not implemented)`, at);
        continue;
      }
      if (key === 'output_differentiability') {
        if (!isSeq(p.value)) fail("'output_differentiability' must be a list of booleans", at);
        outputDiff = (p.value as { items: unknown[] }).items.map((v) => isScalar(v) && v.value === true);
        if (outputDiff.length !== schema.returns.length) {
          fail(`'output_differentiability' has ${outputDiff.length} entries for ${schema.returns.length} outputs`, at);
        }
        continue;
      }
      if (!argNames.includes(key)) {
        fail(
          `unknown key '${key}' (expected an argument of the schema: ${argNames.join(', ')}, or one of ${KNOWN_KEYS.join(', ')})${didYouMean(key, [...argNames, ...KNOWN_KEYS])}`,
          at,
        );
      }
      const arg = schema.arguments.find((a) => a.name === key);
      if (arg !== undefined && !arg.type.str().startsWith('Tensor'))
        fail(`'${key}' is not a tensor argument (${arg.type.str()}); only tensors have gradients`, at);
      const value = isScalar(p.value) ? p.value.value : undefined;
      if (typeof value !== 'string' || value.trim() === '') fail(`the formula for '${key}' must be a non-empty string`, at);
      if (value === 'non_differentiable') nonDiff.push(key);
      else formulas.push({ arg: key, expr: String(value).trim() });
    }
    out.push({ name, opName, formulas, nonDifferentiable: nonDiff, outputDifferentiability: outputDiff, file, line });
  }
  return out;
}

// Note [view_copy derivatives]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's `*_copy` operators (`expand_copy`, `unbind_copy.int`, tagged `view_copy` in native_functions.yaml)
// are their view's result cloned; torchgen gives each the derivative of its view (load_derivatives.py's
// add_view_copy_derivatives), its node named after the view's with `_copy` appended (`ExpandBackward0_copy`).
// addViewCopyDerivatives does the same: a `view_copy` operator without an entry of its own gets the formulas
// of the operator named without `_copy` (same overload), which must have one; the schemas' argument names agree.

/** The derivatives.yaml entries plus one per `view_copy` operator (See Note [view_copy derivatives]). */
export function addViewCopyDerivatives(infos: readonly DerivativeInfo[], functions: readonly NativeFunction[]): DerivativeInfo[] {
  const byOpName = new Map(infos.map((i) => [i.opName, i] as const));
  const out = [...infos];
  for (const nf of functions) {
    if (!nf.tags.includes('view_copy') || byOpName.has(nf.opName)) continue;
    const [name, overload] = nf.opName.split('.') as [string, string | undefined];
    const viewOp = `${name.replace(/_copy$/, '')}${overload === undefined ? '' : `.${overload}`}`;
    const view = byOpName.get(viewOp);
    if (view === undefined) {
      throw new NativeFunctionsError(
        nf.file,
        nf.line,
        `${nf.opName}(...)`,
        `a view_copy operator whose view '${viewOp}' has no derivatives.yaml entry`,
      );
    }
    out.push({ ...view, name: nf.funcText, opName: nf.opName, file: nf.file, line: nf.line, viewCopyOf: viewOp });
  }
  return out;
}

function lineOf(lc: LineCounter, node: unknown): number {
  const r = (node as { range?: [number, number, number] }).range;
  return r ? lc.linePos(r[0]).line : 1;
}
