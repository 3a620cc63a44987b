// The CPU allocator over WebAssembly linear memory: large storages are blocks of the default runtime's
// memory (so the SIMD kernels run on them in place), small ones stay in the JS heap. Installed as the CPU
// allocator at start-up; `setKernelBackend('js')` puts the plain JS-heap allocator back. Mirrors
// c10/core/CPUAllocator.cpp (DefaultCPUAllocator, the `fill_uninitialized_memory` debug fill) with the
// caching of allocator.ts underneath.

import { Device, DeviceType } from '../../c10/Device.js';
import { warn } from '../../c10/Warning.js';
import {
  BufferArrays,
  allocateInJsHeap,
  releaseJsHeap,
  setJsHeapBuffersShared,
  type Allocator,
  type Storage,
} from '../../tensor/Storage.js';
import { WasmOutOfMemoryError } from './memory.js';
import type { WasmRuntime } from './Loader.js';
import type { KernelName, Kernels } from '../kernels/generated/KernelNames.js';

// Note [Storage lifetime]
// ~~~~~~~~~~~~~~~~~~~~~~~
// A PyTorch user never frees a tensor; reference counting frees it when the last reference goes. JavaScript
// has no reference counts, and WebAssembly memory is invisible to the garbage collector, so a storage in
// linear memory is given back in three ways, cheapest first:
//   1. Where the library knows a lifetime it frees at once: the engine's gradients between nodes as soon as
//      they are used (Note [Gradients freed as they die]), an optimiser update's intermediates, the old block
//      of a storage that `resize_` outgrew, `dispose()` and `torch.scope` (opt-in).
//   2. Otherwise a FinalizationRegistry frees the block after the garbage collector has collected the
//      Storage object. Measured on Node 20: registering costs 60–110 ns (why small storages, whose kernels
//      gain little from SIMD, stay in the JS heap: SMALL_BYTES below), and cleanup callbacks run only when
//      the event loop turns — a loop that never yields (a synchronous training loop) frees nothing this
//      way, and WeakRef.deref() cannot help either (targets live until the job ends).
//   3. So memory can grow faster than the collector reports. When the bytes in linear memory pass a soft
//      limit (max(SOFT_LIMIT_MIN, 2 × what was live after the last reclamation)), Node reclaims at once: its
//      entry point (src/node.ts) runs a full collection and FinalizationRegistry.cleanupSome (V8 flags set
//      on first use of linear memory), 10–20 ms each, and the fast path goes on; when collections come too
//      close together (a loop of large fresh results) the limit doubles to 512 MiB, halving their cost.
//      Where that is not possible (browsers), or when it freed too little, new storages go to the JS heap,
//      which the collector frees on its own (V8 counts ArrayBuffer memory as external memory), until
//      finalizers have run again: slower kernels, bounded memory. A one-time warning says so. bench/soak.ts
//      measures both loop shapes.
// Candidates measured and rejected: growing until the cap (a synchronous 10,000-step MLP loop reached the
// 4 GiB cap); a minor collection (V8 11 processes finalization registries only in full ones); WeakRef
// polling (targets live until the job ends).

// Note [One view per storage]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A storage in linear memory gets typed arrays over its own bytes (`storage.data()` starts at its first
// element; its address is `handle`, and `array.byteOffset` for the kernels), not one array over the whole
// memory shared by every storage. V8 compiles a JS loop that loads through one typed array object and stores
// through the same object as if every store could change what it loads next: the JS gemm of 64×784 by
// 784×128 took 7.7 ms with input and output views being one array and 3.7 ms with three (bench/RESULTS.md).
// The views follow the memory when it grows (BufferArrays' `source`).

/** Storages up to this size live in the JS heap (Note [Storage lifetime]). */
export const SMALL_BYTES = 1024;

/** The least soft limit on live bytes in linear memory before storages fall back to the JS heap. */
export const SOFT_LIMIT_MIN = 256 * 1024 * 1024;

const CPU = new Device(DeviceType.CPU);

/** What the CPU allocator has done: the caching allocator's counters plus the lifetime counters. */
export interface CPUMemoryStats {
  /** Bytes in live blocks of linear memory. */
  readonly allocatedBytes: number;
  readonly peakAllocatedBytes: number;
  /** Bytes carved from linear memory (live plus cached free blocks). */
  readonly reservedBytes: number;
  /** Size of the linear memory. */
  readonly memoryBytes: number;
  readonly liveBlocks: number;
  /** Blocks freed by the library (dispose, scopes, backward, resize). */
  readonly explicitFrees: number;
  /** Blocks freed by the FinalizationRegistry after garbage collection. */
  readonly finalizedFrees: number;
  /** Storages placed in the JS heap because linear memory was past its soft limit or full. */
  readonly jsHeapFallbacks: number;
  /** Collections the synchronous reclaimer ran at the soft limit (Node). */
  readonly synchronousReclaims: number;
}

