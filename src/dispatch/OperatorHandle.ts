// OperatorHandle: what callers hold to call an operator — `call` (unboxed, the fast path), `redispatch`,
// `callBoxed` and `redispatchBoxed`. Mirrors OperatorHandle / TypedOperatorHandle and Dispatcher::call,
// Dispatcher::redispatch, Dispatcher::callBoxed in aten/src/ATen/core/dispatch/Dispatcher.h. Every call
// reads as PyTorch's: extract the key set from the arguments (DispatchKeyExtractor.ts), index the
// operator's table with it, call the kernel there. The unboxed `call` and `redispatch` are per-arity
// closures generated into src/generated/DispatchArity.ts (Note [One call closure per arity]).

import { DispatchKey } from '../c10/DispatchKey.js';
import { DispatchKeySet, getDispatchTableIndexForDispatchKey } from '../c10/DispatchKeySet.js';
import { makeCall, makeRedispatch } from '../generated/DispatchArity.js';
import { hooks, isDispatchPhaseTimingEnabled, now, observe, takeParseMs } from './debug.js';
import { computeDispatchKeySet, extractBoxed, extractUnboxed, extractedKeySet } from './DispatchKeyExtractor.js';
import type { Dispatcher } from './Dispatcher.js';
import type { Stack } from './KernelFunction.js';
import type { OperatorEntry } from './OperatorEntry.js';
import type { DispatcherSchema } from './schemaInfo.js';
import { valueToJS, type DefaultValue } from '../schema/index.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyFn = (...args: any[]) => any;
type Redispatch<F extends AnyFn> = (ks: DispatchKeySet, ...args: Parameters<F>) => ReturnType<F>;

/**
 * A handle to a registered operator. Obtain one with `dispatcher.findSchemaOrThrow(name, overload)`.
 *
 * @example
 * const add = dispatcher.findSchemaOrThrow('myops::add', 'Tensor');
 * add.call(x, y, 1); // dispatches on the key sets of x and y
 */
export class OperatorHandle<F extends AnyFn = AnyFn> {
  readonly entry: OperatorEntry;
  readonly dispatcher: Dispatcher;
  /** Calls the operator: extracts the key set from the arguments, looks up the kernel, calls it. */
  call!: F;
  /** Calls the kernel for exactly `ks` (no extraction, TLS or masking), as kernels do to go below their key. */
  redispatch!: Redispatch<F>;

  constructor(entry: OperatorEntry, dispatcher: Dispatcher) {
    this.entry = entry;
    this.dispatcher = dispatcher;
    this.rebuild();
  }

  /** `ns::name.overload`. */
  get operatorName(): string {
    return this.entry.operatorName;
  }

  get schema(): DispatcherSchema | null {
    return this.entry.schema?.schema ?? null;
  }

  hasSchema(): boolean {
    return this.entry.hasSchema();
  }

  /**
   * Rebuilds the call closures (when the schema, hence the dispatch arguments, changed): one per arity,
   * generated. See Note [One call closure per arity] in src/codegen/dest/DispatchArity.ts.
   */
  rebuild(): void {
    const entry = this.entry;
    if (entry.deferred !== null) {
      // trampolines: parse the schema, which rebuilds these closures, then call (Note [Deferred schemas])
      this.call = ((...args: unknown[]) => {
        entry.ensureResolved();
        return (this.call as AnyFn)(...args);
      }) as F;
      this.redispatch = ((ks: DispatchKeySet, ...args: unknown[]) => {
        entry.ensureResolved();
        return (this.redispatch as AnyFn)(ks, ...args);
      }) as Redispatch<F>;
      return;
    }
    const call = makeCall(this.entry, slowCall);
    this.call = (fillsDefaults(this.entry) ? withDefaults(this.entry, call) : call) as F;
    this.redispatch = makeRedispatch(this.entry, slowRedispatch) as Redispatch<F>;
  }

  /** The key set `call(...args)` would dispatch with (arguments, TLS, fallthrough mask). */
  computeDispatchKeySet(...args: unknown[]): DispatchKeySet {
    this.entry.ensureResolved();
    extractUnboxed(this.entry, args);
    computeDispatchKeySet(this.entry.extractor);
    return extractedKeySet();
  }

