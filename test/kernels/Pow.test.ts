// pow, div with rounding modes, cumsum, cumprod, norm and lerp with a tensor weight against PyTorch 2.13.
// Fixture: test/golden/pow_div_cumsum_norm_lerp.json (tools/golden/gen_pow_div_cumsum_norm_lerp.py).
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import { DispatchKey, DispatchKeySet, dtypeName, parseScalarType } from '../../src/c10/index.js';
import * as PowKernels from '../../src/kernels/Pow.js';
import * as BinaryOpsKernels from '../../src/kernels/BinaryOps.js';

// pow (Pow.ts) and div with rounding modes (BinaryOps.ts), under one name for the tests below.
const P = { ...PowKernels, ...BinaryOpsKernels };
import * as R from '../../src/kernels/ReduceOps.js';
import { loadGolden } from '../golden.js';

type V = number | boolean | 'nan' | 'inf' | '-inf';
interface Spec {
  dtype: string;
  sizes: number[];
  values: V[];
}
interface Case {
  op: string;
  tensors: Spec[];
  args: { rounding_mode?: string | null; exponent?: number; self?: number; dim?: number | number[]; p?: V; dtype?: string | null };
  result?: Spec;
  error?: string;
}
const golden = loadGolden<{ cases: Case[] }>('pow_div_cumsum_norm_lerp.json');
const ks = DispatchKeySet.fromKey(DispatchKey.CPU);
const num = (v: V): number =>
  typeof v === 'boolean' ? Number(v) : v === 'nan' ? NaN : v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v;
const make = (s: Spec): Tensor => torch.tensor(s.values.map(num), { dtype: s.dtype }).reshape(s.sizes);

function run(c: Case): Tensor {
  const [a, b, w] = c.tensors.map(make) as [Tensor, Tensor, Tensor];
  switch (c.op) {
    case 'pow':
      return P.powTensor(ks, a, b);
    case 'pow_scalar':
      return P.powTensorScalar(ks, a, c.args.exponent!);
    case 'pow_self_scalar':
      return P.powScalar(ks, c.args.self!, a);
    case 'div':
      return P.divMode(ks, a, b, c.args.rounding_mode ?? null);
    case 'cumsum':
      return R.cumsum(ks, a, c.args.dim as number, c.args.dtype == null ? null : parseScalarType(c.args.dtype));
    case 'cumprod':
      return R.cumprod(ks, a, c.args.dim as number, c.args.dtype == null ? null : parseScalarType(c.args.dtype));
    case 'cumsum_':
    case 'cumprod_': {
      // through the dispatcher: the structured in-place wrapper (check_inplace), then ADInplaceOrView's bump
      const version = a._version;
      const out =
        c.op === 'cumsum_'
          ? a.cumsum_(c.args.dim as number, { dtype: c.args.dtype })
          : a.cumprod_(c.args.dim as number, { dtype: c.args.dtype });
      expect(out).toBe(a);
      expect(a._version).toBe(version + 1);
      return out;
    }
    case 'norm':
      return R.norm(ks, a, num(c.args.p!), c.args.dim as number[]);
    case 'norm_all':
      return R.normAll(ks, a, num(c.args.p!));
    case 'lerp_tensor':
      return torch.lerp(a, b, w);
    case 'lerp_tensor_': {
      const out = a.lerp_(b, w);
      expect(out).toBe(a);
      return out;
    }
    default:
      throw new Error(`unknown op ${c.op}`);
  }
}

describe('pow, div modes, cumulative ops and norms (PyTorch golden)', () => {
  it.each(golden.cases.map((c, i) => [`${i} ${c.op} ${c.tensors.map((t) => t.dtype).join(',')} ${JSON.stringify(c.args)}`, c] as const))(
    '%s',
    (_n, c) => {
      if (c.error !== undefined) {
        expect(() => run(c)).toThrow(c.error);
        return;
      }
      if (c.op.startsWith('lerp')) {
        // the Meta kernel gives the same shape and dtype without data
        const [a, b, w] = c.tensors.map((t) => make(t).to('meta'));
        const m = torch.lerp(a!, b!, w!);
        expect([m.isMeta(), dtypeName(m.scalarType), m.size()]).toEqual([true, c.result!.dtype, c.result!.sizes]);
      }
      const r = run(c);
      const want = c.result!;
      expect([dtypeName(r.scalarType), r.size()]).toEqual([want.dtype, want.sizes]);
      const got = (r.reshape(-1).tolist() as (number | boolean)[]).map(Number);
      const tol = want.dtype === 'float32' ? 1e-6 : want.dtype === 'float64' ? 1e-14 : 0;
      want.values.map(num).forEach((w, i) => {
        if (Number.isNaN(w)) expect(got[i]).toBeNaN();
        else if (!Number.isFinite(w) || tol === 0) expect(got[i]).toBe(w);
        else expect(Math.abs(got[i]! - w)).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(w)));
      });
    },
  );
});
