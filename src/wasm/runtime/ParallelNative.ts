// Intra-op parallelism: a pool of worker threads over the shared linear memory, each running the same
// kernel module, and `parallelKernel`, which runs one kernel call per thread with the caller taking the
// first. Mirrors aten/src/ATen/ParallelNative.cpp (the pool of cores − 1 workers plus the calling thread,
// set_num_threads / get_num_threads, a grain size below which work stays on the caller). Browser-safe: how
// a worker is started is given by the entry point (src/node.ts) or found in the page (cross-origin
// isolated Web Workers).

import { KERNEL_NAMES, type KernelName } from '../kernels/generated/KernelNames.js';
import type { WasmMemoryObject, WasmModuleObject } from './webassembly.js';

// Note [Worker threads over linear memory]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// - Storage is already in one WebAssembly.Memory; made `shared`, every worker instantiates the kernel
//   module over the same memory, so a job is a kernel name and its numeric arguments (counts, addresses,
//   strides): no data moves and no JS closure crosses threads.
// - A parallel region is a list of independent kernel calls (each writes its own outputs). The caller writes
//   them into a small SharedArrayBuffer, wakes the workers it wants (each owns a 64-byte slot: a `go`
//   generation, ready / parked flags), and then every thread, the caller included, claims calls one at a
//   time until none is left (Note [Claiming calls]); the caller returns when all calls are done.
// - Waking a parked worker costs 13–23 µs here, so a worker spins for a bounded time after a job before it
//   parks in Atomics.wait (back-to-back regions find it awake; Note [Bounded spin]), and callers only split
//   work above a grain size. The caller waits the same way: spinning, then Atomics.wait where the thread may
//   block (Node's main thread, workers); only spinning on a browser's main thread, which may not block.
// - A worker takes calls only once it has said it is ready (instantiated); until then the caller runs them.
//   A browser starts a worker only when the page's thread returns to its event loop, so waiting for one that
//   has not started would never end; the first operators of a program simply run on one thread.
// - Workers are unref'd: a parked pool never keeps a Node process alive.
// - Results never depend on the thread count or on which thread ran which call: work is split so that every
//   output element is computed by one call in the same order as on one thread (gemm by row blocks around a
//   column or row blocks, Note [Gemm split]; pointwise by ranges, softmax by rows), and the
//   calls are fixed by the sizes and the thread count alone, never by timing.

// Note [Claiming calls]
// ~~~~~~~~~~~~~~~~~~~~~
// A region's calls are not bound to threads: one Int32 word holds (number of calls << 16 | next unclaimed),
// and a thread claims call `next` with a compare-exchange of the word to `next + 1`. A thread that is slow to
// wake or is preempted (2 cores shared with other processes: bench/interference.ts) simply claims fewer
// calls, and the others do its share instead of waiting for it; with more calls than threads (pointwise
// ranges, Note [Guided pointwise split] in src/wasm/kernels/vec.ts) the load balances to within one small call. The word
// needs no generation: a stale thread whose compare-exchange succeeds has claimed an unclaimed call of the
// current region, whose arguments were written before the word was. The caller writes the next region's
// arguments only after the `done` count reached the number of calls, so no claimed call's arguments change
// under it.

// Note [Bounded spin]
// ~~~~~~~~~~~~~~~~~~~
// After its last call a worker polls its `go` word for SPIN_MS of wall time (checked every 256 polls), then
// parks in Atomics.wait. A bound in time rather than in polls: a spinner preempted by another process comes
// back with its time used up instead of spinning again, and the bound does not scale with the core's speed.
// PyTorch's OpenMP (libgomp) spins ~300,000 iterations (milliseconds) after a region; 0.2 ms is enough for
// the gaps between one operator's regions and costs little CPU on a shared 2-core machine.

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

// The region's words (Note [Claiming calls]), then one 16-int slot per worker.
const WORD = 0; // (calls << 16) | next unclaimed call
const DONE = 1; // calls finished in this region
const KERNEL = 2; // the kernel's index in KERNEL_NAMES
const ERROR = 3; // set when a call trapped on a worker
const WORKER_CALLS = 4; // calls run by workers, in all
const HEADER_INTS = 16;
const SLOT_INTS = 16; // 64 bytes per worker
const GO = 0;
const READY = 1;
const PARKED = 2; // 1 while the worker is blocked in Atomics.wait (Note [Waking a worker early])
const WAKES = 3; // times the worker returned from Atomics.wait
const LOST = 4; // set when the worker failed to instantiate
const MAX_ARGS = 23; // f32_conv2d_direct takes 20
const MAX_CALLS = 256; // calls of one region (more run in batches)
const CALL_DOUBLES = MAX_ARGS + 1; // the argument count, then the arguments
const SPIN_MS = 0.2; // Note [Bounded spin]
const CALLER_SPIN_POLLS = 20000;