  /** Calls the operator on a stack whose last entries are its arguments; leaves the returns on the stack. */
  callBoxed(stack: Stack): void {
    const entry = this.entry;
    entry.ensureResolved();
    const ex = entry.extractor;
    if (stack.length < entry.numArguments() && entry.schema !== null) fillDefaults(entry, stack);
    const base = stack.length - entry.numArguments();
    if (base < 0) {
      throw new Error(`${entry.operatorName}: callBoxed expected ${entry.numArguments()} arguments on the stack, found ${stack.length}`);
    }
    extractBoxed(entry, stack, base);
    const idx = computeDispatchKeySet(ex);
    const ks = extractedKeySet();
    const kernel = entry.boxedTable[idx]!;
    if (hooks.active) {
      const args = stack.slice(base);
      return observe('callBoxed', entry.operatorName, ks, () => kernel(this, ks, stack), args);
    }
    kernel(this, ks, stack);
  }

  /** Calls the boxed kernel for exactly `ks`. */
  redispatchBoxed(ks: DispatchKeySet, stack: Stack): void {
    this.entry.ensureResolved();
    const kernel = this.entry.boxedTable[ks.getDispatchTableIndexForDispatchKeySet()]!;
    if (hooks.active) {
      const args = stack.slice(stack.length - this.entry.numArguments());
      return observe('redispatchBoxed', this.entry.operatorName, ks, () => kernel(this, ks, stack), args);
    }
    kernel(this, ks, stack);
  }

  /** `callBoxedForDispatchKey(k, stack)`: the direct kernel at k if registered, else k's backend fallback. */
  callBoxedForDispatchKey(k: DispatchKey, stack: Stack): void {
    this.entry.ensureResolved();
    const direct = this.entry.kernels.get(k)?.[0];
    const ks = DispatchKeySet.fromKey(k);
    if (direct !== undefined) {
      const boxed = direct.kernel.boxed;
      if (boxed !== null) return boxed(this, ks, stack);
      const n = this.entry.numArguments();
      const args = stack.splice(stack.length - n, n);
      const r: unknown = direct.kernel.unboxed!(ks, ...args);
      if (this.entry.numReturns() === 1) stack.push(r);
      else if (this.entry.numReturns() > 1) stack.push(...(r as unknown[]));
      return;
    }
    const fallback = this.dispatcher.backendFallback(k);
    if (fallback === null) throw this.entry.reportError(k);
    this.entry.boxedTable[getDispatchTableIndexForDispatchKey(k)]!(this, ks, stack);
  }

  /** `_dispatch_dump`: the registrations of this operator. */
  dumpState(): string {
    return this.entry.dumpState();
  }

  /** `_dispatch_dump_table`: the computed table, from scratch. */
  dumpComputedTable(): string {
    return this.dispatcher.dumpComputedTable(this);
  }

  /** `hasKernelForDispatchKey(k)`: a direct registration at k. */
  hasKernelForDispatchKey(k: DispatchKey): boolean {
    return this.entry.hasKernelForDispatchKey(k);
  }

  /** `hasComputedKernelForDispatchKey(k)`: the live table has a kernel for runtime key k. */
  hasComputedKernelForDispatchKey(k: DispatchKey): boolean {
    if (k >= DispatchKey.Autograd) throw new Error('Alias keys do not have runtime kernel registrations.');
    this.entry.ensureResolved();
    return this.entry.computed[getDispatchTableIndexForDispatchKey(k)] !== null;
  }

  /** The debug string of the kernel the live table holds for k, with its tag, or null when missing. */
  computedKernelForDispatchKey(k: DispatchKey): { debug: string; tag: string; fallthrough: boolean } | null {
    this.entry.ensureResolved();
    const e = this.entry.computed[getDispatchTableIndexForDispatchKey(k)];
    return e == null ? null : { debug: e.kernel.debug, tag: e.tag, fallthrough: e.kernel.kernel.isFallthrough };
  }

