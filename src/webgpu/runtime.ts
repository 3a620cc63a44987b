// The webgpu device's runtime: one GPUDevice, the open command encoder every kernel encodes into, the cache of
// compute pipelines, and the caching allocator of GPU buffers. PyTorch's counterparts are MPSStream
// (aten/src/ATen/mps/MPSStream.mm: one command buffer, committed on demand), MPSAllocator (size buckets,
// buffers reused only after the command buffers that used them complete) and the MPS kernels' cached graphs.
import { Device, DeviceType, type Allocator, type Storage } from 'aten-ts';
import { BufferUsage, MAP_READ, type GPUAdapterLike, type GPUBufferLike, type GPUComputePipelineLike, type GPUDeviceLike } from './gpu.js';

/** What a webgpu storage keeps in `storage.deviceContext` (See Note [Device memory in a Storage]). */
export interface GpuBlock {
  readonly buffer: GPUBufferLike;
  /** The bucket size the buffer was made with (its `size`). */
  readonly bytes: number;
}

const STORAGE_USAGE = BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST;

/** Flush the open encoder after this many dispatches (Note [One open command encoder]). */
const MAX_DISPATCHES = 64;
/** Flush the open encoder once this many bytes of parameters, uploads and bind groups were written since the last submit. */
const MAX_ENCODED_BYTES = 16 * 1024 * 1024;
/** Compiled pipelines kept (least recently used evicted first: Note [A bounded pipeline cache]). */
const MAX_PIPELINES = 1024;
/** What a bind group entry is counted as toward MAX_ENCODED_BYTES (a binding's descriptor, roughly). */
const BIND_ENTRY_BYTES = 32;
/** Flush when buffers freed since the last completed submit hold this many bytes (memory pressure). */
const MAX_PENDING_BYTES = 256 * 1024 * 1024;

/**
 * The bucket a request of `nbytes` is served from: powers of two up to 1 MiB (256 bytes at least), then
 * steps of an eighth of the power of two above (at most 12.5% waste), as MPSAllocator's size classes.
 */
export function bucketSize(nbytes: number): number {
  const n = Math.max(256, Math.ceil(nbytes / 4) * 4);
  if (n <= 1 << 20) return 2 ** Math.ceil(Math.log2(n));
  const step = 2 ** (Math.ceil(Math.log2(n)) - 3);
  return Math.ceil(n / step) * step;
}

// Note [One open command encoder]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Every kernel encodes its dispatch into one open GPUCommandEncoder (one compute pass per dispatch, so that
// copies can sit between them); nothing is submitted per operator. The encoder is submitted (a "flush") when
// the host needs results (a readback, `synchronize()`), after MAX_DISPATCHES dispatches (so the GPU starts
// working while the host keeps encoding), once MAX_ENCODED_BYTES were written for it (kernel parameters,
// uploads, bind group entries: a few large uploads or many small operators must not pile up on the queue
// unsubmitted), and when freed buffers waiting on unsubmitted work hold more than MAX_PENDING_BYTES (memory
// pressure). `set_submit_limits` changes the first two (tuning, tests). `queue.writeBuffer` (uploads, kernel parameters) runs on the queue's
// timeline, before any later submit: a buffer written that way must not be read by work already encoded for
// other data, which is why the allocator never reuses a buffer before the work that used it has completed
// (Note [Buffers freed after the work]).

// Note [Buffers freed after the work]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A storage dies (its tensor is garbage collected, or `dispose()`) while the GPU may still read its buffer in
// encoded or submitted work. Its buffer goes to `pending` tagged with the submit that will be the last to use
// it (the open encoder's, if any dispatch is encoded); when `queue.onSubmittedWorkDone()` for that submit
// resolves, the buffer returns to the free list of its bucket and may be handed out again. Buffers are
// destroyed only by `empty_cache()` (free lists) and when the device is destroyed: no GPU allocation per
// operator once the training loop's sizes have been seen.

