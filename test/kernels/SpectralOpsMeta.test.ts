// The native FFT operators' layouts and graph beyond OpInfo's samples: Meta strides of _fft_r2c / _fft_c2c /
// _fft_c2r as PyTorch's meta functions give them (their CUDA branch: See Note [FFT Meta layouts] in
// src/kernels/SpectralOpsKernel.ts) next to the CPU strides, and the grad_fn names and float64 gradients of the
// transforms that end in a conjugate (See Note [FFT conjugates as PyTorch's] in src/kernels/SpectralOps.ts).
// Fixture: test/golden/fft_meta.json (tools/golden/gen_fft_meta.py).
import { describe, expect, it } from 'vitest';
import * as torch from '../../src/torch.js';
import type { Tensor } from '../../src/api/index.js';
import { loadGolden } from '../golden.js';

interface Layout {
  op: '_fft_c2c' | '_fft_r2c' | '_fft_c2r';
  dtype: string;
  sizes: number[];
  dim: number[];
  arg: boolean | number;
  meta_strides: number[];
  cpu_strides: number[];
}
interface Graph {
  fn: string;
  input: { dtype: string; sizes: number[]; values: number[] };
  grad_fn: string;
  grad: number[];
}
const golden = loadGolden<{ layouts: Layout[]; graphs: Graph[] }>('fft_meta.json');
const fns = torch as unknown as Record<string, (...a: unknown[]) => Tensor>;
const flat = (t: Tensor): number[] =>
  ([(t.isComplex() ? torch.view_as_real(t) : t).detach().tolist()] as unknown[]).flat(Number.POSITIVE_INFINITY) as number[];

describe('FFT layouts: Meta (PyTorch meta functions) and CPU strides', () => {
  for (const l of golden.layouts) {
    it(`${l.op} [${l.sizes.join(', ')}] dim [${l.dim.join(', ')}] ${String(l.arg)}`, () => {
      const x = torch.ones(l.sizes, { dtype: l.dtype === 'float32' ? torch.float32 : torch.complex64 });
      const f = fns[l.op] as (...a: unknown[]) => Tensor;
      expect(f(x.to('meta'), l.dim, 0, l.arg).strides).toEqual(l.meta_strides);
      expect(f(x, l.dim, 0, l.arg).strides).toEqual(l.cpu_strides);
    });
  }
});

describe('FFT graphs ending in a conjugate', () => {
  for (const g of golden.graphs) {
    it(`fft.${g.fn}: ${g.grad_fn} and its gradient`, () => {
      const real = g.input.dtype === 'float64';
      const v = torch.tensor(g.input.values, { dtype: torch.float64 });
      const x = (real ? v : torch.view_as_complex(v.reshape([-1, 2]))).reshape(g.input.sizes).requires_grad_();
      const r = (torch.fft as unknown as Record<string, (t: Tensor) => Tensor>)[g.fn]!(x);
      expect(r.grad_fn?.name()).toBe(g.grad_fn);
      const ones = torch.ones_like(r.isComplex() ? torch.real(r) : r);
      const cot = r.isComplex() ? torch.complex(ones, torch.neg(ones)) : ones;
      const [grad] = torch.autograd.grad([r], [x], { gradOutputs: [cot] });
      const got = flat(grad as Tensor);
      expect(got.length).toBe(g.grad.length);
      got.forEach((a, i) => expect(Math.abs(a - (g.grad[i] as number))).toBeLessThan(1e-12 + 1e-12 * Math.abs(g.grad[i] as number)));
    });
  }
  it('x.conj() of a complex tensor is ConjBackward0, its gradient the conjugate', () => {
    const x = torch
      .complex(torch.tensor([1, 2], { dtype: torch.float64 }), torch.tensor([3, -4], { dtype: torch.float64 }))
      .requires_grad_();
    const y = x.conj();
    expect(y.grad_fn?.name()).toBe('ConjBackward0');
    expect(flat(y)).toEqual([1, -3, 2, 4]);
  });
});