  toString(): string {
    return `OperatorHandle(${this.operatorName})`;
  }
}

// Note [Schema defaults in op.call]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A C++ caller of `TypedOperatorHandle::call` passes every argument; C++ default arguments fill the rest at
// compile time. JavaScript has no such step, so `op.call(x)` of `myops::foo(Tensor x, Scalar alpha=2., *,
// bool neg=False)` would hand the kernel `undefined`s. The call closure of an operator outside the aten
// namespace whose schema has defaults is therefore wrapped: trailing arguments not given (or `undefined`)
// take their schema defaults, and a missing one without a default is PyTorch's "missing value for argument"
// error. aten operators keep the bare generated closure (Note [Dispatch hot path]): their callers are the
// generated front ends, which always pass every argument. `callBoxed` fills a short stack the same way.
function fillsDefaults(entry: OperatorEntry): boolean {
  const schema = entry.schema?.schema;
  return (
    schema != null &&
    entry.name.name.slice(0, entry.name.name.indexOf('::')) !== 'aten' &&
    schema.arguments.some((a) => a.defaultValue !== undefined)
  );
}

function withDefaults(entry: OperatorEntry, call: AnyFn): AnyFn {
  const n = entry.numArguments();
  return (...args: unknown[]): unknown => {
    if (args.length < n || args.includes(undefined)) fillDefaults(entry, args);
    return call(...args);
  };
}

/** Fills `args` (the whole argument list, or a stack ending with the given arguments) up to the schema's defaults. */
export function fillDefaults(entry: OperatorEntry, args: unknown[]): void {
  const schema = entry.schema!.schema;
  const given = Math.min(args.length, schema.arguments.length);
  const base = args.length - given;
  schema.arguments.forEach((a, i) => {
    if (i < given && args[base + i] !== undefined) return;
    if (a.defaultValue === undefined) {
      throw new Error(`${schema.name}() is missing value for argument '${a.name}'. Declaration: ${schema.toString()}`);
    }
    args[base + i] = defaultToJS(a.defaultValue);
  });
}

/** A schema default as the value a kernel receives (ints as numbers, as every aten-ts kernel takes them). */
export function defaultToJS(v: DefaultValue): unknown {
  const js = valueToJS(v);
  const num = (x: unknown): unknown => (typeof x === 'bigint' ? Number(x) : Array.isArray(x) ? x.map(num) : x);
  return num(js);
}

// `Dispatcher::callWithDispatchKeySlowPath`: the path of a call while a trace or an observer is on (the
// closures check `hooks.active` once and come here). It may allocate: the arguments travel as one array.
// With phase timing on, it reads the clock around extraction and lookup (Note [Dispatch phase timing]).
function slowCall(entry: OperatorEntry, args: unknown[]): unknown {
  if (!isDispatchPhaseTimingEnabled()) {
    extractUnboxed(entry, args);
    const idx = computeDispatchKeySet(entry.extractor);
    const ks = extractedKeySet();
    const kernel = entry.unboxedTable[idx]!;
    return observe('call', entry.operatorName, ks, () => kernel(ks, ...args), args);
  }
  const t0 = now();
  const parseMs = takeParseMs(t0);
  extractUnboxed(entry, args);
  const idx = computeDispatchKeySet(entry.extractor);
  const ks = extractedKeySet();
  const t1 = now();
  const kernel = entry.unboxedTable[idx]!;
  const t2 = now();
  const call = () => kernel(ks, ...args);
  return observe('call', entry.operatorName, ks, call, args, parseMs, t1 - t0, t2 - t1);
}

function slowRedispatch(entry: OperatorEntry, ks: DispatchKeySet, args: unknown[]): unknown {
  const t0 = now();
  const kernel = entry.unboxedTable[ks.getDispatchTableIndexForDispatchKeySet()]!;
  const lookupMs = isDispatchPhaseTimingEnabled() ? now() - t0 : 0;
  return observe('redispatch', entry.operatorName, ks, () => kernel(ks, ...args), args, 0, 0, lookupMs);
}
