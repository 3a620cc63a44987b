// DispatchKeySet: PyTorch's 64-bit set of dispatch keys (backend bits low, functionality bits above), the
// per-functionality offsets and masks, the dispatch-table index, alias-key expansion and the named sets.
// Mirrors c10/core/DispatchKeySet.h and c10/core/DispatchKeySet.cpp.

import {
  BackendComponent,
  DispatchKey,
  NUM_BACKENDS,
  NUM_DISPATCH_KEYS,
  NUM_FUNCTIONALITY_KEYS,
  dispatchKeyToString,
  isAliasDispatchKey,
  isPerBackendFunctionalityKey,
  toBackendComponent,
  toFunctionalityKey,
  toRuntimePerBackendFunctionalityKey,
} from './DispatchKey.js';

// Note [DispatchKeySet representation]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch keeps a key set in one uint64. JavaScript numbers hold 53 exact bits and bit operators work on
// 32 bits, so a set is two int32 halves: `lo` = bits 0..31 (the 16 backend bits and functionality keys
// 1..16), `hi` = bits 32..63 (functionality keys 17..46). Every operation is then two 32-bit bit ops plus
// Math.clz32 for the highest bit — no BigInt (which allocates on every operation) on any path that a call
// takes. `raw`/`fromRaw` give the exact uint64 as a BigInt for interop and debugging.
//
// Sets are immutable, and set algebra must not allocate on the dispatch hot path, so instances are
// interned through a small direct-mapped cache keyed by a hash of (lo, hi): a union that produces a set
// seen before returns the cached instance (a few integer ops and two compares). A cache miss allocates
// once and replaces the slot, so memory stays bounded whatever sets a program builds. Equal sets are
// usually, but not always, the same object: compare with `equals`, never with `===`. The dispatcher goes
// further and computes table indices straight from the halves (`dispatchTableIndexOf`), without any
// DispatchKeySet object; see Note [Dispatch hot path] in src/dispatch.

export const BACKEND_MASK = 0xffff;
const CACHE_BITS = 12;

/** Number of slots in every operator's dispatch table: 47 + 6 × (16 − 1) = 137. */
export const NUM_RUNTIME_ENTRIES = NUM_FUNCTIONALITY_KEYS + 6 * (NUM_BACKENDS - 1);

// Note [Functionality offsets and masks]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// initializeFunctionalityOffsetsAndMasks(): functionality f gets a run of table slots starting at
// offset[f]; per-backend functionalities get 16 slots and a backend mask of 0xFFFF, the others one slot and
// mask 0. The table index of a set is offset[highest functionality] + index of the highest backend bit
// under that functionality's mask (CPU → 0). A per-backend functionality without a backend bit therefore
// lands on the CPU slot, and only the highest backend bit counts: both quirks are PyTorch's and are kept.
const OFFSETS = new Int32Array(NUM_FUNCTIONALITY_KEYS);
const MASKS = new Int32Array(NUM_FUNCTIONALITY_KEYS);
for (let f = 1; f < NUM_FUNCTIONALITY_KEYS; f++) {
  OFFSETS[f] = (OFFSETS[f - 1] as number) + (MASKS[f - 1] === 0 ? 1 : NUM_BACKENDS);
  MASKS[f] = isPerBackendFunctionalityKey(f) ? BACKEND_MASK : 0;
}
if (OFFSETS[NUM_FUNCTIONALITY_KEYS - 1] !== NUM_RUNTIME_ENTRIES - 1) {
  throw new Error(`functionality offsets are inconsistent: last offset ${OFFSETS[NUM_FUNCTIONALITY_KEYS - 1]}`);
}

/** The (offset, mask) pair of a functionality key, as `offsetsAndMasks()[f]` in PyTorch. */
export function functionalityOffsetAndMask(functionality: DispatchKey): { offset: number; mask: number } {
  if (functionality < 0 || functionality >= NUM_FUNCTIONALITY_KEYS) {
    throw new RangeError(
      `functionalityOffsetAndMask: expected a functionality key (0..${NUM_FUNCTIONALITY_KEYS - 1}), got ${functionality}`,
    );
  }
  return { offset: OFFSETS[functionality] as number, mask: MASKS[functionality] as number };
}

/**
 * `getDispatchTableIndexForDispatchKeySet` on the two halves of a set: the hot-path form, no object needed.
 * See Note [Functionality offsets and masks].
 */
