// Properties and argument checks of the fills (src/random/distributions.ts). Bit-exactness with torch is
// covered by golden.test.ts.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  Generator,
  bernoulliFill,
  manualSeed,
  normalFill,
  randFill,
  randintFill,
  randnFill,
  randperm,
  randpermFill,
  uniformFill,
} from '../../src/random/index.js';

const seedArb = fc.integer({ min: 0, max: 2 ** 31 });

describe('stream contract', () => {
  it('rand: two consecutive fills equal one fill of the total length', () => {
    fc.assert(
      fc.property(seedArb, fc.integer({ min: 0, max: 700 }), fc.integer({ min: 0, max: 700 }), fc.boolean(), (s, a, b, f32) => {
        const mk = (n: number): Float32Array | Float64Array => (f32 ? new Float32Array(n) : new Float64Array(n));
        const g = new Generator(s);
        const parts = [...randFill(g, mk(a)), ...randFill(g, mk(b))];
        expect(parts).toEqual([...randFill(new Generator(s), mk(a + b))]);
      }),
      { numRuns: 60 },
    );
  });

  it('randn below 16 elements is one cached Box-Muller stream across calls', () => {
    fc.assert(
      fc.property(seedArb, fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 8 }), (s, a, b) => {
        const g = new Generator(s);
        const parts = [...randnFill(g, new Float64Array(a)), ...randnFill(g, new Float64Array(b))];
        expect(parts).toEqual([...randnFill(new Generator(s), new Float64Array(a + b))]);
      }),
      { numRuns: 60 },
    );
  });

  it('randn of 16 or more elements neither reads nor writes the cached normal', () => {
    const g = new Generator(1);
    randnFill(g, new Float64Array(1));
    const cached = g.next_double_normal_sample();
    expect(cached).toBeDefined();
    randnFill(g, new Float32Array(33));
    randnFill(g, new Float64Array(16));
    expect(g.next_double_normal_sample()).toBe(cached);
  });

  it('a non-multiple of 16 redraws the last 16 uniforms (n + 16 draws in all)', () => {
    const g = new Generator(5);
    randnFill(g, new Float32Array(17));
    const h = new Generator(5);
    for (let i = 0; i < 33; i++) h.random();
    expect(g.getState()).toEqual(h.getState());
  });

  it('null or undefined means the default generator', () => {
    manualSeed(11);
    const a = randFill(null, new Float32Array(10));
    expect(a).toEqual(randFill(new Generator(11), new Float32Array(10)));
  });
});

