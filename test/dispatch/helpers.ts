// Shared helpers for the dispatcher conformance tests.
import { DispatchKey, DispatchKeySet, dispatchKeyToString } from '../../src/c10/index.js';

/** A stand-in tensor: all the dispatcher reads from a tensor is its key set. */
export class FakeTensor {
  readonly keySet: DispatchKeySet;
  readonly label: string;
  constructor(keys: DispatchKey[] | DispatchKeySet, label = 'x') {
    this.keySet = keys instanceof DispatchKeySet ? keys : DispatchKeySet.of(...keys);
    this.label = label;
  }
}

/** A CPU tensor's key set, as TensorImpl gives it. */
export function cpuTensor(label = 'x'): FakeTensor {
  return new FakeTensor([DispatchKey.CPU, DispatchKey.ADInplaceOrView, DispatchKey.AutogradCPU, DispatchKey.AutocastCPU], label);
}

const BUILTIN_LINE = /^(\w+): (fallthrough )?registered at (?:\/__w\/pytorch\S*|aten-ts builtin.*?) \[backend fallback\]$/;

/**
 * Replaces the debug string of built-in backend fallbacks (PyTorch's build paths, or aten-ts's own) with
 * `<builtin>`, so tables compare on keys, tags and fallthrough flags.
 */
export function normalizeBuiltins(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(BUILTIN_LINE, '$1: $2<builtin> [backend fallback]'))
    .join('\n')
    .replace(/registered at \/__w\/pytorch[^\s,]*/g, '<builtin>')
    .replace(/registered at aten-ts builtin \([^)]*\)/g, '<builtin>');
}

export interface TableLine {
  debug: string;
  tag: string;
  fallthrough: boolean;
}

/** Parses `_dispatch_dump_table` text into a map key → line. */
export function parseTable(text: string): Map<string, TableLine> {
  const out = new Map<string, TableLine>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const m = /^(\w+): (fallthrough )?(.*) \[([a-z ]+)\]$/.exec(line);
    if (m === null) throw new Error(`unparseable table line: ${line}`);
    out.set(m[1]!, { debug: m[3]!, tag: m[4]!, fallthrough: m[2] !== undefined });
  }
  return out;
}

const BY_NAME = new Map<string, DispatchKey>();
for (let k = 155; k >= 0; k--) BY_NAME.set(dispatchKeyToString(k), k);

/** The key PyTorch prints as `name` (any printed name, unlike parseDispatchKey's fixed table). */
export function keyByName(name: string): DispatchKey {
  const k = BY_NAME.get(name);
  if (k === undefined) throw new Error(`no dispatch key prints as ${name}`);
  return k;
}
