// Alias annotations: `(a)`, `(a!)`, `(a -> *)`, `(a|b)`, `(*)`, nested for container elements.
//
// PyTorch keeps alias sets in `std::unordered_set<Symbol>` and prints them in iteration order,
// so `Tensor(a|b)` prints as `Tensor(b|a)`. That order is a function of each name's interned
// symbol id and of libstdc++'s hash-table algorithm. We reproduce both: AliasSymbolTable hands
// out the ids PyTorch 2.13 gives (the names it interned at import, then fresh ids in order of
// first use, like the real process-wide table) and AliasSetOrder replays libstdc++'s insertion
// and rehash rules. AliasInfo stores its sets already in that order.

/** Symbol ids of the alias names `import torch` (2.13.0+cpu) has interned, and the next free id. */
export const TORCH_ALIAS_SYMBOL_IDS: Readonly<Record<string, number>> = {
  '*': 2627,
  a: 2628,
  b: 2629,
  c: 2630,
  d: 2631,
  e: 2632,
  f: 2633,
  g: 2634,
  t: 2637,
};
export const TORCH_NEXT_SYMBOL_ID = 3266;

/**
 * Interned ids for alias-set names (c10::Symbol "alias::<name>"). Like PyTorch's global symbol
 * table, ids of names it did not know are handed out in order of first use, so the printing
 * order of sets with such names depends on what was parsed before.
 */
export class AliasSymbolTable {
  private readonly ids = new Map<string, number>();
  private nextId = TORCH_NEXT_SYMBOL_ID;

  constructor() {
    this.reset();
  }

  /** Restores the state of a fresh `import torch`. */
  reset(): void {
    this.ids.clear();
    for (const [name, id] of Object.entries(TORCH_ALIAS_SYMBOL_IDS)) this.ids.set(name, id);
    this.nextId = TORCH_NEXT_SYMBOL_ID;
  }

  idOf(name: string): number {
    let id = this.ids.get(name);
    if (id === undefined) {
      id = this.nextId++;
      this.ids.set(name, id);
    }
    return id;
  }
}

/** The process-wide table used when a parse is not given one. */
export const defaultAliasSymbols = new AliasSymbolTable();

// libstdc++ _Prime_rehash_policy: small sizes use a fast table, then this prime list.
const FAST_BKT = [2, 2, 2, 3, 5, 5, 7, 7, 11, 11, 11, 11, 13, 13];
const PRIMES = [
  2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97, 103, 109, 113, 127, 137, 139, 149, 157,
  167, 179, 193, 199, 211, 227, 241, 257, 277, 293, 313, 337, 359, 383, 409, 439, 467, 503, 541, 577, 619, 661, 709, 761, 823, 887, 953,
  1031, 1087, 1151, 1223, 1301, 1361, 1427, 1499, 1579, 1663, 1741, 1823, 1913, 2011, 2113, 2203, 2309, 2411, 2521, 2647, 2767, 2897, 3037,
  3169, 3307, 3467, 3637, 3803, 3989, 4177, 4373,
];

function nextBucketCount(n: number): number {
  if (n < FAST_BKT.length) return n === 0 ? 1 : FAST_BKT[n]!;
  for (let i = 6; i < PRIMES.length; i++) if (PRIMES[i]! >= n) return PRIMES[i]!;
  // beyond the table: next prime (sets this large do not occur in schemas)
  for (let p = n; ; p++) {
    let prime = p > 1;
    for (let d = 2; d * d <= p; d++) if (p % d === 0) prime = false;
    if (prime) return p;
  }
}

/** Largest alias set we order (the emulation is quadratic; real schemas use one or two names). */
export const MAX_ALIAS_SET = 2048;

/**
 * Replays the iteration order of a libstdc++ `std::unordered_set<uint32_t>` (identity hash,
 * max load factor 1) under a sequence of insertions.
 */
export class AliasSetOrder {
  /** Node ids in list order. */
  private list: number[] = [];
  private names: string[] = [];
  private bucketCount = 1;
  private nextResize = 0;

  constructor(private readonly symbols: AliasSymbolTable) {}

  has(name: string): boolean {
    return this.names.includes(name);
  }

  insert(name: string): void {
    if (this.names.includes(name)) return;
    if (this.names.length >= MAX_ALIAS_SET) throw new RangeError(`alias set with more than ${MAX_ALIAS_SET} names`);
    const id = this.symbols.idOf(name);
    const nElt = this.list.length;
    // _M_need_rehash(bucket_count, n_elt, 1)
    if (nElt + 1 > this.nextResize) {
      const minBkts = Math.max(nElt + 1, this.nextResize ? 0 : 11);
      if (minBkts >= this.bucketCount) {
        const n = nextBucketCount(Math.max(Math.floor(minBkts) + 1, this.bucketCount * 2));
        this.nextResize = n;
        this.rehash(n);
      } else {
        this.nextResize = this.bucketCount;
      }
    }
    this.insertNode(id, name);
  }

