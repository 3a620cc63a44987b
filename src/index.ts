// aten-ts public API. Explicit exports only; see each folder's README for its model.
export {
  BackendComponent,
  Device,
  DeviceType,
  DispatchKey,
  DispatchKeySet,
  Layout,
  MemoryFormat,
  ScalarType,
  computeDispatchKey,
  dispatchKeyToString,
  parseDispatchKey,
  promoteTypes,
} from './c10/index.js';
export {
  AutoDispatchBelowAutograd,
  Dispatcher,
  ExcludeDispatchKeyGuard,
  IncludeDispatchKeyGuard,
  KernelFunction,
  Library,
  NotImplementedError,
  OperatorHandle,
  RegistrationHandle,
  addDispatchObserver,
  setDispatchTraceEnabled,
  setDispatchTraceSink,
} from './dispatch/index.js';
export { torch } from './api/index.js';
export { Tensor } from './tensor/Tensor.js';
export {
  cpuMemoryStats,
  getKernelBackend,
  initWasm,
  parallelInfo,
  setKernelBackend,
  type CPUMemoryStats,
  type KernelBackend,
  type ParallelInfo,
  type WasmMemoryOptions,
} from './wasm/index.js';
export type { TensorOptions } from './api/torch.js';
export * as nn from './nn/index.js';
export * as optim from './optim/index.js';
export * as utils from './utils/index.js';
