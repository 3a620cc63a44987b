// DataLoader: batches of a dataset in sampler order, single-process. Mirrors torch/utils/data/dataloader.py
// (DataLoader, _SingleProcessDataLoaderIter) and _utils/fetch.py (_MapDatasetFetcher).

import { parseKw, type WithCamelKeys } from '../../c10/Kwargs.js';
import type { Generator } from '../../random/index.js';
import { default_collate, default_convert } from './collate.js';
import { index_select, tensor } from '../../api/torch.js';
import { ScalarType } from '../../c10/ScalarType.js';
import type { Tensor } from '../../tensor/Tensor.js';
import { TensorDataset, datasetItem, type DatasetLike } from './dataset.js';
import { BatchSampler, RandomSampler, SequentialSampler, drawSeed, samplerLength, type Sized } from './sampler.js';

/** DataLoader's options, PyTorch's names and defaults. */
export interface DataLoaderOptions<T, B> {
  batch_size?: number | null;
  shuffle?: boolean | null;
  sampler?: (Iterable<number> & Partial<Sized>) | null;
  batch_sampler?: (Iterable<number[]> & Partial<Sized>) | null;
  num_workers?: number;
  collate_fn?: ((batch: T[]) => B) | null;
  pin_memory?: boolean;
  drop_last?: boolean;
  generator?: Generator | null;
}

const OPTION_KEYS = [
  'batch_size',
  'shuffle',
  'sampler',
  'batch_sampler',
  'num_workers',
  'collate_fn',
  'pin_memory',
  'drop_last',
  'generator',
];

// Note [DataLoader draws like PyTorch's]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Every `iter(loader)` in PyTorch first draws a base seed for workers, `random_()` on an int64 scalar from
// `loader.generator` (the default generator when None), even with num_workers=0; only then, on the first
// `next()`, does the sampler start (a RandomSampler without a generator draws its own seed from the default
// generator then, and runs randperm on a fresh generator). aten-ts makes the same draws in the same order, so
// `torch.manual_seed(s)` or a seeded `generator` gives PyTorch's batches, epoch after epoch.

/**
 * `torch.utils.data.DataLoader(dataset, batch_size=1, shuffle=False, sampler=None, batch_sampler=None,
 * num_workers=0, collate_fn=None, drop_last=False, generator=None)`. Iterable with `for … of` and
 * `for await … of`; `len()` is the number of batches. Loading is single-process: num_workers > 0 is refused.
 *
 * @example
 * ```ts
 * const loader = new DataLoader(new TensorDataset(x, y), { batch_size: 64, shuffle: true });
 * for (const [xb, yb] of loader) { ... }
 * ```
 */
export class DataLoader<T = unknown, B = unknown> implements Iterable<B>, AsyncIterable<B> {
  readonly dataset: DatasetLike<T>;
  readonly batch_size: number | null;
  readonly drop_last: boolean;
  readonly sampler: Iterable<number> & Partial<Sized>;
  readonly batch_sampler: (Iterable<number[]> & Partial<Sized>) | null;
  readonly generator: Generator | null;
  readonly collate_fn: (batch: T[]) => B;
  readonly num_workers = 0;

