// The CPU random number generator: PyTorch's mt19937 engine and CPUGeneratorImpl, plus the process-wide
// default generator behind `torch.manual_seed`.
// Mirrors aten/src/ATen/core/MT19937RNGEngine.h (mt19937_engine), aten/src/ATen/CPUGeneratorImpl.cpp
// (random, random64, the cached normal samples, get_state/set_state) and c10/core/GeneratorImpl.cpp
// (getNonDeterministicRandom), with the seed handling of torch/csrc/Generator.cpp (THPGenerator_manualSeed).

// Note [mt19937 in 32-bit integer arithmetic]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The engine is the reference MT19937 (Matsumoto & Nishimura, with Cokus's optimisation) exactly as
// ATen writes it: a 624-word state, `left` counting down to the next twist and `next` indexing the word
// to temper. Everything is 32-bit bit operations, which JS performs on int32 values, so the words are
// kept in an Int32Array (the same bits as C's uint32_t; reading them never produces a heap number) and
// only results leave as unsigned (`>>> 0`). Math.imul does the seeding multiply mod 2^32 like C's
// uint32 product, and the twist selects MATRIX_A with a mask (-(v & 1)) instead of a branch. No BigInt
// is touched on the per-number path; random64() builds a BigInt only for callers that really want one,
// and the fills in distributions.ts combine two random() words themselves.