// Note [Host jobs]
// ~~~~~~~~~~~~~~~~
// The CPU fallback (Note [The webgpu CPU fallback]) must run an operator on the CPU with the values of device
// tensors, which reach the host only asynchronously, while the caller has already received the results and
// goes on issuing work that may read them. A host job keeps the stream's order: it submits copies of its
// inputs (so it sees exactly the work issued before it), then closes a gate; GPU work issued while the gate
// is closed (dispatches, buffer copies, queue writes, buffer releases, later jobs) is held, in order, not
// encoded. When the inputs arrive, the job's synchronous part runs with the gate bypassed (it computes on
// the CPU and uploads into the result buffers), then the gate opens and the held work is issued in order;
// a held job closes the gate again and the rest stays held. Reads and `synchronize()` wait for the gate, so
// they see the results. Releases are held too, so a buffer that held work still reads never reaches a free
// list early (Note [Buffers freed after the work]). A job's error cannot reach the operator that queued it:
// it is raised by the next read or `synchronize()`, as CUDA reports asynchronous errors.

// Note [A bounded pipeline cache]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Pipelines are keyed by what their WGSL depends on (operator, dtypes, rank, operand pattern), never by sizes,
// so a training loop compiles a few dozen. Keys still grow with the programs a process runs (every rank and
// broadcast pattern of every operator), so the cache holds at most MAX_PIPELINES: a Map in recency order (a hit
// moves its key to the end), the least recently used evicted past the cap and counted in
// `stats.pipelinesEvicted`. An evicted pipeline still referenced by encoded work stays alive until that work
// is done (the command buffer holds it); a later use compiles it again.

/** The webgpu runtime: device, submission, pipelines and memory. One per process (`torch.webgpu.init()`). */
export class WebGPURuntime implements Allocator {
  readonly device = new Device(DeviceType.PrivateUse1, 0);
  private encoder: ReturnType<GPUDeviceLike['createCommandEncoder']> | null = null;
  private dispatches = 0;
  private encodedBytes = 0;
  /** Optional WebGPU features the device was opened with; `shaderF16` can be turned off (See Note [float16 on the webgpu device]). */
  readonly features = { shaderF16: false };
  /** The submission and cache limits (Note [One open command encoder], Note [A bounded pipeline cache]). */
  readonly limits = { dispatches: MAX_DISPATCHES, encodedBytes: MAX_ENCODED_BYTES, pipelines: MAX_PIPELINES };
  /** Submits made, and the last one known complete. */
  private submitted = 0;
  private completed = 0;
  private readonly freeLists = new Map<number, GPUBufferLike[]>();
  private readonly pending: { block: GpuBlock; after: number }[] = [];
  private pendingBytes = 0;
  private readonly pipelines = new Map<string, GPUComputePipelineLike>();
  private readonly registry = new FinalizationRegistry<GpuBlock>((block) => this.release(block));
  private readonly tokens = new WeakMap<Storage, object>();
  /** Bytes held by live storages (their buckets), and by every buffer this runtime made and has not destroyed. */
  allocatedBytes = 0;
  reservedBytes = 0;
  /** Counters for tests and benchmarks. */
  readonly stats = {
    submits: 0,
    dispatches: 0,
    vec4Dispatches: 0,
    /** Submits made because MAX_ENCODED_BYTES were written. */
    byteFlushes: 0,
    pipelinesCompiled: 0,
    pipelinesEvicted: 0,
    buffersCreated: 0,
    hostJobs: 0,
  };
  /** While a host job runs: the GPU work issued meanwhile, replayed in order after it (Note [Host jobs]). */
  private gate: Promise<void> | null = null;
  private openGate: () => void = () => undefined;
  private held: (() => void)[] = [];
  /** True while a host job's own synchronous part runs: its work goes straight to the GPU. */
  private direct = false;
  /** The first error a host job raised, given to the next read or synchronize (as CUDA's asynchronous errors). */
  private asyncError: unknown = null;

