// DispatchKeyExtractor: which arguments of an operator contribute dispatch keys, the operator's masks of
// keys that are not fallthrough, and the extraction of a call's key set from its arguments (unboxed and
// boxed). Mirrors aten/src/ATen/core/dispatch/DispatchKeyExtractor.{h,cpp} (getDispatchKeySetUnboxed,
// getDispatchKeySetBoxed, computeDispatchKeySet).

import { DispatchKey, NUM_BACKENDS, isPerBackendFunctionalityKey, toBackendComponent, toFunctionalityKey } from '../c10/DispatchKey.js';
import { BACKEND_MASK, DispatchKeySet, dispatchTableIndexOf } from '../c10/DispatchKeySet.js';
import type { Stack } from './KernelFunction.js';
import { tls } from './LocalDispatchKeySet.js';
import type { OperatorEntry } from './OperatorEntry.js';

/** Anything that carries a dispatch key set: tensors, generators. */
export interface HasDispatchKeySet {
  readonly keySet: DispatchKeySet;
}

/** How an argument contributes to the key set of a call (from its schema type). */
export enum DispatchArgKind {
  None = 0,
  /** `Tensor`: always contributes. */
  Tensor = 1,
  /** `Tensor?`: contributes unless null/undefined. */
  OptionalTensor = 2,
  /** `Tensor[]`, `Tensor?[]`: the union of the non-null elements. */
  TensorList = 3,
  /** `Generator`, `Generator?`: contributes on the unboxed path only, as in PyTorch. */
  Generator = 4,
}

/** The dispatch role of a schema type, from its printed form (`Tensor(a!)?` → OptionalTensor). */
export function dispatchArgKindOfType(typeText: string): DispatchArgKind {
  const t = typeText.replace(/\([^)]*\)/g, '');
  if (t === 'Tensor') return DispatchArgKind.Tensor;
  if (t === 'Tensor?') return DispatchArgKind.OptionalTensor;
  if (/^Tensor\??\[\d*\]$/.test(t)) return DispatchArgKind.TensorList;
  if (t === 'Generator' || t === 'Generator?') return DispatchArgKind.Generator;
  return DispatchArgKind.None;
}

// Note [Fallthrough kernels]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
// A fallthrough registration means "skip this key". Rather than calling a kernel that redispatches, the
// dispatcher removes such keys from the call's key set up front with the operator's mask of non-fallthrough
// keys (PyTorch's nonFallthroughKeys_), so the table lookup lands directly on the next real kernel. Keys of
// per-backend functionalities can fall through for one backend only (a CPU fallthrough, not a CUDA one), so
// there is also one mask per backend, used only when they differ (requiresBitsetPerBackend_). The masks
// are updated from the fallthrough flag of every table slot the operator recomputes, in the same order and
// with the same set operations as PyTorch (remove() clears only functionality bits, so e.g. a fallthrough
// at CPU hides Dense for the CPU backend's mask).
export class DispatchKeyExtractor {
  /** Per argument: its DispatchArgKind. */
  readonly kinds: Uint8Array;
  /** Indices of the arguments whose kind is not None (the boxed path skips Generators). */
  readonly dispatchArgIndices: readonly number[];

  /**
   * The masks of non-fallthrough keys as int32 halves: [0], [1] the global mask (nonFallthroughKeys_), then
   * for backend index b (CPU = 0) [2 + 2b], [3 + 2b] (nonFallthroughKeysPerBackend_). One flat array so that
   * the call path reads it with two indexed loads.
   */
  readonly masks = new Int32Array(2 + 2 * NUM_BACKENDS);
  requiresBitsetPerBackend = false;

  constructor(kinds: readonly DispatchArgKind[]) {
    if (kinds.length > 64) {
      throw new Error(`The function schema has ${kinds.length} arguments but this PyTorch build only supports 64`);
    }
    this.kinds = Uint8Array.from(kinds);
    this.dispatchArgIndices = kinds.flatMap((k, i) => (k === DispatchArgKind.None ? [] : [i]));
    this.resetMasks();
  }

