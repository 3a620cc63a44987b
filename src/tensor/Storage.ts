// Storage, DataPtr and Allocator: the bytes behind tensors, shared between views.
// Mirrors c10/core/StorageImpl.h, c10/core/Allocator.h, c10/core/CPUAllocator.cpp.

import { Device, DeviceType, deviceTypeName } from '../c10/Device.js';
import { ScalarType, elementSize, scalarTypeToString } from '../c10/ScalarType.js';
import { trackStorage } from './StorageScope.js';

/** The typed arrays kernels read and write. See Note [Typed storage of each dtype]. */
export type StorageArray = Float32Array | Float64Array | Int32Array | Int16Array | Int8Array | Uint8Array | Uint16Array;

type StorageArrayCtor = new (buffer: ArrayBufferLike, byteOffset: number, length: number) => StorageArray;

// Note [Typed storage of each dtype]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Every dtype stores its elements with PyTorch's item size, so byte sizes, strides and storage offsets agree
// with PyTorch; kernels see the bytes through one typed array per dtype:
//   bool, uint8 → Uint8Array; int8 → Int8Array; int16 → Int16Array; int32 → Int32Array;
//   float16, bfloat16 → Uint16Array of the raw bits (converted on load and store);
//   float32 → Float32Array; float64 → Float64Array;
//   complex64 → Float32Array, complex128 → Float64Array, two lanes (re, im) per element;
//   int64 → Float64Array holding the integer value.
// int64 is the one departure from PyTorch's bit layout: JavaScript has no fast 64-bit integers (BigInt64Array
// turns every element access into a BigInt allocation), while a double holds every integer up to 2^53
// exactly — all indices, counts, sizes and labels programs put in int64 tensors. Values beyond ±2^53 round
// to the nearest double. The item size stays 8 bytes, so memory use and strides are PyTorch's.
// One rule stores every int64 result, `toInt64` (src/tensor/elements.ts): truncation, and NaN, ±inf or a
// value outside [-2^63, 2^63) becomes INT64_MIN, as x86's cvttsd2si converts a double. The converting loop,
// toStored (fills, copies, conversions, reductions, scans) and — through wrapInt64Run, applied by
// cpuKernelVec and the same-shape fast path to the runs they write — the vectorised loops all use it, so a
// contiguous and a strided tensor get the same value. What it gives at the edge: -INT64_MIN and
// |INT64_MIN| are INT64_MIN and 2^62 + 2^62 is INT64_MIN (PyTorch's wraparound gives the same); wider
// overflow saturates to INT64_MIN where PyTorch wraps (2^62 · 2^62 is 0 there, INT64_MIN - 1 is INT64_MAX);
// ~INT64_MIN is INT64_MAX, whose nearest double is 2^63: it stores 2^63 - 1024, the largest double below
// 2^63 and so the largest int64 element. Sums past 2^53 round as they go (a sum of INT64_MIN + 5 + 2^63 is 0,
// not 5). test/kernels/Int64Edges.test.ts checks these against PyTorch (tools/golden/gen_int64_edges.py).
const ARRAY_OF: Record<number, { ctor: StorageArrayCtor; lanes: number }> = {
  [ScalarType.Bool]: { ctor: Uint8Array, lanes: 1 },
  [ScalarType.Byte]: { ctor: Uint8Array, lanes: 1 },
  [ScalarType.Char]: { ctor: Int8Array, lanes: 1 },
  [ScalarType.Short]: { ctor: Int16Array, lanes: 1 },
  [ScalarType.Int]: { ctor: Int32Array, lanes: 1 },
  [ScalarType.Long]: { ctor: Float64Array, lanes: 1 },
  [ScalarType.Half]: { ctor: Uint16Array, lanes: 1 },
  [ScalarType.BFloat16]: { ctor: Uint16Array, lanes: 1 },
  [ScalarType.Float]: { ctor: Float32Array, lanes: 1 },
  [ScalarType.Double]: { ctor: Float64Array, lanes: 1 },
  [ScalarType.ComplexFloat]: { ctor: Float32Array, lanes: 2 },
  [ScalarType.ComplexDouble]: { ctor: Float64Array, lanes: 2 },
};

