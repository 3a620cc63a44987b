// Matrix products against PyTorch 2.13: shapes, dtypes, values (float32 to BLAS-level tolerance, see
// Note [Cache-blocked gemm]) and errors. Fixture: test/golden/linalg.json (tools/golden/gen_linalg.py).
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import { cpuMemoryStats, getKernelBackend } from '../../src/wasm/index.js';
import { DispatchKey, DispatchKeySet, dtypeName } from '../../src/c10/index.js';
import * as L from '../../src/kernels/LinearAlgebra.js';
import * as Blas from '../../src/kernels/Blas.js';
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
      return Blas.dot(ks, a, b);
    case 'mv':
      return Blas.mv(ks, a, b);
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
      expect([dtypeName(r.scalarType), r.size()]).toEqual([want.dtype, want.sizes]);
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

describe('the packed gemm paths (float32 and float64, strided operands, BLAS-style baddbmm)', () => {
  /** The exact-ish product of nested lists (double sums), batch over the leading dim of 3-D operands. */
  const ref = (a: number[][], b: number[][]): number[][] =>
    a.map((row) => (b[0] ?? []).map((_, j) => row.reduce((s, v, p) => s + v * (b[p]![j] as number), 0)));
  const close = (got: unknown, want: unknown, tol: number): void => {
    const [g, w] = [[got].flat(3) as number[], [want].flat(3) as number[]];
    expect(g.length).toBe(w.length);
    g.forEach((v, i) => expect(Math.abs(v - w[i]!)).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(w[i]!))));
  };

  for (const dtype of ['float32', 'float64'] as const) {
    const tol = dtype === 'float32' ? 1e-4 : 1e-12;
    it(`${dtype}: mm, bmm, addmm and baddbmm over transposed, sliced and broadcast operands`, () => {
      torch.manualSeed(7);
      const a = torch.randn(37, 70, { dtype }).t(); // 70×37, column-major
      const b = torch.randn(37, 90, { dtype }).narrow(1, 3, 80); // 37×80, row stride 90
      close(L.mm(ks, a, b).tolist(), ref(a.tolist() as number[][], b.tolist() as number[][]), tol);
      const ba = torch.randn(70, 5, 37, { dtype }).permute(1, 0, 2); // 5×70×37, batch stride 37, row stride 185
      const bb = torch.randn(37, 80, { dtype }).expand(5, 37, 80); // batch stride 0
      const bMat = (bb.tolist() as number[][][])[0]!;
      const want = (ba.tolist() as number[][][]).map((x) => ref(x, bMat));
      close(L.bmm(ks, ba, bb).tolist(), want, tol);
      const bias = torch.randn(80, { dtype });
      const bl = bias.tolist() as number[];
      const wantAddmm = ref(a.tolist() as number[][], b.tolist() as number[][]).map((r) => r.map((v, j) => 0.5 * bl[j]! + 2 * v));
      close(L.addmm(ks, bias, a, b, 0.5, 2).tolist(), wantAddmm, tol);
      const wantBaddbmm = want.map((m) => m.map((r) => r.map((v, j) => 0.5 * bl[j]! - 1.5 * v)));
      close(L.baddbmm(ks, bias, ba, bb, 0.5, -1.5).tolist(), wantBaddbmm, tol);
      close(
        L.baddbmm(ks, bias.expand(5, 70, 80), ba, bb, 1, 1).tolist(),
        want.map((m) => m.map((r) => r.map((v, j) => bl[j]! + v))),
        tol,
      );
    });

    it(`${dtype}: baddbmm and addmm with beta = 0 ignore self, even NaN; k = 0 leaves beta·self`, () => {
      const nan = torch.full([2, 3, 4], NaN, { dtype });
      const x = torch.ones(2, 3, 5, { dtype });
      const y = torch.ones(2, 5, 4, { dtype });
      expect([L.baddbmm(ks, nan, x, y, 0, 1).tolist()].flat(3)).toEqual(new Array(24).fill(5));
      expect([L.addmm(ks, nan.select(0, 0), x.select(0, 0), y.select(0, 0), 0, 0.5).tolist()].flat(2)).toEqual(new Array(12).fill(2.5));
      const empty = L.baddbmm(ks, torch.full([4], 3, { dtype }), torch.ones(2, 3, 0, { dtype }), torch.ones(2, 0, 4, { dtype }), 2, 1);
      expect([empty.size(), [empty.tolist()].flat(3)]).toEqual([[2, 3, 4], new Array(24).fill(6)]);
      expect(() => L.baddbmm(ks, torch.ones(2, 4, { dtype }), x, y)).toThrow(/expanded size/);
    });
  }

  // cpuMemoryStats() counts the wasm allocator's linear memory: null on the JS backend, so nothing to measure there.
  it.runIf(getKernelBackend() === 'wasm')(
    'matmul allocates only its result when the batch folds or broadcasts through one stride (wasm backend: cpuMemoryStats)',
    () => {
      const f64 = { dtype: 'float64' } as const;
      const cases: [Tensor, Tensor][] = [
        [torch.randn(8, 64, 32, f64), torch.randn(32, 48, f64)], // fold into mm
        [torch.randn(8, 32, 64, f64).transpose(1, 2), torch.randn(32, 48, f64)], // bmm, B broadcast
        [torch.randn(64, 32, f64), torch.randn(8, 32, 48, f64)], // bmm, A broadcast
        [torch.randn(32, f64), torch.randn(8, 32, 48, f64)],
        [torch.randn(1, 64, 32, f64), torch.randn(8, 32, 48, f64)],
        [torch.randn(2, 4, 64, 32, f64), torch.randn(2, 4, 32, 48, f64).transpose(2, 3).transpose(2, 3)],
        [torch.randn(64, 8, 32, f64).permute(1, 0, 2), torch.randn(32, 8, 48, f64).permute(1, 0, 2)],
      ];
      torch.matmul(torch.randn(64, 32, f64), torch.randn(32, 48, f64)); // the kept workspace exists (Note [Persistent gemm workspace])
      for (const [a, b] of cases) {
        const before = cpuMemoryStats()!.allocatedBytes;
        const r = torch.matmul(a, b);
        expect(cpuMemoryStats()!.allocatedBytes - before).toBe(r.numel() * 8);
      }
    },
  );
});
