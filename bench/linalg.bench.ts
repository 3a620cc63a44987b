// Matrix multiply throughput (GFLOP/s) of the cache-blocked JavaScript gemm (Note [Cache-blocked gemm]).
// Run: npx tsx bench/linalg.bench.ts   (or npm run bench -- linalg)
import { torch } from '../src/api/index.js';
import { DispatchKey, DispatchKeySet } from '../src/c10/index.js';
import { mm } from '../src/kernels/LinearAlgebra.js';

const ks = DispatchKeySet.fromKey(DispatchKey.CPU);
for (const n of [256, 512, 1024]) {
  const a = torch.rand(n, n);
  const b = torch.rand(n, n);
  mm(ks, a, b); // warm up
  const reps = n <= 256 ? 20 : n <= 512 ? 5 : 2;
  const times: number[] = [];
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    mm(ks, a, b);
    times.push(performance.now() - t0);
  }
  const best = Math.min(...times);
  console.log(`mm ${n}x${n} float32: best ${best.toFixed(1)} ms, ${((2 * n ** 3) / (best * 1e6)).toFixed(2)} GFLOP/s`);
}
