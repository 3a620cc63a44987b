// A caching allocator over WebAssembly linear memory: hands out 64-byte-aligned blocks by byte address,
// keeps freed blocks in per-size-class free lists and reuses them before growing the memory. JS owns it;
// kernels only ever see the addresses. Anchors: c10's CPUAllocator (alloc_cpu: 64-byte alignment, null for
// 0 bytes) and PyTorch's caching allocators (c10/mobile/CPUCachingAllocator.cpp: free lists keyed by size;
// CUDACachingAllocator: `roundup_power2_divisions`, allocated/reserved/peak stats, empty_cache).

import { WasmOutOfMemoryError, type WasmMemory } from './memory.js';

/** Alignment of every block, in bytes (c10's gAlignment: a cache line, and AVX-512's vector width). */
export const ALIGNMENT = 64;

// Note [Size classes]
// ~~~~~~~~~~~~~~~~~~~
// A request is rounded up to a size class, and a freed block goes back to its class's free list, so a
// later request of a similar size reuses it exactly (no splitting, no coalescing on the hot path).
// Classes are multiples of 64 up to 256 bytes, then each power-of-two interval (2^k, 2^(k+1)] is cut in 4
// (PyTorch's roundup_power2_divisions = 4): 320, 384, 448, 512, 640, 768, 896, 1024, 1280 ... A block then
// wastes at most 25% (and under 64 bytes below 256), and a loop that allocates the same shapes every
// iteration, the common case, reaches a steady state with no growth and every allocation a cache hit.
// Linear memory never shrinks, so freed blocks are never given back to the engine; when no cached block
// fits and growing would pass the cap, the allocator trims free blocks that sit at the top of the heap
// (emptyCache) and retries, and only then throws WasmOutOfMemoryError, which storage catches to fall back
// to an ordinary ArrayBuffer. A request whose class has no free block first splits a larger cached block
// (Note [Split before carving]).

// Note [Split before carving]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Memory the heap has used before is cheap to write; memory carved fresh from the top is not: the first
// write to each new 4 KiB page costs ~13 µs on the benchmark VM (bench/RESULTS.md, "First writes to fresh
// memory"), 1.3 ms for a 400 KB tensor. Free lists by size class alone kept paying it long after the heap
// held plenty of free memory: after a reclamation had freed 256 MiB of 4 MiB blocks, the MLP step's 448 KiB
// blocks still came from fresh pages (230 page faults a step for its first ~250 steps, most of the step's
// time). So the free blocks form one pool, as in CUDACachingAllocator's block pools:
// - a block freed next to a free block merges with it (both sides), so freed memory does not stay cut into
//   the sizes it was last used at;
// - a request takes a free block of exactly its class if there is one (the most recently freed: warm in
//   cache), else the front of the smallest free block that is larger (best fit), the rest staying free, and
//   only when no free block is large enough does it carve from the top.
// Reservation thus grows only when no free block can hold the request. Free lists are keyed by exact size
// and cleaned lazily: an entry whose block has since merged or been taken is skipped when met (`freeAt` is
// the truth). Addresses never affect results: determinism is unchanged.

// Note [Staging area]
// ~~~~~~~~~~~~~~~~~~~~
// STAGING_BYTES of linear memory from STAGING_BASE, below the first block, belong to no tensor: a kernel call
// whose results are a few numbers (the column sums of Note [Column sums]) writes them there and JS reads them
// back, with no allocation between (an allocation may grow the memory and detach the caller's typed arrays).
// One JS thread calls kernels, and a call's results are read before the next call, so one area suffices.

/** The staging area's address and size (Note [Staging area]). */
export const STAGING_BASE = ALIGNMENT;
export const STAGING_BYTES = 4096;

/** The size class of a request of `nbytes` (> 0): see Note [Size classes]. */
export function sizeClass(nbytes: number): number {
  const s = Math.ceil(nbytes / ALIGNMENT) * ALIGNMENT;
  if (s <= 256) return s;
  // Largest power of two below s; s <= 2^32, so s - 1 fits clz32.
  const p = 2 ** (31 - Math.clz32(s - 1));
  const step = p / 4;
  return Math.ceil(s / step) * step;
}

/** Counters, named after torch.cuda.memory_stats() (allocated_bytes, reserved_bytes, ...). */
export interface AllocatorStats {
  /** Bytes in live blocks (by size class). */
  readonly allocatedBytes: number;
  readonly peakAllocatedBytes: number;
  /** Bytes carved out of linear memory so far: live blocks plus cached free blocks. */
  readonly reservedBytes: number;
  readonly peakReservedBytes: number;
  /** Bytes in cached free blocks (reserved - allocated). */
  readonly cachedBytes: number;
  /** Size of the linear memory. */
  readonly memoryBytes: number;
  /** Number of live blocks. */
  readonly liveBlocks: number;
  readonly allocations: number;
  readonly frees: number;
  /** Allocations served from a free list. */
  readonly cacheHits: number;
  /** Times the linear memory grew. */
  readonly growths: number;
}

