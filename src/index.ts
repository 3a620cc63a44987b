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
// ---- issue 17 (dispatch): the schema language, key-set helpers and TLS guards from the package entry ----------
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
