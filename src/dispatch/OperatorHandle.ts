// OperatorHandle: what callers hold to call an operator — `call` (unboxed, the fast path), `redispatch`,
// `callBoxed` and `redispatchBoxed`. Mirrors OperatorHandle / TypedOperatorHandle and Dispatcher::call,
// Dispatcher::redispatch, Dispatcher::callBoxed in aten/src/ATen/core/dispatch/Dispatcher.h.

import { DispatchKey, dispatchKeyToString } from '../c10/DispatchKey.js';
import { DispatchKeySet, dispatchTableIndexOf, getDispatchTableIndexForDispatchKey } from '../c10/DispatchKeySet.js';
import { hooks, observe, type DispatchEvent } from './debug.js';
import { argKeySet, computeDispatchKeySet, extractBoxed, extractUnboxed, extractedKeySet } from './DispatchKeyExtractor.js';
import type { Dispatcher } from './Dispatcher.js';
import type { Stack } from './KernelFunction.js';
import { tls } from './LocalDispatchKeySet.js';
import type { OperatorEntry } from './OperatorEntry.js';
import type { DispatcherSchema } from './schemaInfo.js';

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
    return this.entry.schema !== null;
  }

  /** Rebuilds the call closures (when the schema, hence the dispatch arguments, changed). */
  rebuild(): void {
    this.call = makeCall(this.entry) as F;
    this.redispatch = makeRedispatch(this.entry) as Redispatch<F>;
  }

  /** The key set `call(...args)` would dispatch with (arguments, TLS, fallthrough mask). */
  computeDispatchKeySet(...args: unknown[]): DispatchKeySet {
    extractUnboxed(this.entry, args);
    computeDispatchKeySet(this.entry.extractor);
    return extractedKeySet();
  }

  /** Calls the operator on a stack whose last entries are its arguments; leaves the returns on the stack. */
  callBoxed(stack: Stack): void {
    const entry = this.entry;
    const ex = entry.extractor;
    const base = stack.length - entry.numArguments();
    if (base < 0) {
      throw new Error(`${entry.operatorName}: callBoxed expected ${entry.numArguments()} arguments on the stack, found ${stack.length}`);
    }
    extractBoxed(entry, stack, base);
    const idx = computeDispatchKeySet(ex);
    const ks = extractedKeySet();
    const kernel = entry.boxedTable[idx]!;
    if (hooks.active) return observe('callBoxed', entry.operatorName, ks.highestPriorityTypeId(), () => kernel(this, ks, stack));
    kernel(this, ks, stack);
  }

  /** Calls the boxed kernel for exactly `ks`. */
  redispatchBoxed(ks: DispatchKeySet, stack: Stack): void {
    const kernel = this.entry.boxedTable[ks.getDispatchTableIndexForDispatchKeySet()]!;
    if (hooks.active) {
      return observe('redispatchBoxed', this.entry.operatorName, ks.highestPriorityTypeId(), () => kernel(this, ks, stack));
    }
    kernel(this, ks, stack);
  }

  /** `callBoxedForDispatchKey(k, stack)`: the direct kernel at k if registered, else k's backend fallback. */
  callBoxedForDispatchKey(k: DispatchKey, stack: Stack): void {
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
    return this.entry.computed[getDispatchTableIndexForDispatchKey(k)] !== null;
  }

  /** The debug string of the kernel the live table holds for k, with its tag, or null when missing. */
  computedKernelForDispatchKey(k: DispatchKey): { debug: string; tag: string; fallthrough: boolean } | null {
    const e = this.entry.computed[getDispatchTableIndexForDispatchKey(k)];
    return e == null ? null : { debug: e.kernel.debug, tag: e.tag, fallthrough: e.kernel.kernel.isFallthrough };
  }

  toString(): string {
    return `OperatorHandle(${this.operatorName})`;
  }
}

function slowCall(entry: OperatorEntry, kind: DispatchEvent['kind'], args: unknown[]): unknown {
  extractUnboxed(entry, args);
  const idx = computeDispatchKeySet(entry.extractor);
  const ks = extractedKeySet();
  const kernel = entry.unboxedTable[idx]!;
  return observe(kind, entry.operatorName, ks.highestPriorityTypeId(), () => kernel(ks, ...args));
}

