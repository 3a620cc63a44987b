// src/wasm: CPU storage in WebAssembly linear memory and SIMD kernels over raw pointers. This
// file is the loader and the folder's public surface: it decodes the embedded module
// (generated/kernelsWasm.ts), compiles and instantiates it once against a JS-owned WebAssembly.Memory,
// detects SIMD support, and picks the kernel backend: the WASM exports or their plain-JS twins. Browser-safe:
// no Node API, no process.env, no fetch. The model is in src/wasm/README.md.

import { DeviceType } from '../../c10/Device.js';
import { cpuAllocator, setAllocator } from '../../tensor/Storage.js';
import { CachingAllocator } from './allocator.js';
import { WasmCPUAllocator, wasmStorage, type CPUMemoryStats, type ParallelRunner } from './CPUAllocator.js';
import { decodeBase64, withSharedMemoryImport } from './binaryFormat.js';
import { KERNELS_RELAXED_WASM_BASE64, KERNELS_WASM_BASE64 } from '../kernels/generated/kernelsWasm.js';
import { jsKernels, kernelsFromExports, type KernelName, type Kernels } from '../kernels/KernelTable.js';
import { WasmMemory, type MemoryViews, type WasmMemoryOptions } from './memory.js';
import { parallelKernel, startWorkers, threadsAvailable } from './ParallelNative.js';
import { webAssembly, webAssemblyOrUndefined, type WasmInstanceObject, type WasmModuleObject } from './webassembly.js';

export { ALIGNMENT, CachingAllocator, sizeClass, type AllocatorStats } from './allocator.js';
export {
  SMALL_BYTES,
  SOFT_LIMIT_MIN,
  WasmCPUAllocator,
  wasmStorage,
  type CPUMemoryStats,
  type ParallelRunner,
  type SynchronousReclaimer,
} from './CPUAllocator.js';
export {
  getNumThreads,
  parallelInfo,
  parallelSettings,
  SHIPPED_GRAIN,
  setNumThreads,
  setThreadHost,
  threadsAvailable,
  type ParallelInfo,
  type ThreadHost,
  type ThreadWorker,
} from './ParallelNative.js';
export {
  SectionId,
  decodeBase64,
  memoryImport,
  sections,
  withSharedMemoryImport,
  type MemoryImport,
  type Section,
} from './binaryFormat.js';
export { KERNEL_NAMES, jsKernels, kernelsFromExports, type KernelName, type Kernels } from '../kernels/KernelTable.js';
export { MAX_WASM_PAGES, WASM_PAGE_BYTES, WasmMemory, WasmOutOfMemoryError, type MemoryViews, type WasmMemoryOptions } from './memory.js';
export type { WasmInstanceObject, WasmMemoryObject, WasmModuleObject, WebAssemblyApi } from './webassembly.js';
export { webAssembly, webAssemblyOrUndefined } from './webassembly.js';

// ---- feature detection ----

// The smallest modules that use the feature: one function () -> v128 whose body is
//   simd:          i32.const 0; i8x16.splat
//   relaxed simd:  i32.const 0; i8x16.splat; i32.const 0; i8x16.splat; i8x16.relaxed_swizzle
// (the probes of wasm-feature-detect, written out from the binary format).
const PROBE_HEADER = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, 0x03, 0x02, 0x01, 0x00];
const SIMD_BODY = [0x41, 0x00, 0xfd, 0x0f];
const RELAXED_BODY = [0x41, 0x00, 0xfd, 0x0f, 0x41, 0x00, 0xfd, 0x0f, 0xfd, 0x80, 0x02];
const probe = (body: number[]): Uint8Array<ArrayBuffer> =>
  // code section: 1 function, body size, 0 locals, body, end
  Uint8Array.from([...PROBE_HEADER, 0x0a, body.length + 4, 0x01, body.length + 2, 0x00, ...body, 0x0b]);

