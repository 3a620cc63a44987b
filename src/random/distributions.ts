// Fills of JS typed arrays with exactly the values PyTorch's CPU kernels write into a contiguous tensor:
// uniform_ / rand, normal_ / randn, random_(from, to) / randint, randperm, bernoulli.
// Mirrors aten/src/ATen/core/TransformationHelper.h and DistributionsHelper.h (how one sample is made
// from the engine), aten/src/ATen/native/cpu/DistributionTemplates.h (the CPU kernels, including the
// block-of-16 Box-Muller `normal_fill`), aten/src/ATen/native/DistributionTemplates.h (argument
// checks), aten/src/ATen/native/TensorFactories.cpp (randperm_cpu) and
// aten/src/ATen/native/Distributions.cpp (bernoulli).

import { fma, fmaf } from './fma.js';
import { defaultGenerator, type Generator } from './Generator.js';
import { normalFill16Avx2 } from './avxMathfun.js';

// Note [The fill contract]
// ~~~~~~~~~~~~~~~~~~~~~~~~
// Each fill writes out[0], out[1], ... in order, consuming the generator exactly as PyTorch's CPU kernel
// does for a contiguous tensor of out.length elements. PyTorch's nullary kernels walk a contiguous
// output in memory order whatever its shape, so `torch.rand(3, 4, generator=g)` is the same flat
// sequence as `torch.rand(12, generator=g)`, and a tensor library can fill a new contiguous tensor's
// storage with these functions directly. The generator's state carries over between calls, including
// the cached second Box-Muller sample, so sequences of calls match too.
//
// How one sample is drawn (TransformationHelper.h, uniform_real):
//   float32: 24 random bits from one random() call:  (random() & 0xffffff) * 2^-24
//   float64: 53 random bits from random64(), i.e. two random() calls, the first the high word:
//            (random64() & (2^53 - 1)) * 2^-53
//   then x * (to - from) + from (a single fused multiply-add, see below).

// Note [Why the random kernels need FMA]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's x86-64 builds compile the CPU kernels once per capability; on any AVX2 (or AVX-512) machine
// the AVX2/AVX-512 copies run, which are built with -mfma, and GCC contracts `a * b + c` in them into
// one fused multiply-add. So `uniform_(from, to)` computes fma(x, to - from, from) and `normal_(mean,
// std)` computes fma(z, std, mean): one rounding, not two. We reproduce that with the emulated fma/fmaf
// of fma.ts (checked against torch 2.13: with two roundings about half of the uniform_(-3.7, 5.1)
// values differ in the last bit). Where a factor is 1 the FMA is a plain addition and we skip the emulation.
//
// Platform scope: these are the values of PyTorch on x86-64 Linux with AVX2 (Intel since 2013, AMD
// since 2015) and a glibc whose libm has the algorithms of 2.36 (checked on Debian 12). PyTorch itself
// gives other low bits elsewhere: CPUs without AVX2 run the DEFAULT kernels (no FMA, scalar
// logf/sinf/cosf for float32 normals), macOS and Windows have other libms, and ARM builds have other
// vector code. The integer-valued fills (randint, randperm, bernoulli) and the uniform draws themselves
// are the same on every platform. One more exception: with an MKL build on an *Intel* CPU,
// `bernoulli_(p)` with a scalar p uses MKL's own generator (VSL_BRNG_MCG31 seeded from one random()
// call) instead of the code here; bernoulli with a probability tensor is unaffected.

/** Typed arrays the floating-point fills accept: float32 and float64 storage. */
export type FloatArray = Float32Array | Float64Array;

/**
 * Typed arrays randint / randperm / bernoulli can fill. A Float64Array holds int64 values (aten-ts's int64
 * storage), a Uint8Array uint8 or bool.
 */
export type IntegerFillArray = Float64Array | Float32Array | Int32Array | Int16Array | Int8Array | Uint8Array | BigInt64Array;

/** A generator argument: a Generator, or null/undefined for the default generator (like `generator=None`). */
export type GeneratorArg = Generator | null | undefined;

const TWO_POW_M24 = 5.960464477539063e-8; // 2^-24
const TWO_POW_M53 = 1.1102230246251565e-16; // 2^-53
const TWO_POW_32 = 4294967296;
const TWO_PI = 2 * Math.PI; // 2.0 * c10::pi<double>, as a double
const FLT_MAX = 3.4028234663852886e38;

