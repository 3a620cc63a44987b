// Per-call A/B of built bundles for the 1-element add: every bundle imported into one process (each has its own
// library state), then rounds of 1e5 `torch.add(a, b)` on 1-element tensors, bundle by bundle, the order
// alternated each round; CPU time per call (process.cpuUsage), median and minimum over the rounds. One process,
// so a loaded machine slows both sides alike; used to check that a start-up change leaves the per-call cost alone.
// Run: npx tsx bench/add1_ab.ts [--rounds 15] <bundle-a.js> <bundle-b.js> ...

import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

interface Lib {
  torch: { tensor(data: number[]): unknown; add(a: unknown, b: unknown): unknown };
}

const args = process.argv.slice(2);
let rounds = 15;
const bundles: string[] = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--rounds') rounds = Number(args[++i]);
  else bundles.push(args[i] as string);
}
if (bundles.length === 0) throw new Error('usage: npx tsx bench/add1_ab.ts [--rounds 15] <bundle.js> ...');

const N = 100_000;
const sides: { name: string; run: () => void; ns: number[] }[] = [];
for (const b of bundles) {
  const { torch } = (await import(pathToFileURL(resolve(b)).href)) as Lib;
  const x = torch.tensor([1.5]);
  const y = torch.tensor([2.5]);
  const run = (): void => {
    for (let i = 0; i < N; i++) torch.add(x, y);
  };
  for (let w = 0; w < 3; w++) run(); // warm-up: every tier compiled before the timed rounds
  sides.push({ name: b, run, ns: [] });
}
for (let r = 0; r < rounds; r++) {
  for (const s of r % 2 === 1 ? [...sides].reverse() : sides) {
    const c0 = process.cpuUsage();
    s.run();
    const c = process.cpuUsage(c0);
    s.ns.push(((c.user + c.system) * 1000) / N);
  }
}
const median = (xs: number[]): number => {
  const s = [...xs].sort((p, q) => p - q);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
console.log(`${rounds} rounds of ${N} 1-element adds per bundle, one process, alternated; CPU ns per call`);
console.log('| bundle | median | min |');
console.log('|---|---:|---:|');
for (const s of sides) console.log(`| ${s.name} | ${median(s.ns).toFixed(0)} | ${Math.min(...s.ns).toFixed(0)} |`);
