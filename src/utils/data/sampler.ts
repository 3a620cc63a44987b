// Samplers: the order in which a DataLoader visits a dataset. Mirrors torch/utils/data/sampler.py, with the
// same generator draws as PyTorch, so the same seed gives the same order.

import { bindArgs, parseKw, type WithCamelKeys } from '../../c10/Kwargs.js';
import { randint, randperm } from '../../api/torch.js';
import { Generator, defaultGenerator } from '../../random/index.js';
import { datasetLen } from './dataset.js';

/** Anything with a length: a dataset, a sampler (a plain array is one too, Note [A plain array is a dataset]). */
export interface Sized {
  len(): number;
}

/** A data source: something Sized or a plain array. */
export type SizedLike = Sized | readonly unknown[];

/** `torch.utils.data.Sampler`: an iterable of indices (or of index lists, for batch samplers). */
export abstract class Sampler<T = number> implements Iterable<T> {
  abstract [Symbol.iterator](): Iterator<T>;
  abstract len(): number;
}

/** `SequentialSampler(data_source)`: 0, 1, ..., len - 1. */
export class SequentialSampler extends Sampler<number> {
  constructor(readonly data_source: SizedLike) {
    super();
  }

  *[Symbol.iterator](): Iterator<number> {
    const n = datasetLen(this.data_source);
    for (let i = 0; i < n; i++) yield i;
  }

  len(): number {
    return datasetLen(this.data_source);
  }
}

/**
 * The seed a RandomSampler without a generator draws from the default generator:
 * `int(torch.empty((), dtype=torch.int64).random_().item())`, i.e. random64() mod 2^63 (random_'s full int64
 * range). DataLoader's per-iterator base seed is the same draw.
 */
export function drawSeed(generator?: Generator | null): bigint {
  return (generator ?? defaultGenerator()).random64() & ((1n << 63n) - 1n);
}

/** RandomSampler's options, PyTorch's names. */
export interface RandomSamplerOptions {
  replacement?: boolean;
  num_samples?: number | null;
  generator?: Generator | null;
}

/**
 * `RandomSampler(data_source, replacement=False, num_samples=None, generator=None)`. Without replacement, each
 * pass over the data is one `randperm(n, generator)`, and a final `randperm(n)` is always drawn and cut to
 * `num_samples % n` (as PyTorch does, so the generator advances the same way).
 */
export class RandomSampler extends Sampler<number> {
  readonly replacement: boolean;
  readonly generator: Generator | null;
  private readonly numSamplesOption: number | null;

  constructor(
    readonly data_source: SizedLike,
    options: WithCamelKeys<RandomSamplerOptions> = {},
  ) {
    super();
    options = parseKw('RandomSampler.__init__', options, ['replacement', 'num_samples', 'generator']) as RandomSamplerOptions;
    this.replacement = options.replacement ?? false;
    this.numSamplesOption = options.num_samples ?? null;
    this.generator = options.generator ?? null;
    if (typeof this.replacement !== 'boolean') {
      throw new TypeError(`replacement should be a boolean value, but got replacement=${String(this.replacement)}`);
    }
    const ns = this.num_samples;
    if (!Number.isInteger(ns) || ns <= 0) throw new Error(`num_samples should be a positive integer value, but got num_samples=${ns}`);
  }

  get num_samples(): number {
    return this.numSamplesOption ?? datasetLen(this.data_source);
  }

  *[Symbol.iterator](): Iterator<number> {
    const n = datasetLen(this.data_source);
    const generator = this.generator ?? new Generator().manualSeed(drawSeed());
    const ns = this.num_samples;
    if (this.replacement) {
      for (let i = 0; i < Math.floor(ns / 32); i++) yield* randint(n, [32], { generator }).tolist() as number[];
      yield* randint(n, [ns % 32], { generator }).tolist() as number[];
    } else {
      for (let i = 0; i < Math.floor(ns / n); i++) yield* randperm(n, { generator }).tolist() as number[];
      yield* (randperm(n, { generator }).tolist() as number[]).slice(0, ns % n);
    }
  }

  len(): number {
    return this.num_samples;
  }
}

/** `SubsetRandomSampler(indices, generator=None)`: the indices in the order of one randperm. */
export class SubsetRandomSampler extends Sampler<number> {
  readonly generator: Generator | null;

  /** `generator` positionally or as `{ generator }` (bindArgs, Note [Option keys]). */
  constructor(
    readonly indices: readonly number[],
    ...rest: (Generator | null | { generator?: Generator | null } | undefined)[]
  ) {
    super();
    this.generator = bindArgs('SubsetRandomSampler.__init__', { generator: null }, rest).generator as Generator | null;
  }

  *[Symbol.iterator](): Iterator<number> {
    const perm = randperm(this.indices.length, this.generator === null ? {} : { generator: this.generator }).tolist() as number[];
    for (const i of perm) yield this.indices[i] as number;
  }

  len(): number {
    return this.indices.length;
  }
}

/** `BatchSampler(sampler, batch_size, drop_last)`: the sampler's indices in lists of batch_size. */
export class BatchSampler extends Sampler<number[]> {
  readonly batch_size: number;
  readonly drop_last: boolean;

  /** `batch_size` and `drop_last` positionally or by key (bindArgs, Note [Option keys]). */
  constructor(
    readonly sampler: Iterable<number> & Partial<Sized>,
    ...rest: (number | boolean | WithCamelKeys<{ batch_size?: number; drop_last?: boolean }> | undefined)[]
  ) {
    super();
    const o = bindArgs('BatchSampler.__init__', { batch_size: undefined, drop_last: undefined }, rest);
    if (o.batch_size === undefined) throw new TypeError("BatchSampler.__init__() missing 1 required positional argument: 'batch_size'");
    if (o.drop_last === undefined) throw new TypeError("BatchSampler.__init__() missing 1 required positional argument: 'drop_last'");
    const batch_size = o.batch_size as number;
    const drop_last = o.drop_last as boolean;
    this.batch_size = batch_size;
    this.drop_last = drop_last;
    if (!Number.isInteger(batch_size) || typeof batch_size === 'boolean' || batch_size <= 0) {
      throw new Error(`batch_size should be a positive integer value, but got batch_size=${String(batch_size)}`);
    }
    if (typeof drop_last !== 'boolean') throw new Error(`drop_last should be a boolean value, but got drop_last=${String(drop_last)}`);
  }

  *[Symbol.iterator](): Iterator<number[]> {
    let batch: number[] = [];
    for (const i of this.sampler) {
      batch.push(i);
      if (batch.length === this.batch_size) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0 && !this.drop_last) yield batch;
  }

  len(): number {
    const n = samplerLength(this.sampler);
    return this.drop_last ? Math.floor(n / this.batch_size) : Math.ceil(n / this.batch_size);
  }
}

/** `len(sampler)`: its `len()`, or the length of an array of indices. */
export function samplerLength(sampler: Iterable<unknown> & Partial<Sized>): number {
  if (typeof sampler.len === 'function') return sampler.len();
  if (Array.isArray(sampler)) return sampler.length;
  throw new TypeError("object of type 'sampler' has no len()");
}