export function dispatchTableIndexOf(lo: number, hi: number): number {
  // Index of the highest bit of (repr >> 16): the functionality value, 0 when no functionality bit is set.
  const f = hi !== 0 ? 48 - Math.clz32(hi) : 32 - Math.clz32(lo >>> 16);
  return (OFFSETS[f] as number) + 32 - Math.clz32((lo & (MASKS[f] as number)) >>> 1);
}

function bitOfFunctionality(f: number): { lo: number; hi: number } {
  const bit = NUM_BACKENDS + f - 1;
  return bit < 32 ? { lo: 1 << bit, hi: 0 } : { lo: 0, hi: 1 << (bit - 32) };
}

function hashBits(lo: number, hi: number): number {
  return Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b) >>> (32 - CACHE_BITS);
}

/**
 * A set of dispatch keys with PyTorch's exact 64-bit layout and semantics.
 * See Note [DispatchKeySet representation].
 *
 * @example
 * const ks = DispatchKeySet.of(DispatchKey.CPU, DispatchKey.AutogradCPU);
 * ks.highestPriorityTypeId(); // DispatchKey.AutogradCPU
 * String(ks); // 'DispatchKeySet(CPU, AutogradCPU)'
 */
export class DispatchKeySet implements Iterable<DispatchKey> {
  /** Bits 0..31 of the 64-bit representation, as an int32. */
  readonly lo: number;
  /** Bits 32..63 of the 64-bit representation, as an int32. */
  readonly hi: number;

  private constructor(lo: number, hi: number) {
    this.lo = lo;
    this.hi = hi;
  }

  /** The set with the given halves (interned; see Note [DispatchKeySet representation]). */
  static fromBits(lo: number, hi: number): DispatchKeySet {
    lo |= 0;
    hi |= 0;
    const slot = hashBits(lo, hi);
    const cached = INTERN[slot] as DispatchKeySet;
    if (cached.lo === lo && cached.hi === hi) return cached;
    const ks = new DispatchKeySet(lo, hi);
    INTERN[slot] = ks;
    return ks;
  }

  /** The set of one key: the four cases of PyTorch's `DispatchKeySet(DispatchKey)` constructor. */
  static fromKey(k: DispatchKey): DispatchKeySet {
    const ks = KEY_SETS[k];
    if (ks === undefined) throw new RangeError(`DispatchKeySet.fromKey: ${k} is not a DispatchKey value (0..155)`);
    return ks;
  }

  /** The union of the sets of several keys. */
  static of(...keys: DispatchKey[]): DispatchKeySet {
    let lo = 0;
    let hi = 0;
    for (const k of keys) {
      const ks = DispatchKeySet.fromKey(k);
      lo |= ks.lo;
      hi |= ks.hi;
    }
    return DispatchKeySet.fromBits(lo, hi);
  }

  /** `DispatchKeySet(BackendComponent)`: just that backend bit. */
  static fromBackend(b: BackendComponent): DispatchKeySet {
    if (b === BackendComponent.InvalidBit) return DispatchKeySet.EMPTY;
    if (!(b >= 1 && b <= NUM_BACKENDS)) throw new RangeError(`DispatchKeySet.fromBackend: invalid BackendComponent ${b}`);
    return DispatchKeySet.fromBits(1 << (b - 1), 0);
  }

  /** `DispatchKeySet::from_raw_repr`: the set whose uint64 representation is `raw`. */
  static fromRaw(raw: bigint): DispatchKeySet {
    if (raw < 0n || raw >= 1n << 64n) throw new RangeError(`DispatchKeySet.fromRaw: ${raw} is not a uint64`);
    return DispatchKeySet.fromBits(Number(raw & 0xffffffffn), Number(raw >> 32n));
  }

  /** `FULL_AFTER(t)`: every key of lower priority than t's functionality, plus PythonDispatcher. */
  static fullAfter(k: DispatchKey): DispatchKeySet {
    const ks = FULL_AFTER[toFunctionalityKey(k)];
    if (ks === undefined) throw new RangeError(`DispatchKeySet.fullAfter: ${k} is not a DispatchKey value`);
    return ks;
  }

