// Side by side: the same workloads on aten-ts, PyTorch (1 and 2 threads), TensorFlow.js (WASM backend) and jax-js
// (wasm device), interleaved in one run: a long-lived worker process per system (bench/compare/*_worker.*), several
// rounds of every workload on every system in turn, then medians and same-round ratios (aten-ts ÷ torch 1 thread,
// per round, then the median of those). `first op after import` runs fresh processes instead (bench/compare/startup.ts).
//
// Run: npx tsx bench/compare.ts [--rounds 7] [--quick] [--only w1,w2] [--systems aten-ts,aten2,torch1,torch2,tfjs,jax]
//        [--python PATH] [--readback] [--target-ms 60] [--warmup-ms 300] [--settle-ms 20] [--wait-idle SECONDS]
//        [--write] [--json FILE]
//   (npm run bench:compare -- ...). Python: --python, $ATEN_TS_TORCH_PYTHON, $PYTHON, .venv-golden/bin/python;
//   without torch the torch columns print "—". --write replaces the section of bench/RESULTS.md named below.

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SYSTEMS, SYSTEM_TITLES, type SystemId, WORKLOADS, type WorkloadId, sizesFor } from './compare/protocol.js';
import { type Cell, type Results, cellNotes, markdownTable, median, replaceSection, sig3 } from './compare/report.js';
import { firstOp, startupNote } from './compare/startup.js';
import {
  type WorkerClient,
  cpuTicks,
  findPython,
  loadAverage,
  machineFacts,
  gitCommit,
  othersTicks,
  schedStat,
  busiestThreadsWait,
  startWorker,
  waitForIdle,
} from './compare/systems.js';