function slowRedispatch(entry: OperatorEntry, ks: DispatchKeySet, args: unknown[]): unknown {
  const kernel = entry.unboxedTable[ks.getDispatchTableIndexForDispatchKeySet()]!;
  return observe('redispatch', entry.operatorName, ks.highestPriorityTypeId(), () => kernel(ks, ...args));
}

// Note [One call closure per arity]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A `(...args)` signature would allocate an array on every call. Instead each operator gets a closure with
// exactly as many parameters as its schema has arguments (up to 8; longer schemas take the rest-parameter
// form), with the argument kinds captured as constants so that V8 compiles the key extraction down to a
// few loads and ORs. Closures are built when the schema is registered, never per call, and without
// `eval`/`new Function` (which content-security policies forbid).
function makeCall(entry: OperatorEntry): AnyFn {
  const t = entry.unboxedTable;
  const ex = entry.extractor;
  const m = ex.masks;
  const e = entry;
  const kind = (i: number) => ex.kinds[i] ?? 0;
  const [k0, k1, k2, k3, k4, k5, k6, k7] = [kind(0), kind(1), kind(2), kind(3), kind(4), kind(5), kind(6), kind(7)];
  // A one-entry memo of the last key set: a call with the same keys as the previous one (the common case)
  // hands the kernel the same DispatchKeySet without even the intern lookup.
  let lastLo = 0;
  let lastHi = 0;
  let lastKs = DispatchKeySet.EMPTY;
  switch (entry.schema === null ? -1 : ex.kinds.length) {
    case 0:
      return () => {
        if (hooks.active) return slowCall(e, 'call', []);
        let lo = tls.includedLo;
        let hi = tls.includedHi;
        lo &= 0xffff | ~tls.excludedLo;
        hi &= ~tls.excludedHi;
        const mi = ex.requiresBitsetPerBackend ? 2 + 2 * (32 - Math.clz32((lo & 0xffff) >>> 1)) : 0;
        lo &= m[mi] as number;
        hi &= m[mi + 1] as number;
        if (lo !== lastLo || hi !== lastHi) {
          lastLo = lo;
          lastHi = hi;
          lastKs = DispatchKeySet.fromBits(lo, hi);
        }
        return t[dispatchTableIndexOf(lo, hi)]!(lastKs);
      };
    case 1:
      return (a0: unknown) => {
        if (hooks.active) return slowCall(e, 'call', [a0]);
        let lo = tls.includedLo;
        let hi = tls.includedHi;
        if (k0 !== 0) {
          const s = argKeySet(k0, a0, e, 0);
          lo |= s.lo;
          hi |= s.hi;
        }
        lo &= 0xffff | ~tls.excludedLo;
        hi &= ~tls.excludedHi;
        const mi = ex.requiresBitsetPerBackend ? 2 + 2 * (32 - Math.clz32((lo & 0xffff) >>> 1)) : 0;
        lo &= m[mi] as number;
        hi &= m[mi + 1] as number;
        if (lo !== lastLo || hi !== lastHi) {
          lastLo = lo;
          lastHi = hi;
          lastKs = DispatchKeySet.fromBits(lo, hi);
        }
        return t[dispatchTableIndexOf(lo, hi)]!(lastKs, a0);
      };
    case 2:
      return (a0: unknown, a1: unknown) => {
        if (hooks.active) return slowCall(e, 'call', [a0, a1]);
        let lo = tls.includedLo;
        let hi = tls.includedHi;
        if (k0 !== 0) {
          const s = argKeySet(k0, a0, e, 0);
          lo |= s.lo;
          hi |= s.hi;
        }
        if (k1 !== 0) {
          const s = argKeySet(k1, a1, e, 1);
          lo |= s.lo;
          hi |= s.hi;
        }
        lo &= 0xffff | ~tls.excludedLo;
        hi &= ~tls.excludedHi;
        const mi = ex.requiresBitsetPerBackend ? 2 + 2 * (32 - Math.clz32((lo & 0xffff) >>> 1)) : 0;
        lo &= m[mi] as number;
        hi &= m[mi + 1] as number;
        if (lo !== lastLo || hi !== lastHi) {
          lastLo = lo;
          lastHi = hi;
          lastKs = DispatchKeySet.fromBits(lo, hi);
        }
        return t[dispatchTableIndexOf(lo, hi)]!(lastKs, a0, a1);
      };
    case 3:
      return (a0: unknown, a1: unknown, a2: unknown) => {
        if (hooks.active) return slowCall(e, 'call', [a0, a1, a2]);
        let lo = tls.includedLo;
        let hi = tls.includedHi;
        if (k0 !== 0) {
          const s = argKeySet(k0, a0, e, 0);
          lo |= s.lo;
          hi |= s.hi;
        }
        if (k1 !== 0) {
          const s = argKeySet(k1, a1, e, 1);
          lo |= s.lo;
          hi |= s.hi;
        }
        if (k2 !== 0) {
          const s = argKeySet(k2, a2, e, 2);
          lo |= s.lo;
          hi |= s.hi;
        }
        lo &= 0xffff | ~tls.excludedLo;
        hi &= ~tls.excludedHi;
        const mi = ex.requiresBitsetPerBackend ? 2 + 2 * (32 - Math.clz32((lo & 0xffff) >>> 1)) : 0;
        lo &= m[mi] as number;
        hi &= m[mi + 1] as number;
        if (lo !== lastLo || hi !== lastHi) {
          lastLo = lo;
          lastHi = hi;
          lastKs = DispatchKeySet.fromBits(lo, hi);
        }
        return t[dispatchTableIndexOf(lo, hi)]!(lastKs, a0, a1, a2);
      };
    case 4:
      return (a0: unknown, a1: unknown, a2: unknown, a3: unknown) => {
        if (hooks.active) return slowCall(e, 'call', [a0, a1, a2, a3]);
        let lo = tls.includedLo;
        let hi = tls.includedHi;
        if (k0 !== 0) {
          const s = argKeySet(k0, a0, e, 0);
          lo |= s.lo;
          hi |= s.hi;
        }
        if (k1 !== 0) {
          const s = argKeySet(k1, a1, e, 1);
          lo |= s.lo;
          hi |= s.hi;
        }
        if (k2 !== 0) {
          const s = argKeySet(k2, a2, e, 2);
          lo |= s.lo;
          hi |= s.hi;
        }
        if (k3 !== 0) {
          const s = argKeySet(k3, a3, e, 3);
          lo |= s.lo;
          hi |= s.hi;
        }
        lo &= 0xffff | ~tls.excludedLo;
        hi &= ~tls.excludedHi;
        const mi = ex.requiresBitsetPerBackend ? 2 + 2 * (32 - Math.clz32((lo & 0xffff) >>> 1)) : 0;
        lo &= m[mi] as number;
        hi &= m[mi + 1] as number;
        if (lo !== lastLo || hi !== lastHi) {
          lastLo = lo;
          lastHi = hi;
          lastKs = DispatchKeySet.fromBits(lo, hi);
        }
        return t[dispatchTableIndexOf(lo, hi)]!(lastKs, a0, a1, a2, a3);
      };
    case 5:
      return (a0: unknown, a1: unknown, a2: unknown, a3: unknown, a4: unknown) => {
        if (hooks.active) return slowCall(e, 'call', [a0, a1, a2, a3, a4]);
        let lo = tls.includedLo;
        let hi = tls.includedHi;
        if (k0 !== 0) {
          const s = argKeySet(k0, a0, e, 0);
          lo |= s.lo;
          hi |= s.hi;
        }
        if (k1 !== 0) {
          const s = argKeySet(k1, a1, e, 1);
          lo |= s.lo;
          hi |= s.hi;
        }
        if (k2 !== 0) {
          const s = argKeySet(k2, a2, e, 2);
          lo |= s.lo;
          hi |= s.hi;
        }
        if (k3 !== 0) {
          const s = argKeySet(k3, a3, e, 3);
          lo |= s.lo;
          hi |= s.hi;
        }
        if (k4 !== 0) {
          const s = argKeySet(k4, a4, e, 4);
          lo |= s.lo;
          hi |= s.hi;
        }
        lo &= 0xffff | ~tls.excludedLo;
        hi &= ~tls.excludedHi;
        const mi = ex.requiresBitsetPerBackend ? 2 + 2 * (32 - Math.clz32((lo & 0xffff) >>> 1)) : 0;
        lo &= m[mi] as number;
        hi &= m[mi + 1] as number;
        if (lo !== lastLo || hi !== lastHi) {
          lastLo = lo;
          lastHi = hi;
          lastKs = DispatchKeySet.fromBits(lo, hi);
        }
        return t[dispatchTableIndexOf(lo, hi)]!(lastKs, a0, a1, a2, a3, a4);
      };
    case 6:
      return (a0: unknown, a1: unknown, a2: unknown, a3: unknown, a4: unknown, a5: unknown) => {
        if (hooks.active) return slowCall(e, 'call', [a0, a1, a2, a3, a4, a5]);
        let lo = tls.includedLo;
        let hi = tls.includedHi;
        if (k0 !== 0) {
          const s = argKeySet(k0, a0, e, 0);
          lo |= s.lo;
          hi |= s.hi;
        }
        if (k1 !== 0) {
          const s = argKeySet(k1, a1, e, 1);
          lo |= s.lo;
          hi |= s.hi;
        }
        if (k2 !== 0) {
          const s = argKeySet(k2, a2, e, 2);
          lo |= s.lo;
          hi |= s.hi;
        }
        if (k3 !== 0) {
          const s = argKeySet(k3, a3, e, 3);
          lo |= s.lo;
          hi |= s.hi;
        }
        if (k4 !== 0) {
          const s = argKeySet(k4, a4, e, 4);
          lo |= s.lo;
          hi |= s.hi;
        }
        if (k5 !== 0) {
          const s = argKeySet(k5, a5, e, 5);
          lo |= s.lo;
          hi |= s.hi;
        }
        lo &= 0xffff | ~tls.excludedLo;
        hi &= ~tls.excludedHi;
        const mi = ex.requiresBitsetPerBackend ? 2 + 2 * (32 - Math.clz32((lo & 0xffff) >>> 1)) : 0;
        lo &= m[mi] as number;
        hi &= m[mi + 1] as number;
        if (lo !== lastLo || hi !== lastHi) {
          lastLo = lo;
          lastHi = hi;
          lastKs = DispatchKeySet.fromBits(lo, hi);
        }
        return t[dispatchTableIndexOf(lo, hi)]!(lastKs, a0, a1, a2, a3, a4, a5);
      };
    case 7:
      return (a0: unknown, a1: unknown, a2: unknown, a3: unknown, a4: unknown, a5: unknown, a6: unknown) => {
        if (hooks.active) return slowCall(e, 'call', [a0, a1, a2, a3, a4, a5, a6]);
        let lo = tls.includedLo;
        let hi = tls.includedHi;
        if (k0 !== 0) {
          const s = argKeySet(k0, a0, e, 0);
          lo |= s.lo;
          hi |= s.hi;
        }
        if (k1 !== 0) {
          const s = argKeySet(k1, a1, e, 1);
          lo |= s.lo;
          hi |= s.hi;
        }
        if (k2 !== 0) {
          const s = argKeySet(k2, a2, e, 2);
          lo |= s.lo;
          hi |= s.hi;
        }
        if (k3 !== 0) {
          const s = argKeySet(k3, a3, e, 3);
          lo |= s.lo;
          hi |= s.hi;
        }
        if (k4 !== 0) {
          const s = argKeySet(k4, a4, e, 4);
          lo |= s.lo;
          hi |= s.hi;
        }
        if (k5 !== 0) {
          const s = argKeySet(k5, a5, e, 5);
          lo |= s.lo;
          hi |= s.hi;
        }
        if (k6 !== 0) {
          const s = argKeySet(k6, a6, e, 6);
          lo |= s.lo;
          hi |= s.hi;
        }
        lo &= 0xffff | ~tls.excludedLo;
        hi &= ~tls.excludedHi;
        const mi = ex.requiresBitsetPerBackend ? 2 + 2 * (32 - Math.clz32((lo & 0xffff) >>> 1)) : 0;
        lo &= m[mi] as number;
        hi &= m[mi + 1] as number;
        if (lo !== lastLo || hi !== lastHi) {
          lastLo = lo;
          lastHi = hi;
          lastKs = DispatchKeySet.fromBits(lo, hi);
        }
        return t[dispatchTableIndexOf(lo, hi)]!(lastKs, a0, a1, a2, a3, a4, a5, a6);
      };
    case 8:
      return (a0: unknown, a1: unknown, a2: unknown, a3: unknown, a4: unknown, a5: unknown, a6: unknown, a7: unknown) => {
        if (hooks.active) return slowCall(e, 'call', [a0, a1, a2, a3, a4, a5, a6, a7]);
        let lo = tls.includedLo;
        let hi = tls.includedHi;
        if (k0 !== 0) {
          const s = argKeySet(k0, a0, e, 0);
          lo |= s.lo;
          hi |= s.hi;
        }
        if (k1 !== 0) {
          const s = argKeySet(k1, a1, e, 1);
          lo |= s.lo;
          hi |= s.hi;
        }
        if (k2 !== 0) {
          const s = argKeySet(k2, a2, e, 2);
          lo |= s.lo;
          hi |= s.hi;
        }
        if (k3 !== 0) {
          const s = argKeySet(k3, a3, e, 3);
          lo |= s.lo;
          hi |= s.hi;
        }
        if (k4 !== 0) {
          const s = argKeySet(k4, a4, e, 4);
          lo |= s.lo;
          hi |= s.hi;
        }
        if (k5 !== 0) {
          const s = argKeySet(k5, a5, e, 5);
          lo |= s.lo;
          hi |= s.hi;
        }
        if (k6 !== 0) {
          const s = argKeySet(k6, a6, e, 6);
          lo |= s.lo;
          hi |= s.hi;
        }
        if (k7 !== 0) {
          const s = argKeySet(k7, a7, e, 7);
          lo |= s.lo;
          hi |= s.hi;
        }
        lo &= 0xffff | ~tls.excludedLo;
        hi &= ~tls.excludedHi;
        const mi = ex.requiresBitsetPerBackend ? 2 + 2 * (32 - Math.clz32((lo & 0xffff) >>> 1)) : 0;
        lo &= m[mi] as number;
        hi &= m[mi + 1] as number;
        if (lo !== lastLo || hi !== lastHi) {
          lastLo = lo;
          lastHi = hi;
          lastKs = DispatchKeySet.fromBits(lo, hi);
        }
        return t[dispatchTableIndexOf(lo, hi)]!(lastKs, a0, a1, a2, a3, a4, a5, a6, a7);
      };
    default:
      // More than 8 arguments, or no schema yet: the general form.
      return (...args: unknown[]) => {
        if (hooks.active) return slowCall(e, 'call', args);
        extractUnboxed(e, args);
        return t[computeDispatchKeySet(ex)]!(extractedKeySet(), ...args);
      };
  }
}

