// The device's memory: one WebAssembly.Memory of its own (not aten-ts's linear memory), handed out in
// 16-byte-aligned blocks with a first-fit free list. Written only against the published API ('aten-ts'):
// an Allocator fills a Storage with a DataPtr, as c10::Allocator::allocate returns one.
import { Device, DeviceType, type Allocator, type Storage } from 'aten-ts';

const PAGE = 64 * 1024;

/** The part of WebAssembly.Memory used here (typed locally: the examples compile without the DOM lib). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
const { Memory } = (globalThis as unknown as { WebAssembly: { Memory: new (d: { initial: number }) => WasmMemory } }).WebAssembly;

/** Memory for `mydev:0`: allocation counts and bytes in use are visible to tests. */
export class DeviceMemoryAllocator implements Allocator {
  readonly device = new Device(DeviceType.PrivateUse1, 0);
  readonly memory: WasmMemory;
  /** Free blocks as [offset, bytes], sorted by offset. */
  private readonly freeBlocks: [number, number][] = [];
  private top = 16; // offset 0 stays unused, so a handle is never 0
  private readonly sizes = new Map<number, number>();
  /** One token per live block, so a block is freed once: by `free` (dispose) or by the garbage collector. */
  private readonly tokens = new Map<number, object>();
  private readonly registry = new FinalizationRegistry<number>((handle) => this.release(handle));
  allocations = 0;
  bytesInUse = 0;

  constructor(initialPages = 4) {
    this.memory = new Memory({ initial: initialPages });
  }

  allocate(nbytes: number, into: Storage): void {
    const size = Math.max(16, (nbytes + 15) & ~15);
    let offset = -1;
    const i = this.freeBlocks.findIndex(([, bytes]) => bytes >= size);
    if (i >= 0) {
      const [at, bytes] = this.freeBlocks[i]!;
      offset = at;
      if (bytes === size) this.freeBlocks.splice(i, 1);
      else this.freeBlocks[i] = [at + size, bytes - size];
    } else {
      offset = this.top;
      this.top += size;
      const need = Math.ceil(this.top / PAGE) - this.memory.buffer.byteLength / PAGE;
      if (need > 0) this.memory.grow(need); // the storages' typed arrays follow the new buffer
    }
    new Uint8Array(this.memory.buffer, offset, size).fill(0);
    into.setDataPtr({ memory: this.memory, byteOffset: offset, handle: offset });
    const token = {};
    this.registry.register(into, offset, token);
    this.tokens.set(offset, token);
    this.sizes.set(offset, size);
    this.allocations++;
    this.bytesInUse += size;
  }

  free(storage: Storage): void {
    const token = this.tokens.get(storage.handle);
    if (token === undefined) return;
    this.registry.unregister(token);
    this.release(storage.handle);
  }

  private release(handle: number): void {
    const size = this.sizes.get(handle);
    if (size === undefined) return;
    this.sizes.delete(handle);
    this.tokens.delete(handle);
    this.bytesInUse -= size;
    this.freeBlocks.push([handle, size]);
    this.freeBlocks.sort((a, b) => a[0] - b[0]);
    // Coalesce neighbours.
    for (let k = this.freeBlocks.length - 1; k > 0; k--) {
      const prev = this.freeBlocks[k - 1]!;
      const cur = this.freeBlocks[k]!;
      if (prev[0] + prev[1] === cur[0]) {
        prev[1] += cur[1];
        this.freeBlocks.splice(k, 1);
      }
    }
  }
}
