// Random sampling kernels: uniform_, normal_, cauchy_, exponential_, geometric_, log_normal_, bernoulli, and the
// rand/randn/randint/randperm factories.
// Mirrors aten/src/ATen/native/Distributions.cpp, cpu/DistributionKernels.cpp and TensorFactories.cpp. The
// values are PyTorch's for the same generator state (src/random).

import type { Device } from '../c10/Device.js';
import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { MemoryFormat, type Layout } from '../c10/Layout.js';
import { ScalarType, isFloatingType, isIntegralType, notImplementedForDtype, scalarTypeToString, typeMetaName } from '../c10/ScalarType.js';
import { belowADInplaceOrView } from '../dispatch/LocalDispatchKeySet.js';
import { aten } from '../generated/Operators.js';
import {
  type FloatArray,
  type Generator,
  bernoulliFill,
  cauchyFill,
  defaultGenerator,
  exponentialFill,
  geometricFill,
  logNormalFill,
  normalFill,
  randintFill,
  randpermFill,
  uniformFill,
} from '../random/index.js';
import { formatDouble } from '../random/distributions.js';
import { readElement, toStored } from '../tensor/elements.js';
import type { Tensor } from '../tensor/Tensor.js';
import { assertNoInternalOverlap } from '../iter/MemoryOverlap.js';
import { restride } from '../iter/Resize.js';
import { inferSize, sameSizes } from '../tensor/ExpandUtils.js';
import { contiguousStrides } from '../tensor/TensorImpl.js';
import { forEachStorageIndex } from './Copy.js';
import * as at from '../generated/TensorBody.js';

type Gen = Generator | null | undefined;

/**
 * Fills a floating tensor with values drawn in row-major order: directly into its storage when it is a
 * contiguous float32/float64 tensor (the case PyTorch's samplers are bit-exact for), else through a
 * temporary of the sampling precision (float64 for double, float32 otherwise) converted into place.
 */
function fillFloating(self: Tensor, op: string, fill: (out: FloatArray) => void): Tensor {
  if (!isFloatingType(self.scalarType)) throw notImplementedForDtype(op, self.scalarType);
  if (self.isMeta()) return self;
  const { data, base } = self.dataView();
  if ((self.scalarType === ScalarType.Float || self.scalarType === ScalarType.Double) && self.isContiguous()) {
    fill(data.subarray(base, base + self.numel()) as FloatArray);
  } else {
    const tmp = self.scalarType === ScalarType.Double ? new Float64Array(self.numel()) : new Float32Array(self.numel());
    fill(tmp);
    let k = 0;
    forEachStorageIndex(self.sizes, self.strides, base, (i) => (data[i] = toStored(self.scalarType, tmp[k++] as number)));
  }
  return self;
}

/** `uniform_(self, from, to, generator)`. */
export function uniform_(_ks: DispatchKeySet, self: Tensor, from = 0, to = 1, generator?: Gen): Tensor {
  if (!(from <= to)) {
    throw new Error(`uniform_ expects to return a [from, to) range, but found from=${from} > to=${to}`);
  }
  return fillFloating(self, 'check_uniform_bounds', (out) => uniformFill(generator, out, from, to));
}

/** `normal_(self, mean, std, generator)`. */
export function normal_(_ks: DispatchKeySet, self: Tensor, mean = 0, std = 1, generator?: Gen): Tensor {
  if (!(std >= 0)) throw new Error(`normal expects std >= 0.0, but found std ${formatDouble(std)}`);
  return fillFloating(self, 'normal_kernel_cpu', (out) => normalFill(generator, out, mean, std));
}

/**
 * Writes one double sample per element in row-major order, cast as static_cast<scalar_t> does (float32
 * rounds, integers truncate). See Note [The serial samplers] in src/random/distributions.ts.
 */
function fillSerial(self: Tensor, draw: (out: Float64Array) => Float64Array): Tensor {
  if (self.isMeta()) return self;
  const values = draw(new Float64Array(self.numel()));
  if (isIntegralType(self.scalarType, false)) for (let i = 0; i < values.length; i++) values[i] = Math.trunc(values[i] as number);
  writeRowMajor(self, values);
  return self;
}