  /** Names in iteration (= printing) order. */
  ordered(): string[] {
    return this.list.map((id) => this.names[this.idsIndex(id)]!);
  }

  private ids: number[] = [];
  private idsIndex(id: number): number {
    return this.ids.indexOf(id);
  }

  /** Index in `list` of the first node of bucket b, or -1. */
  private firstInBucket(b: number): number {
    for (let i = 0; i < this.list.length; i++) if (this.list[i]! % this.bucketCount === b) return i;
    return -1;
  }

  private insertNode(id: number, name: string): void {
    this.ids.push(id);
    this.names.push(name);
    const b = id % this.bucketCount;
    const first = this.firstInBucket(b);
    // a non-empty bucket: insert before its first node (after the bucket's "before" node);
    // an empty bucket: insert at the front of the whole list
    if (first >= 0) this.list.splice(first, 0, id);
    else this.list.unshift(id);
  }

  private rehash(n: number): void {
    // _M_rehash_aux(n, true_type): walk the old list, each node goes to the front if its new
    // bucket is empty, else right after that bucket's "before" node.
    const old = this.list;
    this.bucketCount = n;
    const out: number[] = [];
    for (const id of old) {
      const b = id % n;
      let first = -1;
      for (let i = 0; i < out.length; i++) {
        if (out[i]! % n === b) {
          first = i;
          break;
        }
      }
      if (first >= 0) out.splice(first, 0, id);
      else out.unshift(id);
    }
    this.list = out;
  }
}

export class AliasInfo {
  /** Alias sets before the call, in PyTorch's printing order. `*` is the wildcard set. */
  readonly beforeSets: readonly string[];
  /** Alias sets after the call, in PyTorch's printing order. */
  readonly afterSets: readonly string[];
  readonly isWrite: boolean;
  /** Alias info of contained types (list elements, tuple members). */
  readonly containedTypes: readonly AliasInfo[];

  constructor(init: {
    beforeSets?: readonly string[];
    afterSets?: readonly string[];
    isWrite?: boolean;
    containedTypes?: readonly AliasInfo[];
  }) {
    this.beforeSets = Object.freeze([...(init.beforeSets ?? [])]);
    this.afterSets = Object.freeze([...(init.afterSets ?? [])]);
    this.isWrite = init.isWrite ?? false;
    this.containedTypes = Object.freeze([...(init.containedTypes ?? [])]);
    Object.freeze(this);
  }

  /** Builds sets from names in source order, ordering them as PyTorch would. */
  static fromSource(
    before: readonly string[],
    after: readonly string[] | undefined,
    isWrite: boolean,
    symbols: AliasSymbolTable = defaultAliasSymbols,
    containedTypes: readonly AliasInfo[] = [],
  ): AliasInfo {
    const b = new AliasSetOrder(symbols);
    for (const name of before) b.insert(name);
    const beforeOrdered = b.ordered();
    const a = new AliasSetOrder(symbols);
    // without `->` the after set is filled by iterating the before set
    for (const name of after ?? beforeOrdered) a.insert(name);
    return new AliasInfo({ beforeSets: beforeOrdered, afterSets: a.ordered(), isWrite, containedTypes });
  }

  /** Same alias info with one more contained type (AliasInfo::addContainedType). */
  withContained(inner: AliasInfo): AliasInfo {
    return new AliasInfo({ ...this, containedTypes: [...this.containedTypes, inner] });
  }

  get isWildcardBefore(): boolean {
    return this.beforeSets.includes('*');
  }
  get isWildcardAfter(): boolean {
    return this.afterSets.includes('*');
  }

  /** Set equality of before and after sets, write flag and contained infos (c10 operator==). */
  equals(other: AliasInfo): boolean {
    return (
      this.isWrite === other.isWrite &&
      sameSet(this.beforeSets, other.beforeSets) &&
      sameSet(this.afterSets, other.afterSets) &&
      this.containedTypes.length === other.containedTypes.length &&
      this.containedTypes.every((c, i) => c.equals(other.containedTypes[i]!))
    );
  }

  /** `(a|b!)`-style text as PyTorch prints it (`(a! -> b|a)` when after differs from before). */
  toString(): string {
    let s = '(' + this.beforeSets.join('|');
    if (this.isWrite) s += '!';
    if (!sameSet(this.beforeSets, this.afterSets)) s += ' -> ' + this.afterSets.join('|');
    return s + ')';
  }
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}
