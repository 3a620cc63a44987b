// AccumulateGrad stores the first gradient without a copy only when nothing else can hold it (Note [Stealing the
// gradient] in src/autograd/GradientUtils.ts): the gradients a built-in backward made are stolen, the user's
// tensors (a root gradient passed through, a hook's result) are copied, and values are PyTorch's either way.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { torch } from '../../src/api/index.js';
import { stealableGrads } from '../../src/autograd/function.js';
import { accumulateInto, obeysLayoutContract } from '../../src/autograd/GradientUtils.js';
import type { Tensor } from '../../src/tensor/Tensor.js';

const values = (t: Tensor | null): number[] => (t === null ? [] : (t.flatten().tolist() as number[]));

afterEach(() => vi.restoreAllMocks());

describe('AccumulateGrad without a copy (Note [Stealing the gradient])', () => {
  it("stores a matmul's and a broadcast add's gradients as made, with PyTorch's values", () => {
    const add = vi.spyOn(stealableGrads, 'add');
    const x = torch.arange(6).reshape(2, 3).mul(0.5);
    const w = torch.arange(12).reshape(3, 4).mul(0.25).requiresGrad_();
    const b = torch.zeros(4).requiresGrad_();
    x.matmul(w).add(b).relu().sum().backward();
    const marked = add.mock.calls.map(([t]) => t.storage);
    expect(marked).toContain(w.grad?.storage);
    expect(marked).toContain(b.grad?.storage);
    // x^T @ ones(2, 4), and the column sums of ones(2, 4)
    expect(values(w.grad)).toEqual([1.5, 1.5, 1.5, 1.5, 2.5, 2.5, 2.5, 2.5, 3.5, 3.5, 3.5, 3.5]);
    expect(values(b.grad)).toEqual([2, 2, 2, 2]);
    // A second pass adds into the stolen .grad in place.
    x.matmul(w).add(b).relu().sum().backward();
    expect(values(b.grad)).toEqual([4, 4, 4, 4]);
  });

  it("copies the user's root gradient when a node passes it through (add's self: grad)", () => {
    const x = torch.zeros(3).requiresGrad_();
    const g = torch.ones(3);
    x.add(1).backward(g);
    expect(x.grad?.storage).not.toBe(g.storage);
    g.mul_(0);
    expect(values(x.grad)).toEqual([1, 1, 1]);
  });

  it('copies a gradient a hook returned (the user may keep it)', () => {
    const x = torch.zeros(3).requiresGrad_();
    const kept = torch.full([3], 5);
    x.registerHook(() => kept);
    x.mul(2).sum().backward();
    expect(x.grad?.storage).not.toBe(kept.storage);
    kept.mul_(0);
    expect(values(x.grad)).toEqual([5, 5, 5]);
  });

  it('copies under create_graph (grad mode on), and one tensor sent on two edges', () => {
    const x = torch.ones(2).requiresGrad_();
    const y = torch.ones(2).requiresGrad_();
    x.add(y).sum().backward(); // AddBackward hands the same gradient to x and y
    expect(x.grad?.storage).not.toBe(y.grad?.storage);
    x.grad?.mul_(3);
    expect(values(y.grad)).toEqual([1, 1]);
    const z = torch.ones(2).requiresGrad_();
    z.mul(z).sum().backward(null, { createGraph: true });
    expect(values(z.grad)).toEqual([2, 2]);
    expect(z.grad?.requiresGrad).toBe(true);
  });

  it('accumulateInto steals only a stealable gradient obeying the layout contract', () => {
    const v = torch.zeros(2, 3);
    const g = torch.ones(2, 3);
    expect(accumulateInto(null, g, false, v, true).storage).toBe(g.storage);
    expect(accumulateInto(null, g, false, v, false).storage).not.toBe(g.storage);
    expect(accumulateInto(null, g, true, v, true).storage).not.toBe(g.storage);
    const gt = torch.ones(3, 2).t(); // a transposed gradient for a contiguous variable
    expect(obeysLayoutContract(gt, v)).toBe(false);
    expect(accumulateInto(null, gt, false, v, true).storage).not.toBe(gt.storage);
    expect(obeysLayoutContract(torch.ones(1, 3), torch.zeros(3, 1).t())).toBe(true); // size-1 dims: any stride
  });
});