/**
 * What kernels test to take the WebAssembly path: `buffer` is the linear memory's current buffer while
 * storage lives there and the 'wasm' backend is on, else null (so `array.buffer === wasmStorage.buffer` is
 * false for every array); `kernels` is the runtime's kernel table. Runs shorter than `minElements` stay in
 * JS: a WASM call costs a few ns, and the checks before it read `buffer` from typed arrays of every class, a
 * megamorphic load that a 1-element add would pay (the test suite sets 0, to run the kernels on its small
 * tensors).
 */
export const wasmStorage: {
  buffer: ArrayBufferLike | null;
  kernels: Kernels | null;
  parallel: ParallelRunner | null;
  minElements: number;
} = {
  buffer: null,
  kernels: null,
  parallel: null,
  minElements: 16,
};

/** Runs `calls[i]` of kernel `name` on thread i, the caller first (ParallelNative.ts). */
export type ParallelRunner = (name: KernelName, calls: readonly (readonly number[])[], threads?: number) => void;

/** What a synchronous reclaimer is made of (WasmCPUAllocator.setSynchronousReclaimer). */
export interface SynchronousReclaimer {
  readonly Registry: new (cleanup: (ptr: number) => void) => FinalizationRegistry<number>;
  readonly reclaim: (registry: FinalizationRegistry<number>) => void;
}

/** The CPU allocator over one runtime's linear memory (the default runtime's, at start-up). */
export class WasmCPUAllocator implements Allocator {
  readonly device = CPU;
  /** Typed arrays over the memory's current buffer; reset when it grows, and every storage's views follow. */
  readonly arrays: BufferArrays;
  /** Fill fresh memory with NaN / all-ones bytes (torch.utils.deterministic.fill_uninitialized_memory). */
  fillUninitializedMemory = false;
  /** The soft limit's floor (Note [Storage lifetime]); lowered by tests. */
  softLimitMin = SOFT_LIMIT_MIN;
  /** Storages up to this many bytes go to the JS heap (SMALL_BYTES; the test suite sets 0 to run every kernel on linear memory). */
  smallBytes = SMALL_BYTES;
  /**
   * Debugging: grow the memory before every allocation (while under 2 GiB), so that a kernel holding a typed
   * array across an allocation reads a detached buffer and fails its test instead of working by luck.
   */
  growOnEveryAllocation = false;
  private liveAfterReclaim = 0;
  private explicitFrees = 0;
  private finalizedFrees = 0;
  private jsHeapFallbacks = 0;
  private synchronousReclaims = 0;
  /** The soft limit's multiplier, adapted to the reclaimer's cost (reclaimSynchronously). */
  private reclaimScale = 1;
  private lastReclaimEnd = -Infinity;
  private registry: FinalizationRegistry<number>;
  /** Registries replaced by setSynchronousReclaimer, still holding older storages' registrations. */
  private readonly olderRegistries: FinalizationRegistry<number>[] = [];
  private reclaimNow: ((registry: FinalizationRegistry<number>) => void) | null = null;

  private rt: WasmRuntime | null = null;

  /** `runtime` is called on the first large allocation, so `initWasm(options)` can still come first. */
  constructor(private readonly runtimeProvider: () => WasmRuntime) {
    this.arrays = new BufferArrays(new ArrayBuffer(0));
    this.registry = new FinalizationRegistry(this.finalize);
  }

  private readonly finalize = (ptr: number): void => {
    const alloc = this.runtime.allocator;
    alloc.free(ptr);
    this.finalizedFrees++;
    this.liveAfterReclaim = alloc.allocatedBytes;
  };

  /**
   * Installs a synchronous reclaimer (Note [Storage lifetime], step 3). `make` returns a FinalizationRegistry
   * constructor whose instances can run their cleanup now, and `reclaim(registry)`, which collects garbage
   * and runs it; it is called when linear memory is first used, so that its cost stays out of start-up.
   * Node's entry point (src/node.ts) installs one; browsers have none. Storages allocated before keep their
   * old registration (freed when the event loop turns). `null` removes the reclaimer (the browsers' path).
   */
  setSynchronousReclaimer(make: (() => SynchronousReclaimer | null) | null): void {
    if (make === null) {
      this.makeReclaimer = null;
      this.reclaimNow = null;
      return;
    }
    this.makeReclaimer = make;
    if (this.rt !== null) this.installReclaimer();
  }

  private makeReclaimer: (() => SynchronousReclaimer | null) | null = null;

  private installReclaimer(): void {
    const made = this.makeReclaimer?.() ?? null;
    this.makeReclaimer = null;
    if (made === null) return;
    this.olderRegistries.push(this.registry);
    this.registry = new made.Registry(this.finalize);
    this.reclaimNow = made.reclaim;
  }

  /** The runtime whose memory holds the storages (created on first use). */
  get runtime(): WasmRuntime {
    if (this.rt === null) {
      this.rt = this.runtimeProvider();
      if (this.rt.memory.shared) setJsHeapBuffersShared(true);
      this.installReclaimer();
    }
    return this.rt;
  }

