// Runs the OpInfo harness (test/opinfo/harness.ts) on every kernel path the test suite uses and writes
//   test/opinfo/known_failures.json  the outcomes that disagree with PyTorch, keyed
//                                    `<op>[.<variant>]|<dtype>|<sample>|<area>`, with a one-line reason class;
//                                    outcomes that fail on some paths only are listed under `path_dependent`
//   FEATURES.md                      the "OpInfo pass rates" section (between the opinfo markers)
// Run after changing an operator or regenerating the fixtures:  npx tsx tools/opinfo-report.ts
// (`--run` is the child mode: one harness run on the path set by the environment, outcomes as JSON.)
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';

interface Row {
  file: string;
  family: string;
  op: string;
  key: string;
  area: string;
  problem: string;
}

/** The configurations of `npm test` (vitest.config.ts runs test/setup.ts, which reads these variables). */
const CONFIGS: Record<string, Record<string, string>> = {
  wasm: {},
  'wasm-2-threads': { ATEN_TS_THREADS: '2' },
  js: { ATEN_TS_KERNELS: 'js' },
  stress: { ATEN_TS_THREADS: '1', ATEN_TS_STRESS_GROW: '1', ATEN_TS_FILL_UNINITIALIZED: '1' },
};
const AREAS = ['values', 'meta', 'grads', 'grad_fn', 'errors'];
const ROOT = new URL('../', import.meta.url);
const BEGIN = '<!-- opinfo-report:begin -->';
const END = '<!-- opinfo-report:end -->';

async function runOnce(): Promise<void> {
  await import('../test/setup.js');
  const { fixtureFiles, loadFixture, runFixture } = await import('../test/opinfo/harness.js');
  const rows: Row[] = [];
  for (const file of fixtureFiles()) {
    for (const o of runFixture(loadFixture(file)))
      rows.push({ file, family: o.family, op: o.op, key: o.key, area: o.area, problem: o.problem });
  }
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
  if (r.status !== 0) throw new Error(`harness run '${name}' failed (exit ${String(r.status)})`);
  return JSON.parse(r.stdout) as Row[];
}

function pct(pass: number, total: number): string {
  return total === 0 ? '–' : `${((100 * pass) / total).toFixed(1)}% (${pass}/${total})`;
}

/** One op_db entry as gen_opinfo.py lists it in index.json: swept, or why not. */
interface OpDbEntry {
  key: string;
  family: string;
  swept: boolean;
  reason?: string;
}

/** An op_db entry's namespace, as the coverage table groups them (`nn.functional.X` -> `nn.functional`). */
function namespaceOf(key: string): string {
  for (const ns of ['nn.functional', 'linalg', 'special', 'fft', 'masked', 'signal.windows', 'sparse', 'torch']) {
    if (key.startsWith(`${ns}.`)) return ns;
  }
  return 'torch (core)';
}

/**
 * The coverage table: every op_db entry counted, passing when it is swept, has outcomes, and none of them fails
 * on any path (known failures or path-dependent ones); the rest listed by reason.
 */
