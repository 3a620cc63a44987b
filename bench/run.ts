// `npm run bench`: runs every bench/*.bench.ts file in its own process, one after another.
// Usage: npm run bench [-- <name filter>]
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2] ?? '';
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts') && f.includes(filter))
  .sort();
let failed = 0;
for (const f of files) {
  console.log(`\n== ${f}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', join(here, f)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
if (failed > 0) {
  console.error(`${failed} benchmark file(s) failed`);
  process.exit(1);
}
