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
// The `torch` namespace with its libraries (src/torch.ts); src/api/index.ts exports the core one.
export * as torch from './torch.js';
export { safetensors } from './serialization/index.js';
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
// Out-of-tree backends (PrivateUse1): storage and allocators (c10/core/Allocator.h, StorageImpl.h), the
// PrivateUse1 device name, and at::native::cpu_fallback. torch.utils.rename_privateuse1_backend and
// generate_methods_for_privateuse1_backend are in the `torch` namespace. README "Out-of-tree backends (PrivateUse1)".
export { Storage, getAllocator, setAllocator, type Allocator, type DataPtr, type StorageArray } from './tensor/Storage.js';
export { getPrivateUse1BackendName, isPrivateUse1BackendRegistered } from './c10/Device.js';
export { empty_generic, empty_strided_generic } from './tensor/EmptyTensor.js';
export { cpu_fallback, type CpuFallbackOptions } from './kernels/CPUFallback.js';
export type { BoxedKernel, Stack, UnboxedKernel } from './dispatch/KernelFunction.js';
