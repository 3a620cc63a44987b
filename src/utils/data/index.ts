// torch.utils.data: datasets, samplers, collation and the DataLoader. Mirrors torch/utils/data/__init__.py.

export { ConcatDataset, Dataset, Subset, TensorDataset, random_split, randomSplit, type DatasetLike } from './dataset.js';
export {
  BatchSampler,
  RandomSampler,
  Sampler,
  SequentialSampler,
  SubsetRandomSampler,
  type RandomSamplerOptions,
  type Sized,
} from './sampler.js';
export { default_collate, default_convert, defaultCollate, defaultConvert } from './collate.js';
export { DataLoader, type DataLoaderOptions } from './dataloader.js';
export { FashionMNIST, readIdx, gunzipIfNeeded, type FashionMNISTOptions, type IdxArray } from './fashion_mnist.js';
