// torch.utils: `utils.data` (datasets, samplers, DataLoader) and the PrivateUse1 backend registration helpers.

/** `torch.utils.data`: datasets, samplers, collation and the DataLoader. */
export * as data from './data/index.js';
// Dispatch modes (src/modes): torch.utils._python_dispatch, torch.utils.flop_counter, torch.utils.module_tracker.
export * as _python_dispatch from '../modes/_python_dispatch.js';
export * as flop_counter from '../modes/flop_counter.js';
export * as module_tracker from '../modes/module_tracker.js';
// Out-of-tree backends (PrivateUse1): torch/utils/backend_registration.py.
export {
  generate_methods_for_privateuse1_backend,
  rename_privateuse1_backend,
  type GenerateMethodsOptions,
} from './backend_registration.js';
