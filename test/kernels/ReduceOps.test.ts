// Reductions against PyTorch 2.13: result dtypes, shapes, values (floating sums to a relative tolerance,
// see Note [Reduction order]) and errors. Fixture: test/golden/reduce.json (tools/golden/gen_reduce.py).
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import { DispatchKey, DispatchKeySet, dtypeName } from '../../src/c10/index.js';
import * as R from '../../src/kernels/ReduceOps.js';
import { loadGolden } from '../golden.js';

type V = number | boolean | 'nan' | 'inf' | '-inf';
interface Case {
  op: string;
  input: { dtype: string; sizes: number[]; values: V[]; transposed_from?: number[] };
  args: { dim?: number | number[]; keepdim?: boolean };
  results?: { dtype: string; sizes: number[]; values: V[] }[];
  error?: string;
}
const golden = loadGolden<{ cases: Case[] }>('reduce.json');
const ks = DispatchKeySet.fromKey(DispatchKey.CPU);
const num = (v: V): number => (typeof v === 'boolean' ? Number(v) : v === 'nan' ? NaN : v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v);

function input(c: Case): Tensor {
  const t = torch.tensor(c.input.values.map(num), { dtype: c.input.dtype });
  if (c.input.transposed_from === undefined) return t.reshape(c.input.sizes);
  return t.reshape(c.input.sizes).transpose(0, 1).contiguous().transpose(0, 1);
}

function run(c: Case, x: Tensor): Tensor[] {
  const dimList = c.args.dim === undefined ? null : Array.isArray(c.args.dim) ? c.args.dim : [c.args.dim];
  const dimOne = c.args.dim === undefined ? null : (c.args.dim as number);
  const keepdim = c.args.keepdim ?? false;
  switch (c.op) {
    case 'sum':
      return [R.sum(ks, x, dimList, keepdim)];
    case 'mean':
      return [R.mean(ks, x, dimList, keepdim)];
    case 'prod':
      return [R.prod(ks, x, dimOne, keepdim)];
    case 'amax':
      return [R.amax(ks, x, dimList ?? [], keepdim)];
    case 'amin':
      return [R.amin(ks, x, dimList ?? [], keepdim)];
    case 'all':
      return [R.all(ks, x, dimList, keepdim)];
    case 'any':
      return [R.any(ks, x, dimList, keepdim)];
    case 'argmax':
      return [R.argmax(ks, x, dimOne, keepdim)];
    case 'argmin':
      return [R.argmin(ks, x, dimOne, keepdim)];
    case 'max_dim':
      return R.maxDim(ks, x, dimOne as number, keepdim);
    case 'min_dim':
      return R.minDim(ks, x, dimOne as number, keepdim);
    case 'var':
      return [R.varCorrection(ks, x, dimList, null, keepdim)];
    case 'std':
      return [R.std(ks, x, dimList, null, keepdim)];
    case 'logsumexp':
      return [R.logsumexp(ks, x, dimList ?? [], keepdim)];
    default:
      throw new Error(`unknown op ${c.op}`);
  }
}

describe('reductions (PyTorch golden)', () => {
  it('covers the fixture', () => expect(golden.cases.length).toBeGreaterThan(1000));
  it.each(golden.cases.map((c, i) => [`${i} ${c.op} ${c.input.dtype}[${c.input.sizes.join(',')}] ${JSON.stringify(c.args)}`, c] as const))(
    '%s',
    (_name, c) => {
      const x = input(c);
      if (c.error !== undefined) {
        expect(() => run(c, x)).toThrow(c.error);
        return;
      }
      const got = run(c, x);
      c.results!.forEach((want, k) => {
        const r = got[k]!;
        expect([dtypeName(r.dtype), r.size()]).toEqual([want.dtype, want.sizes]);
        const values = (r.reshape(-1).tolist() as (number | boolean)[]).map(Number);
        const floating = want.dtype.startsWith('float');
        const tol = want.dtype === 'float64' ? 1e-10 : 1e-5;
        want.values.map(num).forEach((w, i) => {
          const g = values[i]!;
          if (Number.isNaN(w)) expect(g).toBeNaN();
          else if (!floating || !Number.isFinite(w)) expect(g).toBe(w);
          else expect(Math.abs(g - w)).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(w)));
        });
      });
    },
  );

  it('computes shapes and dtypes only on Meta tensors', () => {
    const m = torch.empty(2, 3, 4, { device: 'meta', dtype: 'int32' });
    const r = R.sum(ks, m, [1], true);
    expect([r.isMeta(), r.size(), dtypeName(r.dtype)]).toEqual([true, [2, 1, 4], 'int64']);
  });
});
