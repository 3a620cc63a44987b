// aten-ts/webgpu: the `webgpu` device, an out-of-tree backend registered at PrivateUse1 through the public API
// (rename_privateuse1_backend, setAllocator, torch.library), as PyTorch's MPS backend sits on Metal. Loading
// this module registers nothing; `await init()` does. See README.md in this folder. No single PyTorch
// counterpart: torch/mps/__init__.py (the device module) plus aten/src/ATen/mps (the runtime).
import { DeviceType, Tensor, setAllocator, torch } from 'aten-ts';

type NestedList = ReturnType<Tensor['tolist']>;
import type { GPUDeviceLike, GPULike } from './gpu.js';
import { webgpuKernels } from './ops.js';
import { WebGPURuntime, type GpuBlock } from './runtime.js';
import { fallback_enabled, set_fallback, webgpuFallback } from './fallback.js';
import { WebGPUGenerator } from './kernels/Distributions.js';

export type { GPULike, GPUAdapterLike, GPUDeviceLike } from './gpu.js';
export { bucketSize } from './runtime.js';
export { fallback_enabled, set_fallback } from './fallback.js';

/** Options of {@link init}. */
export interface WebGPUInitOptions {
  /** The WebGPU entry point: `navigator.gpu` by default; in Node, `create([])` of the npm package `webgpu`. */
  readonly gpu?: GPULike;
  /** Passed to requestAdapter (e.g. `'high-performance'`). */
  readonly powerPreference?: 'low-power' | 'high-performance';
  /**
   * Run operators the device has no kernel for on the CPU, with a one-time warning per operator, instead of
   * raising (`torch.webgpu.set_fallback(true)` later does the same; a browser has no environment variables for
   * PYTORCH_ENABLE_MPS_FALLBACK). Default false. See Note [The webgpu CPU fallback].
   */
  readonly fallback?: boolean;
}

/** What {@link init} resolves to: the adapter that serves the device. */
export interface WebGPUInfo {
  readonly vendor: string;
  readonly architecture: string;
  readonly description: string;
  /** Whether the adapter has (and the device was opened with) 'shader-f16': float16 kernels (Note [float16 on the webgpu device]). */
  readonly shaderF16: boolean;
}

let runtime: WebGPURuntime | null = null;
/** The entry point `init` opened the device from, held while the device lives (Note [Holding the WebGPU entry point]). */
const held: { entry: GPULike | null } = { entry: null };
/** The device's default generator (Note [The webgpu generator]). */
const generator = new WebGPUGenerator();
let initializing: Promise<WebGPUInfo> | null = null;
/** Set by {@link destroy}: the device cannot be opened again in this process. */
let destroyed = false;

function rt(): WebGPURuntime {
  if (runtime === null) throw new Error('the webgpu device is not initialised: call `await torch.webgpu.init()` (aten-ts/webgpu) first');
  return runtime;
}

// Note [Reading webgpu tensors]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A GPU buffer reaches the CPU only through `mapAsync`: in a browser's main thread there is no way to wait for
// it synchronously. aten-ts's `x.item()`, `x.tolist()`, `x.cpu()` / `x.to('cpu')` and the CPU kernels are
// synchronous, as PyTorch's are. Alternatives considered:
// - a host shadow of every device tensor, updated by mapping after each operator: a GPU-to-CPU round trip per
//   operator, the stall the device exists to avoid;
// - blocking with Atomics.wait while a worker maps the buffer: needs the device in a worker, cross-origin
//   isolation, and still forbids waiting on the main thread;
// - making every operator return a Promise: a different library from PyTorch's, and slow;
// - returning stale or placeholder values: silently wrong.
// Decided: every synchronous read of a webgpu tensor raises an error that names its awaitable twin, and each
// synchronising call has one: `await x.cpu_async()` (a CPU copy, detached from autograd), `await
// x.item_async()`, `await x.tolist_async()`, `await torch.webgpu.synchronize()`. Printing does not read: a webgpu
// tensor prints as a meta tensor does, `tensor(..., device='webgpu:0', size=(2, 3))` (Note [Device memory in a
// Storage]); print `await x.cpu_async()` for values. A read flushes the open encoder (Note [One open command
// encoder]) and waits only for the work before it, so a loop that reads its loss every N steps keeps encoding
// the following steps meanwhile. For the same reason cpu_fallback cannot serve webgpu tensors as it is (its
// copies to the CPU are synchronous): the device's opt-in fallback runs it as a host job (See Note [The webgpu
// CPU fallback]).