/** `cauchy_(self, median=0, sigma=1, *, generator)` (cauchy_impl_'s checks, then cauchy_kernel). */
export function cauchy_(_ks: DispatchKeySet, self: Tensor, median = 0, sigma = 1, generator?: Gen): Tensor {
  if (!(sigma > 0)) throw new Error(`cauchy_ expects sigma > 0.0, but found sigma=${formatDouble(sigma)}`);
  if (!isFloatingType(self.scalarType)) {
    throw new Error(
      `Cauchy distribution is a continuous probability distribution. dtype must be a floating point but you specified ${typeMetaName(self.scalarType)}`,
    );
  }
  return fillSerial(self, (out) => cauchyFill(generator, out, median, sigma));
}

/** `exponential_(self, lambd=1, *, generator)`. */
export function exponential_(_ks: DispatchKeySet, self: Tensor, lambd = 1, generator?: Gen): Tensor {
  if (!(lambd > 0)) throw new Error(`exponential_ expects lambda > 0.0, but found lambda=${formatDouble(lambd)}`);
  if (!isFloatingType(self.scalarType)) {
    throw new Error(
      `Exponential distribution is a continuous probability distribution. dtype must be a floating point but you specified ${scalarTypeToString(self.scalarType)}`,
    );
  }
  return fillSerial(self, (out) => exponentialFill(generator, out, lambd));
}

/** `geometric_(self, p, *, generator)`: every dtype but bool. */
export function geometric_(_ks: DispatchKeySet, self: Tensor, p: number, generator?: Gen): Tensor {
  if (!(p > 0 && p < 1)) throw new Error(`geometric_ expects p to be in (0, 1), but got p=${formatDouble(p)}`);
  if (!isFloatingType(self.scalarType) && !isIntegralType(self.scalarType, false))
    throw notImplementedForDtype('geometric_cpu', self.scalarType);
  return fillSerial(self, (out) => geometricFill(generator, out, p));
}

/** `log_normal_(self, mean=1, std=2, *, generator)`. */
export function log_normal_(_ks: DispatchKeySet, self: Tensor, mean = 1, std = 2, generator?: Gen): Tensor {
  if (!(std > 0)) throw new Error(`log_normal_ expects std > 0.0, but found std=${formatDouble(std)}`);
  if (!isFloatingType(self.scalarType)) throw notImplementedForDtype('log_normal_cpu', self.scalarType);
  return fillSerial(self, (out) => logNormalFill(generator, out, mean, std));
}

// ---- torch.normal (Distributions.cpp normal_impl / normal_out_impl) -----------------------------------------

/** CHECK_NORMAL_TENSOR_STD: no complex std, every element >= 0. */
function checkNormalTensorStd(std: Tensor): void {
  if (std.isComplex()) throw new Error('normal expects standard deviation to be non-complex');
  if (std.numel() > 0 && !std.isMeta() && !at.item(at.ge_Scalar(at.min(std), 0)))
    throw new Error('normal expects all elements of std >= 0.0');
}

/** `normal.Tensor_float(mean, std=1, *, generator)`: normal_(0, std) of mean's dtype and shape, then + mean. */
export function normalTensorFloat(_ks: DispatchKeySet, mean: Tensor, std = 1, generator?: Gen): Tensor {
  if (!(std >= 0)) throw new Error(`normal expects std >= 0.0, but found std ${formatDouble(std)}`);
  const out = at.empty_like(mean, null, null, null, null, MemoryFormat.Contiguous);
  if (out.isMeta()) return out;
  at.normal_(out, 0, std, generator ?? null);
  return at.add__Tensor(out, mean);
}

/** `normal.float_Tensor(mean, std, *, generator)`: standard normals of std's dtype and shape, · std + mean. */
export function normalFloatTensor(_ks: DispatchKeySet, mean: number, std: Tensor, generator?: Gen): Tensor {
  checkNormalTensorStd(std);
  const out = at.empty_like(std, null, null, null, null, MemoryFormat.Contiguous);
  if (out.isMeta()) return out;
  at.normal_(out, 0, 1, generator ?? null);
  return at.add__Tensor(at.mul__Tensor(out, std), at.full([], mean, out.scalarType));
}