function genOrDefault(gen: GeneratorArg): Generator {
  return gen ?? defaultGenerator();
}

/** A uniform double in [0, 1) from 53 bits of random64(): `uniform_real_distribution<double>(0, 1)`. */
function uniform53(gen: Generator): number {
  const hi = gen.random();
  const lo = gen.random();
  return ((hi & 0x1fffff) * TWO_POW_32 + lo) * TWO_POW_M53;
}

/** A uniform float in [0, 1) from 24 bits of random(): `uniform_real_distribution<float>(0, 1)`. */
function uniform24(gen: Generator): number {
  return (gen.random() & 0xffffff) * TWO_POW_M24;
}

/** Formats a double the way C++'s `operator<<` does in TORCH_CHECK messages (printf `%g`). */
export function formatDouble(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const [mantissa = '', expText = '0'] = x.toExponential(5).split('e');
  const exp = Number(expText);
  const strip = (s: string): string => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);
  if (exp < -4 || exp >= 6) {
    const e = Math.abs(exp);
    return `${strip(mantissa)}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' : ''}${e}`;
  }
  return strip(x.toFixed(5 - exp));
}

// ================================================ uniform ===============================================

/**
 * `tensor.uniform_(from, to)` on a contiguous float32/float64 tensor: fills `out` with values in
 * [from, to). float32 casts from and to to float first, as the kernel does.
 */
export function uniformFill<T extends FloatArray>(gen: GeneratorArg, out: T, from = 0, to = 1): T {
  const g = genOrDefault(gen);
  const isFloat = out instanceof Float32Array;
  const max = isFloat ? FLT_MAX : Number.MAX_VALUE;
  const dtypeName = isFloat ? 'float' : 'double';
  if (!(from >= -max && from <= max)) throw new Error(`from is out of bounds for ${dtypeName}`);
  if (!(to >= -max && to <= max)) throw new Error(`to is out of bounds for ${dtypeName}`);
  if (!(from <= to)) {
    throw new Error(`uniform_ expects to return a [from, to) range, but found from=${formatDouble(from)} > to=${formatDouble(to)}`);
  }
  if (!(to - from <= max)) {
    throw new Error(
      `uniform_ expects to-from <= std::numeric_limits<${isFloat ? 'Float' : 'Double'}>::max(), but found to=${formatDouble(to)} and from=${formatDouble(from)} which result in to-from to exceed the limit`,
    );
  }
  const n = out.length;
  if (isFloat) {
    const f = Math.fround(from);
    const range = Math.fround(Math.fround(to) - f);
    if (range === 1) {
      // fma(x, 1, f) = f + x rounded once; a float sum done in double rounds the same way.
      for (let i = 0; i < n; i++) out[i] = Math.fround(uniform24(g) + f);
    } else {
      for (let i = 0; i < n; i++) out[i] = fmaf(uniform24(g), range, f);
    }
  } else {
    const range = to - from;
    if (range === 1) {
      for (let i = 0; i < n; i++) out[i] = uniform53(g) + from;
    } else {
      for (let i = 0; i < n; i++) out[i] = fma(uniform53(g), range, from);
    }
  }
  return out;
}

/** `torch.rand(n, dtype=...)`: uniform in [0, 1). */
export function randFill<T extends FloatArray>(gen: GeneratorArg, out: T): T {
  return uniformFill(gen, out, 0, 1);
}

// ================================================ normal ================================================

// Note [Two normal samplers]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
// normal_kernel (native/cpu/DistributionTemplates.h) has two algorithms:
//
// * Contiguous tensors of 16 or more elements: `normal_fill`. First every element gets a uniform in
//   [0, 1) (24-bit for float32, 53-bit for float64); then each block of 16 becomes 16 normals by
//   Box-Muller, pairing element j (radius from log(1 - u)) with element j + 8 (angle). If the length is
//   not a multiple of 16, 16 *fresh* uniforms are drawn into the last 16 slots and that block is
//   recomputed, overwriting part of the last full block. float32 runs the AVX2 code (avxMathfun.ts);
//   float64 runs scalar code on std::log/cos/sin (see Note [Normals and the C library's libm]). This path never reads or writes the
//   generator's cached normal.
//
// * Fewer than 16 elements: one `normal_distribution<double>` sample per element, in double for every
//   dtype (then cast): u1, u2 from random64(), r = sqrt(-2 log1p(-u2)), theta = 2 pi u1, return
//   r cos(theta) and cache r sin(theta) in the generator for the next call. A cached value is used (and
//   cleared) first, so the cache carries over between calls and even across dtypes.