/** `await x.cpu_async()`: a contiguous CPU copy of a webgpu tensor (the awaitable `x.cpu()`); not differentiable. */
export async function cpuAsync(x: Tensor): Promise<Tensor> {
  if (x.device.type !== DeviceType.PrivateUse1) return x.cpu();
  const r = rt();
  const c = torch.no_grad(() => x.contiguous());
  const item = c.element_size();
  const out = torch.empty([...c.sizes], { dtype: c.dtype });
  if (c.numel() === 0) return out;
  // A buffer copy starts at a multiple of 4 bytes: a bool view at another offset reads from the word before.
  const start = c.storageOffset * item;
  const skip = start % 4;
  const bytes = await r.read((c.storage.deviceContext as GpuBlock).buffer, start - skip, c.numel() * item + skip);
  const { data, base } = out.dataView();
  new Uint8Array(data.buffer, data.byteOffset + base * data.BYTES_PER_ELEMENT, bytes.byteLength - skip).set(new Uint8Array(bytes, skip));
  return out;
}

/**
 * `await torch.webgpu.init()`: finds an adapter, opens a device and registers it as the `webgpu` device (the
 * PrivateUse1 name, allocator, kernels, `x.webgpu()`, `x.is_webgpu`, the awaitable reads). Once per process;
 * later calls resolve to the same adapter. Rejects if WebGPU or an adapter is missing.
 */
export function init(options: WebGPUInitOptions = {}): Promise<WebGPUInfo> {
  if (destroyed)
    return Promise.reject(
      new Error('the webgpu device was destroyed (torch.webgpu.destroy()); it cannot be initialised again in this process'),
    );
  initializing ??= initOnce(options).catch((e: unknown) => {
    initializing = null;
    throw e;
  });
  return initializing;
}

// Note [Holding the WebGPU entry point]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// In Node the npm package `webgpu` (Dawn) keeps its native instance only as long as the object `create([])`
// returned is reachable (its README, "Lifetime"); adapters and devices do not hold it. A caller writing
// `init({ gpu: create([]) })` drops that object at once, so the next garbage collection destroyed Dawn's
// instance under a live device, and the process died natively a little later, at a random point: `terminate
// called after throwing an instance of 'std::system_error' what(): Invalid argument`, "The futex facility
// returned an unexpected error code", or a segfault. More collections meant earlier deaths, which is why the
// crash looked tied to vitest's pools, ATEN_TS_THREADS=1 or test/setup.ts (their allocations and the Node
// entry's synchronous reclaimer collect more), while a short script without them passed. So `init` holds the
// entry point (`held.entry`) for as long as the device is open, as a browser's `navigator.gpu` is held. Holding it
// does not keep Node alive: with no work in flight the process exits by itself. `destroy()` releases both
// (the device's buffers, the device, the entry point) for a program that wants the native resources back
// before it ends.

async function initOnce(options: WebGPUInitOptions): Promise<WebGPUInfo> {
  if (options.fallback !== undefined) set_fallback(options.fallback);
  const gpu = options.gpu ?? (globalThis as { navigator?: { gpu?: GPULike } }).navigator?.gpu;
  if (gpu === undefined) {
    throw new Error('WebGPU is not available here: no navigator.gpu (in Node, pass `gpu: create([])` from the npm package `webgpu`)');
  }
  const adapter = await gpu.requestAdapter(options.powerPreference === undefined ? {} : { powerPreference: options.powerPreference });
  if (adapter === null) throw new Error('WebGPU is available but no adapter was found (requestAdapter() returned null)');
  // float16 kernels need 'shader-f16' (See Note [float16 on the webgpu device]).
  const shaderF16 = adapter.features.has('shader-f16');
  const device = await adapter.requestDevice({
    ...(shaderF16 ? { requiredFeatures: ['shader-f16'] } : {}),
    requiredLimits: {
      maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
      maxBufferSize: adapter.limits.maxBufferSize,
    },
  });
  const r = new WebGPURuntime(device, adapter);
  r.features.shaderF16 = shaderF16;
  torch.utils.rename_privateuse1_backend('webgpu');
  setAllocator(DeviceType.PrivateUse1, r);
  const lib = new torch.library.Library('aten', 'IMPL', 'PrivateUse1');
  for (const [name, kernel] of webgpuKernels(r, generator)) lib.impl(name, kernel as never);
  const fallback = new torch.library.Library('_', 'IMPL', 'PrivateUse1');
  fallback.fallback(((op: torch.library.OpOverload, ...args: unknown[]) => webgpuFallback(r, op, args)) as never);
  torch._register_device_module('webgpu', webgpu);
  torch.utils.generate_methods_for_privateuse1_backend();
  defineReads();
  runtime = r;
  held.entry = gpu;
  const info = adapter.info ?? {};
  return { vendor: info.vendor ?? '', architecture: info.architecture ?? '', description: info.description ?? '', shaderF16 };
}

function defineReads(): void {
  const proto = Tensor.prototype as unknown as Record<string, unknown>;
  const methods: Record<string, (this: Tensor) => Promise<unknown>> = {
    cpu_async(this: Tensor) {
      return cpuAsync(this);
    },
    async item_async(this: Tensor) {
      return (await cpuAsync(this)).item();
    },
    async tolist_async(this: Tensor) {
      return (await cpuAsync(this)).tolist();
    },
  };
  for (const [name, fn] of Object.entries(methods)) Object.defineProperty(proto, name, { value: fn, writable: true, configurable: true });
}

