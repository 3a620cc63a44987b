// conv1d, padding='same'/'valid', conv_transpose1d/2d with their gradients, and channels-last output strides,
// against PyTorch 2.13 (torch.nn.functional). Fixture: test/golden/conv1d_padding_transpose.json (tools/golden/gen_conv1d_padding_transpose.py).
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import { dtypeName } from '../../src/c10/index.js';
import { loadGolden } from '../golden.js';

interface Spec {
  dtype: string;
  sizes: number[];
  values: number[];
}
type Kwargs = Record<string, number | number[] | string>;
interface Case {
  fn: 'conv1d' | 'conv2d' | 'conv_transpose1d' | 'conv_transpose2d';
  tensors: (Spec | null)[];
  kwargs: Kwargs;
  result?: Spec;
  grads?: (Spec | null)[];
  error?: string;
}
interface Layout {
  fn: Case['fn'];
  kwargs: Kwargs;
  dtype: string;
  input: { sizes: number[]; strides: number[] };
  weight: { sizes: number[]; strides: number[] };
  bias: boolean;
  out: { sizes: number[]; strides: number[] };
}
const golden = loadGolden<{ cases: Case[]; layouts: Layout[] }>('conv1d_padding_transpose.json');
const make = (s: Spec, requiresGrad = false): Tensor =>
  torch.tensor(s.values, { dtype: s.dtype }).reshape(s.sizes).requiresGrad_(requiresGrad);

type Conv = (x: Tensor, w: Tensor, b: Tensor | null, o: Kwargs) => Tensor;
const fns: Record<Case['fn'], Conv> = {
  conv1d: (x, w, b, o) => torch.conv1d(x, w, b, o as never),
  conv2d: (x, w, b, o) => torch.conv2d(x, w, b, o as never),
  conv_transpose1d: (x, w, b, o) => torch.conv_transpose1d(x, w, b, o as never),
  conv_transpose2d: (x, w, b, o) => torch.conv_transpose2d(x, w, b, o as never),
};

function expectClose(got: Tensor, want: Spec): void {
  expect([dtypeName(got.scalarType), got.size()]).toEqual([want.dtype, want.sizes]);
  const tol = want.dtype === 'float64' ? 1e-12 : 2e-5;
  expect(got).toBeAllclose(want.values, { rtol: tol, atol: tol });
}