/** The probe modules, for tests. */
export const FEATURE_PROBES = { simd: probe(SIMD_BODY), relaxedSimd: probe(RELAXED_BODY) } as const;

let simd: boolean | undefined;
let relaxedSimd: boolean | undefined;

const validates = (bytes: Uint8Array<ArrayBuffer>): boolean => webAssemblyOrUndefined()?.validate(bytes) ?? false;

/** Whether this engine runs WebAssembly fixed-width SIMD (all current browsers, Node >= 16.4). */
export function simdSupported(): boolean {
  return (simd ??= validates(FEATURE_PROBES.simd));
}

/**
 * Whether this engine runs relaxed SIMD (on by default in Chromium >= 114; behind
 * --experimental-wasm-relaxed-simd on Node 20). Where it does, the loader takes the relaxed build of the
 * kernels (Note [Relaxed gemm] in src/wasm/kernels/assembly/gemm.ts).
 */
export function relaxedSimdSupported(): boolean {
  return (relaxedSimd ??= validates(FEATURE_PROBES.relaxedSimd));
}

// ---- compiling and instantiating ----

// Note [Sync and async loading]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The module is small (about 6 KB) and embedded, so Node, workers and bundlers load it with no
// configuration, and synchronously: `new WebAssembly.Module` / `new WebAssembly.Instance` on first use
// (wasmRuntime(), kernels()). Chromium refused synchronous compilation and instantiation of modules over
// 4 KB on a page's main thread (a RangeError; workers were never limited) until the 2023 change "Deprecate
// module size limit for WebAssembly.Module()" (intent to ship in Chrome 114; the limit is now 8 MB).
// Firefox and Safari have no limit. For those old browsers, and for anyone who prefers not to compile on
// first use, `await initWasm()` compiles and instantiates asynchronously; after it, everything else is
// synchronous. A RangeError from the synchronous path is re-thrown saying so.

const SYNC_HINT = 'this engine refused to compile WebAssembly synchronously here (old Chromium main thread); call `await initWasm()` first';

let bytesCache: Uint8Array<ArrayBuffer> | null = null;
let relaxedBytesCache: Uint8Array<ArrayBuffer> | null = null;
const moduleCache = new Map<string, WasmModuleObject>();

/**
 * The embedded kernel module's bytes (decoded once; do not mutate); `relaxed`: its relaxed-SIMD build, which
 * only engines with relaxed SIMD compile (Note [Relaxed gemm] in src/wasm/kernels/assembly/gemm.ts).
 */
export function kernelsWasmBytes(relaxed = false): Uint8Array<ArrayBuffer> {
  if (relaxed) return (relaxedBytesCache ??= decodeBase64(KERNELS_RELAXED_WASM_BASE64));
  return (bytesCache ??= decodeBase64(KERNELS_WASM_BASE64));
}

function variantBytes(shared: boolean, relaxed: boolean): Uint8Array<ArrayBuffer> {
  return shared ? withSharedMemoryImport(kernelsWasmBytes(relaxed)) : kernelsWasmBytes(relaxed);
}

/**
 * The compiled kernel module (cached); `shared` gives the variant that imports a shared memory, `relaxed`
 * the relaxed-SIMD build (default: where the engine has relaxed SIMD; Note [Relaxed gemm]).
 */
export function compileKernelsSync(shared = false, relaxed = relaxedSimdSupported()): WasmModuleObject {
  const key = `${shared}/${relaxed}`;
  const cached = moduleCache.get(key);
  if (cached !== undefined) return cached;
  requireSimd();
  let mod: WasmModuleObject;
  try {
    mod = new (webAssembly().Module)(variantBytes(shared, relaxed));
  } catch (e) {
    if (e instanceof RangeError) throw new RangeError(`wasm kernels: ${SYNC_HINT} (${e.message})`);
    throw e;
  }
  moduleCache.set(key, mod);
  return mod;
}

