// FlopCounterMode against PyTorch 2.13's counts and table for a LeNet-like CNN (forward, forward+backward,
// with and without input gradient) and the matmul/convolution family. Fixture: test/golden/modes.json
// (tools/golden/gen_modes.py).
import { describe, expect, it } from 'vitest';
import { torch } from '../../src/api/index.js';
import * as nn from '../../src/nn/index.js';
import { FlopCounterMode } from '../../src/modes/flop_counter.js';
import { loadGolden } from '../golden.js';
import { LeNet } from './lenet.js';

interface Counts {
  [mod: string]: Record<string, number>;
}
const G = loadGolden<{
  lenet: {
    name: string;
    batch: number;
    backward: boolean;
    input_requires_grad: boolean;
    total: number;
    counts: Counts;
    table: string;
    table_depth1: string;
  }[];
  ops: { name: string; total: number; counts: Counts }[];
}>('modes.json');
const F = nn.functional;

describe('FlopCounterMode on a LeNet-like CNN equals PyTorch', () => {
  for (const c of G.lenet) {
    it(c.name, () => {
      torch.manualSeed(0);
      const model = new LeNet();
      const x = torch.randn([c.batch, 1, 28, 28], { requires_grad: c.input_requires_grad });
      const counter = new FlopCounterMode({ display: false });
      counter.run(() => {
        const out = model.call(x);
        if (c.backward) out.sum().backward();
      });
      expect(counter.get_total_flops()).toBe(c.total);
      expect(counter.get_flop_counts()).toEqual(c.counts);
      expect(counter.get_table()).toBe(c.table);
      expect(counter.get_table(1)).toBe(c.table_depth1);
      // The mode is off again: no counting outside.
      model.call(x);
      expect(counter.get_total_flops()).toBe(c.total);
    });
  }
});

describe('FlopCounterMode formulas equal PyTorch', () => {
  torch.manualSeed(0);
  const [a, b] = [torch.randn([3, 4]), torch.randn([4, 5])];
  const [ba, bb] = [torch.randn([2, 3, 4]), torch.randn([2, 4, 5])];
  const [c, bc] = [torch.randn([3, 5]), torch.randn([2, 3, 5])];
  const [w, bias, x3] = [torch.randn([5, 4]), torch.randn([5]), torch.randn([2, 3, 4])];
  const cases: Record<string, () => unknown> = {
    mm: () => torch.mm(a, b),
    addmm: () => torch.addmm(c, a, b),
    bmm: () => torch.bmm(ba, bb),
    baddbmm: () => torch.baddbmm(bc, ba, bb),
    'matmul 2d@2d': () => torch.matmul(a, b),
    'matmul 3d@2d': () => torch.matmul(ba, b),
    'matmul 3d@3d': () => torch.matmul(ba, bb),
    'linear 2d': () => F.linear(a, w, bias),
    'linear 3d': () => F.linear(x3, w, bias),
    'conv2d stride 2 padding 1': () => F.conv2d(torch.ones([1, 2, 7, 7]), torch.ones([4, 2, 3, 3]), null, 2, 1),
    'convolution transposed': () =>
      torch.convolution(torch.ones([1, 2, 4, 4]), torch.ones([2, 3, 3, 3]), null, [2, 2], [0, 0], [1, 1], true, [0, 0], 1),
  };
  for (const g of G.ops) {
    it(g.name, () => {
      const fn = cases[g.name];
      expect(fn, `no case for ${g.name}`).toBeDefined();
      const counter = new FlopCounterMode({ display: false });
      counter.run(fn!);
      expect(counter.get_flop_counts()).toEqual(g.counts);
      expect(counter.get_total_flops()).toBe(g.total);
    });
  }
});

describe('FlopCounterMode', () => {
  it('an empty count prints the Global row; display prints the table on exit', () => {
    const counter = new FlopCounterMode({ display: false });
    counter.run(() => torch.ones([2]).add(1));
    expect(counter.get_total_flops()).toBe(0);
    expect(counter.get_table()).toBe('Module      FLOP    % Total\n--------  ------  ---------\nGlobal         0         0%');
  });

  it('custom_mapping adds formulas; unknown options are errors', () => {
    const counter = new FlopCounterMode({ display: false, custom_mapping: { 'aten.add': (args) => 7 * (args[0] as number[])[0]! } });
    counter.run(() => torch.ones([3]).add(torch.ones([3])));
    expect(counter.get_flop_counts()).toEqual({ Global: { 'aten.add': 21 } });
    expect(() => new FlopCounterMode({ dispaly: false } as never)).toThrow(
      "FlopCounterMode() got an unexpected keyword argument 'dispaly'",
    );
  });
});
