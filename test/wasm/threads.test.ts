// Worker threads over the shared linear memory (src/wasm/runtime/ParallelNative.ts, Note [Worker threads over linear
// memory]): kernels run on the workers, results do not depend on the thread count, set_num_threads checks its
// argument as PyTorch does, and a Node process with a pool exits by itself.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { torch } from '../../src/api/index.js';
import { gemmSettings } from '../../src/kernels/BlasKernel.js';
import { scaled_dot_product_attention } from '../../src/nn/functional.js';
import type { Tensor } from '../../src/tensor/Tensor.js';
import { getKernelBackend, getNumThreads, parallelInfo, parallelSettings, setNumThreads, wasmRuntime } from '../../src/wasm/index.js';
import { wakeWorkers } from '../../src/wasm/runtime/ParallelNative.js';
import { guidedRange, runKernelCalls } from '../../src/wasm/kernels/vec.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const threaded = getKernelBackend() === 'wasm' && wasmRuntime().memory.shared;

const bits = (t: Tensor): number[] => {
  const c = t.contiguous();
  const { data, base } = c.dataView();
  return t.dtype === torch.float32
    ? [...new Uint32Array(data.buffer, data.byteOffset + base * 4, c.numel())]
    : [...new Float64Array(data.buffer, data.byteOffset + base * 8, c.numel())];
};

/**
 * `f()` on 1 thread and on 2, with a grain of 32768 (ATen's; the suite may lower it to split small tensors) and
 * every product split (Note [Small products on one thread]).
 */
function onOneAndTwo(f: () => Tensor): [number[], number[], number] {
  const [threads, grain, minSplit] = [getNumThreads(), parallelSettings.grain, gemmSettings.minSplitMacs];
  parallelSettings.grain = 32768;
  gemmSettings.minSplitMacs = 0;
  try {
    setNumThreads(1);
    const one = bits(f());
    setNumThreads(2);
    const jobs = parallelInfo().jobsOnWorkers;
    const two = bits(f());
    return [one, two, parallelInfo().jobsOnWorkers - jobs];
  } finally {
    setNumThreads(threads);
    parallelSettings.grain = grain;
    gemmSettings.minSplitMacs = minSplit;
  }
}

describe('torch.setNumThreads / getNumThreads', () => {
  it("takes a positive integer, with PyTorch's message otherwise", () => {
    const before = getNumThreads();
    for (const bad of [0, -1, 1.5, Number.NaN])
      expect(() => torch.setNumThreads(bad)).toThrow('set_num_threads expects a positive integer');
    expect(getNumThreads()).toBe(before); // unchanged by the bad calls
    torch.setNumThreads(3);
    expect(torch.getNumThreads()).toBe(3);
    torch.setNumThreads(before);
  });
});

describe('the guided pointwise split (Note [Guided pointwise split])', () => {
  it('covers [0, n) with calls starting at multiples of 16, shrinking, none below the minimum but the whole', () => {
    for (const [n, threads] of [
      [10_000_000, 2],
      [1_000_000, 2],
      [300_000, 2],
      [262_144, 2],
      [1_000_003, 3],
      [10_000_000, 4],
    ] as const) {
      const cuts = guidedRange(n, threads, 65536, 16);
      const lengths = cuts.slice(1).map((c, i) => c - (cuts[i] as number));
      expect(cuts[0]).toBe(0);
      expect(cuts.at(-1)).toBe(n);
      for (const c of cuts.slice(0, -1)) expect(c % 16).toBe(0);
      for (const l of lengths) expect(l).toBeGreaterThanOrEqual(65536);
      for (let i = 1; i + 1 < lengths.length; i++) expect(lengths[i]).toBeLessThanOrEqual(lengths[i - 1] as number);
      expect(lengths.length).toBeGreaterThanOrEqual(Math.min(threads, Math.floor(n / 65536)));
    }
    expect(guidedRange(10_000_000, 2, 65536, 16).length - 1).toBe(16); // more calls than threads: room to balance
    expect(guidedRange(100_000, 2, 65536, 16)).toEqual([0, 100_000]); // below two minimum calls: one call
  });
});