/** compileKernelsSync, off the calling thread (WebAssembly.compile). */
export async function compileKernels(shared = false, relaxed = relaxedSimdSupported()): Promise<WasmModuleObject> {
  const key = `${shared}/${relaxed}`;
  const cached = moduleCache.get(key);
  if (cached !== undefined) return cached;
  requireSimd();
  const mod = await webAssembly().compile(variantBytes(shared, relaxed));
  const again = moduleCache.get(key);
  if (again !== undefined) return again;
  moduleCache.set(key, mod);
  return mod;
}

function requireSimd(): void {
  if (!simdSupported()) throw new Error('wasm kernels: this engine has no WebAssembly SIMD; use the JS kernels (setKernelBackend("js"))');
}

/** One linear memory, its allocator, and both kernel tables over it. */
export interface WasmRuntime {
  readonly memory: WasmMemory;
  readonly allocator: CachingAllocator;
  /** The WASM SIMD kernels (the instance's exports); null where the engine has no SIMD. */
  readonly wasm: Kernels | null;
  /** The JS twins over the same memory (same signatures). */
  readonly js: Kernels;
  /** Runs kernel calls on worker threads over a shared memory (Note [Worker threads over linear memory]); null otherwise. */
  readonly parallel: ParallelRunner | null;
}

function runtimeOf(memory: WasmMemory, instance: WasmInstanceObject | null, module: WasmModuleObject | null): WasmRuntime {
  const wasm = instance === null ? null : kernelsFromExports(instance.exports);
  let parallel: ParallelRunner | null = null;
  if (wasm !== null && module !== null && memory.shared) {
    const table = wasm as unknown as Record<KernelName, (...args: number[]) => unknown>;
    parallel = (name, calls, threads) => parallelKernel(name, calls, table[name], memory.memory, module, threads);
  }
  return { memory, allocator: new CachingAllocator(memory), wasm, js: jsKernels(memory), parallel };
}

/**
 * A new runtime: a fresh memory (options: initial size, cap, shared) and an instance of `module` (default:
 * the embedded kernels) over it, synchronously. Without SIMD it has the memory, the allocator and the JS
 * kernels only. The default runtime is one of these; tests and worker threads make their own.
 */
export function instantiateKernels(options: WasmMemoryOptions = {}, module?: WasmModuleObject): WasmRuntime {
  const memory = new WasmMemory(options);
  if (module === undefined && !simdSupported()) return runtimeOf(memory, null, null);
  const mod = module ?? compileKernelsSync(memory.shared);
  let instance: WasmInstanceObject;
  try {
    instance = new (webAssembly().Instance)(mod, { env: { memory: memory.memory } });
  } catch (e) {
    if (e instanceof RangeError) throw new RangeError(`wasm kernels: ${SYNC_HINT} (${e.message})`);
    throw e;
  }
  return runtimeOf(memory, instance, mod);
}

/** instantiateKernels, compiling and instantiating asynchronously. */
export async function instantiateKernelsAsync(options: WasmMemoryOptions = {}, module?: WasmModuleObject): Promise<WasmRuntime> {
  const memory = new WasmMemory(options);
  if (module === undefined && !simdSupported()) return runtimeOf(memory, null, null);
  const mod = module ?? (await compileKernels(memory.shared));
  const instance = await webAssembly().instantiate(mod, { env: { memory: memory.memory } });
  return runtimeOf(memory, instance, mod);
}

// ---- the default runtime ----

let runtime: WasmRuntime | null = null;
let pending: Promise<WasmRuntime> | null = null;

function alreadyInitialized(caller: string): Error {
  return new Error(
    `${caller}: the default wasm runtime already exists (made by an earlier init or by first use); ` +
      'pass options before anything uses it, or make a separate one with instantiateKernels(options)',
  );
}

