// `npx tsx bench/interference.ts [--workloads add_out_1e7,conv2d_fwd_bwd] [--rounds 4] [--cycles 2] [--settle-ms 20]`: why is
// aten-ts's 2-thread column of bench/compare.ts slower when PyTorch workers take part? Starts bench/compare's aten2,
// torch1 and torch2 workers and, round by round (conditions rotating), times an aten2 sample right after a torch2
// sample, after a torch1 sample, and after nothing (the same settle time) — all with both torch processes present
// — then with the torch processes gone, and again (--cycles). For every aten2 sample it reads each thread's CPU time and run-queue wait
// (/proc/<pid>/task/<tid>/schedstat) and context switches, and the torch processes' CPU during it. Linux only.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { SystemId, WorkloadId } from './compare/protocol.js';
import { type WorkerClient, findPython, startWorker } from './compare/systems.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: opts } = parseArgs({
  options: {
    workloads: { type: 'string' },
    rounds: { type: 'string' },
    cycles: { type: 'string' },
    'settle-ms': { type: 'string' },
    python: { type: 'string' },
  },
});
const workloads = (opts.workloads ?? 'add_out_1e7,conv2d_fwd_bwd').split(',') as WorkloadId[];
const rounds = Number(opts.rounds ?? 4);
const cycles = Number(opts.cycles ?? 2);
const settleMs = Number(opts['settle-ms'] ?? 20);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Child processes of this one, from /proc/<pid>/stat's ppid. */
function children(): Set<number> {
  const out = new Set<number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const s = readFileSync(`/proc/${d}/stat`, 'utf8');
      if (Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[1]) === process.pid) out.add(Number(d));
    } catch {
      // exited
    }
  }
  return out;
}

/** Busy and total ticks of the machine (/proc/stat), and the ticks of processes `pids` (/proc/<pid>/stat). */
function ticks(pids: number[]): { busy: number; total: number; ours: number } {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = cpu.reduce((a, b) => a + b, 0);
  let ours = 0;
  for (const pid of pids) {
    const st = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
    ours += Number(f[11]) + Number(f[12]);
  }
  return { busy: total - cpu[3]! - cpu[4]!, total, ours };
}