import { DispatchKey } from '../c10/DispatchKey.js';
import { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { aliasCamelCase } from '../c10/Kwargs.js';
const N = 624;
const M = 397;
const MATRIX_A = 0x9908b0df;
const UMASK = 0x80000000;
const LMASK = 0x7fffffff;

const UINT64_MAX = (1n << 64n) - 1n;
const INT64_MIN = -(1n << 63n);

/** Size in bytes of PyTorch's `CPUGeneratorImplState` POD, the tensor that `get_state()` returns. */
export const CPU_GENERATOR_STATE_SIZE = 5056;

// Byte offsets in CPUGeneratorImplState (x86-64 layout, little endian). See Note [Generator state bytes].
const OFF_SEED = 0; // uint64 the_initial_seed
const OFF_LEFT = 8; // int left
const OFF_SEEDED = 12; // int seeded
const OFF_NEXT = 16; // uint64 next
const OFF_STATE = 24; // uint64 state[624]
export const OFF_NORMAL_Y = 5024; // double normal_y (normal_x at 5016 and normal_rho at 5032 are always 0)
const OFF_NORMAL_VALID = 5040; // int normal_is_valid
const OFF_FLOAT_NORMAL = 5048; // float next_float_normal_sample
const OFF_FLOAT_NORMAL_VALID = 5052; // bool is_next_float_normal_sample_valid

// Note [Generator state bytes]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// `torch.Generator.get_state()` returns the raw bytes of a C++ struct, CPUGeneratorImplState, which keeps
// the layout of the legacy TH generator for checkpoint compatibility: the 32-bit engine words are widened
// to uint64, and the cached double normal lives in the old `normal_y`/`normal_is_valid` fields. We write
// and read the very same 5056 bytes (x86-64 padding, little endian, padding zeroed as make_unique does),
// so a state saved by PyTorch can be loaded here and the other way round.

/** A seed as Python's `Generator.manual_seed` accepts it: an integer in [-2^63, 2^64). */
export type Seed = number | bigint;

function seedToUint64(seed: Seed): bigint {
  let s: bigint;
  if (typeof seed === 'bigint') {
    s = seed;
  } else {
    if (!Number.isInteger(seed)) {
      throw new TypeError(`manual_seed expected an integer seed, but got ${String(seed)}`);
    }
    if (!Number.isSafeInteger(seed)) {
      throw new RangeError(`manual_seed got ${String(seed)}, which a number cannot hold exactly; pass the seed as a bigint`);
    }
    s = BigInt(seed);
  }
  // THPGenerator_manualSeed reads the seed as uint64 and, on overflow, as int64 reinterpreted as uint64.
  if (s > UINT64_MAX || s < INT64_MIN) {
    throw new RangeError(`Overflow when unpacking long long: seed ${s.toString()} is outside [-2^63, 2^64 - 1]`);
  }
  return BigInt.asUintN(64, s);
}

/** 64 bits from a source of entropy: `c10::detail::getNonDeterministicRandom` without /dev/urandom. */
function nonDeterministicRandom(): bigint {
  const words = new Uint32Array(2);
  const cryptoObj = (globalThis as { crypto?: { getRandomValues?: (a: Uint32Array) => Uint32Array } }).crypto;
  if (cryptoObj?.getRandomValues !== undefined) {
    cryptoObj.getRandomValues(words);
  } else {
    words[0] = Math.floor(Math.random() * 4294967296);
    words[1] = Math.floor(Math.random() * 4294967296);
  }
  return (BigInt(words[0] ?? 0) << 32n) | BigInt(words[1] ?? 0);
}

/** The pseudo-addresses `repr(generator)` prints, one per generator in creation-of-first-print order. */
const GENERATOR_IDS = new WeakMap<Generator, number>();
const GENERATOR_IDS_BASE = 0x7f0000000000;
let nextGeneratorId = 0;

/**
 * PyTorch's CPU generator (`torch.Generator()` on CPU, `at::CPUGeneratorImpl`): an mt19937 engine plus
 * the cached second Box–Muller samples.
 */
export class Generator {
  /** Always 'cpu': the only device this generator serves. */
  readonly device = 'cpu';
  // camelCase spellings, installed below by aliasCamelCase (Note [One naming rule]).
  declare manualSeed: Generator['manual_seed'];
  declare initialSeed: Generator['initial_seed'];
  declare getState: Generator['get_state'];
  declare setState: Generator['set_state'];
  /** `key_set()`: a CPU generator passed to an operator makes the call dispatch to CPU (unboxed calls). */
  readonly keySet: DispatchKeySet = DispatchKeySet.fromKey(DispatchKey.CPU);

  /** The uint32 state words, stored as int32. See Note [mt19937 in 32-bit integer arithmetic]. */
  private readonly mt = new Int32Array(N);
  private left = 1;
  private next = 0;
  private initialSeedValue = 5489n;
  private floatNormal: number | undefined = undefined;
  private doubleNormal: number | undefined = undefined;

  /** `at::CPUGeneratorImpl(seed_in = default_rng_seed_val)`: the engine's default seed is 67280421310721. */
  constructor(seed: Seed = 67280421310721n) {
    this.manual_seed(seed);
  }

  /** `Generator.manual_seed(seed)`: reseeds the engine and drops both cached normal samples. */
  manual_seed(seed: Seed): this {
    const s = seedToUint64(seed);
    this.floatNormal = undefined;
    this.doubleNormal = undefined;
    this.initialSeedValue = s;
    // mt19937_engine::init_with_uint32 keeps the full 64-bit seed for initial_seed() but seeds the
    // state from its low 32 bits only, so seeds that agree mod 2^32 give the same stream.
    const mt = this.mt;
    let prev = Number(s & 0xffffffffn) >>> 0;
    mt[0] = prev;
    for (let j = 1; j < N; j++) {
      prev = (Math.imul(1812433253, (prev ^ (prev >>> 30)) >>> 0) + j) >>> 0;
      mt[j] = prev;
    }
    this.left = 1;
    this.next = 0;
    return this;
  }

  /** `Generator.seed()`: reseeds from a nondeterministic source and returns the new seed. */
  seed(): bigint {
    const s = nonDeterministicRandom();
    this.manual_seed(s);
    return s;
  }

  /** `Generator.initial_seed()`: the 64-bit seed last given to manual_seed (or chosen by seed()). */
  initial_seed(): bigint {
    return this.initialSeedValue;
  }

  /** `CPUGeneratorImpl::random()`: the next uint32 of the mt19937 stream. */
  random(): number {
    if (--this.left === 0) this.twist();
    let y = this.mt[this.next++] as number;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** `CPUGeneratorImpl::random64()`: two random() words, the first one high. */
  random64(): bigint {
    const hi = this.random();
    const lo = this.random();
    return (BigInt(hi) << 32n) | BigInt(lo);
  }

  /** The cached second float Box–Muller sample (`next_float_normal_sample`), if any. */
  next_float_normal_sample(): number | undefined {
    return this.floatNormal;
  }

  /** `set_next_float_normal_sample(v)`. */
  set_next_float_normal_sample(v: number | undefined): void {
    this.floatNormal = v === undefined ? undefined : Math.fround(v);
  }

  /** The cached second double Box–Muller sample (`next_double_normal_sample`), if any. */
  next_double_normal_sample(): number | undefined {
    return this.doubleNormal;
  }

  /** `set_next_double_normal_sample(v)`. */
  set_next_double_normal_sample(v: number | undefined): void {
    this.doubleNormal = v;
  }

  /**
   * `Generator.get_state()`: the 5056 bytes of CPUGeneratorImplState (See Note [Generator state bytes]); a
   * Uint8Array, where PyTorch returns a uint8 tensor of the same bytes (`torch.get_rng_state()` gives the tensor).
   */
  get_state(): Uint8Array {
    const bytes = new Uint8Array(CPU_GENERATOR_STATE_SIZE);
    const dv = new DataView(bytes.buffer);
    dv.setBigUint64(OFF_SEED, this.initialSeedValue, true);
    dv.setInt32(OFF_LEFT, this.left, true);
    dv.setInt32(OFF_SEEDED, 1, true);
    dv.setBigUint64(OFF_NEXT, BigInt(this.next), true);
    for (let j = 0; j < N; j++) dv.setUint32(OFF_STATE + 8 * j, (this.mt[j] as number) >>> 0, true);
    if (this.doubleNormal !== undefined) {
      dv.setFloat64(OFF_NORMAL_Y, this.doubleNormal, true);
      dv.setInt32(OFF_NORMAL_VALID, 1, true);
    }
    if (this.floatNormal !== undefined) {
      dv.setFloat32(OFF_FLOAT_NORMAL, this.floatNormal, true);
      dv.setUint8(OFF_FLOAT_NORMAL_VALID, 1);
    }
    return bytes;
  }

  /**
   * `Generator.set_state(new_state)`: loads bytes written by get_state() or by PyTorch, as a Uint8Array or a
   * uint8 tensor (`torch.get_rng_state()`).
   */
  set_state(state: Uint8Array | { contiguous(): { numpy(): ArrayLike<number> } }): this {
    const newState = state instanceof Uint8Array ? state : Uint8Array.from(state.contiguous().numpy());
    if (newState.length !== CPU_GENERATOR_STATE_SIZE) {
      throw new RangeError(
        `Expected a CPUGeneratorImplState of size ${CPU_GENERATOR_STATE_SIZE} but found the input RNG state size to be ${newState.length}`,
      );
    }
    const dv = new DataView(newState.buffer, newState.byteOffset, newState.byteLength);
    const left = dv.getInt32(OFF_LEFT, true);
    const seeded = dv.getInt32(OFF_SEEDED, true);
    // uint32 next_ = static_cast<uint32_t>(legacy next)
    const next = Number(dv.getBigUint64(OFF_NEXT, true) & 0xffffffffn);
    // mt19937_engine::is_valid
    if (!(seeded !== 0 && left > 0 && left <= N && next <= N)) {
      throw new RangeError(`Invalid mt19937 state (left=${left}, next=${next}, seeded=${seeded})`);
    }
    for (let j = 0; j < N; j++) {
      // std::copy from uint64 to uint32 keeps the low word.
      this.mt[j] = dv.getInt32(OFF_STATE + 8 * j, true);
    }
    this.initialSeedValue = dv.getBigUint64(OFF_SEED, true);
    this.left = left;
    this.next = next;
    this.doubleNormal = dv.getInt32(OFF_NORMAL_VALID, true) !== 0 ? dv.getFloat64(OFF_NORMAL_Y, true) : undefined;
    this.floatNormal = dv.getUint8(OFF_FLOAT_NORMAL_VALID) !== 0 ? dv.getFloat32(OFF_FLOAT_NORMAL, true) : undefined;
    return this;
  }

  /** `Generator.clone_state()`-like copy: an independent generator in the same state. */
  clone(): Generator {
    const g = new Generator();
    g.mt.set(this.mt);
    g.left = this.left;
    g.next = this.next;
    g.initialSeedValue = this.initialSeedValue;
    g.floatNormal = this.floatNormal;
    g.doubleNormal = this.doubleNormal;
    return g;
  }

  /** mt19937_engine::next_state: regenerates all 624 words at once. */
  private twist(): void {
    const mt = this.mt;
    this.left = N;
    this.next = 0;
    let p = 0;
    for (; p < N - M; p++) {
      const v = mt[p + 1] as number;
      mt[p] = (mt[p + M] as number) ^ ((((mt[p] as number) & UMASK) | (v & LMASK)) >>> 1) ^ (-(v & 1) & MATRIX_A);
    }
    for (; p < N - 1; p++) {
      const v = mt[p + 1] as number;
      mt[p] = (mt[p + M - N] as number) ^ ((((mt[p] as number) & UMASK) | (v & LMASK)) >>> 1) ^ (-(v & 1) & MATRIX_A);
    }
    const v = mt[0] as number;
    mt[N - 1] = (mt[M - 1] as number) ^ ((((mt[N - 1] as number) & UMASK) | (v & LMASK)) >>> 1) ^ (-(v & 1) & MATRIX_A);
  }

  /**
   * `repr(generator)` / `str(generator)`: `<torch._C.Generator object at 0x...>`, as Python prints an object
   * without a repr of its own; the address is a per-generator identity (Note [Printing in Node] in src/tensor/Tensor.ts).
   */
  toString(): string {
    let id = GENERATOR_IDS.get(this);
    if (id === undefined) GENERATOR_IDS.set(this, (id = GENERATOR_IDS_BASE + 0x40 * nextGeneratorId++));
    return `<torch._C.Generator object at 0x${id.toString(16)}>`;
  }

  /** Node's util.inspect (console.log, the REPL): the repr. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString();
  }
}

aliasCamelCase(Generator.prototype, {
  manualSeed: 'manual_seed',
  initialSeed: 'initial_seed',
  getState: 'get_state',
  setState: 'set_state',
});

let defaultCpuGenerator: Generator | undefined;

/**
 * `at::detail::getDefaultCPUGenerator()` / `torch.default_generator`: created on first use with a
 * nondeterministic seed, as PyTorch does at startup.
 */
export function defaultGenerator(): Generator {
  if (defaultCpuGenerator === undefined) {
    defaultCpuGenerator = new Generator(nonDeterministicRandom());
  }
  return defaultCpuGenerator;
}

const manualSeedHooks: ((seed: bigint) => void)[] = [];

/**
 * Called by `torch.manual_seed` with the seed after the CPU generator's (torch/random.py seeds every device
 * there: `torch.cuda.manual_seed_all`, ..., and `_seed_custom_device` for a renamed PrivateUse1 backend, which
 * src/utils/backend_registration.ts adds here).
 */
export function addManualSeedHook(hook: (seed: bigint) => void): void {
  if (!manualSeedHooks.includes(hook)) manualSeedHooks.push(hook);
}

/** `torch.manual_seed(seed)`: seeds the default CPU generator (and the devices' generators) and returns it. */
export function manualSeed(seed: Seed): Generator {
  const g = defaultGenerator().manual_seed(seed);
  for (const hook of manualSeedHooks) hook(g.initial_seed());
  return g;
}

/** `torch.seed()`: reseeds the default generator nondeterministically and returns the seed. */
export function seed(): bigint {
  return defaultGenerator().seed();
}

/** `torch.initial_seed()`: the initial seed of the default generator. */
export function initialSeed(): bigint {
  return defaultGenerator().initial_seed();
}
