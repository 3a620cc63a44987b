// Intra-op parallelism: a pool of worker threads over the shared linear memory, each running the same
// kernel module, and `parallelKernel`, which runs one kernel call per thread with the caller taking the
// first. Mirrors aten/src/ATen/ParallelNative.cpp (the pool of cores − 1 workers plus the calling thread,
// set_num_threads / get_num_threads, a grain size below which work stays on the caller). Browser-safe: how
// a worker is started is given by the entry point (src/node.ts) or found in the page (cross-origin
// isolated Web Workers).

import { KERNEL_NAMES, type KernelName } from './kernels.js';
import type { WasmMemoryObject, WasmModuleObject } from './webassembly.js';

// Note [Worker threads over linear memory]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// - Storage is already in one WebAssembly.Memory; made `shared`, every worker instantiates the kernel
//   module over the same memory, so a job is a kernel name and its numeric arguments (counts, addresses,
//   strides): no data moves and no JS closure crosses threads.
// - Each worker owns a 64-byte slot of a small SharedArrayBuffer: a `go` generation, a `done` generation,
//   the kernel's index and up to 15 arguments (as doubles). The caller writes the job, bumps `go` and
//   notifies; the worker runs it, stores `done = go` and notifies. Waking a parked worker costs 13–23 µs
//   here, so workers spin for a while after a job before parking in Atomics.wait (back-to-back kernels of
//   one operator find them awake), and callers only split work above a grain size.
// - The caller runs the first share itself, then waits: spinning, then Atomics.wait where the thread may
//   block (Node's main thread, workers), spinning only on a browser's main thread, which may not block.
// - A worker takes jobs only once it has said it is ready (instantiated); until then the caller runs its
//   share too. A browser starts a worker only when the page's thread returns to its event loop, so waiting
//   for one that has not started would never end; the first operators of a program simply run on one thread.
// - Workers are unref'd: a parked pool never keeps a Node process alive.
// - Results never depend on the thread count: work is split so that every output element is computed by
//   one thread in the same order as on one thread (gemm by row blocks around a shared packed B or by column
//   blocks, Note [Gemm split]; pointwise by ranges, softmax by rows).

/** How workers are made where the library runs. */
export interface ThreadHost {
  /** Logical cores (the default thread count). */
  readonly cores: number;
  /** Starts a worker running `source` (a classic script setting `self.onmessage`); it then gets one message. */
  spawn(source: string): ThreadWorker;
  /** Whether the calling thread may block in Atomics.wait (false on a browser's main thread). */
  readonly canBlock: boolean;
}

/** The part of a Node or Web Worker the pool uses. */
export interface ThreadWorker {
  postMessage(message: unknown): void;
  terminate(): unknown;
}

const SLOT_INTS = 16; // 64 bytes per worker: go, done, kernel index, argument count, error, ready, parked flags
const GO = 0;
const DONE = 1;
const KERNEL = 2;
const NARGS = 3;
const ERROR = 4;
const READY = 5;
const PARKED = 6; // 1 while the worker is blocked in Atomics.wait (Note [Waking a worker early])
const WAKES = 7; // times the worker returned from Atomics.wait
const MAX_ARGS = 23; // f32_conv2d_direct takes 20
const SPIN = 20000;

// The worker's script. Plain ES2017 JavaScript, no imports: it runs as a Web Worker from a Blob URL, or as a
// Node eval worker after src/node.ts's prelude gives it a `self` with `onmessage`.
const WORKER_SOURCE = `
'use strict';
const start = (init) => {
  const ctl = new Int32Array(init.control, init.index * ${SLOT_INTS * 4}, ${SLOT_INTS});
  const args = new Float64Array(init.args, init.index * ${(MAX_ARGS + 1) * 8}, ${MAX_ARGS + 1});
  let fns = [];
  try {
    const instance = new WebAssembly.Instance(init.module, { env: { memory: init.memory } });
    fns = init.names.map((n) => instance.exports[n]);
    Atomics.store(ctl, ${READY}, 1);
  } catch (e) {
    Atomics.store(ctl, ${ERROR}, 1);
  }
  let seen = 0;
  for (;;) {
    let spins = 0;
    while (Atomics.load(ctl, ${GO}) === seen) {
      if (++spins > ${SPIN}) {
        Atomics.store(ctl, ${PARKED}, 1);
        Atomics.wait(ctl, ${GO}, seen);
        Atomics.store(ctl, ${PARKED}, 0);
        Atomics.add(ctl, ${WAKES}, 1);
        spins = 0;
      }
    }
    seen = Atomics.load(ctl, ${GO});
    try {
      const n = ctl[${NARGS}];
      const a = [];
      for (let i = 0; i < n; i++) a.push(args[i]);
      fns[ctl[${KERNEL}]](...a);
    } catch (e) {
      Atomics.store(ctl, ${ERROR}, 1);
    }
    Atomics.store(ctl, ${DONE}, seen);
    Atomics.notify(ctl, ${DONE});
  }
};
self.onmessage = (e) => { self.onmessage = null; start(e.data); };
`;

