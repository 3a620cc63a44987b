// The WebAssembly linear memory that CPU storage lives in, owned by JS: created here and imported by the
// kernel module (asc --importMemory), so the same Memory can later be given to worker threads. Holds the
// growth limit and the typed-array views over the memory, rebuilt only after the buffer changed. The
// allocator (allocator.ts) decides what to grow; this file only grows. Browser-safe.

import { webAssembly, type WasmMemoryObject } from './webassembly.js';

/** Bytes in a WebAssembly page. */
export const WASM_PAGE_BYTES = 65536;

// Note [Memory cap]
// ~~~~~~~~~~~~~~~~~
// wasm32 addresses are u32, so a memory holds at most 65536 pages (4 GiB). The default cap is one page less,
// 4 GiB - 64 KiB: then one past the end of any block is below 2^32, so `ptr + nbytes` never wraps in a
// kernel's u32 arithmetic nor in the allocator. Engines may refuse a large grow before the cap (the
// machine's memory, or 2 GiB on some 32-bit hosts): memory.grow then throws, and the allocator reports it
// the same way as the cap (WasmOutOfMemoryError), so storage can fall back to an ordinary ArrayBuffer.
// Pointers above 2^31 are still numbers on the JS side: index views with `ptr >>> 2`, never `ptr >> 2`.

/** The largest memory this module creates, in pages (Note [Memory cap]). */
export const MAX_WASM_PAGES = 65535;

/** Typed-array views over the whole memory; valid until the memory grows (then get new ones). */
export interface MemoryViews {
  readonly buffer: ArrayBuffer | SharedArrayBuffer;
  readonly u8: Uint8Array;
  readonly i8: Int8Array;
  readonly i16: Int16Array;
  readonly u16: Uint16Array;
  readonly i32: Int32Array;
  readonly u32: Uint32Array;
  readonly i64: BigInt64Array;
  readonly f32: Float32Array;
  readonly f64: Float64Array;
}

/** Thrown when linear memory cannot grow: past its cap, or refused by the engine. */
export class WasmOutOfMemoryError extends RangeError {
  override readonly name = 'WasmOutOfMemoryError';
}

/** How to create the WebAssembly memory that holds CPU storage: initial and maximum size, shared or not. */
export interface WasmMemoryOptions {
  /** Initial size in bytes, rounded up to whole pages (default 1 MiB). */
  initialBytes?: number;
  /** The cap in bytes, rounded up to whole pages (default and most: 4 GiB - 64 KiB, Note [Memory cap]). */
  maximumBytes?: number;
  /** A shared memory (SharedArrayBuffer), for worker threads (default false). */
  shared?: boolean;
}

const pagesFor = (bytes: number): number => Math.ceil(bytes / WASM_PAGE_BYTES);

/**
 * A WebAssembly.Memory with a cap and cached views.
 *
 * @example
 * const mem = new WasmMemory({ initialBytes: 65536, maximumBytes: 1 << 20 });
 * mem.views().f32[0] = 1.5;
 * mem.growToBytes(131072);         // views() now returns new views over the larger buffer
 */
export class WasmMemory {
  readonly memory: WasmMemoryObject;
  readonly maximumPages: number;
  readonly shared: boolean;
  private cached: MemoryViews | null = null;

  constructor(options: WasmMemoryOptions = {}) {
    const maximumPages = pagesFor(options.maximumBytes ?? MAX_WASM_PAGES * WASM_PAGE_BYTES);
    if (!(maximumPages >= 1 && maximumPages <= MAX_WASM_PAGES)) {
      throw new RangeError(`WasmMemory: maximumBytes must be in [1, ${MAX_WASM_PAGES * WASM_PAGE_BYTES}], got ${options.maximumBytes}`);
    }
    const initialPages = pagesFor(options.initialBytes ?? 1 << 20);
    if (!(initialPages >= 0 && initialPages <= maximumPages)) {
      throw new RangeError(`WasmMemory: initialBytes must be in [0, maximumBytes], got ${options.initialBytes}`);
    }
    this.maximumPages = maximumPages;
    this.shared = options.shared ?? false;
    // The module's import declares a maximum (Note [One binary, shared or not]), so the memory needs one.
    this.memory = new (webAssembly().Memory)({ initial: initialPages, maximum: maximumPages, shared: this.shared });
  }

  /** Current size in bytes. */
  get byteLength(): number {
    return this.memory.buffer.byteLength;
  }

  /** The cap in bytes. */
  get maximumBytes(): number {
    return this.maximumPages * WASM_PAGE_BYTES;
  }

  /**
   * Views over the current buffer. Growing detaches a non-shared buffer (its views become empty) and
   * gives a shared memory a new, longer SharedArrayBuffer; either way `memory.buffer` changes, and only then
   * are the views rebuilt, so calling this per kernel call is cheap.
   */
  views(): MemoryViews {
    const buffer = this.memory.buffer;
    const c = this.cached;
    if (c !== null && c.buffer === buffer) return c;
    const v: MemoryViews = {
      buffer,
      u8: new Uint8Array(buffer),
      i8: new Int8Array(buffer),
      i16: new Int16Array(buffer),
      u16: new Uint16Array(buffer),
      i32: new Int32Array(buffer),
      u32: new Uint32Array(buffer),
      i64: new BigInt64Array(buffer),
      f32: new Float32Array(buffer),
      f64: new Float64Array(buffer),
    };
    this.cached = v;
    return v;
  }

  /** Grows (never shrinks) so that the memory holds at least `bytes`; throws WasmOutOfMemoryError. */
  growToBytes(bytes: number): void {
    const pages = pagesFor(bytes);
    const current = this.byteLength / WASM_PAGE_BYTES;
    if (pages <= current) return;
    if (pages > this.maximumPages) {
      throw new WasmOutOfMemoryError(
        `wasm memory: cannot grow to ${bytes} bytes: the cap is ${this.maximumBytes} bytes (${this.maximumPages} pages of 64 KiB)`,
      );
    }
    try {
      this.memory.grow(pages - current);
    } catch (e) {
      throw new WasmOutOfMemoryError(
        `wasm memory: the engine refused to grow from ${this.byteLength} to ${pages * WASM_PAGE_BYTES} bytes (${e instanceof Error ? e.message : String(e)})`,
      );
    }
  }
}