  static readonly EMPTY: DispatchKeySet = new DispatchKeySet(0, 0);
  /** `DispatchKeySet(FULL)`: every backend and functionality bit, 2^62 − 1. */
  static readonly FULL: DispatchKeySet = new DispatchKeySet(-1, (1 << 30) - 1);

  /** The uint64 representation (`raw_repr()`), as a BigInt. Not for hot paths. */
  get raw(): bigint {
    return (BigInt(this.hi >>> 0) << 32n) | BigInt(this.lo >>> 0);
  }

  isEmpty(): boolean {
    return (this.lo | this.hi) === 0;
  }

  equals(other: DispatchKeySet): boolean {
    return this.lo === other.lo && this.hi === other.hi;
  }

  /** Bitwise union (`|`). */
  or(other: DispatchKeySet): DispatchKeySet {
    return DispatchKeySet.fromBits(this.lo | other.lo, this.hi | other.hi);
  }

  /** Bitwise intersection (`&`). */
  and(other: DispatchKeySet): DispatchKeySet {
    return DispatchKeySet.fromBits(this.lo & other.lo, this.hi & other.hi);
  }

  /** Bitwise symmetric difference (`^`). */
  xor(other: DispatchKeySet): DispatchKeySet {
    return DispatchKeySet.fromBits(this.lo ^ other.lo, this.hi ^ other.hi);
  }

  /** PyTorch's `a - b`: removes b's functionality bits only; backend bits always survive. */
  minus(other: DispatchKeySet): DispatchKeySet {
    return DispatchKeySet.fromBits(this.lo & (BACKEND_MASK | ~other.lo), this.hi & ~other.hi);
  }

  /** `add(k)`: the union with `DispatchKeySet(k)`. */
  add(k: DispatchKey): DispatchKeySet {
    return this.or(DispatchKeySet.fromKey(k));
  }

  /** `remove(k)`: clears k's functionality bit (never backend bits), as PyTorch does. */
  remove(k: DispatchKey): DispatchKeySet {
    return this.minus(DispatchKeySet.fromKey(k));
  }

  /** `remove_backend(b)`: clears one backend bit. */
  removeBackend(b: BackendComponent): DispatchKeySet {
    const bs = DispatchKeySet.fromBackend(b);
    return DispatchKeySet.fromBits(this.lo & ~bs.lo, this.hi);
  }

  /** `has(k)`: every bit of `DispatchKeySet(k)` is set. k must not be Undefined (PyTorch asserts). */
  has(k: DispatchKey): boolean {
    if (k === DispatchKey.Undefined) throw new Error('DispatchKeySet.has: Undefined is never a member of a set');
    return this.hasAll(DispatchKeySet.fromKey(k));
  }

  /** `has_all(ks)`: this is a superset of ks. */
  hasAll(ks: DispatchKeySet): boolean {
    return (this.lo & ks.lo) === ks.lo && (this.hi & ks.hi) === ks.hi;
  }

  /** `has_any(ks)`: the sets share a bit. */
  hasAny(ks: DispatchKeySet): boolean {
    return ((this.lo & ks.lo) | (this.hi & ks.hi)) !== 0;
  }

  /** `has_backend(b)`: the backend bit of b is set. */
  hasBackend(b: BackendComponent): boolean {
    if (b === BackendComponent.InvalidBit) return false;
    return (this.lo & (1 << (b - 1))) !== 0;
  }

  isSupersetOf(ks: DispatchKeySet): boolean {
    return this.hasAll(ks);
  }

  /** `indexOfHighestBit()`: 64 − clz(repr), 0 for the empty set. */
  indexOfHighestBit(): number {
    return this.hi !== 0 ? 64 - Math.clz32(this.hi) : 32 - Math.clz32(this.lo);
  }

  /** The highest-priority functionality key in the set, Undefined when it has none. */
  highestFunctionalityKey(): DispatchKey {
    const i = this.indexOfHighestBit();
    return i < NUM_BACKENDS ? DispatchKey.Undefined : ((i - NUM_BACKENDS) as DispatchKey);
  }

  /** The highest backend bit, InvalidBit when there is none. */
  highestBackendKey(): BackendComponent {
    return (32 - Math.clz32(this.lo & BACKEND_MASK)) as BackendComponent;
  }

  /** `getBackendIndex()`: index of the highest backend bit, 0 for CPU and for no backend at all. */
  getBackendIndex(): number {
    return 32 - Math.clz32((this.lo & BACKEND_MASK) >>> 1);
  }

