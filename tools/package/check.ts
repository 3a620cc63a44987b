// `npm run check:package`: the package works with bundlers and CommonJS without configuration. Node-only; needs
// `npm run build` first (`npm test` runs it after check:api, which builds). Checks, printing each:
//  1. package.json `sideEffects` lists exactly the built modules with import-time effects (sideEffects.ts
//     finds them) plus the entry bundles, so a bundler never drops the start-up registrations.
//  2. A user file `import { torch } from 'aten-ts'`, bundled by esbuild as a user's bundler would (through
//     `exports`, for the browser and for Node), prints what the same call prints unbundled in Node.
//  3. A user file importing only `Dispatcher` from the multi-module build (dist/index.js, what a bundler
//     that ignores `exports` reads through `main`) still gets the aten operators registered.
//  4. The core bundle (dist/bundle/index.js) imports nothing: no Node built-in, no require.
//  5. `require('aten-ts')` fails with the ESM-only message; `import('aten-ts')` works from Node.

import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { builtinModules } from 'node:module';
import { readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { effectfulModules } from './sideEffects.js';
import { USER_SNIPPET, bundleUser, scratchProject } from './userBundle.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const DIST = join(ROOT, 'dist');
const CORE_BUNDLE = join(DIST, 'bundle/index.js');

let failed = 0;
function check(name: string, body: () => string): void {
  try {
    console.log(`  ok   ${name}: ${body()}`);
  } catch (e) {
    failed++;
    console.log(`  FAIL ${name}: ${e instanceof Error ? e.message : String(e)}`);
  }
}
function assert(cond: boolean, message: string): asserts cond {
  if (!cond) throw new Error(message);
}

function jsFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) jsFiles(p, out);
    else if (p.endsWith('.js')) out.push(p);
  }
  return out;
}

const node = (cwd: string, args: string[]): string => execFileSync(process.execPath, args, { cwd, encoding: 'utf8', stdio: 'pipe' }).trim();

async function main(): Promise<void> {
  console.log('package: bundlers and CommonJS');
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { sideEffects: unknown; exports: Record<string, unknown> };

  check('sideEffects lists exactly the modules with import-time effects, the package entry among them', () => {
    const sources = new Map<string, string>();
    for (const file of jsFiles(DIST)) {
      const rel = relative(ROOT, file);
      if (!rel.startsWith('dist/bundle/') && !rel.startsWith('dist/cli/')) sources.set(rel, readFileSync(file, 'utf8'));
    }
    const why = effectfulModules(sources);
    const detail = [...why].map(([file, effects]) => `${file}: ${effects}`);
    assert(why.has('dist/index.js'), `importing dist/index.js does not reach the start-up:\n    ${detail.join('\n    ')}`);
    const want = [...[...why.keys()].map((f) => `./${f}`), './dist/bundle/*.js'].sort();
    const listed = Array.isArray(pkg.sideEffects) ? [...(pkg.sideEffects as string[])].sort() : pkg.sideEffects;
    assert(
      JSON.stringify(listed) === JSON.stringify(want),
      `package.json has "sideEffects": ${JSON.stringify(pkg.sideEffects)}, expected ${JSON.stringify(want)}\n    ${detail.join('\n    ')}`,
    );
    return want.join(', ');
  });

  const want = String(
    // The snippet, unbundled in this process: the expected output of the bundled copies.
    new Function('torch', `return ${USER_SNIPPET};`)(
      ((await import(pathToFileURL(join(DIST, 'index.js')).href)) as { torch: unknown }).torch,
    ),
  );
  const dir = scratchProject();
  try {
    for (const platform of ['browser', 'node'] as const) {
      check(`esbuild bundle of \`import { torch } from 'aten-ts'\` (platform ${platform}) runs`, () => {
        const out = join(dir, `user.${platform}.mjs`);
        bundleUser(dir, 'user.mjs', out, platform, true);
        const printed = node(dir, [out]);
        assert(printed === want, `printed ${JSON.stringify(printed)}, unbundled ${JSON.stringify(want)}`);
        return `prints ${JSON.stringify(printed)} as unbundled; ${statSync(out).size} bytes`;
      });
    }

    check('a bundle importing only Dispatcher from dist/index.js (the `main` build) has the operators registered', () => {
      writeFileSync(
        join(dir, 'main-user.mjs'),
        `import { Dispatcher } from ${JSON.stringify(join(DIST, 'index.js'))};\n` +
          "const add = Dispatcher.singleton().findSchema('aten::add', 'Tensor');\n" +
          "console.log(add === null ? 'missing' : add.operatorName);\n",
      );
      const out = join(dir, 'main-user.bundle.mjs');
      bundleUser(dir, 'main-user.mjs', out, 'browser', false);
      const printed = node(dir, [out]);
      assert(printed === 'aten::add.Tensor', `printed ${JSON.stringify(printed)}: the bundler dropped the start-up registrations`);
      return `prints ${printed}`;
    });

    check('require("aten-ts") fails with the ESM-only message', () => {
      let message = '';
      try {
        node(dir, ['-e', "require('aten-ts')"]);
      } catch (e) {
        message = String((e as { stderr?: string }).stderr ?? e);
      }
      assert(message.includes('ES module only') && message.includes("import { torch } from 'aten-ts'"), `stderr: ${message.slice(0, 400)}`);
      return (/aten-ts is an ES module only[^\n]*/.exec(message)?.[0] ?? '').slice(0, 120) + '...';
    });

    check('import("aten-ts") from CommonJS works', () => {
      const printed = node(dir, ['-e', `import('aten-ts').then(({ torch }) => console.log(${USER_SNIPPET}))`]);
      assert(printed === want, `printed ${JSON.stringify(printed)}, expected ${JSON.stringify(want)}`);
      return `prints ${JSON.stringify(printed)}`;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const result = await build({
    entryPoints: [join(DIST, 'index.js')],
    bundle: true,
    platform: 'neutral',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  check('the core bundle imports no Node built-in', () => {
    const imports = Object.values(result.metafile.outputs).flatMap((o) => o.imports.map((i) => i.path));
    const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
    const bad = imports.filter((p) => builtins.has(p) || p.startsWith('node:'));
    assert(bad.length === 0, `dist/index.js reaches ${bad.join(', ')}`);
    const source = readFileSync(CORE_BUNDLE, 'utf8');
    const pattern = /^\s*(?:import|export)\s[^;]*?from\s*["']([^"']+)["']|\brequire\(\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']/gm;
    const textual = [...source.matchAll(pattern)].map((m) => m[1] ?? m[2] ?? m[3]);
    assert(textual.length === 0, `dist/bundle/index.js still imports ${textual.join(', ')}`);
    return `${Object.keys(result.metafile.inputs).length} modules bundled, ${imports.length} external imports; dist/bundle/index.js has no import or require`;
  });

  console.log(`package: ${failed === 0 ? 'all checks passed' : `${failed} failed`}`);
  if (failed > 0) process.exitCode = 1;
}

await main();
