// A/B of two source checkouts of aten-ts on the elementwise and sum paths that the generated kernel table
// and the twins-as-fallback touch (add / mul / exp / sum, large in linear memory and small in the JS heap, at
// the shipped allocator settings), in fresh processes alternated round by round; medians per path.
// Run: npx tsx bench/kernels_ab.ts <before-repo> <after-repo> [rounds]   (src/ of each, through tsx)

import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

type Figures = Record<string, number>;

/** The paths in one process: medians of 9 timed batches each. */
async function worker(root: string): Promise<Figures> {
  const { torch } = (await import(pathToFileURL(resolve(root, 'src/index.ts')).href)) as typeof import('../src/index.js');
  const time = (fn: () => unknown, n: number): number => {
    const runs: number[] = [];
    for (let r = 0; r < 9; r++) {
      const s = performance.now();
      for (let i = 0; i < n; i++) torch.scope(fn as () => void);
      runs.push(((performance.now() - s) * 1e6) / n);
    }
    return runs.sort((x, y) => x - y)[4] as number;
  };
  const big = torch.rand(1_000_000);
  const big2 = torch.rand(1_000_000);
  const out = torch.empty(1_000_000);
  const small = torch.rand(200); // 800 bytes: the JS heap, the twins
  const small2 = torch.rand(200);
  const m = torch.rand(1000, 64);
  return {
    'add 1e6 into out (µs)': time(() => torch.add(big, big2, { out }), 40) / 1e3,
    'mul 1e6 into out (µs)': time(() => torch.mul(big, big2, { out }), 40) / 1e3,
    'exp 1e6 into out (µs)': time(() => torch.exp(big, { out }), 20) / 1e3,
    'sum of 1e6 (µs)': time(() => big.sum(), 40) / 1e3,
    'add of 200, JS heap (ns)': time(() => torch.add(small, small2), 20_000),
    'mul by a scalar, 200 (ns)': time(() => torch.mul(small, 0.5), 20_000),
    'exp of 200, JS heap (ns)': time(() => torch.exp(small), 20_000),
    'sum of 200, JS heap (ns)': time(() => small.sum(), 20_000),
    'sum over dim 0 of 1000×64, strided (µs)': time(() => m.sum(0), 200) / 1e3,
    'sum over dim 1 of 1000×64 (µs)': time(() => m.sum(1), 200) / 1e3,
  };
}

const median = (a: number[]): number => a.slice().sort((x, y) => x - y)[a.length >> 1] as number;

if (process.argv[2] === '--worker') {
  console.log(JSON.stringify(await worker(process.argv[3] as string)));
} else {
  const [before, after] = [process.argv[2], process.argv[3]];
  if (before === undefined || after === undefined)
    throw new Error('usage: npx tsx bench/kernels_ab.ts <before-repo> <after-repo> [rounds]');
  const rounds = Number(process.argv[4] ?? 5);
  const self = fileURLToPath(import.meta.url);
  const runs: Record<'before' | 'after', Figures[]> = { before: [], after: [] };
  for (let r = 0; r < rounds; r++) {
    for (const [side, root] of (r % 2 === 0
      ? [
          ['before', before],
          ['after', after],
        ]
      : [
          ['after', after],
          ['before', before],
        ]) as ['before' | 'after', string][]) {
      const text = execFileSync(process.execPath, ['--import', 'tsx', self, '--worker', resolve(root)], { encoding: 'utf8' });
      runs[side].push(JSON.parse(text.trim().split('\n').pop() as string) as Figures);
    }
  }
  const keys = Object.keys(runs.before[0] as Figures);
  console.log(`| path | before | after | after / before |  (${rounds} rounds, medians)`);
  console.log('| --- | --- | --- | --- |');
  for (const k of keys) {
    const b = median(runs.before.map((f) => f[k] as number));
    const a = median(runs.after.map((f) => f[k] as number));
    console.log(`| ${k} | ${b.toFixed(1)} | ${a.toFixed(1)} | ${(a / b).toFixed(2)} |`);
  }
}