// TypeScript learns about the generated and added members through a declaration merge.
declare module 'aten-ts' {
  interface Tensor {
    /** `x.webgpu()`: a copy on the webgpu device (after `torch.webgpu.init()`). */
    webgpu(device?: number | string | null): Tensor;
    /** Whether the tensor lives on the webgpu device. */
    readonly is_webgpu: boolean;
    /** The awaitable `x.cpu()` (Note [Reading webgpu tensors]). */
    cpu_async(): Promise<Tensor>;
    /** The awaitable `x.item()`. */
    item_async(): Promise<number | boolean>;
    /** The awaitable `x.tolist()`. */
    tolist_async(): Promise<NestedList>;
  }
}

/** `torch.webgpu.is_available()`: whether `init()` has opened a device. */
export function is_available(): boolean {
  return runtime !== null;
}

/** `await torch.webgpu.synchronize()`: submits the open encoder and waits for all work so far. */
export function synchronize(): Promise<void> {
  return rt().synchronize();
}

/** Bytes held by live webgpu tensors (their size buckets), as `torch.mps.current_allocated_memory()`. */
export function memory_allocated(): number {
  return runtime?.allocatedBytes ?? 0;
}

/** Bytes of every GPU buffer the allocator holds (live, cached and waiting on work), as `driver_allocated_memory()`. */
export function memory_reserved(): number {
  return runtime?.reservedBytes ?? 0;
}

/** `torch.webgpu.empty_cache()`: destroys the cached free buffers. */
export function empty_cache(): void {
  runtime?.emptyCache();
}

/**
 * `await torch.webgpu.destroy()`: waits for the device's work, destroys its buffers and the GPUDevice, and drops
 * the WebGPU entry point `init` held (Note [Holding the WebGPU entry point]). Afterwards `is_available()` is false
 * and webgpu tensors can no longer be used; `init()` is not possible again in this process (the `webgpu` device
 * name and its kernels stay registered). No PyTorch counterpart (a CUDA or MPS device lives as long as the process).
 */
export async function destroy(): Promise<void> {
  const r = runtime;
  if (r === null) return;
  await r.synchronize();
  r.emptyCache();
  runtime = null;
  held.entry = null;
  destroyed = true;
  r.gpu.destroy();
}

/** Counters: submits (and why: bytes), dispatches (vec4 ones), pipelines compiled and evicted, buffers created, host jobs. */
export function stats(): WebGPURuntime['stats'] {
  return { ...rt().stats };
}

/** The runtime's limits: dispatches and encoded bytes per submit, compiled pipelines kept. */
export interface WebGPULimits {
  dispatches: number;
  encodedBytes: number;
  pipelines: number;
}

/**
 * Sets some of the runtime's limits (Note [One open command encoder], Note [A bounded pipeline cache]) and
 * returns the previous ones, for tuning and tests: `set_limits({ pipelines: 64 })`.
 */
export function set_limits(limits: Partial<WebGPULimits>): WebGPULimits {
  const r = rt();
  const previous = { ...r.limits };
  Object.assign(r.limits, limits);
  return previous;
}

/**
 * `torch.webgpu.set_shader_f16(false)`: the float16 kernels refuse as on an adapter without 'shader-f16' (tests,
 * and a way to rule them out); `true` again only on a device opened with the feature. Returns the previous state.
 */
export function set_shader_f16(enabled: boolean): boolean {
  const r = rt();
  const previous = r.features.shaderF16;
  if (enabled && !r.adapter.features.has('shader-f16')) throw new Error("webgpu: the adapter lacks the WebGPU feature 'shader-f16'");
  r.features.shaderF16 = enabled;
  return previous;
}

/**
 * The GPUDevice the runtime encodes into (after `init()`), for interop and benchmarks (bench/webgpu_suite.ts's
 * copy kernel). Call `await synchronize()` before submitting work of your own that touches the device's tensors.
 */
export function gpu_device(): GPUDeviceLike {
  return rt().gpu;
}

/**
 * `torch.webgpu.manual_seed(seed)`: seeds the device's generator (offset back to 0). `torch.manual_seed(seed)`
 * calls `manual_seed_all`, as PyTorch's `_seed_custom_device` does. See Note [The webgpu generator].
 */
export function manual_seed(seed: number | bigint): void {
  generator.manual_seed(seed);
}

/** `torch.webgpu.initial_seed()`: the device generator's seed. */
export function initial_seed(): bigint {
  return generator.initial_seed();
}

/** `torch.webgpu`: the device module (`torch.get_device_module('webgpu')`). */
export const webgpu = {
  name: 'webgpu',
  init,
  is_available,
  device_count: (): number => (runtime === null ? 0 : 1),
  current_device: (): number => 0,
  synchronize,
  memory_allocated,
  memory_reserved,
  empty_cache,
  destroy,
  stats,
  set_limits,
  set_shader_f16,
  set_fallback,
  fallback_enabled,
  manual_seed,
  manual_seed_all: manual_seed,
  initial_seed,
};
