// `npm run test:package`: the examples run from the published package, as a user runs them. Node-only.
// Packs the repository (`npm pack`, the tarball a registry would serve) and its runtime dependencies (packed
// from node_modules, so no network and no npm cache is needed: an empty cache directory is used), installs
// them with `npm install --offline` into a throw-away project (type: module) in a temporary directory,
// type-checks every example against the installed package's declarations, bundles each with esbuild
// ('aten-ts' left external, so it resolves to node_modules/aten-ts as in a user's project), runs it with
// node and checks its output. The examples are every `examples/*.ts` and `examples/*/index.ts` that imports
// 'aten-ts' (examples/README.md). Builds nothing: run `npm run build` first (`npm test` does); a dist/ older
// than src/ is an error. Exits non-zero on any failure. `--keep` leaves the temporary directory.

import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const EXAMPLES = join(ROOT, 'examples');
const RUN_TIMEOUT_MS = 60_000;

class PackageTestError extends Error {}

/** An example: its entry file, a name, and the expected-output file beside it (optional). */
export interface Example {
  readonly name: string;
  readonly entry: string;
  readonly expected: string | null;
}

const IMPORTS_PACKAGE = /\bfrom\s+['"]aten-ts['"]|\bimport\(\s*['"]aten-ts['"]\s*\)/;

/**
 * The examples the harness runs (examples/README.md): `examples/<name>.ts` with `examples/<name>.expected.txt`,
 * and `examples/<name>/index.ts` with `examples/<name>/expected.txt`, when the entry imports 'aten-ts'.
 * Returns them and the entries left out, with why.
 */
export function findExamples(dir = EXAMPLES): { examples: Example[]; skipped: string[] } {
  const examples: Example[] = [];
  const skipped: string[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const path = join(dir, entry);
    let file: string;
    let expected: string;
    if (statSync(path).isDirectory()) {
      file = join(path, 'index.ts');
      expected = join(path, 'expected.txt');
      if (!existsSync(file)) continue;
    } else if (entry.endsWith('.ts') && !entry.endsWith('.d.ts')) {
      file = path;
      expected = path.replace(/\.ts$/, '.expected.txt');
    } else continue;
    const name = entry.replace(/\.ts$/, '');
    if (!IMPORTS_PACKAGE.test(readFileSync(file, 'utf8'))) {
      skipped.push(`${relative(ROOT, file)} (does not import 'aten-ts')`);
      continue;
    }
    examples.push({ name, entry: file, expected: existsSync(expected) ? expected : null });
  }
  return { examples, skipped };
}

/**
 * Compares an example's output with its expected lines: each expected line is literal text, or a regular
 * expression written `/.../` (back-references let a line say two printed numbers are equal).
 */
export function checkOutput(stdout: string, expectedText: string): string | null {
  const got = stdout.replace(/\n$/, '').split('\n');
  const want = expectedText.replace(/\n$/, '').split('\n');
  if (got.length !== want.length) return `expected ${want.length} lines of output, got ${got.length}:\n${stdout}`;
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const g = got[i]!;
    const re = /^\/(.*)\/$/.exec(w);
    const ok = re !== null ? new RegExp(`^(?:${re[1]!})$`).test(g) : g === w;
    if (!ok) return `line ${i + 1}: expected ${re !== null ? `to match ${w}` : JSON.stringify(w)}, got ${JSON.stringify(g)}`;
  }
  return null;
}

function run(cmd: string, args: string[], cwd: string, timeout = 120_000): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout, env: { ...process.env, npm_config_update_notifier: 'false' } });
  if (r.error !== undefined) throw new PackageTestError(`${cmd} ${args.join(' ')}: ${r.error.message}`);
  if (r.status !== 0) {
    throw new PackageTestError(`${cmd} ${args.join(' ')} exited with ${r.status ?? r.signal}\n${r.stdout}${r.stderr}`);
  }
  return r.stdout;
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function checkBuilt(): void {
  const built = join(ROOT, 'dist/bundle/node.js');
  if (!existsSync(built) || !existsSync(join(ROOT, 'dist/index.d.ts'))) {
    throw new PackageTestError('dist/ is missing: run `npm run build` first (npm test does)');
  }
  if (newestMtime(join(ROOT, 'src')) > statSync(built).mtimeMs) {
    throw new PackageTestError('dist/ is older than src/: run `npm run build` first (npm test does)');
  }
}