describe('value ranges', () => {
  it('rand: float32 values are k * 2^-24 and float64 values k * 2^-53, in [0, 1)', () => {
    const f = randFill(new Generator(3), new Float32Array(5000));
    const d = randFill(new Generator(3), new Float64Array(5000));
    for (const v of f) expect(Number.isInteger(v * 2 ** 24) && v >= 0 && v < 1).toBe(true);
    for (const v of d) expect(Number.isInteger(v * 2 ** 53) && v >= 0 && v < 1).toBe(true);
  });

  it('uniform stays within [from, to]', () => {
    fc.assert(
      fc.property(
        seedArb,
        fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        (s, from, width) => {
          const to = from + width;
          for (const v of uniformFill(new Generator(s), new Float64Array(50), from, to)) {
            expect(v >= from && v <= to).toBe(true);
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('normal with std 0 is the constant mean', () => {
    expect([...normalFill(new Generator(0), new Float64Array(20), 2.5, 0)]).toEqual(new Array(20).fill(2.5));
    expect([...normalFill(new Generator(0), new Float32Array(3), 2.5, 0)]).toEqual([2.5, 2.5, 2.5]);
  });

  it('randint stays in [low, high) and agrees across array types', () => {
    fc.assert(
      fc.property(seedArb, fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 1, max: 2 ** 30 }), (s, low, width) => {
        const high = low + width;
        const f64 = randintFill(new Generator(s), new Float64Array(40), low, high);
        const i32 = randintFill(new Generator(s), new Int32Array(40), low, high);
        const i64 = randintFill(new Generator(s), new BigInt64Array(40), BigInt(low), BigInt(high));
        expect([...i32]).toEqual([...f64]);
        expect([...i64].map(Number)).toEqual([...f64]);
        for (const v of f64) expect(Number.isInteger(v) && v >= low && v < high).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it('randint covers the whole int64 range in a BigInt64Array', () => {
    const lo = -(2n ** 63n);
    const hi = 2n ** 63n - 1n;
    const v = randintFill(new Generator(0), new BigInt64Array(200), lo, hi);
    expect(v.some((x) => x > 2n ** 62n)).toBe(true);
    expect(v.some((x) => x < -(2n ** 62n))).toBe(true);
  });

  it('randperm is a permutation of 0..n-1', () => {
    fc.assert(
      fc.property(seedArb, fc.integer({ min: 0, max: 3000 }), (s, n) => {
        const p = randperm(new Generator(s), n);
        expect([...p].sort((x, y) => x - y)).toEqual(Array.from({ length: n }, (_, i) => i));
      }),
      { numRuns: 40 },
    );
  });

  it('bernoulli: p = 0 gives zeros, p = 1 ones, and each value costs one random64()', () => {
    const g = new Generator(4);
    expect([...bernoulliFill(g, new Uint8Array(50), 0)]).toEqual(new Array(50).fill(0));
    expect([...bernoulliFill(g, new Int32Array(50), 1)]).toEqual(new Array(50).fill(1));
    const h = new Generator(4);
    randFill(h, new Float64Array(100));
    expect(g.getState()).toEqual(h.getState());
  });

  it('bernoulli with a one-element float64 probability array broadcasts like the scalar', () => {
    const a = bernoulliFill(new Generator(8), new Float32Array(300), 0.3);
    const b = bernoulliFill(new Generator(8), new Float32Array(300), new Float64Array([0.3]));
    expect(b).toEqual(a);
    const big = bernoulliFill(new Generator(8), new BigInt64Array(300), 0.3);
    expect([...big].map(Number)).toEqual([...a]);
  });
});

describe('argument checks (PyTorch wording)', () => {
  const g = new Generator(0);
  it('uniform', () => {
    expect(() => uniformFill(g, new Float64Array(1), 2, 1)).toThrow(
      'uniform_ expects to return a [from, to) range, but found from=2 > to=1',
    );
    expect(() => uniformFill(g, new Float32Array(1), -1e39, 0)).toThrow('from is out of bounds for float');
    expect(() => uniformFill(g, new Float64Array(1), -1e308, 1e308)).toThrow(
      'uniform_ expects to-from <= std::numeric_limits<Double>::max(), but found to=1e+308 and from=-1e+308 which result in to-from to exceed the limit',
    );
  });

  it('normal', () => {
    expect(() => normalFill(g, new Float32Array(3), 0, -1)).toThrow('normal expects std >= 0.0, but found std -1');
    expect(() => normalFill(g, new Float32Array(3), 0, Number.NaN)).toThrow('normal expects std >= 0.0, but found std nan');
  });

  it('randint', () => {
    expect(() => randintFill(g, new Float64Array(3), 5, 5)).toThrow("random_ expects 'from' to be less than 'to', but got from=5 >= to=5");
    expect(() => randintFill(g, new Int32Array(3), -(2 ** 40), 0)).toThrow('from is out of bounds for int');
    expect(() => randintFill(g, new Int8Array(3), 0, 200)).toThrow('to - 1 is out of bounds for signed char');
    expect(() => randintFill(g, new Int16Array(3), 0, 2 ** 20)).toThrow('to - 1 is out of bounds for short int');
    expect(() => randintFill(g, new Uint8Array(3), -1, 2)).toThrow('from is out of bounds for unsigned char');
    expect(() => randintFill(g, new Float32Array(3), 0, 2 ** 25)).toThrow(/to - 1 is out of bounds \[-\(2\^24\), 2\^24\]/);
    expect(() => randintFill(g, new Float64Array(3), 0.5, 2)).toThrow(/pass a bigint/);
  });

  it('randperm and bernoulli', () => {
    expect(() => randperm(g, -1)).toThrow('n must be non-negative, got-1');
    expect(() => randpermFill(g, new Int8Array(300))).toThrow(/does not fit in signed char/);
    expect(() => bernoulliFill(g, new Float32Array(3), 1.5)).toThrow('bernoulli_ expects p to be in [0, 1], but got p=1.5');
    expect(() => bernoulliFill(g, new Float32Array(3), new Float32Array([0.5, 2, 0.5]))).toThrow(/Expected p_in >= 0 && p_in <= 1/);
    expect(() => bernoulliFill(g, new Float32Array(3), new Float32Array(2))).toThrow(/must broadcast/);
  });
});