describe('convolution family (PyTorch golden)', () => {
  it.each(golden.cases.map((c, i) => [`${i} ${c.fn} ${c.tensors[0]!.dtype} ${JSON.stringify(c.kwargs)}`, c] as const))('%s', (_name, c) => {
    const grads = c.grads !== undefined;
    const [x, w, b] = c.tensors.map((s) => (s === null ? null : make(s, grads))) as [Tensor, Tensor, Tensor | null];
    if (c.error !== undefined) {
      expect(() => fns[c.fn](x!, w!, b, c.kwargs)).toThrow(c.error);
      return;
    }
    const out = fns[c.fn](x!, w!, b, c.kwargs);
    expectClose(out, c.result!);
    if (!grads) return;
    const inputs = [x, w, b].filter((t): t is Tensor => t !== null);
    // The fixture's output gradient: (i % 7 - 3) / 4 at flat index i.
    const g = torch
      .arange(out.size().reduce((a, b) => a * b, 1))
      .remainder(7)
      .sub(3)
      .div(4)
      .to(out.scalarType)
      .reshape(out.size());
    const got = torch.autograd.grad(out, inputs, { gradOutputs: [g] });
    const want = c.grads!.filter((s): s is Spec => s !== null);
    want.forEach((s, i) => expectClose(got[i]!, s));
  });

  it.each(golden.layouts.map((l, i) => [`${i} ${l.fn} ${l.dtype} input strides ${l.input.strides.join(',')}`, l] as const))(
    '%s: output strides and meta shapes',
    (_name, l) => {
      const strided = (s: { sizes: number[]; strides: number[] }, device?: string) =>
        torch.empty_strided(s.sizes, s.strides, { dtype: l.dtype, ...(device === undefined ? {} : { device }) });
      for (const device of [undefined, 'meta']) {
        const x = strided(l.input, device);
        const w = strided(l.weight, device);
        const b = l.bias
          ? torch.zeros(l.weight.sizes[l.fn.startsWith('conv_transpose') ? 1 : 0]!, {
              dtype: l.dtype,
              ...(device === undefined ? {} : { device }),
            })
          : null;
        if (device === undefined) {
          x.copy_(torch.randn(l.input.sizes, { dtype: l.dtype }));
          w.copy_(torch.randn(l.weight.sizes, { dtype: l.dtype }));
        }
        const out = fns[l.fn](x, w, b, l.kwargs);
        expect([out.size(), out.stride(), dtypeName(out.scalarType)]).toEqual([l.out.sizes, l.out.strides, l.dtype]);
      }
    },
  );

  it('selects conv2d.padding for a string padding given positionally or as a keyword', () => {
    const x = torch.randn(1, 2, 5, 5, { dtype: torch.float64 });
    const w = torch.randn(3, 2, 3, 3, { dtype: torch.float64 });
    const byKeyword = torch.conv2d(x, w, { padding: 'same' });
    expect(byKeyword.size()).toEqual([1, 3, 5, 5]);
    expect(torch.conv2d(x, w, null, 1, 'same').tolist()).toEqual(byKeyword.tolist());
    expect(torch.conv2d(x, w, null, 1, 1).tolist()).toEqual(byKeyword.tolist());
    expect(torch.conv1d(x.select(2, 0), w.select(2, 0), { padding: 'valid' }).size()).toEqual([1, 3, 3]);
  });

  it('a channels-last convolution has the values of the contiguous one', () => {
    const x = torch.randn(2, 3, 5, 6, { dtype: torch.float64 });
    const w = torch.randn(4, 3, 3, 3, { dtype: torch.float64 });
    const xl = torch.empty_strided([2, 3, 5, 6], [90, 1, 18, 3], { dtype: torch.float64 }).copy_(x);
    const a = torch.conv2d(x, w, null, 1, 1);
    const b = torch.conv2d(xl, w, null, 1, 1);
    expect(b.stride()).toEqual([120, 1, 24, 4]);
    expect(b.tolist()).toEqual(a.tolist());
  });

  it('records ConvolutionBackward0 for conv1d and conv_transpose2d, and double backward runs', () => {
    const x = torch.randn(1, 2, 4, 4, { dtype: torch.float64, requires_grad: true });
    const w = torch.randn(2, 3, 2, 2, { dtype: torch.float64, requires_grad: true });
    const y = torch.conv_transpose2d(x, w, null, 2);
    expect(y.gradFn?.name()).toBe('ConvolutionBackward0');
    const [gx] = torch.autograd.grad(y.pow(2).sum(), [x], { createGraph: true });
    // d/dw of sum(gx): through _conv2d_backward_weight's derivative; compare with a finite difference.
    const [gw] = torch.autograd.grad(gx!.sum(), [w]);
    const eps = 1e-6;
    const f = (wv: Tensor) => {
      const xr = x.detach().requiresGrad_();
      const yy = torch.conv_transpose2d(xr, wv, null, 2);
      const [g] = torch.autograd.grad(yy.pow(2).sum(), [xr]);
      return g!.sum().item() as number;
    };
    const wd = w.detach();
    const bump = torch.zeros(2, 3, 2, 2, { dtype: torch.float64 });
    bump.view(-1).select(0, 5).fill_(eps);
    const fd = (f(wd.add(bump).requiresGrad_()) - f(wd.sub(bump).requiresGrad_())) / (2 * eps);
    expect(Math.abs((gw!.reshape(-1).select(0, 5).item() as number) - fd)).toBeLessThan(1e-5);
    const c = torch.conv1d(torch.randn(1, 2, 5, { requires_grad: true }), torch.randn(3, 2, 2));
    expect(c.gradFn?.name()).toBe('ConvolutionBackward0');
  });
});
