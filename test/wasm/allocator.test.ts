// src/wasm/runtime/allocator.ts: size classes, alignment, reuse before growth, stats, growth refreshing views,
// the cap (a clear WasmOutOfMemoryError), and a model-based fuzz of allocate/free sequences.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALIGNMENT, CachingAllocator, WasmMemory, WasmOutOfMemoryError, sizeClass } from '../../src/wasm/index.js';

const KiB = 1024;
const MiB = 1024 * KiB;
const fresh = (initialBytes = 64 * KiB, maximumBytes = 16 * MiB): CachingAllocator =>
  new CachingAllocator(new WasmMemory({ initialBytes, maximumBytes }));

describe('sizeClass', () => {
  it('is a multiple of 64 up to 256, then 4 classes per power-of-two interval', () => {
    const table = [1, 64, 65, 200, 256, 257, 320, 321, 512, 513, 1000, 1024, 1025, 5000, 1 << 20, (1 << 20) + 1].map(sizeClass);
    expect(table).toEqual([64, 64, 128, 256, 256, 320, 320, 384, 512, 640, 1024, 1024, 1280, 5120, 1 << 20, 1310720]);
  });

  it('never wastes more than 25% above 256 bytes, and is always 64-aligned', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 32 - 65536 }), (n) => {
        const c = sizeClass(n);
        expect(c).toBeGreaterThanOrEqual(n);
        expect(c % ALIGNMENT).toBe(0);
        if (n > 256) expect(c).toBeLessThanOrEqual(n * 1.25 + ALIGNMENT);
      }),
    );
  });
});

