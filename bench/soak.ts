// The soak benchmark of Note [Storage lifetime]: a 784-128-10 MLP trained by SGD for 10,000 steps (batch 64)
// without a single dispose(), printing peak and steady-state memory. Two loop shapes: one that never yields
// (FinalizationRegistry callbacks cannot run; the soft limit keeps it bounded) and one that awaits a macrotask
// per step, as a data loader does (finalizers free what the steps dropped).
//
//   npx tsx bench/soak.ts [--steps 10000] [--shape sync|yield|both]
import { Command } from 'commander';
import { Tensor, cpuMemoryStats, torch } from '../src/node.js';

const program = new Command()
  .option('--steps <n>', 'training steps per loop shape', '10000')
  .option('--shape <shape>', 'sync, yield or both', 'both')
  .parse();
const opts = program.opts<{ steps: string; shape: string }>();
const steps = Number(opts.steps);
if (!Number.isInteger(steps) || steps < 1) throw new Error(`--steps: expected a positive integer, got '${opts.steps}'`);
if (!['sync', 'yield', 'both'].includes(opts.shape)) throw new Error(`--shape: expected sync, yield or both, got '${opts.shape}'`);

const MiB = 1024 * 1024;
const mb = (n: number): string => `${(n / MiB).toFixed(1)} MiB`;

function step(params: Tensor[], x: Tensor, y: Tensor): number {
  const [w1, b1, w2, b2] = params as [Tensor, Tensor, Tensor, Tensor];
  const loss = torch.cross_entropy_loss(torch.linear(torch.relu(torch.linear(x, w1, b1)), w2, b2), y);
  loss.backward();
  torch.noGrad(() => {
    for (const p of params) {
      p.sub_(p.grad as Tensor, { alpha: 0.05 });
      p.grad = null;
    }
  });
  return loss.item() as number;
}

async function run(shape: 'sync' | 'yield'): Promise<void> {
  torch.manualSeed(0);
  const params = [torch.randn(128, 784).mul(0.05), torch.zeros(128), torch.randn(10, 128).mul(0.05), torch.zeros(10)];
  for (const p of params) p.requiresGrad_(true);
  // 16 fixed batches, drawn in turn (the data are not the point; the allocations are).
  const batches = Array.from({ length: 16 }, () => [torch.randn(64, 784), torch.randint(0, 10, [64])] as const);
  const samples: { step: number; rss: number; wasm: number; live: number; heap: number }[] = [];
  const t0 = performance.now();
  let loss = 0;
  for (let s = 1; s <= steps; s++) {
    const [x, y] = batches[s % batches.length] as readonly [Tensor, Tensor];
    loss = step(params, x, y);
    if (shape === 'yield') await new Promise((r) => setImmediate(r));
    if (s % Math.max(1, Math.floor(steps / 50)) === 0) {
      const m = process.memoryUsage();
      const c = cpuMemoryStats();
      samples.push({ step: s, rss: m.rss, wasm: c?.memoryBytes ?? 0, live: c?.allocatedBytes ?? 0, heap: m.heapUsed + m.arrayBuffers });
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  const peak = (k: 'rss' | 'wasm' | 'live' | 'heap'): number => Math.max(...samples.map((x) => x[k]));
  const late = samples.slice(Math.floor(samples.length / 2));
  const steady = (k: 'rss' | 'wasm' | 'live' | 'heap'): number => late.reduce((a, x) => a + x[k], 0) / late.length;
  const c = cpuMemoryStats();
  console.log(
    `\n${shape}: ${steps} steps in ${seconds.toFixed(1)} s (${((seconds / steps) * 1000).toFixed(2)} ms/step), final loss ${loss.toFixed(4)}`,
  );
  console.log('| memory | peak | steady state (mean of the second half) |');
  console.log('|---|---:|---:|');
  console.log(`| process RSS | ${mb(peak('rss'))} | ${mb(steady('rss'))} |`);
  console.log(`| WebAssembly memory | ${mb(peak('wasm'))} | ${mb(steady('wasm'))} |`);
  console.log(`| live blocks in it | ${mb(peak('live'))} | ${mb(steady('live'))} |`);
  console.log(`| JS heap + ArrayBuffers | ${mb(peak('heap'))} | ${mb(steady('heap'))} |`);
  console.log(
    `frees: ${c?.explicitFrees ?? 0} by the library, ${c?.finalizedFrees ?? 0} by finalizers; ` +
      `${c?.jsHeapFallbacks ?? 0} storages placed in the JS heap past the soft limit`,
  );
}

console.log(`soak: MLP 784-128-10, batch 64, SGD, no dispose(); Node ${process.version}`);
if (opts.shape !== 'yield') await run('sync');
if (opts.shape !== 'sync') await run('yield');
