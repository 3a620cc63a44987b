// The cost of one operator call through the dispatcher, against calling the kernel directly.
// Run: node --expose-gc --import tsx bench/dispatch.bench.ts   (or npm run bench -- dispatch)
import { PerformanceObserver } from 'node:perf_hooks';
import { bench, do_not_optimize, run, summary } from 'mitata';
import { DispatchKey, DispatchKeySet, afterAutogradKeyset } from '../src/c10/index.js';
import { Dispatcher, Library } from '../src/dispatch/index.js';

interface T {
  readonly keySet: DispatchKeySet;
  readonly v: number;
}
const d = Dispatcher.withBuiltinFallbacks();
const lib = new Library('FRAGMENT', 'bench', undefined, { dispatcher: d });

// A trivial kernel: reads one field of each argument.
const kernel = (_ks: DispatchKeySet, a: T, b: T): number => a.v + b.v;
lib.def('add(Tensor self, Tensor other) -> Tensor');
lib.impl('add', kernel, 'CPU');
lib.def('add2(Tensor self, Tensor other) -> Tensor');
lib.impl('add2', kernel, 'CPU');
const add = d.findSchemaOrThrow('bench::add');
const add2 = d.findSchemaOrThrow('bench::add2');
lib.impl('add2', (ks: DispatchKeySet, a: T, b: T) => add2.redispatch(ks.and(afterAutogradKeyset), a, b), 'Autograd');

// A tensor with only the CPU key, and one with a real CPU tensor's keys (Autograd first).
const bare: T = { keySet: DispatchKeySet.fromKey(DispatchKey.CPU), v: 1 };
const full: T = {
  keySet: DispatchKeySet.of(DispatchKey.CPU, DispatchKey.ADInplaceOrView, DispatchKey.AutogradCPU, DispatchKey.AutocastCPU),
  v: 2,
};
const ks = DispatchKeySet.fromKey(DispatchKey.CPU);
// An indirect call that V8 cannot inline (the kernel comes from a table of several functions), which is
// what any dispatcher ends with: the fair baseline for "the same kernel called directly".
const kernels = [kernel, (_ks: DispatchKeySet, a: T) => a.v, (_ks: DispatchKeySet, _a: T, b: T) => b.v, kernel];
let which = 0;

summary(() => {
  bench('direct kernel call (inlined by V8)', () => do_not_optimize(kernel(ks, bare, bare)));
  bench('direct kernel call through a function table', () => do_not_optimize(kernels[which++ & 3]!(ks, bare, bare)));
  bench('op.call, CPU-only tensors (extract, lookup, call)', () => do_not_optimize(add.call(bare, bare)));
  bench('op.call, CPU tensors: built-in autograd fallback -> CPU', () => do_not_optimize(add.call(full, full)));
  bench('op.call, CPU tensors: Autograd kernel redispatch -> CPU', () => do_not_optimize(add2.call(full, full)));
});

// Allocation check: count minor GCs and heap growth over 10^6 calls on the unboxed path.
const gc = (globalThis as { gc?: () => void }).gc;
let gcs = 0;
const obs = new PerformanceObserver((list) => (gcs += list.getEntries().length));
obs.observe({ entryTypes: ['gc'] });
for (const [name, f] of [
  ['op.call CPU-only', () => add.call(bare, bare)],
  ['op.call via autograd fallback', () => add.call(full, full)],
  ['op.call via Autograd kernel', () => add2.call(full, full)],
] as const) {
  for (let n = 0; n < 100_000; n++) f();
  gc?.();
  await new Promise((r) => setTimeout(r, 10));
  gcs = 0;
  const before = process.memoryUsage().heapUsed;
  let acc = 0;
  for (let n = 0; n < 1_000_000; n++) acc += f() as number;
  const after = process.memoryUsage().heapUsed;
  await new Promise((r) => setTimeout(r, 10));
  console.log(`${name}: heap growth over 10^6 calls ${((after - before) / 1024).toFixed(1)} KiB, GCs ${gcs} (checksum ${acc})`);
}
obs.disconnect();

await run();
