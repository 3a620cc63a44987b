// conv2d, max_pool2d and avg_pool2d against PyTorch 2.13 (torch.nn.functional): shapes, values, errors.
// Fixture: test/golden/conv.json (tools/golden/gen_conv.py).
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import { DispatchKey, DispatchKeySet, dtypeName } from '../../src/c10/index.js';
import * as ConvolutionKernels from '../../src/kernels/Convolution.js';
import * as PoolingKernels from '../../src/kernels/Pooling.js';

// convolution (Convolution.ts) and pooling (Pooling.ts), under one name for the tests below.
const C = { ...ConvolutionKernels, ...PoolingKernels };
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
  if (c.fn === 'max_pool2d')
    return C.maxPool2d(ks, x, k.kernel_size, k.stride ?? [], k.padding ?? 0, k.dilation ?? 1, k.ceil_mode ?? false);
  return C.avgPool2d(
    ks,
    x,
    k.kernel_size,
    k.stride ?? [],
    k.padding ?? 0,
    k.ceil_mode ?? false,
    k.count_include_pad ?? true,
    k.divisor_override ?? null,
  );
}

describe('convolution and pooling (PyTorch golden)', () => {
  it.each(golden.cases.map((c, i) => [`${i} ${c.fn} ${JSON.stringify(c.kwargs)}`, c] as const))('%s', (_name, c) => {
    if (c.error !== undefined) {
      expect(() => run(c)).toThrow(c.error);
      return;
    }
    const r = run(c);
    const want = c.result!;
    expect([dtypeName(r.scalarType), r.size()]).toEqual([want.dtype, want.sizes]);
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

// PyTorch 2.13's CompositeImplicitAutograd decompositions: conv2d → convolution, max_pool2d →
// max_pool2d_with_indices. Expected values from torch.ops.aten.max_pool2d_with_indices / torch.convolution.
describe('max_pool2d_with_indices and convolution (the operators max_pool2d and conv2d decompose into)', () => {
  const nan = Number.NaN;

  it('returns the maxima and their indices in the input plane', () => {
    const [v, i] = torch.max_pool2d_with_indices(torch.arange(9, { dtype: torch.float32 }).view(1, 3, 3), [2], [2], [1]);
    expect(v.tolist()).toEqual([
      [
        [0, 2],
        [6, 8],
      ],
    ]);
    expect([dtypeName(i.scalarType), i.tolist()]).toEqual([
      'int64',
      [
        [
          [0, 2],
          [6, 8],
        ],
      ],
    ]);
  });

  it('propagates NaN and keeps the last NaN index; an all -inf window gives its first index', () => {
    const x = torch.tensor([
      [
        [1, nan, 3],
        [nan, 0, nan],
        [2, 5, -1],
      ],
    ]);
    const [v, i] = torch.max_pool2d_with_indices(x, [2], [1]);
    expect((v.reshape(-1).tolist() as number[]).every(Number.isNaN)).toBe(true);
    expect(i.tolist()).toEqual([
      [
        [3, 5],
        [3, 5],
      ],
    ]);
    const [, j] = torch.max_pool2d_with_indices(torch.full([1, 2, 2], -Infinity), [2]);
    expect(j.tolist()).toEqual([[[0]]]);
  });

  it('max_pool2d is the values of max_pool2d_with_indices, and its gradient scatters to the indices', () => {
    const x = torch.tensor(
      [
        [
          [
            [1, 2],
            [3, 4],
          ],
        ],
      ],
      { dtype: torch.float64, requiresGrad: true },
    );
    const y = torch.max_pool2d(x, [2]);
    expect(y.gradFn?.name()).toBe('MaxPool2DWithIndicesBackward0');
    const [g] = torch.autograd.grad(y, x, { gradOutputs: [torch.tensor([[[[2.5]]]], { dtype: torch.float64 })], createGraph: true });
    expect(g!.tolist()).toEqual([
      [
        [
          [0, 0],
          [0, 2.5],
        ],
      ],
    ]);
    expect(g!.gradFn?.name()).toBe('MaxPool2DWithIndicesBackwardBackward0');
    expect(torch.noGrad(() => torch.max_pool2d(x, [2])).gradFn).toBeNull();
  });

  it("checks max_pool2d's parameter lengths first, with PyTorch's texts", () => {
    const x = torch.zeros(1, 4, 4);
    expect(() => torch.max_pool2d(x, [2, 2, 2])).toThrow('max_pool2d: kernel_size must either be a single int, or a tuple of two ints');
    expect(() => torch.max_pool2d(x, [2], [1, 1, 1])).toThrow(
      'max_pool2d: stride must either be omitted, a single int, or a tuple of two ints',
    );
    expect(() => torch.max_pool2d(x, [2], [], [0, 0, 0])).toThrow(
      'max_pool2d: padding must either be a single int, or a tuple of two ints',
    );
    expect(() => torch.max_pool2d(x, [2], [], 0, [1, 1, 1])).toThrow(
      'max_pool2d: dilation must be either a single int, or a tuple of two ints',
    );
    expect(() => torch.max_pool2d(torch.zeros(2, 3), [2, 2, 2])).toThrow('max_pool2d: kernel_size');
    expect(() => torch.max_pool2d(torch.zeros(2, 3), 2)).toThrow('non-empty 3D or 4D (batch mode) tensor expected for input');
  });

  it("checks convolution's arguments as _convolution does", () => {
    const x = torch.zeros(1, 1, 3, 3);
    const w = torch.zeros(1, 1, 1, 1);
    const conv = (input: Tensor, weight: Tensor, stride = [1, 1], outPad = [0, 0], groups = 1, transposed = false): Tensor =>
      torch.convolution(input, weight, null, stride, [0, 0], [1, 1], transposed, outPad, groups);
    expect(conv(x, w).size()).toEqual([1, 1, 3, 3]);
    expect(() => conv(x, w, [1, 1], [0, 0], 0)).toThrow('non-positive groups is not supported');
    expect(() => conv(x, w, [1, 1, 1])).toThrow(
      'expected stride to be a single integer value or a list of 2 values to match the convolution dimensions, but got stride=[1, 1, 1]',
    );
    expect(() => conv(x, w, [1, 1], [-1, 0])).toThrow('negative output_padding is not supported');
    expect(() => conv(torch.zeros(2, 3), w)).toThrow(
      'Expected 4-dimensional input for 4-dimensional weight [1, 1, 1, 1], but got 2-dimensional input of size [2, 3] instead',
    );
    expect(conv(x, w, [1, 1], [0, 0], 1, true).size()).toEqual([1, 1, 3, 3]);
    expect(() => torch.conv2d(torch.zeros(3, 3), w, torch.zeros(1, { dtype: torch.float64 }))).toThrow(
      'Input type (float) and bias type (double) should be the same',
    );
  });

  it('conv2d records ConvolutionBackward0 (SqueezeBackward1 when unbatched), as PyTorch', () => {
    const w = torch.ones(1, 2, 1, 1, { requires_grad: true });
    expect(torch.conv2d(torch.ones(1, 2, 3, 3), w).gradFn?.name()).toBe('ConvolutionBackward0');
    expect(torch.conv2d(torch.ones(2, 3, 3), w).gradFn?.name()).toBe('SqueezeBackward1');
  });

  it('computes max_pool2d_with_indices and convolution shapes on Meta tensors', () => {
    const [v, i] = torch.max_pool2d_with_indices(torch.empty(8, 32, 28, 28, { device: 'meta' }), [2]);
    expect([v.size(), i.size(), dtypeName(i.scalarType), i.isMeta()]).toEqual([[8, 32, 14, 14], [8, 32, 14, 14], 'int64', true]);
    const y = torch.convolution(
      torch.empty(8, 1, 28, 28, { device: 'meta' }),
      torch.empty(4, 1, 3, 3, { device: 'meta' }),
      null,
      [1],
      [1],
      [1],
      false,
      [0],
      1,
    );
    expect(y.size()).toEqual([8, 4, 28, 28]);
  });
});
