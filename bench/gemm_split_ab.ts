// bench/gemm_split_ab.ts: the 784-128-10 MLP step (bench/compare's, batch 64) with its 6.4M-multiply-add products
// split among threads (gemmSettings.minSplitMacs = 0, the rule before Note [Small products on one thread]) and on
// one thread (the shipped 8M), alternated round by round in one process; medians of the step times and of the
// per-round ratios (one thread ÷ split; below 1: not splitting is faster).
//   T=2 npx tsx bench/gemm_split_ab.ts
import { torch } from '../src/node.js';
import { gemmSettings } from '../src/kernels/BlasKernel.js';
import { mlpStep, warmLinearMemory } from './mlp_workload.js';
torch.setNumThreads(Number(process.env.T ?? 2));
await new Promise((r) => setTimeout(r, 300));
torch.manualSeed(0);
const step = mlpStep();
warmLinearMemory();
for (let i = 0; i < 50; i++) step();
const med = (a: number[]): number => [...a].sort((p, q) => p - q)[a.length >> 1] as number;
const r: Record<string, number[]> = { split: [], one: [] };
for (let round = 0; round < 15; round++) {
  for (const [name, v] of [
    ['split', 0],
    ['one', 8 * 2 ** 20],
  ] as const) {
    gemmSettings.minSplitMacs = v;
    step();
    const t0 = performance.now();
    for (let i = 0; i < 40; i++) step();
    r[name]!.push((performance.now() - t0) / 40);
  }
}
console.log(
  `T=${process.env.T ?? 2} MLP 784-128-10 step: split ${med(r.split!).toFixed(3)} ms, one thread per product ${med(r.one!).toFixed(3)} ms; ratio medians ${med(r.one!.map((x, i) => x / r.split![i]!)).toFixed(3)}`,
);
process.exit(0);