  static fromTypes(typeTexts: readonly string[]): DispatchKeyExtractor {
    return new DispatchKeyExtractor(typeTexts.map(dispatchArgKindOfType));
  }

  /** An extractor for an operator without a schema: no argument contributes. */
  static empty(): DispatchKeyExtractor {
    return new DispatchKeyExtractor([]);
  }

  /** The non-fallthrough mask a call with key set `ks` (after TLS) uses. */
  maskFor(ks: DispatchKeySet): DispatchKeySet {
    const m = this.requiresBitsetPerBackend ? 2 + 2 * ks.getBackendIndex() : 0;
    return DispatchKeySet.fromBits(this.masks[m] as number, this.masks[m + 1] as number);
  }

  /** Resets every mask to FULL (before a full recomputation of the table). */
  resetMasks(): void {
    for (let i = 0; i < this.masks.length; i += 2) {
      this.masks[i] = DispatchKeySet.FULL.lo;
      this.masks[i + 1] = DispatchKeySet.FULL.hi;
    }
    this.requiresBitsetPerBackend = false;
  }

  // DispatchKeySet's `minus` (functionality bits only: BACKEND_MASK bits stay) and `or`, on the raw
  // halves: this runs for every table slot of every operator at registration, and interning the
  // intermediate sets cost a fifth of start-up.
  private updateMask(slot: number, ks: DispatchKeySet, hasFallthrough: boolean): void {
    const m = this.masks;
    if (hasFallthrough) {
      m[slot] = (m[slot] as number) & (BACKEND_MASK | ~ks.lo);
      m[slot + 1] = (m[slot + 1] as number) & ~ks.hi;
    } else {
      m[slot] = (m[slot] as number) | ks.lo;
      m[slot + 1] = (m[slot + 1] as number) | ks.hi;
    }
  }

  /** `setOperatorHasFallthroughForKey(k, hasFallthrough)`, exactly as PyTorch updates its masks. */
  setOperatorHasFallthroughForKey(k: DispatchKey, hasFallthrough: boolean): void {
    const ks = DispatchKeySet.fromKey(k);
    this.updateMask(0, ks, hasFallthrough);
    if (isPerBackendFunctionalityKey(toFunctionalityKey(k))) {
      const b = toBackendComponent(k) - 1;
      if (b < 0) return; // a StartOf…Backends value: no backend to update
      this.updateMask(2 + 2 * b, ks, hasFallthrough);
      this.requiresBitsetPerBackend = false;
      for (let i = 2; i + 2 < this.masks.length; i += 2) {
        if (this.masks[i] !== this.masks[i + 2] || this.masks[i + 1] !== this.masks[i + 3]) {
          this.requiresBitsetPerBackend = true;
          break;
        }
      }
    } else {
      for (let b = 0; b < NUM_BACKENDS; b++) this.updateMask(2 + 2 * b, ks, hasFallthrough);
    }
  }
}

// ---- Extracting the key set of a call ----
// The per-arity call closures (src/generated/DispatchArity.ts) inline the Tensor case of `argKeySet` and the
// TLS and mask arithmetic of `computeDispatchKeySet`; the general forms below serve the other argument kinds,
// the boxed path, schemas of more than 8 arguments and the observed slow path. See Note [Dispatch hot path].

// The key set of the call being extracted, accumulated in int32 halves. See Note [Dispatch hot path].
let accLo = 0;
let accHi = 0;

/** The key set one dispatch argument contributes: the Tensor case inline, the others via the slow path. */
export function argKeySet(kind: number, v: unknown, entry: OperatorEntry, i: number): DispatchKeySet {
  if (kind === DispatchArgKind.Tensor) {
    const ks = (v as { keySet?: DispatchKeySet } | null | undefined)?.keySet;
    if (ks !== undefined) return ks;
  }
  accLo = 0;
  accHi = 0;
  accumulateSlow(kind, v, entry, i, false);
  return DispatchKeySet.fromBits(accLo, accHi);
}

