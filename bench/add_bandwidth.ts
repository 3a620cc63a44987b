// `npx tsx bench/add_bandwidth.ts [--reps 40]`: the 1e7 float32 add into `out` against the machine's memory
// bandwidth, per thread count:
//   1. CPU time on one thread (robust to a loaded machine): f32_vadd against the engine's memmove and fill.
//   2. The ceiling, wall time: plain WebAssembly loops (f32_vadd, memory.copy, fill) over one shared memory run
//      by the main thread and N - 1 raw workers that spin on an Atomics word (no parking, no dispatch), each on
//      1/N of the range; the least of --reps runs.
//   3. aten-ts's `torch.add(a, b, { out })` on 1 and 2 threads (the library's pool), same process, alternating.
// Least-of-reps approximates a quiet machine; the median is printed too.
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { torch } from '../src/node.js';
import { compileKernelsSync, setNumThreads, type Kernels } from '../src/wasm/index.js';
import { webAssembly } from '../src/wasm/runtime/webassembly.js';

const { values: opts } = parseArgs({ options: { reps: { type: 'string' } } });
const reps = Number(opts.reps ?? 40);
const WebAssembly = webAssembly();
const n = 1e7;
const module = compileKernelsSync(true, false);
const mem = new WebAssembly.Memory({ initial: 4096, maximum: 65536, shared: true });
const k = new WebAssembly.Instance(module, { env: { memory: mem } }).exports as unknown as Kernels;
const A = 1 << 20,
  B = A + n * 4 + 4096,
  Y = B + n * 4 + 4096;
const f32 = new Float32Array(mem.buffer);
for (let i = 0; i < n; i++) [f32[A / 4 + i], f32[B / 4 + i], f32[Y / 4 + i]] = [i, 1, 0];

const stats = (xs: number[]): string => {
  const s = [...xs].sort((x, y) => x - y);
  return `least ${(s[0]! / 1000).toFixed(2)} ms, median ${(s[s.length >> 1]! / 1000).toFixed(2)} ms`;
};
const gbs = (bytes: number, us: number): string => `${(bytes / us / 1e3).toFixed(1)} GB/s`;

// ---- 1. CPU time, one thread --------------------------------------------------------------------------------------
const u8 = new Uint8Array(mem.buffer);
const cpuJobs: Record<string, [() => void, number]> = {
  'f32_vadd 1e7 (3 x 40 MB)': [() => k.f32_vadd(n, A, B, Y), 120e6],
  'half of it (what each of 2 threads does)': [() => k.f32_vadd(n / 2, A, B, Y), 60e6],
  'memory.copy 40 MB (copyWithin)': [() => u8.copyWithin(Y, A, A + n * 4), 80e6],
  'fill 40 MB': [() => f32.fill(1, Y / 4, Y / 4 + n), 40e6],
};
const best: Record<string, number> = {};
for (let r = 0; r < 15; r++)
  for (const [name, [f]] of Object.entries(cpuJobs)) {
    const t0 = process.cpuUsage();
    for (let i = 0; i < 5; i++) f();
    const u = process.cpuUsage(t0);
    best[name] = Math.min(best[name] ?? Infinity, (u.user + u.system) / 5);
  }
console.log('1. CPU time, one thread (least of 15 x 5 calls):');
for (const [name, [, bytes]] of Object.entries(cpuJobs))
  console.log(`   ${name}: ${((best[name] as number) / 1000).toFixed(2)} ms, ${gbs(bytes, best[name] as number)}`);