/** True if aten-ts can store tensors of this dtype. */
export function hasStorageFor(dtype: ScalarType): boolean {
  return ARRAY_OF[dtype] !== undefined;
}

/** Throws a clear error if aten-ts cannot store tensors of this dtype. */
export function checkHasStorage(dtype: ScalarType): void {
  storageArrayInfo(dtype);
}

/** Number of typed-array lanes per element: 2 for complex dtypes, else 1. */
export function lanesOf(dtype: ScalarType): number {
  return storageArrayInfo(dtype).lanes;
}

function storageArrayInfo(dtype: ScalarType): { ctor: StorageArrayCtor; lanes: number } {
  const info = ARRAY_OF[dtype];
  if (info === undefined) {
    throw new Error(`aten-ts has no storage for dtype ${scalarTypeToString(dtype)} (quantized and complex32 tensors are not supported)`);
  }
  return info;
}

/**
 * Typed arrays over a buffer (or over one window of it), created on first use. Slab storages share one
 * instance over the whole slab and index it from their `byteOffset`; a storage in WebAssembly memory has its
 * own, over exactly its bytes (Note [One view per storage]). With a `source`, the arrays follow
 * `source.buffer` when it is replaced (a growing memory).
 */
export class BufferArrays {
  buffer: ArrayBufferLike;
  private byCtor: Map<StorageArrayCtor, StorageArray> | null = null;
  private lastCtor: StorageArrayCtor | null = null;
  private lastArray: StorageArray | null = null;

  constructor(
    buffer: ArrayBufferLike,
    /** The window: its first byte, and its length in bytes (-1: to the end of the buffer). */
    readonly windowOffset = 0,
    readonly windowBytes = -1,
    readonly source: { readonly buffer: ArrayBufferLike } | null = null,
  ) {
    this.buffer = buffer;
  }

