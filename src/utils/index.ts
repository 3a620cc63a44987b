// torch.utils: `utils.data` (datasets, samplers, DataLoader) and the PrivateUse1 backend registration helpers.

/** `torch.utils.data`: datasets, samplers, collation and the DataLoader. */
export * as data from './data/index.js';
// Dispatch modes (src/modes): torch.utils._python_dispatch, torch.utils.flop_counter, torch.utils.module_tracker.
/** `torch.utils._python_dispatch`: `TorchDispatchMode` and the dispatch-mode stack helpers (src/modes). */
export * as _python_dispatch from '../modes/_python_dispatch.js';
/** `torch.utils.flop_counter`: `FlopCounterMode`, FLOPs per operator and per module with PyTorch's formulas. */
export * as flop_counter from '../modes/flop_counter.js';
/** `torch.utils.module_tracker`: `ModuleTracker`, the module hierarchy a forward or backward is in. */
export * as module_tracker from '../modes/module_tracker.js';
// Out-of-tree backends (PrivateUse1): torch/utils/backend_registration.py.
export {
  generate_methods_for_privateuse1_backend,
  rename_privateuse1_backend,
  type GenerateMethodsOptions,
} from './backend_registration.js';
