// Activation, dropout, normalization and distance modules (Softmin ... Hardshrink, Dropout2d/3d, AlphaDropout,
// FeatureAlphaDropout, RMSNorm, LocalResponseNorm, PairwiseDistance, CosineSimilarity,
// TripletMarginWithDistanceLoss) against PyTorch 2.13: repr, parameter names, forward and
// backward (float64) for a given output gradient, training-mode dropout masks for the same seed. Fixture:
// test/golden/nn_modules_activation_dropout_norm_distance.json (tools/golden/gen_nn_modules_activation_dropout_norm_distance.py).
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import * as nn from '../../src/nn/index.js';
import { loadGolden } from '../golden.js';

type V = number | 'nan' | 'inf' | '-inf';
interface Spec {
  sizes: number[];
  values: V[];
}
interface Case {
  name: string;
  mode: 'train' | 'eval';
  repr: string;
  parameters: string[];
  inputs: Spec[];
  output: Spec;
  grad_output: Spec;
  input_grads: Spec[];
  param_grads: [string, Spec][];
}
const G = loadGolden<{ cases: Case[] }>('nn_modules_activation_dropout_norm_distance.json');

const num = (v: V): number => (v === 'nan' ? NaN : v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v);
const fromSpec = (s: Spec): Tensor => torch.tensor(s.values.map(num), { dtype: 'float64' }).reshape(s.sizes);
function expectClose(got: Tensor | null, want: Spec, what: string): void {
  expect(got, what).not.toBe(null);
  const g = got as Tensor;
  expect(g.shape, what).toEqual(want.sizes);
  expect(g.contiguous().flatten().tolist() as number[], what).toBeAllclose(want.values.map(num), { rtol: 1e-10, atol: 1e-12 });
}

const CASES: Record<string, () => nn.Module> = {
  'Softmin(dim=1)': () => new nn.Softmin({ dim: 1 }),
  'LogSigmoid()': () => new nn.LogSigmoid(),
  'Softsign()': () => new nn.Softsign(),
  'Tanhshrink()': () => new nn.Tanhshrink(),
  'Threshold(0.1, 20)': () => new nn.Threshold(0.1, 20),
  'Softshrink()': () => new nn.Softshrink(),
  'Hardshrink(0.3)': () => new nn.Hardshrink(0.3),
  'Dropout2d()': () => new nn.Dropout2d(),
  'Dropout2d(0.3) eval': () => new nn.Dropout2d(0.3),
  'Dropout3d(0.25)': () => new nn.Dropout3d(0.25),
  'Dropout3d() unbatched': () => new nn.Dropout3d(),
  'AlphaDropout(0.2)': () => new nn.AlphaDropout(0.2),
  'FeatureAlphaDropout(0.4)': () => new nn.FeatureAlphaDropout(0.4),
  'RMSNorm(4)': () => new nn.RMSNorm(4),
  'RMSNorm([3, 4], eps=1e-3, elementwise_affine=False)': () => new nn.RMSNorm([3, 4], { eps: 1e-3, elementwise_affine: false }),
  'LocalResponseNorm(2)': () => new nn.LocalResponseNorm(2),
  'LocalResponseNorm(3, alpha=0.01, beta=0.5, k=2.0) 5d': () => new nn.LocalResponseNorm(3, { alpha: 0.01, beta: 0.5, k: 2.0 }),
  'PairwiseDistance()': () => new nn.PairwiseDistance(),
  'CosineSimilarity(dim=0)': () => new nn.CosineSimilarity({ dim: 0 }),
  'TripletMarginWithDistanceLoss()': () => new nn.TripletMarginWithDistanceLoss(),
  "TripletMarginWithDistanceLoss(margin=2.0, swap=True, reduction='none')": () =>
    new nn.TripletMarginWithDistanceLoss({ margin: 2.0, swap: true, reduction: 'none' }),
};

describe('activation, dropout, norm and distance modules against PyTorch', () => {
  it('covers every case of the fixture', () => {
    expect(Object.keys(CASES).sort()).toEqual(G.cases.map((c) => c.name).sort());
  });
  for (const c of G.cases) {
    it(`${c.name} (${c.mode})`, () => {
      torch.manualSeed(0);
      const m = (CASES[c.name] as () => nn.Module)();
      m.train(c.mode === 'train');
      expect(m.toString()).toBe(c.repr);
      expect(m.named_parameters().map(([k]) => k)).toEqual(c.parameters);
      const xs = c.inputs.map((s) => fromSpec(s).requiresGrad_(true));
      torch.manualSeed(1);
      const out = (m as unknown as { call(...a: Tensor[]): Tensor }).call(...xs);
      expectClose(out, c.output, 'output');
      out.backward(fromSpec(c.grad_output));
      c.input_grads.forEach((w, i) => expectClose((xs[i] as Tensor).grad, w, `input grad ${i}`));
      const params = new Map(m.named_parameters());
      for (const [k, w] of c.param_grads) expectClose((params.get(k) as nn.Parameter).grad, w, `grad of ${k}`);
    });
  }

  it('rejects what PyTorch rejects', () => {
    expect(() => new nn.Dropout2d(1.5)).toThrow('dropout probability has to be between 0 and 1, but got 1.5');
    expect(() => new nn.TripletMarginWithDistanceLoss({ margin: -1 })).toThrow(
      'TripletMarginWithDistanceLoss: expected margin to be greater than 0, got -1 instead',
    );
    expect(() => nn.functional.local_response_norm(torch.zeros([2, 3]), 2)).toThrow('Expected 3D or higher dimensionality');
  });
});
