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
  /** The operator's arguments (boxed calls: the stack's argument slots). */
  readonly args: readonly unknown[];
  /**
   * Only while `setDispatchPhaseTiming(true)`: milliseconds spent before the kernel, each measured with two
   * clock reads around the phase (argument parsing in the generated front end, key-set extraction, table
   * lookup; 0 where a path has no such phase). See Note [Dispatch phase timing].
   */
  readonly parseMs: number;
  readonly extractMs: number;
  readonly lookupMs: number;
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
let phaseTiming = 0;
let frontEndStart = -1;

function refresh(): void {
  hooks.active = traceEnabled || observers.length > 0 || phaseTiming > 0;
}

// Note [Dispatch phase timing]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The profiler's split of a call's cost (argument parsing, key extraction, table lookup, autograd, kernel) is
// measured only on the observed path: while timing is on, `hooks.active` sends every call to the slow path
// (OperatorHandle.ts), which reads the clock around extraction and lookup, and every generated front-end
// function calls `frontEndEnter()` first (one `hooks.active` check, false when nothing observes), so the
// time from the front end's entry to its first `op.call` is the argument parsing. The fast path stays as it
// is (Note [Dispatch hot path]); the observed path itself is slower (it allocates the argument array), so
// the split describes where the time goes, and bench/dispatch.bench.ts gives the fast path's absolute cost.
/** `performance.now()`: a web global, also in Node. */
export const now = (): number => performance.now();

/** Turns phase timing on (counted: nested profilers) or off. See Note [Dispatch phase timing]. */
export function setDispatchPhaseTiming(enabled: boolean): void {
  phaseTiming = Math.max(0, phaseTiming + (enabled ? 1 : -1));
  frontEndStart = -1;
  refresh();
}

export function isDispatchPhaseTimingEnabled(): boolean {
  return phaseTiming > 0;
}

/** Called first by every generated front-end function while `hooks.active`: starts the argument-parsing clock. */
export function frontEndEnter(): void {
  if (phaseTiming > 0 && depth === 0) frontEndStart = now();
}

/** The time since the front end was entered (0 when not timing or not from a front end); resets the clock. */
export function takeParseMs(at: number): number {
  if (frontEndStart < 0 || depth !== 0) return 0;
  const ms = at - frontEndStart;
  frontEndStart = -1;
  return ms;
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
export function observe<T>(
  kind: DispatchEvent['kind'],
  op: string,
  keySet: DispatchKeySet,
  body: () => T,
  args: readonly unknown[] = [],
  parseMs = 0,
  extractMs = 0,
  lookupMs = 0,
): T {
  const key = keySet.highestPriorityTypeId();
  const event: DispatchEvent = { kind, op, key, depth, keySet, args, parseMs, extractMs, lookupMs };
  if (traceEnabled) traceSink(`${' '.repeat(depth)}[${kind}] op=[${op}], key=[${dispatchKeyToString(key)}]`);
  for (const o of observers) o.onEnter?.(event);
  depth++;
  try {
    return body();
  } finally {
    depth--;
    if (depth === 0) frontEndStart = -1;
    for (const o of observers) o.onExit?.(event);
  }
}

// In Node, ATEN_TS_SHOW_DISPATCH_TRACE=1 turns the trace on at start-up. Read through globalThis so that
// browsers, which have no `process`, are unaffected.
const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
if (env?.ATEN_TS_SHOW_DISPATCH_TRACE === '1') setDispatchTraceEnabled(true);