// Note [Normals and the C library's libm]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The float64 normal sampler, and every sampler drawing fewer than 16 values, calls the C library's
// log / log1p / sin / cos. None of them is correctly rounded, and V8's Math functions (fdlibm ports) differ
// from glibc's in the last bit for a few percent of arguments. aten-ts uses Math.*: these normals match
// PyTorch to within a few units in the last place, not bit for bit (the uniform draws, the generator state
// and every other fill stay bit-exact). Reproducing glibc's results would mean porting glibc's code and
// tables, which its licence does not allow into this project.

/** One `at::normal_distribution<double>` draw before scaling, using and refilling the generator's cache. */
function standardNormalDouble(gen: Generator): number {
  const cached = gen.next_double_normal_sample();
  if (cached !== undefined) {
    gen.set_next_double_normal_sample(undefined);
    return cached;
  }
  const u1 = uniform53(gen);
  const u2 = uniform53(gen);
  const r = Math.sqrt(-2.0 * Math.log1p(-u2));
  const theta = TWO_PI * u1;
  gen.set_next_double_normal_sample(r * Math.sin(theta));
  return r * Math.cos(theta);
}

/** normal_fill_16<double>: 16 uniforms at data[offset..] become 16 normals. */
function normalFill16Double(data: Float64Array, offset: number, mean: number, std: number): void {
  for (let j = 0; j < 8; j++) {
    const u1 = 1 - (data[offset + j] as number);
    const u2 = data[offset + j + 8] as number;
    const radius = Math.sqrt(-2 * Math.log(u1));
    const theta = TWO_PI * u2;
    const c = radius * Math.cos(theta);
    const s = radius * Math.sin(theta);
    if (std === 1) {
      data[offset + j] = c + mean;
      data[offset + j + 8] = s + mean;
    } else {
      data[offset + j] = fma(c, std, mean);
      data[offset + j + 8] = fma(s, std, mean);
    }
  }
}

/**
 * `tensor.normal_(mean, std)` on a contiguous float32/float64 tensor. See Note [Two normal samplers]
 * for the two algorithms and Note [The fill contract] for ordering.
 */
export function normalFill<T extends FloatArray>(gen: GeneratorArg, out: T, mean = 0, std = 1): T {
  if (!(std >= 0.0)) throw new Error(`normal expects std >= 0.0, but found std ${formatDouble(std)}`);
  const g = genOrDefault(gen);
  const n = out.length;
  if (n < 16) {
    const isFloat = out instanceof Float32Array;
    for (let i = 0; i < n; i++) {
      const z = standardNormalDouble(g);
      // transformation::normal: z * std + mean, one FMA
      const v = std === 1 ? z + mean : fma(z, std, mean);
      out[i] = isFloat ? Math.fround(v) : v;
    }
    return out;
  }
  if (out instanceof Float32Array) {
    const m = Math.fround(mean);
    const s = Math.fround(std);
    for (let i = 0; i < n; i++) out[i] = uniform24(g);
    for (let i = 0; i + 16 <= n; i += 16) normalFill16Avx2(out, i, m, s);
    if (n % 16 !== 0) {
      for (let i = n - 16; i < n; i++) out[i] = uniform24(g);
      normalFill16Avx2(out, n - 16, m, s);
    }
  } else {
    const data = out as Float64Array;
    for (let i = 0; i < n; i++) data[i] = uniform53(g);
    for (let i = 0; i + 16 <= n; i += 16) normalFill16Double(data, i, mean, std);
    if (n % 16 !== 0) {
      for (let i = n - 16; i < n; i++) data[i] = uniform53(g);
      normalFill16Double(data, n - 16, mean, std);
    }
  }
  return out;
}

/** `torch.randn(n, dtype=...)`: normal(0, 1). */
export function randnFill<T extends FloatArray>(gen: GeneratorArg, out: T): T {
  return normalFill(gen, out, 0, 1);
}

// ================================================ randint ===============================================

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

