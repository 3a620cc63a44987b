// Start-up A/B of built bundles: `import()` of each bundle and the first 1-element `torch.add` after it, in fresh
// plain-Node processes alternated round by round; wall and CPU time (process.cpuUsage: the main thread plus V8's
// helpers) of the import and of import + first add; medians over the rounds. The bundles are self-contained files
// (dist/bundle/node.js of two builds, copied aside), so two builds compare in one run on a loaded machine.
// Run: npx tsx bench/startup_ab.ts [--rounds 9] <bundle-a.js> <bundle-b.js> ...

import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

interface Sample {
  importWall: number;
  importCpu: number;
  firstWall: number;
  firstCpu: number;
}

/** One fresh process: import `bundle`, add two 1-element tensors, print the four figures. */
function sample(bundle: string): Sample {
  const url = pathToFileURL(resolve(bundle)).href;
  const script =
    `const c0 = process.cpuUsage(); const t0 = performance.now(); const { torch } = await import(${JSON.stringify(url)});` +
    ` const t1 = performance.now(); const c1 = process.cpuUsage(c0);` +
    ` torch.add(torch.tensor([1.5]), torch.tensor([2.5])); const t2 = performance.now(); const c2 = process.cpuUsage(c0);` +
    ` const cpu = (c) => (c.user + c.system) / 1000;` +
    ` console.log(JSON.stringify({ importWall: t1 - t0, importCpu: cpu(c1), firstWall: t2 - t0, firstCpu: cpu(c2) }));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop() as string) as Sample;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

const args = process.argv.slice(2);
let rounds = 9;
const bundles: string[] = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--rounds') rounds = Number(args[++i]);
  else bundles.push(args[i] as string);
}
if (bundles.length === 0) throw new Error('usage: npx tsx bench/startup_ab.ts [--rounds 9] <bundle.js> ...');

const samples = bundles.map((): Sample[] => []);
for (let r = 0; r < rounds; r++) {
  // Alternate the order each round so neither side always runs first.
  const order = bundles.map((_, i) => i);
  if (r % 2 === 1) order.reverse();
  for (const i of order) (samples[i] as Sample[]).push(sample(bundles[i] as string));
}
console.log(`${rounds} rounds, fresh processes alternated; medians in ms (wall / CPU)`);
console.log('| bundle | import wall | import CPU | import + first add wall | import + first add CPU |');
console.log('|---|---:|---:|---:|---:|');
bundles.forEach((b, i) => {
  const s = samples[i] as Sample[];
  const f = (k: keyof Sample): string => median(s.map((x) => x[k])).toFixed(0);
  console.log(`| ${b} | ${f('importWall')} | ${f('importCpu')} | ${f('firstWall')} | ${f('firstCpu')} |`);
});