  constructor(dataset: DatasetLike<T>, options: WithCamelKeys<DataLoaderOptions<T, B>> = {}) {
    // camelCase keys (`batchSize`) are their snake_case names (Note [Option keys])
    options = parseKw('DataLoader.__init__', options, OPTION_KEYS) as DataLoaderOptions<T, B>;
    const numWorkers = options.num_workers ?? 0;
    if (numWorkers < 0) throw new Error('num_workers option should be non-negative; use num_workers=0 to disable multiprocessing.');
    if (numWorkers > 0) {
      throw new Error(
        `DataLoader: num_workers=${numWorkers} is not supported by aten-ts (loading runs in the calling thread); use num_workers=0`,
      );
    }
    let batchSize = options.batch_size === undefined ? 1 : options.batch_size;
    const shuffle = Boolean(options.shuffle);
    let dropLast = options.drop_last ?? false;
    let sampler = options.sampler ?? null;
    let batchSampler = options.batch_sampler ?? null;
    const generator = options.generator ?? null;
    if (sampler !== null && shuffle) throw new Error('sampler option is mutually exclusive with shuffle');
    if (batchSampler !== null) {
      if (batchSize !== 1 || shuffle || sampler !== null || dropLast) {
        throw new Error('batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and drop_last');
      }
      batchSize = null;
      dropLast = false;
    } else if (batchSize === null && dropLast) {
      throw new Error('batch_size=None option disables auto-batching and is mutually exclusive with drop_last');
    }
    if (sampler === null) sampler = shuffle ? new RandomSampler(dataset, { generator }) : new SequentialSampler(dataset);
    if (batchSize !== null && batchSampler === null) batchSampler = new BatchSampler(sampler, batchSize, dropLast);
    this.dataset = dataset;
    this.batch_size = batchSize;
    this.drop_last = dropLast;
    this.sampler = sampler;
    this.batch_sampler = batchSampler;
    this.generator = generator;
    this.collate_fn = options.collate_fn ?? ((batchSampler !== null ? default_collate : default_convert) as (batch: T[]) => B);
  }

  /** The sampler whose items the loader fetches: the batch sampler when batching, else the sampler. */
  private get indexSampler(): Iterable<number[] | number> & Partial<Sized> {
    return this.batch_sampler ?? this.sampler;
  }

  /** `len(loader)`: the number of batches (of samples without batching). */
  len(): number {
    return samplerLength(this.indexSampler);
  }

  /** One pass over the data (Note [DataLoader draws like PyTorch's]). */
  *[Symbol.iterator](): Iterator<B> {
    const indices = this.indexSampler[Symbol.iterator]();
    drawSeed(this.generator); // _BaseDataLoaderIter._base_seed
    const dataset = this.dataset;
    const collate = this.collate_fn;
    const whole = this.batch_sampler !== null && collate === default_collate ? wholeBatchTensors(dataset) : null;
    for (let next = indices.next(); next.done !== true; next = indices.next()) {
      const index = next.value;
      if (whole !== null) yield whole.map((t) => index_select(t, 0, tensor(index as number[], { dtype: ScalarType.Long }))) as B;
      else if (this.batch_sampler !== null) yield collate((index as number[]).map((i) => datasetItem(dataset, i)));
      else yield (collate as (x: unknown) => B)(datasetItem(dataset, index as number));
    }
  }

  /** `for await (const batch of loader)`: the same batches. */
  async *[Symbol.asyncIterator](): AsyncIterator<B> {
    for (const batch of this) yield await Promise.resolve(batch);
  }
}

// Note [A TensorDataset's batch in one gather]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch fetches a batch of a TensorDataset sample by sample (`dataset[i]`, a select per tensor) and
// default_collate stacks the samples: two dispatched ops per sample and tensor, then a cat of the batch
// (about 260 calls for `npm start`'s batches of 64 images and labels, 5–7% of its training step). The
// result is, per tensor, the rows at the batch's indices in a new contiguous tensor of the same dtype:
// index_select gives exactly that, in one call. The loader takes that path only where nothing else could
// tell: a TensorDataset itself (not a subclass, whose getItem may differ), the default collate_fn, batching
// on, and no tensor requiring grad (a stacked batch would record StackBackward0). The indices and the
// samplers' draws are the same, so the batches are too.

/** The dataset's tensors when its batches may be gathered whole (Note [A TensorDataset's batch in one gather]). */
function wholeBatchTensors(dataset: unknown): Tensor[] | null {
  if (!(dataset instanceof TensorDataset) || dataset.constructor !== TensorDataset) return null;
  const ts = dataset.tensors;
  return ts.length > 0 && ts.every((t) => !t.requiresGrad && t.dim() > 0) ? ts : null;
}
