// Conformance of src/random with torch 2.13's CPU generator, against test/golden/random.json
// (tools/golden/gen_random.py; the encodings are described in tools/golden/README.md).
import { describe, expect, it } from 'vitest';
import { loadGolden } from '../golden.js';
import {
  Generator,
  bernoulliFill,
  normalFill,
  randFill,
  randintFill,
  randnFill,
  randpermFill,
  uniformFill,
} from '../../src/random/index.js';
import { OFF_NORMAL_Y } from '../../src/random/Generator.js';
import { torch } from '../../src/index.js';

type Dtype = 'float32' | 'float64' | 'int64' | 'int32' | 'int8';

interface Step {
  op:
    | 'rand'
    | 'randn'
    | 'uniform'
    | 'normal'
    | 'randint'
    | 'randperm'
    | 'random_'
    | 'random_to'
    | 'random_from'
    | 'bernoulli_p'
    | 'bernoulli_tensor';
  dtype: Dtype;
  n: number;
  args?: {
    from?: number;
    to?: number;
    mean?: number;
    std?: number;
    low?: number | string;
    high?: number | string;
    p?: number;
    probs_seed?: number;
  };
}

type Encoded = (number | string)[] | string;

interface Case extends Step {
  seed: number | string;
  probs?: (number | string)[];
  values: Encoded;
}

interface Sequence {
  seed: number | string;
  steps: (Step & { values: Encoded })[];
  state_after: string;
  continuation_randn_float64_5: string[];
}

interface RandomGolden {
  platform: { machine: string; cpu_capability: string; libc: string };
  seed_cases: { seed: string; initial_seed: string; rand_float64_5: string[] }[];
  states: { default_constructed: { initial_seed: string; state: string }; seed_0: string };
  cases: Case[];
  sequences: Sequence[];
}

const G = loadGolden<RandomGolden>('random.json');

// ---- encodings (same as gen_random.py) ----

function encF32(a: Float32Array): number[] {
  return Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length));
}

function encF64(a: Float64Array): string[] {
  return Array.from(new BigUint64Array(a.buffer, a.byteOffset, a.length), (b) => b.toString(16).padStart(16, '0'));
}

function encInt(a: ArrayLike<number | bigint>): (number | string)[] {
  return Array.from(a, (v) => {
    const b = BigInt(v);
    return b <= 2n ** 53n && b >= -(2n ** 53n) ? Number(b) : b.toString();
  });
}

function enc01(a: ArrayLike<number>): string {
  return Array.from(a, (v) => (v === 1 ? '1' : '0')).join('');
}

function decF32(bits: (number | string)[]): Float32Array {
  return new Float32Array(Uint32Array.from(bits, Number).buffer);
}

function decF64(hex: (number | string)[]): Float64Array {
  return new Float64Array(BigUint64Array.from(hex, (h) => BigInt(`0x${String(h)}`)).buffer);
}

function hexToBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function bytesToHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function floatArray(dtype: Dtype, n: number): Float32Array | Float64Array {
  if (dtype === 'float32') return new Float32Array(n);
  if (dtype === 'float64') return new Float64Array(n);
  throw new Error(`not a float dtype: ${dtype}`);
}

function encFloat(a: Float32Array | Float64Array): Encoded {
  return a instanceof Float32Array ? encF32(a) : encF64(a);
}

function probsFor(step: Step, encoded: (number | string)[] | undefined): Float32Array | Float64Array {
  if (encoded === undefined) throw new Error('bernoulli_tensor case without probs');
  return step.dtype === 'float32' ? decF32(encoded) : decF64(encoded);
}