// Note [Linear memory reserved up front]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The default runtime's memory is created with 1 GiB of initial pages, which costs no resident memory (pages
// are mapped on first touch) and about a millisecond. It is shared when worker threads can run and more than
// one is wanted (Note [Worker threads over linear memory]), ordinary otherwise. Two V8 effects shaped this,
// both measured on Node 20 with a JS gemm of 64×784 by 784×128:
//   - Growing a non-shared memory detaches its old buffer, and the first detached ArrayBuffer of a process
//     switches off V8's "no buffer was ever detached" protector: every typed-array loop of the process, ours
//     and the user's, then runs slower (a JS add of 1e7 float32s: 12.6 -> 16.7 ms). Reserving up front
//     makes growth rare; it still works past 1 GiB, at that cost. A shared memory never detaches.
//   - Views over a SharedArrayBuffer and over an ArrayBuffer are compiled apart, so a loop that sees both
//     turns polymorphic (the gemm took 7.7 ms instead of 3.7 ms): JS-heap storage follows the memory's kind
//     (Note [JS-heap buffers follow linear memory] in src/tensor/Storage.ts).
// Engines that refuse the reservation (32-bit, constrained devices) get the largest of 256, 64 and 16 MiB
// they accept. `initWasm({ shared: true })` asks for a shared memory explicitly.
const DEFAULT_INITIAL_BYTES = [1 << 30, 256 << 20, 64 << 20, 16 << 20];

/** The memory options of the default runtime to try, in order (Note [Linear memory reserved up front]). */
function defaultMemoryOptions(options: WasmMemoryOptions | undefined): WasmMemoryOptions[] {
  const shared = threadsAvailable();
  if (options?.initialBytes !== undefined) return [{ shared, ...options }];
  return DEFAULT_INITIAL_BYTES.map((initialBytes) => ({ shared, initialBytes, ...options }));
}

/** The default runtime's worker threads start with it (Note [Worker threads over linear memory]). */
function withWorkers(rt: WasmRuntime): WasmRuntime {
  if (rt.parallel !== null) startWorkers(rt.memory.memory, compileKernelsSync(true));
  return rt;
}

function defaultRuntime(options: WasmMemoryOptions | undefined): WasmRuntime {
  const tries = defaultMemoryOptions(options);
  for (let i = 0; ; i++) {
    try {
      return withWorkers(instantiateKernels(tries[i]));
    } catch (e) {
      if (!(e instanceof RangeError) || i === tries.length - 1) throw e;
    }
  }
}

async function defaultRuntimeAsync(options: WasmMemoryOptions | undefined): Promise<WasmRuntime> {
  const tries = defaultMemoryOptions(options);
  for (let i = 0; ; i++) {
    try {
      return withWorkers(await instantiateKernelsAsync(tries[i]));
    } catch (e) {
      if (!(e instanceof RangeError) || i === tries.length - 1) throw e;
    }
  }
}

/**
 * Creates the default runtime synchronously with `options` (memory size, cap). Optional: first use creates
 * it with the defaults (1 MiB initial, 4 GiB - 64 KiB cap). Throws if it exists and options are given.
 */
export function initWasmSync(options?: WasmMemoryOptions): WasmRuntime {
  if (runtime !== null) {
    if (options !== undefined) throw alreadyInitialized('initWasmSync');
    return runtime;
  }
  return (runtime = defaultRuntime(options));
}

/**
 * Creates the default runtime asynchronously (Note [Sync and async loading]); resolves to the existing one
 * if there is one and no options are given.
 *
 * @example
 * await initWasm({ maximumBytes: 1 << 30 });   // before first use: 1 GiB cap
 * const { allocator, memory } = wasmRuntime();
 */
export async function initWasm(options?: WasmMemoryOptions): Promise<WasmRuntime> {
  if (runtime !== null || pending !== null) {
    if (options !== undefined) throw alreadyInitialized('initWasm');
    return runtime ?? (pending as Promise<WasmRuntime>);
  }
  pending = defaultRuntimeAsync(options);
  try {
    return (runtime = await pending);
  } finally {
    pending = null;
  }
}