/** `normal.Tensor_Tensor(mean, std, *, generator)`: standard normals of mean's dtype, broadcast shape, · std + mean. */
export function normalTensorTensor(_ks: DispatchKeySet, mean: Tensor, std: Tensor, generator?: Gen): Tensor {
  checkNormalTensorStd(std);
  const out = at.empty_memory_format(inferSize(mean.sizes, std.sizes), mean.scalarType, null, mean.device);
  if (out.isMeta()) return out;
  at.normal_(out, 0, 1, generator ?? null);
  return at.add__Tensor(at.mul__Tensor(out, std), mean);
}

/** `normal.float_float(mean, std, size, *, generator, dtype, layout, device, pin_memory)`: empty(size).normal_(mean, std). */
export function normalFloatFloat(
  _ks: DispatchKeySet,
  mean: number,
  std: number,
  size: number[],
  generator?: Gen,
  dtype: ScalarType | null = null,
  layout: Layout | null = null,
  device: Device | null = null,
  pinMemory: boolean | null = null,
): Tensor {
  return at.normal_(at.empty_memory_format(size, dtype, layout, device, pinMemory), mean, std, generator ?? null);
}

/** `bernoulli_.float(self, p, generator)`: 1 with probability p, else 0. */
export function bernoulliScalar_(_ks: DispatchKeySet, self: Tensor, p = 0.5, generator?: Gen): Tensor {
  if (!(p >= 0 && p <= 1)) throw new Error(`bernoulli_ expects p to be in [0, 1], but got p=${p}`);
  if (self.isMeta()) return self;
  const draws = bernoulliFill(generator, new Float64Array(self.numel()), p);
  writeRowMajor(self, draws);
  return self;
}

/** `bernoulli(self, generator)`: a new tensor, 1 with probability self[i] at each element. */
export function bernoulliTensor(_ks: DispatchKeySet, self: Tensor, generator?: Gen): Tensor {
  const out = aten().empty_like.call(self, null, null, null, null, null);
  if (self.isMeta()) return out;
  if (!isFloatingType(self.scalarType)) throw notImplementedForDtype('bernoulli_tensor_cpu_self_', self.scalarType);
  const probs = self.scalarType === ScalarType.Double ? new Float64Array(self.numel()) : new Float32Array(self.numel());
  const { data, base, lanes } = self.dataView();
  let k = 0;
  forEachStorageIndex(self.sizes, self.strides, 0, (i) => (probs[k++] = readElement(self.scalarType, data, base + i * lanes) as number));
  for (const p of probs) {
    if (!(p >= 0 && p <= 1)) throw new Error('Expected p_in >= 0 && p_in <= 1 to be true, but got false.');
  }
  writeRowMajor(out, bernoulliFill(generator, new Float64Array(self.numel()), probs));
  return out;
}

/**
 * `bernoulli.out(self, *, generator, out)` (Distributions.cpp bernoulli_out): `out.resize_(self.sizes())` (no
 * deprecation warning, unlike resize_output), then `out.bernoulli_(self)`, whose first step is
 * assert_no_internal_overlap(out). The draws are bernoulli(self)'s, converted to out's dtype.
 */
export function bernoulliOut(ks: DispatchKeySet, self: Tensor, generator: Gen, out: Tensor): Tensor {
  if (!sameSizes(out.sizes, self.sizes)) restride(out, self.sizes, contiguousStrides(self.sizes));
  assertNoInternalOverlap(out);
  const r = bernoulliTensor(ks, self, generator);
  if (!out.isMeta()) aten().copy_.call(out, r, false);
  return out;
}

/** `bernoulli.p(self, p, generator)`. */
export function bernoulliP(ks: DispatchKeySet, self: Tensor, p: number, generator?: Gen): Tensor {
  const out = aten().empty_like.call(self, null, null, null, null, null);
  return bernoulliScalar_(ks, out, p, generator);
}

