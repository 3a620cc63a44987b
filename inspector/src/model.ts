// The inspector's data, without DOM: computed dispatch tables as a grid of runtime keys, key sets bit by
// bit with the table index computed step by step, and table snapshots for the Diff panel. Every value is
// read from the live dispatcher (src/dispatch) and the key-set arithmetic of src/c10/DispatchKeySet.ts; the
// panels only draw it.

import {
  BACKEND_NAMES,
  DispatchKey,
  NUM_BACKENDS,
  NUM_FUNCTIONALITY_KEYS,
  dispatchKeyToString,
  isPerBackendFunctionalityKey,
  toRuntimePerBackendFunctionalityKey,
} from '../../src/c10/DispatchKey.js';
import {
  BACKEND_MASK,
  DispatchKeySet,
  functionalityOffsetAndMask,
  getDispatchTableIndexForDispatchKey,
} from '../../src/c10/DispatchKeySet.js';
import { Dispatcher } from '../../src/dispatch/Dispatcher.js';
import type { ComputedEntry } from '../../src/dispatch/OperatorEntry.js';

/** Where a slot's kernel comes from: the colour of its cell. */
export type SlotSource = 'kernel' | 'alias' | 'fallback' | 'fallthrough' | 'missing';

export const SOURCES: readonly { source: SlotSource; label: string; mark: string }[] = [
  { source: 'kernel', label: 'kernel registered at the key', mark: 'K' },
  { source: 'alias', label: 'alias kernel (CompositeImplicitAutograd, CompositeExplicitAutograd, Autograd…)', mark: 'A' },
  { source: 'fallback', label: 'backend fallback', mark: 'F' },
  { source: 'fallthrough', label: 'fallthrough', mark: 'T' },
  { source: 'missing', label: 'missing', mark: '·' },
];

/** One slot of an operator's dispatch table. */
export interface Slot {
  readonly key: DispatchKey;
  readonly name: string;
  readonly index: number;
  readonly source: SlotSource;
  /** The line `dumpComputedTable` prints for the slot (without the key), '' when missing. */
  readonly debug: string;
  /** The tag of the computed entry (`kernel`, `math kernel`, `backend fallback`, …), '' when missing. */
  readonly tag: string;
}

function sourceOf(entry: ComputedEntry | null): SlotSource {
  if (entry === null) return 'missing';
  if (entry.kernel.kernel.isFallthrough) return 'fallthrough';
  if (entry.tag === 'kernel') return 'kernel';
  if (entry.tag === 'backend fallback') return 'fallback';
  return 'alias';
}

/** The functionality keys with one slot per backend (rows of the grid), in enum order. */
export const PER_BACKEND_FUNCTIONALITIES: readonly DispatchKey[] = Array.from({ length: NUM_FUNCTIONALITY_KEYS }, (_, f) => f).filter((f) =>
  isPerBackendFunctionalityKey(f),
);
/** The functionality keys with a single slot (Undefined included: slot 0), in enum order. */
export const SINGLE_FUNCTIONALITIES: readonly DispatchKey[] = Array.from({ length: NUM_FUNCTIONALITY_KEYS }, (_, f) => f).filter(
  (f) => !isPerBackendFunctionalityKey(f),
);
/** Backend names in bit order (CPU = bit 0 … Meta = bit 15). */
export const BACKENDS: readonly string[] = BACKEND_NAMES.slice(0, NUM_BACKENDS);

/** Every slot of an operator's live dispatch table, by table index; null for an unknown operator. */
export function tableSlots(opName: string, dispatcher = Dispatcher.singleton()): Slot[] | null {
  const handle = dispatcher.findOp(opName);
  if (handle === null) return null;
  const slots: Slot[] = [];
  const add = (key: DispatchKey): void => {
    const index = getDispatchTableIndexForDispatchKey(key);
    const entry = handle.entry.computed[index] ?? null;
    const debug = entry === null ? '' : `${entry.kernel.kernel.isFallthrough ? 'fallthrough ' : ''}${entry.kernel.debug} [${entry.tag}]`;
    slots[index] = { key, name: dispatchKeyToString(key), index, source: sourceOf(entry), debug, tag: entry?.tag ?? '' };
  };
  for (const f of SINGLE_FUNCTIONALITIES) add(f);
  for (const f of PER_BACKEND_FUNCTIONALITIES) for (let b = 1; b <= NUM_BACKENDS; b++) add(toRuntimePerBackendFunctionalityKey(f, b));
  return slots;
}