function coverage(entries: OpDbEntry[], rows: Row[], failing: Set<string>, failingReduced: Set<string>): string[] {
  const replayed = new Set(rows.filter((r) => !isReduced(r.key)).map((r) => r.op));
  const reducedSampled = new Set(rows.filter((r) => isReduced(r.key)).map((r) => r.op));
  const reducedCount = (sel: OpDbEntry[]): string => {
    const sampled = sel.filter((e) => reducedSampled.has(e.key));
    return `${sampled.filter((e) => !failingReduced.has(e.key)).length} / ${sampled.length}`;
  };
  const status = (e: OpDbEntry): string =>
    !e.swept
      ? (e.reason ?? 'not yet in aten-ts')
      : !replayed.has(e.key)
        ? 'swept, but no sample replayable here'
        : failing.has(e.key)
          ? 'fails'
          : 'passes';
  const passes = (e: OpDbEntry): boolean => status(e) === 'passes';
  const spaces = [...new Set(entries.map((e) => namespaceOf(e.key)))].sort();
  const byReason = new Map<string, string[]>();
  for (const e of entries) {
    const st = status(e);
    if (st !== 'passes') byReason.set(st, [...(byReason.get(st) ?? []), `\`${e.key}\``]);
  }
  const reasons = [...byReason.keys()].sort((a, b) => (byReason.get(b)?.length ?? 0) - (byReason.get(a)?.length ?? 0));
  const count = (sel: OpDbEntry[]): string => `${sel.filter(passes).length} / ${sel.length}`;
  return [
    '### op_db coverage',
    '',
    `Every entry of op_db (${entries.length}, variants counted apart) counts: an entry passes when it is swept and`,
    'none of its outcomes fails on any kernel path. Passing on every path:',
    `**${entries.filter(passes).length} / ${entries.length}**.`,
    '',
    'float16/bfloat16 samples (the first two plain samples per reduced dtype, values and Meta, at torch.testing',
    'tolerances) are counted apart, per entry that has them: passing all of them on every path,',
    `**${reducedCount(entries)}**.`,
    '',
    '| namespace | passing / entries | swept | float16/bfloat16 passing / sampled |',
    '|---|---|---|---|',
    ...spaces.map((ns) => {
      const sel = entries.filter((e) => namespaceOf(e.key) === ns);
      return `| ${ns} | ${count(sel)} | ${sel.filter((e) => e.swept).length} | ${reducedCount(sel)} |`;
    }),
    '',
    'The rest, by reason (`fails`: an outcome of a float32/float64/integer/bool/complex sample is in',
    'test/opinfo/known_failures.json):',
    '',
    ...reasons.map((r) => `- ${r} (${byReason.get(r)?.length ?? 0}): ${(byReason.get(r) ?? []).join(', ')}`),
    '',
  ];
}

