// Memory over a long training run on the webgpu device in Chromium on SwiftShader (imported by webgpu.ts): a tiny
// MLP trained STEPS steps with SGD + momentum, the batch size cycling through BATCHES, no `dispose()`, the loss
// read with `await loss.item_async()` every READ_EVERY steps (the training loop). `memory_allocated()`
// and `memory_reserved()` are sampled every SAMPLE_EVERY steps: after the first samples (every batch size seen,
// the optimiser's state made) allocated stays the same after a collection, and reserved stays bounded.
// Also run by bench/webgpu.ts with more steps. No DOM types and no value imports.

import { assert } from './util.js';

type Aten = typeof import('../../src/index.js');
type Tensor = import('../../src/index.js').Tensor;
type WebGPU = typeof import('../../src/webgpu/index.js');

export interface MemorySample {
  step: number;
  allocated: number;
  reserved: number;
}

const gc = (globalThis as { gc?: () => void }).gc;
/** Where the page exposes the collector (run.ts launches Chromium with --js-flags=--expose-gc): collect, then
 * yield to a task so the FinalizationRegistry callbacks that release the dead tensors' buffers run. */
async function collect(): Promise<void> {
  if (gc === undefined) return;
  gc();
  for (let i = 0; i < 2; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}

/** The run: every SAMPLE_EVERY steps the allocator's two figures (the first after step 0). */
export async function trainForMemory(aten: Aten, wg: WebGPU, steps: number, sampleEvery = 500, readEvery = 50): Promise<MemorySample[]> {
  const { torch } = aten;
  const { nn } = torch;
  // Start from this run's own buffers: the page's earlier checks leave free buffers in the cache.
  await collect();
  await wg.synchronize();
  wg.empty_cache();
  const BATCHES = [16, 48, 32];
  torch.manual_seed(0);
  const model = new nn.Sequential(new nn.Linear(8, 32), new nn.ReLU(), new nn.Linear(32, 1)).to('webgpu');
  const opt = new torch.optim.SGD(model.parameters(), { lr: 0.01, momentum: 0.9 });
  const data = BATCHES.map((b) => {
    const x = torch.randn([b, 8]);
    return [x.to('webgpu'), x.sum(1, true).mul(0.1).to('webgpu')] as const;
  });
  const samples: MemorySample[] = [];
  for (let step = 0; step < steps; step++) {
    const [x, y] = data[step % BATCHES.length]!;
    opt.zero_grad();
    const d = (model.call(x) as Tensor).sub(y);
    const loss = d.mul(d).mean();
    loss.backward();
    opt.step();
    if (step % readEvery === readEvery - 1) {
      const l = (await loss.item_async()) as number;
      assert(Number.isFinite(l), `step ${step}: loss ${l}`);
    }
    if (step % sampleEvery === 0 || step === steps - 1) {
      await collect();
      await wg.synchronize();
      samples.push({ step, allocated: wg.memory_allocated(), reserved: wg.memory_reserved() });
    }
  }
  return samples;
}

/**
 * Flat. With the collector exposed, allocated is the same at every sample after the first (collected first).
 * Without it, `memory_allocated()` is the live tensors plus those the garbage collector has not yet reported dead, so
 * it saw-tooths with the collector (measured: 29 KiB to 639 KiB for this MLP); what must hold is no upward
 * trend: the second half's peak no higher than `1.25 x` the first half's, every sample under `bound` bytes;
 * `memory_reserved()` grows by at most RESERVED_BOUND over the run.
 */
/**
 * memory_reserved() holds the buffers of the work in flight too (freed, waiting for the GPU to finish): its
 * high-water mark follows how far the host runs ahead of the GPU, not the step count (10,000 steps on
 * SwiftShader: 2.2 MiB at step 500, 5.3 MiB from step 7000 on, bench/RESULTS.md), so it is bounded, not flat.
 */
const RESERVED_BOUND = 16 << 20;

export function checkFlat(samples: readonly MemorySample[], bound: number): string {
  assert(samples.length >= 6, `${samples.length} samples`);
  const kb = (n: number): string => `${(n / 1024).toFixed(1)} KiB`;
  if (gc !== undefined) {
    // Collected before each sample: allocated is the live set, the same at every sample after the first but for
    // the step's own live temporaries (a bucket or so: within 1 KiB).
    const live = samples[1]!.allocated;
    for (const s of samples.slice(2))
      assert(Math.abs(s.allocated - live) <= 1024, `step ${s.step}: ${kb(s.allocated)} allocated, ${kb(live)} at step ${samples[1]!.step}`);
  }
  const half = Math.floor(samples.length / 2);
  const peak = (xs: readonly MemorySample[]): number => Math.max(...xs.map((s) => s.allocated));
  const [first, second] = [peak(samples.slice(1, half)), peak(samples.slice(half))];
  assert(second <= 1.25 * first, `allocated peaks at ${kb(second)} in the second half, ${kb(first)} in the first`);
  assert(Math.max(first, second) <= bound, `allocated peaks at ${kb(Math.max(first, second))} (bound ${kb(bound)})`);
  const third = samples[Math.floor(samples.length / 3)]!;
  const last = samples[samples.length - 1]!;
  // Bounded growth over the run (what the page's earlier checks still hold is the first sample's).
  const most = Math.max(...samples.map((s) => s.reserved)) - samples[0]!.reserved;
  assert(most <= RESERVED_BOUND, `reserved grows by ${kb(most)} over the run (bound ${kb(RESERVED_BOUND)})`);
  return (
    (gc !== undefined ? `allocated ${kb(samples[1]!.allocated)} at every sample after collection; ` : '') +
    `allocated peaks ${kb(first)} (first half) / ${kb(second)} (second half), bound ${kb(bound)}; ` +
    `reserved ${kb(third.reserved)} at step ${third.step} → ${kb(last.reserved)} at step ${last.step}`
  );
}

export async function runMemoryChecks(
  aten: Aten,
  wg: WebGPU,
  check: (name: string, body: () => Promise<string>) => Promise<void>,
  steps: number,
): Promise<void> {
  await check(`memory stays flat over ${steps} training steps with varying batch sizes, without dispose()`, async () => {
    const start = performance.now();
    const samples = await trainForMemory(aten, wg, steps, 100);
    const series = samples.map((s) => `${s.step}:${(s.allocated / 1024).toFixed(0)}/${(s.reserved / 1024).toFixed(0)}`).join(' ');
    console.log(`memory (step:allocated/reserved KiB, ${((performance.now() - start) / steps).toFixed(2)} ms a step): ${series}`);
    try {
      return `${checkFlat(samples, 2 << 20)}; ${series}`;
    } catch (e) {
      throw new Error(`${(e as Error).message}; ${series}`);
    }
  });
}
