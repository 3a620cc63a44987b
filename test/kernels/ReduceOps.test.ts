// Reductions against PyTorch 2.13: result dtypes, shapes, values (floating sums to a relative tolerance,
// see Note [Reduction order]) and errors. Fixture: test/golden/reduce.json (tools/golden/gen_reduce.py).
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import { DispatchKey, DispatchKeySet, dtypeName, parseScalarType } from '../../src/c10/index.js';
import { aten } from '../../src/generated/Operators.js';
import { atenCpu } from '../../src/generated/CPUFunctions.js';
import { setWarningHandler } from '../../src/c10/Warning.js';
import * as ReduceOpsKernels from '../../src/kernels/ReduceOps.js';
import * as TensorCompareKernels from '../../src/kernels/TensorCompare.js';

// the reductions (ReduceOps.ts) and max.dim/min.dim (TensorCompare.ts), under one name for the tests below.
const R = { ...ReduceOpsKernels, ...TensorCompareKernels };
import { loadGolden } from '../golden.js';

type V = number | boolean | 'nan' | 'inf' | '-inf';
interface Case {
  op: string;
  input: { dtype: string; sizes: number[]; values: V[]; transposed_from?: number[] };
  args: { dim?: number | number[]; keepdim?: boolean };
  results?: { dtype: string; sizes: number[]; values: V[] }[];
  error?: string;
}
interface OutCase {
  op: string;
  input: { dtype: string; sizes: number[]; values: V[] };
  args: { dim?: number | number[]; keepdim?: boolean; dtype?: string; p?: number };
  out: { dtype: string; sizes: number[] };
  result?: { dtype: string; sizes: number[]; values: V[] };
  /** max.dim_max / min.dim_min: the second out= tensor and what it holds afterwards. */
  out_indices?: { dtype: string; sizes: number[] };
  result_indices?: { dtype: string; sizes: number[]; values: V[] };
  error?: string;
  /** null: PyTorch logged the warning outside Python (unknown). */
  warned: boolean | null;
  /** How many resize warnings PyTorch gave (one per resized output; the MetaBase kernels' cases). */
  warnings?: number;
}
const golden = loadGolden<{ cases: Case[]; out_cases: OutCase[] }>('reduce.json');
const ks = DispatchKeySet.fromKey(DispatchKey.CPU);
const num = (v: V): number =>
  typeof v === 'boolean' ? Number(v) : v === 'nan' ? NaN : v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v;

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
        expect([dtypeName(r.scalarType), r.size()]).toEqual([want.dtype, want.sizes]);
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
    expect([r.isMeta(), r.size(), dtypeName(r.scalarType)]).toEqual([true, [2, 1, 4], 'int64']);
  });
});

/** The out= call through the generated front end (torch.<op>(..., { out })), as the golden script makes it. */
function runOut(c: OutCase, x: Tensor, out: Tensor, outIndices: Tensor | null): Tensor {
  const a = c.args;
  const keepdim = a.keepdim ?? false;
  const dtype = a.dtype ?? null;
  switch (c.op) {
    case 'sum':
      return torch.sum(x, a.dim as number[], keepdim, { dtype, out });
    case 'mean':
      return torch.mean(x, a.dim as number[], keepdim, { dtype, out });
    case 'prod':
      return torch.prod(x, a.dim as number, keepdim, { dtype, out });
    case 'amax':
      return torch.amax(x, a.dim as number[], keepdim, { out });
    case 'amin':
      return torch.amin(x, a.dim as number[], keepdim, { out });
    case 'all':
      return a.dim === undefined ? torch.all(x, { out }) : torch.all(x, a.dim as number[], keepdim, { out });
    case 'any':
      return a.dim === undefined ? torch.any(x, { out }) : torch.any(x, a.dim as number[], keepdim, { out });
    case 'argmax':
      return torch.argmax(x, (a.dim as number | undefined) ?? null, keepdim, { out });
    case 'argmin':
      return torch.argmin(x, (a.dim as number | undefined) ?? null, keepdim, { out });
    case 'norm':
      return atenCpu.norm_out(out, x, a.p!, a.dim as number[], keepdim);
    case 'cumsum':
      return torch.cumsum(x, a.dim as number, { dtype, out });
    case 'cumprod':
      return torch.cumprod(x, a.dim as number, { dtype, out });
    case 'max_dim':
    case 'min_dim': {
      // Through the dispatcher (the Python binding's out=(values, indices) tuple is not generated yet).
      const handle = c.op === 'max_dim' ? aten().max_dim_max : aten().min_dim_min;
      const [v, i] = handle.call(x, a.dim as number, keepdim, out, outIndices!);
      expect(i).toBe(outIndices);
      return v;
    }
    default:
      throw new Error(`unknown op ${c.op}`);
  }
}

