// The model of native_functions.yaml: parses the declarations file into NativeFunction records and validates
// them. Mirrors torchgen/model.py (NativeFunction.from_yaml, BackendIndex, the structured checks of
// NativeFunctionsGroup) and the parse step of torchgen/gen.py (parse_native_yaml_struct). Pure and
// browser-safe: it takes the file's text, never a path.

import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node, type Pair } from 'yaml';
import { isParseableDispatchKey } from '../c10/DispatchKey.js';
import { type Argument, type FunctionSchema, parseSchema, SchemaParseError } from '../schema/index.js';

/** Options of parseNativeFunctions. */
export interface ParseOptions {
  /**
   * The kernel modules `dispatch` entries may name: the file names of src/kernels without `.ts` (the driver
   * lists the folder, so renaming a family never touches the generator). Omitted: any module name is taken.
   */
  readonly kernelModules?: readonly string[];
}

// Note [Dispatch keys of the tensor core]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// torchgen accepts every key of its DispatchKey enum and generates a backend index per key. The tensor core
// registers kernels at these keys only; a key that parses (parseDispatchKey) but is not listed here, e.g.
// CUDA, is rejected with a message saying so rather than silently generating a kernel nobody dispatches to.
export const SUPPORTED_DISPATCH_KEYS: readonly string[] = [
  'BackendSelect',
  'CPU',
  'Meta',
  'CompositeExplicitAutograd',
  'CompositeImplicitAutograd',
];

/** torchgen's composite keys: a function may have at most one (model.py: "cannot have both ..."). */
const COMPOSITE_KEYS: readonly string[] = [
  'CompositeImplicitAutograd',
  'CompositeExplicitAutograd',
  'CompositeExplicitAutogradNonFunctional',
];

/** The keys of an entry, as torchgen pops them in NativeFunction.from_yaml. */
const KNOWN_KEYS: readonly string[] = [
  'func',
  'variants',
  'dispatch',
  'structured',
  'structured_delegate',
  'structured_inherits',
  'precomputed',
  'tags',
];

/**
 * The `structured_inherits` bases the generator supports (Note [Structured kernels in aten-ts]); without the
 * key a structured kernel derives from MetaBase (Note [Structured kernels without a TensorIterator]).
 */
export const STRUCTURED_BASES: readonly string[] = ['TensorIteratorBase'];

/** The backend keys a structured out= entry may list; the Meta kernel is generated (torchgen forbids an explicit one). */
export const STRUCTURED_BACKEND_KEYS: readonly string[] = ['CPU'];

export type Variant = 'function' | 'method';

/** A kernel reference `<module>.<function>`, e.g. `BinaryOps.add` (the export `add` of src/kernels/BinaryOps.ts). */
export interface KernelRef {
  readonly module: string;
  readonly fn: string;
}

export interface DispatchEntry {
  readonly key: string;
  readonly kernel: KernelRef;
}

/**
 * One `precomputed:` line, `dim -> int dim` (torchgen's Precompute.replace): the impl receives `with`, computed
 * by the meta function, instead of the argument `replace`.
 */
export interface Precomputed {
  readonly replace: string;
  readonly with: readonly Argument[];
}

/** One entry of native_functions.yaml (torchgen's NativeFunction, reduced to what aten-ts uses). */
export interface NativeFunction {
  /** The schema text, verbatim. */
  readonly funcText: string;
  readonly func: FunctionSchema;
  /** `add.Tensor`: torchgen's OperatorName as written in the file. */
  readonly opName: string;
  /** torchgen's `at::_ops` name: base name and overload joined by `_` (`add_Tensor`, `add__Tensor`). */
  readonly handleName: string;
  readonly variants: readonly Variant[];
  /** In file order; a `CPU, Meta: k` line yields one entry per key. */
  readonly dispatch: readonly DispatchEntry[];
  readonly structured: boolean;
  readonly structuredDelegate: string | null;
  /** `structured_inherits:` (only with `structured: True`); null is MetaBase. */
  readonly structuredInherits: string | null;
  /** `precomputed:` (only on a structured entry without `structured_inherits`), in file order. */
  readonly precomputed: readonly Precomputed[];
  /** Line of the `structured_delegate` value (the entry's line when absent). */
  readonly structuredDelegateLine: number;
  readonly tags: readonly string[];
  /** The file and 1-based line of the entry's `func:` key. */
  readonly file: string;
  readonly line: number;
}

/** A validation error: `<file>:<line> in '<func>': <what>`. */
export class NativeFunctionsError extends Error {
  override readonly name = 'NativeFunctionsError';
  constructor(
    readonly file: string,
    readonly line: number,
    readonly entry: string,
    readonly what: string,
  ) {
    super(`${file}:${line} in '${entry}': ${what}`);
  }
}

