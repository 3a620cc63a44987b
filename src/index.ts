// aten-ts public API. Explicit exports only; see each folder's README for its model.
// Importing the package starts it up (Note [Start-up] in src/api/torch.ts): a bare import, so a bundler that
// keeps this entry keeps the start-up too, whatever the user imports (package.json's sideEffects lists both).
import './api/torch.js';
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
/** The `torch` namespace: tensor functions, dtypes, autograd, `nn`, `optim`, `utils`, `save`/`load`, as `import torch`. */
export * as torch from './torch.js';
export { safetensors, setSerializationFileSystem, type SerializationFileSystem } from './serialization/index.js';
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
/** The options-object types: `WithCamelKeys<T>` names each snake_case key of T in camelCase too (Note [Option keys]). */
export type { CamelCase, WithCamelKeys } from './c10/Kwargs.js';
/** `torch.nn`: modules, `Parameter`, `functional` and `init` (also as `torch.nn`). */
export * as nn from './nn/index.js';
/** `torch.optim`: optimizers (SGD, Adam, AdamW, RMSprop, Adagrad) and `lr_scheduler` (also as `torch.optim`). */
export * as optim from './optim/index.js';
/** `torch.utils`: `utils.data` with datasets, samplers and the DataLoader (also as `torch.utils`). */
export * as utils from './utils/index.js';
// ---- dispatch: the schema language, key-set helpers and TLS guards from the package entry ----------
/** PyTorch's function-schema language: `parseSchema('f(Tensor x, *, ScalarType? dtype=None) -> Tensor')`, the model. */
export {
  Argument,
  FunctionSchema,
  ListType,
  OperatorName,
  OptionalType,
  SchemaParseError,
  SchemaType,
  TupleType,
  Types,
  parseName,
  parseSchema,
  parseSchemaOrName,
  type DefaultValue,
  type SchemaKind,
} from './schema/index.js';
/** DispatchKeySet.h's helpers: table index, alias expansion, named key sets, key conversions. */
export {
  NUM_RUNTIME_ENTRIES,
  afterADInplaceOrViewKeyset,
  afterAutogradKeyset,
  afterFuncKeyset,
  autocastDispatchKeyset,
  autogradDispatchKeyset,
  autogradDispatchKeysetWithADInplaceOrView,
  autogradotherBackends,
  backendDispatchKeyset,
  defaultExcludedSet,
  defaultIncludedSet,
  getAutogradKeyFromBackend,
  getBackendKeySetFromAutograd,
  getDispatchTableIndexForDispatchKey,
  getRuntimeDispatchKeySet,
  isAliasDispatchKey,
  isBackendDispatchKey,
  isIncludedInAlias,
  isPerBackendFunctionalityKey,
  mathDispatchKeyset,
  pythonKs,
  runtimeDispatchKeySetHas,
  toBackendComponent,
  toFunctionalityKey,
} from './c10/index.js';
/** Thread-local include/exclude sets (LocalDispatchKeySet.h) and their guards (`using g = new ExcludeDispatchKeyGuard(ks)`). */
export {
  AutoDispatchBelowADInplaceOrView,
  ForceDispatchKeyGuard,
  forceTlsLocalDispatchKeySet,
  tlsIsDispatchKeyExcluded,
  tlsIsDispatchKeyIncluded,
  tlsLocalDispatchKeySet,
  tlsSetDispatchKeyExcluded,
  tlsSetDispatchKeyIncluded,
  withGuard,
  type LocalDispatchKeySet,
} from './dispatch/index.js';
// Out-of-tree backends (PrivateUse1): storage and allocators (c10/core/Allocator.h, StorageImpl.h), the
// PrivateUse1 device name, and at::native::cpu_fallback. torch.utils.rename_privateuse1_backend and
// generate_methods_for_privateuse1_backend are in the `torch` namespace. README "Out-of-tree backends (PrivateUse1)".
export { Storage, getAllocator, setAllocator, type Allocator, type DataPtr, type StorageArray } from './tensor/Storage.js';
export { getPrivateUse1BackendName, isPrivateUse1BackendRegistered } from './c10/Device.js';
export { empty_generic, empty_strided_generic } from './tensor/EmptyTensor.js';
export { cpu_fallback, type CpuFallbackOptions } from './kernels/CPUFallback.js';
export type { BoxedKernel, Stack, UnboxedKernel } from './dispatch/KernelFunction.js';
