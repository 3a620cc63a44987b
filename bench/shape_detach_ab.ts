// A/B of what the printing work touches on hot paths, two checkouts' sources in ONE process,
// alternated round by round: a 1-element add (the dispatch path), `x.shape` / `x.size()` (now a torch.Size,
// Note [Size is an Array]), `x.detach()` (now the operator aten::detach, Note [detach is dispatched]) and a
// small backward whose AccumulateGrad stores a first gradient (`.grad` reset each time: the detach path).
// Run: npx tsx bench/shape_detach_ab.ts <before-repo> <after-repo> [rounds]
// (a before-repo made with `git archive <commit> | tar -x -C DIR` and node_modules linked in works).

import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

type Torch = (typeof import('../src/index.js'))['torch'];
type Figures = Record<string, number>;

const time = (fn: () => unknown, n: number): number => {
  const runs: number[] = [];
  for (let r = 0; r < 5; r++) {
    const s = performance.now();
    for (let i = 0; i < n; i++) fn();
    runs.push(((performance.now() - s) * 1e6) / n);
  }
  return runs.sort((x, y) => x - y)[2] as number;
};

function measure(torch: Torch): Figures {
  const a1 = torch.tensor([1.5]);
  const b1 = torch.tensor([2.5]);
  const x = torch.ones(2, 3);
  const w = torch.tensor([1.5, 2.5, 3.5], { requires_grad: true });
  const y = torch.tensor([0.5, 1.5, 2.5]);
  let sink = 0;
  return {
    'torch.add, 1 element (ns)': time(() => torch.add(a1, b1), 50_000),
    'x.shape (ns)': time(() => (sink += x.shape.length), 200_000),
    'x.size() (ns)': time(() => (sink += x.size().length), 200_000),
    'const [r, c] = x.shape (ns)': time(() => {
      const [r, c] = x.shape;
      sink += (r as number) + (c as number);
    }, 200_000),
    'x.detach() (ns)': time(() => x.detach(), 100_000),
    '(w * y).sum().backward(), fresh .grad (µs)':
      time(() => {
        w.grad = null;
        w.mul(y).sum().backward();
      }, 5_000) / 1e3,
  };
}

const median = (a: number[]): number => a.slice().sort((p, q) => p - q)[a.length >> 1] as number;

const [before, after] = [process.argv[2], process.argv[3]];
if (before === undefined || after === undefined)
  throw new Error('usage: npx tsx bench/shape_detach_ab.ts <before-repo> <after-repo> [rounds]');
const rounds = Number(process.argv[4] ?? 8);
const load = async (root: string): Promise<Torch> =>
  ((await import(pathToFileURL(resolve(root, 'src/index.ts')).href)) as typeof import('../src/index.js')).torch;
const sides = { before: await load(before), after: await load(after) };
const results: Record<'before' | 'after', Figures[]> = { before: [], after: [] };
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const);
  for (const side of order) results[side].push(measure(sides[side]));
}
console.log(`medians over ${rounds} alternated rounds (each figure: the median of 5 batches)`);
console.log('| path | before | after | after/before |\n|---|---|---|---|');
for (const k of Object.keys(results.before[0] as Figures)) {
  const b = median(results.before.map((f) => f[k] as number));
  const a = median(results.after.map((f) => f[k] as number));
  console.log(`| ${k} | ${b.toFixed(1)} | ${a.toFixed(1)} | ${(a / b).toFixed(2)} |`);
}
