// bench/gemm_threads.ts: what a second thread gains on a float32 product, per shape: `torch.mm` on 1 and on 2
// threads alternated round by round in one process (warmed linear memory, a fresh result every call, as
// bench/compare calls it), medians of the rounds and of the per-round speed-ups (Note [Gemm split]).
//   npx tsx bench/gemm_threads.ts [--shapes "m,n,k;m,n,k"] [--rounds 11]
import { parseArgs } from 'node:util';
import { torch } from '../src/node.js';
import { warmLinearMemory } from './mlp_workload.js';

const { values: opts } = parseArgs({
  options: {
    shapes: { type: 'string', default: '256,256,256;64,128,784;784,128,64;1024,1024,1024;32,4096,64;16,8192,27' },
    rounds: { type: 'string', default: '11' },
  },
});
torch.setNumThreads(2);
await new Promise((r) => setTimeout(r, 300)); // the worker is up
warmLinearMemory();
const median = (a: number[]): number => [...a].sort((p, q) => p - q)[a.length >> 1] as number;

for (const s of opts.shapes.split(';')) {
  const [m, n, k] = s.split(',').map(Number) as [number, number, number];
  const a = torch.randn([m, k]);
  const b = torch.randn([k, n]);
  const calls = Math.max(2, Math.round(2e7 / (m * n * k)));
  const times: Record<number, number[]> = { 1: [], 2: [] };
  for (let r = 0; r < Number(opts.rounds); r++) {
    for (const t of [1, 2]) {
      torch.setNumThreads(t);
      torch.mm(a, b);
      const t0 = performance.now();
      for (let i = 0; i < calls; i++) torch.mm(a, b);
      (times[t] as number[]).push(((performance.now() - t0) / calls) * 1000);
    }
  }
  const [one, two] = [times[1] as number[], times[2] as number[]];
  const gflops = (us: number): string => ((2 * m * n * k) / us / 1e3).toFixed(1);
  console.log(
    `${m}×${k} @ ${k}×${n}: 1 thread ${median(one).toFixed(0)} µs (${gflops(median(one))} GFLOP/s), 2 threads ` +
      `${median(two).toFixed(0)} µs (${gflops(median(two))} GFLOP/s), speed-up ${median(one.map((x, i) => x / (two[i] as number))).toFixed(2)}`,
  );
}
process.exit(0);
