// int64 at the edge of its range, as PyTorch 2.13 computes it, on contiguous tensors and strided views: aten-ts
// stores int64 as doubles, so one rule decides what a result outside [-2^63, 2^63) or past 2^53 becomes
// (Note [Typed storage of each dtype] in src/tensor/Storage.ts), on every loop (vectorised runs, the converting
// loop, the same-shape fast path, reductions, conversions).
// Fixture: test/golden/int64_edges.json (tools/golden/gen_int64_edges.py).
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import { loadGolden } from '../golden.js';

type F = number | 'nan' | 'inf' | '-inf';
interface Case {
  op: string;
  input: (string | F)[];
  result: string[];
}
const golden = loadGolden<{ cases: Case[] }>('int64_edges.json');

const TWO63 = 2n ** 63n;
/** The largest double below 2^63: the largest value an int64 element holds. */
const MAX_STORED = 2 ** 63 - 1024;

/** The double an exact int64 value is stored as: the nearest (ties to even), at most MAX_STORED. */
function stored(v: bigint): number {
  const d = Number(v);
  return d >= 2 ** 63 ? MAX_STORED : d;
}

/** The exact (unbounded) integer result of each op, to tell results PyTorch wraps from those it holds. */
const EXACT: Record<string, (xs: bigint[]) => bigint[]> = {
  bitwise_not: (xs) => xs.map((a) => -a - 1n),
  neg: (xs) => xs.map((a) => -a),
  abs: (xs) => xs.map((a) => (a < 0n ? -a : a)),
  add: (xs) => xs.map((a) => a + a),
  mul: (xs) => xs.map((a) => a * a),
  mul_scalar: (xs) => xs.map((a) => a * 2n),
  add_scalar: (xs) => xs.map((a) => a + 2n ** 62n),
  sum: (xs) => [xs.reduce((p, a) => p + a, 0n)],
  cumsum: (xs) => xs.map((_, i) => xs.slice(0, i + 1).reduce((p, a) => p + a, 0n)),
  sub_scalar: (xs) => xs.map((a) => a - 1n),
};

const RUN: Record<string, (t: Tensor) => Tensor> = {
  bitwise_not: (t) => t.bitwise_not(),
  neg: (t) => t.neg(),
  abs: (t) => t.abs(),
  add: (t) => t.add(t),
  mul: (t) => t.mul(t),
  mul_scalar: (t) => t.mul(2),
  add_scalar: (t) => t.add(2 ** 62),
  sum: (t) => t.sum(),
  cumsum: (t) => t.cumsum(0),
  sub_scalar: (t) => t.sub(1),
  to_int64: (t) => t.to(torch.int64),
};

const num = (v: string | F): number => (v === 'nan' ? NaN : v === 'inf' ? Infinity : v === '-inf' ? -Infinity : Number(v));

/** The same values as a contiguous tensor and as every other element of a twice-as-long one. */
function layouts(values: number[], dtype: string): [Tensor, Tensor] {
  const contiguous = torch.tensor(values, { dtype });
  const wide = torch.tensor(
    values.flatMap((v) => [v, 0]),
    { dtype },
  );
  const strided = wide.slice(0, 0, 2 * values.length, 2);
  expect(strided.isContiguous()).toBe(false);
  return [contiguous, strided];
}

describe('int64 at the edge of its range (PyTorch 2.13 goldens)', () => {
  for (const c of golden.cases) {
    it(c.op, () => {
      const run = RUN[c.op];
      if (run === undefined) throw new Error(`int64_edges.json: unknown op '${c.op}'`);
      const isConversion = c.op === 'to_int64';
      const [contiguous, strided] = layouts(c.input.map(num), isConversion ? 'float64' : 'int64');
      const a = run(contiguous).reshape([-1]).tolist() as number[];
      const b = run(strided).reshape([-1]).tolist() as number[];
      expect(b).toEqual(a); // one rule on every loop
      const want = c.result.map(BigInt);
      if (isConversion) {
        expect(a).toEqual(want.map(Number)); // truncation; NaN, inf and out-of-range give INT64_MIN, as x86
        return;
      }
      const exact = EXACT[c.op]!(c.input.map((v) => BigInt(v as string)));
      exact.forEach((e, i) => {
        if (e >= -TWO63 && e < TWO63) {
          expect(want[i]).toBe(e); // PyTorch holds it: the nearest stored double
          expect(a[i]).toBe(stored(e));
        } else {
          expect(a[i]).toBe(-(2 ** 63)); // out of range: INT64_MIN (PyTorch wraps; equal when it wraps to -2^63)
        }
      });
    });
  }
});
