// bench/micro_loop.ts: one micro job of bench/jobs (mul 1e6, softmax 1000×1000 dim 1, exp 1e6, 1-element add) in a
// loop, alone, under the shipped settings (not test/setup's), for `node --cpu-prof`: where a call's time goes.
//   node --import tsx bench/micro_loop.ts <mul|softmax|exp|add1> [threads] [seconds] [profile.cpuprofile]
// Prints the wall and CPU time per call, GCs and minor page faults per call; with a fourth argument, writes a CPU
// profile of the timed loop only (node:inspector), without the import and the warm-up.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { PerformanceObserver } from 'node:perf_hooks';
import { torch } from '../src/node.js';
import { warmLinearMemory } from './mlp_workload.js';

const op = process.argv[2] ?? 'mul';
const threads = Number(process.argv[3] ?? 1);
const seconds = Number(process.argv[4] ?? 3);
const profilePath = process.argv[5];
torch.setNumThreads(threads);
let gcs = 0;
new PerformanceObserver((list) => {
  gcs += list.getEntries().length;
}).observe({ entryTypes: ['gc'] });

const a = torch.randn(1_000_000);
const b = torch.randn(1_000_000);
const m = torch.randn(1000, 1000);
const one = torch.tensor([1.5]);
const two = torch.tensor([2.5]);
const bodies: Record<string, () => unknown> = {
  mul: () => torch.mul(a, b),
  softmax: () => torch.softmax(m, 1),
  exp: () => torch.exp(a),
  add1: () => torch.add(one, two),
};
const body = bodies[op]!;
warmLinearMemory();
for (let i = 0; i < 200; i++) body();
const batch = op === 'add1' ? 100_000 : 50;
const session = new Session();
const post = (method: string, params?: object): Promise<unknown> =>
  new Promise((resolve, reject) => session.post(method, params ?? {}, (e, r) => (e ? reject(e) : resolve(r))));
if (profilePath !== undefined) {
  session.connect();
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 100 });
  await post('Profiler.start');
}
const perCall: number[] = [];
const cpu0 = process.cpuUsage();
const f0 = process.resourceUsage().minorPageFault;
const g0 = gcs;
let calls = 0;
const t0 = performance.now();
while (performance.now() - t0 < seconds * 1000) {
  const t = performance.now();
  for (let i = 0; i < batch; i++) body();
  perCall.push(((performance.now() - t) * 1e3) / batch);
  calls += batch;
}
const wall = ((performance.now() - t0) * 1e3) / calls;
const c = process.cpuUsage(cpu0);
if (profilePath !== undefined) {
  const { profile } = (await post('Profiler.stop')) as { profile: unknown };
  writeFileSync(profilePath, JSON.stringify(profile));
}
await new Promise((r) => setTimeout(r, 20));
perCall.sort((x, y) => x - y);
console.log(
  `${op} threads=${threads}: median batch ${perCall[perCall.length >> 1]!.toFixed(3)} µs/call, wall ${wall.toFixed(3)} µs/call, ` +
    `cpu ${((c.user + c.system) / calls).toFixed(3)} µs/call (sys ${(c.system / calls).toFixed(3)}), ` +
    `GCs/call ${((gcs - g0) / calls).toFixed(4)}, faults/call ${((process.resourceUsage().minorPageFault - f0) / calls).toFixed(3)}`,
);
process.exit(0);
