// Unit tests of the mt19937 engine and the Generator API (src/random/Generator.ts). Bit-exactness with
// torch is covered by golden.test.ts; these pin the engine to the MT19937 reference and check the API.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  CPU_GENERATOR_STATE_SIZE,
  Generator,
  defaultGenerator,
  initialSeed,
  manualSeed,
  randFill,
  randnFill,
  seed,
} from '../../src/random/index.js';

describe('mt19937 engine', () => {
  it('matches the C++ standard reference: std::mt19937 seeded with 5489', () => {
    // [rand.predef]: the 10000th consecutive invocation of a default-constructed mt19937 is 4123659995.
    const g = new Generator(5489);
    expect(g.random()).toBe(3499211612);
    let v = 0;
    for (let i = 2; i <= 10000; i++) v = g.random();
    expect(v).toBe(4123659995);
  });

  it('random64() is two random() words, the first one high', () => {
    const a = new Generator(7);
    const b = new Generator(7);
    for (let i = 0; i < 1000; i++) {
      const hi = BigInt(b.random());
      const lo = BigInt(b.random());
      expect(a.random64()).toBe((hi << 32n) | lo);
    }
  });

  it('random() always returns a uint32', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), fc.integer({ min: 1, max: 2000 }), (s, n) => {
        const g = new Generator(s);
        for (let i = 0; i < n; i++) {
          const v = g.random();
          if (!(Number.isInteger(v) && v >= 0 && v <= 0xffffffff)) return false;
        }
        return true;
      }),
      { numRuns: 50 },
    );
  });
});

describe('seeding', () => {
  it('the default seed is at::default_rng_seed_val', () => {
    expect(new Generator().initialSeed()).toBe(67280421310721n);
  });

  it('keeps the 64-bit seed but seeds the engine with its low 32 bits', () => {
    const g = new Generator(2n ** 32n + 5n);
    expect(g.initialSeed()).toBe(4294967301n);
    expect(randFill(g, new Float64Array(20))).toEqual(randFill(new Generator(5), new Float64Array(20)));
  });

  it('reads negative seeds as int64 reinterpreted as uint64, like THPGenerator_manualSeed', () => {
    expect(new Generator(-1).initialSeed()).toBe(2n ** 64n - 1n);
    expect(new Generator(-(2n ** 63n)).initialSeed()).toBe(2n ** 63n);
  });

  it('rejects seeds outside [-2^63, 2^64) and non-integers', () => {
    expect(() => new Generator(2n ** 64n)).toThrow(/Overflow when unpacking long long/);
    expect(() => new Generator(-(2n ** 63n) - 1n)).toThrow(/Overflow when unpacking long long/);
    expect(() => new Generator(1.5)).toThrow(/integer seed, but got 1.5/);
    expect(() => new Generator(2 ** 60)).toThrow(/pass the seed as a bigint/);
  });

  it('manualSeed resets the stream and the cached normal', () => {
    const g = new Generator(3);
    const first = randnFill(g, new Float64Array(3)); // leaves a cached normal
    expect(g.next_double_normal_sample()).toBeDefined();
    g.manualSeed(3);
    expect(g.next_double_normal_sample()).toBeUndefined();
    expect(randnFill(g, new Float64Array(3))).toEqual(first);
  });

  it('seed() picks a fresh 64-bit seed and reports it', () => {
    const g = new Generator(0);
    const s = g.seed();
    expect(typeof s).toBe('bigint');
    expect(g.initialSeed()).toBe(s);
    expect(randFill(g, new Float32Array(5))).toEqual(randFill(new Generator(s), new Float32Array(5)));
  });
});

describe('the default generator', () => {
  it('torch.manual_seed seeds the process-wide generator that fills use by default', () => {
    const g = manualSeed(42);
    expect(g).toBe(defaultGenerator());
    expect(initialSeed()).toBe(42n);
    const a = randnFill(undefined, new Float32Array(20));
    const b = randnFill(new Generator(42), new Float32Array(20));
    expect(a).toEqual(b);
    const s = seed();
    expect(initialSeed()).toBe(s);
  });
});

describe('getState / setState', () => {
  it('has the size and layout of CPUGeneratorImplState', () => {
    const g = new Generator(0x1234_5678_9abc_def0n);
    const bytes = g.getState();
    expect(bytes.length).toBe(CPU_GENERATOR_STATE_SIZE);
    const dv = new DataView(bytes.buffer);
    expect(dv.getBigUint64(0, true)).toBe(0x1234_5678_9abc_def0n); // the_initial_seed
    expect(dv.getInt32(8, true)).toBe(1); // left
    expect(dv.getInt32(12, true)).toBe(1); // seeded
    expect(dv.getBigUint64(16, true)).toBe(0n); // next
    expect(dv.getBigUint64(24, true)).toBe(0x9abc_def0n); // state[0] = low 32 bits of the seed
  });

  it('round-trips through bytes, including both cached normals', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), fc.integer({ min: 0, max: 1500 }), (s, skip) => {
        const g = new Generator(s);
        randFill(g, new Float64Array(skip));
        randnFill(g, new Float64Array(1)); // caches a double normal
        g.set_next_float_normal_sample(0.25);
        const h = new Generator().setState(g.getState());
        expect(h.next_double_normal_sample()).toBe(g.next_double_normal_sample());
        expect(h.next_float_normal_sample()).toBe(0.25);
        expect(randnFill(h, new Float64Array(7))).toEqual(randnFill(g, new Float64Array(7)));
      }),
      { numRuns: 30 },
    );
  });

  it('validates the size and the engine fields', () => {
    const g = new Generator(0);
    expect(() => g.setState(new Uint8Array(10))).toThrow(
      'Expected a CPUGeneratorImplState of size 5056 but found the input RNG state size to be 10',
    );
    const bad = g.getState();
    new DataView(bad.buffer).setInt32(8, 0, true); // left = 0
    expect(() => g.setState(bad)).toThrow(/Invalid mt19937 state/);
  });

  it('clone() is independent', () => {
    const g = new Generator(9);
    randnFill(g, new Float64Array(1));
    const c = g.clone();
    expect(randnFill(c, new Float64Array(5))).toEqual(randnFill(g, new Float64Array(5)));
    randFill(c, new Float32Array(3));
    expect(c.getState()).not.toEqual(g.getState());
  });
});
