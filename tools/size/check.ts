// `npm run check:size`, second part (the first is tools/size/lines.ts, the module-size rule of tools/ and test/):
// the size budget of the core. Bundles dist/index.js (the browser entry, from
// `npm run build`) with esbuild `--minify` (platform neutral, ESM: what a user's bundler ships when it keeps
// the whole package), gzips it with node:zlib at level 9, and fails when the gzipped bytes exceed the budget
// in tools/size/budget.json. Raise the budget deliberately, in the same commit as the growth, and update the
// README's "Bundle size" figure.

import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

interface Budget {
  /** The most minified+gzipped bytes the core may take. */
  readonly coreGzipBytes: number;
  readonly note: string;
}

/** The core's sizes: the minified bundle and its gzip (level 9). */
export async function measureCore(): Promise<{ minified: number; gzipped: number }> {
  const result = await build({
    entryPoints: [join(ROOT, 'dist/index.js')],
    bundle: true,
    minify: true,
    platform: 'neutral',
    format: 'esm',
    write: false,
    logLevel: 'error',
  });
  const code = result.outputFiles[0]?.contents;
  if (code === undefined) throw new Error('esbuild produced no output');
  return { minified: code.byteLength, gzipped: gzipSync(code, { level: 9 }).byteLength };
}

async function main(): Promise<void> {
  const budget = JSON.parse(readFileSync(join(ROOT, 'tools/size/budget.json'), 'utf8')) as Budget;
  const { minified, gzipped } = await measureCore();
  const kb = (n: number): string => `${(n / 1024).toFixed(1)} KiB`;
  const line = `size: core (esbuild --minify of dist/index.js, gzip -9) ${kb(minified)} minified, ${gzipped} bytes = ${kb(gzipped)} gzipped; budget ${budget.coreGzipBytes} bytes (${kb(budget.coreGzipBytes)})`;
  if (gzipped > budget.coreGzipBytes) {
    console.log(`${line}\nsize: FAIL the core is ${gzipped - budget.coreGzipBytes} bytes over budget (tools/size/budget.json)`);
    process.exitCode = 1;
  } else {
    console.log(`${line}\nsize: ok, ${(100 * (1 - gzipped / budget.coreGzipBytes)).toFixed(1)}% under budget`);
  }
}

await main();