  get(ctor: StorageArrayCtor): StorageArray {
    const src = this.source;
    if (src !== null && src.buffer !== this.buffer) this.reset(src.buffer);
    if (ctor === this.lastCtor) return this.lastArray as StorageArray;
    const byCtor = (this.byCtor ??= new Map());
    let a = byCtor.get(ctor);
    if (a === undefined) {
      const bytesPer = (ctor as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
      const bytes = this.windowBytes < 0 ? this.buffer.byteLength - this.windowOffset : this.windowBytes;
      a = new ctor(this.buffer, this.windowOffset, Math.floor(bytes / bytesPer));
      byCtor.set(ctor, a);
    }
    this.lastCtor = ctor;
    this.lastArray = a;
    return a;
  }

  /** Points at a new buffer (the old one was detached or outgrown); arrays are rebuilt on demand. */
  reset(buffer: ArrayBufferLike): void {
    this.buffer = buffer;
    this.byCtor = null;
    this.lastCtor = null;
    this.lastArray = null;
  }
}

/**
 * c10::DataPtr: where one allocation lives — a byte offset into a memory. `memory` is an ArrayBuffer or
 * SharedArrayBuffer, or an object whose `buffer` may be replaced when it grows (a `WebAssembly.Memory`):
 * kernels' typed arrays then follow the new buffer. `handle` is the allocator's own number for the block
 * (a WebAssembly address, an index into a table), handed back through `storage.handle` when it is freed.
 */
export interface DataPtr {
  /** The memory holding the block: a buffer, or an owner of a replaceable `buffer` (a `WebAssembly.Memory`). */
  readonly memory: ArrayBufferLike | { readonly buffer: ArrayBufferLike };
  /** Where the block starts in `memory`, a multiple of 16. */
  readonly byteOffset: number;
  /** The allocator's number for the block (default 0); `storage.handle` gives it back to `free`. */
  readonly handle?: number;
}

/**
 * c10::Allocator: where a device's tensor memory comes from. PyTorch's allocate returns a DataPtr; here it
 * fills the storage's pointer fields (arrays, byte offset, handle) directly, which saves an object per
 * tensor on the allocation path of every operator that returns one. Memory from `allocate` is
 * uninitialised, as `torch.empty`'s is (an allocator may hand out zeros, but no kernel may rely on it).
 */
export interface Allocator {
  /** The device whose memory this is; every storage it allocates reports it (`storage.device`). */
  readonly device: Device;
  /** Gives `into` at least `nbytes` bytes: sets its pointer fields, e.g. with `into.setDataPtr(dataPtr)`. */
  allocate(nbytes: number, into: Storage): void;
  /**
   * Gives the storage's memory back now (`dispose()`, or a lifetime the library knows); after it the storage
   * has no data. Allocators whose memory the garbage collector reclaims need not free anything.
   */
  free(storage: Storage): void;
  /**
   * For device memory (Storage.setDeviceContext): grows `storage` to `nbytes` keeping its bytes, as
   * Storage.resize does for host memory. A device allocator without it cannot resize its storages.
   */
  reallocate?(storage: Storage, nbytes: number): void;
  /**
   * For device memory: the message of the error a host read or write of `storage` raises (`data()`, `tolist()`,
   * `item()`), e.g. naming the device's awaitable read. See Note [Device memory in a Storage].
   */
  hostAccessError?(storage: Storage): string;
}

const CPU = new Device(DeviceType.CPU);
const META = new Device(DeviceType.Meta);

// Note [Slab allocation]
// ~~~~~~~~~~~~~~~~~~~~~~
// A fresh ArrayBuffer costs V8 several hundred nanoseconds (a backing-store allocation plus external-memory
// accounting), more than a whole small operator call should. The CPU allocator therefore carves small
// allocations (up to SMALL_BYTES) out of 64 KiB slabs with a bump pointer, 16-byte aligned; large ones get
// their own buffer. Slab memory is never handed out twice, so it is zero-filled like a fresh buffer, and
// the garbage collector frees a slab once no storage carved from it is alive. The cost is that one
// long-lived small tensor keeps its whole slab alive. Kernels see a storage as a typed array over the whole
// buffer plus `arrayOffset(dtype)`; the same shape (one big buffer, offsets) is what a WebAssembly-memory
// allocator will hand out.
const SMALL_BYTES = 1024;
const SLAB_BYTES = 64 * 1024;
let slab: BufferArrays = new BufferArrays(new ArrayBuffer(SLAB_BYTES));
let slabUsed = 0;

// Note [JS-heap buffers follow linear memory]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Once linear memory is a SharedArrayBuffer (worker threads), JS-heap storage is made of SharedArrayBuffers
// too: V8 compiles a loop over typed arrays for the buffer kind it has seen, and one that sees views over both
// kinds runs slower (the JS gemm of 64×784×128: 3.7 against 7.7 ms; conv2d's im2col loops ~20%). Storages
// made before keep their ArrayBuffers.
let makeBuffer = (n: number): ArrayBuffer | SharedArrayBuffer => new ArrayBuffer(n);

/** Makes JS-heap storage SharedArrayBuffers from now on (`shared`), or ArrayBuffers (Note [JS-heap buffers follow linear memory]). */
export function setJsHeapBuffersShared(shared: boolean): void {
  makeBuffer = shared ? (n) => new SharedArrayBuffer(n) : (n) => new ArrayBuffer(n);
  slab = new BufferArrays(makeBuffer(SLAB_BYTES));
  slabUsed = 0;
}

/** The CPU allocator: zero-filled memory, small blocks from slabs. A WebAssembly-memory allocator can replace it. */
export const cpuAllocator: Allocator = {
  device: CPU,
  allocate(nbytes: number, into: Storage): void {
    allocateInJsHeap(nbytes, into);
  },
  free: releaseJsHeap,
};

/**
 * Memory the garbage collector owns: a slab slice for small requests, an own ArrayBuffer for large ones
 * (Note [Slab allocation]). The CPU allocator over WebAssembly memory uses it for what it does not hold.
 */
export function allocateInJsHeap(nbytes: number, into: Storage): void {
  into.handle = 0;
  if (nbytes > SMALL_BYTES) {
    into.arrays = new BufferArrays(makeBuffer(nbytes));
    into.byteOffset = 0;
    return;
  }
  if (slabUsed + nbytes > SLAB_BYTES) {
    slab = new BufferArrays(makeBuffer(SLAB_BYTES));
    slabUsed = 0;
  }
  into.arrays = slab;
  into.byteOffset = slabUsed;
  slabUsed += (nbytes + 15) & ~15;
}

/** Drops a JS-heap storage's reference to its memory; the garbage collector does the rest. */
export function releaseJsHeap(storage: Storage): void {
  storage.arrays = null;
}

/** The Meta allocator: no memory at all; meta tensors carry only sizes, strides and dtypes. */
export const metaAllocator: Allocator = {
  device: META,
  allocate(_nbytes: number, into: Storage): void {
    into.byteOffset = 0;
    into.arrays = null;
  },
  free(): void {},
};

const allocators = new Map<DeviceType, Allocator>([
  [DeviceType.CPU, cpuAllocator],
  [DeviceType.Meta, metaAllocator],
]);

/** The CPU allocator in effect (setAllocator keeps it): read on every CPU allocation without a map lookup. */
let cpuAllocatorInEffect: Allocator = cpuAllocator;

/** `GetAllocator(device_type)`. */
export function getAllocator(type: DeviceType): Allocator {
  if (type === DeviceType.CPU) return cpuAllocatorInEffect;
  const a = allocators.get(type);
  if (a === undefined) {
    throw new Error(
      `no allocator registered for device type ${deviceTypeName(type)}; aten-ts has cpu and meta, and an out-of-tree ` +
        'backend registers its own with setAllocator(DeviceType.PrivateUse1, allocator)',
    );
  }
  return a;
}

/**
 * `SetAllocator(device_type, allocator)`: installs the allocator of a device type — another CPU allocator
 * (WebAssembly memory), or an out-of-tree backend's at `DeviceType.PrivateUse1`. Returns the old one.
 * The allocator's `device` must be of that type.
 */
export function setAllocator(type: DeviceType, allocator: Allocator): Allocator | undefined {
  deviceTypeName(type);
  if (
    allocator === null ||
    typeof allocator !== 'object' ||
    typeof allocator.allocate !== 'function' ||
    typeof allocator.free !== 'function'
  ) {
    throw new TypeError('setAllocator(): expected an Allocator ({ device, allocate(nbytes, storage), free(storage) })');
  }
  if (!(allocator.device instanceof Device) || allocator.device.type !== type) {
    throw new Error(
      `setAllocator(): the allocator's device is ${String(allocator.device)}, expected a device of type ${deviceTypeName(type)}`,
    );
  }
  const old = allocators.get(type);
  allocators.set(type, allocator);
  if (type === DeviceType.CPU) cpuAllocatorInEffect = allocator;
  return old;
}

let storageSerial = 0;

/** The serial number the next storage will get (Storage.serial). */
export function nextStorageSerial(): number {
  return storageSerial;
}

/**
 * StorageImpl: a byte range shared by every view of a tensor. Kernels get a typed array at call time with
 * `data(dtype)` — over a slab shared with other storages (Note [Slab allocation]) or over the storage's own
 * bytes (Note [One view per storage]) — and find the storage's first element at `arrayOffset(dtype)`. Never keep
 * a `data()` array across an allocation: growing WebAssembly memory replaces the buffer.
 */
export class Storage {
  nbytes: number;
  /** Typed arrays over the buffer holding the bytes (shared with other storages); null for meta and after free. */
  arrays: BufferArrays | null = null;
  /** Where this storage starts in its buffer. */
  byteOffset = 0;
  /** The allocator's handle for this block (a WebAssembly address; 0 for JS-heap memory). */
  handle = 0;
  readonly allocator: Allocator;
  /**
   * The version counter: in-place operations bump it, and autograd checks saved tensors against it. It
   * lives with the storage, so every view shares it (PyTorch keeps it per view family; the two coincide
   * except after `set_`-style storage swaps, which aten-ts does not have).
   */
  version = 0;
  /**
   * Device memory the CPU cannot address (a GPU buffer): the allocator's object for it, as c10::DataPtr's
   * context; null for host memory. See Note [Device memory in a Storage].
   */
  deviceContext: unknown = null;
  /** Set by `free()`: data() then says the memory was released instead of calling it a meta storage. */
  freed = false;
  /** Lives beyond every `scope()` (StorageScope.ts): set when it becomes a `.grad`. */
  escaped = false;
  /** Its place in the order storages were made (the autograd engine frees what a backward pass made: Note [Gradients freed as they die]). */
  readonly serial: number = storageSerial++;

