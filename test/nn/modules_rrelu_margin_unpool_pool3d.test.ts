// RReLU, the margin losses (MultiMarginLoss, MultiLabelMarginLoss), MaxUnpool1d/2d/3d and the 3-d pools (MaxPool3d,
// AvgPool3d, AdaptiveMaxPool3d) against PyTorch 2.13: repr, forward and float64 input gradients for a
// given output gradient (RReLU's training draws for the same seed). Fixture: test/golden/nn_modules_rrelu_margin_unpool_pool3d.json
// (tools/golden/gen_nn_modules_rrelu_margin_unpool_pool3d.py).
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import * as nn from '../../src/nn/index.js';
import { loadGolden } from '../golden.js';

type V = number | 'nan' | 'inf' | '-inf';
interface Spec {
  sizes: number[];
  dtype: 'float64' | 'int64';
  values: V[];
}
interface Case {
  name: string;
  mode: 'train' | 'eval';
  repr: string;
  inputs: Spec[];
  output: Spec;
  grad_output: Spec;
  input_grads: (Spec | null)[];
}
const G = loadGolden<{ cases: Case[] }>('nn_modules_rrelu_margin_unpool_pool3d.json');

const num = (v: V): number => (v === 'nan' ? NaN : v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v);
const fromSpec = (s: Spec): Tensor => torch.tensor(s.values.map(num), { dtype: s.dtype }).reshape(s.sizes);
function expectClose(got: Tensor | null, want: Spec, what: string): void {
  expect(got, what).not.toBe(null);
  const g = got as Tensor;
  expect(g.shape, what).toEqual(want.sizes);
  expect(g.contiguous().flatten().tolist() as number[], what).toBeAllclose(want.values.map(num), { rtol: 1e-10, atol: 1e-12 });
}

const CASES: Record<string, () => nn.Module> = {
  'RReLU()': () => new nn.RReLU(),
  'RReLU(0.1, 0.3) eval': () => new nn.RReLU(0.1, 0.3),
  'MultiMarginLoss()': () => new nn.MultiMarginLoss(),
  "MultiMarginLoss(p=2, margin=0.5, weight, reduction='none')": () =>
    new nn.MultiMarginLoss({ p: 2, margin: 0.5, weight: torch.tensor([1.0, 2.0, 0.5, 1.5], { dtype: 'float64' }), reduction: 'none' }),
  'MultiLabelMarginLoss()': () => new nn.MultiLabelMarginLoss(),
  'MaxUnpool1d(2)': () => new nn.MaxUnpool1d(2),
  'MaxUnpool2d(2, stride=2)': () => new nn.MaxUnpool2d(2, { stride: 2 }),
  'MaxUnpool3d(2)': () => new nn.MaxUnpool3d(2),
  'MaxPool3d(2, stride=1, padding=1)': () => new nn.MaxPool3d(2, { stride: 1, padding: 1 }),
  'AvgPool3d((2, 1, 2), count_include_pad=False)': () => new nn.AvgPool3d([2, 1, 2], { padding: [1, 0, 1], count_include_pad: false }),
  'AdaptiveMaxPool3d((2, 1, 3))': () => new nn.AdaptiveMaxPool3d([2, 1, 3]),
};

describe('RReLU, margin losses, unpooling and 3-d pooling modules against PyTorch', () => {
  it('covers every case of the fixture', () => {
    expect(Object.keys(CASES).sort()).toEqual(G.cases.map((c) => c.name).sort());
  });
  for (const c of G.cases) {
    it(`${c.name} (${c.mode})`, () => {
      torch.manualSeed(0);
      const m = (CASES[c.name] as () => nn.Module)();
      m.train(c.mode === 'train');
      expect(m.toString()).toBe(c.repr);
      const xs = c.inputs.map((s) => (s.dtype === 'float64' ? fromSpec(s).requiresGrad_(true) : fromSpec(s)));
      torch.manualSeed(1);
      const out = (m as unknown as { call(...a: Tensor[]): Tensor }).call(...xs);
      expectClose(out, c.output, 'output');
      out.backward(fromSpec(c.grad_output));
      c.input_grads.forEach((w, i) => {
        if (w !== null) expectClose((xs[i] as Tensor).grad, w, `input grad ${i}`);
      });
    });
  }

  it('rejects what PyTorch rejects', () => {
    expect(() => new nn.MultiMarginLoss({ p: 3 })).toThrow('only p == 1 and p == 2 supported');
    expect(() => nn.functional.rrelu(torch.zeros([2]), { lower: 0.5, upper: 0.1 })).toThrow(
      'Lower bound should be less than or equal to the upper bound',
    );
    expect(() => nn.functional.max_unpool2d(torch.zeros([1, 1, 2, 2]), torch.zeros([1, 1, 2, 2], { dtype: 'int64' }).add(20), 2)).toThrow(
      'Found an invalid max index: 20 (output volumes are of size 4x4',
    );
  });
});