// Note [randint draws 64 bits from a range of 2^28]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// uniform_int_from_to_distribution (DistributionsHelper.h) returns (draw % range) + low. The draw is one
// random() word, or random64() when `range >= 2^28` ("allow approx 5% skew in uniform int generation
// using %"), for every dtype. The header also has an `#ifdef FBCODE_CAFFE2` branch with a 2^32
// threshold restricted to int64/double/float/bfloat16; that branch is Meta-internal. Public wheels
// take the 2^28 one, which the fixture confirms: ranges 2^28 - 1 and 2^28 consume 1 and 2 words per
// value, for int32, int64, float32 and float64 alike.
const RANDOM64_MIN_RANGE = 1n << 28n;

/** [min, max] and C++ type name of the dtype each typed array stores, for check_from_to_in_range. */
function integerBounds(out: IntegerFillArray): { min: bigint; max: bigint; name: string } {
  if (out instanceof Int32Array) return { min: -(1n << 31n), max: (1n << 31n) - 1n, name: 'int' };
  if (out instanceof Int16Array) return { min: -(1n << 15n), max: (1n << 15n) - 1n, name: 'short int' };
  if (out instanceof Int8Array) return { min: -128n, max: 127n, name: 'signed char' };
  if (out instanceof Uint8Array) return { min: 0n, max: 255n, name: 'unsigned char' };
  if (out instanceof Float32Array) return { min: -(1n << 24n), max: 1n << 24n, name: 'float' };
  return { min: INT64_MIN, max: INT64_MAX, name: 'long int' }; // Float64Array (int64 storage), BigInt64Array
}

function toInt64(v: number | bigint, what: string): bigint {
  if (typeof v === 'bigint') return v;
  if (!Number.isSafeInteger(v)) {
    throw new Error(`randint expects an integer ${what} that a number holds exactly, but got ${String(v)}; pass a bigint`);
  }
  return BigInt(v);
}

/** (hi * 2^32 + lo) mod m for m < 2^37, in exact double arithmetic (r * 2^16 < 2^53). */
function mod64(hi: number, lo: number, m: number): number {
  let r = hi % m;
  r = (r * 65536) % m;
  r = (r * 65536) % m;
  return (r + lo) % m;
}

/**
 * `tensor.random_(low, high)` / `torch.randint(low, high, ...)`: fills `out` with integers in
 * [low, high). The array type is the dtype: Float64Array = int64 (aten-ts's int64 storage; values
 * exact up to 2^53), BigInt64Array = int64 with full range, Int32Array/Int16Array/Int8Array/Uint8Array =
 * int32/int16/int8/uint8, Float32Array = float32 (bounds within ±2^24, where PyTorch only warns).
 * Ranges of 2^28 or more draw random64(), smaller ones one random() per value; the value is
 * draw % range + low (see Note [randint draws 64 bits from a range of 2^28]).
 */
export function randintFill<T extends IntegerFillArray>(gen: GeneratorArg, out: T, low: number | bigint, high: number | bigint): T {
  const from = toInt64(low, 'low');
  const to = toInt64(high, 'high');
  if (!(from < to)) {
    throw new Error(`random_ expects 'from' to be less than 'to', but got from=${from} >= to=${to}`);
  }
  const bounds = integerBounds(out);
  if (out instanceof Float32Array) {
    if (from < -bounds.max || from > bounds.max) {
      throw new Error(`from is out of bounds [-(2^24), 2^24]: float holds integers exactly only within this range`);
    }
    if (to - 1n < -bounds.max || to - 1n > bounds.max) {
      throw new Error(`to - 1 is out of bounds [-(2^24), 2^24]: float holds integers exactly only within this range`);
    }
  } else {
    if (from < bounds.min || from > bounds.max) throw new Error(`from is out of bounds for ${bounds.name}`);
    if (to - 1n < bounds.min || to - 1n > bounds.max) throw new Error(`to - 1 is out of bounds for ${bounds.name}`);
  }
  const g = genOrDefault(gen);
  const n = out.length;
  const rangeBig = to - from; // fits uint64
  // See Note [randint draws 64 bits from a range of 2^28].
  const use64 = rangeBig >= RANDOM64_MIN_RANGE;
  if (out instanceof BigInt64Array) {
    // BigInt64Array stores mod 2^64, like static_cast<int64_t>.
    for (let i = 0; i < n; i++) {
      let v: bigint;
      if (use64) {
        const hi = g.random();
        const lo = g.random();
        v = ((BigInt(hi) << 32n) | BigInt(lo)) % rangeBig;
      } else {
        v = BigInt(g.random()) % rangeBig;
      }
      out[i] = v + from;
    }
    return out;
  }
  const arr = out as Exclude<IntegerFillArray, BigInt64Array>;
  const isFloat = out instanceof Float32Array;
  // With |low| <= 2^52 every value draw % range + low (|draw % range| < 2^37 below) is exact in a double.
  const smallBase = from >= -(1n << 52n) && from <= 1n << 52n;
  const base = Number(from);
  if (!use64 && smallBase) {
    const range = Number(rangeBig); // <= 2^32
    for (let i = 0; i < n; i++) arr[i] = (g.random() % range) + base;
    return out;
  }
  if (use64 && smallBase && rangeBig < 1n << 37n) {
    const range = Number(rangeBig);
    for (let i = 0; i < n; i++) {
      const hi = g.random();
      const lo = g.random();
      const v = mod64(hi, lo, range) + base;
      arr[i] = isFloat ? Math.fround(v) : v;
    }
    return out;
  }
  // Wide ranges or far-off bases (int64 only): exact in BigInt, then rounded once by the storage.
  for (let i = 0; i < n; i++) {
    let draw: bigint;
    if (use64) {
      const hi = g.random();
      const lo = g.random();
      draw = ((BigInt(hi) << 32n) | BigInt(lo)) % rangeBig;
    } else {
      draw = BigInt(g.random()) % rangeBig;
    }
    arr[i] = Number(BigInt.asIntN(64, draw + from));
  }
  return out;
}

