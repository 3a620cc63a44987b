// bench/compare: starting the systems for bench/compare.ts: finding a Python that imports torch, spawning each
// long-lived worker and talking to it over the line protocol of protocol.ts, and the machine facts.

import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { PREFIX, type Reply, type Request, type SystemId } from './protocol.js';

/** A Python that imports torch, or why there is none. */
export type PythonChoice = { python: string; version: string } | { python: undefined; why: string };

/** The first of --python, $ATEN_TS_TORCH_PYTHON, $PYTHON, <root>/.venv-golden/bin/python that imports torch (tools/golden/README.md). */
export function findPython(root: string, option: string | undefined): PythonChoice {
  const candidates = [option, process.env.ATEN_TS_TORCH_PYTHON, process.env.PYTHON, join(root, '.venv-golden/bin/python')].filter(
    (c): c is string => c !== undefined && c !== '',
  );
  const tried: string[] = [];
  for (const python of candidates) {
    if (python.includes('/') && !existsSync(python)) {
      tried.push(`${python}: not found`);
      continue;
    }
    try {
      const version = execFileSync(python, ['-c', 'import torch; print(torch.__version__)'], {
        encoding: 'utf8',
        timeout: 120_000,
        stdio: 'pipe',
      });
      return { python, version: version.trim() };
    } catch (e) {
      const err = e as { stderr?: string; message: string };
      tried.push(`${python}: ${(err.stderr ?? err.message).trim().split('\n').at(-1) ?? 'fails'}`);
    }
  }
  return { python: undefined, why: `no Python that imports torch (${tried.join('; ') || 'no candidate'})` };
}

/** One long-lived worker process: requests are answered in order, one at a time. */
export class WorkerClient {
  readonly info: Promise<Record<string, string>>;
  private readonly proc: ChildProcessWithoutNullStreams;
  private readonly waiting: { resolve: (r: Reply) => void; reject: (e: Error) => void }[] = [];
  private stderrTail = '';
  private exited: Error | undefined;

  constructor(
    readonly system: SystemId,
    file: string,
    args: string[],
    cwd: string,
  ) {
    this.proc = spawn(file, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    this.proc.stderr.on('data', (d: Buffer) => {
      this.stderrTail = (this.stderrTail + d.toString()).slice(-2000);
    });
    createInterface({ input: this.proc.stdout }).on('line', (line) => {
      if (!line.startsWith(PREFIX)) return; // what a library prints on stdout
      this.waiting.shift()?.resolve(JSON.parse(line.slice(PREFIX.length)) as Reply);
    });
    this.proc.on('exit', (code, signal) => {
      const last = this.stderrTail.trim().split('\n').slice(-3).join(' / ');
      this.exited = new Error(`${system} worker exited (${signal ?? code})${last === '' ? '' : `: ${last}`}`);
      for (const w of this.waiting.splice(0)) w.reject(this.exited);
    });
    this.proc.on('error', (e) => {
      this.exited = e;
      for (const w of this.waiting.splice(0)) w.reject(e);
    });
    this.info = this.next(180_000).then((r) => {
      if (!('ready' in r)) throw new Error(`${system} worker: unexpected first reply ${JSON.stringify(r)}`);
      return r.info;
    });
  }

  /** The next reply, or an error after `timeoutMs` (the worker is then killed) or when the worker exits. */
  private next(timeoutMs: number): Promise<Reply> {
    if (this.exited !== undefined) return Promise.reject(this.exited);
    return new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.proc.kill();
        reject(new Error(`${this.system} worker: no answer in ${timeoutMs / 1000} s`));
      }, timeoutMs);
      this.waiting.push({
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
    });
  }

  /** Sends `req` and waits for its reply; a `{error}` reply becomes a thrown Error. */
  async request(req: Request, timeoutMs = 600_000): Promise<Reply> {
    await this.info;
    const reply = this.next(timeoutMs);
    this.proc.stdin.write(JSON.stringify(req) + '\n');
    const r = await reply;
    if ('error' in r) throw new Error(`${this.system}: ${r.error}`);
    return r;
  }

  /** The worker's process id (undefined once it has exited). */
  get pid(): number | undefined {
    return this.exited === undefined ? this.proc.pid : undefined;
  }

  /** Asks the worker to exit; resolves once it has (killed after 5 s). */
  close(): Promise<void> {
    if (this.exited !== undefined) return Promise.resolve();
    const gone = new Promise<void>((resolve) => this.proc.once('exit', () => resolve()));
    this.proc.stdin.write(JSON.stringify({ op: 'exit' }) + '\n');
    this.proc.stdin.end();
    setTimeout(() => this.proc.kill(), 5000).unref();
    return gone;
  }
}

/** The worker process of `system`. */
export function startWorker(system: SystemId, root: string, python: string | undefined): WorkerClient {
  const nodeWorker = (name: string) =>
    new WorkerClient(system, process.execPath, ['--import', 'tsx', join(root, 'bench/compare', name)], root);
  switch (system) {
    case 'aten-ts':
    case 'aten2':
      return new WorkerClient(
        system,
        process.execPath,
        ['--import', 'tsx', join(root, 'bench/compare/aten_worker.ts'), '--threads', system === 'aten-ts' ? '1' : '2'],
        root,
      );
    case 'tfjs':
      return nodeWorker('tfjs_worker.ts');
    case 'jax':
      return nodeWorker('jax_worker.ts');
    case 'torch1':
    case 'torch2':
      if (python === undefined) throw new Error('no Python with torch');
      return new WorkerClient(
        system,
        python,
        [join(root, 'bench/compare/torch_worker.py'), '--threads', system === 'torch1' ? '1' : '2'],
        root,
      );
  }
}

