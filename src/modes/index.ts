// Dispatch modes (src/modes): TorchDispatchMode and its stack helpers (torch.utils._python_dispatch),
// FlopCounterMode (torch.utils.flop_counter), ModuleTracker (torch.utils.module_tracker), FakeTensorMode
// (torch._subclasses), LoggingTensorMode, and record/replay of call streams.
/** `torch.utils._python_dispatch`: `TorchDispatchMode` and the dispatch-mode stack helpers. */
export * as _python_dispatch from './_python_dispatch.js';
/** `torch.utils.flop_counter`: `FlopCounterMode`. */
export * as flop_counter from './flop_counter.js';
/** `torch.utils.module_tracker`: `ModuleTracker`. */
export * as module_tracker from './module_tracker.js';
/** `torch._subclasses`: `FakeTensor`, `FakeTensorMode`. */
export * as _subclasses from './subclasses.js';
export {
  NotImplemented,
  TorchDispatchMode,
  _disable_current_modes,
  _get_current_dispatch_mode,
  _get_current_dispatch_mode_stack,
  _len_torch_dispatch_stack,
  _pop_mode,
  _pop_mode_temporarily,
  _push_mode,
  type DispatchKwargs,
  type ModeStash,
} from './_python_dispatch.js';
// The `func` a mode receives is torch.ops's OpOverload (src/library/ops.ts): the types, for typing `dispatch`.
export type { OpOverload, OpOverloadPacket } from '../library/ops.js';
export { FlopCounterMode, type FlopCounterModeOptions, type FlopFormula } from './flop_counter.js';
export { ModuleTracker } from './module_tracker.js';
export { FakeTensor, FakeTensorMode, isFake, type FakeTensorModeOptions } from './fake_tensor.js';
export { LoggingTensorMode } from './logging_mode.js';
export {
  RecordMode,
  replay,
  type CallStream,
  type RecordedCall,
  type RecordedTensor,
  type RecordedValue,
  type ReplayOptions,
  type ReplayReport,
} from './record_replay.js';
