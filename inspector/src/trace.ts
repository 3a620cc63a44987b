// Runs a snippet under a dispatch observer and records the call tree (each call/redispatch with its key
// set, chosen key, kernel and time) and the autograd nodes the snippet's tensors point to. No DOM.

import { dispatchKeyToString } from '../../src/c10/DispatchKey.js';
import { addDispatchObserver, type DispatchEvent } from '../../src/dispatch/debug.js';
import { Dispatcher } from '../../src/dispatch/Dispatcher.js';
import type { Node as GraphNode } from '../../src/autograd/function.js';
import { Tensor } from '../../src/tensor/Tensor.js';
import * as torch from '../../src/torch.js';

export interface CallRecord {
  readonly kind: DispatchEvent['kind'];
  readonly op: string;
  readonly keySet: string;
  readonly key: string;
  readonly index: number;
  /** The debug string and tag of the kernel in the chosen slot, or 'missing'. */
  readonly kernel: string;
  readonly depth: number;
  /** Inclusive and self time, milliseconds. */
  totalMs: number;
  selfMs: number;
  readonly children: CallRecord[];
}

export interface NodeRecord {
  readonly name: string;
  readonly sequenceNr: number;
  readonly next: string[];
}

export interface TraceResult {
  readonly calls: CallRecord[];
  readonly nodes: NodeRecord[];
  readonly value: string;
  readonly error: string | null;
  readonly totalMs: number;
}

/** Compiles a snippet over `torch`, `x`, `y`: an expression (its value is shown) or statements. */
function compile(code: string): (t: unknown, x: Tensor, y: Tensor) => unknown {
  try {
    return new Function('torch', 'x', 'y', `"use strict";\nreturn (\n${code}\n);`) as (t: unknown, x: Tensor, y: Tensor) => unknown;
  } catch {
    return new Function('torch', 'x', 'y', `"use strict";\n${code}`) as (t: unknown, x: Tensor, y: Tensor) => unknown;
  }
}

// Note [Recording the snippet's tensors]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The dispatch observer sees calls, not their results, and a snippet such as `torch.add(x, y).sum()
// .backward()` keeps no reference to its intermediate tensors. To list the autograd nodes it recorded, the
// run hands the snippet a `torch` proxy and wraps Tensor's prototype methods for its duration only (restored
// in `finally`), collecting every Tensor they return; their grad_fn graphs are walked afterwards.
function collectTensors<T>(body: (t: unknown) => T, seen: Tensor[]): T {
  const record = (v: unknown): void => {
    if (v instanceof Tensor) seen.push(v);
    else if (Array.isArray(v)) for (const e of v) record(e);
  };
  const proxy = new Proxy(torch, {
    get(target, prop, receiver) {
      const v: unknown = Reflect.get(target, prop, receiver);
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        const r: unknown = (v as (...a: unknown[]) => unknown)(...args);
        record(r);
        return r;
      };
    },
  });
  const proto = Tensor.prototype as unknown as Record<string, unknown>;
  const saved: [string, PropertyDescriptor][] = [];
  for (const name of Object.getOwnPropertyNames(proto)) {
    const d = Object.getOwnPropertyDescriptor(proto, name);
    if (name === 'constructor' || d === undefined || typeof d.value !== 'function' || d.writable !== true) continue;
    const fn = d.value as (...a: unknown[]) => unknown;
    saved.push([name, d]);
    proto[name] = function (this: unknown, ...args: unknown[]) {
      const r = fn.apply(this, args);
      record(r);
      return r;
    };
  }
  try {
    return body(proxy);
  } finally {
    for (const [name, d] of saved) Object.defineProperty(proto, name, d);
  }
}

function walkNodes(tensors: readonly Tensor[]): NodeRecord[] {
  const seen = new Set<GraphNode>();
  const stack: GraphNode[] = [];
  for (const t of tensors) {
    const fn = t.gradFn;
    if (fn !== null) stack.push(fn);
  }
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (seen.has(n)) continue;
    seen.add(n);
    for (const [next] of n.nextFunctions) if (next !== null) stack.push(next);
  }
  return [...seen]
    .sort((a, b) => a.sequenceNr - b.sequenceNr)
    .map((n) => ({ name: n.name(), sequenceNr: n.sequenceNr, next: n.nextFunctions.map(([m]) => (m === null ? 'None' : m.name())) }));
}

function describeValue(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (v instanceof Tensor) return String(v);
  try {
    return typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  } catch {
    return String(v);
  }
}

/** Fresh inputs for a run: x = [[1, 2], [3, 4]], y = [[0.5, -1], [2, 0.25]], both requiring grad. */
export function sampleInputs(): { x: Tensor; y: Tensor } {
  return {
    x: torch.tensor(
      [
        [1, 2],
        [3, 4],
      ],
      { dtype: torch.float32, requires_grad: true },
    ),
    y: torch.tensor(
      [
        [0.5, -1],
        [2, 0.25],
      ],
      { dtype: torch.float32, requires_grad: true },
    ),
  };
}

/** Runs `code` and records what the dispatcher did. */
export function traceSnippet(code: string): TraceResult {
  const dispatcher = Dispatcher.singleton();
  const roots: CallRecord[] = [];
  const open: { rec: CallRecord; t0: number }[] = [];
  const tensors: Tensor[] = [];
  let value = '';
  let error: string | null = null;
  const { x, y } = sampleInputs();
  const remove = addDispatchObserver({
    onEnter(e) {
      const index = e.keySet.getDispatchTableIndexForDispatchKeySet();
      const slot = dispatcher.findOp(e.op)?.entry.computed[index] ?? null;
      const rec: CallRecord = {
        kind: e.kind,
        op: e.op,
        keySet: String(e.keySet),
        key: dispatchKeyToString(e.key),
        index,
        kernel: slot === null ? 'missing' : `${slot.kernel.kernel.isFallthrough ? 'fallthrough ' : ''}${slot.kernel.debug} [${slot.tag}]`,
        depth: e.depth,
        totalMs: 0,
        selfMs: 0,
        children: [],
      };
      (open.length === 0 ? roots : open[open.length - 1]!.rec.children).push(rec);
      open.push({ rec, t0: performance.now() });
    },
    onExit() {
      const top = open.pop();
      if (top === undefined) return;
      top.rec.totalMs = performance.now() - top.t0;
      top.rec.selfMs = top.rec.totalMs - top.rec.children.reduce((s, c) => s + c.totalMs, 0);
    },
  });
  const t0 = performance.now();
  try {
    const fn = compile(code);
    const v = collectTensors((t) => fn(t, x, y), tensors);
    value = describeValue(v);
  } catch (e) {
    error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  } finally {
    remove();
  }
  const totalMs = performance.now() - t0;
  return { calls: roots, nodes: walkNodes(tensors), value, error, totalMs };
}

/** The records of a tree in pre-order. */
export function flatten(calls: readonly CallRecord[]): CallRecord[] {
  const out: CallRecord[] = [];
  const visit = (c: CallRecord): void => {
    out.push(c);
    for (const k of c.children) visit(k);
  };
  for (const c of calls) visit(c);
  return out;
}