function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const sub = (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      cur.push(Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, sub));
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

/** ` (did you mean 'x'?)` for the closest candidate within a third of the word's length, else ''. */
export function didYouMean(word: string, candidates: readonly string[]): string {
  let best: string | undefined;
  let bestDist = Infinity;
  for (const c of candidates) {
    const d = levenshtein(word.toLowerCase(), c.toLowerCase());
    if (d < bestDist) {
      best = c;
      bestDist = d;
    }
  }
  return best !== undefined && bestDist <= Math.max(2, Math.floor(word.length / 3)) ? ` (did you mean '${best}'?)` : '';
}

/** The entry's label in messages: `add.out(...)`. */
function entryLabel(funcText: string): string {
  const open = funcText.indexOf('(');
  return open < 0 ? funcText : `${funcText.slice(0, open)}(...)`;
}

/** The part of a schema error worth showing on one line: its first non-empty line. */
function schemaErrorText(e: unknown): string {
  if (e instanceof SchemaParseError) return `SchemaParseError: ${e.reason}`;
  return e instanceof Error ? e.message : String(e);
}

/**
 * Parses native_functions.yaml text into the model, validating every entry. `file` names the file in
 * messages. Throws NativeFunctionsError on the first problem.
 */
export function parseNativeFunctions(text: string, file = 'native_functions.yaml', options: ParseOptions = {}): NativeFunction[] {
  const kernelModules = options.kernelModules;
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const lineOf = (node: Node | Pair | null | undefined): number => {
    const r = node && 'range' in node ? node.range : node && 'key' in node && isScalar(node.key) ? node.key.range : undefined;
    return r ? lineCounter.linePos(r[0]).line : 1;
  };
  const firstError = doc.errors[0];
  if (firstError) {
    const line = firstError.linePos?.[0].line ?? 1;
    throw new NativeFunctionsError(file, line, '<file>', `invalid YAML: ${firstError.message.split('\n')[0] ?? ''}`);
  }
  const root = doc.contents;
  if (!isSeq(root)) {
    throw new NativeFunctionsError(file, lineOf(root as Node | null), '<file>', 'expected a list of entries (`- func: ...`)');
  }

  const out: NativeFunction[] = [];
  const byOpName = new Map<string, NativeFunction>();
  root.items.forEach((item, index) => {
    if (!isMap(item)) {
      throw new NativeFunctionsError(file, lineOf(item as Node), `<entry ${index + 1}>`, 'expected a mapping with a `func` key');
    }
    const entryLine = lineOf(item);
    const funcPair = item.items.find((p) => isScalar(p.key) && p.key.value === 'func');
    if (!funcPair || !isScalar(funcPair.value) || typeof funcPair.value.value !== 'string') {
      throw new NativeFunctionsError(file, entryLine, `<entry ${index + 1}>`, "missing 'func' (expected `func: <schema>`)");
    }
    const funcText = funcPair.value.value;
    const label = entryLabel(funcText);
    const line = lineOf(funcPair.key as Node);
    const fail = (node: Node | Pair | null | undefined, what: string): never => {
      throw new NativeFunctionsError(file, node ? lineOf(node) : line, label, what);
    };

    // torchgen pops each known key, then asserts nothing is left (model.py: `assert not e`).
    const fields = new Map<string, Pair>();
    for (const pair of item.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      if (!KNOWN_KEYS.includes(key)) {
        fail(pair.key as Node, `unknown key '${key}'${didYouMean(key, KNOWN_KEYS)}`);
      }
      fields.set(key, pair);
    }

    let func: FunctionSchema;
    try {
      func = parseSchema(funcText);
    } catch (e) {
      return fail(funcPair.value, `invalid schema: ${schemaErrorText(e)}`);
    }
    if (func.name.includes('::')) fail(funcPair.value, `schema name '${func.name}' must not have a namespace (expected e.g. 'add.Tensor')`);
    const opName = func.overloadName ? `${func.name}.${func.overloadName}` : func.name;
    const handleName = func.overloadName ? `${func.name}_${func.overloadName}` : func.name;

    const variants: Variant[] = [];
    const variantsPair = fields.get('variants');
    if (variantsPair) {
      const v = variantsPair.value;
      if (!isScalar(v) || typeof v.value !== 'string')
        return fail(v as Node, "'variants' must be a comma-separated string like 'function, method'");
      for (const raw of v.value.split(',')) {
        const name = raw.trim();
        if (name !== 'function' && name !== 'method') {
          fail(v, `unknown variant '${name}' (expected 'function' or 'method')${didYouMean(name, ['function', 'method'])}`);
        }
        variants.push(name as Variant);
      }
    }

    const tags: string[] = [];
    const tagsPair = fields.get('tags');
    if (tagsPair) {
      const v = tagsPair.value;
      const nodes = isSeq(v) ? v.items : [v];
      for (const t of nodes) {
        if (!isScalar(t) || typeof t.value !== 'string') return fail(t as Node, "'tags' must be a tag name or a list of tag names");
        tags.push(t.value);
      }
    }

    let structured = false;
    const structuredPair = fields.get('structured');
    if (structuredPair) {
      const v = structuredPair.value;
      if (!isScalar(v) || typeof v.value !== 'boolean') return fail(v as Node, "'structured' must be True or False");
      structured = v.value;
      if (structured && func.kind() !== 'out') {
        fail(v, `'structured: True' is only allowed on out= functions, not a ${func.kind()} one (did you mean 'structured_delegate'?)`);
      }
    }
    let structuredDelegate: string | null = null;
    let structuredDelegateLine = line;
    const delegatePair = fields.get('structured_delegate');
    if (delegatePair) {
      const v = delegatePair.value;
      if (!isScalar(v) || typeof v.value !== 'string')
        return fail(v as Node, "'structured_delegate' must name an out= overload like 'add.out'");
      structuredDelegate = v.value;
      structuredDelegateLine = lineOf(v);
      if (func.kind() === 'out') fail(v, "'structured_delegate' is not allowed on out= functions (did you mean 'structured'?)");
      if (structured) fail(v, "cannot have both 'structured' and 'structured_delegate'");
    }

    let structuredInherits: string | null = null;
    const inheritsPair = fields.get('structured_inherits');
    if (inheritsPair) {
      const v = inheritsPair.value;
      if (!isScalar(v) || typeof v.value !== 'string')
        return fail(v as Node, "'structured_inherits' must name a base like 'TensorIteratorBase'");
      if (!structured) fail(v, "'structured_inherits' is only allowed with 'structured: True'");
      if (!STRUCTURED_BASES.includes(v.value)) {
        fail(
          v,
          `unsupported structured_inherits '${v.value}' (expected one of ${STRUCTURED_BASES.join(', ')})${didYouMean(v.value, STRUCTURED_BASES)}`,
        );
      }
      structuredInherits = v.value;
    }

    // torchgen's Precompute.parse: `- <arg> -> <type> <name>[, <type> <name>...]`. The form without `->` (values
    // added after every argument) is not used by the kernels aten-ts declares and is rejected.
    const precomputed: Precomputed[] = [];
    const precomputedPair = fields.get('precomputed');
    if (precomputedPair) {
      const v = precomputedPair.value;
      if (!structured) fail(precomputedPair.key as Node, "'precomputed' is only allowed with 'structured: True'");
      if (inheritsPair) {
        fail(
          precomputedPair.key as Node,
          "'precomputed' is generated for structured kernels without 'structured_inherits' only (a TensorIteratorBase meta returns its iterator)",
        );
      }
      if (!isSeq(v) || v.items.length === 0) return fail(v as Node, "'precomputed' must be a list of lines like '- dim -> int dim'");
      for (const item of v.items) {
        if (!isScalar(item) || typeof item.value !== 'string')
          return fail(item as Node, "'precomputed' must be a list of lines like '- dim -> int dim'");
        const text = item.value;
        const arrow = text.indexOf('->');
        if (arrow < 0)
          fail(
            item,
            `precomputed line '${text}' adds values without replacing an argument, which is not generated yet (expected '<arg> -> <type> <name>')`,
          );
        const replace = text.slice(0, arrow).trim();
        const arg = func.arguments.find((a) => a.name === replace);
        if (!arg || arg.isOut) {
          fail(
            item,
            `precomputed line '${text}' replaces '${replace}', which is not an argument of the schema${didYouMean(
              replace,
              func.arguments.filter((a) => !a.isOut).map((a) => a.name),
            )}`,
          );
        }
        let parsed: Argument[] = [];
        try {
          parsed = [...parseSchema(`_precomputed(${text.slice(arrow + 2).trim()}) -> ()`).arguments];
        } catch (e) {
          fail(item, `precomputed line '${text}': invalid replacement: ${schemaErrorText(e)}`);
        }
        if (parsed.length === 0) fail(item, `precomputed line '${text}' names no replacement (expected '<arg> -> <type> <name>')`);
        if (precomputed.some((p) => p.replace === replace)) fail(item, `precomputed line '${text}' replaces '${replace}' twice`);
        precomputed.push({ replace, with: parsed });
      }
    }

    const dispatch: DispatchEntry[] = [];
    const dispatchPair = fields.get('dispatch');
    if (structuredDelegate !== null) {
      // torchgen: the kernels of a structured_delegate come from the structured out= entry.
      if (dispatchPair)
        fail(
          dispatchPair.key as Node,
          "'dispatch' is not allowed with 'structured_delegate' (its kernels are generated from the structured out= entry)",
        );
    } else if (!dispatchPair) {
      // Note [No default dispatch]
      // ~~~~~~~~~~~~~~~~~~~~~~~~~~
      // torchgen defaults an entry without `dispatch` to CompositeImplicitAutograd
      // with a kernel named after the function; aten-ts kernels are camelCase TypeScript functions, so the
      // name could never be derived. Every entry lists its kernels.
      fail(item, "missing 'dispatch' (expected e.g. `dispatch: {CPU, Meta: BinaryOps.add}`)");
    } else {
      const d = dispatchPair.value;
      if (!isMap(d)) return fail(d as Node, "'dispatch' must map dispatch keys to kernels");
      const seen = new Set<string>();
      for (const pair of d.items) {
        const keysText = isScalar(pair.key) ? String(pair.key.value) : '';
        const kernelNode = pair.value;
        if (!isScalar(kernelNode) || typeof kernelNode.value !== 'string') {
          return fail(pair.key as Node, `kernel of '${keysText}' must be a '<module>.<function>' string`);
        }
        const kernelText = kernelNode.value;
        const m = /^([A-Za-z_$][\w$]*)\.([A-Za-z_$][\w$]*)$/.exec(kernelText);
        if (!m) {
          fail(kernelNode, `bad kernel reference '${kernelText}' (expected '<module>.<function>', e.g. 'BinaryOps.add')`);
        }
        const module = m?.[1] ?? '';
        const fn = m?.[2] ?? '';
        if (kernelModules !== undefined && !kernelModules.includes(module)) {
          fail(
            kernelNode,
            `bad kernel reference '${kernelText}': unknown kernel module '${module}' (expected a file of src/kernels: ${kernelModules.join(', ')})${didYouMean(module, kernelModules)}`,
          );
        }
        for (const raw of keysText.split(',')) {
          const key = raw.trim();
          if (!isParseableDispatchKey(key)) {
            fail(pair.key as Node, `unknown dispatch key '${key}'${didYouMean(key, SUPPORTED_DISPATCH_KEYS)}`);
          }
          if (!SUPPORTED_DISPATCH_KEYS.includes(key)) {
            fail(
              pair.key as Node,
              `dispatch key '${key}' is not one the tensor core registers kernels at (expected one of ${SUPPORTED_DISPATCH_KEYS.join(', ')})`,
            );
          }
          if (seen.has(key)) fail(pair.key as Node, `dispatch key '${key}' listed twice`);
          seen.add(key);
          dispatch.push({ key, kernel: { module, fn } });
        }
      }
      if (structured) {
        for (const e of dispatch) {
          if (!STRUCTURED_BACKEND_KEYS.includes(e.key)) {
            fail(
              d,
              `dispatch key '${e.key}' on a structured out= entry (expected ${STRUCTURED_BACKEND_KEYS.join(', ')}; the Meta kernel is generated)`,
            );
          }
        }
      }
      const composites = dispatch.filter((e) => COMPOSITE_KEYS.includes(e.key)).map((e) => e.key);
      if (composites.length > 1) {
        fail(d, `two composite keys '${composites[0] ?? ''}' and '${composites[1] ?? ''}' (at most one composite key per function)`);
      }
    }

    const nf: NativeFunction = {
      funcText,
      func,
      opName,
      handleName,
      variants,
      dispatch,
      structured,
      structuredDelegate,
      structuredDelegateLine,
      structuredInherits,
      precomputed,
      tags,
      file,
      line,
    };
    const previous = byOpName.get(opName);
    if (previous) fail(funcPair.key as Node, `duplicate overload '${opName}' (first declared at ${file}:${previous.line})`);
    byOpName.set(opName, nf);
    out.push(nf);
  });

  // Cross-entry checks, as torchgen's NativeFunctionsGroup does once every function is known.
  for (const nf of out) {
    if (nf.structuredDelegate === null) continue;
    const target = byOpName.get(nf.structuredDelegate);
    const fail = (what: string): never => {
      throw new NativeFunctionsError(file, nf.structuredDelegateLine, entryLabel(nf.funcText), what);
    };
    if (!target) {
      fail(
        `structured_delegate '${nf.structuredDelegate}' names no function in ${file}${didYouMean(nf.structuredDelegate, [...byOpName.keys()])}`,
      );
    } else if (!target.structured) {
      fail(
        `structured_delegate '${nf.structuredDelegate}' is not a structured out= overload (expected 'structured: True' on it at ${file}:${target.line})`,
      );
    }
  }
  return out;
}