/** Runs one fixture step on `g` and encodes the result like gen_random.py. */
function runStep(g: Generator, step: Step, probs?: (number | string)[]): Encoded {
  const a = step.args ?? {};
  switch (step.op) {
    case 'rand':
      return encFloat(randFill(g, floatArray(step.dtype, step.n)));
    case 'randn':
      return encFloat(randnFill(g, floatArray(step.dtype, step.n)));
    case 'uniform':
      return encFloat(uniformFill(g, floatArray(step.dtype, step.n), a.from, a.to));
    case 'normal':
      return encFloat(normalFill(g, floatArray(step.dtype, step.n), a.mean, a.std));
    case 'randint': {
      const low = BigInt(a.low ?? 0);
      const high = BigInt(a.high ?? 0);
      if (step.dtype === 'int64') return encInt(randintFill(g, new BigInt64Array(step.n), low, high));
      if (step.dtype === 'int32') return encInt(randintFill(g, new Int32Array(step.n), low, high));
      if (step.dtype === 'int8') return encInt(randintFill(g, new Int8Array(step.n), low, high));
      if (step.dtype === 'float32') return encF32(randintFill(g, new Float32Array(step.n), low, high));
      return encF64(randintFill(g, new Float64Array(step.n), low, high));
    }
    case 'randperm':
      if (step.dtype === 'int64') return encInt(randpermFill(g, new Float64Array(step.n)));
      if (step.dtype === 'int32') return encInt(randpermFill(g, new Int32Array(step.n)));
      if (step.dtype === 'float32') return encF32(randpermFill(g, new Float32Array(step.n)));
      throw new Error(`randperm dtype ${step.dtype}`);
    case 'random_':
    case 'random_to':
    case 'random_from': {
      // the operators on a tensor (Tensor.random_'s overloads), read back in the fixture's encoding
      const t = torch.empty([step.n], { dtype: step.dtype });
      if (step.op === 'random_') t.random_({ generator: g });
      else if (step.op === 'random_to') t.random_(a.to as number, { generator: g });
      else t.random_(a.from as number, null, { generator: g });
      const { data, base } = t.dataView();
      const v = data.subarray(base, base + step.n);
      if (step.dtype === 'float32') return encF32(v as Float32Array);
      if (step.dtype === 'float64') return encF64(v as Float64Array);
      return encInt(v as ArrayLike<number>);
    }
    case 'bernoulli_p':
      return enc01(bernoulliFill(g, new Float32Array(step.n), a.p ?? Number.NaN));
    case 'bernoulli_tensor':
      return enc01(bernoulliFill(g, floatArray(step.dtype, step.n), probsFor(step, probs)));
  }
}

/**
 * Compares a step's result with torch's. Normals that go through the C library's log/sin/cos (float64, and
 * any dtype below 16 values) match to a few ulps only (see Note [Normals and the C library's libm]);
 * everything else must be bit-identical.
 */
function expectStep(step: Step, got: Encoded, want: Encoded, what: string): void {
  const libmPath = (step.op === 'randn' || step.op === 'normal') && (step.dtype === 'float64' || step.n < 16);
  if (!libmPath || typeof got === 'string' || typeof want === 'string') {
    expect(got, what).toEqual(want);
    return;
  }
  const dec = step.dtype === 'float32' ? decF32 : decF64;
  const g = dec(got);
  const w = dec(want);
  const eps = step.dtype === 'float32' ? 2 ** -23 : 2 ** -52;
  expect(g.length, what).toBe(w.length);
  for (let i = 0; i < w.length; i++) {
    const tol = 8 * eps * Math.max(1, Math.abs(w[i] as number));
    expect(Math.abs((g[i] as number) - (w[i] as number)), `${what} [${i}]`).toBeLessThanOrEqual(tol);
  }
}

function seedOf(s: number | string): bigint {
  return BigInt(s);
}

function label(c: Case): string {
  const args = c.args === undefined ? '' : ` ${JSON.stringify(c.args)}`;
  return `seed=${String(c.seed)} ${c.op} ${c.dtype} n=${c.n}${args}`;
}

describe('random.json provenance', () => {
  it('was generated on the platform the bit-exact claims are about', () => {
    expect(G.platform.machine).toBe('x86_64');
    expect(['AVX2', 'AVX512']).toContain(G.platform.cpu_capability);
    expect(G.platform.libc.startsWith('glibc')).toBe(true);
  });
});