// ================================================ randperm ==============================================

/** randperm_cpu keeps the original algorithm below this n: `std::numeric_limits<uint32_t>::max() / 20`. */
const RANDPERM_SMALL_N = Math.floor(4294967295 / 20);

/**
 * `torch.randperm(n)` into `out` (n = out.length), same array types as randintFill. For
 * n < 214748364 (always, in practice) it is a Fisher-Yates pass from the front: for i = 0..n-2, swap
 * out[i] with out[i + random() % (n - i)]. Larger n use the "inside-out" variant with random64().
 */
export function randpermFill<T extends IntegerFillArray>(gen: GeneratorArg, out: T): T {
  const n = out.length;
  if (out instanceof Float32Array && n > (1 << 24) + 1) throw new Error('n cannot be greater than 2^24+1 for Float type.');
  const bounds = integerBounds(out);
  if (out instanceof Int8Array || out instanceof Uint8Array || out instanceof Int16Array || out instanceof Int32Array) {
    if (n > 0 && BigInt(n - 1) > bounds.max) {
      throw new Error(`randperm: n=${n} does not fit in ${bounds.name}: value cannot be converted without overflow`);
    }
  }
  const g = genOrDefault(gen);
  const work = out instanceof BigInt64Array ? new Float64Array(n) : (out as Exclude<IntegerFillArray, BigInt64Array>);
  if (n < RANDPERM_SMALL_N) {
    for (let i = 0; i < n; i++) work[i] = i;
    for (let i = 0; i < n - 1; i++) {
      const z = g.random() % (n - i);
      const save = work[i] as number;
      work[i] = work[z + i] as number;
      work[z + i] = save;
    }
  } else {
    for (let i = 0; i < n; i++) {
      const hi = g.random();
      const lo = g.random();
      const z = mod64(hi, lo, i + 1);
      work[i] = work[z] as number;
      work[z] = i;
    }
  }
  if (out instanceof BigInt64Array) {
    for (let i = 0; i < n; i++) out[i] = BigInt(work[i] as number);
  }
  return out;
}

/** `torch.randperm(n)`: a new Float64Array (aten-ts's int64 storage) holding a permutation of 0..n-1. */
export function randperm(gen: GeneratorArg, n: number): Float64Array {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`n must be non-negative, got${String(n)}`);
  return randpermFill(gen, new Float64Array(n));
}

// ================================================ bernoulli =============================================

/**
 * `torch.bernoulli(input, p)` / `tensor.bernoulli_(p)` with a scalar p: out[i] = 1 if a 53-bit uniform
 * draw is < p, else 0. With a probability array (`torch.bernoulli(probs)`; length out.length, or 1 to
 * broadcast), a Float64Array of probabilities draws 53-bit doubles and a Float32Array draws 24-bit
 * floats, as PyTorch does for float64 and float32 probability tensors.
 * See Note [Why the random kernels need FMA] for the MKL exception on Intel CPUs (scalar p only).
 */
