// Neural-network functions against PyTorch 2.13 (torch.nn.functional): values to float tolerance, shapes,
// dtypes, errors; dropout masks for a seed. Fixture: test/golden/nn.json (tools/golden/gen_nn.py).
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import { DispatchKey, DispatchKeySet, dtypeName, parseScalarType } from '../../src/c10/index.js';
import * as SoftMaxKernels from '../../src/kernels/SoftMax.js';
import * as LossKernels from '../../src/kernels/Loss.js';
import * as LossNLLKernels from '../../src/kernels/LossNLL.js';
import * as layer_normKernels from '../../src/kernels/layer_norm.js';
import * as DropoutKernels from '../../src/kernels/Dropout.js';

// the neural-network families, under one name for the tests below.
const N = { ...SoftMaxKernels, ...LossKernels, ...LossNLLKernels, ...layer_normKernels, ...DropoutKernels };
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
  kwargs: {
    dim?: number;
    dtype?: string;
    reduction?: string;
    label_smoothing?: number;
    normalized_shape?: number[];
    p?: number;
    seed?: number;
  };
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
    expect([dtypeName(r.scalarType), r.size()]).toEqual([want.dtype, want.sizes]);
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

// layer_norm is CompositeImplicitAutograd in PyTorch 2.13: the output of native_layer_norm, whose mean and rstd
// the backward reads. Expected values from torch.native_layer_norm / torch.nn.functional.layer_norm.
describe('native_layer_norm (what layer_norm decomposes into)', () => {
  const x = torch.tensor(
    [
      [
        [0.5, -1, 2, 0.25],
        [1.5, 3, -2, 1],
      ],
      [
        [1, 2, 3, 4],
        [-1, 0, 1, 2],
      ],
    ],
    { dtype: torch.float64 },
  );

  it('returns the output with mean and rstd shaped [*leading sizes, 1, ...]', () => {
    const [out, mean, rstd] = torch.native_layer_norm(x, [2, 4], null, null, 1e-5);
    expect([out.size(), mean.size(), rstd.size(), dtypeName(mean.scalarType)]).toEqual([[2, 2, 4], [2, 1, 1], [2, 1, 1], 'float64']);
    expect(mean.reshape(-1).tolist()).toEqual([0.65625, 1.5]);
    const r = rstd.reshape(-1).tolist() as number[];
    expect(Math.abs(r[0]! - 0.6645055998697288)).toBeLessThan(1e-14);
    expect(Math.abs(r[1]! - 0.6666651851901234)).toBeLessThan(1e-14);
    expect(torch.layer_norm(x, [2, 4]).tolist()).toEqual(out.tolist());
  });

  it("applies PyTorch's mixed-dtype checks before the shape checks", () => {
    const f32 = torch.zeros(2, 3);
    expect(() => torch.layer_norm(f32, [4], torch.ones(3, { dtype: torch.float64 }))).toThrow(
      'mixed dtype (CPU): expect parameter to have scalar type of Float',
    );
    expect(() => torch.layer_norm(torch.zeros(2, 3, { dtype: torch.float64 }), [3], torch.ones(3))).toThrow(
      'mixed dtype (CPU): all inputs must share same datatype.',
    );
    expect(() => torch.layer_norm(f32, [3], torch.ones(3), torch.ones(3, { dtype: torch.float64 }))).toThrow(
      'expected scalar type Float but found Double',
    );
  });

  it('records NativeLayerNormBackward0, as PyTorch', () => {
    const xr = x.clone().requiresGrad_();
    expect(torch.layer_norm(xr, [4]).gradFn?.name()).toBe('NativeLayerNormBackward0');
    const [, mean, rstd] = torch.native_layer_norm(xr, [4], null, null, 1e-5);
    expect([mean.requiresGrad, rstd.requiresGrad]).toEqual([false, false]);
  });

  it('works on Meta tensors', () => {
    const [out, mean] = torch.native_layer_norm(torch.empty(8, 5, 6, { device: 'meta' }), [6], null, null, 1e-5);
    expect([out.size(), mean.size(), mean.isMeta()]).toEqual([[8, 5, 6], [8, 5, 1], true]);
  });
});