describe('out= overloads of the structured reductions (PyTorch golden)', () => {
  it('covers the fixture', () => expect(golden.out_cases.length).toBeGreaterThan(55));
  it.each(
    golden.out_cases.map((c, i) => [`${i} ${c.op} ${JSON.stringify(c.args)} out=${c.out.dtype}[${c.out.sizes.join(',')}]`, c] as const),
  )('%s', (_name, c) => {
    const x = torch.tensor(c.input.values.map(num), { dtype: c.input.dtype }).reshape(c.input.sizes);
    const out = torch.full(c.out.sizes, 7, { dtype: c.out.dtype });
    const outIndices = c.out_indices === undefined ? null : torch.full(c.out_indices.sizes, 7, { dtype: c.out_indices.dtype });
    const warnings: string[] = [];
    const old = setWarningHandler((m) => warnings.push(m));
    try {
      if (c.error !== undefined) {
        expect(() => runOut(c, x, out, outIndices)).toThrow(c.error);
        return;
      }
      const version = out._version;
      const indicesVersion = outIndices?._version;
      const r = runOut(c, x, out, outIndices);
      expect(r).toBe(out);
      // Through the dispatcher the ADInplaceOrView kernel bumps out's version once; norm is called through
      // its direct entry point (atenCpu), which, like at::cpu::, leaves the counter alone.
      expect(out._version).toBe(c.op === 'norm' ? version : version + 1);
      const want = c.result!;
      expect([dtypeName(out.scalarType), out.size()]).toEqual([want.dtype, want.sizes]);
      const values = (out.reshape(-1).tolist() as (number | boolean)[]).map(Number);
      const tol = want.dtype === 'float64' ? 1e-10 : 1e-5;
      want.values.map(num).forEach((w, i) => expect(Math.abs(values[i]! - w)).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(w))));
      if (outIndices !== null) {
        const wi = c.result_indices!;
        expect(outIndices._version).toBe(indicesVersion! + 1);
        expect([dtypeName(outIndices.scalarType), outIndices.size(), outIndices.reshape(-1).tolist()]).toEqual([
          wi.dtype,
          wi.sizes,
          wi.values,
        ]);
      }
    } finally {
      setWarningHandler(old);
    }
    const resized = warnings.filter((m) => m.includes('was resized since it had shape'));
    if (c.warned !== null) expect(resized.length > 0).toBe(c.warned);
    if (c.warnings !== undefined) expect(resized.length).toBe(c.warnings);
  });

  it('gives the same results through the dispatcher, atenCpu and the Meta kernels', () => {
    const x = torch.arange(24, { dtype: 'float32' }).reshape(2, 3, 4);
    const viaTorch = torch.sum(x, [0, 2], true);
    const out = torch.empty(0);
    expect(atenCpu.sum_out(out, x, [0, 2], true)).toBe(out);
    expect(out.tolist()).toEqual(viaTorch.tolist());
    expect(viaTorch.tolist()).toEqual([[[60], [92], [124]]]); // sum over i, k of 12i + 4j + k = 60 + 32j
    const m = torch.empty(2, 3, 4, { device: 'meta' });
    const mo = torch.empty(0, { device: 'meta', dtype: 'int64' });
    expect(torch.argmax(m, 1, false, { out: mo })).toBe(mo);
    expect([mo.isMeta(), mo.size()]).toEqual([true, [2, 4]]);
    expect(torch.amax(m, [0, 1]).size()).toEqual([4]);
  });

  it('reads transposed and sliced inputs through the reduction iterator', () => {
    const base = torch.arange(60, { dtype: 'float64' }).reshape(3, 4, 5);
    const t = base.permute([2, 0, 1]); // [5, 3, 4], no dim contiguous with another
    const want = (f: (v: number[]) => number, dims: number[]) => {
      // reference: reduce the contiguous copy by hand over `dims`
      const c = t.contiguous();
      const flat = c.reshape(-1).tolist() as number[];
      const sizes = c.size();
      const groups = new Map<string, number[]>();
      flat.forEach((v, i) => {
        const idx = [Math.floor(i / 12), Math.floor(i / 4) % 3, i % 4];
        const key = idx.map((k, d) => (dims.includes(d) ? 0 : k)).join(',');
        (groups.get(key) ?? groups.set(key, []).get(key)!).push(v);
      });
      expect(sizes).toEqual([5, 3, 4]);
      return [...groups.values()].map(f);
    };
    expect(torch.sum(t, [0, 2]).tolist()).toEqual(want((v) => v.reduce((a, b) => a + b, 0), [0, 2]));
    expect(torch.amax(t, [1]).reshape(-1).tolist()).toEqual(want((v) => Math.max(...v), [1]));
    expect(torch.argmax(t).item()).toBe((59 % 5) * 12 + 11); // the flat index of the max (59) in t's row-major order
    const h = t.to(parseScalarType('float16'));
    expect(torch.sum(h, [0, 2], false, { dtype: 'float64' }).tolist()).toEqual(want((v) => v.reduce((a, b) => a + b, 0), [0, 2]));
  });

  it('fills empty reductions with the identity and keeps an out= on its shape', () => {
    const e = torch.zeros(2, 0);
    expect(torch.sum(e, 1).tolist()).toEqual([0, 0]);
    expect(torch.prod(e, 1).tolist()).toEqual([1, 1]);
    expect(torch.all(e, 1).tolist()).toEqual([true, true]);
    expect(torch.any(e, 1).tolist()).toEqual([false, false]);
    expect((torch.mean(e, 1).tolist() as number[]).every(Number.isNaN)).toBe(true);
    const out = torch.full([2], 7);
    torch.sum(e, [1], false, { out });
    expect(out.tolist()).toEqual([0, 0]);
  });

  it('reads a multi-element input in the out= dtype for all/any, as PyTorch does (uint8 truncates 0.5)', () => {
    const out = torch.empty(0, { dtype: 'uint8' });
    expect(torch.all(torch.tensor([0.5, 0.7]), { out }).item()).toBe(0);
    expect(torch.all(torch.tensor([0.5]), { out }).item()).toBe(1);
    expect(torch.all(torch.tensor([0.5, 0.7])).item()).toBe(true);
  });
});