  /**
   * The key a call with this set dispatches to first. For a per-backend functionality this is the runtime
   * key of the highest backend, e.g. `AutogradCPU`; with no backend bit it is the `StartOf…` value
   * (printed `AutogradUndefined`), as in PyTorch.
   */
  highestPriorityTypeId(): DispatchKey {
    const f = this.highestFunctionalityKey();
    return isPerBackendFunctionalityKey(f) ? toRuntimePerBackendFunctionalityKey(f, this.highestBackendKey()) : f;
  }

  /** The slot of this set in every operator's dispatch table (0..136). See Note [Functionality offsets and masks]. */
  getDispatchTableIndexForDispatchKeySet(): number {
    return dispatchTableIndexOf(this.lo, this.hi);
  }

  /** The keys of the set, lowest priority first, exactly as PyTorch's iterator yields them. */
  *[Symbol.iterator](): Iterator<DispatchKey> {
    for (let f = 1; f < NUM_FUNCTIONALITY_KEYS; f++) {
      const bit = NUM_BACKENDS + f - 1;
      const set = bit < 32 ? (this.lo >>> bit) & 1 : (this.hi >>> (bit - 32)) & 1;
      if (set === 0) continue;
      if (isPerBackendFunctionalityKey(f)) {
        for (let b = 1; b <= NUM_BACKENDS; b++) {
          if ((this.lo & (1 << (b - 1))) !== 0) yield toRuntimePerBackendFunctionalityKey(f, b);
        }
      } else {
        yield f;
      }
    }
  }

  /** `toString(DispatchKeySet)`: `DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU, AutocastCPU)`. */
  toString(): string {
    const names: string[] = [];
    for (const k of this) names.push(dispatchKeyToString(k));
    return `DispatchKeySet(${names.join(', ')})`;
  }
}

const INTERN: DispatchKeySet[] = new Array<DispatchKeySet>(1 << CACHE_BITS).fill(DispatchKeySet.EMPTY);

// One set per DispatchKey value: the four cases of the DispatchKeySet(DispatchKey) constructor.
const KEY_SETS: DispatchKeySet[] = [];
for (let k = 0; k < NUM_DISPATCH_KEYS; k++) {
  if (k === DispatchKey.Undefined || isAliasDispatchKey(k)) {
    KEY_SETS[k] = DispatchKeySet.EMPTY; // cases 1 and 4: Undefined and aliases are never in a set
  } else {
    const bits = bitOfFunctionality(toFunctionalityKey(k));
    const b = toBackendComponent(k);
    const backendLo = b === BackendComponent.InvalidBit ? 0 : 1 << (b - 1);
    KEY_SETS[k] = DispatchKeySet.fromBits(bits.lo | backendLo, bits.hi);
  }
}

const FULL_AFTER: DispatchKeySet[] = [];
{
  const pythonDispatcher = bitOfFunctionality(DispatchKey.PythonDispatcher);
  for (let f = 0; f < NUM_FUNCTIONALITY_KEYS; f++) {
    // (1 << (num_backends + f - 1)) - 1: every bit below f's functionality bit.
    const bit = NUM_BACKENDS + f - 1;
    const lo = bit >= 32 ? -1 : bit === 31 ? 0x7fffffff : (1 << bit) - 1;
    const hi = bit > 32 ? (1 << (bit - 32)) - 1 : 0;
    FULL_AFTER[f] = DispatchKeySet.fromBits(lo | pythonDispatcher.lo, hi | pythonDispatcher.hi);
  }
}

function setOf(...keys: DispatchKey[]): DispatchKeySet {
  return DispatchKeySet.of(...keys);
}
const ALL_BACKENDS = DispatchKeySet.fromBits(BACKEND_MASK, 0);

// The named sets of DispatchKeySet.h (PyTorch's snake_case names in the docs).