const SECTION = '## Side by side (bench/compare.ts)';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const { values: opts } = parseArgs({
  options: {
    rounds: { type: 'string' },
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    systems: { type: 'string' },
    python: { type: 'string' },
    readback: { type: 'boolean', default: false },
    'target-ms': { type: 'string' },
    'warmup-ms': { type: 'string' },
    'settle-ms': { type: 'string' },
    'wait-idle': { type: 'string' },
    write: { type: 'boolean', default: false },
    json: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (opts.help) {
  console.log(
    readFileSync(fileURLToPath(import.meta.url), 'utf8')
      .split('\n\n')[0]!
      .replace(/^\/\/ ?/gm, ''),
  );
  process.exit(0);
}

const ALIASES: Record<string, SystemId[]> = {
  aten: ['aten-ts', 'aten2'],
  torch: ['torch1', 'torch2'],
  'jax-js': ['jax'],
  'tfjs-wasm': ['tfjs'],
};
const list = (s: string | undefined): string[] | undefined =>
  s
    ?.split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');
const systems: SystemId[] = (list(opts.systems) ?? [...SYSTEMS]).flatMap((s) => {
  if ((SYSTEMS as readonly string[]).includes(s)) return [s as SystemId];
  if (ALIASES[s] !== undefined) return ALIASES[s];
  throw new Error(`unknown system ${s} (have ${SYSTEMS.join(', ')})`);
});
const workloads: WorkloadId[] = (list(opts.only) ?? [...WORKLOADS]).map((w) => {
  if (!(WORKLOADS as readonly string[]).includes(w)) throw new Error(`unknown workload ${w} (have ${WORKLOADS.join(', ')})`);
  return w as WorkloadId;
});
const rounds = Number(opts.rounds ?? (opts.quick ? 1 : 7));
const targetNs = Number(opts['target-ms'] ?? (opts.quick ? 2 : 60)) * 1e6;
const warmupNs = Number(opts['warmup-ms'] ?? (opts.quick ? 10 : 300)) * 1e6;
const settleMs = Number(opts['settle-ms'] ?? 20);
const sizes = sizesFor(opts.quick);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const log = (s: string): void => void process.stderr.write(s + '\n');

const loadAtStart = loadAverage();
const ticksAtStart = cpuTicks();
const waitIdle = Number(opts['wait-idle'] ?? 0);
const waits: string[] = [];
let waitedSeconds = 0;
const waitTicks = { others: 0, total: 0 }; // the waits' share of the run's CPU ticks, left out of the figure below

// ---- the systems -------------------------------------------------------------------------------------------------
const results: Results = {};
const cell = (w: WorkloadId, s: SystemId): Cell => ((results[w] ??= {})[s] ??= { samples: [] });
const unavailable = new Map<SystemId, string>();
for (const s of SYSTEMS) if (!systems.includes(s)) unavailable.set(s, 'not in --systems');
const py = systems.some((s) => s.startsWith('torch')) ? findPython(root, opts.python) : undefined;
if (py !== undefined && py.python === undefined) for (const s of ['torch1', 'torch2'] as const) unavailable.set(s, py.why);

const workerWorkloads = workloads.filter((w) => w !== 'first_op');
const workers = new Map<SystemId, WorkerClient>();
const infos = new Map<SystemId, Record<string, string>>();
for (const s of systems) {
  if (unavailable.has(s)) continue;
  try {
    const worker = startWorker(s, root, py?.python);
    infos.set(s, await worker.info);
    if (workerWorkloads.length > 0) workers.set(s, worker);
    else worker.close();
  } catch (e) {
    unavailable.set(s, `worker did not start: ${(e as Error).message}`);
  }
}
for (const [s, why] of unavailable) for (const w of workloads) Object.assign(cell(w, s), { status: 'unavailable', reason: why });

// Setup (inputs + one warm-up call per workload) and calibration: a fixed number of calls per sample for all rounds.
const iters = new Map<string, number>();
for (const [s, worker] of workers) {
  log(`setting up ${SYSTEM_TITLES[s]} …`);
  try {
    const reply = await worker.request({
      op: 'setup',
      quick: opts.quick,
      readback: opts.readback,
      warmup_ns: warmupNs,
      workloads: workerWorkloads,
    });
    if (!('setup' in reply)) throw new Error(`unexpected reply ${JSON.stringify(reply)}`);
    for (const w of workerWorkloads) {
      const st = reply.setup[w] ?? { ok: false, kind: 'fails', reason: 'no status' };
      if (!st.ok) Object.assign(cell(w, s), { status: st.kind, reason: st.reason });
      else if (st.note !== undefined) cell(w, s).note = st.note;
    }
    for (const w of workerWorkloads) {
      if (cell(w, s).status !== undefined) continue;
      const r = await worker.request({ op: 'calibrate', workload: w, target_ns: targetNs });
      if ('iters' in r) iters.set(`${s}/${w}`, r.iters);
    }
  } catch (e) {
    for (const w of workerWorkloads) Object.assign(cell(w, s), { status: 'fails', reason: (e as Error).message });
  }
}

// ---- the rounds: every workload on every system in turn, the systems' order rotating round by round ------------------
const importMs = new Map<SystemId, number[]>();
for (let r = 0; r < rounds; r++) {
  log(`round ${r + 1}/${rounds}`);
  const order = systems.map((_, i) => systems[(i + r) % systems.length]!);
  for (const w of workloads) {
    if (waitIdle > 0) {
      const before = cpuTicks();
      const waited = await waitForIdle(waitIdle);
      const spent = othersTicks(before, cpuTicks());
      [waitTicks.others, waitTicks.total] = [waitTicks.others + spent.others, waitTicks.total + spent.total];
      if (waited === undefined) waits.push(`gave up after ${waitIdle} s once (round ${r + 1}, ${w})`);
      else waitedSeconds += waited;
    }
    for (const s of order) {
      const c = cell(w, s);
      if (c.status !== undefined) continue;
      await sleep(settleMs); // the previous system's background threads (JIT, GC, thread pools) wind down
      try {
        if (w === 'first_op') {
          const f = firstOp(s, root, py?.python);
          c.samples[r] = f.first_op_ms * 1e6;
          (importMs.get(s) ?? importMs.set(s, []).get(s)!).push(f.import_ms);
        } else {
          const worker = workers.get(s)!;
          const [s0, t0] = [schedStat(worker.pid), process.hrtime.bigint()];
          const reply = await worker.request({ op: 'run', workload: w, iters: iters.get(`${s}/${w}`) ?? 1 });
          const [s1, t1] = [schedStat(worker.pid), process.hrtime.bigint()];
          if ('ns' in reply) c.samples[r] = reply.ns;
          if (s0 !== undefined && s1 !== undefined)
            (c.sched ??= [])[r] = {
              wallNs: Number(t1 - t0),
              cpuNs: s1.cpuNs - s0.cpuNs,
              waitNs: s1.waitNs - s0.waitNs,
              busiestWaitNs: busiestThreadsWait(s0, s1, computeThreads(s)),
            };
        }
      } catch (e) {
        Object.assign(c, { status: 'fails', reason: (e as Error).message.split('\n')[0] });
      }
    }
  }
}
await Promise.all([...workers.values()].map((w) => w.close()));
const runTicks = othersTicks(ticksAtStart, cpuTicks());
const others = runTicks.total - waitTicks.total > 0 ? (runTicks.others - waitTicks.others) / (runTicks.total - waitTicks.total) : undefined;

// ---- the report ----------------------------------------------------------------------------------------------------
if (workloads.includes('first_op')) {
  for (const s of systems) {
    const c = cell('first_op', s);
    if (c.status !== undefined) continue;
    const imp = median(importMs.get(s) ?? []);
    c.note = `${startupNote(s, root)}${imp === undefined ? '' : `; the import alone: ${sig3(imp)} ms`}`;
  }
}

const info = (s: SystemId, key: string): string | undefined => infos.get(s)?.[key];
// Note [Waiting for a CPU]
// ~~~~~~~~~~~~~~~~~~~~~~~~
// A 2-thread column needs both cores for the whole sample. Whether it had them is in the kernel's accounting
// of the worker's threads (/proc/<pid>/task/*/schedstat, read around every run request): CPU time, and time
// runnable but waiting for a CPU (the run queue). Per system, the report gives the median over its samples
// of CPU ÷ wall (cores used) and run-queue wait ÷ wall: a 2-thread worker that waited for a CPU shared its
// cores with something, whatever the machine's load average said (bench/interference.ts looks at one). The
// sum is over every thread of the process, the runtime's helpers too (V8's GC and compiler threads, Node's
// platform pool), which queue behind two busy compute threads without delaying them; so the report also
// gives the wait of the busiest threads alone, as many as the system computes on (2 for the 2-thread
// columns): that is the figure that says whether the work itself waited for a core.
function computeThreads(s: SystemId): number {
  return s === 'aten2' || s === 'torch2' ? 2 : 1;
}
const schedLine = (): string | undefined => {
  const parts: string[] = [];
  for (const s of systems) {
    const rows = workerWorkloads.flatMap((w) => (results[w]?.[s]?.sched ?? []).filter((x) => x !== undefined));
    if (rows.length === 0) continue;
    const used = median(rows.map((x) => x.cpuNs / x.wallNs));
    const waited = median(rows.map((x) => x.waitNs / x.wallNs));
    const busiest = median(rows.map((x) => (x.busiestWaitNs === undefined ? undefined : x.busiestWaitNs / x.wallNs)));
    if (used !== undefined && waited !== undefined)
      parts.push(
        `${SYSTEM_TITLES[s]} ${used.toFixed(2)} cores, waited ${(waited * 100).toFixed(0)}%` +
          (busiest === undefined
            ? ''
            : ` (its ${computeThreads(s)} busiest thread${computeThreads(s) > 1 ? 's' : ''} ${(busiest * 100).toFixed(0)}%)`),
      );
  }
  return parts.length === 0
    ? undefined
    : `Each worker's threads during its samples (median of CPU ÷ wall, and of run-queue wait ÷ wall, all threads and the busiest alone; Note [Waiting for a CPU]): ${parts.join('; ')}`;
};
const facts = [
  ...machineFacts(),
  ...(schedLine() === undefined ? [] : [schedLine() as string]),
  `Other processes (not this run's) used ${others === undefined ? '?' : `${(Math.max(0, others) * 100).toFixed(0)}%`} of the machine's CPU time ` +
    `while it measured; 1-minute load average ${loadAtStart} before it. Other work slows every column, torch 2 thr the most ` +
    '(its parallel regions wait for a core: whole calls of ~8 ms), so read the rounds in --json when a column looks odd' +
    (waitIdle > 0
      ? `; --wait-idle ${waitIdle}: ${waitedSeconds.toFixed(0)} s spent waiting for a quiet machine${waits.map((x) => `, ${x}`).join('')}`
      : ''),
  py?.python !== undefined
    ? `PyTorch ${py.version} (${py.python}${info('torch1', 'python') !== undefined ? `, Python ${info('torch1', 'python')}` : ''}):` +
      ` torch.set_num_threads(1) and (2) in two workers → get_num_threads() ${info('torch1', 'threads') ?? '?'} and ${info('torch2', 'threads') ?? '?'}`
    : `PyTorch: — (${unavailable.get('torch1') ?? 'not run'})`,
  infos.has('tfjs')
    ? `TensorFlow.js: ${info('tfjs', 'version')}, backend ${info('tfjs', 'backend')}, threads ${info('tfjs', 'threads')}, SIMD ${info('tfjs', 'simd')}`
    : `TensorFlow.js: — (${unavailable.get('tfjs') ?? 'not run'})`,
  infos.has('jax')
    ? `jax-js ${info('jax', 'version')}: device ${info('jax', 'device')} (the fastest here; its cpu device is an interpreter), threads ${info('jax', 'threads')}`
    : `jax-js: — (${unavailable.get('jax') ?? 'not run'})`,
  infos.has('aten-ts')
    ? `aten-ts ${info('aten-ts', 'version')} (src/ of commit ${gitCommit(root) ?? '?'}): ${info('aten-ts', 'loaded')}, ${info('aten-ts', 'threads')}`
    : 'aten-ts: —',
];
const table = markdownTable(results, { workloads, matmulN: sizes.matmul, matmulSmallN: sizes.matmulSmall });
const sizesNote = opts.quick ? ' **--quick: tiny sizes, not the labels’ sizes; a smoke run, not figures.**' : '';
const method =
  `Each cell: the median over ${rounds} round(s) of one sample per round; a sample is a batch of calls lasting at least ` +
  `~${targetNs / 1e6} ms (fewer calls only when one call is longer), split in up to 5 parts, the median part's time per call. ` +
  `Inputs are float32, made once with fixed seeds outside the timed calls; warm-up calls at setup (at least 2 and ${warmupNs / 1e6} ms per workload); ${settleMs} ms of rest before each sample. ` +
  `ratio = median over rounds of aten-ts ÷ torch 1 thr in the same round (below 1: aten-ts is faster). ` +
  `Forcing results: aten-ts and PyTorch are synchronous; tfjs-wasm kernels run synchronously on the call and results are ` +
  `disposed${opts.readback ? ' after a dataSync() read-back (--readback)' : ' (scalars read with dataSync())'}; jax-js is lazy: ` +
  `${opts.readback ? 'every result is read back with dataSync() (--readback)' : 'blockUntilReady() on every result (scalars: dataSync())'}.` +
  sizesNote;
const notes = cellNotes(results, workloads);
const report = [
  `Command: \`${['npx tsx bench/compare.ts', ...process.argv.slice(2)].join(' ')}\``,
  `Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  '',
  ...facts.map((f) => `- ${f}`),
  '',
  table,
  '',
  method,
  ...(notes.length > 0 ? ['', 'Notes:', '', ...notes] : []),
].join('\n');

console.log(`${SECTION}\n\n${report}`);
if (opts.json !== undefined)
  writeFileSync(opts.json, JSON.stringify({ systems, workloads, rounds, infos: Object.fromEntries(infos), results }, null, 1));
if (opts.write) {
  const path = join(root, 'bench/RESULTS.md');
  writeFileSync(path, replaceSection(readFileSync(path, 'utf8'), SECTION, report));
  log(`wrote the section "${SECTION.slice(3)}" of bench/RESULTS.md`);
}