// Worker threads share the wasm backend's memory: none on the JS backend or with ATEN_TS_THREADS=1 (stress mode).
describe.runIf(threaded)('kernels on worker threads (wasm backend with shared memory, ATEN_TS_THREADS >= 2)', () => {
  it('has its workers ready soon after start-up', async () => {
    for (let waited = 0; parallelInfo().readyWorkers === 0 && waited < 20_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    expect(parallelInfo().readyWorkers).toBeGreaterThanOrEqual(1);
  });

  it('parks an idle worker, and wakeWorkers wakes it without a job (Note [Waking a worker early])', async () => {
    const idle = async (): Promise<void> => {
      for (let waited = 0; parallelInfo().parkedWorkers === 0 && waited < 20_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    };
    await idle();
    expect(parallelInfo().parkedWorkers).toBeGreaterThanOrEqual(1);
    const [jobs, wakeUps] = [parallelInfo().jobsOnWorkers, parallelInfo().wakeUps];
    wakeWorkers(2);
    const deadline = Date.now() + 10_000;
    while (parallelInfo().wakeUps === wakeUps && Date.now() < deadline) {
      // the woken worker counts its wake-up within microseconds (milliseconds on a loaded machine)
    }
    expect(parallelInfo().wakeUps).toBeGreaterThan(wakeUps);
    expect(parallelInfo().jobsOnWorkers).toBe(jobs);
    await idle(); // and it parks again after its spin
    expect(parallelInfo().parkedWorkers).toBeGreaterThanOrEqual(1);
  });

  it('runs more calls than threads, each once, the workers claiming some (Note [Claiming calls])', () => {
    const n = 1 << 18;
    const x = torch.arange(n).mul(0.25);
    const y = torch.arange(n).mul(-0.5).exp();
    const out = torch.empty(n);
    const [px, py, po] = [x, y, out].map((t) => t.dataView().data.byteOffset) as [number, number, number];
    const calls = Array.from({ length: 64 }, (_, i) => [n / 64, px + (i * n) / 16, py + (i * n) / 16, po + (i * n) / 16]);
    const expected = new Uint32Array(bits(torch.add(x, y)));
    const before = parallelInfo().callsOnWorkers;
    let claimed = 0;
    for (let r = 0; r < 200 && claimed === 0; r++) {
      out.fill_(7);
      runKernelCalls('f32_vadd', calls, 2);
      claimed = parallelInfo().callsOnWorkers - before;
      const got = new Uint32Array(bits(out));
      let differing = 0;
      for (let i = 0; i < n; i++) if (got[i] !== expected[i]) differing++;
      expect(differing).toBe(0);
    }
    expect(claimed).toBeGreaterThan(0); // the worker took part at least once in 200 regions of 64 calls
  });

  it('reports a trapping call, and the pool runs the next region', () => {
    const n = 1 << 16;
    const x = torch.arange(n, { dtype: torch.float32 });
    const out = torch.empty(n);
    const [px, po] = [x, out].map((t) => t.dataView().data.byteOffset) as [number, number];
    const good = (i: number): number[] => [n / 8, px + (i * n) / 2, px + (i * n) / 2, po + (i * n) / 2];
    const bad = [n / 8, 0xfffffff0, px, po]; // reads past the end of linear memory: a trap wherever it runs
    for (let r = 0; r < 4; r++) expect(() => runKernelCalls('f32_vadd', [good(0), bad, good(2), good(3), bad, good(5)], 2)).toThrow();
    out.zero_();
    runKernelCalls(
      'f32_vadd',
      Array.from({ length: 8 }, (_, i) => good(i)),
      2,
    );
    expect(bits(out)).toEqual(bits(torch.add(x, x)));
  });

  const cases: [string, () => Tensor][] = [
    [
      'matmul float32 300×200 @ 200×500 (column blocks)',
      () => torch.matmul(torch.ones(300, 200).mul(0.3).sin(), torch.ones(200, 500).mul(0.7).cos()),
    ],
    [
      'matmul float32 100×300 @ (530×300)ᵀ (column blocks of a transposed B: two NC blocks, two k-slices)',
      () =>
        torch.matmul(torch.arange(30000).reshape(100, 300).mul(0.01).sin(), torch.arange(159000).reshape(530, 300).mul(0.003).cos().t()),
    ],
    [
      "matmul float32 64×784 @ 784×128 (the MLP step's product: column blocks, four k-slices)",
      () => torch.matmul(torch.arange(50176).reshape(64, 784).mul(0.01).sin(), torch.arange(100352).reshape(784, 128).mul(0.003).cos()),
    ],
    [
      'matmul float32 600×200 @ 200×40 (row blocks)',
      () => torch.matmul(torch.arange(120000).reshape(600, 200).mul(0.01).sin(), torch.ones(200, 40)),
    ],
    [
      'matmul float64, a transposed operand',
      () =>
        torch.matmul(
          torch.arange(80000, { dtype: torch.float64 }).reshape(200, 400).mul(0.001).cos().t(),
          torch.ones(200, 300, { dtype: torch.float64 }),
        ),
    ],
    [
      'bmm float32',
      () =>
        torch.bmm(
          torch
            .arange(2 * 200 * 150)
            .reshape(2, 200, 150)
            .mul(0.01)
            .sin(),
          torch.ones(2, 150, 220),
        ),
    ],
    ['add float32, 1e6 elements', () => torch.add(torch.arange(1_000_000).mul(0.5), torch.arange(1_000_000).sin())],
    ['mul by a scalar, float64, 1e6 elements', () => torch.mul(torch.arange(1_000_000, { dtype: torch.float64 }).sin(), 3.5)],
    ['exp float32, 1e6 elements', () => torch.exp(torch.arange(1_000_000).mul(1e-5))],
    ['softmax float32 400×300, dim 1', () => torch.softmax(torch.arange(120000).reshape(400, 300).mul(0.01).sin(), 1)],
    ['sum float32, 1e6 elements (chunks of 65536)', () => torch.sum(torch.arange(1_000_000).mul(1e-3).sin())],
    ['mean float64, 1e6 elements', () => torch.mean(torch.arange(1_000_000, { dtype: torch.float64 }).mul(1e-3).cos())],
    [
      'relu backward float32, 1e6 elements',
      () => {
        const x = torch.arange(1_000_000).mul(1e-5).sin().requiresGrad_();
        return torch.autograd.grad(x.relu().mul(torch.arange(1_000_000).cos()).sum(), [x])[0] as Tensor;
      },
    ],
    [
      'conv2d float32 [8, 3, 32, 32] * [16, 3, 3, 3], padding 1 (direct kernel): output, input and weight gradients',
      () => {
        const x = torch
          .arange(8 * 3 * 32 * 32)
          .reshape(8, 3, 32, 32)
          .mul(0.01)
          .sin()
          .requiresGrad_();
        const w = torch
          .arange(16 * 27)
          .reshape(16, 3, 3, 3)
          .mul(0.1)
          .cos()
          .requiresGrad_();
        const y = torch.conv2d(x, w, null, 1, 1);
        const [gx, gw] = torch.autograd.grad(y.mul(y).sum(), [x, w]) as [Tensor, Tensor];
        return torch.cat([y.detach().flatten(), gx.flatten(), gw.flatten()]);
      },
    ],
    [
      'max_pool2d and avg_pool2d float32 [32, 16, 24, 24], 2×2 (vectorised), forward and backward',
      () => {
        const x = torch
          .arange(32 * 16 * 576)
          .reshape(32, 16, 24, 24)
          .mul(0.37)
          .sin()
          .requiresGrad_();
        const y = torch.max_pool2d(x, 2).add(torch.avg_pool2d(x, 2));
        const [gx] = torch.autograd.grad(y.mul(y).sum(), [x]) as [Tensor];
        return torch.cat([y.detach().flatten(), gx.flatten()]);
      },
    ],
    [
      'batch_norm float32 [8, 16, 24, 24], evaluation and training (statistics per channel, affine per plane)',
      () => {
        const x = torch
          .arange(8 * 16 * 576)
          .reshape(8, 16, 24, 24)
          .mul(0.37)
          .sin();
        const [w, b] = [torch.arange(16).mul(0.3).cos(), torch.arange(16).mul(0.2).sin()];
        const [rm, rv] = [torch.arange(16).mul(0.1).sin(), torch.arange(16).mul(0.1).add(0.5)];
        const evalOut = torch.batch_norm(x, w, b, rm, rv, false, 0.1, 1e-5, false);
        const trainOut = torch.batch_norm(x, w, b, rm, rv, true, 0.1, 1e-5, false);
        return torch.cat([evalOut.flatten(), trainOut.flatten(), rm, rv]);
      },
    ],
    [
      'flash attention float32 [4, 4, 64, 32], causal (scaled_dot_product_attention): output and q, k, v gradients',
      () => {
        const mk = (seed: number): Tensor =>
          torch
            .arange(4 * 4 * 64 * 32)
            .reshape(4, 4, 64, 32)
            .mul(0.013 * seed)
            .sin()
            .requiresGrad_();
        const [q, k, v] = [mk(1), mk(2), mk(3)];
        const y = scaled_dot_product_attention(q, k, v, { is_causal: true });
        const grads = torch.autograd.grad(y.mul(y).sum(), [q, k, v]) as Tensor[];
        return torch.cat([y.detach().flatten(), ...grads.map((g) => g.flatten())]);
      },
    ],
  ];
  for (const [name, f] of cases) {
    it(`${name}: the same bits on 1 and 2 threads, the second thread doing part`, () => {
      const [one, two, jobs] = onOneAndTwo(f);
      expect(two).toEqual(one);
      expect(jobs).toBeGreaterThan(0);
    });
  }

  it('mm keeps a product under 8M multiply-adds on one thread and splits a larger one (Note [Small products on one thread])', () => {
    const [threads, grain] = [getNumThreads(), parallelSettings.grain];
    parallelSettings.grain = 32768;
    try {
      setNumThreads(2);
      const a = torch
        .arange(64 * 784)
        .reshape(64, 784)
        .mul(0.01)
        .sin();
      const [small, large] = [torch.ones(784, 128), torch.ones(784, 512)];
      torch.mm(a, large); // the worker is up
      let jobs = parallelInfo().jobsOnWorkers;
      torch.mm(a, small); // 6.4M
      expect(parallelInfo().jobsOnWorkers - jobs).toBe(0);
      jobs = parallelInfo().jobsOnWorkers;
      torch.mm(a, large); // 25.7M
      expect(parallelInfo().jobsOnWorkers - jobs).toBeGreaterThan(0);
    } finally {
      setNumThreads(threads);
      parallelSettings.grain = grain;
    }
  });
});

describe.runIf(getKernelBackend() === 'wasm')('a Node process with worker threads (wasm backend: the JS backend starts none)', () => {
  it('exits by itself when its work is done (the workers are unref’d)', () => {
    const script = `
      import { torch, parallelInfo } from './src/node.ts';
      torch.setNumThreads(2);
      const a = torch.ones(512, 512);
      for (let i = 0; parallelInfo().readyWorkers === 0 && i < 400; i++) await new Promise((r) => setTimeout(r, 25));
      const c = torch.matmul(a, a);
      const info = parallelInfo();
      console.log(JSON.stringify({ value: c.sum().item(), jobs: info.jobsOnWorkers, workers: info.workers }));
    `;
    const started = Date.now();
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.error).toBeUndefined(); // no timeout: the process ended on its own
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout.trim().split('\n').pop() as string) as { value: number; jobs: number; workers: number };
    expect(out.value).toBe(512 * 512 * 512);
    expect(out.workers).toBeGreaterThanOrEqual(1);
    expect(out.jobs).toBeGreaterThan(0);
    expect(Date.now() - started).toBeLessThan(60_000);
  });
});
