// Behaviour of the generated Autograd and ADInplaceOrView kernels that the golden suites do not pin down:
// PyTorch's NotImplemented node for operators without a formula, conv2d's closed set of backward operators
// (gradients of any order), and version counters of fresh tensors.
import { describe, expect, it } from 'vitest';
import { torch } from '../../src/index.js';

describe('operators without a derivative formula', () => {
  it("record a NotImplemented node, so the forward works and the backward raises PyTorch's text", () => {
    const o = torch.tensor([1.5, 2.5], { requiresGrad: true });
    const r = torch.remainder(5.0, o);
    expect(r.gradFn?.name()).toBe('torch::autograd::NotImplemented');
    expect(r.tolist()).toEqual([0.5, 0]);
    expect(() => r.sum().backward()).toThrow('derivative for aten::remainder is not implemented');
  });

  it('record nothing when the output cannot carry a gradient (bool, integer)', () => {
    const x = torch.tensor([1.5, -2], { requiresGrad: true });
    expect(x.gt(0).gradFn).toBe(null);
    expect(x.argmax().requiresGrad).toBe(false);
  });
});

describe('conv2d backward operators', () => {
  it('are differentiable again: gradgradcheck with stride, padding, dilation and groups', () => {
    const x = torch.randn([1, 2, 5, 5], { dtype: torch.float64 }).requiresGrad_();
    const w = torch.randn([4, 1, 3, 3], { dtype: torch.float64 }).requiresGrad_();
    expect(torch.autograd.gradgradcheck((a, b) => torch.conv2d(a, b, null, [2, 1], [1, 0], [1, 2], 2), [x, w])).toBe(true);
  });

  it('pooling backward operators are differentiable again (gradgradcheck), as in PyTorch', () => {
    const x = torch.randn([1, 1, 4, 4], { dtype: torch.float64 }).requiresGrad_();
    const [g] = torch.autograd.grad(torch.avg_pool2d(x, [2, 2]).sum(), x, { createGraph: true });
    expect(g?.gradFn?.name()).toBe('AvgPool2DBackwardBackward0');
    expect(torch.autograd.gradgradcheck((a) => torch.avg_pool2d(a, [2, 2], [1, 1], [1, 1], true, false), [x])).toBe(true);
    expect(torch.autograd.gradgradcheck((a) => torch.max_pool2d(a, [2, 2], [1, 1]), [x])).toBe(true);
  });
});

describe('version counters (Note [Fresh tensors start at version 0])', () => {
  it('are 0 for fresh factory results and copies, +1 per in-place call through the dispatcher', () => {
    for (const t of [
      torch.zeros(3),
      torch.ones(3),
      torch.full([2], 1.5),
      torch.rand(3),
      torch.zeros_like(torch.ones(2)),
      torch.ones(2).clone(),
    ]) {
      expect(t._version).toBe(0);
    }
    const x = torch.zeros(3);
    x.add_(1);
    x.index_put_([torch.tensor([0])], torch.tensor([5], { dtype: torch.float32 }));
    x.masked_fill_(torch.tensor([false, true, false]), 2);
    expect(x._version).toBe(3);
    expect(x.tolist()).toEqual([5, 2, 1]);
  });
});