interface Sched {
  cpuNs: number;
  waitNs: number;
  invol: number;
}
/** Per-thread CPU time, run-queue wait and involuntary switches of process `pid`. */
function sched(pid: number): Map<number, Sched> {
  const out = new Map<number, Sched>();
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    try {
      const [cpuNs, waitNs] = readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').trim().split(' ').map(Number);
      const invol = Number(/nonvoluntary_ctxt_switches:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/task/${t}/status`, 'utf8'))?.[1]);
      out.set(Number(t), { cpuNs: cpuNs!, waitNs: waitNs!, invol });
    } catch {
      // thread exited
    }
  }
  return out;
}
/** The two busiest threads' CPU and wait (ms) between two readings, and all threads' CPU. */
function busy(a: Map<number, Sched>, b: Map<number, Sched>): { top: { cpu: number; wait: number; invol: number }[]; all: number } {
  const rows = [...b].map(([tid, y]) => {
    const x = a.get(tid) ?? { cpuNs: 0, waitNs: 0, invol: 0 };
    return { cpu: (y.cpuNs - x.cpuNs) / 1e6, wait: (y.waitNs - x.waitNs) / 1e6, invol: y.invol - x.invol };
  });
  rows.sort((x, y) => y.cpu - x.cpu);
  return { top: rows.slice(0, 2), all: rows.reduce((s, r) => s + r.cpu, 0) };
}

interface Proc {
  w: WorkerClient;
  pid: number;
  iters: Map<WorkloadId, number>;
}
async function start(id: SystemId, python?: string): Promise<Proc> {
  const before = children();
  const w = startWorker(id, root, python);
  await w.info;
  const pid = [...children()].find((p) => !before.has(p));
  if (pid === undefined) throw new Error(`no pid for ${id}`);
  const r = await w.request({ op: 'setup', quick: false, readback: false, warmup_ns: 300e6, workloads });
  if (!('setup' in r)) throw new Error('setup');
  const iters = new Map<WorkloadId, number>();
  for (const wl of workloads) {
    const c = await w.request({ op: 'calibrate', workload: wl, target_ns: 60e6 });
    iters.set(wl, 'iters' in c ? c.iters : 1);
  }
  return { w, pid, iters };
}
const sample = async (p: Proc, wl: WorkloadId): Promise<number> => {
  const r = await p.w.request({ op: 'run', workload: wl, iters: p.iters.get(wl)! });
  return 'ns' in r ? r.ns : NaN;
};

const py = findPython(root, opts.python);
if (py.python === undefined) throw new Error(py.why);
const aten = await start('aten2');

type Row = {
  ns: number;
  main: number;
  mainWait: number;
  worker: number;
  workerWait: number;
  invol: number;
  torchCpu: number;
  others: number;
};
const rows = new Map<string, Row[]>();
async function measure(cond: string, wl: WorkloadId, others: Proc[]): Promise<void> {
  await sleep(settleMs);
  const a0 = sched(aten.pid);
  const o0 = others.map((o) => sched(o.pid));
  const pids = [aten.pid, ...others.map((o) => o.pid), process.pid];
  const t0 = ticks(pids);
  const ns = await sample(aten, wl);
  const t1 = ticks(pids);
  const share = (t1.busy - t0.busy - (t1.ours - t0.ours)) / Math.max(1, t1.total - t0.total);
  const { top } = busy(a0, sched(aten.pid));
  const torchCpu = others.reduce((s, o, i) => s + busy(o0[i]!, sched(o.pid)).all, 0);
  const key = `${wl} | ${cond}`;
  (rows.get(key) ?? rows.set(key, []).get(key)!).push({
    ns,
    main: top[0]?.cpu ?? 0,
    mainWait: top[0]?.wait ?? 0,
    worker: top[1]?.cpu ?? 0,
    workerWait: top[1]?.wait ?? 0,
    invol: (top[0]?.invol ?? 0) + (top[1]?.invol ?? 0),
    torchCpu,
    others: share,
  });
}

for (let cycle = 0; cycle < cycles; cycle++) {
  const torch1 = await start('torch1', py.python);
  const torch2 = await start('torch2', py.python);
  const conditions: [string, Proc | null][] = [
    ['after a torch2 sample', torch2],
    ['after a torch1 sample', torch1],
    ['after nothing (torch present)', null],
  ];
  for (let r = 0; r < rounds; r++) {
    process.stderr.write(`cycle ${cycle + 1}/${cycles}, round ${r + 1}/${rounds}\n`);
    for (let c = 0; c < conditions.length; c++) {
      const [cond, before] = conditions[(c + r) % conditions.length]!;
      for (const wl of workloads) {
        if (before !== null) {
          await sleep(settleMs);
          await sample(before, wl);
        }
        await measure(cond, wl, [torch1, torch2]);
      }
    }
  }
  await Promise.all([torch1.w.close(), torch2.w.close()]);
  for (let r = 0; r < rounds; r++) for (const wl of workloads) await measure('torch processes gone', wl, []);
}
await aten.w.close();

const med = (xs: number[]): number => [...xs].sort((x, y) => x - y)[xs.length >> 1]!;
console.log(
  `aten2 samples (median over ${rounds * cycles}; per sample of ~60 ms: the two busiest aten2 threads' CPU and run-queue wait, ` +
    `their involuntary switches, the torch processes' CPU, other processes' share of the machine):`,
);
for (const [key, rs] of rows) {
  const m = (f: (r: Row) => number) => med(rs.map(f)).toFixed(1);
  console.log(
    `  ${key}: ${(med(rs.map((r) => r.ns)) / 1e6).toFixed(3)} ms per call [${rs.map((r) => (r.ns / 1e6).toFixed(2)).join(' ')}]; ` +
      `main ${m((r) => r.main)} ms (wait ${m((r) => r.mainWait)}), worker ${m((r) => r.worker)} ms (wait ${m((r) => r.workerWait)}), ` +
      `invol ${m((r) => r.invol)}, torch CPU ${m((r) => r.torchCpu)} ms, others ${(med(rs.map((r) => r.others)) * 100).toFixed(0)}%`,
  );
}