/** The package's runtime dependencies and theirs, as directories in node_modules (nested ones first). */
function runtimeDependencyDirs(): string[] {
  const dirs = new Map<string, string>();
  const visit = (name: string, from: string): void => {
    let dir = from;
    for (;;) {
      const candidate = join(dir, 'node_modules', name);
      if (existsSync(join(candidate, 'package.json'))) {
        if (dirs.has(candidate)) return;
        dirs.set(candidate, name);
        const pkg = JSON.parse(readFileSync(join(candidate, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
        for (const dep of Object.keys(pkg.dependencies ?? {})) visit(dep, candidate);
        return;
      }
      if (dir === ROOT) throw new PackageTestError(`runtime dependency ${name} is not installed: run \`npm ci\` first`);
      dir = dirname(dirname(dir));
    }
  };
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  for (const dep of Object.keys(pkg.dependencies ?? {})) visit(dep, ROOT);
  return [...dirs.keys()];
}

/** Packs and installs the package into a throw-away project; returns the project's directory. */
function installPackedPackage(work: string): string {
  const packs = join(work, 'packs');
  mkdirSync(packs);
  const specs = ['.', ...runtimeDependencyDirs().map((d) => `./${relative(ROOT, d)}`)];
  const packed = JSON.parse(run('npm', ['pack', ...specs, '--ignore-scripts', '--json', '--pack-destination', packs], ROOT)) as {
    filename: string;
  }[];
  const project = join(work, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'aten-ts-package-test', private: true, type: 'module' }, null, 2));
  // Offline, from an empty cache: every package comes from a tarball made above.
  run(
    'npm',
    [
      'install',
      ...packed.map((p) => join(packs, p.filename)),
      '--offline',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--no-package-lock',
      '--cache',
      join(work, 'npm-cache'),
    ],
    project,
  );
  if (!existsSync(join(project, 'node_modules/aten-ts/dist/bundle/node.js'))) {
    throw new PackageTestError('the installed package has no dist/bundle/node.js');
  }
  return project;
}

/** Type-checks the examples against the installed package's declarations (as a user's editor would). */
function typecheck(project: string, examples: readonly Example[]): void {
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      lib: ['ES2022', 'ESNext.Disposable'],
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: ['node'],
      typeRoots: [join(ROOT, 'node_modules/@types')],
    },
    files: examples.map((e) => join(project, 'examples', relative(EXAMPLES, e.entry))),
  };
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  // The example sources, copied into the project so that 'aten-ts' resolves to its node_modules.
  spawnSync('cp', ['-r', EXAMPLES, join(project, 'examples')]);
  run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project], project);
}

async function runExample(project: string, e: Example): Promise<string | null> {
  const outfile = join(project, `${e.name}.mjs`);
  const result = await build({
    entryPoints: [e.entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['aten-ts'],
    outfile,
    metafile: true,
    logLevel: 'silent',
  });
  const outside = Object.keys(result.metafile.inputs).filter((f) => !join(ROOT, f).startsWith(EXAMPLES));
  if (outside.length > 0) return `imports files outside examples/ (${outside.join(', ')}); import the package as 'aten-ts'`;
  const r = spawnSync(process.execPath, [outfile], { cwd: project, encoding: 'utf8', timeout: RUN_TIMEOUT_MS });
  if (r.status !== 0) return `exited with ${r.status ?? r.signal}\n${r.stdout}${r.stderr}`;
  if (r.stdout.trim() === '') return 'printed nothing (an example shows its result on stdout)';
  if (e.expected !== null) return checkOutput(r.stdout, readFileSync(e.expected, 'utf8'));
  return null;
}

async function main(): Promise<void> {
  const start = performance.now();
  const keep = process.argv.includes('--keep');
  checkBuilt();
  const { examples, skipped } = findExamples();
  for (const s of skipped) console.log(`skipped ${s}`);
  if (examples.length === 0) throw new PackageTestError("no example in examples/ imports 'aten-ts'");
  const work = mkdtempSync(join(tmpdir(), 'aten-ts-package-'));
  let failures = 0;
  try {
    const project = installPackedPackage(work);
    console.log(`packed and installed aten-ts offline in ${basename(work)} (${((performance.now() - start) / 1000).toFixed(1)} s)`);
    typecheck(project, examples);
    console.log(`type-checked ${examples.length} examples against the installed declarations`);
    for (const e of examples) {
      const t0 = performance.now();
      const problem = await runExample(project, e);
      const took = `${((performance.now() - t0) / 1000).toFixed(1)} s`;
      if (problem === null) console.log(`ok   ${relative(ROOT, e.entry)} (${took}${e.expected === null ? ', no expected output' : ''})`);
      else {
        failures++;
        console.log(`FAIL ${relative(ROOT, e.entry)} (${took}): ${problem}`);
      }
    }
  } finally {
    if (keep) console.log(`kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
  console.log(`${examples.length - failures}/${examples.length} examples passed in ${((performance.now() - start) / 1000).toFixed(1)} s`);
  if (failures > 0) process.exitCode = 1;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((e: unknown) => {
    console.error(e instanceof PackageTestError ? `test:package: ${e.message}` : e);
    process.exitCode = 1;
  });
}
