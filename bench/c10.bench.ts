// DispatchKeySet operations on the dispatch hot path: union, FULL_AFTER, highest key, table index.
// Run: npx tsx bench/c10.bench.ts   (or npm run bench -- c10)
import { bench, do_not_optimize, run, summary } from 'mitata';
import { DispatchKey, DispatchKeySet, afterAutogradKeyset, dispatchTableIndexOf } from '../src/c10/index.js';

const a = DispatchKeySet.of(DispatchKey.CPU, DispatchKey.ADInplaceOrView, DispatchKey.AutogradCPU, DispatchKey.AutocastCPU);
const b = DispatchKeySet.of(DispatchKey.Meta, DispatchKey.AutogradMeta);
const sets = [a, b, a.or(b), DispatchKeySet.fromKey(DispatchKey.SparseCPU), DispatchKeySet.fromKey(DispatchKey.PythonDispatcher)];
let i = 0;
const next = () => sets[i++ % sets.length]!;

summary(() => {
  bench('union (a.or(b), interned)', () => do_not_optimize(next().or(b)));
  bench('and with after_autograd_keyset', () => do_not_optimize(next().and(afterAutogradKeyset)));
  bench('minus (functionality-only difference)', () => do_not_optimize(next().minus(b)));
  bench('DispatchKeySet.fullAfter(AutogradCPU)', () => do_not_optimize(DispatchKeySet.fullAfter(DispatchKey.AutogradCPU)));
  bench('highestPriorityTypeId()', () => do_not_optimize(next().highestPriorityTypeId()));
  bench('getDispatchTableIndexForDispatchKeySet()', () => do_not_optimize(next().getDispatchTableIndexForDispatchKeySet()));
  bench('dispatchTableIndexOf(lo, hi) (hot-path form)', () => {
    const s = next();
    return do_not_optimize(dispatchTableIndexOf(s.lo, s.hi));
  });
  bench('has(AutogradCPU)', () => do_not_optimize(next().has(DispatchKey.AutogradCPU)));
});

// Allocation check: 10^6 unions of sets seen before must not grow the heap.
const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const before = process.memoryUsage().heapUsed;
let acc = 0;
for (let n = 0; n < 1_000_000; n++) acc ^= next().or(b).and(afterAutogradKeyset).lo;
const after = process.memoryUsage().heapUsed;
console.log(`heap growth over 10^6 union+and: ${((after - before) / 1024).toFixed(1)} KiB (checksum ${acc})`);

await run();