function writeRowMajor(self: Tensor, values: ArrayLike<number>): void {
  const { data, base } = self.dataView();
  let k = 0;
  forEachStorageIndex(self.sizes, self.strides, base, (i) => (data[i] = toStored(self.scalarType, values[k++] as number)));
}

/** `rand.generator(size, generator)`: `empty(size).uniform_(0, 1, generator)`. */
export function rand(
  _ks: DispatchKeySet,
  size: number[],
  generator?: Gen,
  dtype?: ScalarType | null,
  layout?: Layout | null,
  device?: Device | null,
): Tensor {
  const out = aten().empty_memory_format.call(size, dtype, layout, device, null, null);
  return belowADInplaceOrView(() => aten().uniform_.call(out, 0, 1, generator ?? null));
}

/** `randn.generator(size, generator)`: `empty(size).normal_(0, 1, generator)`. */
export function randn(
  _ks: DispatchKeySet,
  size: number[],
  generator?: Gen,
  dtype?: ScalarType | null,
  layout?: Layout | null,
  device?: Device | null,
): Tensor {
  const out = aten().empty_memory_format.call(size, dtype, layout, device, null, null);
  return belowADInplaceOrView(() => aten().normal_.call(out, 0, 1, generator ?? null));
}

/** `randint.low_generator(low, high, size, generator)`: integers in [low, high). */
export function randint(
  _ks: DispatchKeySet,
  low: number,
  high: number,
  size: number[],
  generator?: Gen,
  dtype?: ScalarType | null,
  layout?: Layout | null,
  device?: Device | null,
): Tensor {
  const out = aten().empty_memory_format.call(size, dtype ?? ScalarType.Long, layout, device, null, null);
  return belowADInplaceOrView(() => at.random__from(out, low, high, generator ?? null));
}

/** The largest value `random_` draws for a dtype by default: 2^digits for floating dtypes, the maximum of integral ones. */
function randomToInclusive(st: ScalarType): number {
  switch (st) {
    case ScalarType.Double:
      return 2 ** 53;
    case ScalarType.Float:
      return 2 ** 24;
    case ScalarType.Half:
      return 2 ** 11;
    case ScalarType.BFloat16:
      return 2 ** 8;
    case ScalarType.Bool:
      return 1;
    case ScalarType.Byte:
      return 255;
    case ScalarType.Char:
      return 127;
    case ScalarType.Short:
      return 32767;
    case ScalarType.Int:
      return 2147483647;
    case ScalarType.Long:
      return 2 ** 63; // int64's maximum, as the double aten-ts keeps it
    default:
      throw new Error('random_from_to_impl handles only integral, floating-point and boolean types');
  }
}

/**
 * `random_.from(self, from, to, *, generator)` (DistributionTemplates.h random_from_to_impl): integers in
 * [from, to), or [from, the dtype's default bound] when `to` is None; torch.randint's path.
 */
export function randomFrom_(_ks: DispatchKeySet, self: Tensor, from: number, to: number | null, generator?: Gen): Tensor {
  const high = to ?? randomToInclusive(self.scalarType) + 1;
  if (!(from < high)) throw new Error(`random_ expects 'from' to be less than 'to', but got from=${from} >= to=${high}`);
  checkFromToInRange(from, high - 1, self.scalarType);
  if (self.isMeta() || self.numel() === 0) return self;
  // the exclusive bound as a bigint where a double cannot hold it (2^53 + 1 for float64, 2^63 for int64)
  const highBig = to != null ? high : self.scalarType === ScalarType.Long ? 2n ** 63n : BigInt(randomToInclusive(self.scalarType)) + 1n;
  writeRowMajor(self, randintFill(generator, new Float64Array(self.numel()), from, highBig));
  return self;
}

/** The integral dtypes' [min, max] and C++ names for check_from_to_in_range (floating dtypes only warn in PyTorch). */
const INTEGRAL_RANGES: Partial<Record<ScalarType, [number, number, string]>> = {
  [ScalarType.Bool]: [0, 1, 'bool'],
  [ScalarType.Byte]: [0, 255, 'unsigned char'],
  [ScalarType.Char]: [-128, 127, 'signed char'],
  [ScalarType.Short]: [-32768, 32767, 'short int'],
  [ScalarType.Int]: [-(2 ** 31), 2 ** 31 - 1, 'int'],
};