  constructor(nbytes: number, allocator: Allocator) {
    this.nbytes = nbytes;
    this.allocator = allocator;
    allocator.allocate(nbytes, this);
    trackStorage(this);
  }

  get device(): Device {
    return this.allocator.device;
  }

  /**
   * Points this storage at an allocation (what an Allocator's `allocate` does with the DataPtr it makes).
   * The bytes at `byteOffset` must be aligned to 16 so that every dtype's typed array can address them.
   */
  setDataPtr(ptr: DataPtr): void {
    const memory = ptr.memory;
    const isBuffer = memory instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && memory instanceof SharedArrayBuffer);
    const source = isBuffer ? null : (memory as { readonly buffer: ArrayBufferLike });
    const buffer = isBuffer ? (memory as ArrayBufferLike) : source?.buffer;
    if (!(buffer instanceof ArrayBuffer) && !(typeof SharedArrayBuffer !== 'undefined' && buffer instanceof SharedArrayBuffer)) {
      throw new TypeError(
        'setDataPtr(): memory must be an ArrayBuffer, a SharedArrayBuffer or an object with a buffer (WebAssembly.Memory)',
      );
    }
    if (!Number.isInteger(ptr.byteOffset) || ptr.byteOffset < 0 || ptr.byteOffset % 16 !== 0) {
      throw new RangeError(`setDataPtr(): byteOffset must be a non-negative multiple of 16, got ${ptr.byteOffset}`);
    }
    this.arrays = new BufferArrays(buffer, 0, -1, source);
    this.byteOffset = ptr.byteOffset;
    this.handle = ptr.handle ?? 0;
  }

