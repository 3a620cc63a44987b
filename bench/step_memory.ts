// bench/step_memory.ts: what a training step does to memory: per step of the MLP (bench/mlp_workload.ts)
// and of a small transformer (embedding, two encoder layers, a linear head, cross-entropy, Adam), the garbage
// collections (PerformanceObserver 'gc'), minor page faults (first touches of fresh pages), the allocator's
// explicit and finalized frees, the blocks carved from the top of linear memory, and wall time.
//
//   npx tsx bench/step_memory.ts [--steps N] [--rounds N] [--workload mlp|transformer|both] [--threads N] [--ab]
//
// --ab alternates rounds with the engine's freeing of gradients as they die (Note [Gradients freed as they die])
// on and off in one process, and prints the medians of each.
//
// Each round runs `steps` steps after a warm-up of 30; the medians over rounds are printed, and every round's
// figures. Run the base tree and this one in alternating processes for a before/after.
import { PerformanceObserver } from 'node:perf_hooks';
import { cpuMemoryStats, torch } from '../src/node.js';
import type { Tensor } from '../src/node.js';
import { mlpStep, warmLinearMemory } from './mlp_workload.js';
import { wasmCPUAllocator } from '../src/wasm/index.js';
import { setGradientsFreedAsTheyDie } from '../src/autograd/engine.js';

const arg = (name: string, dflt: string): string => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? (process.argv[i + 1] as string) : dflt;
};
const steps = Number(arg('--steps', '100'));
const rounds = Number(arg('--rounds', '5'));
const workload = arg('--workload', 'both');
const ab = process.argv.includes('--ab');
torch.setNumThreads(Number(arg('--threads', '1')));

let gcs = 0;
let gcMs = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gcs++;
    gcMs += e.duration;
  }
}).observe({ entryTypes: ['gc'] });
// PerformanceObserver callbacks run when the event loop turns: yield after each round before reading `gcs`.
const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

function transformerStep(): () => void {
  const [vocab, d, heads, ff, seq, batch] = [1000, 128, 4, 256, 32, 16];
  const emb = new torch.nn.Embedding(vocab, d);
  const layers = [0, 1].map(() => new torch.nn.TransformerEncoderLayer(d, heads, { dim_feedforward: ff, dropout: 0, batch_first: true }));
  const head = new torch.nn.Linear(d, vocab);
  const params = [...emb.parameters(), ...layers.flatMap((l) => [...l.parameters()]), ...head.parameters()];
  const opt = new torch.optim.Adam(params, { lr: 1e-3 });
  const tokens = torch.randint(0, vocab, [batch, seq]);
  const target = torch.randint(0, vocab, [batch * seq]);
  return () => {
    opt.zero_grad();
    let h: Tensor = emb.call(tokens);
    for (const l of layers) h = l.call(h);
    const logits = head.call(h).reshape([batch * seq, vocab]);
    torch.nn.functional.cross_entropy(logits, target).backward();
    opt.step();
  };
}

const median = (a: number[]): number => [...a].sort((p, q) => p - q)[a.length >> 1] as number;

async function measure(name: string, step: () => void): Promise<void> {
  for (let i = 0; i < 30; i++) step();
  await turn();
  const rows: {
    ms: number;
    gc: number;
    gcMs: number;
    faults: number;
    explicit: number;
    finalized: number;
    reclaims: number;
    carved: number;
  }[] = [];
  const alloc = wasmCPUAllocator()?.runtime.allocator;
  for (let r = 0; r < rounds; r++) {
    if (ab) setGradientsFreedAsTheyDie(r % 2 === 0);
    const c0 = cpuMemoryStats();
    const a0 = alloc?.stats();
    const g0 = gcs;
    const gm0 = gcMs;
    const f0 = process.resourceUsage().minorPageFault;
    const t0 = performance.now();
    for (let i = 0; i < steps; i++) step();
    const t1 = performance.now();
    const f1 = process.resourceUsage().minorPageFault;
    await turn();
    const c1 = cpuMemoryStats();
    const a1 = alloc?.stats();
    rows.push({
      ms: (t1 - t0) / steps,
      gc: (gcs - g0) / steps,
      gcMs: (gcMs - gm0) / steps,
      faults: (f1 - f0) / steps,
      explicit: ((c1?.explicitFrees ?? 0) - (c0?.explicitFrees ?? 0)) / steps,
      finalized: ((c1?.finalizedFrees ?? 0) - (c0?.finalizedFrees ?? 0)) / steps,
      reclaims: (c1?.synchronousReclaims ?? 0) - (c0?.synchronousReclaims ?? 0),
      // Blocks carved from the top of the heap (no free block could hold them): fresh pages unless trimmed before.
      carved: ((a1?.allocations ?? 0) - (a1?.cacheHits ?? 0) - ((a0?.allocations ?? 0) - (a0?.cacheHits ?? 0))) / steps,
    });
  }
  type Row = (typeof rows)[number];
  const print = (label: string, rs: Row[]): void => {
    const m = (k: keyof Row, digits: number): string => median(rs.map((x) => x[k])).toFixed(digits);
    const all = (k: keyof Row, digits: number): string => rs.map((x) => x[k].toFixed(digits)).join(' ');
    const c = cpuMemoryStats();
    console.log(
      `${label}: per step (median of ${rs.length} × ${steps}): ${m('ms', 2)} ms, ${m('gc', 3)} GC (${m('gcMs', 3)} ms), ` +
        `${m('faults', 1)} minor page faults, ${m('carved', 2)} blocks carved from the heap top, ` +
        `${m('explicit', 1)} explicit / ${m('finalized', 1)} finalized frees; ` +
        `reclaims per round ${all('reclaims', 0)}; ms rounds ${all('ms', 2)}; faults rounds ${all('faults', 0)}; ` +
        `reserved ${((c?.reservedBytes ?? 0) / 2 ** 20).toFixed(0)} MiB, live ${((c?.allocatedBytes ?? 0) / 2 ** 20).toFixed(1)} MiB`,
    );
  };
  if (!ab) print(name, rows);
  else {
    print(
      `${name}, gradients freed as they die`,
      rows.filter((_, i) => i % 2 === 0),
    );
    print(
      `${name}, freed at the end of backward`,
      rows.filter((_, i) => i % 2 === 1),
    );
  }
}

torch.manualSeed(0);
if (!process.argv.includes('--no-warm')) warmLinearMemory();
if (workload !== 'transformer') await measure('mlp', mlpStep());
if (workload !== 'mlp') await measure('transformer', transformerStep());