  allocate(nbytes: number, into: Storage): void {
    if (into.handle !== 0) this.unregister(into); // a resize: the old block is freed by the caller
    if (nbytes <= this.smallBytes || !this.tryAllocate(nbytes, into)) allocateInJsHeap(nbytes, into);
    if (this.fillUninitializedMemory) fillUninitialized(into, nbytes);
  }

  free(storage: Storage): void {
    const ptr = storage.handle;
    if (ptr === 0) {
      releaseJsHeap(storage);
      return;
    }
    this.unregister(storage);
    this.runtime.allocator.free(ptr);
    storage.handle = 0;
    storage.arrays = null;
    this.explicitFrees++;
  }

  /**
   * Runs the synchronous reclaimer and adapts the soft limit to keep its cost near a quarter of the time
   * (Note [Storage lifetime]): when collections come sooner than 4 times their own duration apart the limit
   * doubles (once: 2 × SOFT_LIMIT_MIN stays inside the memory reserved up front), when they come more than 40
   * times apart it halves back.
   */
  private reclaimSynchronously(): void {
    const alloc = this.runtime.allocator;
    const start = now();
    (this.reclaimNow as (registry: FinalizationRegistry<number>) => void)(this.registry);
    const end = now();
    const gap = start - this.lastReclaimEnd;
    const cost = end - start;
    if (gap < 4 * cost && this.reclaimScale < 2) this.reclaimScale *= 2;
    else if (gap > 40 * cost && this.reclaimScale > 1) this.reclaimScale /= 2;
    this.lastReclaimEnd = end;
    this.synchronousReclaims++;
    this.liveAfterReclaim = alloc.allocatedBytes;
  }

  private unregister(storage: Storage): void {
    this.registry.unregister(storage);
    for (const r of this.olderRegistries) r.unregister(storage);
  }

  /** The counters; before the first large allocation (no linear memory yet) the memory ones are 0. */
  stats(): CPUMemoryStats {
    const s = this.rt?.allocator.stats();
    return {
      allocatedBytes: s?.allocatedBytes ?? 0,
      peakAllocatedBytes: s?.peakAllocatedBytes ?? 0,
      reservedBytes: s?.reservedBytes ?? 0,
      memoryBytes: s?.memoryBytes ?? 0,
      liveBlocks: s?.liveBlocks ?? 0,
      explicitFrees: this.explicitFrees,
      finalizedFrees: this.finalizedFrees,
      jsHeapFallbacks: this.jsHeapFallbacks,
      synchronousReclaims: this.synchronousReclaims,
    };
  }

  private tryAllocate(nbytes: number, into: Storage): boolean {
    const alloc = this.runtime.allocator;
    let softLimit = Math.max(this.softLimitMin * this.reclaimScale, 2 * this.liveAfterReclaim);
    if (alloc.allocatedBytes + nbytes > softLimit && this.reclaimNow !== null) {
      this.reclaimSynchronously();
      softLimit = Math.max(this.softLimitMin * this.reclaimScale, 2 * this.liveAfterReclaim);
    }
    if (alloc.allocatedBytes + nbytes > softLimit) {
      if (this.jsHeapFallbacks++ === 0) {
        warn(
          `aten-ts: ${Math.round(softLimit / 2 ** 20)} MiB of WebAssembly memory are held by tensors the garbage collector has not ` +
            'reported free (it reports only when the event loop runs), so new tensors go to the JS heap, where kernels are slower. ' +
            'To keep the fast path: let the event loop turn between steps (await), or free early with torch.scope(fn) or t.dispose().',
        );
      }
      return false;
    }
    let ptr: number;
    try {
      const memory = this.runtime.memory;
      if (this.growOnEveryAllocation && memory.byteLength + 65536 <= Math.min(memory.maximumBytes, 2 ** 31)) {
        memory.growToBytes(memory.byteLength + 65536);
      }
      ptr = alloc.allocate(nbytes);
    } catch (e) {
      if (!(e instanceof WasmOutOfMemoryError)) throw e;
      this.jsHeapFallbacks++;
      return false;
    }
    const buffer = this.runtime.memory.memory.buffer;
    if (buffer !== this.arrays.buffer) {
      this.arrays.reset(buffer);
      wasmStorage.buffer = buffer;
      wasmStorage.kernels = this.runtime.wasm;
      wasmStorage.parallel = this.runtime.parallel;
    }
    // See Note [One view per storage].
    into.arrays = new BufferArrays(buffer, ptr, nbytes, this.arrays);
    into.byteOffset = 0;
    into.handle = ptr;
    this.registry.register(into, ptr, into);
    return true;
  }
}

const now = (): number => (typeof performance === 'undefined' ? Date.now() : performance.now());

function fillUninitialized(into: Storage, nbytes: number): void {
  const bytes = into.arrays?.get(Uint8Array);
  if (bytes !== undefined) bytes.fill(0xff, into.byteOffset, into.byteOffset + nbytes);
}