/** The default runtime, created synchronously with default options on first use. */
export function wasmRuntime(): WasmRuntime {
  return runtime ?? initWasmSync();
}

/** Views over the default runtime's memory, rebuilt only when the memory has grown. */
export function memoryViews(): MemoryViews {
  return wasmRuntime().memory.views();
}

// ---- the backend switch ----

// Note [Kernel backends]
// ~~~~~~~~~~~~~~~~~~~~~~~
// Two execution paths run every operator. 'wasm' (the default where the engine has SIMD): CPU storage over
// SMALL_BYTES lives in WebAssembly linear memory (CPUAllocator.ts) and the kernels of src/kernels hand
// their inner loops to the SIMD kernels whenever every operand is there (`array.buffer ===
// wasmStorage.buffer`); anything else — small or JS-heap storage, dtypes without a SIMD kernel — runs the
// JS loops. 'js': storage in the JS heap and only the JS loops, the reference the SIMD kernels are tested
// against. `setKernelBackend` switches at any time (existing tensors keep working on either path); the
// test suite runs once per backend (ATEN_TS_KERNELS=js|wasm, read by test/setup.ts, never by the library).

/** Which implementation the kernel table holds. */
export type KernelBackend = 'wasm' | 'js';

let requested: KernelBackend = 'wasm';

/**
 * Chooses the kernels: 'wasm' (the default, when the engine has SIMD) or 'js' (JS-heap storage and the
 * kernels' own JS loops). Results agree to rounding, not bit for bit: a JS loop may sum or round in another
 * order than the SIMD kernel (the SIMD kernels' JS twins in reference.ts do match them bit for bit). A global
 * switch for debugging and comparison; nothing reads the environment.
 *
 * @example
 * setKernelBackend('js');
 * kernels().f32_vadd(n, a, b, y);   // the JS twin
 */
export function setKernelBackend(backend: KernelBackend): void {
  if (backend !== 'wasm' && backend !== 'js') throw new TypeError(`setKernelBackend: expected 'wasm' or 'js', got ${String(backend)}`);
  requested = backend;
  if (backend === 'wasm' && simdSupported()) {
    // The runtime itself is made on the first large allocation (WasmCPUAllocator), which sets `buffer`.
    const allocator = (cpuAllocatorOverWasm ??= new WasmCPUAllocator(wasmRuntime));
    setAllocator(DeviceType.CPU, allocator);
    wasmStorage.buffer = runtime === null ? null : allocator.arrays.buffer;
    wasmStorage.kernels = runtime === null ? null : runtime.wasm;
    wasmStorage.parallel = runtime === null ? null : runtime.parallel;
  } else {
    setAllocator(DeviceType.CPU, cpuAllocator);
    wasmStorage.buffer = null;
    wasmStorage.kernels = null;
    wasmStorage.parallel = null;
  }
}

let cpuAllocatorOverWasm: WasmCPUAllocator | null = null;

/** The CPU allocator over linear memory, once the 'wasm' backend has been selected (else null). */
export function wasmCPUAllocator(): WasmCPUAllocator | null {
  return cpuAllocatorOverWasm;
}

/** The CPU allocator's counters (Note [Storage lifetime]); null before the 'wasm' backend was ever selected. */
export function cpuMemoryStats(): CPUMemoryStats | null {
  return cpuAllocatorOverWasm?.stats() ?? null;
}

/** The backend in effect: 'wasm' only if requested and the engine has SIMD. */
export function getKernelBackend(): KernelBackend {
  return requested === 'wasm' && simdSupported() ? 'wasm' : 'js';
}

/** The kernel table of the backend in effect, over the default runtime's memory. */
export function kernels(): Kernels {
  const rt = wasmRuntime();
  return requested === 'wasm' && rt.wasm !== null ? rt.wasm : rt.js;
}
