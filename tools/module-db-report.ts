// Runs the ModuleInfo replay (test/nn/module_db_harness.ts) on every kernel path the test suite uses and writes
//   test/nn/module_db_known_failures.json  the outcomes that disagree with PyTorch (a module aten-ts lacks as
//                                          one entry, else `<module>|<dtype>|<mode>|<sample>|<area>`) with
//                                          their reason; outcomes failing on some paths only as 'path-dependent: ...'
//   FEATURES.md                            the "module_db coverage" section (between the module-db markers)
// Run after adding or changing a module or regenerating the fixture:  npx tsx tools/module-db-report.ts
// (`--run` is the child mode: one replay on the path set by the environment, outcomes as JSON.)
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';

interface Row {
  module: string;
  key: string;
  area: string;
  problem: string;
}

/** The configurations of `npm test` (vitest.config.ts runs test/setup.ts, which reads these variables). */
const CONFIGS: Record<string, Record<string, string>> = {
  wasm: { ATEN_TS_THREADS: '2' },
  js: { ATEN_TS_KERNELS: 'js' },
  stress: { ATEN_TS_THREADS: '1', ATEN_TS_STRESS_GROW: '1', ATEN_TS_FILL_UNINITIALIZED: '1' },
};
const ROOT = new URL('../', import.meta.url);
const BEGIN = '<!-- module-db-report:begin -->';
const END = '<!-- module-db-report:end -->';

async function runOnce(): Promise<void> {
  await import('../test/setup.js');
  const { loadModuleDb, runSample } = await import('../test/nn/module_db_harness.js');
  const fx = loadModuleDb();
  const rows: Row[] = [];
  for (const e of fx.entries) for (const s of e.samples) rows.push(...runSample(e, s));
  process.stdout.write(JSON.stringify(rows));
}

function runConfig(name: string): Row[] {
  const env = { ...process.env, ...CONFIGS[name] };
  for (const k of ['ATEN_TS_THREADS', 'ATEN_TS_KERNELS', 'ATEN_TS_STRESS_GROW', 'ATEN_TS_FILL_UNINITIALIZED']) {
    if (!(k in (CONFIGS[name] ?? {}))) delete env[k];
  }
  const r = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--run'], {
    env,
    maxBuffer: 1 << 28,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`replay '${name}' failed (exit ${String(r.status)})`);
  return JSON.parse(r.stdout) as Row[];
}

/** A failure's reason, one line: the area and the start of the problem (numbers kept: they say how far off). */
const reason = (r: Row): string => `${r.area}: ${r.problem.replace(/\s+/g, ' ').slice(0, 140)}`;

async function main(): Promise<void> {
  const { loadModuleDb } = await import('../test/nn/module_db_harness.js');
  const fx = loadModuleDb();
  const names = Object.keys(CONFIGS);
  const runs = names.map((n) => {
    const t0 = Date.now();
    const rows = runConfig(n);
    console.log(`${n}: ${rows.length} outcomes, ${rows.filter((r) => r.problem !== '').length} failing (${Date.now() - t0} ms)`);
    return rows;
  });
  const id = (r: Row): string => `${r.key}|${r.area}`;
  const byKey = runs.map((rows) => new Map(rows.map((r) => [id(r), r])));
  const failures: Record<string, string> = {};
  const status = new Map<string, string>(); // module -> first reason ('' covered)
  for (const e of fx.entries) {
    const mine = (runs[0] as Row[]).filter((r) => r.module === e.name);
    if (mine.length === 0) {
      const why = fx.skipped.filter((s) => s.module === e.name).map((s) => s.reason);
      status.set(e.name, `no sample recorded (${why.join('; ') || 'none given'})`);
      continue;
    }
    if (mine.every((r) => r.problem === 'missing')) {
      failures[e.name] = 'missing in aten-ts';
      status.set(e.name, 'missing in aten-ts');
      continue;
    }
    let first = '';
    for (const r of mine) {
      const failingIn = names.filter((_, c) => (byKey[c]?.get(id(r))?.problem ?? '') !== '');
      if (failingIn.length === 0) continue;
      const row = byKey[names.indexOf(failingIn[0] as string)]?.get(id(r)) as Row;
      failures[id(r)] =
        failingIn.length === names.length ? reason(row) : `path-dependent: fails on ${failingIn.join(', ')}: ${reason(row)}`;
      if (first === '') first = failures[id(r)] as string;
    }
    status.set(e.name, first);
  }
  const known = { generated_by: 'tools/module-db-report.ts', failures };
  const knownUrl = new URL('test/nn/module_db_known_failures.json', ROOT);
  writeFileSync(knownUrl, await format(JSON.stringify(known), { ...(await resolveConfig(fileURLToPath(knownUrl))), parser: 'json' }));
  const covered = [...status.values()].filter((s) => s === '').length;
  const missing = [...status.entries()].filter(([, s]) => s !== '');
  const section = [
    BEGIN,
    '## module_db coverage',
    '',
    "PyTorch's ModuleInfo samples (`torch.testing._internal.common_modules.module_db`, float64 and float32, both",
    'training modes where they differ, a few samples per module) replayed by `test/nn/module_db.test.ts`: construction',
    '(positional arguments, then one options object), repr, state_dict keys, default initialisation after',
    '`manual_seed` bit for bit, forward, buffers after it, gradients of parameters and inputs. A module is covered',
    'when every sample passes in every area on every kernel path. Fixture: `$PYTHON tools/golden/gen_module_db.py`;',
    'this section and `test/nn/module_db_known_failures.json`: `npx tsx tools/module-db-report.ts` (generated, do not edit).',
    '',
    `**${covered} / ${fx.total} modules covered.** Not covered:`,
    '',
    '| module | first reason |',
    '|---|---|',
    ...missing.map(([m, s]) => `| ${m} | ${s.replace(/\|/g, '\\|')} |`),
    END,
  ].join('\n');
  const featuresUrl = new URL('FEATURES.md', ROOT);
  const features = readFileSync(featuresUrl, 'utf8');
  const b = features.indexOf(BEGIN);
  const e = features.indexOf(END);
  const next = b >= 0 && e > b ? features.slice(0, b) + section + features.slice(e + END.length) : `${features.trimEnd()}\n\n${section}\n`;
  writeFileSync(featuresUrl, next);
  console.log(`${covered} / ${fx.total} modules covered`);
}

if (process.argv.includes('--run')) await runOnce();
else await main();