function report(
  rows: Row[],
  pathDependent: number,
  skipped: Record<string, number>,
  entries: OpDbEntry[],
  failing: Set<string>,
  failingReduced: Set<string>,
): string {
  const count = (filter: (r: Row) => boolean): [number, number] => {
    const sel = rows.filter(filter);
    return [sel.filter((r) => r.problem === '').length, sel.length];
  };
  const families = [...new Set(rows.map((r) => r.family))].sort();
  const ops = new Set(rows.map((r) => r.op)).size;
  const lines = [
    BEGIN,
    '## OpInfo pass rates',
    '',
    `PyTorch's own OpInfo samples (\`op_db\`, ${ops} entries whose operator aten-ts has, every variant; float32, float64,`,
    'int64, int32, bool, float16, bfloat16) replayed through `torch.*` / Tensor methods by `test/opinfo/` (part of `vitest run`).',
    'Fixtures: `npx tsx tools/opinfo-ops.ts && $PYTHON tools/golden/gen_opinfo.py`;',
    'this section and `test/opinfo/known_failures.json`: `npx tsx tools/opinfo-report.ts` (generated, do not edit).',
    'Areas: values (dtype, shape, values at torch.testing tolerances, strides of views, error text where PyTorch',
    'raises), meta (dtype/shape/strides on Meta tensors, or the error), grads (float64 first-order gradients),',
    `grad_fn (name), errors (\`error_inputs\` texts). Skipped while generating: ${skipped['too_large'] ?? 0} samples with a tensor over`,
    `1,000 elements, ${skipped['unserializable'] ?? 0} with an argument without a JSON form. ${pathDependent} outcomes differ between kernel paths`,
    '(the stress path replays the first sample of each op).',
    '',
    ...coverage(entries, rows, failing, failingReduced),
    '### Pass rates by area (wasm path)',
    '',
    '| area | pass rate |',
    '|---|---|',
    ...AREAS.map((a) => `| ${a} | ${pct(...count((r) => r.area === a))} |`),
    `| all | ${pct(...count(() => true))} |`,
    '',
    `| family | ${AREAS.join(' | ')} |`,
    `|---|${AREAS.map(() => '---').join('|')}|`,
    ...families.map((f) => `| ${f} | ${AREAS.map((a) => pct(...count((r) => r.family === f && r.area === a))).join(' | ')} |`),
    END,
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  const names = Object.keys(CONFIGS);
  const runs = names.map((n) => {
    const t0 = Date.now();
    const rows = runConfig(n);
    console.log(`${n}: ${rows.length} outcomes, ${rows.filter((r) => r.problem !== '').length} failing (${Date.now() - t0} ms)`);
    return rows;
  });
  // merged by key: the stress run replays a subset (harness.ts STRESS_SUBSET)
  const base = runs[0] as Row[];
  const byKey = runs.map((rows) => new Map(rows.map((r) => [r.key, r])));
  const failures: Record<string, Record<string, string>> = {};
  const pathDependent: Record<string, Record<string, string>> = {};
  let nPath = 0;
  for (const r of base) {
    const ran = names.filter((_, c) => byKey[c]?.has(r.key));
    const failingIn = ran.filter((n) => byKey[names.indexOf(n)]?.get(r.key)?.problem !== '');
    if (failingIn.length === 0) continue;
    if (failingIn.length === ran.length) {
      (failures[r.file] ??= {})[r.key] = reasonClass(r.problem);
    } else {
      (pathDependent[r.file] ??= {})[r.key] = `fails on ${failingIn.join(', ')}`;
      nPath++;
    }
  }
  for (const [c, rows] of runs.entries()) {
    const extra = rows.filter((r) => !byKey[0]?.has(r.key));
    if (extra.length > 0) throw new Error(`run '${names[c] ?? ''}' has outcomes the first run lacks: ${extra[0]?.key ?? ''}`);
  }
  const known = { generated_by: 'tools/opinfo-report.ts', failures, path_dependent: pathDependent };
  // in prettier's layout, so that `npm run format:check` passes on the written file
  const knownUrl = new URL('test/opinfo/known_failures.json', ROOT);
  writeFileSync(knownUrl, await format(JSON.stringify(known), { ...(await resolveConfig(fileURLToPath(knownUrl))), parser: 'json' }));
  const index = JSON.parse(readFileSync(new URL('test/golden/opinfo/index.json', ROOT), 'utf8')) as {
    skipped: Record<string, number>;
    op_db: OpDbEntry[];
  };
  const failingKeys = [...Object.values(failures), ...Object.values(pathDependent)].flatMap((m) => Object.keys(m));
  const failing = new Set(failingKeys.filter((k) => !isReduced(k)).map((k) => k.split('|')[0] ?? ''));
  const failingReduced = new Set(failingKeys.filter(isReduced).map((k) => k.split('|')[0] ?? ''));
  const featuresUrl = new URL('FEATURES.md', ROOT);
  const features = readFileSync(featuresUrl, 'utf8');
  const section = report(base, nPath, index.skipped, index.op_db, failing, failingReduced);
  const b = features.indexOf(BEGIN);
  const e = features.indexOf(END);
  const next = b >= 0 && e > b ? features.slice(0, b) + section + features.slice(e + END.length) : `${features.trimEnd()}\n\n${section}\n`;
  writeFileSync(featuresUrl, next);
  console.log(section);
}

/** Whether an outcome key (`<op>|<dtype>|<sample>|<area>`) is a float16/bfloat16 sample's. */
function isReduced(key: string): boolean {
  const dtype = key.split('|')[1];
  return dtype === 'float16' || dtype === 'bfloat16';
}

/** The class of a problem: its text without numbers, one line. */
function reasonClass(problem: string): string {
  const line = problem.replace(/(?<![\w.])-?\d+(\.\d+)?(e[-+]?\d+)?(?![\w])/g, 'N').replace(/\s+/g, ' ');
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}

if (process.argv.includes('--run')) await runOnce();
else await main();