  constructor(
    readonly gpu: GPUDeviceLike,
    readonly adapter: GPUAdapterLike,
  ) {}

  // ---- Allocator ----

  allocate(nbytes: number, into: Storage): void {
    const block = this.acquire(nbytes);
    into.setDeviceContext(block);
    const token = {};
    this.registry.register(into, block, token);
    this.tokens.set(into, token);
    this.allocatedBytes += block.bytes;
  }

  free(storage: Storage): void {
    const token = this.tokens.get(storage);
    if (token === undefined) return;
    this.tokens.delete(storage);
    this.registry.unregister(token);
    this.release(storage.deviceContext as GpuBlock);
  }

  reallocate(storage: Storage, nbytes: number): void {
    const old = storage.deviceContext as GpuBlock;
    const token = this.tokens.get(storage);
    if (token !== undefined) this.registry.unregister(token);
    this.allocate(nbytes, storage);
    this.copyBuffer(old.buffer, 0, (storage.deviceContext as GpuBlock).buffer, 0, Math.min(old.bytes, storage.nbytes));
    this.release(old);
  }

  hostAccessError(storage: Storage): string {
    return (
      `a ${storage.device.toString()} tensor cannot be read synchronously: the GPU returns data asynchronously. ` +
      'Use the awaitable twin: await x.cpu_async(), await x.item_async(), await x.tolist_async() ' +
      '(See Note [Reading webgpu tensors])'
    );
  }

  /** A buffer of at least `nbytes` from its bucket's free list, or a new one. */
  acquire(nbytes: number): GpuBlock {
    const bytes = bucketSize(nbytes);
    const list = this.freeLists.get(bytes);
    const reused = list?.pop();
    if (reused !== undefined) return { buffer: reused, bytes };
    if (bytes > this.gpu.limits.maxStorageBufferBindingSize) {
      throw new Error(
        `webgpu: cannot allocate ${nbytes} bytes: the adapter binds at most ${this.gpu.limits.maxStorageBufferBindingSize} bytes per buffer`,
      );
    }
    this.stats.buffersCreated++;
    this.reservedBytes += bytes;
    return { buffer: this.gpu.createBuffer({ size: bytes, usage: STORAGE_USAGE }), bytes };
  }

  /** Gives a block back once the work using it has completed (Note [Buffers freed after the work]). */
  release(block: GpuBlock, live = true): void {
    if (live) this.allocatedBytes -= block.bytes;
    if (this.holding()) {
      this.held.push(() => this.release(block, false));
      return;
    }
    const after = this.encoder !== null ? this.submitted + 1 : this.submitted;
    if (after <= this.completed) {
      this.toFreeList(block);
      return;
    }
    this.pending.push({ block, after });
    this.pendingBytes += block.bytes;
    if (this.pendingBytes > MAX_PENDING_BYTES) this.flush();
  }

  private toFreeList(block: GpuBlock): void {
    let list = this.freeLists.get(block.bytes);
    if (list === undefined) this.freeLists.set(block.bytes, (list = []));
    list.push(block.buffer);
  }

  /** Writes `data` at the start of `buffer` (padded to 4 bytes), on the queue's timeline. */
  write(buffer: GPUBufferLike, data: Uint8Array): void {
    if (this.holding()) {
      const copy = data.slice();
      this.held.push(() => this.write(buffer, copy));
      return;
    }
    // Only a buffer of its own goes to writeBuffer: Dawn refuses a SharedArrayBuffer and crashes on the
    // ArrayBuffer of a WebAssembly.Memory (CPU tensors live in linear memory), so views of those are copied.
    if (
      data.byteLength % 4 === 0 &&
      data.buffer instanceof ArrayBuffer &&
      data.byteOffset === 0 &&
      data.buffer.byteLength === data.byteLength
    ) {
      this.gpu.queue.writeBuffer(buffer, 0, data.buffer, data.byteOffset, data.byteLength);
      this.encodedBytes += data.byteLength;
      return;
    }
    const padded = new Uint8Array(Math.ceil(data.byteLength / 4) * 4);
    padded.set(data);
    this.gpu.queue.writeBuffer(buffer, 0, padded.buffer, 0, padded.byteLength);
    this.encodedBytes += padded.byteLength;
  }

