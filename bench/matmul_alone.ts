// bench/matmul_alone.ts: the 2-thread matmul 256 / 1024 and the 1e7 add into `out` in a process of their own
// (no other benchmark worker on the machine), for A/Bs of two checkouts against bench/compare.ts's columns.
//   npx tsx bench/matmul_alone.ts [<checkout root, default: this one>]
import { fileURLToPath } from 'node:url';
import type { Tensor } from '../src/node.js';

const root = process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url));
const { torch } = (await import(`${root}/src/node.js`)) as typeof import('../src/node.js');
torch.setNumThreads(2);
await new Promise((r) => setTimeout(r, 500)); // the workers are up

const median = (f: () => void, reps: number): number => {
  const ts: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    for (let i = 0; i < reps; i++) f();
    ts.push((performance.now() - t0) / reps);
  }
  return ts.sort((x, y) => x - y)[2] as number;
};
for (const n of [256, 1024]) {
  const a: Tensor = torch.randn([n, n]);
  const b: Tensor = torch.randn([n, n]);
  const reps = n === 256 ? 200 : 6;
  for (let i = 0; i < reps / 2; i++) torch.matmul(a, b);
  const ms = median(() => torch.matmul(a, b), reps);
  console.log(`${root} matmul ${n}: ${ms.toFixed(3)} ms, ${((2 * n ** 3) / ms / 1e6).toFixed(1)} GFLOP/s`);
}
const x = torch.randn([1e7]);
const y = torch.randn([1e7]);
const o = torch.empty([1e7]);
for (let i = 0; i < 20; i++) torch.add(x, y, { out: o });
console.log(`${root} add 1e7 into out: ${median(() => torch.add(x, y, { out: o }), 20).toFixed(3)} ms`);
process.exit(0);