/** DistributionTemplates.h check_from_to_in_range for the integral dtypes narrower than int64. */
function checkFromToInRange(from: number, toInc: number, st: ScalarType): void {
  const r = INTEGRAL_RANGES[st];
  if (r === undefined) return;
  if (from < r[0] || from > r[1]) throw new Error(`from is out of bounds for ${r[2]}`);
  if (toInc < r[0] || toInc > r[1]) throw new Error(`to - 1 is out of bounds for ${r[2]}`);
}

/** `random_.to(self, to, *, generator)`: integers in [0, to). */
export function randomTo_(ks: DispatchKeySet, self: Tensor, to: number, generator?: Gen): Tensor {
  return randomFrom_(ks, self, 0, to, generator);
}

/**
 * `random_(self, *, generator)` (cpu/DistributionTemplates.h random_kernel): uniform_int_distribution draws
 * random64() for float64 and int64 and random() otherwise, modulo the dtype's bound + 1 (bool: & 1).
 */
export function random_(_ks: DispatchKeySet, self: Tensor, generator?: Gen): Tensor {
  const st = self.scalarType;
  if (self.isMeta() || self.numel() === 0) return self;
  if (!isFloatingType(st) && !isIntegralType(st, true)) throw notImplementedForDtype('random_kernel_cpu', st);
  const bound = randomToInclusive(st);
  if (st === ScalarType.Double || st === ScalarType.Long) {
    writeRowMajor(self, randintFill(generator, new Float64Array(self.numel()), 0, st === ScalarType.Long ? 2n ** 63n : 2n ** 53n + 1n));
    return self;
  }
  // one random() word per element, as randintFill draws for ranges below 2^28 (all but int32's)
  const g = generator ?? defaultGenerator();
  const values = new Float64Array(self.numel());
  for (let i = 0; i < values.length; i++) values[i] = g.random() % (bound + 1);
  writeRowMajor(self, values);
  return self;
}

/** `randperm.generator(n, generator)`: a random permutation of 0..n-1. */
export function randperm(
  _ks: DispatchKeySet,
  n: number,
  generator?: Gen,
  dtype?: ScalarType | null,
  layout?: Layout | null,
  device?: Device | null,
): Tensor {
  if (n < 0) throw new Error(`n must be non-negative, got${n}`);
  const out = aten().empty_memory_format.call([n], dtype ?? ScalarType.Long, layout, device, null, null);
  return at.randperm_generator_out(n, generator ?? null, out);
}

/** `randperm.generator_out(n, *, generator, out)` (TensorFactories.cpp randperm_out_cpu): out resized to [n]. */
export function randpermOut(_ks: DispatchKeySet, n: number, generator: Gen, out: Tensor): Tensor {
  if (n < 0) throw new Error(`n must be non-negative, got${n}`);
  if (out.scalarType === ScalarType.Half && n > 2049) throw new Error('n cannot be greater than 2049 for Half type.');
  if (out.scalarType === ScalarType.Float && n > 2 ** 24 + 1) throw new Error('n cannot be greater than 2^24+1 for Float type.');
  if (!sameSizes(out.sizes, [n])) restride(out, [n], [1]);
  if (out.isMeta()) return out;
  writeRowMajor(out, randpermFill(generator, new Float64Array(n)));
  return out;
}

// Note [multinomial's two samplers]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Distributions.cpp's multinomial_out draws without replacement (and whenever num_samples == 1) by the
// Gumbel-max trick: q = empty_like(self).exponential_(1) (one uniform double from random64() per element, row
// major, -log1p(-u), cast to self's dtype), then argmax / topk of self / q along the last dim. With
// replacement (cpu/MultinomialKernel.cpp) each row's cumulative sum (in self's dtype) is normalised by its
// total, its last entry forced to 1, and each sample is a binary search for one uniform double (random64()),
// rows outer, samples inner. Both consume the generator exactly as PyTorch's CPU kernels, so a seeded
// generator gives PyTorch's samples.