describe('CachingAllocator', () => {
  it('drops stale free-list entries (blocks listed, then merged with a neighbour) once a list doubles', () => {
    const a = fresh(64 * KiB, 64 * MiB);
    // 127 triples [x, y, separator] of 4 KiB blocks, plus one lone block.
    const triples = Array.from({ length: 127 }, () => [a.allocate(4 * KiB), a.allocate(4 * KiB), a.allocate(4 * KiB)] as const);
    const lone = a.allocate(4 * KiB);
    a.allocate(4 * KiB); // keeps `lone` from merging with the separator before it
    for (const [x] of triples) a.free(x); // 127 entries of 4 KiB
    for (const [, y] of triples) a.free(y); // each merges with its x into 8 KiB: the 127 entries of 4 KiB are stale
    expect(a.freeListEntries()).toBe(127 + 127);
    a.free(lone); // the 4 KiB list reaches 128 entries: the stale ones go
    expect(a.freeListEntries()).toBe(127 + 1);
    expect(a.allocate(4 * KiB)).toBe(lone);
    expect(a.allocate(8 * KiB)).toBe(triples[126]![0]); // the most recently freed 8 KiB block
  });

  it('returns 64-byte-aligned, non-null, disjoint blocks; 0 bytes is the null pointer', () => {
    const a = fresh();
    const ptrs = [1, 3, 64, 65, 100, 1000, 4096, 5].map((n) => [a.allocate(n), n] as const);
    for (const [p] of ptrs) {
      expect(p % 64).toBe(0);
      expect(p).toBeGreaterThanOrEqual(CachingAllocator.HEAP_BASE);
    }
    const spans = ptrs.map(([p]) => [p, p + (a.blockSize(p) as number)] as const).sort((x, y) => x[0] - y[0]);
    for (let i = 1; i < spans.length; i++) expect(spans[i]?.[0]).toBeGreaterThanOrEqual(spans[i - 1]?.[1] as number);
    expect(a.allocate(0)).toBe(0);
    a.free(0); // no-op
  });

  it('reuses a freed block of the same size class before carving new memory (LIFO)', () => {
    const a = fresh();
    const p1 = a.allocate(1000);
    a.allocate(64); // spacers: blocks freed side by side would merge (Note [Split before carving])
    const p2 = a.allocate(1000);
    a.allocate(64);
    const reserved = a.stats().reservedBytes;
    a.free(p1);
    a.free(p2);
    expect(a.allocate(900)).toBe(p2); // 900 and 1000 share the class 1024
    expect(a.allocate(1024)).toBe(p1);
    expect(a.stats()).toMatchObject({ reservedBytes: reserved, cacheHits: 2 });
    const p3 = a.allocate(2000); // no free block: new memory
    expect(p3).not.toBe(p1);
    expect(a.stats().reservedBytes).toBe(reserved + 2048);
  });

  it('keeps allocated / reserved / peak / cached stats', () => {
    const a = fresh();
    const p = a.allocate(100); // class 128
    const q = a.allocate(300); // class 320
    expect(a.stats()).toMatchObject({ allocatedBytes: 448, reservedBytes: 448, cachedBytes: 0, liveBlocks: 2, allocations: 2 });
    a.free(q);
    expect(a.stats()).toMatchObject({ allocatedBytes: 128, peakAllocatedBytes: 448, reservedBytes: 448, cachedBytes: 320, frees: 1 });
    a.resetPeakStats();
    expect(a.stats().peakAllocatedBytes).toBe(128);
    a.free(p);
    expect(a.stats()).toMatchObject({ allocatedBytes: 0, cachedBytes: 448, liveBlocks: 0 });
  });

  it('grows the memory (doubling) when the heap is full, and views() follows the new buffer', () => {
    const a = fresh(64 * KiB);
    const v0 = a.memory.views();
    const p = a.allocate(16);
    v0.f32[p >>> 2] = 7;
    const big = a.allocate(100 * KiB);
    const s = a.stats();
    expect(s.growths).toBe(1);
    expect(s.memoryBytes).toBeGreaterThanOrEqual(big + 100 * KiB);
    expect(v0.u8.length).toBe(0); // detached by the growth
    const v1 = a.memory.views();
    expect(v1.f32[p >>> 2]).toBe(7);
    v1.u8.fill(1, big, big + 100 * KiB); // in bounds
  });

  it('fails past the cap with a clear WasmOutOfMemoryError, leaving its state usable', () => {
    const a = fresh(64 * KiB, 256 * KiB);
    const p = a.allocate(100 * KiB);
    const before = a.stats();
    let error: unknown;
    try {
      a.allocate(200 * KiB);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WasmOutOfMemoryError);
    expect(error).toBeInstanceOf(RangeError);
    expect((error as Error).message).toMatch(/cannot allocate 204800 bytes .* cap of 262144 .* fall back to ArrayBuffer-backed storage/);
    expect(a.stats()).toEqual(before);
    a.free(p);
    expect(a.allocate(10)).toBeGreaterThan(0);
  });

  it('at the cap, takes a cached block of a larger class, then trims cached blocks at the top', () => {
    const a = fresh(64 * KiB, 128 * KiB);
    const big = a.allocate(64 * KiB);
    a.free(big);
    const rest = a.allocate(60 * KiB); // class 64 KiB: reuses `big`
    expect(rest).toBe(big);
    a.free(rest);
    // 100 KiB (class 112 KiB) does not fit beside the cached 64 KiB block: emptyCache() releases it.
    const huge = a.allocate(100 * KiB);
    expect(huge).toBe(big);
    expect(a.stats()).toMatchObject({ cachedBytes: 0, liveBlocks: 1 });
  });

  it('a smaller request at the cap is served from the front of a cached block of a larger class', () => {
    const a = fresh(64 * KiB, 128 * KiB);
    const x = a.allocate(96 * KiB); // class 96 KiB
    a.allocate(16 * KiB);
    a.free(x);
    const y = a.allocate(20 * KiB); // class 20 KiB: split from x's block (Note [Split before carving])
    expect(y).toBe(x);
    expect(a.blockSize(y)).toBe(20 * KiB);
    expect(a.allocate(64 * KiB)).toBe(x + 20 * KiB); // the rest, 76 KiB, is a free block of its own
    expect(a.stats()).toMatchObject({ cachedBytes: 12 * KiB, reservedBytes: 112 * KiB });
  });

  it('splits a free block (best fit) before carving fresh memory, and merges free neighbours', () => {
    const a = fresh(64 * KiB, 64 * MiB);
    const big = a.allocate(4 * MiB);
    a.allocate(64);
    const mid = a.allocate(1 * MiB);
    a.allocate(64);
    a.free(big);
    a.free(mid);
    const reserved = a.stats().reservedBytes;
    // 400 KB (class 448 KiB): the smallest larger free block is the 1 MiB one, then its 576 KiB rest.
    const c = sizeClass(400_000);
    expect(c).toBe(448 * KiB);
    const p = a.allocate(400_000);
    expect([p, a.blockSize(p)]).toEqual([mid, c]);
    const q = a.allocate(400_000);
    expect(q).toBe(mid + c);
    // The rest of the 1 MiB block (128 KiB) is too small: the 4 MiB block is split next.
    const r = a.allocate(400_000);
    expect(r).toBe(big);
    expect(a.stats().reservedBytes).toBe(reserved); // no fresh memory
    // Freed side by side, the pieces merge back: the whole 1 MiB block serves a 1 MiB request.
    a.free(q);
    a.free(p);
    expect(a.allocate(1 * MiB)).toBe(mid);
    a.free(r);
    expect(a.allocate(4 * MiB)).toBe(big);
    expect(a.stats()).toMatchObject({ reservedBytes: reserved, cachedBytes: 0 });
  });

  it('emptyCache after splits trims the free block at the top and keeps the others usable', () => {
    const a = fresh(64 * KiB, 64 * MiB);
    const low = a.allocate(256 * KiB);
    a.allocate(64);
    const top = a.allocate(1 * MiB);
    a.free(low);
    a.free(top);
    // 96 KiB (a class) is split from `low` (best fit, not the 1 MiB block), then freed: `low` whole again.
    expect(a.allocate(96 * KiB)).toBe(low);
    a.free(low);
    const before = a.stats().reservedBytes;
    expect(a.emptyCache()).toBe(1 * MiB);
    expect(a.emptyCache()).toBe(0);
    expect(a.stats().reservedBytes).toBe(before - 1 * MiB);
    expect(a.allocate(128 * KiB)).toBe(low);
    expect(a.allocate(96 * KiB)).toBe(low + 128 * KiB);
    expect(a.stats()).toMatchObject({ cachedBytes: 32 * KiB, reservedBytes: before - 1 * MiB });
  });

  it('throws on a double free or a foreign pointer, and on a bad size', () => {
    const a = fresh();
    const p = a.allocate(10);
    a.free(p);
    expect(() => a.free(p)).toThrow(/not a live block .*double free/);
    expect(() => a.free(12345)).toThrow(/not a live block/);
    expect(() => a.allocate(-1)).toThrow(/non-negative integer/);
    expect(() => a.allocate(1.5)).toThrow(/non-negative integer/);
  });

  it('random allocate/free sequences keep blocks aligned, disjoint, in bounds, and the stats consistent', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('alloc' as const), n: fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 40000 })) }),
      fc.record({ kind: fc.constant('free' as const), i: fc.nat() }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), (ops) => {
        const a = fresh(64 * KiB, 1 * MiB);
        const live: { p: number; n: number; tag: number }[] = [];
        let tag = 1;
        for (const o of ops) {
          if (o.kind === 'alloc') {
            let p: number;
            try {
              p = a.allocate(o.n);
            } catch (e) {
              expect(e).toBeInstanceOf(WasmOutOfMemoryError);
              continue;
            }
            if (o.n === 0) {
              expect(p).toBe(0);
              continue;
            }
            expect(p % 64).toBe(0);
            expect(p + o.n).toBeLessThanOrEqual(a.memory.byteLength);
            a.memory.views().u8.fill(tag & 0xff, p, p + o.n); // contents survive other blocks' traffic
            live.push({ p, n: o.n, tag: tag++ });
          } else if (live.length > 0) {
            const [b] = live.splice(o.i % live.length, 1);
            if (b !== undefined) a.free(b.p);
          }
        }
        const u8 = a.memory.views().u8;
        const sorted = [...live].sort((x, y) => x.p - y.p);
        for (let i = 0; i < sorted.length; i++) {
          const b = sorted[i] as (typeof sorted)[number];
          if (i > 0) {
            const prev = sorted[i - 1] as (typeof sorted)[number];
            expect(b.p).toBeGreaterThanOrEqual(prev.p + (a.blockSize(prev.p) as number));
          }
          expect(u8.subarray(b.p, b.p + b.n).every((x) => x === (b.tag & 0xff))).toBe(true);
        }
        const s = a.stats();
        expect(s.liveBlocks).toBe(live.length);
        expect(s.allocatedBytes).toBe(live.reduce((acc, b) => acc + (a.blockSize(b.p) as number), 0));
        expect(s.allocatedBytes + s.cachedBytes).toBe(s.reservedBytes);
        expect(s.reservedBytes).toBeLessThanOrEqual(s.memoryBytes);
      }),
      { numRuns: 200 },
    );
  });
});