/** An all-missing table (an operator that is not registered). */
export function emptySlots(): Slot[] {
  const slots: Slot[] = [];
  const add = (key: DispatchKey): void => {
    const index = getDispatchTableIndexForDispatchKey(key);
    slots[index] = { key, name: dispatchKeyToString(key), index, source: 'missing', debug: '', tag: '' };
  };
  for (const f of SINGLE_FUNCTIONALITIES) add(f);
  for (const f of PER_BACKEND_FUNCTIONALITIES) for (let b = 1; b <= NUM_BACKENDS; b++) add(toRuntimePerBackendFunctionalityKey(f, b));
  return slots;
}

/** The slots whose source or debug string differ between two snapshots of one operator's table. */
export function diffSlots(before: readonly Slot[], after: readonly Slot[]): { before: Slot; after: Slot }[] {
  const changed: { before: Slot; after: Slot }[] = [];
  for (let i = 0; i < after.length; i++) {
    const a = before[i];
    const b = after[i];
    if (a === undefined || b === undefined) continue;
    if (a.source !== b.source || a.debug !== b.debug) changed.push({ before: a, after: b });
  }
  return changed;
}

/** What one bit of the 64-bit key set means. */
export interface BitInfo {
  readonly bit: number;
  readonly kind: 'backend' | 'functionality' | 'unused';
  readonly name: string;
  readonly set: boolean;
}

/** The 64 bits of a key set, bit 0 first: 16 backend bits, 46 functionality bits, 2 unused. */
export function keySetBits(ks: DispatchKeySet): BitInfo[] {
  const bits: BitInfo[] = [];
  for (let bit = 0; bit < 64; bit++) {
    const set = bit < 32 ? ((ks.lo >>> bit) & 1) === 1 : ((ks.hi >>> (bit - 32)) & 1) === 1;
    if (bit < NUM_BACKENDS) bits.push({ bit, kind: 'backend', name: BACKENDS[bit] as string, set });
    else if (bit < NUM_BACKENDS + NUM_FUNCTIONALITY_KEYS - 1) {
      bits.push({ bit, kind: 'functionality', name: dispatchKeyToString(bit - NUM_BACKENDS + 1), set });
    } else bits.push({ bit, kind: 'unused', name: '(unused)', set });
  }
  return bits;
}

/** The dispatch-table index of a key set, step by step as `getDispatchTableIndexForDispatchKeySet` computes it. */
export interface IndexSteps {
  /** The raw uint64, hex. */
  readonly rawHex: string;
  /** The highest set bit (0-based), -1 for the empty set. */
  readonly highestBit: number;
  readonly functionality: DispatchKey;
  readonly functionalityName: string;
  readonly perBackend: boolean;
  readonly offset: number;
  readonly mask: number;
  /** The backend bits under the functionality's mask. */
  readonly maskedBackendBits: number;
  /** The index of the highest backend bit under the mask (CPU → 0), 0 when the mask is 0. */
  readonly backendIndex: number;
  readonly backendName: string;
  readonly index: number;
  /** `highestPriorityTypeId()`. */
  readonly key: DispatchKey;
  readonly keyName: string;
  /** The library's own index for the set, for the cross-check shown on the page. */
  readonly libraryIndex: number;
}

export function indexSteps(ks: DispatchKeySet): IndexSteps {
  const highestBit = ks.indexOfHighestBit() - 1;
  const functionality = ks.highestFunctionalityKey();
  const { offset, mask } = functionalityOffsetAndMask(functionality);
  const maskedBackendBits = ks.lo & mask & BACKEND_MASK;
  const backendIndex = maskedBackendBits === 0 ? 0 : 31 - Math.clz32(maskedBackendBits);
  const key = ks.highestPriorityTypeId();
  return {
    rawHex: `0x${ks.raw.toString(16).padStart(16, '0')}`,
    highestBit,
    functionality,
    functionalityName: dispatchKeyToString(functionality),
    perBackend: mask !== 0,
    offset,
    mask,
    maskedBackendBits,
    backendIndex,
    backendName: mask === 0 ? '' : maskedBackendBits === 0 ? '(none: lands on the CPU slot)' : (BACKENDS[backendIndex] as string),
    index: offset + backendIndex,
    key,
    keyName: dispatchKeyToString(key),
    libraryIndex: ks.getDispatchTableIndexForDispatchKeySet(),
  };
}
