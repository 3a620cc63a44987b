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

  /** The global mask of non-fallthrough keys, as halves. */
  maskLo = -1;
  maskHi = (1 << 30) - 1;
  /** Per backend index (CPU = 0): masks, as halves. */
  readonly perBackendLo = new Int32Array(NUM_BACKENDS).fill(-1);
  readonly perBackendHi = new Int32Array(NUM_BACKENDS).fill((1 << 30) - 1);
  requiresBitsetPerBackend = false;

  constructor(kinds: readonly DispatchArgKind[]) {
    if (kinds.length > 64) {
      throw new Error(`The function schema has ${kinds.length} arguments but this PyTorch build only supports 64`);
    }
    this.kinds = Uint8Array.from(kinds);
    this.dispatchArgIndices = kinds.flatMap((k, i) => (k === DispatchArgKind.None ? [] : [i]));
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
    if (!this.requiresBitsetPerBackend) return DispatchKeySet.fromBits(this.maskLo, this.maskHi);
    const b = ks.getBackendIndex();
    return DispatchKeySet.fromBits(this.perBackendLo[b] as number, this.perBackendHi[b] as number);
  }

  /** Resets every mask to FULL (before a full recomputation of the table). */
  resetMasks(): void {
    this.maskLo = -1;
    this.maskHi = (1 << 30) - 1;
    this.perBackendLo.fill(-1);
    this.perBackendHi.fill((1 << 30) - 1);
    this.requiresBitsetPerBackend = false;
  }

  /** `setOperatorHasFallthroughForKey(k, hasFallthrough)`, exactly as PyTorch updates its masks. */
  setOperatorHasFallthroughForKey(k: DispatchKey, hasFallthrough: boolean): void {
    const ks = DispatchKeySet.fromKey(k);
    const global = DispatchKeySet.fromBits(this.maskLo, this.maskHi);
    const nextGlobal = hasFallthrough ? global.minus(ks) : global.or(ks);
    this.maskLo = nextGlobal.lo;
    this.maskHi = nextGlobal.hi;
    const update = (i: number) => {
      const cur = DispatchKeySet.fromBits(this.perBackendLo[i] as number, this.perBackendHi[i] as number);
      const next = hasFallthrough ? cur.minus(ks) : cur.or(ks);
      this.perBackendLo[i] = next.lo;
      this.perBackendHi[i] = next.hi;
    };
    if (isPerBackendFunctionalityKey(toFunctionalityKey(k))) {
      const b = toBackendComponent(k) - 1;
      if (b < 0) return; // a StartOf…Backends value: no backend to update
      update(b);
      this.requiresBitsetPerBackend = false;
      for (let i = 0; i + 1 < NUM_BACKENDS; i++) {
        if (this.perBackendLo[i] !== this.perBackendLo[i + 1] || this.perBackendHi[i] !== this.perBackendHi[i + 1]) {
          this.requiresBitsetPerBackend = true;
          break;
        }
      }
    } else {
      for (let i = 0; i < NUM_BACKENDS; i++) update(i);
    }
  }
}
