// F.* routes to PyTorch's native operators: values and the grad_fn autograd records equal PyTorch's
// (fixture: tools/golden/gen_functional_native.py).
import { describe, expect, it } from 'vitest';
import { loadGolden } from '../golden.js';
import { torch, nn, type Tensor } from '../../src/index.js';

interface Case {
  name: string;
  inputs: { shape: number[]; values: number[] }[];
  call: Record<string, unknown> & { fn: string };
  shape: number[];
  values: number[];
  grad_fn: string;
}

const F = nn.functional;
const golden = loadGolden<{ cases: Case[] }>('functional_native.json');

function run(c: Case, xs: Tensor[]): Tensor {
  const { fn, ...k } = c.call;
  const f64 = { dtype: torch.float64 };
  const [x, a, b] = xs as [Tensor, Tensor | undefined, Tensor | undefined];
  switch (fn) {
    case 'batch_norm':
      return F.batch_norm(x, torch.zeros([3], f64), torch.ones([3], f64), { weight: a, bias: b, training: k.training as boolean });
    case 'group_norm':
      return F.group_norm(x, k.num_groups as number, a ?? null, b ?? null);
    case 'pad':
      return F.pad(x, k.pad as number[], { mode: k.mode as string });
    case 'conv1d':
      return F.conv1d(x, a as Tensor, { padding: k.padding as string, dilation: k.dilation as number });
    case 'conv2d':
      return F.conv2d(x, a as Tensor, null, 1, k.padding as string);
    case 'conv_transpose2d':
      return F.conv_transpose2d(x, a as Tensor, b ?? null, { stride: 2, padding: 1, output_padding: 1 });
    case 'max_pool1d':
      return F.max_pool1d(x, 3, { stride: 2, padding: 1 });
    case 'adaptive_avg_pool2d':
      return F.adaptive_avg_pool2d(x, k.output_size as number | (number | null)[]);
    default:
      throw new Error(`no case for ${fn}`);
  }
}

describe('nn.functional calls the native operators', () => {
  for (const c of golden.cases) {
    it(c.name, () => {
      const xs = c.inputs.map((i) => torch.tensor(i.values, { dtype: torch.float64 }).reshape(i.shape).requiresGrad_(true));
      const y = run(c, xs);
      expect(y.sizes).toEqual(c.shape);
      const got = y.detach().flatten().tolist() as number[];
      got.forEach((v, i) => expect(v).toBeCloseTo(c.values[i] as number, 10));
      expect(y.gradFn?.name()).toBe(c.grad_fn);
    });
  }
});