  /**
   * Points this storage at device memory the CPU cannot address (what a GPU allocator's `allocate` does):
   * `context` is the allocator's object for it (a GPUBuffer and its offset), read back by its kernels as
   * `storage.deviceContext`. See Note [Device memory in a Storage].
   */
  setDeviceContext(context: unknown, handle = 0): void {
    if (context === null || context === undefined) throw new TypeError('setDeviceContext(): context must not be null');
    this.arrays = null;
    this.byteOffset = 0;
    this.deviceContext = context;
    this.handle = handle;
  }

  /** This storage's allocation as a DataPtr; null for meta storage and after free. */
  get dataPtr(): DataPtr | null {
    const arrays = this.arrays;
    if (arrays === null) return null;
    return { memory: arrays.source ?? arrays.buffer, byteOffset: arrays.windowOffset + this.byteOffset, handle: this.handle };
  }

  /** The buffer holding the bytes (shared with other storages); null for meta storage and after free. */
  get buffer(): ArrayBufferLike | null {
    return this.arrays === null ? null : this.arrays.buffer;
  }

  /**
   * A typed array for `dtype` holding this storage from `arrayOffset(dtype)` on (Note [One view per storage]).
   * Throws for meta storage.
   */
  data(dtype: ScalarType): StorageArray {
    const arrays = this.arrays;
    if (arrays !== null) return arrays.get(storageArrayInfo(dtype).ctor);
    if (this.deviceContext !== null) {
      throw new Error(
        this.allocator.hostAccessError?.(this) ??
          `the data of a ${this.device.toString()} tensor is device memory the CPU cannot read; copy it to the CPU first`,
      );
    }
    if (this.freed) throw new Error("this tensor's storage was freed (dispose()); its data can no longer be read or written");
    throw new Error(
      "Cannot access data pointer of Tensor that doesn't have storage (a meta tensor has sizes, strides and a dtype but no data)",
    );
  }