/**
 * CPU time on Linux, in clock ticks: `busy` of the whole machine (/proc/stat) and `own`, this process and its
 * children that have exited (/proc/self/stat utime, stime, cutime, cstime). Undefined elsewhere.
 */
export function cpuTicks(): { busy: number; total: number; own: number } | undefined {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const idle = cpu[3]! + (cpu[4] ?? 0); // idle + iowait
    const total = cpu.slice(0, 8).reduce((a, b) => a + b, 0); // without guest time, already in user
    const self = readFileSync('/proc/self/stat', 'utf8');
    const fields = self
      .slice(self.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number); // fields from the 3rd on
    const own = fields[11]! + fields[12]! + fields[13]! + fields[14]!; // utime stime cutime cstime (14th-17th)
    return { busy: total - idle, total, own };
  } catch {
    return undefined;
  }
}

/** Ticks used by processes other than this one and its children between two readings, and all ticks (0 0 off Linux). */
export function othersTicks(a: ReturnType<typeof cpuTicks>, b: ReturnType<typeof cpuTicks>): { others: number; total: number } {
  if (a === undefined || b === undefined) return { others: 0, total: 0 };
  return { others: Math.max(0, b.busy - a.busy - (b.own - a.own)), total: b.total - a.total };
}

/** The share of the machine (0..1) that processes other than this one and its children used between two readings. */
export function othersShare(a: ReturnType<typeof cpuTicks>, b: ReturnType<typeof cpuTicks>): number | undefined {
  const { others, total } = othersTicks(a, b);
  return total > 0 ? others / total : undefined;
}

/**
 * Waits (at most `maxSeconds`) until other processes use less than `share` of the machine over half a second; the
 * seconds waited beyond that first half second, or undefined when it gave up.
 */
export async function waitForIdle(maxSeconds: number, share = 0.1): Promise<number | undefined> {
  const t0 = Date.now() + 500;
  while (Date.now() - t0 < maxSeconds * 1000) {
    const a = cpuTicks();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const others = othersShare(a, cpuTicks());
    if (others === undefined || others < share) return Math.max(0, (Date.now() - t0) / 1000);
  }
  return undefined;
}

/** The 1-minute load average: other work on the machine, which the figures share it with. */
export const loadAverage = (): string => loadavg()[0]!.toFixed(2);

/** The last commit that changed src/ at `root` (and whether src/ has uncommitted changes), or undefined outside git. */
export function gitCommit(root: string): string | undefined {
  try {
    const run = (args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: 'pipe' }).trim();
    return `${run(['log', '-1', '--format=%h', '--', 'src'])}${run(['status', '--porcelain', 'src']) === '' ? '' : ' + uncommitted changes in src/'}`;
  } catch {
    return undefined;
  }
}

/** CPU model, cores and Node version. */
export function machineFacts(): string[] {
  let model = cpus()[0]?.model ?? 'unknown CPU';
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('model name'));
    if (line !== undefined) model = line.split(':')[1]!.trim();
  } catch {
    // not Linux: os.cpus() has it
  }
  return [`CPU: ${model}, ${availableParallelism()} cores`, `Node ${process.version}`];
}

/** Scheduler accounting of a process: totals over its threads and each thread's (CPU, run-queue wait), in ns. */
export interface SchedStat {
  cpuNs: number;
  waitNs: number;
  threads: Map<string, [cpuNs: number, waitNs: number]>;
}

/**
 * Scheduler accounting of process `pid` (/proc/<pid>/task/<tid>/schedstat): time on a CPU and time runnable
 * but waiting for one, in ns, summed over its threads and per thread. Undefined off Linux or once the process
 * has exited.
 */
export function schedStat(pid: number | undefined): SchedStat | undefined {
  if (pid === undefined) return undefined;
  try {
    const out: SchedStat = { cpuNs: 0, waitNs: 0, threads: new Map() };
    for (const t of readdirSync(`/proc/${pid}/task`)) {
      try {
        const [c, w] = readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').trim().split(' ').map(Number);
        out.cpuNs += c!;
        out.waitNs += w!;
        out.threads.set(t, [c!, w!]);
      } catch {
        // the thread exited between the listing and the read
      }
    }
    return out;
  } catch {
    return undefined;
  }
}

/**
 * Run-queue wait, between two readings, of the `k` threads that used the most CPU between them: the compute
 * threads of a k-thread worker, without its runtime's helper threads (Note [Waiting for a CPU]).
 */
export function busiestThreadsWait(s0: SchedStat, s1: SchedStat, k: number): number {
  const deltas: [number, number][] = [];
  for (const [t, [c, w]] of s1.threads) {
    const [c0, w0] = s0.threads.get(t) ?? [0, 0];
    deltas.push([c - c0, w - w0]);
  }
  deltas.sort((a, b) => b[0] - a[0]);
  return deltas.slice(0, k).reduce((sum, [, w]) => sum + w, 0);
}
