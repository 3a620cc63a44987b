// Same-process A/B of a bias gradient's sum: the planes kernel (one f32_rsum_planes call per sum, Note
// [Per-channel sums]) against the per-run path it replaced (one f32_rsum call per run, the partials in doubles,
// Note [Reducing runs, then partials]: the planes form detached), and the column sums of a linear layer's bias
// for reference. LeNet's shapes; CPU time per call (process.cpuUsage), median of 7 alternated rounds after warm-up.
// Run: npx tsx bench/bias_sum.ts [threads]

import { torch } from '../src/node.js';
import { sumPlanes, sumRunVec } from '../src/kernels/ReduceOpsKernel.js';

torch.setNumThreads(Number(process.argv[2] ?? 1));
const holder = sumRunVec as typeof sumRunVec & { planes?: typeof sumPlanes };
const cases: [number[], number[]][] = [
  [
    [64, 6, 24, 24],
    [0, 2, 3],
  ],
  [
    [64, 16, 8, 8],
    [0, 2, 3],
  ],
  [[64, 120], [0]],
  [[64, 10], [0]],
];
const cpu = (f: () => void, k: number): number => {
  const c0 = process.cpuUsage();
  for (let i = 0; i < k; i++) f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / k;
};
const median = (a: number[]): number => [...a].sort((x, y) => x - y)[a.length >> 1]!;
for (const [shape, dims] of cases) {
  const g = torch.randn(shape);
  const run = (): void => void torch.sum(g, dims).dispose();
  const r = { planes: [] as number[], runs: [] as number[] };
  for (let round = 0; round < 8; round++) {
    for (const mode of ['planes', 'runs'] as const) {
      holder.planes = mode === 'planes' ? sumPlanes : undefined;
      cpu(run, 300);
      const t = cpu(run, 1000);
      if (round > 0) r[mode].push(t);
    }
  }
  holder.planes = sumPlanes;
  console.log(
    `sum(${JSON.stringify(dims)}) of ${JSON.stringify(shape)}: planes ${median(r.planes).toFixed(1)} µs, per run ${median(r.runs).toFixed(1)} µs (CPU per call)`,
  );
}