function keySetOf(v: unknown): DispatchKeySet | undefined {
  return v != null && typeof v === 'object' ? (v as { keySet?: DispatchKeySet }).keySet : undefined;
}

function badArgument(entry: OperatorEntry, i: number, expected: string, v: unknown): TypeError {
  const shown = v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v;
  return new TypeError(
    `${entry.operatorName}: argument ${i} (${entry.schema?.schema.arguments[i]?.type.toString() ?? '?'}) expected ${expected}, got ${shown}`,
  );
}

function accumulateSlow(kind: number, v: unknown, entry: OperatorEntry, i: number, boxed: boolean): void {
  switch (kind) {
    case DispatchArgKind.Tensor: {
      const ks = keySetOf(v);
      if (ks === undefined) throw badArgument(entry, i, 'a Tensor', v);
      accLo |= ks.lo;
      accHi |= ks.hi;
      return;
    }
    case DispatchArgKind.OptionalTensor: {
      if (v == null) return;
      const ks = keySetOf(v);
      if (ks === undefined) throw badArgument(entry, i, 'a Tensor or null', v);
      accLo |= ks.lo;
      accHi |= ks.hi;
      return;
    }
    case DispatchArgKind.TensorList: {
      if (!Array.isArray(v)) throw badArgument(entry, i, 'an array of Tensors', v);
      for (const t of v) {
        if (t == null) continue;
        const ks = keySetOf(t);
        if (ks === undefined) throw badArgument(entry, i, 'an array of Tensors', t);
        accLo |= ks.lo;
        accHi |= ks.hi;
      }
      return;
    }
    case DispatchArgKind.Generator: {
      // Unboxed calls count defined generators; boxed calls ignore them (as PyTorch does).
      const ks = boxed ? undefined : keySetOf(v);
      if (ks !== undefined) {
        accLo |= ks.lo;
        accHi |= ks.hi;
      }
      return;
    }
    default:
      return;
  }
}

/** `getDispatchKeySetUnboxed(args...)`: accumulates the keys of the dispatch arguments in `args`. */
export function extractUnboxed(entry: OperatorEntry, args: readonly unknown[]): void {
  const ex = entry.extractor;
  accLo = 0;
  accHi = 0;
  for (const i of ex.dispatchArgIndices) accumulateSlow(ex.kinds[i] as number, args[i], entry, i, false);
}

/** `getDispatchKeySetBoxed(stack)`: accumulates the keys of the arguments at `stack[base..]` (Generators ignored). */
export function extractBoxed(entry: OperatorEntry, stack: Stack, base: number): void {
  const ex = entry.extractor;
  accLo = 0;
  accHi = 0;
  for (const i of ex.dispatchArgIndices) accumulateSlow(ex.kinds[i] as number, stack[base + i], entry, i, true);
}

/**
 * `computeDispatchKeySet`: ((args ∪ TLS included) − TLS excluded) ∩ non-fallthrough mask, applied to the
 * accumulated keys. Returns the table slot; `extractedKeySet()` is then the key set itself.
 */
export function computeDispatchKeySet(ex: DispatchKeyExtractor): number {
  let lo = (accLo | tls.includedLo) & (0xffff | ~tls.excludedLo);
  let hi = (accHi | tls.includedHi) & ~tls.excludedHi;
  const m = ex.requiresBitsetPerBackend ? 2 + 2 * (32 - Math.clz32((lo & 0xffff) >>> 1)) : 0;
  lo &= ex.masks[m] as number;
  hi &= ex.masks[m + 1] as number;
  accLo = lo;
  accHi = hi;
  return dispatchTableIndexOf(lo, hi);
}

/** The key set the last `computeDispatchKeySet` produced. */
export function extractedKeySet(): DispatchKeySet {
  return DispatchKeySet.fromBits(accLo, accHi);
}