/** `multinomial(self, num_samples, replacement=False, *, generator=None)`. See Note [multinomial's two samplers]. */
export function multinomial(_ks: DispatchKeySet, self: Tensor, numSamples: number, replacement = false, generator?: Gen): Tensor {
  if (!(self.dim() > 0 && self.dim() <= 2)) throw new Error('prob_dist must be 1 or 2 dim');
  if (!isFloatingType(self.scalarType))
    throw new Error(`multinomial only supports floating-point dtypes for input, got: ${scalarTypeToString(self.scalarType)}`);
  if (!(numSamples > 0)) throw new Error('cannot sample n_sample <= 0 samples');
  const nCategories = self.sizes[self.dim() - 1] as number;
  if (!(replacement || numSamples <= nCategories))
    throw new Error('cannot sample n_sample > prob_dist.size(-1) samples without replacement');
  if (nCategories > 2 ** 24) throw new Error('number of categories cannot exceed 2^24');
  const outSizes = self.dim() === 1 ? [numSamples] : [self.sizes[0] as number, numSamples];
  if (self.isMeta()) return aten().empty_memory_format.call(outSizes, ScalarType.Long, null, self.device, null, null);
  const nDist = self.dim() === 1 ? 1 : (self.sizes[0] as number);
  const src = at.contiguous(self);
  const { data, base, lanes } = src.dataView();
  const p = (e: number): number => readElement(src.scalarType, data, base + e * lanes) as number;
  const n = src.numel();
  if (!replacement || numSamples === 1) {
    let ok = true;
    for (let e = 0; e < n; e++) if (!(p(e) < Infinity && p(e) >= 0)) ok = false;
    if (!ok) throw new Error('probability tensor contains either `inf`, `nan` or element < 0');
    for (let r = 0; r < nDist; r++) {
      let s = 0;
      for (let j = 0; j < nCategories; j++) s += p(r * nCategories + j);
      if (s === 0) throw new Error('invalid multinomial distribution (sum of probabilities <= 0)');
    }
    const u = uniformFill(generator, new Float64Array(n));
    const q = aten().empty_like.call(src, null, null, null, null, null);
    const qv = q.dataView();
    for (let e = 0; e < n; e++) qv.data[qv.base + e] = toStored(src.scalarType, -Math.log1p(-(u[e] as number)));
    const ratio = aten().div_Tensor.call(src, q);
    if (numSamples === 1) return aten().argmax.call(ratio, -1, true);
    return aten().topk.call(ratio, numSamples, -1, true, true)[1];
  }
  const out = aten().empty_memory_format.call(outSizes, ScalarType.Long, null, self.device, null, null);
  const ov = out.dataView();
  // The input's view again: allocating `out` may have grown linear memory, detaching the view taken above.
  const sv = src.dataView();
  const pr = (e: number): number => readElement(src.scalarType, sv.data, sv.base + e * sv.lanes) as number;
  const round = self.scalarType === ScalarType.Double ? (x: number) => x : Math.fround;
  const cum = new Float64Array(nCategories);
  for (let r = 0; r < nDist; r++) {
    let sum = 0;
    for (let j = 0; j < nCategories; j++) {
      const val = pr(r * nCategories + j);
      if (!(val >= 0)) throw new Error('invalid multinomial distribution (encountering probability entry < 0)');
      if (!Number.isFinite(val)) throw new Error('invalid multinomial distribution (encountering probability entry = infinity or NaN)');
      sum = round(sum + val);
      cum[j] = sum;
    }
    if (!(sum > 0)) throw new Error('invalid multinomial distribution (sum of probabilities <= 0)');
    for (let j = 0; j < nCategories; j++) cum[j] = round((cum[j] as number) / sum);
    cum[nCategories - 1] = 1;
    for (let k = 0; k < numSamples; k++) {
      const sample = uniformFill(generator, new Float64Array(1))[0] as number;
      let left = 0;
      let right = nCategories;
      while (right - left > 0) {
        const mid = left + Math.floor((right - left) / 2);
        if ((cum[mid] as number) < sample) left = mid + 1;
        else right = mid;
      }
      ov.data[ov.base + r * numSamples + k] = left;
    }
  }
  return out;
}