  /** Counts `bytes` written for the open encoder's work; flushes past the limit (Note [One open command encoder]). */
  private wrote(bytes: number): void {
    this.encodedBytes += bytes;
    if (this.encodedBytes >= this.limits.encodedBytes && this.encoder !== null) {
      this.stats.byteFlushes++;
      this.flush();
    }
  }

  /** A block for a kernel's parameters or a temporary, released after the open encoder's work. */
  scratch(data: ArrayBufferView): GpuBlock {
    const block = this.acquire(data.byteLength);
    this.write(block.buffer, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    this.encode(); // the block is used by the open encoder
    this.release(block, false);
    return block;
  }

  /** `empty_cache()`: destroys the buffers of the free lists. */
  emptyCache(): void {
    for (const [bytes, list] of this.freeLists) {
      for (const b of list) b.destroy();
      this.reservedBytes -= bytes * list.length;
    }
    this.freeLists.clear();
  }

  // ---- Submission (Note [One open command encoder]) ----

  /** The open command encoder (opened on first use). */
  encode(): ReturnType<GPUDeviceLike['createCommandEncoder']> {
    return (this.encoder ??= this.gpu.createCommandEncoder());
  }

  /** Encodes one dispatch of `pipeline` over `buffers` (bound at 0, 1, ... in order). */
  dispatch(pipeline: GPUComputePipelineLike, buffers: readonly GPUBufferLike[], groups: number): void {
    if (this.holding()) {
      this.held.push(() => this.dispatch(pipeline, buffers, groups));
      return;
    }
    const limit = this.gpu.limits.maxComputeWorkgroupsPerDimension;
    const x = Math.min(groups, limit);
    const y = Math.ceil(groups / x);
    const bindGroup = this.gpu.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: buffers.map((buffer, binding) => ({ binding, resource: { buffer } })),
    });
    const pass = this.encode().beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bindGroup);
    if (groups > 0) pass.dispatchWorkgroups(x, y);
    pass.end();
    this.stats.dispatches++;
    if (++this.dispatches >= this.limits.dispatches) this.flush();
    else this.wrote(buffers.length * BIND_ENTRY_BYTES);
  }

  copyBuffer(src: GPUBufferLike, srcOffset: number, dst: GPUBufferLike, dstOffset: number, bytes: number): void {
    if (this.holding()) {
      this.held.push(() => this.copyBuffer(src, srcOffset, dst, dstOffset, bytes));
      return;
    }
    if (bytes > 0) this.encode().copyBufferToBuffer(src, srcOffset, dst, dstOffset, bytes);
    this.wrote(0);
  }

  /** Submits the open encoder, if any; its buffers free themselves when the GPU is done with it. */
  flush(): void {
    if (this.holding()) return; // the job flushes before it holds, and the replay's encoder is flushed later
    const encoder = this.encoder;
    if (encoder === null) return;
    this.encoder = null;
    this.dispatches = 0;
    this.encodedBytes = 0;
    this.gpu.queue.submit([encoder.finish()]);
    this.stats.submits++;
    const index = ++this.submitted;
    void this.gpu.queue.onSubmittedWorkDone().then(() => this.completeUpTo(index));
  }

  private completeUpTo(index: number): void {
    if (index <= this.completed) return;
    this.completed = index;
    let kept = 0;
    for (const p of this.pending) {
      if (p.after <= index) {
        this.toFreeList(p.block);
        this.pendingBytes -= p.block.bytes;
      } else this.pending[kept++] = p;
    }
    this.pending.length = kept;
  }

  /** `torch.webgpu.synchronize()`: submits and waits for every piece of work so far. */
  async synchronize(): Promise<void> {
    await this.settled();
    this.flush();
    const index = this.submitted;
    await this.gpu.queue.onSubmittedWorkDone();
    this.completeUpTo(index);
  }

  /** Reads `bytes` bytes of `buffer` from `offset` (a multiple of 4): flush, copy to a mappable buffer, map. */
  async read(buffer: GPUBufferLike, offset: number, bytes: number): Promise<ArrayBuffer> {
    await this.settled();
    return this.readNow(buffer, offset, bytes);
  }

  /** {@link read} without waiting for host jobs: the copy is encoded and submitted before the first await. */
  private async readNow(buffer: GPUBufferLike, offset: number, bytes: number): Promise<ArrayBuffer> {
    const size = Math.max(4, Math.ceil(bytes / 4) * 4);
    const staging = this.gpu.createBuffer({ size, usage: MAP_READ | BufferUsage.COPY_DST });
    this.encode().copyBufferToBuffer(buffer, offset, staging, 0, size);
    this.flush();
    try {
      await staging.mapAsync(MAP_READ);
      return staging.getMappedRange().slice(0, bytes);
    } finally {
      staging.destroy();
    }
  }

  // ---- Host jobs (Note [Host jobs]) ----

  private holding(): boolean {
    return this.gate !== null && !this.direct;
  }

  /** Waits until no host job is running, then raises the first error a job raised, if any. */
  private async settled(): Promise<void> {
    while (this.gate !== null) await this.gate;
    if (this.asyncError !== null) {
      const e = this.asyncError;
      this.asyncError = null;
      throw e;
    }
  }

  /**
   * Runs `job` on the host at its place in the GPU's stream of work: it starts once the work issued before it
   * (including earlier jobs) is encoded, reads `inputs` (byte ranges of device buffers), and its synchronous
   * `finish(bytes)` may issue GPU work (uploads) that goes before everything issued after the job.
   */
  hostJob(inputs: readonly { buffer: GPUBufferLike; offset: number; bytes: number }[], finish: (bytes: ArrayBuffer[]) => void): void {
    if (this.holding()) {
      this.held.push(() => this.hostJob(inputs, finish));
      return;
    }
    this.stats.hostJobs++;
    const reads = Promise.all(inputs.map((r) => this.readNow(r.buffer, r.offset, r.bytes)));
    this.gate = new Promise<void>((resolve) => (this.openGate = resolve));
    void reads
      .then(
        (bytes) => {
          this.direct = true;
          try {
            finish(bytes);
          } finally {
            this.direct = false;
          }
        },
        (e: unknown) => {
          throw e;
        },
      )
      .catch((e: unknown) => {
        this.asyncError ??= e;
      })
      .finally(() => this.replay());
  }

  /** Opens the gate and issues the held work in order; a held job closes it again and keeps the rest held. */
  private replay(): void {
    const open = this.openGate;
    this.gate = null;
    const held = this.held;
    this.held = [];
    for (let i = 0; i < held.length; i++) {
      if (this.gate !== null) {
        this.held.push(...held.slice(i));
        break;
      }
      held[i]!();
    }
    open();
  }

  // ---- Pipelines ----

  /** The compute pipeline of `key`, compiled from `source()` the first time (entry point `main`). */
  pipeline(key: string, source: () => string): GPUComputePipelineLike {
    let p = this.pipelines.get(key);
    if (p !== undefined) {
      // Most recently used last (Note [A bounded pipeline cache]).
      this.pipelines.delete(key);
      this.pipelines.set(key, p);
      return p;
    }
    const module = this.gpu.createShaderModule({ code: source(), label: key });
    p = this.gpu.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' }, label: key });
    this.pipelines.set(key, p);
    this.stats.pipelinesCompiled++;
    for (const oldest of this.pipelines.keys()) {
      if (this.pipelines.size <= Math.max(1, this.limits.pipelines)) break;
      this.pipelines.delete(oldest);
      this.stats.pipelinesEvicted++;
    }
    return p;
  }

  get pipelineCount(): number {
    return this.pipelines.size;
  }
}
