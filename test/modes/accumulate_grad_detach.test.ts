// aten::detach is an operator (Note [detach is dispatched] in src/tensor/Tensor.ts): a TorchDispatchMode
// logging `(x * y).sum().backward()` sees what PyTorch 2.13's does — AccumulateGrad's `new_grad.detach()` the
// first time, `add_` the second (tools/golden/gen_repr_samplers_prelu_dispatch_log.py -> test/golden/repr_samplers_prelu_dispatch_log.json, dispatch_log).
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import { nn } from '../../src/index.js';
import type { OpOverload } from '../../src/library/index.js';
import { TorchDispatchMode, type DispatchKwargs } from '../../src/modes/index.js';
import { loadGolden } from '../golden.js';

const golden = loadGolden<{
  dispatch_log: Record<'first backward' | 'second backward' | 'linear backward', string[]> & { 'linear weight grad strides': number[] };
}>('repr_samplers_prelu_dispatch_log.json').dispatch_log;

class Logging extends TorchDispatchMode {
  readonly log: string[] = [];
  override dispatch(func: OpOverload, _types: readonly unknown[], args: readonly unknown[], kwargs: DispatchKwargs): unknown {
    this.log.push(String(func));
    return func(...args, kwargs);
  }
}

describe('a dispatch mode sees AccumulateGrad as in PyTorch', () => {
  it('(x * y).sum().backward(), twice', () => {
    const x = torch.randn([3], { requires_grad: true });
    const y = torch.randn(3);
    const first = new Logging();
    first.run(() => x.mul(y).sum().backward());
    expect(first.log).toEqual(golden['first backward']);
    const second = new Logging();
    second.run(() => x.mul(y).sum().backward());
    expect(second.log).toEqual(golden['second backward']);
    expect((x.grad as Tensor).tolist()).toEqual(y.mul(2).tolist());
  });

  it("a linear layer's backward computes the weight's gradient laid out as the weight, kept without a copy", () => {
    const x = torch.randn([4, 5], { requires_grad: true });
    const w = torch.randn([3, 5], { requires_grad: true });
    const b = torch.randn([3], { requires_grad: true });
    const y = nn.functional.linear(x, w, b);
    const m = new Logging();
    m.run(() => y.sum().backward());
    expect(m.log).toEqual(golden['linear backward']);
    expect((w.grad as Tensor).stride()).toEqual(golden['linear weight grad strides']);
  });

  it('x.detach() is aten.detach.default: no history, shared storage and version counter, no base', () => {
    const x = torch.ones([2, 3], { requires_grad: true });
    const m = new Logging();
    const d = m.run(() => x.detach());
    expect(m.log).toEqual(['aten.detach.default']);
    expect(d.requiresGrad).toBe(false);
    expect(d.gradFn).toBe(null);
    expect(d._base ?? null).toBe(null);
    expect(d.shape).toEqual([2, 3]);
    const v = x._version;
    d.add_(1);
    expect(x._version).toBe(v + 1);
    expect((x.detach().tolist() as number[][])[0]).toEqual([2, 2, 2]);
    expect(torch.detach(x).requiresGrad).toBe(false);
  });
});