  /** Index, in `data(dtype)`, of this storage's first element (first lane for complex dtypes). */
  arrayOffset(dtype: ScalarType): number {
    const { lanes } = storageArrayInfo(dtype);
    return (this.byteOffset * lanes) / elementSize(dtype);
  }

  /**
   * Grows the storage to `nbytes`, keeping its contents (resize_ of a tensor that outgrows its storage); the
   * old block goes back to its allocator at once (Note [Storage lifetime]).
   */
  resize(nbytes: number): void {
    if (nbytes <= this.nbytes) return;
    if (this.deviceContext !== null) {
      if (this.allocator.reallocate === undefined) throw new Error(`cannot resize the storage of a ${this.device.toString()} tensor`);
      this.allocator.reallocate(this, nbytes);
      this.nbytes = nbytes;
      return;
    }
    const old = new Storage(0, metaAllocator);
    [old.arrays, old.byteOffset, old.handle, old.nbytes] = [this.arrays, this.byteOffset, this.handle, this.nbytes];
    this.allocator.allocate(nbytes, this);
    // Read both through `arrays` only now: the allocation may have replaced a growing memory's buffer.
    if (old.arrays !== null && this.arrays !== null) {
      const from = old.arrays.get(Uint8Array) as Uint8Array;
      (this.arrays.get(Uint8Array) as Uint8Array).set(from.subarray(old.byteOffset, old.byteOffset + old.nbytes), this.byteOffset);
    }
    this.nbytes = nbytes;
    if (old.arrays !== null) this.allocator.free(old);
  }

  /** Releases the memory now (Tensor.dispose()); later access throws. Freeing twice does nothing. */
  free(): void {
    if (this.arrays === null && this.deviceContext === null) return;
    this.allocator.free(this);
    this.arrays = null;
    this.deviceContext = null;
    this.freed = true;
  }
}

// Note [Device memory in a Storage]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// c10::DataPtr is a pointer plus a context the allocator owns; for CUDA or MPS the pointer is device memory the
// CPU cannot dereference. Here host memory is `arrays` (typed arrays over a buffer) and device memory is
// `deviceContext`, an object only the device's allocator and kernels understand (src/webgpu keeps a GPUBuffer
// there). A device storage has no arrays: every host access (`data()`, hence `tolist()`, `item()`, the CPU
// kernels) raises the allocator's `hostAccessError`, and the device's own kernels (`copy_` to and from the CPU
// first of all) move the bytes. Printing shows such a tensor as a meta tensor prints (`...` and its size).

// Note [Storage over a caller's buffer]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// `torch.frombuffer` / `torch.from(typedArray)` share the caller's memory, as PyTorch's frombuffer shares a
// Python buffer: the storage's arrays are views of the caller's ArrayBuffer (or SharedArrayBuffer) at its
// byte offset, so writes through either side are seen by the other. Such storage is JS-heap memory, so the
// WebAssembly SIMD kernels do not run on it (its operations take the JS loops; `x.clone()` moves it into
// linear memory). Growing it (an out= resize past its bytes) moves it to memory of its own, as resizing a
// PyTorch tensor over a foreign buffer reallocates; freeing it (`dispose()`, `scope()`) only drops the views.

/** A CPU storage over `nbytes` bytes of `buffer` from `byteOffset` on (Note [Storage over a caller's buffer]). */
export function storageOverBuffer(buffer: ArrayBufferLike, byteOffset: number, nbytes: number): Storage {
  let borrowed = true;
  const allocator: Allocator = {
    device: CPU,
    allocate(n: number, into: Storage): void {
      if (borrowed) {
        borrowed = false;
        into.arrays = new BufferArrays(buffer);
        into.byteOffset = byteOffset;
        into.handle = 0;
        return;
      }
      allocateInJsHeap(n, into);
    },
    free: releaseJsHeap,
  };
  return new Storage(nbytes, allocator);
}