/**
 * The caching allocator over one WasmMemory. Not thread-safe: the JS thread that owns the memory
 * allocates; workers only run kernels on the addresses.
 *
 * @example
 * const alloc = new CachingAllocator(new WasmMemory());
 * const p = alloc.allocate(4 * 1000);      // p % 64 === 0
 * alloc.memory.views().f32.fill(1, p >>> 2, (p >>> 2) + 1000);
 * alloc.free(p);
 * alloc.allocate(4 * 1000) === p;          // true: the freed block is reused
 */
export class CachingAllocator {
  /**
   * Address of the first block: [0, 64) is never handed out, so 0 is the null pointer, and the staging area
   * follows it (Note [Staging area]).
   */
  static readonly HEAP_BASE = STAGING_BASE + STAGING_BYTES;

  private top = CachingAllocator.HEAP_BASE;
  /** Free blocks: start → size, and end → start (Note [Split before carving]). */
  private readonly freeAt = new Map<number, number>();
  private readonly freeEndingAt = new Map<number, number>();
  /** Free block starts by exact byte size, LIFO; may hold stale entries (checked against `freeAt`). */
  private readonly freeLists = new Map<number, number[]>();
  /** The sizes whose free list is non-empty, ascending (best-fit lookups). */
  private readonly freeSizes: number[] = [];
  private readonly live = new Map<number, number>();
  private allocated = 0;
  private peakAllocated = 0;
  private peakReserved = 0;
  private allocations = 0;
  private frees = 0;
  private cacheHits = 0;
  private growths = 0;

  constructor(readonly memory: WasmMemory) {}

  /**
   * The address of a new block of at least `nbytes` bytes, 64-byte aligned, contents unspecified (a reused
   * block keeps its old bytes, as with malloc). 0 for 0 bytes. Throws WasmOutOfMemoryError when the memory
   * cannot hold it.
   */
  allocate(nbytes: number): number {
    if (!(Number.isInteger(nbytes) && nbytes >= 0)) {
      throw new RangeError(`CachingAllocator.allocate: nbytes must be a non-negative integer, got ${nbytes}`);
    }
    if (nbytes === 0) return 0;
    const size = sizeClass(nbytes);
    let ptr = this.popFree(size);
    let blockSize = size;
    if (ptr !== undefined) {
      this.cacheHits++;
    } else {
      const block = this.splitCached(size) ?? this.carve(size) ?? this.carveAfterTrim(size, nbytes);
      ptr = block.ptr;
      blockSize = block.size;
    }
    this.live.set(ptr, blockSize);
    this.allocated += blockSize;
    if (this.allocated > this.peakAllocated) this.peakAllocated = this.allocated;
    this.allocations++;
    return ptr;
  }

  /** Returns a block to its free list. free(0) does nothing; an unknown address throws (double free). */
  free(ptr: number): void {
    if (ptr === 0) return;
    const size = this.live.get(ptr);
    if (size === undefined) {
      throw new Error(`CachingAllocator.free: ${ptr} is not a live block of this allocator (double free, or a foreign pointer)`);
    }
    this.live.delete(ptr);
    this.allocated -= size;
    this.frees++;
    this.pushFree(ptr, size);
  }

  /** Makes [ptr, ptr + size) free, merged with free neighbours (Note [Split before carving]). */
  private pushFree(ptr: number, size: number): void {
    let start = ptr;
    let end = ptr + size;
    const left = this.freeEndingAt.get(start);
    if (left !== undefined) {
      this.freeAt.delete(left);
      this.freeEndingAt.delete(start);
      start = left;
    }
    const rightSize = this.freeAt.get(end);
    if (rightSize !== undefined) {
      this.freeAt.delete(end);
      this.freeEndingAt.delete(end + rightSize);
      end += rightSize;
    }
    this.freeAt.set(start, end - start);
    this.freeEndingAt.set(end, start);
    this.listFree(start, end - start);
  }

  private listFree(ptr: number, size: number): void {
    const list = this.freeLists.get(size);
    if (list === undefined) this.freeLists.set(size, [ptr]);
    else {
      list.push(ptr);
      // Lazy cleaning leaves entries of blocks since merged or taken; a list whose class is freed more often
      // than taken kept them forever (+0.7 entries per MLP step). Drop them once they are most of the list.
      if (list.length >= 64 && (list.length & (list.length - 1)) === 0) this.dropStale(list, size);
    }
    if (list !== undefined && list.length > 1) return;
    const sizes = this.freeSizes;
    let i = sizes.length;
    while (i > 0 && (sizes[i - 1] as number) > size) i--;
    if (sizes[i - 1] !== size) sizes.splice(i, 0, size);
  }

  /** Removes, in place and in order, the entries of `list` that are no longer free blocks of `size` bytes. */
  private dropStale(list: number[], size: number): void {
    let kept = 0;
    for (const p of list) if (this.freeAt.get(p) === size) list[kept++] = p;
    list.length = kept;
  }

