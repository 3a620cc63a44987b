// DispatchKeyExtractor: which arguments of an operator contribute dispatch keys, and the operator's masks
// of keys that are not fallthrough. Mirrors aten/src/ATen/core/dispatch/DispatchKeyExtractor.{h,cpp}.

import { DispatchKey, NUM_BACKENDS, isPerBackendFunctionalityKey, toBackendComponent, toFunctionalityKey } from '../c10/DispatchKey.js';
import { DispatchKeySet } from '../c10/DispatchKeySet.js';

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

  private updateMask(slot: number, ks: DispatchKeySet, hasFallthrough: boolean): void {
    const cur = DispatchKeySet.fromBits(this.masks[slot] as number, this.masks[slot + 1] as number);
    const next = hasFallthrough ? cur.minus(ks) : cur.or(ks);
    this.masks[slot] = next.lo;
    this.masks[slot + 1] = next.hi;
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
