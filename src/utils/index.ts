// torch.utils: `utils.data` (datasets, samplers, DataLoader) and the PrivateUse1 backend registration helpers.

export * as data from './data/index.js';
// Out-of-tree backends (PrivateUse1): torch/utils/backend_registration.py.
export {
  generate_methods_for_privateuse1_backend,
  rename_privateuse1_backend,
  type GenerateMethodsOptions,
} from './backend_registration.js';
