// `npm run bench:jobs`: the jobs users run, aten-ts against PyTorch 2.13 side by side: a LeNet training
// epoch as `npm start` runs it, a TransformerEncoder and a causal language model trained with Adam/AdamW, two MLP
// steps, a ResNet-18 forward, four operators inside one running program, and start-up. Each job gets its own four
// worker processes (aten-ts and PyTorch, on 1 and on 2 threads: bench/jobs/aten_worker.ts, torch_jobs.py), which
// build the same model from the same weights and data (PyTorch writes them with torch.save, aten-ts reads them with
// torch.load), report the loss after each warm-up step, then run alternated rounds; the ratio is aten-ts ÷ PyTorch
// on the same thread count, the median of the rounds' ratios. Start-up is fresh processes (bench/compare/startup.ts).
//
// Run: npm run bench:jobs [-- --only lenet,micro] [--quick] [--rounds N] [--profile] [--write] [--python PATH]
//   --python  default: $ATEN_TS_TORCH_PYTHON, else /work/main/.venv-golden/bin/python, else bench/compare's candidates
//   --quick   small sizes and one round: a smoke run of about a minute
//   --profile after the timed rounds, each side runs PROFILE_STEPS steps of each job under its torch.profiler, and
//             the report adds a table per job and thread count: the operators' self time per step on both sides
//   --write   put the table into bench/RESULTS.md under "## Jobs (npm run bench:jobs)"

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Reply as CompareReply, Request as CompareRequest, SystemId } from './compare/protocol.js';
import { sig3 } from './compare/report.js';
import { atenStartupMode, firstOp } from './compare/startup.js';
import { WorkerClient, cpuTicks, findPython, gitCommit, loadAverage, machineFacts, othersShare } from './compare/systems.js';
import {
  FULL_JOB_SIZES,
  JOBS,
  type JobId,
  PROFILE_STEPS,
  type ProfileFigures,
  QUICK_JOB_SIZES,
  ROWS,
  RUN_STEPS,
  type Reply,
  type Request,
  type RunFigures,
} from './jobs/protocol.js';
import { type RowResult, TABLE_HEAD, placeSection, profileTable, tableRow } from './jobs/report.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const quick = argv.includes('--quick');
const write = argv.includes('--write');
const profiling = argv.includes('--profile');
const only = option('--only')
  ?.split(',')
  .map((s) => s.trim());
for (const j of only ?? [])
  if (!(JOBS as readonly string[]).includes(j)) throw new Error(`--only: no job '${j}' (jobs: ${JOBS.join(', ')})`);
const jobs = JOBS.filter((j) => only === undefined || only.includes(j));
const rounds = Number(option('--rounds') ?? (quick ? 1 : 3));
const sizes = quick ? QUICK_JOB_SIZES : FULL_JOB_SIZES;
const THREADS = [1, 2] as const;

const pythonChoice = findPython(root, option('--python') ?? process.env['ATEN_TS_TORCH_PYTHON'] ?? '/work/main/.venv-golden/bin/python');
const python = pythonChoice.python;
const log = (s: string): void => void process.stderr.write(`${s}\n`);
log(python === undefined ? `PyTorch: ${pythonChoice.why}; aten-ts alone` : `PyTorch ${pythonChoice.version} (${python})`);

/** Results by row id, then thread count (0: rows measured once). */
const results = new Map<string, Map<number, RowResult>>();
const resultFor = (id: string, threads: number): RowResult => {
  let byThreads = results.get(id);
  if (byThreads === undefined) results.set(id, (byThreads = new Map()));
  let r = byThreads.get(threads);
  if (r === undefined) byThreads.set(threads, (r = { aten: [], torch: [] }));
  return r;
};
const notes: string[] = [];
/** `--profile`: each job's tables, in job order. */
const profiles: string[] = [];
const message = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0]!.slice(0, 300);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A worker of bench/compare's kind (same line protocol and client), speaking bench/jobs' messages. */
interface Worker {
  side: 'aten' | 'torch';
  threads: number;
  client: WorkerClient;
  failed?: string;
}

async function ask(w: Worker, req: Request): Promise<Reply> {
  return (await w.client.request(req as unknown as CompareRequest)) as unknown as Reply | CompareReply as Reply;
}

