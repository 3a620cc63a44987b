// bench/mixed_workloads.ts: the workloads of bench/compare alternated in one process, as its aten-ts
// worker runs them (about 300 ms of each per round), printing each round's time per call: the MLP step
// measured between the others against the MLP alone (`--only mlp`). With `node --trace-opt --trace-deopt
// --import tsx bench/mixed_workloads.ts`, the V8 optimizations and deoptimizations of each round show which
// functions are compiled again as the workloads alternate.
//   npx tsx bench/mixed_workloads.ts [--rounds 12] [--only mlp|mm256|...] [--threads 1]
import { parseArgs } from 'node:util';
import { torch } from '../src/node.js';
import { mlpStep, warmLinearMemory } from './mlp_workload.js';

const { values: opts } = parseArgs({
  options: { rounds: { type: 'string', default: '12' }, only: { type: 'string' }, threads: { type: 'string', default: '1' } },
});
torch.setNumThreads(Number(opts.threads));
torch.manualSeed(0);
warmLinearMemory();
const mlp = mlpStep();
const [a256, b256] = [torch.randn(256, 256), torch.randn(256, 256)];
const [a1k, b1k] = [torch.randn(1024, 1024), torch.randn(1024, 1024)];
const [cx, cw] = [torch.randn(8, 3, 32, 32), torch.randn(16, 3, 3, 3)];
const [gx, gw] = [torch.randn(8, 3, 32, 32).requiresGrad_(), torch.randn(16, 3, 3, 3).requiresGrad_()];
const [xa, xb, xo] = [torch.randn([1e7]), torch.randn([1e7]), torch.empty([1e7])];
const workloads: [string, () => unknown][] = [
  ['mm256', () => torch.matmul(a256, b256)],
  ['mm1024', () => torch.matmul(a1k, b1k)],
  ['conv', () => torch.conv2d(cx, cw, null, 1, 1)],
  ['conv_bwd', () => torch.autograd.grad(torch.conv2d(gx, gw, null, 1, 1).sum(), [gx, gw])],
  ['mlp', mlp],
  ['add', () => torch.add(xa, xb, { out: xo })],
];
for (let r = 0; r < Number(opts.rounds); r++) {
  const line: string[] = [];
  for (const [name, f] of workloads) {
    if (opts.only !== undefined && name !== opts.only) continue;
    const t0 = performance.now();
    let n = 0;
    while (performance.now() - t0 < 300) {
      f();
      n++;
    }
    line.push(`${name} ${(((performance.now() - t0) / n) * 1000).toFixed(0)} µs`);
  }
  console.log(`round ${r}: ${line.join(' | ')}`);
}
process.exit(0);
