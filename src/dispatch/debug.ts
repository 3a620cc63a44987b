// Dispatch traces and call observers (PyTorch's TORCH_SHOW_DISPATCH_TRACE and RecordFunction), switched
// on and off at run time. Neither costs anything on the fast path beyond one flag check when unused.

import { dispatchKeyToString, type DispatchKey } from '../c10/DispatchKey.js';
import type { DispatchKeySet } from '../c10/DispatchKeySet.js';

/** What an observer sees around each call. */
export interface DispatchEvent {
  /** `call`, `redispatch`, `callBoxed` or `redispatchBoxed`. */
  readonly kind: 'call' | 'redispatch' | 'callBoxed' | 'redispatchBoxed';
  /** `ns::name.overload`. */
  readonly op: string;
  /** The key the call dispatches to (`highestPriorityTypeId` of its key set). */
  readonly key: DispatchKey;
  /** Nesting depth: 0 for a top-level call. */
  readonly depth: number;
  /** The key set the call dispatches with (its table index is `keySet.getDispatchTableIndexForDispatchKeySet()`). */
  readonly keySet: DispatchKeySet;
}

export interface DispatchObserver {
  onEnter?(event: DispatchEvent): void;
  onExit?(event: DispatchEvent): void;
}

// Note [Dispatch hot path]
// ~~~~~~~~~~~~~~~~~~~~~~~~
// Invariants of `op.call`/`op.redispatch` (per-arity closures generated into src/generated/DispatchArity.ts,
// built per operator by OperatorHandle.ts; key extraction in DispatchKeyExtractor.ts), checked by
// bench/dispatch.bench.ts:
//  * no allocation: the key set is accumulated in int32 halves (see Note [DispatchKeySet representation])
//    and handed to the kernel as an interned DispatchKeySet; argument lists are not materialised (one
//    closure per arity, built once per operator, never per call);
//  * no string building: names are only formatted on the slow path or on error;
//  * monomorphic loads: tables are plain arrays owned by the operator and mutated in place;
//  * one flag check (`hooks.active`) sends the call to the slow path when a trace or an observer is on.
export const hooks = { active: false };

let traceEnabled = false;
let traceSink: (line: string) => void = (line) => console.error(line);
const observers: DispatchObserver[] = [];
let depth = 0;

function refresh(): void {
  hooks.active = traceEnabled || observers.length > 0;
}

/** Turns the dispatch trace on or off (`[call] op=[aten::add.Tensor], key=[CPU]`, nested by indentation). */
export function setDispatchTraceEnabled(enabled: boolean): void {
  traceEnabled = enabled;
  refresh();
}

export function isDispatchTraceEnabled(): boolean {
  return traceEnabled;
}

/** Where trace lines go (default: console.error). Returns the previous sink. */
export function setDispatchTraceSink(sink: (line: string) => void): (line: string) => void {
  const prev = traceSink;
  traceSink = sink;
  return prev;
}

/** Registers an observer called around every dispatched call. Returns a function that removes it. */
export function addDispatchObserver(observer: DispatchObserver): () => void {
  observers.push(observer);
  refresh();
  return () => {
    const i = observers.indexOf(observer);
    if (i >= 0) observers.splice(i, 1);
    refresh();
  };
}

/** Runs `body` with tracing and observers around it (the slow path). */
export function observe<T>(kind: DispatchEvent['kind'], op: string, keySet: DispatchKeySet, body: () => T): T {
  const key = keySet.highestPriorityTypeId();
  const event: DispatchEvent = { kind, op, key, depth, keySet };
  if (traceEnabled) traceSink(`${' '.repeat(depth)}[${kind}] op=[${op}], key=[${dispatchKeyToString(key)}]`);
  for (const o of observers) o.onEnter?.(event);
  depth++;
  try {
    return body();
  } finally {
    depth--;
    for (const o of observers) o.onExit?.(event);
  }
}

// In Node, ATEN_TS_SHOW_DISPATCH_TRACE=1 turns the trace on at start-up. Read through globalThis so that
// browsers, which have no `process`, are unaffected.
const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
if (env?.ATEN_TS_SHOW_DISPATCH_TRACE === '1') setDispatchTraceEnabled(true);
