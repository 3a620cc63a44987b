// Storage lifetime on the 'wasm' backend (Note [Storage lifetime]): dispose(), torch.scope, the
// FinalizationRegistry, and a training loop that never frees anything staying in bounded memory.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { Tensor, cpuMemoryStats, getKernelBackend, torch } from '../../src/index.js';
import { setWarningHandler } from '../../src/c10/Warning.js';
import { wasmCPUAllocator } from '../../src/wasm/index.js';

const onWasm = getKernelBackend() === 'wasm';
const live = (): number => cpuMemoryStats()?.allocatedBytes ?? 0;

/** One SGD step of a 784-128-10 MLP on a batch of 64 (the soak benchmark's step), returning the loss. */
export function mlpStep(params: Tensor[], x: Tensor, y: Tensor, lr: number): number {
  const [w1, b1, w2, b2] = params as [Tensor, Tensor, Tensor, Tensor];
  const h = torch.relu(torch.linear(x, w1, b1));
  const loss = torch.cross_entropy_loss(torch.linear(h, w2, b2), y);
  loss.backward();
  torch.noGrad(() => {
    for (const p of params) {
      p.sub_(p.grad as Tensor, { alpha: lr });
      p.grad = null;
    }
  });
  return loss.item() as number;
}

function mlp(): { params: Tensor[]; x: Tensor; y: Tensor } {
  torch.manualSeed(0);
  const params = [torch.randn(128, 784).mul(0.05), torch.zeros(128), torch.randn(10, 128).mul(0.05), torch.zeros(10)];
  for (const p of params) p.requiresGrad_(true);
  return { params, x: torch.randn(64, 784), y: torch.randint(0, 10, [64]) };
}

describe.runIf(onWasm)('storage lifetime (wasm backend)', () => {
  it('dispose() frees at once; reading afterwards says so', () => {
    const before = live();
    const t = torch.ones(1000);
    expect(live()).toBeGreaterThan(before);
    t.dispose();
    expect(live()).toBe(before);
    expect(() => t.sum()).toThrow(/storage was freed \(dispose\(\)\)/);
    t.dispose(); // twice: nothing
  });

  it('torch.scope frees what the function allocated, except its result', () => {
    const x = torch.randn(100, 100);
    const before = live();
    const { kept } = torch.scope(() => {
      const a = x.mul(2);
      const b = a.add(1);
      return { kept: b.sum(), dropped: null };
    });
    expect(live() - before).toBeLessThan(1024); // only the 0-dim result is left
    expect(Number.isFinite(kept.item() as number)).toBe(true);
    // Nested: the inner result belongs to the outer scope, which frees it.
    const beforeOuter = live();
    torch.scope(() => {
      torch.scope(() => x.mul(3));
      return null;
    });
    expect(live()).toBe(beforeOuter);
  });

  it("torch.scope keeps a parameter's accumulated .grad", () => {
    const w = torch.randn(50, 50).requiresGrad_(true);
    torch.scope(() => w.mul(w).sum().backward());
    expect((w.grad as Tensor).sub(w.mul(2)).abs().sum().item()).toBeLessThan(1e-3);
  });

  it('frees what the program drops once the collector and the event loop have run (FinalizationRegistry)', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const before = cpuMemoryStats()?.finalizedFrees ?? 0;
    (() => {
      for (let i = 0; i < 20; i++) torch.ones(4096);
    })();
    for (let i = 0; i < 5 && (cpuMemoryStats()?.finalizedFrees ?? 0) < before + 20; i++) {
      gc();
      await new Promise((r) => setTimeout(r, 10));
    }
    expect((cpuMemoryStats()?.finalizedFrees ?? 0) - before).toBeGreaterThanOrEqual(20);
  });

  it('a synchronous training loop that never frees stays in bounded memory (soft limit, then the JS heap)', () => {
    const allocator = wasmCPUAllocator();
    if (allocator === null) throw new Error('no wasm allocator');
    const softLimit = allocator.softLimitMin;
    allocator.softLimitMin = 4 << 20;
    allocator.setSynchronousReclaimer(null); // as in browsers (test/setup.ts loads the Node entry, which has one)
    const warnings: string[] = [];
    const previous = setWarningHandler((m) => warnings.push(m));
    try {
      const { params, x, y } = mlp();
      const first = mlpStep(params, x, y, 0.1);
      let last = first;
      let peak = 0;
      for (let step = 0; step < 80; step++) {
        last = mlpStep(params, x, y, 0.1);
        peak = Math.max(peak, live());
      }
      expect(last).toBeLessThan(first); // it learns
      // Past the soft limit (4 MiB here) storages go to the JS heap: linear memory stops growing.
      expect(peak).toBeLessThan((4 << 20) + (1 << 20));
      expect(cpuMemoryStats()?.jsHeapFallbacks ?? 0).toBeGreaterThan(0);
      // Said once, with what to do about it.
      expect(warnings.filter((w) => w.includes('WebAssembly memory are held by tensors'))).toHaveLength(1);
      expect(warnings[0]).toMatch(/torch\.scope\(fn\) or t\.dispose\(\)/);
    } finally {
      setWarningHandler(previous);
      allocator.softLimitMin = softLimit;
    }
  });
});

describe('storage lifetime (either backend)', () => {
  it('dispose() and torch.scope work on the JS heap too', () => {
    const t = torch.ones(10);
    t.dispose();
    expect(() => t.add(1)).toThrow(/storage was freed/);
    const r = torch.scope(() => torch.ones(10).add(1));
    expect(r.sum().item()).toBe(20);
  });
});