describe('single calls on a freshly seeded generator', () => {
  const byOp = new Map<string, Case[]>();
  for (const c of G.cases) {
    const key = `${c.op} ${c.dtype}`;
    byOp.set(key, [...(byOp.get(key) ?? []), c]);
  }
  for (const [key, cases] of byOp) {
    it.each(cases.map((c) => [label(c), c] as const))(`${key}: %s`, (_name, c) => {
      expectStep(c, runStep(new Generator(seedOf(c.seed)), c, c.probs), c.values, label(c));
    });
  }

  it('int64 randint into a Float64Array (aten-ts int64 storage) gives the same values, rounded beyond 2^53', () => {
    for (const c of G.cases.filter((x) => x.op === 'randint' && x.dtype === 'int64')) {
      const a = c.args ?? {};
      const got = randintFill(new Generator(seedOf(c.seed)), new Float64Array(c.n), BigInt(a.low ?? 0), BigInt(a.high ?? 0));
      const want = (c.values as (number | string)[]).map((v) => Number(BigInt(v)));
      expect(Array.from(got), label(c)).toEqual(want);
    }
  });

  it('randperm into an Int32Array or BigInt64Array is the same permutation', () => {
    for (const c of G.cases.filter((x) => x.op === 'randperm' && x.dtype === 'int64')) {
      const i32 = randpermFill(new Generator(seedOf(c.seed)), new Int32Array(c.n));
      const i64 = randpermFill(new Generator(seedOf(c.seed)), new BigInt64Array(c.n));
      expect(encInt(i32), label(c)).toEqual(c.values);
      expect(encInt(i64), label(c)).toEqual(c.values);
    }
  });
});

describe('sequences of mixed calls on one generator', () => {
  for (const seq of G.sequences) {
    it(`seed=${String(seq.seed)}: every step, then the saved state`, () => {
      const g = new Generator(seedOf(seq.seed));
      seq.steps.forEach((step, i) => {
        expectStep(step, runStep(g, step), step.values, `step ${i}: ${step.op} ${step.dtype} n=${step.n}`);
      });
      // The state embeds the cached double normal (see Note [Normals and the C library's libm]): compare
      // everything else exactly and that value to a few ulps.
      const state = g.getState();
      const want = hexToBytes(seq.state_after);
      const cached = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset).getFloat64(OFF_NORMAL_Y, true);
      expect(Math.abs(cached(state) - cached(want))).toBeLessThanOrEqual(8 * 2 ** -52 * Math.max(1, Math.abs(cached(want))));
      state.fill(0, OFF_NORMAL_Y, OFF_NORMAL_Y + 8);
      want.fill(0, OFF_NORMAL_Y, OFF_NORMAL_Y + 8);
      expect(bytesToHex(state)).toBe(bytesToHex(want));
      const cont: Step = { op: 'randn', dtype: 'float64', n: 5 } as Step;
      expectStep(cont, encF64(randnFill(g, new Float64Array(5))), seq.continuation_randn_float64_5, 'continuation');
    });

    it(`seed=${String(seq.seed)}: setState with torch's bytes continues like torch`, () => {
      const g = new Generator().setState(hexToBytes(seq.state_after));
      const cont: Step = { op: 'randn', dtype: 'float64', n: 5 } as Step;
      expectStep(cont, encF64(randnFill(g, new Float64Array(5))), seq.continuation_randn_float64_5, 'continuation');
      expect(g.initialSeed()).toBe(seedOf(seq.seed));
    });
  }
});

describe('seeds and states', () => {
  it.each(G.seed_cases.map((c) => [c.seed, c] as const))('manualSeed(%s)', (_s, c) => {
    const g = new Generator(BigInt(c.seed));
    expect(g.initialSeed()).toBe(BigInt(c.initial_seed));
    expect(encF64(randFill(g, new Float64Array(5)))).toEqual(c.rand_float64_5);
  });

  it('a default-constructed generator matches torch.Generator()', () => {
    const g = new Generator();
    expect(g.initialSeed().toString()).toBe(G.states.default_constructed.initial_seed);
    expect(bytesToHex(g.getState())).toBe(G.states.default_constructed.state);
  });

  it('getState after manualSeed(0) is byte-identical to torch', () => {
    expect(bytesToHex(new Generator(0).getState())).toBe(G.states.seed_0);
  });
});
