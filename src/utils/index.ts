// torch.utils: `utils.data` (datasets, samplers, DataLoader).

export * as data from './data/index.js';