/** `autograd_dispatch_keyset`: AutogradFunctionality, AutogradOther, AutogradNestedTensor — no backend bits. */
export const autogradDispatchKeyset = setOf(DispatchKey.AutogradFunctionality, DispatchKey.AutogradOther, DispatchKey.AutogradNestedTensor);
/** `autocast_dispatch_keyset`: the ten Autocast keys. */
export const autocastDispatchKeyset = setOf(
  DispatchKey.AutocastCPU,
  DispatchKey.AutocastMPS,
  DispatchKey.AutocastCUDA,
  DispatchKey.AutocastXPU,
  DispatchKey.AutocastIPU,
  DispatchKey.AutocastHPU,
  DispatchKey.AutocastXLA,
  DispatchKey.AutocastPrivateUse1,
  DispatchKey.AutocastMTIA,
  DispatchKey.AutocastMAIA,
);
/** `default_included_set`: what TLS includes when nothing was set. */
export const defaultIncludedSet = setOf(DispatchKey.BackendSelect, DispatchKey.ADInplaceOrView);
/** `default_excluded_set`: what TLS excludes when nothing was set (the Autocast keys). */
export const defaultExcludedSet = autocastDispatchKeyset;
/** `autograd_dispatch_keyset_with_ADInplaceOrView`. */
export const autogradDispatchKeysetWithADInplaceOrView = autogradDispatchKeyset.add(DispatchKey.ADInplaceOrView);
/** `python_ks`: Python and PythonTLSSnapshot. */
export const pythonKs = setOf(DispatchKey.Python, DispatchKey.PythonTLSSnapshot);
/** `after_autograd_keyset = FULL_AFTER(AutogradOther)`: what autograd kernels redispatch to. */
export const afterAutogradKeyset = DispatchKeySet.fullAfter(DispatchKey.AutogradOther);
/** `after_ADInplaceOrView_keyset = FULL_AFTER(ADInplaceOrView)`. */
export const afterADInplaceOrViewKeyset = DispatchKeySet.fullAfter(DispatchKey.ADInplaceOrView);
/** `after_func_keyset = FULL_AFTER(Functionalize) - ADInplaceOrView`. */
export const afterFuncKeyset = DispatchKeySet.fullAfter(DispatchKey.Functionalize).remove(DispatchKey.ADInplaceOrView);
/** `autogradother_backends`: the functionalities whose autograd key is AutogradOther, times every backend. */
export const autogradotherBackends = setOf(
  DispatchKey.FPGA,
  DispatchKey.Vulkan,
  DispatchKey.Metal,
  DispatchKey.CustomRNGKeyId,
  DispatchKey.MkldnnCPU,
  DispatchKey.Sparse,
  DispatchKey.SparseCsr,
  DispatchKey.Quantized,
).or(ALL_BACKENDS);
/** `backend_dispatch_keyset`: the runtime keys of CompositeExplicitAutograd (no NestedTensor). */
export const backendDispatchKeyset = autogradotherBackends.add(DispatchKey.Dense);
/** `non_functional_backend_dispatch_keyset`: CompositeExplicitAutogradNonFunctional's keys. */
export const nonFunctionalBackendDispatchKeyset = backendDispatchKeyset
  .remove(DispatchKey.Sparse)
  .removeBackend(BackendComponent.XLABit)
  .removeBackend(BackendComponent.LazyBit);
/** `math_dispatch_keyset`: CompositeImplicitAutograd's keys (backends, NestedTensor, autograd). */
export const mathDispatchKeyset = backendDispatchKeyset.or(autogradDispatchKeyset).add(DispatchKey.NestedTensor).or(ALL_BACKENDS);
/** `nested_dispatch_keyset`: CompositeImplicitAutogradNestedTensor's keys. */
export const nestedDispatchKeyset = setOf(DispatchKey.AutogradNestedTensor, DispatchKey.NestedTensor).or(ALL_BACKENDS);
/** `functorch_batched_ks`. */
export const functorchBatchedKs = setOf(DispatchKey.FuncTorchBatched);
/** `backend_functionality_keys`: Dense, Quantized, Sparse, SparseCsr, times every backend. */
export const backendFunctionalityKeys = setOf(DispatchKey.Dense, DispatchKey.Quantized, DispatchKey.Sparse, DispatchKey.SparseCsr).or(
  ALL_BACKENDS,
);

/** The runtime table slot of a single key: `getDispatchTableIndexForDispatchKey`. Aliases map to 0. */
export function getDispatchTableIndexForDispatchKey(k: DispatchKey): number {
  return DispatchKeySet.fromKey(k).getDispatchTableIndexForDispatchKeySet();
}

