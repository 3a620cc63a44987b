// The JS fallback gives the SIMD kernels' bits on every existing golden (Note [The twin is the fallback] in
// src/wasm/kernels/vec.ts): each OpInfo fixture's value samples (test/golden/opinfo/, PyTorch 2.13's op_db)
// run once with the WASM kernels and once with every kernel call falling back to its JS twin, and every result
// must be the same bit for bit (NaN matching NaN, -0 not matching 0). test/wasm/fallback.test.ts pins the
// kernels one by one; this sweep pins every operator that reaches them. The operators listed in DIVERGENT are
// where that does not hold yet, each with its reason; one that starts agreeing fails the sweep (strict, as
// PyTorch's xfail), so the list only shrinks.
import { describe, expect, it } from 'vitest';
import { torch } from '../../src/index.js';
import type { Tensor } from '../../src/tensor/Tensor.js';
import { getKernelBackend, wasmStorage, type Kernels } from '../../src/wasm/index.js';
import { STRESS_SUBSET, fixtureFiles, loadFixture, replayResults } from '../opinfo/harness.js';

/** A tensor's values, complex ones as (re, im) pairs, in a form whose equality is bit equality of floats. */
function values(t: Tensor): unknown[] {
  const flat = (t.is_complex() ? torch.view_as_real(t.resolve_conj()) : t).contiguous().reshape(-1).tolist() as unknown[];
  return flat.map((v) => (typeof v === 'number' ? (Number.isNaN(v) ? 'NaN' : Object.is(v, -0) ? '-0' : v) : v));
}

/**
 * Operators whose JS path does not give the WASM path's bits, by OpInfo key, each with its reason. Empty: the
 * float products (mm, bmm, addmm, baddbmm, the convolutions' gemms, and through them matmul, linear, einsum,
 * dot, mv, sdpa's math path, multi-head attention, ...) run the packed gemm's JS twin when the kernels are away
 * (Note [Cache-blocked gemm] in src/kernels/LinearAlgebra.ts, Note [Blocked gemm twin]).
 */
const DIVERGENT: Record<string, string> = {};

describe.runIf(getKernelBackend() === 'wasm' && !STRESS_SUBSET)(
  'the JS fallback gives the SIMD kernels’ bits on every OpInfo golden',
  () => {
    it.each(fixtureFiles())('%s', (file) => {
      const fx = loadFixture(file);
      const simd = replayResults(fx);
      const kernels = wasmStorage.kernels as Kernels;
      wasmStorage.kernels = null;
      let js: Map<string, Tensor[]>;
      try {
        js = replayResults(fx);
      } finally {
        wasmStorage.kernels = kernels;
      }
      const differ: string[] = [];
      const divergentOps = new Set<string>();
      const note = (key: string, what: string): void => {
        const op = key.split('|')[0] as string;
        if (op in DIVERGENT) divergentOps.add(op);
        else differ.push(`${key}: ${what}`);
      };
      for (const [key, a] of simd) {
        const b = js.get(key);
        if (b === undefined) note(key, 'throws on the JS path only');
        else if (a.length !== b.length) note(key, `${a.length} vs ${b.length} results`);
        else {
          const i = a.findIndex((t, k) => JSON.stringify(values(t)) !== JSON.stringify(values(b[k] as Tensor)));
          if (i >= 0) note(key, `result ${i} differs`);
        }
      }
      for (const key of js.keys()) if (!simd.has(key)) note(key, 'throws on the WASM path only');
      expect(differ, 'operators whose JS fallback differs from the WASM path').toEqual([]);
      const agreeing = fx.ops.map((op) => op.key).filter((op) => op in DIVERGENT && !divergentOps.has(op));
      expect(agreeing, 'listed in DIVERGENT but agree now: take them off the list').toEqual([]);
    });
  },
);

/** `f()` with the WASM kernels and with every kernel falling back to its JS twin. */
function bothPaths(f: () => Tensor): [Tensor, Tensor] {
  const simd = f();
  const kernels = wasmStorage.kernels as Kernels;
  wasmStorage.kernels = null;
  try {
    return [simd, f()];
  } finally {
    wasmStorage.kernels = kernels;
  }
}

// The OpInfo samples are small; these products cross the twin's blocks and the kernel's KC slices (k > 256,
// n > 256), with transposed and broadcast operands and BLAS's alpha and beta (Note [Blocked gemm twin]).
describe.runIf(getKernelBackend() === 'wasm')('the products’ JS fallback gives the packed gemm’s bits beyond one block', () => {
  it.each(['float32', 'float64'] as const)('%s: mm, addmm, bmm, baddbmm, linear', (dtype) => {
    torch.manual_seed(7);
    const a = torch.randn([67, 300], { dtype });
    const b = torch.randn([300, 261], { dtype });
    const bias = torch.randn([261], { dtype });
    const batch1 = torch.randn([3, 9, 530], { dtype });
    const batch2 = torch.randn([530, 20], { dtype });
    const cases: [string, () => Tensor][] = [
      ['mm', () => torch.mm(a, b)],
      ['mm, transposed operands', () => torch.mm(b.t(), a.t())],
      ['addmm, alpha 0.3, beta 0.7', () => torch.addmm(bias, a, b, { beta: 0.7, alpha: 0.3 })],
      ['bmm, broadcast batch', () => torch.bmm(batch1, batch2.expand([3, 530, 20]))],
      ['baddbmm, alpha -1.5', () => torch.baddbmm(torch.ones([3, 9, 20], { dtype }), batch1, batch2.expand([3, 530, 20]), { alpha: -1.5 })],
      ['linear', () => torch.nn.functional.linear(a, b.t(), bias)],
    ];
    for (const [what, f] of cases) {
      const [simd, js] = bothPaths(f);
      expect(JSON.stringify(values(js)), what).toBe(JSON.stringify(values(simd)));
    }
  });
});
