// The runnable examples in examples/, executed so that they cannot rot.
import { describe, expect, it } from 'vitest';
import { customOp } from '../examples/custom-op.js';
import { fitALine } from '../examples/fit-a-line.js';
import { profilerExample } from '../examples/profiler.js';
import { torch } from '../src/index.js';

describe('examples/fit-a-line.ts', () => {
  it('learns y = 3x - 2 with autograd and plain gradient descent', () => {
    const r = fitALine();
    expect(r.w).toBeCloseTo(3, 2);
    expect(r.b).toBeCloseTo(-2, 2);
    expect(r.last).toBeLessThan(r.first / 1000);
  });
});

describe('examples/flop-counter.ts', () => {
  it("counts a CNN's FLOPs per module and runs it on fake tensors", async () => {
    const { flopCounterExample } = await import('../examples/flop-counter.js');
    const r = flopCounterExample();
    // conv1: 2*6*24*24*25*2 forward, its weight gradient the same; conv2 and fc forward, weight and input gradients.
    expect(r.perModule['Net.conv1']).toBe(2 * 345600);
    expect(r.perModule['Net.conv2']).toBe(3 * 614400);
    expect(r.perModule['Net.fc']).toBe(3 * 2 * 256 * 10 * 2);
    expect(r.total).toBe(r.perModule['Net']);
    expect(r.table.split('\n')[0]).toMatch(/^Module +FLOP +% Total$/);
    expect(r.fakeShape).toEqual([4096, 10]);
  });
});

describe('examples/custom-op.ts', () => {
  it('defines a custom op with a fake kernel and a backward formula that passes opcheck', () => {
    const r = customOp();
    r.y.forEach((v, i) => expect(v).toBeCloseTo(2 * Math.sin([0, 0.5, 1][i]!), 5));
    r.grad.forEach((v, i) => expect(v).toBeCloseTo(2 * Math.cos([0, 0.5, 1][i]!), 5));
    expect(r.viaOps).toEqual(r.y);
    expect(r.metaShape).toEqual([8, 3]);
    expect(Object.entries(r.opcheck).filter(([, v]) => v !== 'SUCCESS')).toEqual([
      ['test_aot_dispatch_dynamic', torch.library.AOT_NOT_APPLICABLE],
    ]);
  });
});

describe('examples/profiler.ts', () => {
  it("profiles a model's forward with PyTorch's call counts, table header and a Chrome trace", () => {
    const r = profilerExample();
    // PyTorch 2.13 profiles the same Sequential(Linear(8, 16), ReLU(), Linear(16, 2)) as linear 2, addmm 2, relu 1.
    expect(r.calls).toEqual(['aten::addmm: 2', 'aten::linear: 2', 'aten::relu: 1', 'forward: 1']);
    expect(r.header.split(' | ')[0]).toBe('Name');
    expect(r.traceHasForward).toBe(true);
    expect(r.traceEvents).toBeGreaterThan(4);
    expect(r.overheadOps).toEqual(['aten::add']);
  });
});
