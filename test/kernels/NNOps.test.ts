// Neural-network functions against PyTorch 2.13 (torch.nn.functional): values to float tolerance, shapes,
// dtypes, errors; dropout masks for a seed. Fixture: test/golden/nn.json (tools/golden/gen_nn.py).
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import { DispatchKey, DispatchKeySet, dtypeName, parseScalarType } from '../../src/c10/index.js';
import * as N from '../../src/kernels/NNOps.js';
import { loadGolden } from '../golden.js';

type V = number | 'nan' | 'inf' | '-inf';
interface Spec {
  dtype: string;
  sizes: number[];
  values: V[];
}
interface Case {
  fn: string;
  tensors: (Spec | null)[];
  kwargs: { dim?: number; dtype?: string; reduction?: string; label_smoothing?: number; normalized_shape?: number[]; p?: number; seed?: number };
  result?: Spec;
  error?: string;
}
const golden = loadGolden<{ cases: Case[] }>('nn.json');
const ks = DispatchKeySet.fromKey(DispatchKey.CPU);
const num = (v: V): number => (v === 'nan' ? NaN : v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v);
const make = (s: Spec | null): Tensor | null => (s === null ? null : torch.tensor(s.values.map(num), { dtype: s.dtype }).reshape(s.sizes));

function run(c: Case): Tensor {
  const [a, b, w, x] = c.tensors.map(make) as [Tensor, Tensor | null, Tensor | null, Tensor | null];
  const red = N.reductionOf(c.kwargs.reduction ?? 'mean');
  switch (c.fn) {
    case 'softmax':
      return N.softmax(ks, a, c.kwargs.dim!, c.kwargs.dtype === undefined ? null : parseScalarType(c.kwargs.dtype));
    case 'log_softmax':
      return N.logSoftmax(ks, a, c.kwargs.dim!);
    case 'nll_loss':
      return N.nllLoss(ks, a, b!, w ?? null, red);
    case 'cross_entropy':
      return N.crossEntropy(ks, a, b!, w ?? null, red, -100, c.kwargs.label_smoothing ?? 0);
    case 'mse_loss':
      return N.mseLoss(ks, a, b!, red);
    case 'l1_loss':
      return N.l1Loss(ks, a, b!, red);
    case 'binary_cross_entropy':
      return N.binaryCrossEntropy(ks, a, b!, null, red);
    case 'binary_cross_entropy_with_logits':
      return N.binaryCrossEntropyWithLogits(ks, a, b!, w ?? null, x ?? null, red);
    case 'layer_norm':
      return N.layerNorm(ks, a, c.kwargs.normalized_shape!, b ?? null, w ?? null);
    case 'dropout':
      torch.manualSeed(c.kwargs.seed!);
      return N.dropout(ks, a, c.kwargs.p!, true);
    default:
      throw new Error(`unknown fn ${c.fn}`);
  }
}

describe('neural-network functions (PyTorch golden)', () => {
  it.each(golden.cases.map((c, i) => [`${i} ${c.fn} ${JSON.stringify(c.kwargs)}`, c] as const))('%s', (_name, c) => {
    if (c.error !== undefined) {
      expect(() => run(c)).toThrow(c.error);
      return;
    }
    const r = run(c);
    const want = c.result!;
    expect([dtypeName(r.dtype), r.size()]).toEqual([want.dtype, want.sizes]);
    const got = r.reshape(-1).tolist() as number[];
    const tol = want.dtype === 'float64' ? 1e-12 : 2e-6;
    want.values.map(num).forEach((w, i) => {
      if (Number.isNaN(w)) expect(got[i]).toBeNaN();
      else if (!Number.isFinite(w)) expect(got[i]).toBe(w);
      else expect(Math.abs(got[i]! - w)).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(w)));
    });
  });

  it('rejects a bad reduction and dropout probability', () => {
    expect(() => N.reductionOf('avg')).toThrow('avg is not a valid value for reduction');
    expect(() => N.dropout(ks, torch.ones(2), 1.5, true)).toThrow('dropout probability has to be between 0 and 1, but got 1.5');
    const x = torch.ones(2);
    expect(N.dropout(ks, x, 0.5, false)).toBe(x);
  });
});
