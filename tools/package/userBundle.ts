// A user's project in a scratch folder, with this package installed (a node_modules symlink), and its one-line
// program bundled by esbuild with defaults, as a user's bundler would. Shared by tools/package/check.ts (runs
// the bundles in Node) and tools/browser/run.ts (runs the browser bundle in Chromium).

import { buildSync } from 'esbuild';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** The user's snippet, as a module: the one line a README reader writes first. */
export const USER_SNIPPET = 'String(torch.add(torch.tensor([1.5, 2]), torch.arange(2), { alpha: 3 }))';

/** A scratch project whose node_modules/aten-ts is this package, as `npm install` would link it. */
export function scratchProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'aten-ts-package-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules/aten-ts'), 'dir');
  writeFileSync(join(dir, 'package.json'), '{ "name": "user", "private": true }\n');
  writeFileSync(join(dir, 'user.mjs'), `import { torch } from 'aten-ts';\nconsole.log(${USER_SNIPPET});\n`);
  return dir;
}

/** esbuild with its defaults, as a user runs it: resolution through node_modules, exports and sideEffects. */
export function bundleUser(dir: string, entry: string, outfile: string, platform: 'browser' | 'node', minify: boolean): void {
  buildSync({ absWorkingDir: dir, entryPoints: [entry], bundle: true, minify, platform, format: 'esm', outfile, logLevel: 'error' });
}