// The worker's script. Plain ES2017 JavaScript, no imports: it runs as a Web Worker from a Blob URL, or as a
// Node eval worker after src/node.ts's prelude gives it a `self` with `onmessage`.
const WORKER_SOURCE = `
'use strict';
const start = (init) => {
  const ctl = new Int32Array(init.control);
  const slot = ${HEADER_INTS} + init.index * ${SLOT_INTS};
  const args = new Float64Array(init.args);
  const now = () => performance.now();
  let fns = [];
  try {
    const instance = new WebAssembly.Instance(init.module, { env: { memory: init.memory } });
    fns = init.names.map((n) => instance.exports[n]);
    Atomics.store(ctl, slot + ${READY}, 1);
  } catch (e) {
    Atomics.store(ctl, slot + ${LOST}, 1);
    return;
  }
  const runClaimed = () => {
    for (;;) {
      const w = Atomics.load(ctl, ${WORD});
      const n = w >>> 16;
      const i = w & 0xffff;
      if (i >= n) return;
      if (Atomics.compareExchange(ctl, ${WORD}, w, w + 1) !== w) continue;
      try {
        const base = i * ${CALL_DOUBLES};
        const a = [];
        for (let j = 1, m = args[base]; j <= m; j++) a.push(args[base + j]);
        fns[ctl[${KERNEL}]](...a);
      } catch (e) {
        Atomics.store(ctl, ${ERROR}, 1);
      }
      Atomics.add(ctl, ${WORKER_CALLS}, 1);
      if (Atomics.add(ctl, ${DONE}, 1) + 1 === n) Atomics.notify(ctl, ${DONE});
    }
  };
  let seen = 0;
  for (;;) {
    let polls = 0;
    let since = now();
    while (Atomics.load(ctl, slot + ${GO}) === seen) {
      if ((++polls & 255) !== 0) continue;
      if (now() - since < ${SPIN_MS}) continue;
      Atomics.store(ctl, slot + ${PARKED}, 1);
      Atomics.wait(ctl, slot + ${GO}, seen);
      Atomics.store(ctl, slot + ${PARKED}, 0);
      Atomics.add(ctl, slot + ${WAKES}, 1);
      since = now();
    }
    seen = Atomics.load(ctl, slot + ${GO});
    runClaimed();
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

/** The grain a program starts with (the tests lower parallelSettings.grain to split small work). */
export const SHIPPED_GRAIN = parallelSettings.grain;

interface Pool {
  readonly memory: WasmMemoryObject;
  readonly workers: ThreadWorker[];
  readonly ctl: Int32Array;
  readonly args: Float64Array;
  readonly canBlock: boolean;
}

let pool: Pool | null = null;
let jobsOnWorkers = 0;

/** What `torch.__config__.parallel_info()` tells: threads wanted, workers started and ready, work they did. */
export interface ParallelInfo {
  readonly threads: number;
  readonly workers: number;
  readonly readyWorkers: number;
  /** Parallel regions handed to workers, counted once per worker woken for one. */
  readonly jobsOnWorkers: number;
  /** Kernel calls the workers ran (the caller ran the rest; Note [Claiming calls]). */
  readonly callsOnWorkers: number;
  /** Workers blocked in Atomics.wait now (Note [Waking a worker early]). */
  readonly parkedWorkers: number;
  /** Times workers have come back from Atomics.wait, in all. */
  readonly wakeUps: number;
}

const slotOf = (t: number): number => HEADER_INTS + t * SLOT_INTS;

/** The pool's state (Note [Worker threads over linear memory]). */
export function parallelInfo(): ParallelInfo {
  const p = pool;
  let [ready, parked, wakeUps] = [0, 0, 0];
  for (let t = 0; p !== null && t < p.workers.length; t++) {
    ready += Atomics.load(p.ctl, slotOf(t) + READY);
    parked += Atomics.load(p.ctl, slotOf(t) + PARKED);
    wakeUps += Atomics.load(p.ctl, slotOf(t) + WAKES);
  }
  return {
    threads: getNumThreads(),
    workers: p?.workers.length ?? 0,
    readyWorkers: ready,
    jobsOnWorkers,
    callsOnWorkers: p === null ? 0 : Atomics.load(p.ctl, WORKER_CALLS),
    parkedWorkers: parked,
    wakeUps,
  };
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
      ctl: new Int32Array(new SharedArrayBuffer((HEADER_INTS + n * SLOT_INTS) * 4)),
      args: new Float64Array(new SharedArrayBuffer(MAX_CALLS * CALL_DOUBLES * 8)),
      canBlock: host.canBlock,
    };
  }
  const p = pool;
  const capacity = (p.ctl.length - HEADER_INTS) / SLOT_INTS;
  while (p.workers.length < Math.min(want, capacity)) {
    const index = p.workers.length;
    const w = host.spawn(WORKER_SOURCE);
    w.postMessage({ control: p.ctl.buffer, args: p.args.buffer, index, module, memory, names: KERNEL_NAMES });
    p.workers.push(w);
  }
  return p.workers.length > 0 ? p : null;
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
// A worker spins for a bounded time after a job before it parks in Atomics.wait (Note [Bounded spin]), so
// back-to-back parallel regions find it awake; a region after a longer pause pays the wake-up (13–23 µs
// here) on its critical path. An operator that knows it will split work calls `wakeWorkers` first, before
// its own set-up (a gemm allocates its workspace and stages operands): a parked worker is notified without a
// job, finds no new `go`, and spins again, so it is awake by the time the job is posted. Only parked workers
// are notified (the PARKED flag), which keeps the call free for awake ones.

/** Wakes the parked workers among the first `threads - 1` (Note [Waking a worker early]); no job is posted. */
export function wakeWorkers(threads: number): void {
  const p = pool;
  if (p === null) return;
  for (let t = 0; t < Math.min(threads - 1, p.workers.length); t++) {
    const slot = slotOf(t);
    if (Atomics.load(p.ctl, slot + PARKED) === 1) Atomics.notify(p.ctl, slot + GO);
  }
}

/** Waits until the region's `done` count reaches `n`: spinning, then blocking where allowed. */
function waitForDone(p: Pool, n: number): void {
  let spins = 0;
  const deadline = Date.now() + 60_000;
  for (let done = Atomics.load(p.ctl, DONE); done !== n; done = Atomics.load(p.ctl, DONE)) {
    if (++spins < CALLER_SPIN_POLLS) continue;
    spins = 0;
    if (p.canBlock) Atomics.wait(p.ctl, DONE, done, 100);
    if (Date.now() > deadline) throw new Error('parallel kernel: a worker thread did not finish its call within 60 s');
  }
}

/**
 * Runs the kernel calls `calls` (the arguments of kernel `name`; independent of each other) on up to
 * `threads` threads, the caller among them, and returns when all are done: every thread claims calls until
 * none is left (Note [Claiming calls]). `run` is the caller's own kernel. With one call, or no pool,
 * everything runs here, in order.
 */
export function parallelKernel(
  name: KernelName,
  calls: readonly (readonly number[])[],
  run: (...args: number[]) => unknown,
  memory: WasmMemoryObject,
  module: WasmModuleObject,
  threads = calls.length,
): void {
  const p = calls.length > 1 && threads > 1 ? poolFor(memory, module, threads) : null;
  if (p === null) {
    for (const c of calls) run(...c);
    return;
  }
  for (let from = 0; from < calls.length; from += MAX_CALLS) region(p, name, calls.slice(from, from + MAX_CALLS), run, threads);
}

/** One region of at most MAX_CALLS calls (Note [Claiming calls]). */
function region(
  p: Pool,
  name: KernelName,
  calls: readonly (readonly number[])[],
  run: (...args: number[]) => unknown,
  threads: number,
): void {
  const n = calls.length;
  const { ctl, args } = p;
  Atomics.store(ctl, KERNEL, KERNEL_INDEX.get(name) as number);
  for (let i = 0; i < n; i++) {
    const c = calls[i] as readonly number[];
    if (c.length > MAX_ARGS) throw new Error(`parallel kernel: '${name}' takes ${c.length} arguments, more than ${MAX_ARGS}`);
    args[i * CALL_DOUBLES] = c.length;
    args.set(c, i * CALL_DOUBLES + 1);
  }
  Atomics.store(ctl, DONE, 0);
  Atomics.store(ctl, ERROR, 0);
  Atomics.store(ctl, WORD, n << 16); // publishes the calls: workers read them after claiming through WORD
  let woken = 0;
  for (let t = 0; t < Math.min(threads - 1, n - 1, p.workers.length); t++) {
    const slot = slotOf(t);
    if (Atomics.load(ctl, slot + READY) !== 1) continue;
    Atomics.add(ctl, slot + GO, 1);
    Atomics.notify(ctl, slot + GO);
    woken++;
  }
  jobsOnWorkers += woken;
  let thrown: unknown = null;
  for (;;) {
    const w = Atomics.load(ctl, WORD);
    const i = w & 0xffff;
    if (i >= n) break;
    if (Atomics.compareExchange(ctl, WORD, w, w + 1) !== w) continue;
    try {
      if (thrown === null) run(...(calls[i] as readonly number[]));
    } catch (e) {
      thrown = e; // the other calls still finish before the arguments can be reused
    }
    Atomics.add(ctl, DONE, 1);
  }
  waitForDone(p, n);
  if (thrown !== null) throw thrown;
  if (Atomics.load(ctl, ERROR) !== 0) throw new Error(`parallel kernel: '${name}' failed on a worker thread (a trap)`);
}
