// Datasets: Dataset, TensorDataset, Subset, ConcatDataset and random_split. Mirrors torch/utils/data/dataset.py.

import { randperm } from '../../api/torch.js';
import { bindArgs } from '../../c10/Kwargs.js';
import type { Generator } from '../../random/index.js';
import type { Tensor } from '../../tensor/Tensor.js';
import type { TensorIndex } from '../../api/TensorIndexing.js';

// Note [A plain array is a dataset]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch takes any sequence with `__len__` and `__getitem__` where it wants a map-style dataset:
// `random_split(range(20), [14, 6])`, `RandomSampler(list)`, `DataLoader(list_of_pairs)`. The JavaScript
// sequence is an Array, so every place that takes a dataset takes a plain array too (`DatasetLike`), read
// through `datasetLen` / `datasetItem` (a list's `len()` and `[i]`, negative indices and IndexError's text
// included); a Subset keeps the array itself as its `dataset`, as Python keeps the list.

/** A map-style dataset or a plain array (Note [A plain array is a dataset]). */
export type DatasetLike<T = unknown> = Dataset<T> | readonly T[];

/** `len(dataset)` of a Dataset or a plain array. */
export function datasetLen(dataset: DatasetLike | { len(): number }): number {
  if (Array.isArray(dataset)) return dataset.length;
  const d = dataset as { len?: unknown };
  if (typeof d.len !== 'function') throw new TypeError(`object of type '${typeNameOf(dataset)}' has no len()`);
  return (dataset as { len(): number }).len();
}

/** `dataset[index]` of a Dataset or a plain array (a list's negative indices and IndexError). */
export function datasetItem<T>(dataset: DatasetLike<T>, index: number): T {
  if (!Array.isArray(dataset)) return (dataset as Dataset<T>).getItem(index);
  const list = dataset as readonly T[];
  const i = index < 0 ? list.length + index : index;
  if (i < 0 || i >= list.length) throw new RangeError('list index out of range');
  return list[i] as T;
}

function typeNameOf(v: unknown): string {
  if (v === null || v === undefined) return 'NoneType';
  return typeof v === 'object' ? ((v as object).constructor?.name ?? 'object') : typeof v;
}

/**
 * `torch.utils.data.Dataset`: a map-style dataset, `getItem(index)` (Python's `__getitem__`) and `len()`
 * (`__len__`).
 */
export abstract class Dataset<T = unknown> {
  abstract getItem(index: number): T;
  abstract len(): number;

  /** The samples in order (iteration protocol, as Python's sequence fallback for `__getitem__`). */
  *[Symbol.iterator](): Iterator<T> {
    const n = this.len();
    for (let i = 0; i < n; i++) yield this.getItem(i);
  }
}

/** `TensorDataset(*tensors)`: sample i is the i-th row of every tensor (their first dims must agree). */
export class TensorDataset extends Dataset<Tensor[]> {
  readonly tensors: Tensor[];

  constructor(...tensors: Tensor[]) {
    super();
    const n = tensors[0]?.size(0);
    if (!tensors.every((t) => t.size(0) === n)) throw new Error('Size mismatch between tensors');
    this.tensors = tensors;
  }

  /** `tuple(tensor[index] for tensor in self.tensors)`: an int, or any index of `x.index([...])` (a Slice: a batch). */
  getItem(index: number | TensorIndex): Tensor[] {
    return this.tensors.map((t) => (typeof index === 'number' ? t.select(0, index) : t.index([index])));
  }

  len(): number {
    return this.tensors[0]?.size(0) ?? 0;
  }
}

/** `Subset(dataset, indices)`: the dataset seen through a list of indices. */
export class Subset<T = unknown> extends Dataset<T> {
  constructor(
    readonly dataset: DatasetLike<T>,
    readonly indices: readonly number[],
  ) {
    super();
  }

  getItem(index: number): T {
    const i = this.indices[index < 0 ? this.indices.length + index : index];
    if (i === undefined) throw new RangeError(`list index out of range: ${index}`);
    return datasetItem(this.dataset, i);
  }

  len(): number {
    return this.indices.length;
  }
}

/** `ConcatDataset(datasets)`: the datasets one after the other. */
export class ConcatDataset<T = unknown> extends Dataset<T> {
  readonly cumulativeSizes: number[];

  constructor(readonly datasets: readonly DatasetLike<T>[]) {
    super();
    if (datasets.length === 0) throw new Error('datasets should not be an empty iterable');
    let s = 0;
    this.cumulativeSizes = datasets.map((d) => (s += datasetLen(d)));
  }

  getItem(index: number): T {
    const n = this.len();
    if (index < 0) {
      if (-index > n) throw new RangeError('absolute value of index should not exceed dataset length');
      index += n;
    }
    const k = this.cumulativeSizes.findIndex((c) => index < c);
    if (k < 0) throw new RangeError(`index ${index} is out of range`);
    return datasetItem(this.datasets[k] as DatasetLike<T>, k === 0 ? index : index - (this.cumulativeSizes[k - 1] as number));
  }

  len(): number {
    return this.cumulativeSizes[this.cumulativeSizes.length - 1] as number;
  }
}

/**
 * `random_split(dataset, lengths, generator=default_generator)`: non-overlapping subsets of the given lengths
 * (or fractions summing to 1), from `randperm(sum(lengths), generator)`, so the same seed gives PyTorch's split.
 */
export function random_split<T>(
  dataset: DatasetLike<T>,
  lengths: readonly number[],
  ...rest: (Generator | { generator?: Generator } | undefined)[]
): Subset<T>[] {
  const generator = bindArgs('random_split', { generator: undefined }, rest).generator as Generator | undefined;
  const n = datasetLen(dataset);
  let sizes = [...lengths];
  const total = sizes.reduce((a, b) => a + b, 0);
  if (Math.abs(total - 1) <= 1e-9 * Math.max(1, Math.abs(total)) && total <= 1) {
    sizes = lengths.map((frac, i) => {
      if (frac < 0 || frac > 1) throw new Error(`Fraction at index ${i} is not between 0 and 1`);
      return Math.floor(n * frac);
    });
    const remainder = n - sizes.reduce((a, b) => a + b, 0);
    for (let i = 0; i < remainder; i++) sizes[i % sizes.length]! += 1;
    sizes.forEach((len, i) => {
      if (len === 0) console.warn(`Length of split at index ${i} is 0. This might result in an empty dataset.`);
    });
  }
  const sum = sizes.reduce((a, b) => a + b, 0);
  if (sum !== n) throw new Error('Sum of input lengths does not equal the length of the input dataset!');
  const indices = randperm(sum, generator === undefined ? {} : { generator }).tolist() as number[];
  let offset = 0;
  return sizes.map((len) => {
    offset += len;
    return new Subset(dataset, indices.slice(offset - len, offset));
  });
}

/** camelCase name of `random_split`. */
export const randomSplit = random_split;