function startWorker(side: 'aten' | 'torch', threads: number): Worker {
  const system: SystemId = side === 'aten' ? (threads === 1 ? 'aten-ts' : 'aten2') : threads === 1 ? 'torch1' : 'torch2';
  const client =
    side === 'aten'
      ? new WorkerClient(
          system,
          process.execPath,
          ['--import', 'tsx', join(root, 'bench/jobs/aten_worker.ts'), '--threads', String(threads)],
          root,
        )
      : new WorkerClient(system, python!, [join(root, 'bench/jobs/torch_jobs.py'), '--threads', String(threads)], root);
  return { side, threads, client };
}

async function runJob(job: Exclude<JobId, 'startup'>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'aten-ts-jobs-'));
  const weights = join(dir, `${job}.pt`);
  const workers: Worker[] = [];
  for (const t of THREADS) {
    if (python !== undefined) workers.push(startWorker('torch', t));
    workers.push(startWorker('aten', t));
  }
  const rows = ROWS.filter((r) => r.job === job);
  try {
    await Promise.all(workers.map((w) => w.client.info.catch((e: unknown) => void (w.failed = message(e)))));
    // Set-up one at a time, PyTorch first: its 1-thread worker writes the weights and data the others read.
    const torchFirst = [...workers].sort((a, b) => (a.side === b.side ? a.threads - b.threads : a.side === 'torch' ? -1 : 1));
    let saved = false;
    for (const w of torchFirst) {
      if (w.failed !== undefined) continue;
      const save = w.side === 'torch' && !saved ? weights : null;
      const load = w.side === 'aten' && saved ? weights : null;
      try {
        const reply = await ask(w, { op: 'setup', job, sizes, save, load });
        if (!('setup' in reply)) throw new Error(`unexpected reply ${JSON.stringify(reply)}`);
        if (save !== null) saved = true;
        for (const row of rows) {
          const r = resultFor(row.id, w.threads);
          if (w.side === 'aten') r.atenLosses = reply.setup.losses;
          else r.torchLosses = reply.setup.losses;
        }
        if (reply.setup.note !== undefined && w.threads === 1)
          notes.push(`- ${job}, ${w.side === 'aten' ? 'aten-ts' : 'PyTorch'}: ${reply.setup.note}`);
      } catch (e) {
        w.failed = message(e);
      }
    }
    const { steps, budget_ms } = RUN_STEPS[job];
    for (let round = 0; round < rounds; round++) {
      // Alternate which side goes first in each round.
      const order = round % 2 === 0 ? workers : [...workers].reverse();
      for (const w of order) {
        let figures: Record<string, RunFigures> | undefined;
        if (w.failed === undefined) {
          await sleep(200); // let the previous worker's spinning OpenMP threads go to sleep
          try {
            const reply = await ask(w, { op: 'run', job, steps, budget_ms: quick ? Math.min(budget_ms, 300) : budget_ms });
            if (!('run' in reply)) throw new Error(`unexpected reply ${JSON.stringify(reply)}`);
            figures = reply.run;
          } catch (e) {
            w.failed = message(e);
          }
        }
        for (const row of rows) {
          const r = resultFor(row.id, w.threads);
          (w.side === 'aten' ? r.aten : r.torch)[round] = figures?.[row.id];
        }
      }
      log(`${job}: round ${round + 1}/${rounds} done`);
    }
    const profileSteps = PROFILE_STEPS[job];
    if (profiling && profileSteps !== undefined) {
      const steps = quick ? Math.min(profileSteps, 3) : profileSteps;
      const got = new Map<string, ProfileFigures>();
      for (const w of workers) {
        if (w.failed !== undefined) continue;
        await sleep(200);
        try {
          const reply = await ask(w, { op: 'profile', job, steps });
          if (!('profile' in reply)) throw new Error(`unexpected reply ${JSON.stringify(reply)}`);
          got.set(`${w.side}${w.threads}`, reply.profile);
        } catch (e) {
          notes.push(`- ${job}, ${w.side === 'aten' ? 'aten-ts' : 'PyTorch'} ${w.threads} thr: no profile (${message(e)})`);
        }
      }
      const label = rows[0]?.label ?? job;
      for (const t of THREADS)
        profiles.push(profileTable(`${label}, ${t} thread${t > 1 ? 's' : ''}, ${steps} steps`, got.get(`aten${t}`), got.get(`torch${t}`)));
      log(`${job}: profiled`);
    }
    for (const w of workers) {
      if (w.failed === undefined) continue;
      for (const row of rows) {
        const r = resultFor(row.id, w.threads);
        if (w.side === 'aten') r.atenError = w.failed;
        else r.torchError = w.failed;
      }
      notes.push(`- ${job}, ${w.side === 'aten' ? 'aten-ts' : 'PyTorch'} ${w.threads} thr fails: ${w.failed}`);
    }
  } finally {
    await Promise.all(workers.map((w) => w.client.close()));
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Start-up: fresh processes, aten-ts and PyTorch (1 thread) alternated, each timing its own import and first add. */
async function runStartup(): Promise<void> {
  const samples = quick ? 2 : 7;
  const imp = resultFor('import', 0);
  const first = resultFor('first_op', 0);
  for (let i = 0; i < samples; i++) {
    for (const side of i % 2 === 0 ? (['aten', 'torch'] as const) : (['torch', 'aten'] as const)) {
      if (side === 'torch' && python === undefined) continue;
      try {
        const f = firstOp(side === 'aten' ? 'aten-ts' : 'torch1', root, python);
        (side === 'aten' ? imp.aten : imp.torch)[i] = { ms: f.import_ms, steps: 1 };
        (side === 'aten' ? first.aten : first.torch)[i] = { ms: f.first_op_ms, steps: 1 };
      } catch (e) {
        if (side === 'aten') imp.atenError = first.atenError = message(e);
        else imp.torchError = first.torchError = message(e);
      }
    }
  }
  notes.push(
    `- start-up: ${samples} fresh processes per side, alternated; aten-ts loads ${atenStartupMode(root).why}; PyTorch: \`import torch\` + first torch.add, OMP_NUM_THREADS=1`,
  );
}

const t0 = Date.now();
const ticks0 = cpuTicks();
const load0 = loadAverage();
for (const job of jobs) {
  const start = Date.now();
  log(`${job}…`);
  if (job === 'startup') await runStartup();
  else await runJob(job);
  log(`${job}: ${Math.round((Date.now() - start) / 1000)} s`);
}
const others = othersShare(ticks0, cpuTicks());
const seconds = (Date.now() - t0) / 1000;

const lines = [TABLE_HEAD];
for (const spec of ROWS) {
  if (!jobs.includes(spec.job)) continue;
  const row = quick && spec.job !== 'startup' ? { ...spec, label: `${spec.label} (--quick: smaller)` } : spec;
  if (row.threadless === true) lines.push(tableRow(row, undefined, resultFor(row.id, 0)));
  else for (const t of THREADS) lines.push(tableRow(row, t, resultFor(row.id, t)));
}
const command = `npm run bench:jobs${argv.length > 0 ? ` -- ${argv.filter((a) => a !== '--write').join(' ')}` : ''}`.trimEnd();
const load = `load average ${load0} at the start, ${loadAverage()} at the end; other processes used ${
  others === undefined ? '?' : `${Math.round(others * 100)}%`
} of the machine's CPU time during the run`;
const body = [
  `Command: \`${command}\`. Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC. Last commit of src/: ${gitCommit(root) ?? '?'}. ${machineFacts().join(', ')}; ${load}. ${rounds} alternated round${rounds > 1 ? 's' : ''}${quick ? ', --quick sizes' : ''}; ${sig3(seconds)} s.`,
  '',
  lines.join('\n'),
  '',
  'aten-ts and PyTorch times are medians over the rounds (LeNet: images/s of the best warm epoch); ratio = aten-ts ÷ PyTorch time on the same thread count (median of the rounds’ ratios); the losses are after the first and the last warm-up step, on the same weights and data (PyTorch writes them with torch.save, aten-ts reads them with torch.load); GCs and minor page faults per step (per call in the micro rows) are aten-ts’s, over the timed runs. The transformers run with dropout=0.0 on both sides: with PyTorch’s default 0.1 the losses part from the first step (2.3975 against 2.3787: aten-ts’s empty_like does not keep the strides of MultiheadAttention’s transposed output, so dropout’s mask is drawn in another order; bench/jobs/protocol.ts), and the two sides would not be doing the same work.',
  '',
  ...notes,
  ...(profiles.length === 0
    ? []
    : [
        '',
        '### Where each step’s time goes (`--profile`)',
        '',
        'Self CPU time per step of each operator under each side’s torch.profiler (operator events; the profiler adds a per-call cost on both sides, so the step is slower than in the table above), after the timed rounds, in the same worker processes. Ratio = aten-ts ÷ PyTorch; share = of aten-ts’s operators’ self time.',
        '',
        profiles.join('\n\n'),
      ]),
];
const section = body.join('\n');
console.log(`\n## Jobs (npm run bench:jobs)\n\n${section}`);
if (write) {
  const path = join(root, 'bench/RESULTS.md');
  writeFileSync(path, placeSection(readFileSync(path, 'utf8'), '## Jobs (npm run bench:jobs)', section));
  log(`written to ${path}`);
}
