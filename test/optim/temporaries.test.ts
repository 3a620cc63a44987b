// An optimiser step frees its intermediates as soon as the update has used them (Note [Optimizer temporaries
// freed at once] in src/optim/_functional.ts): a steady-state step leaves no parameter-sized garbage behind, and
// the parameters' values are unchanged by the frees (read after further allocations reuse the blocks).
import { describe, expect, it } from 'vitest';
import { cpuMemoryStats, getKernelBackend, torch } from '../../src/index.js';
import { freeTemp } from '../../src/optim/_functional.js';

const live = (): number => cpuMemoryStats()?.allocatedBytes ?? 0;

describe('optimizer temporaries', () => {
  it.runIf(getKernelBackend() === 'wasm')('an Adam step after the first allocates nothing that outlives it', () => {
    const p = torch.ones(1000).requiresGrad_(true);
    const opt = new torch.optim.Adam([p], { lr: 0.1 });
    p.grad = torch.full([1000], 0.5);
    opt.step(); // creates the state
    const before = live();
    opt.step();
    expect(live()).toBe(before);
    // Two Adam steps with a constant gradient move every element by lr·(1 + 1) (bias-corrected m/√v = 1).
    for (let i = 0; i < 20; i++) torch.full([1000], 99).mul(2);
    const v = p.detach().reshape([-1]).tolist() as number[];
    for (const x of v) expect(x).toBeCloseTo(0.8, 5);
  });

  it('freeTemp frees only with grad mode off (a differentiable step records a graph over its intermediates)', () => {
    const t = torch.ones(300).mul(3);
    torch.enableGrad(() => freeTemp(t));
    expect(t.sum().item()).toBe(900);
    torch.noGrad(() => freeTemp(t));
    expect(() => t.sum()).toThrow(/freed/);
  });
});
