// conv2d, max_pool2d and avg_pool2d against PyTorch 2.13 (torch.nn.functional): shapes, values, errors.
// Fixture: test/golden/conv.json (tools/golden/gen_conv.py).
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import { DispatchKey, DispatchKeySet, dtypeName } from '../../src/c10/index.js';
import * as C from '../../src/kernels/Convolution.js';
import { loadGolden } from '../golden.js';

interface Spec {
  dtype: string;
  sizes: number[];
  values: number[];
}
interface Case {
  fn: string;
  tensors: (Spec | null)[];
  kwargs: Record<string, number | number[] | boolean>;
  result?: Spec;
  error?: string;
}
const golden = loadGolden<{ cases: Case[] }>('conv.json');
const ks = DispatchKeySet.fromKey(DispatchKey.CPU);
const make = (s: Spec | null): Tensor | null => (s === null ? null : torch.tensor(s.values, { dtype: s.dtype }).reshape(s.sizes));

function run(c: Case): Tensor {
  const [x, w, b] = c.tensors.map(make) as [Tensor, Tensor | null, Tensor | null];
  type Keys = 'stride' | 'padding' | 'dilation' | 'groups' | 'kernel_size' | 'ceil_mode' | 'count_include_pad' | 'divisor_override';
  const k = c.kwargs as unknown as Record<Keys, never>;
  if (c.fn === 'conv2d') return C.conv2d(ks, x, w!, b, k.stride ?? 1, k.padding ?? 0, k.dilation ?? 1, k.groups ?? 1);
  if (c.fn === 'max_pool2d') return C.maxPool2d(ks, x, k.kernel_size, k.stride ?? [], k.padding ?? 0, k.dilation ?? 1, k.ceil_mode ?? false);
  return C.avgPool2d(ks, x, k.kernel_size, k.stride ?? [], k.padding ?? 0, k.ceil_mode ?? false, k.count_include_pad ?? true, k.divisor_override ?? null);
}

describe('convolution and pooling (PyTorch golden)', () => {
  it.each(golden.cases.map((c, i) => [`${i} ${c.fn} ${JSON.stringify(c.kwargs)}`, c] as const))('%s', (_name, c) => {
    if (c.error !== undefined) {
      expect(() => run(c)).toThrow(c.error);
      return;
    }
    const r = run(c);
    const want = c.result!;
    expect([dtypeName(r.dtype), r.size()]).toEqual([want.dtype, want.sizes]);
    const got = r.reshape(-1).tolist() as number[];
    const tol = want.dtype === 'float64' ? 1e-12 : 1e-5;
    want.values.forEach((v, i) => expect(Math.abs(got[i]! - v)).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(v))));
  });

  it('computes output shapes on Meta tensors', () => {
    const x = torch.empty(8, 1, 28, 28, { device: 'meta' });
    const w = torch.empty(32, 1, 3, 3, { device: 'meta' });
    expect(C.maxPool2d(ks, C.conv2d(ks, x, w, null, 1, 1), 2).size()).toEqual([8, 32, 14, 14]);
  });
});
