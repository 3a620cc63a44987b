// torch.rand / randint / randperm / uniform_ through the dispatcher give PyTorch's values for a seed.
// Fixture: test/golden/random.json (tools/golden/gen_random.py).
import { describe, expect, it } from 'vitest';
import { torch } from '../../src/api/index.js';
import { loadGolden } from '../golden.js';

interface Case {
  seed: number | string;
  op: string;
  dtype: string;
  n: number;
  args?: { low?: number | string; high?: number | string; from?: number; to?: number };
  values: (number | string)[] | string;
}
const G = loadGolden<{ cases: Case[] }>('random.json');

function decode(dtype: string, values: (number | string)[]): number[] {
  if (dtype === 'float32') return values.map((b) => new Float32Array(new Uint32Array([Number(b)]).buffer)[0]!);
  if (dtype === 'float64') {
    return values.map((h) => {
      const v = new DataView(new ArrayBuffer(8));
      v.setBigUint64(0, BigInt(`0x${String(h)}`));
      return v.getFloat64(0);
    });
  }
  return values.map(Number);
}

const generator = (c: Case) => new torch.Generator(BigInt(c.seed));
const small = (x: number | string | undefined) => Math.abs(Number(x ?? 0)) < 2 ** 53;

describe('sampling through the dispatcher (PyTorch golden)', () => {
  const cases = G.cases.filter(
    (c) =>
      ((c.op === 'rand' || c.op === 'uniform') && (c.dtype === 'float32' || c.dtype === 'float64')) ||
      (c.op === 'randint' && c.dtype === 'int64' && small(c.args?.low) && small(c.args?.high)) ||
      (c.op === 'randperm' && c.dtype === 'int64'),
  );
  it('covers the fixture', () => expect(cases.length).toBeGreaterThan(50));
  it.each(cases.map((c) => [`${c.op} ${c.dtype} n=${c.n} seed=${String(c.seed)}`, c] as const))('%s', (_name, c) => {
    const want = decode(c.dtype, c.values as (number | string)[]);
    const opts = { dtype: c.dtype, generator: generator(c) };
    let t;
    if (c.op === 'rand') t = torch.rand(c.n, opts);
    else if (c.op === 'uniform') t = torch.empty(c.n, { dtype: c.dtype }).uniform_(c.args?.from, c.args?.to, opts);
    else if (c.op === 'randint') t = torch.randint(Number(c.args?.low), Number(c.args?.high), [c.n], opts);
    else t = torch.randperm(c.n, opts);
    expect(t.tolist()).toEqual(want);
  });

  it('uses the default generator after manualSeed, and a fresh seed repeats the stream', () => {
    torch.manualSeed(7);
    const a = torch.randn(20).tolist();
    torch.manualSeed(7);
    expect(torch.randn(20).tolist()).toEqual(a);
    expect(torch.rand(2, 3).size()).toEqual([2, 3]);
  });

  it('rejects bad arguments with PyTorch errors', () => {
    expect(() => torch.randint(5, 5, [2])).toThrow("random_ expects 'from' to be less than 'to', but got from=5 >= to=5");
    expect(() => torch.zeros(2, { dtype: 'int64' }).uniform_()).toThrow('"check_uniform_bounds" not implemented for \'Long\'');
    expect(() => torch.zeros(2).normal_(0, -1)).toThrow('normal expects std >= 0.0, but found std -1');
  });

  it('runs on meta tensors without data', () => {
    const m = torch.randn(3, 4, { device: 'meta' });
    expect(m.isMeta()).toBe(true);
    expect(m.size()).toEqual([3, 4]);
  });
});