export function bernoulliFill<T extends IntegerFillArray>(gen: GeneratorArg, out: T, p: number | Float32Array | Float64Array): T {
  const n = out.length;
  const big = out instanceof BigInt64Array;
  const arr = out as Exclude<IntegerFillArray, BigInt64Array>;
  if (typeof p === 'number') {
    if (!(p >= 0 && p <= 1)) throw new Error(`bernoulli_ expects p to be in [0, 1], but got p=${formatDouble(p)}`);
    const g = genOrDefault(gen);
    for (let i = 0; i < n; i++) {
      const hit = uniform53(g) < p;
      if (big) out[i] = hit ? 1n : 0n;
      else arr[i] = hit ? 1 : 0;
    }
    return out;
  }
  if (p.length !== n && p.length !== 1) {
    throw new Error(`bernoulli: the probabilities (${p.length} values) must broadcast to the output (${n} values)`);
  }
  const g = genOrDefault(gen);
  const draw = p instanceof Float64Array ? uniform53 : uniform24;
  const step = p.length === 1 ? 0 : 1;
  for (let i = 0; i < n; i++) {
    const pi = p[i * step] as number;
    if (!(pi >= 0 && pi <= 1)) {
      throw new Error(
        `Expected p_in >= 0 && p_in <= 1 to be true, but got false. (bernoulli: probability ${formatDouble(pi)} at index ${i})`,
      );
    }
    const hit = draw(g) < pi;
    if (big) out[i] = hit ? 1n : 0n;
    else arr[i] = hit ? 1 : 0;
  }
  return out;
}

// =============================== cauchy, exponential, geometric, log_normal ===============================

// Note [The serial samplers]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
// cauchy_, exponential_, geometric_ and log_normal_ (native/cpu/DistributionTemplates.h) draw one
// `at::*_distribution<double>` sample per element with cpu_serial_kernel, in double for every dtype, then
// static_cast it to the tensor's dtype (Math.fround for float32, truncation for integers). Each sample is one
// 53-bit uniform u (TransformationHelper.h) except log_normal's, a normal_distribution<double> draw (with the
// generator's cached second Box-Muller value, as standardNormalDouble):
//   cauchy       median + sigma * tan(pi * (u - 0.5))    one fma (see Note [Why the random kernels need FMA])
//   exponential  -1 / lambda * log1p(-u)
//   geometric    ceil(log(u) / log1p(-p))
//   log_normal   exp(z * std + mean)                     one fma
// Their values follow libm's tan/log/log1p/exp (Note [Normals and the C library's libm]).

/** The double samples of `cauchy_(median, sigma)` for `n` elements. See Note [The serial samplers]. */
export function cauchyFill(gen: GeneratorArg, out: Float64Array, median: number, sigma: number): Float64Array {
  const g = genOrDefault(gen);
  for (let i = 0; i < out.length; i++) out[i] = fma(sigma, Math.tan(Math.PI * (uniform53(g) - 0.5)), median);
  return out;
}

/** The double samples of `exponential_(lambd)`. See Note [The serial samplers]. */
export function exponentialFill(gen: GeneratorArg, out: Float64Array, lambd: number): Float64Array {
  const g = genOrDefault(gen);
  const scale = -1.0 / lambd;
  for (let i = 0; i < out.length; i++) out[i] = scale * Math.log1p(-uniform53(g));
  return out;
}

/** The double samples of `geometric_(p)`. See Note [The serial samplers]. */
export function geometricFill(gen: GeneratorArg, out: Float64Array, p: number): Float64Array {
  const g = genOrDefault(gen);
  const denom = Math.log1p(-p);
  for (let i = 0; i < out.length; i++) out[i] = Math.ceil(Math.log(uniform53(g)) / denom);
  return out;
}

/** The double samples of `log_normal_(mean, std)`. See Note [The serial samplers]. */
export function logNormalFill(gen: GeneratorArg, out: Float64Array, mean: number, std: number): Float64Array {
  const g = genOrDefault(gen);
  for (let i = 0; i < out.length; i++) {
    const z = standardNormalDouble(g);
    out[i] = Math.exp(std === 1 ? z + mean : fma(z, std, mean));
  }
  return out;
}
