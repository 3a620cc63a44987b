// Matrix products against PyTorch 2.13: shapes, dtypes, values (float32 to BLAS-level tolerance, see
// Note [Cache-blocked gemm]) and errors. Fixture: test/golden/linalg.json (tools/golden/gen_linalg.py).
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import { DispatchKey, DispatchKeySet, dtypeName } from '../../src/c10/index.js';
import * as L from '../../src/kernels/LinearAlgebra.js';
import { loadGolden } from '../golden.js';

interface Spec {
  dtype: string;
  sizes: number[];
  values: number[];
}
interface Case {
  op: string;
  inputs: Spec[];
  kwargs: { beta?: number; alpha?: number };
  transpose_first: boolean;
  result?: Spec;
  error?: string;
}
const golden = loadGolden<{ cases: Case[] }>('linalg.json');
const ks = DispatchKeySet.fromKey(DispatchKey.CPU);

function make(s: Spec, transpose: boolean): Tensor {
  const t = torch.tensor(s.values, { dtype: s.dtype }).reshape(s.sizes);
  return transpose && t.dim() >= 2 ? t.transpose(-1, -2).contiguous().transpose(-1, -2) : t;
}

function run(c: Case, ins: Tensor[]): Tensor {
  const [a, b, d] = ins as [Tensor, Tensor, Tensor];
  switch (c.op) {
    case 'mm':
      return L.mm(ks, a, b);
    case 'bmm':
      return L.bmm(ks, a, b);
    case 'dot':
      return L.dot(ks, a, b);
    case 'mv':
      return L.mv(ks, a, b);
    case 'outer':
      return L.outer(ks, a, b);
    case 'matmul':
      return L.matmul(ks, a, b);
    case 'addmm':
      return L.addmm(ks, a, b, d, c.kwargs.beta ?? 1, c.kwargs.alpha ?? 1);
    case 'baddbmm':
      return L.baddbmm(ks, a, b, d, c.kwargs.beta ?? 1, c.kwargs.alpha ?? 1);
    case 'linear':
      return L.linear(ks, a, b, d ?? null);
    default:
      throw new Error(`unknown op ${c.op}`);
  }
}

describe('matrix products (PyTorch golden)', () => {
  it.each(golden.cases.map((c, i) => [`${i} ${c.op} ${c.inputs.map((x) => `${x.dtype}[${x.sizes.join(',')}]`).join(' ')}`, c] as const))(
    '%s',
    (_name, c) => {
      const ins = c.inputs.map((s, i) => make(s, i === 0 && c.transpose_first));
      if (c.error !== undefined) {
        expect(() => run(c, ins)).toThrow(c.error);
        return;
      }
      const r = run(c, ins);
      const want = c.result!;
      expect([dtypeName(r.dtype), r.size()]).toEqual([want.dtype, want.sizes]);
      const got = r.reshape(-1).tolist() as number[];
      const tol = want.dtype === 'float32' ? 1e-5 : want.dtype === 'float64' ? 1e-12 : 0;
      want.values.forEach((w, i) => expect(Math.abs(got[i]! - w)).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(w)) * 8));
    },
  );

  it('computes shapes only on Meta tensors', () => {
    const a = torch.empty(2, 1, 3, 4, { device: 'meta' });
    const b = torch.empty(5, 4, 6, { device: 'meta' });
    const r = L.matmul(ks, a, b);
    expect([r.isMeta(), r.size()]).toEqual([true, [2, 5, 3, 6]]);
  });
});

describe('matmul and linear as decompositions (CompositeImplicitAutograd)', () => {
  it('run the same through the dispatcher on Meta tensors (linear: flattened addmm, view back)', () => {
    const r = torch.matmul(torch.empty(2, 1, 3, 4, { device: 'meta' }), torch.empty(5, 4, 6, { device: 'meta' }));
    expect([r.isMeta(), r.size()]).toEqual([true, [2, 5, 3, 6]]);
    const l = torch.linear(
      torch.empty(2, 3, 4, { device: 'meta' }),
      torch.empty(5, 4, { device: 'meta' }),
      torch.empty(5, { device: 'meta' }),
    );
    expect([l.isMeta(), l.size()]).toEqual([true, [2, 3, 5]]);
  });

  it('_unsafe_view shares storage but is not a view for autograd', () => {
    const x = torch.arange(6, { dtype: 'float32' });
    const v = torch._unsafe_view(x, [2, 3]);
    expect(v.size()).toEqual([2, 3]);
    expect(v.tolist()).toEqual([
      [0, 1, 2],
      [3, 4, 5],
    ]);
    expect([v.isView(), v._base]).toEqual([false, null]);
    v.fill_(7);
    expect(x.tolist()).toEqual([7, 7, 7, 7, 7, 7]);
    const w = torch.arange(6, { dtype: 'float64' }).requiresGrad_();
    const u = torch._unsafe_view(w.mul(2), [3, 2]);
    expect(u.gradFn?.name()).toBe('UnsafeViewBackward0');
    u.sum().backward();
    expect(w.grad?.tolist()).toEqual([2, 2, 2, 2, 2, 2]);
  });

  it("does not bump the inputs' version counters; linear adds a non-fusable bias in place, as PyTorch", () => {
    const a = torch.ones(2, 3);
    const b = torch.ones(3, 2);
    torch.matmul(a, b);
    expect([a._version, b._version]).toEqual([0, 0]);
    // PyTorch: linear(x[2,2,3], w, bias[2,4]) is matmul, then output.add_(bias): the output's version is 1.
    const out = torch.linear(torch.ones(2, 2, 3), torch.ones(4, 3), torch.ones(2, 4));
    expect([out._version, out.tolist()]).toEqual([
      1,
      [
        [
          [4, 4, 4, 4],
          [4, 4, 4, 4],
        ],
        [
          [4, 4, 4, 4],
          [4, 4, 4, 4],
        ],
      ],
    ]);
  });
});