// ---- 2. the ceiling per thread count: raw spinning workers --------------------------------------------------------
// ctl[0]: generation, ctl[1]: done count, ctl[2]: job (0 add, 1 copy, 2 fill), ctl[3]: threads, ctl[4 + t]: unused
const ctl = new Int32Array(new SharedArrayBuffer(64));
const RAW = `
const { parentPort, workerData: d } = require('node:worker_threads');
const k = new WebAssembly.Instance(d.module, { env: { memory: d.memory } }).exports;
const ctl = new Int32Array(d.ctl);
const u8 = new Uint8Array(d.memory.buffer), f32 = new Float32Array(d.memory.buffer);
parentPort.postMessage('ready');
let seen = 0;
for (;;) {
  while (Atomics.load(ctl, 0) === seen);
  seen = Atomics.load(ctl, 0);
  if (seen < 0) break;
  const job = ctl[2], threads = ctl[3], t = d.index;
  if (t < threads) {
    const from = Math.floor((d.n * t) / threads / 16) * 16, to = t + 1 === threads ? d.n : Math.floor((d.n * (t + 1)) / threads / 16) * 16;
    if (job === 0) k.f32_vadd(to - from, d.A + from * 4, d.B + from * 4, d.Y + from * 4);
    else if (job === 1) u8.copyWithin(d.Y + from * 4, d.A + from * 4, d.A + to * 4);
    else f32.fill(1, d.Y / 4 + from, d.Y / 4 + to);
  }
  Atomics.add(ctl, 1, 1);
}
`;
const maxThreads = 2;
const raw = await Promise.all(
  Array.from({ length: maxThreads - 1 }, (_, i) => {
    const w = new Worker(RAW, { eval: true, workerData: { module, memory: mem, ctl: ctl.buffer, index: i + 1, n, A, B, Y } });
    return new Promise<Worker>((resolve) => w.once('message', () => resolve(w)));
  }),
);
function rawRun(job: number, threads: number): number {
  ctl[2] = job;
  ctl[3] = threads;
  Atomics.store(ctl, 1, 0);
  const t0 = performance.now();
  Atomics.add(ctl, 0, 1);
  const to = threads === 1 ? n : Math.floor(n / threads / 16) * 16;
  if (job === 0) k.f32_vadd(to, A, B, Y);
  else if (job === 1) u8.copyWithin(Y, A, A + to * 4);
  else f32.fill(1, Y / 4, Y / 4 + to);
  while (Atomics.load(ctl, 1) < raw.length);
  return (performance.now() - t0) * 1000;
}
const rawJobs: [string, number, number][] = [
  ['f32_vadd 1e7', 0, 120e6],
  ['memory.copy 40 MB', 1, 80e6],
  ['fill 40 MB', 2, 40e6],
];
const rawTimes = new Map<string, number[]>();
for (let r = 0; r < reps; r++)
  for (const [name, job] of rawJobs)
    for (let threads = 1; threads <= maxThreads; threads++) {
      const key = `${name}, ${threads} thread${threads > 1 ? 's' : ''}`;
      (rawTimes.get(key) ?? rawTimes.set(key, []).get(key)!).push(rawRun(job, threads));
    }
console.log(`2. The ceiling: plain loops on N threads over one shared memory (wall, ${reps} runs):`);
for (const [name, , bytes] of rawJobs)
  for (let threads = 1; threads <= maxThreads; threads++) {
    const key = `${name}, ${threads} thread${threads > 1 ? 's' : ''}`;
    const xs = rawTimes.get(key)!;
    console.log(`   ${key}: ${stats(xs)} (${gbs(bytes, Math.min(...xs))} at the least)`);
  }
Atomics.store(ctl, 0, -1);
await Promise.all(raw.map((w) => w.terminate()));

// ---- 3. aten-ts's torch.add(a, b, { out }) on 1 and 2 threads ------------------------------------------------------
setNumThreads(2);
const a = torch.randn(n);
const b = torch.randn(n);
const out = torch.empty(n);
for (let i = 0; i < 10; i++) torch.add(a, b, { out });
const aten = new Map<number, number[]>([
  [1, []],
  [2, []],
]);
for (let r = 0; r < reps; r++)
  for (const threads of [1, 2]) {
    setNumThreads(threads);
    const t0 = performance.now();
    torch.add(a, b, { out });
    aten.get(threads)!.push((performance.now() - t0) * 1000);
  }
console.log(`3. aten-ts torch.add(a, b, { out }) (wall, ${reps} calls, alternating thread counts):`);
for (const [threads, xs] of aten)
  console.log(`   ${threads} thread${threads > 1 ? 's' : ''}: ${stats(xs)} (${gbs(120e6, Math.min(...xs))} at the least)`);