let host: ThreadHost | null = browserHost();
let requested: number | null = null;

/** Installs how workers are made (src/node.ts does, for Node); replaces the browser detection. */
export function setThreadHost(h: ThreadHost | null): void {
  host = h;
}

/** Web Workers where the page is cross-origin isolated (SharedArrayBuffer exists); none otherwise. */
function browserHost(): ThreadHost | null {
  const g = globalThis as {
    Worker?: new (url: string) => ThreadWorker;
    crossOriginIsolated?: boolean;
    Blob?: new (parts: string[], options: { type: string }) => unknown;
    URL?: { createObjectURL(blob: unknown): string };
    navigator?: { hardwareConcurrency?: number };
    document?: unknown;
  };
  const { Worker, Blob, URL } = g;
  if (typeof Worker !== 'function' || g.crossOriginIsolated !== true || Blob === undefined || URL === undefined) return null;
  return {
    cores: Math.max(1, g.navigator?.hardwareConcurrency ?? 1),
    canBlock: g.document === undefined, // a window's main thread may not Atomics.wait; a worker may
    spawn: (source) => {
      const w = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
      // A worker that fails to load says so; its jobs then run on the caller (it never becomes ready).
      (w as { onerror?: (e: { message?: string }) => void }).onerror = (e) =>
        console.error(`aten-ts worker thread: ${e.message ?? 'failed to start'}`);
      return w;
    },
  };
}

/** Whether there is a way to start workers here (a host and SharedArrayBuffer). */
function canSpawn(): boolean {
  return host !== null && typeof SharedArrayBuffer === 'function';
}

/**
 * Whether linear memory made now should be shared: workers can be started and more than one thread is
 * wanted (`set_num_threads(1)` before first use keeps it an ordinary memory).
 */
export function threadsAvailable(): boolean {
  return canSpawn() && getNumThreads() > 1;
}

/** `torch.get_num_threads()`: the threads an operator may use (default: the cores, 1 without a host). */
export function getNumThreads(): number {
  return requested ?? (canSpawn() ? (host as ThreadHost).cores : 1);
}

/** `torch.set_num_threads(n)`: the threads intra-op parallel kernels may use, the caller included. */
export function setNumThreads(n: number): void {
  if (!Number.isInteger(n) || n <= 0) throw new Error(`set_num_threads expects a positive integer, but got ${String(n)}`);
  requested = n;
}

/**
 * Each thread gets at least `grain` units of work (elements; a gemm counts multiply-adds / 8, Note [Gemm grain] in src/kernels/LinearAlgebra.ts), and work below
 * two grains stays on the caller. ATen's GRAIN_SIZE is 32768 elements; waking a parked worker costs 13–23 µs
 * here against a few µs for OpenMP's spinning threads, so the grain is 4 times larger (~50 µs of a pointwise
 * kernel; a gemm of 16.7M multiply-adds, ~400 µs). The MLP step of bench/compare ran at 3.49 ms on 2 threads
 * against 1.87 ms on 1 with the grain at 32768 and gemms split from 1M multiply-adds.
 */
export const parallelSettings = { grain: 131072 };

interface Pool {
  readonly memory: WasmMemoryObject;
  readonly workers: ThreadWorker[];
  readonly ctl: Int32Array;
  readonly args: Float64Array;
  readonly canBlock: boolean;
}

let pool: Pool | null = null;
let jobsOnWorkers = 0;

/** What `torch.__config__.parallel_info()` tells: threads wanted, workers started and ready, jobs they ran. */
export interface ParallelInfo {
  readonly threads: number;
  readonly workers: number;
  readonly readyWorkers: number;
  readonly jobsOnWorkers: number;
  /** Workers blocked in Atomics.wait now (Note [Waking a worker early]). */
  readonly parkedWorkers: number;
  /** Times workers have come back from Atomics.wait, in all. */
  readonly wakeUps: number;
}

/** The pool's state (Note [Worker threads over linear memory]). */
export function parallelInfo(): ParallelInfo {
  const p = pool;
  let [ready, parked, wakeUps] = [0, 0, 0];
  for (let t = 0; p !== null && t < p.workers.length; t++) {
    ready += Atomics.load(p.ctl, t * SLOT_INTS + READY);
    parked += Atomics.load(p.ctl, t * SLOT_INTS + PARKED);
    wakeUps += Atomics.load(p.ctl, t * SLOT_INTS + WAKES);
  }
  return { threads: getNumThreads(), workers: p?.workers.length ?? 0, readyWorkers: ready, jobsOnWorkers, parkedWorkers: parked, wakeUps };
}
const KERNEL_INDEX = new Map<KernelName, number>(KERNEL_NAMES.map((n, i) => [n, i]));