/** `getRuntimeDispatchKeySet(t)`: the runtime keys an alias key stands for; `{t}` for a runtime key. */
export function getRuntimeDispatchKeySet(t: DispatchKey): DispatchKeySet {
  switch (t) {
    case DispatchKey.Autograd:
      return autogradDispatchKeyset.or(ALL_BACKENDS);
    case DispatchKey.CompositeImplicitAutograd:
      return mathDispatchKeyset;
    case DispatchKey.CompositeImplicitAutogradNestedTensor:
      return nestedDispatchKeyset;
    case DispatchKey.CompositeExplicitAutograd:
      return backendDispatchKeyset;
    case DispatchKey.CompositeExplicitAutogradNonFunctional:
      return nonFunctionalBackendDispatchKeyset;
    case DispatchKey.FuncTorchBatchedDecomposition:
      return functorchBatchedKs;
    default:
      return DispatchKeySet.fromKey(t);
  }
}

/** `runtimeDispatchKeySetHas(t, k)`: does alias t (or runtime key t) cover runtime key k? */
export function runtimeDispatchKeySetHas(t: DispatchKey, k: DispatchKey): boolean {
  if (t === DispatchKey.Undefined) throw new Error('runtimeDispatchKeySetHas: the alias must not be Undefined');
  switch (t) {
    case DispatchKey.Autograd:
      return autogradDispatchKeyset.hasAll(DispatchKeySet.fromKey(toFunctionalityKey(k)));
    case DispatchKey.CompositeImplicitAutograd:
      return mathDispatchKeyset.hasAll(DispatchKeySet.fromKey(k));
    case DispatchKey.CompositeImplicitAutogradNestedTensor:
      return nestedDispatchKeyset.hasAll(DispatchKeySet.fromKey(k));
    case DispatchKey.CompositeExplicitAutograd:
      return backendDispatchKeyset.hasAll(DispatchKeySet.fromKey(k));
    case DispatchKey.CompositeExplicitAutogradNonFunctional:
      return nonFunctionalBackendDispatchKeyset.hasAll(DispatchKeySet.fromKey(k));
    case DispatchKey.FuncTorchBatchedDecomposition:
      return functorchBatchedKs.hasAll(DispatchKeySet.fromKey(k));
    default:
      return t === k;
  }
}

/** `isIncludedInAlias(k, alias)`: false for Undefined, else `runtimeDispatchKeySetHas(alias, k)`. */
export function isIncludedInAlias(k: DispatchKey, alias: DispatchKey): boolean {
  return k !== DispatchKey.Undefined && runtimeDispatchKeySetHas(alias, k);
}

/** `isBackendDispatchKey(k)`: a backend key that CompositeExplicitAutograd covers. */
export function isBackendDispatchKey(k: DispatchKey): boolean {
  return (
    k !== DispatchKey.Undefined &&
    !isAliasDispatchKey(k) &&
    k !== DispatchKey.NestedTensor &&
    backendDispatchKeyset.hasAll(DispatchKeySet.fromKey(k))
  );
}

/** `getBackendKeySetFromAutograd(k)`: the backend keys an autograd key covers (∅ for non-autograd keys). */
export function getBackendKeySetFromAutograd(k: DispatchKey): DispatchKeySet {
  switch (k) {
    case DispatchKey.AutogradCPU:
      return DispatchKeySet.fromKey(DispatchKey.CPU);
    case DispatchKey.AutogradCUDA:
      return DispatchKeySet.fromKey(DispatchKey.CUDA);
    case DispatchKey.AutogradXLA:
      return DispatchKeySet.fromKey(DispatchKey.XLA);
    case DispatchKey.AutogradLazy:
      return DispatchKeySet.fromKey(DispatchKey.Lazy);
    case DispatchKey.AutogradMeta:
      return DispatchKeySet.fromKey(DispatchKey.Meta);
    case DispatchKey.AutogradMPS:
      return DispatchKeySet.fromKey(DispatchKey.MPS);
    case DispatchKey.AutogradHPU:
      return DispatchKeySet.fromKey(DispatchKey.HPU);
    case DispatchKey.AutogradIPU:
      return DispatchKeySet.fromKey(DispatchKey.IPU);
    case DispatchKey.AutogradXPU:
      return DispatchKeySet.fromKey(DispatchKey.XPU);
    case DispatchKey.AutogradMAIA:
      return DispatchKeySet.fromKey(DispatchKey.MAIA);
    case DispatchKey.AutogradPrivateUse1:
      return DispatchKeySet.fromKey(DispatchKey.PrivateUse1);
    case DispatchKey.AutogradPrivateUse2:
      return DispatchKeySet.fromKey(DispatchKey.PrivateUse2);
    case DispatchKey.AutogradPrivateUse3:
      return DispatchKeySet.fromKey(DispatchKey.PrivateUse3);
    case DispatchKey.AutogradNestedTensor:
      return DispatchKeySet.fromKey(DispatchKey.NestedTensor).or(ALL_BACKENDS);
    case DispatchKey.AutogradOther:
      return autogradotherBackends;
    default:
      return DispatchKeySet.EMPTY;
  }
}

