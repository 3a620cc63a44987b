// Thread-local dispatch state: the included and excluded key sets every call combines with its arguments'
// keys, and the RAII guards that change them. Mirrors c10/core/impl/LocalDispatchKeySet.{h,cpp}.

import { DispatchKey } from '../c10/DispatchKey.js';
import {
  DispatchKeySet,
  autogradDispatchKeyset,
  autogradDispatchKeysetWithADInplaceOrView,
  defaultExcludedSet,
  defaultIncludedSet,
} from '../c10/DispatchKeySet.js';

// Note [Thread-local dispatch state]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// JavaScript runs one thread per realm (a worker has its own module instances), so "thread-local" is
// module state here. The dispatcher reads it on every call, so it is one object of four int32 fields,
// the halves of the included and excluded sets (see Note [DispatchKeySet representation]), not two
// DispatchKeySet objects: a call reads four numbers and builds nothing. It starts at PyTorch's defaults:
// included = {BackendSelect, ADInplaceOrView}, excluded = the Autocast keys.
export const tls = {
  includedLo: defaultIncludedSet.lo,
  includedHi: defaultIncludedSet.hi,
  excludedLo: defaultExcludedSet.lo,
  excludedHi: defaultExcludedSet.hi,
};

/** A snapshot of the thread-local included and excluded sets (`tls_local_dispatch_key_set()`). */
export interface LocalDispatchKeySet {
  readonly included: DispatchKeySet;
  readonly excluded: DispatchKeySet;
}

/** The thread-local included and excluded key sets (c10::impl::tls_local_dispatch_key_set). */
export function tlsLocalDispatchKeySet(): LocalDispatchKeySet {
  return {
    included: DispatchKeySet.fromBits(tls.includedLo, tls.includedHi),
    excluded: DispatchKeySet.fromBits(tls.excludedLo, tls.excludedHi),
  };
}

/** `_force_tls_local_dispatch_key_set`: replaces both sets. */
export function forceTlsLocalDispatchKeySet(state: LocalDispatchKeySet): void {
  tls.includedLo = state.included.lo;
  tls.includedHi = state.included.hi;
  tls.excludedLo = state.excluded.lo;
  tls.excludedHi = state.excluded.hi;
}

/** `tls_is_dispatch_key_included(k)`. */
export function tlsIsDispatchKeyIncluded(k: DispatchKey): boolean {
  return DispatchKeySet.fromBits(tls.includedLo, tls.includedHi).has(k);
}

/** `tls_is_dispatch_key_excluded(k)`. */
export function tlsIsDispatchKeyExcluded(k: DispatchKey): boolean {
  return DispatchKeySet.fromBits(tls.excludedLo, tls.excludedHi).has(k);
}

/** `tls_set_dispatch_key_included(k, desired)`: toggles one key (not scoped). */
export function tlsSetDispatchKeyIncluded(k: DispatchKey, desired: boolean): void {
  const cur = DispatchKeySet.fromBits(tls.includedLo, tls.includedHi);
  const next = desired ? cur.add(k) : cur.remove(k);
  tls.includedLo = next.lo;
  tls.includedHi = next.hi;
}

/** `tls_set_dispatch_key_excluded(k, desired)`: toggles one key (not scoped). */
export function tlsSetDispatchKeyExcluded(k: DispatchKey, desired: boolean): void {
  const cur = DispatchKeySet.fromBits(tls.excludedLo, tls.excludedHi);
  const next = desired ? cur.add(k) : cur.remove(k);
  tls.excludedLo = next.lo;
  tls.excludedHi = next.hi;
}

// Note [Dispatch key guards]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
// A guard snapshots the whole TLS state when created and restores exactly that snapshot when released
// (PyTorch 2.13 does the same; older releases subtracted what they had added, which broke nesting). Release
// with `using` (Symbol.dispose), `guard.release()` in a finally block, or the `with*` helpers below that
// take a function and restore on return and on throw. Releasing twice is a no-op.
abstract class DispatchKeyGuard implements Disposable {
  private readonly saved: readonly [number, number, number, number];
  private released = false;

  protected constructor() {
    this.saved = [tls.includedLo, tls.includedHi, tls.excludedLo, tls.excludedHi];
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    [tls.includedLo, tls.includedHi, tls.excludedLo, tls.excludedHi] = this.saved;
  }

  [Symbol.dispose](): void {
    this.release();
  }
}

function asSet(keys: DispatchKeySet | DispatchKey): DispatchKeySet {
  return keys instanceof DispatchKeySet ? keys : DispatchKeySet.fromKey(keys);
}

/** `IncludeDispatchKeyGuard(ks)`: adds ks to the included set until released. */
export class IncludeDispatchKeyGuard extends DispatchKeyGuard {
  constructor(keys: DispatchKeySet | DispatchKey) {
    super();
    const ks = asSet(keys);
    tls.includedLo |= ks.lo;
    tls.includedHi |= ks.hi;
  }
}

/** `ExcludeDispatchKeyGuard(ks)`: adds ks to the excluded set until released. */
export class ExcludeDispatchKeyGuard extends DispatchKeyGuard {
  constructor(keys: DispatchKeySet | DispatchKey) {
    super();
    const ks = asSet(keys);
    tls.excludedLo |= ks.lo;
    tls.excludedHi |= ks.hi;
  }
}

/** `ForceDispatchKeyGuard(included, excluded)`: replaces both sets until released. */
export class ForceDispatchKeyGuard extends DispatchKeyGuard {
  constructor(included: DispatchKeySet, excluded: DispatchKeySet) {
    super();
    forceTlsLocalDispatchKeySet({ included, excluded });
  }
}

/** `AutoDispatchBelowAutograd`: excludes the autograd keys, so calls go straight to the backend. */
export class AutoDispatchBelowAutograd extends ExcludeDispatchKeyGuard {
  constructor() {
    super(autogradDispatchKeyset);
  }
}

/** `AutoDispatchBelowADInplaceOrView`: excludes the autograd keys and ADInplaceOrView. */
export class AutoDispatchBelowADInplaceOrView extends ExcludeDispatchKeyGuard {
  constructor() {
    super(autogradDispatchKeysetWithADInplaceOrView);
  }
}

/** Runs `fn` with `guard` in force and releases it afterwards, also when `fn` throws. */
export function withGuard<T>(guard: DispatchKeyGuard, fn: () => T): T {
  try {
    return fn();
  } finally {
    guard.release();
  }
}

export type { DispatchKeyGuard };

// Note [Fresh tensors start at version 0]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A kernel that fills a tensor it has just created through an in-place operator (zeros → fill_, rand →
// uniform_, clone → copy_) must not bump the new tensor's version counter: PyTorch's variable factories run
// under AutoDispatchBelowADInplaceOrView, so `torch.zeros(3)._version` is 0. `belowADInplaceOrView` runs
// such a call with ADInplaceOrView excluded, restoring the thread-local state after, and builds no guard
// object. Kernels that write into an existing argument through another operator use it too, since their
// own ADInplaceOrView kernel bumps the argument once.
const inplaceOrViewKeys = DispatchKeySet.fromKey(DispatchKey.ADInplaceOrView);

/** `AutoDispatchBelowADInplaceOrView` around `f()`. */
export function belowADInplaceOrView<R>(f: () => R): R {
  const lo = tls.excludedLo;
  const hi = tls.excludedHi;
  tls.excludedLo |= inplaceOrViewKeys.lo;
  tls.excludedHi |= inplaceOrViewKeys.hi;
  try {
    return f();
  } finally {
    tls.excludedLo = lo;
    tls.excludedHi = hi;
  }
}
