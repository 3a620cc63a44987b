// bench/mlp_step.ts: the MLP step of bench/compare.ts (mlp_sgd_step: 784-128-10, batch 64, plain ops +
// autograd, p.sub_(p.grad.mul(lr)) under noGrad) in one process, for profiles and A/Bs of the element-wise hot path.
//   npx tsx bench/mlp_step.ts [--threads N] [--steps N] [--rounds N] [--profile]
import { cpuMemoryStats, torch } from '../src/node.js';
import { wasmCPUAllocator } from '../src/wasm/index.js';
import { mlpStep, warmLinearMemory } from './mlp_workload.js';
import { profile } from '../src/profiler/index.js';

const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const threads = arg('--threads', 1);
const steps = arg('--steps', 200);
const rounds = arg('--rounds', 7);
torch.setNumThreads(threads);
const soft = arg('--soft-mib', 0);
if (soft > 0) wasmCPUAllocator()!.softLimitMin = soft * 2 ** 20;
torch.manualSeed(0);

const step = mlpStep();

// As bench/compare's aten worker: warm linear memory to its first reclamation (--no-warm: from a fresh process).
if (!process.argv.includes('--no-warm')) warmLinearMemory();

const median = (a: number[]): number => [...a].sort((p, q) => p - q)[a.length >> 1] as number;
for (let i = 0; i < 50; i++) step();
const wall: number[] = [];
const user: number[] = [];
const sys: number[] = [];
const faults: number[] = [];
// The calling thread's own CPU time (µs, 10 ms ticks; Linux only, else 0): user CPU above also counts V8's
// background threads (concurrent marking, sweeping, optimizing compiles) and the gemm workers.
const { readFileSync } = await import('node:fs');
const mainCpu = (): number => {
  try {
    const f = readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) * 1e4;
  } catch {
    return 0;
  }
};
const main: number[] = [];
const reserved: number[] = [];
// --ab-threads: alternate rounds between `threads` and 1 thread in this process (same shared memory), to
// see what splitting the step's work among threads gains; the odd rounds are then the 1-thread ones.
const abThreads = process.argv.includes('--ab-threads');
for (let r = 0; r < rounds; r++) {
  if (abThreads) torch.setNumThreads(r % 2 === 0 ? threads : 1);
  const r0 = process.resourceUsage();
  const m0 = mainCpu();
  const t0 = performance.now();
  for (let i = 0; i < steps; i++) step();
  const t1 = performance.now();
  const r1 = process.resourceUsage();
  main.push((mainCpu() - m0) / steps);
  wall.push(((t1 - t0) / steps) * 1000);
  user.push((r1.userCPUTime - r0.userCPUTime) / steps);
  sys.push((r1.systemCPUTime - r0.systemCPUTime) / steps);
  faults.push((r1.minorPageFault - r0.minorPageFault) / steps);
  reserved.push(cpuMemoryStats()?.reservedBytes ?? 0);
}
const f = (a: number[]): string => median(a).toFixed(0);
if (abThreads) {
  const [even, odd] = [wall.filter((_, i) => i % 2 === 0), wall.filter((_, i) => i % 2 === 1)];
  console.log(`A/B in one process: ${threads} threads ${f(even)} µs, 1 thread ${f(odd)} µs (wall medians)`);
}
console.log(
  `threads ${threads}: per step (median of ${rounds} × ${steps}): wall ${f(wall)} µs, user CPU ${f(user)} µs (this thread ${f(main)} µs), system CPU ${f(sys)} µs, ` +
    `minor page faults ${f(faults)} (rounds ${faults.map((t) => t.toFixed(0)).join(' ')}); wall rounds ${wall.map((t) => t.toFixed(0)).join(' ')}; ` +
    `reserved MiB after each round ${reserved.map((b) => (b / 2 ** 20).toFixed(0)).join(' ')}`,
);
console.log(JSON.stringify(cpuMemoryStats()));
if (process.argv.includes('--cpu-prof')) {
  // A V8 sampling profile of `steps` steps, written to /tmp/mlp_step.cpuprofile (wasm functions appear by index).
  const inspector = await import('node:inspector');
  const { writeFileSync } = await import('node:fs');
  const session = new inspector.Session();
  session.connect();
  const post = (m: string, p?: object): Promise<unknown> =>
    new Promise((res, rej) => session.post(m, p ?? {}, (e, r) => (e ? rej(e) : res(r))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 100 });
  await post('Profiler.start');
  for (let i = 0; i < steps; i++) step();
  const { profile: p } = (await post('Profiler.stop')) as { profile: object };
  writeFileSync('/tmp/mlp_step.cpuprofile', JSON.stringify(p));
}
if (process.argv.includes('--profile')) {
  const prof = new profile();
  prof.start();
  for (let i = 0; i < steps; i++) step();
  prof.stop();
  console.log(prof.key_averages().table({ sort_by: 'self_cpu_time_total', row_limit: 30 }));
}