const AUTOGRAD_KEY_OF_BACKEND: ReadonlyMap<BackendComponent, DispatchKey> = new Map([
  [BackendComponent.CPUBit, DispatchKey.AutogradCPU],
  [BackendComponent.CUDABit, DispatchKey.AutogradCUDA],
  [BackendComponent.XPUBit, DispatchKey.AutogradXPU],
  [BackendComponent.IPUBit, DispatchKey.AutogradIPU],
  [BackendComponent.XLABit, DispatchKey.AutogradXLA],
  [BackendComponent.HPUBit, DispatchKey.AutogradHPU],
  [BackendComponent.LazyBit, DispatchKey.AutogradLazy],
  [BackendComponent.MetaBit, DispatchKey.AutogradMeta],
  [BackendComponent.MPSBit, DispatchKey.AutogradMPS],
  [BackendComponent.MTIABit, DispatchKey.AutogradMTIA],
  [BackendComponent.MAIABit, DispatchKey.AutogradMAIA],
  [BackendComponent.PrivateUse1Bit, DispatchKey.AutogradPrivateUse1],
  [BackendComponent.PrivateUse2Bit, DispatchKey.AutogradPrivateUse2],
  [BackendComponent.PrivateUse3Bit, DispatchKey.AutogradPrivateUse3],
]);

/** The autograd key of a backend; AutogradOther for backends without one (HIP, VE, InvalidBit). */
export function getAutogradKeyFromBackend(b: BackendComponent): DispatchKey {
  return AUTOGRAD_KEY_OF_BACKEND.get(b) ?? DispatchKey.AutogradOther;
}

/** `getAutogradRelatedKeySetFromBackend(b)`: ADInplaceOrView plus the backend's autograd key. */
export function getAutogradRelatedKeySetFromBackend(b: BackendComponent): DispatchKeySet {
  return setOf(DispatchKey.ADInplaceOrView, getAutogradKeyFromBackend(b));
}

const AUTOCAST_KEY_OF_BACKEND: ReadonlyMap<BackendComponent, DispatchKey> = new Map([
  [BackendComponent.CPUBit, DispatchKey.AutocastCPU],
  [BackendComponent.CUDABit, DispatchKey.AutocastCUDA],
  [BackendComponent.XPUBit, DispatchKey.AutocastXPU],
  [BackendComponent.IPUBit, DispatchKey.AutocastIPU],
  [BackendComponent.HPUBit, DispatchKey.AutocastHPU],
  [BackendComponent.XLABit, DispatchKey.AutocastXLA],
  [BackendComponent.PrivateUse1Bit, DispatchKey.AutocastPrivateUse1],
  [BackendComponent.MPSBit, DispatchKey.AutocastMPS],
  [BackendComponent.MTIABit, DispatchKey.AutocastMTIA],
  [BackendComponent.MAIABit, DispatchKey.AutocastMAIA],
]);

/** `getAutocastRelatedKeySetFromBackend(b)`: the backend's Autocast key, or ∅. */
export function getAutocastRelatedKeySetFromBackend(b: BackendComponent): DispatchKeySet {
  const k = AUTOCAST_KEY_OF_BACKEND.get(b);
  return k === undefined ? DispatchKeySet.EMPTY : DispatchKeySet.fromKey(k);
}

/** `highestPriorityBackendTypeId(ks)`: the highest key among the backend functionalities. */
export function highestPriorityBackendTypeId(ks: DispatchKeySet): DispatchKey {
  return ks.and(backendFunctionalityKeys).highestPriorityTypeId();
}