  /** Takes the most recently freed block of exactly `size` bytes off the free pool, or undefined. */
  private popFree(size: number): number | undefined {
    const list = this.freeLists.get(size) ?? [];
    let ptr: number | undefined;
    while ((ptr = list.pop()) !== undefined) {
      if (this.freeAt.get(ptr) === size) break;
    }
    if (list.length === 0) {
      this.freeLists.delete(size);
      const i = this.freeSizes.indexOf(size);
      if (i >= 0) this.freeSizes.splice(i, 1);
    }
    if (ptr === undefined) return undefined;
    this.freeAt.delete(ptr);
    this.freeEndingAt.delete(ptr + size);
    return ptr;
  }

  /** @internal Entries in the free lists, stale ones included (a test of their bound). */
  freeListEntries(): number {
    let n = 0;
    for (const list of this.freeLists.values()) n += list.length;
    return n;
  }

  /** Bytes in live blocks (stats().allocatedBytes without building the object). */
  get allocatedBytes(): number {
    return this.allocated;
  }

  /** The usable size of a live block (its size class), or undefined. */
  blockSize(ptr: number): number | undefined {
    return this.live.get(ptr);
  }

  /**
   * Releases cached free blocks that sit at the top of the heap, so the space can be carved again in any
   * size (PyTorch's empty_cache; the memory itself cannot shrink). Returns the bytes released.
   */
  emptyCache(): number {
    // Free neighbours are merged, so at most one free block ends at the top.
    const start = this.freeEndingAt.get(this.top);
    if (start === undefined) return 0;
    const released = this.top - start;
    this.freeAt.delete(start);
    this.freeEndingAt.delete(this.top);
    this.top = start;
    return released;
  }

  stats(): AllocatorStats {
    const reserved = this.top - CachingAllocator.HEAP_BASE;
    return {
      allocatedBytes: this.allocated,
      peakAllocatedBytes: this.peakAllocated,
      reservedBytes: reserved,
      peakReservedBytes: this.peakReserved,
      cachedBytes: reserved - this.allocated,
      memoryBytes: this.memory.byteLength,
      liveBlocks: this.live.size,
      allocations: this.allocations,
      frees: this.frees,
      cacheHits: this.cacheHits,
      growths: this.growths,
    };
  }

  /** Sets the peaks to the current values (torch.cuda.reset_peak_memory_stats). */
  resetPeakStats(): void {
    this.peakAllocated = this.allocated;
    this.peakReserved = this.top - CachingAllocator.HEAP_BASE;
  }

  /** A new block from the top of the heap, growing the memory (doubling, within the cap); null if it can't. */
  private carve(size: number): { ptr: number; size: number } | null {
    const end = this.top + size;
    const mem = this.memory;
    if (end > mem.byteLength) {
      if (end > mem.maximumBytes) return null;
      // Double to amortise growth (each grow of a non-shared memory may move it), but not past the cap;
      // if the engine refuses the doubled size, ask for exactly what is needed.
      const doubled = Math.min(Math.max(end, 2 * mem.byteLength), mem.maximumBytes);
      try {
        mem.growToBytes(doubled);
      } catch (e) {
        if (!(e instanceof WasmOutOfMemoryError)) throw e;
        try {
          mem.growToBytes(end);
        } catch (e2) {
          if (!(e2 instanceof WasmOutOfMemoryError)) throw e2;
          return null;
        }
      }
      this.growths++;
    }
    const ptr = this.top;
    this.top = end;
    const reserved = end - CachingAllocator.HEAP_BASE;
    if (reserved > this.peakReserved) this.peakReserved = reserved;
    return { ptr, size };
  }

  /**
   * The front of the smallest free block larger than `size`, the rest staying free; null when no free block
   * is large enough (Note [Split before carving]).
   */
  private splitCached(size: number): { ptr: number; size: number } | null {
    const sizes = this.freeSizes;
    let lo = 0;
    let hi = sizes.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((sizes[mid] as number) <= size) lo = mid + 1;
      else hi = mid;
    }
    while (lo < sizes.length) {
      const best = sizes[lo] as number;
      const ptr = this.popFree(best); // drops `best` from `sizes` when its list runs out
      if (ptr === undefined) continue;
      this.cacheHits++;
      this.pushFree(ptr + size, best - size);
      return { ptr, size };
    }
    return null;
  }

  private carveAfterTrim(size: number, nbytes: number): { ptr: number; size: number } {
    if (this.emptyCache() > 0) {
      const block = this.carve(size);
      if (block !== null) return block;
    }
    const s = this.stats();
    throw new WasmOutOfMemoryError(
      `wasm allocator: cannot allocate ${nbytes} bytes (size class ${size}): linear memory is ${s.memoryBytes} bytes with a cap of ` +
        `${this.memory.maximumBytes} (allocated ${s.allocatedBytes}, cached ${s.cachedBytes}, heap top ${this.top}). ` +
        'Free some tensors, raise the cap (WasmMemoryOptions.maximumBytes), or fall back to ArrayBuffer-backed storage.',
    );
  }
}