function makeRedispatch(entry: OperatorEntry): AnyFn {
  const t = entry.unboxedTable;
  const e = entry;
  const idx = (ks: DispatchKeySet) => dispatchTableIndexOf(ks.lo, ks.hi);
  switch (entry.schema === null ? -1 : entry.extractor.kinds.length) {
    case 0:
      return (ks: DispatchKeySet) => (hooks.active ? slowRedispatch(e, ks, []) : t[idx(ks)]!(ks));
    case 1:
      return (ks: DispatchKeySet, a0: unknown) => (hooks.active ? slowRedispatch(e, ks, [a0]) : t[idx(ks)]!(ks, a0));
    case 2:
      return (ks: DispatchKeySet, a0: unknown, a1: unknown) =>
        hooks.active ? slowRedispatch(e, ks, [a0, a1]) : t[idx(ks)]!(ks, a0, a1);
    case 3:
      return (ks: DispatchKeySet, a0: unknown, a1: unknown, a2: unknown) =>
        hooks.active ? slowRedispatch(e, ks, [a0, a1, a2]) : t[idx(ks)]!(ks, a0, a1, a2);
    case 4:
      return (ks: DispatchKeySet, a0: unknown, a1: unknown, a2: unknown, a3: unknown) =>
        hooks.active ? slowRedispatch(e, ks, [a0, a1, a2, a3]) : t[idx(ks)]!(ks, a0, a1, a2, a3);
    case 5:
      return (ks: DispatchKeySet, a0: unknown, a1: unknown, a2: unknown, a3: unknown, a4: unknown) =>
        hooks.active ? slowRedispatch(e, ks, [a0, a1, a2, a3, a4]) : t[idx(ks)]!(ks, a0, a1, a2, a3, a4);
    case 6:
      return (ks: DispatchKeySet, a0: unknown, a1: unknown, a2: unknown, a3: unknown, a4: unknown, a5: unknown) =>
        hooks.active ? slowRedispatch(e, ks, [a0, a1, a2, a3, a4, a5]) : t[idx(ks)]!(ks, a0, a1, a2, a3, a4, a5);
    default:
      return (ks: DispatchKeySet, ...args: unknown[]) => (hooks.active ? slowRedispatch(e, ks, args) : t[idx(ks)]!(ks, ...args));
  }
}

/** The printed name of the key a key set dispatches to (for messages). */
export function dispatchKeyNameOf(ks: DispatchKeySet): string {
  return dispatchKeyToString(ks.highestPriorityTypeId());
}
