// A/B of two checkouts of aten-ts on the hot paths, in fresh processes alternated round by round (the compiled
// dist/ of each: what users run). For structural changes that must not make anything slower.
// Run: npx tsx bench/ab.ts <before-repo> <after-repo> [rounds]   (both with `npm run build` done)

import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

type Figures = Record<string, number>;

/** Import and first-op times of `root`'s dist in a plain Node process (no TypeScript loader in the way). */
function startup(root: string): Figures {
  const url = pathToFileURL(resolve(root, 'dist/index.js')).href;
  const script =
    `const t0 = performance.now(); const { torch } = await import(${JSON.stringify(url)}); const t1 = performance.now();` +
    ` torch.add(torch.tensor([1.5]), torch.tensor([2.5])); console.log(JSON.stringify([t1 - t0, performance.now() - t0]));`;
  const [imp, first] = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as number[];
  return { 'import (ms)': imp as number, 'import + first op (ms)': first as number };
}

/** The hot paths in one process: medians of 9 timed batches per path. */
async function worker(root: string): Promise<Figures> {
  const { torch } = (await import(pathToFileURL(resolve(root, 'dist/index.js')).href)) as typeof import('../src/index.js');
  const time = (fn: () => unknown, n: number): number => {
    const runs: number[] = [];
    for (let r = 0; r < 9; r++) {
      const s = performance.now();
      for (let i = 0; i < n; i++) fn();
      runs.push(((performance.now() - s) * 1e6) / n);
    }
    return runs.sort((x, y) => x - y)[4] as number;
  };
  const a1 = torch.tensor([1.5]);
  const b1 = torch.tensor([2.5]);
  const g = torch.tensor([1.5], { requiresGrad: true });
  const x = torch.ones(2, 3);
  const big = torch.rand(1_000_000);
  const big2 = torch.rand(1_000_000);
  const out = torch.empty(1_000_000);
  const m = torch.rand(256, 256);
  return {
    'torch.add, 1 element (ns)': time(() => torch.add(a1, b1), 200_000),
    'a.add(b), 1 element (ns)': time(() => a1.add(b1), 200_000),
    'torch.add, a requires grad (ns)': time(() => torch.add(g, b1), 100_000),
    'x.view(6) (ns)': time(() => x.view(6), 200_000),
    'x.sum() of 6 elements (ns)': time(() => x.sum(), 100_000),
    'add 1e6 into out (µs)': time(() => torch.add(big, big2, { out }), 40) / 1e3,
    'sum of 1e6 (µs)': time(() => big.sum(), 40) / 1e3,
    'softmax 256×256, dim 1 (µs)': time(() => torch.softmax(m, 1), 40) / 1e3,
  };
}

const median = (a: number[]): number => a.slice().sort((x, y) => x - y)[a.length >> 1] as number;

if (process.argv[2] === '--worker') {
  console.log(JSON.stringify(await worker(process.argv[3] as string)));
} else {
  const [before, after] = [process.argv[2], process.argv[3]];
  if (before === undefined || after === undefined) throw new Error('usage: npx tsx bench/ab.ts <before-repo> <after-repo> [rounds]');
  const rounds = Number(process.argv[4] ?? 10);
  const self = fileURLToPath(import.meta.url);
  const runs: Record<'before' | 'after', Figures[]> = { before: [], after: [] };
  for (let r = 0; r < rounds; r++) {
    for (const side of r % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const)) {
      const root = side === 'before' ? before : after;
      const out = execFileSync(process.execPath, ['--import', 'tsx', self, '--worker', root], { encoding: 'utf8' });
      runs[side].push({ ...startup(root), ...(JSON.parse(out.trim().split('\n').at(-1) as string) as Figures) });
    }
  }
  console.log(`| path (median of ${rounds} processes each) | before | after | after ÷ before |\n|---|---:|---:|---:|`);
  for (const key of Object.keys(runs.before[0] ?? {})) {
    const b = median(runs.before.map((f) => f[key] as number));
    const a = median(runs.after.map((f) => f[key] as number));
    console.log(`| ${key} | ${b.toFixed(1)} | ${a.toFixed(1)} | ${(a / b).toFixed(2)} |`);
  }
}
