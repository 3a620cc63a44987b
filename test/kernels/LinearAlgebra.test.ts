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
