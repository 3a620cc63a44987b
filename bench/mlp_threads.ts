// bench/mlp_threads.ts: where the CPU of bench/compare's MLP step goes, per thread of the process: the main
// thread, V8's platform threads (concurrent compiles, GC helpers) and the pool's worker, from
// /proc/self/task/*/schedstat (CPU time and run-queue wait per step). Linux only.
//   npx tsx bench/mlp_threads.ts [--threads N] [--warm STEPS] [--steps N]
// `--warm` steps run before the measured ones: V8 keeps optimizing the library's functions for thousands of
// steps (count them with `node --trace-opt --import tsx bench/mlp_threads.ts | grep -c 'completed optimizing'`),
// and those compiles run on the platform threads, beside a 2-thread step's worker.
import { readFileSync, readdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { torch } from '../src/node.js';
import { mlpStep, warmLinearMemory } from './mlp_workload.js';

const { values: opts } = parseArgs({
  options: {
    threads: { type: 'string', default: '1' },
    warm: { type: 'string', default: '300' },
    steps: { type: 'string', default: '1000' },
  },
});
// Threads that exist before the first tensor: the main thread and the runtime's helpers (V8's platform
// threads, which run concurrent compiles and GC tasks); the pool's workers start with linear memory.
const atStart = new Set(readdirSync('/proc/self/task'));
torch.setNumThreads(Number(opts.threads));
torch.manualSeed(0);
// As bench/compare's aten worker: linear memory warmed to its first reclamation.
warmLinearMemory();
const step = mlpStep();

/** Per thread: name, CPU ns, run-queue wait ns. */
function threads(): Map<string, [string, number, number]> {
  const out = new Map<string, [string, number, number]>();
  for (const t of readdirSync('/proc/self/task')) {
    try {
      const comm = readFileSync(`/proc/self/task/${t}/comm`, 'utf8').trim();
      const [cpu, wait] = readFileSync(`/proc/self/task/${t}/schedstat`, 'utf8').trim().split(' ').map(Number);
      out.set(t, [comm, cpu!, wait!]);
    } catch {
      // the thread exited between the listing and the read
    }
  }
  return out;
}

for (let i = 0; i < Number(opts.warm); i++) step();
const steps = Number(opts.steps);
const s0 = threads();
const t0 = performance.now();
for (let i = 0; i < steps; i++) step();
const wall = ((performance.now() - t0) / steps) * 1000;
const s1 = threads();
console.log(`${opts.threads} thread(s), after ${opts.warm} warm-up steps: ${wall.toFixed(0)} µs per step (${steps} steps)`);
const mainTid = String(process.pid);
for (const [t, [comm, cpu, wait]] of s1) {
  const before = s0.get(t);
  if (before === undefined) continue;
  const [c, w] = [(cpu - before[1]) / 1e3 / steps, (wait - before[2]) / 1e3 / steps];
  if (c < 1 && w < 1) continue;
  const role = t === mainTid ? 'main thread' : atStart.has(t) ? `${comm}: V8/Node helper` : `${comm}: started later (pool worker)`;
  console.log(`  ${role.padEnd(34)} CPU ${c.toFixed(0).padStart(5)} µs/step, waited for a CPU ${w.toFixed(0).padStart(4)} µs/step`);
}
process.exit(0);