/** The pool over `memory` with `threads - 1` workers (grown on demand; never shrinks). */
function poolFor(memory: WasmMemoryObject, module: WasmModuleObject, threads: number): Pool | null {
  if (host === null || threads <= 1) return null;
  if (pool !== null && pool.memory !== memory) return null; // one pool, over the default runtime's memory
  const want = threads - 1;
  if (pool === null) {
    const n = Math.max(want, host.cores - 1, 1);
    pool = {
      memory,
      workers: [],
      ctl: new Int32Array(new SharedArrayBuffer(n * SLOT_INTS * 4)),
      args: new Float64Array(new SharedArrayBuffer(n * (MAX_ARGS + 1) * 8)),
      canBlock: host.canBlock,
    };
  }
  const p = pool;
  if (p.ctl.length / SLOT_INTS < want) return p.workers.length > 0 ? p : null;
  while (p.workers.length < want) {
    const index = p.workers.length;
    const w = host.spawn(WORKER_SOURCE);
    w.postMessage({ control: p.ctl.buffer, args: p.args.buffer, index, module, memory, names: KERNEL_NAMES });
    p.workers.push(w);
  }
  return p;
}

/**
 * Starts the pool's workers for a shared memory now, so they are ready by the time an operator splits work
 * (a browser starts them only once the page's thread yields).
 */
export function startWorkers(memory: WasmMemoryObject, module: WasmModuleObject): void {
  poolFor(memory, module, getNumThreads());
}

// Note [Waking a worker early]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A worker spins SPIN polls (~190 µs of CPU on this machine) after a job before it parks in Atomics.wait, so
// back-to-back parallel regions find it awake; a region after a longer pause pays the wake-up (13–23 µs
// here) on its critical path, the caller finishing its share and then waiting. An operator that knows it
// will split work calls `wakeWorkers` first, before its own set-up (a gemm allocates its workspace and
// stages operands): a parked worker is notified without a job, finds no new `go`, and spins again, so it is
// awake by the time the job is posted. Only parked workers are notified (the PARKED flag), which keeps the
// call free for awake ones.

/** Wakes the parked workers among the first `threads - 1` (Note [Waking a worker early]); no job is posted. */
export function wakeWorkers(threads: number): void {
  const p = pool;
  if (p === null) return;
  for (let t = 0; t < Math.min(threads - 1, p.workers.length); t++) {
    const slot = t * SLOT_INTS;
    if (Atomics.load(p.ctl, slot + PARKED) === 1) Atomics.notify(p.ctl, slot + GO);
  }
}

/** Waits until `ctl[at]` equals `value`: spinning, then blocking where allowed. */
function waitFor(p: Pool, at: number, value: number): void {
  let spins = 0;
  const deadline = Date.now() + 60_000;
  while (Atomics.load(p.ctl, at) !== value) {
    if (++spins < SPIN) continue;
    spins = 0;
    if (p.canBlock) Atomics.wait(p.ctl, at, Atomics.load(p.ctl, at), 100);
    if (Date.now() > deadline) throw new Error('parallel kernel: a worker thread did not answer within 60 s');
  }
}

/**
 * Runs `calls[i]` (the arguments of kernel `name`) on thread i, the caller running calls[0], and returns
 * when all are done. `run` is the caller's own kernel. With one call, or no pool, everything runs here.
 */
export function parallelKernel(
  name: KernelName,
  calls: readonly (readonly number[])[],
  run: (...args: number[]) => unknown,
  memory: WasmMemoryObject,
  module: WasmModuleObject,
): void {
  const p = calls.length > 1 ? poolFor(memory, module, calls.length) : null;
  if (p === null) {
    for (const c of calls) run(...c);
    return;
  }
  const k = KERNEL_INDEX.get(name) as number;
  let posted = 0;
  while (posted < Math.min(calls.length - 1, p.workers.length) && Atomics.load(p.ctl, posted * SLOT_INTS + READY) === 1) posted++;
  const gens: number[] = [];
  for (let t = 0; t < posted; t++) {
    const c = calls[t + 1] as readonly number[];
    const slot = t * SLOT_INTS;
    p.ctl[slot + KERNEL] = k;
    p.ctl[slot + NARGS] = c.length;
    p.args.set(c, t * (MAX_ARGS + 1));
    gens.push(Atomics.add(p.ctl, slot + GO, 1) + 1);
    Atomics.notify(p.ctl, slot + GO);
  }
  jobsOnWorkers += posted;
  run(...(calls[0] as readonly number[]));
  for (let t = posted + 1; t < calls.length; t++) run(...(calls[t] as readonly number[]));
  let failed = -1;
  for (let t = 0; t < posted; t++) {
    waitFor(p, t * SLOT_INTS + DONE, gens[t] as number);
    if (Atomics.exchange(p.ctl, t * SLOT_INTS + ERROR, 0) !== 0) failed = t + 1;
  }
  if (failed >= 0) throw new Error(`parallel kernel: '${name}' failed on worker thread ${failed} (a trap, or the worker did not start)`);
}
