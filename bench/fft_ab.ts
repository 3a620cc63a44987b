// torch.fft against PyTorch side by side: fft of float32 lengths 1024, 4096, 4099 (prime: Bluestein) and 65536,
// and rfft2 of a 256 × 256 float32 image. Each round times aten-ts in this process, then PyTorch in a Python
// child (the same cases, the same timing rule: ms per call of the fastest of 3 batches of `reps` calls);
// medians over rounds and the ratio aten-ts / PyTorch.
// Run: npx tsx bench/fft_ab.ts [rounds] [threads]   (defaults 5 rounds, 2 threads; Python: $PYTHON or
// .venv-golden/bin/python)

import { spawnSync } from 'node:child_process';
import { torch } from '../src/node.js';
import type { Tensor } from '../src/tensor/Tensor.js';

const rounds = Number(process.argv[2] ?? 5);
const threads = Number(process.argv[3] ?? 2);
torch.setNumThreads(threads);
const python = process.env['PYTHON'] ?? new URL('../.venv-golden/bin/python', import.meta.url).pathname;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

// [name, shape, function name, reps]
const cases: [string, number[], 'fft' | 'rfft2', number][] = [
  ['fft 1024', [1024], 'fft', 200],
  ['fft 4096', [4096], 'fft', 50],
  ['fft 4099 (prime)', [4099], 'fft', 20],
  ['fft 65536', [65536], 'fft', 5],
  ['rfft2 256x256', [256, 256], 'rfft2', 5],
];

const best = (f: () => void, reps: number): number => {
  let b = Infinity;
  for (let k = 0; k < 3; k++) {
    const s = performance.now();
    for (let i = 0; i < reps; i++) f();
    b = Math.min(b, (performance.now() - s) / reps);
  }
  return b;
};

torch.manualSeed(0);
const inputs = cases.map(([, shape]) => torch.randn(...shape));
const ours = (): number[] =>
  cases.map(([, , fn, reps], i) => {
    const x = inputs[i] as Tensor;
    const f = fn === 'fft' ? (): unknown => torch.fft.fft(x) : (): unknown => torch.fft.rfft2(x);
    return best(() => torch.scope(f), reps);
  });

const pyScript = `
import json, sys, time, torch
torch.set_num_threads(${threads})
torch.manual_seed(0)
cases = json.loads(sys.argv[1])
out = []
for shape, fn, reps in cases:
    x = torch.randn(*shape)
    f = getattr(torch.fft, fn)
    f(x)
    b = float('inf')
    for _ in range(3):
        s = time.perf_counter()
        for _ in range(reps):
            f(x)
        b = min(b, (time.perf_counter() - s) * 1000 / reps)
    out.append(b)
print(json.dumps(out))
`;
const theirs = (): number[] => {
  const arg = JSON.stringify(cases.map(([, shape, fn, reps]) => [shape, fn, reps * 20]));
  const r = spawnSync(python, ['-c', pyScript, arg], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`PyTorch side failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim()) as number[];
};

ours(); // warm up: plans, JIT
const a: number[][] = cases.map(() => []);
const b: number[][] = cases.map(() => []);
for (let r = 0; r < rounds; r++) {
  const first = r % 2 === 0;
  const [x, y] = first ? [ours(), theirs()] : (() => { const t = theirs(); return [ours(), t]; })(); // prettier-ignore
  cases.forEach((_, i) => {
    a[i]?.push(x[i] as number);
    b[i]?.push(y[i] as number);
  });
}
console.log(`torch.fft, ${rounds} rounds, ${threads} threads: ms per call (median), aten-ts / PyTorch`);
cases.forEach(([name], i) => {
  const ma = median(a[i] as number[]);
  const mb = median(b[i] as number[]);
  console.log(
    `${name.padEnd(18)} aten-ts ${ma.toFixed(4).padStart(9)}  PyTorch ${mb.toFixed(4).padStart(9)}  ratio ${(ma / mb).toFixed(1)}x`,
  );
});
