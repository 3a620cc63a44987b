// torch.utils: `utils.data` (datasets, samplers, DataLoader).

/** `torch.utils.data`: datasets, samplers, collation and the DataLoader. */
export * as data from './data/index.js';
