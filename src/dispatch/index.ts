// The dispatcher: operator registry, Library, computed dispatch tables, calls, TLS key sets, traces.
export { Dispatcher, RegistrationHandle, type DispatcherOptions } from './Dispatcher.js';
export {
  Library,
  callerDebugString,
  type DefOptions,
  type ImplOptions,
  type Kernel,
  type LibraryKind,
  type LibraryOptions,
  type RegistrationOptions,
} from './Library.js';
export { KernelFunction, type BoxedKernel, type Stack, type UnboxedKernel } from './KernelFunction.js';
export { OperatorHandle, type AnyFn } from './OperatorHandle.js';
export {
  NotImplementedError,
  OperatorEntry,
  TABLE_KEYS,
  type AliasAnalysisKind,
  type AnnotatedKernel,
  type ComputedEntry,
} from './OperatorEntry.js';
export { DispatchArgKind, DispatchKeyExtractor, dispatchArgKindOfType, type HasDispatchKeySet } from './DispatchKeyExtractor.js';
export {
  AutoDispatchBelowADInplaceOrView,
  AutoDispatchBelowAutograd,
  ExcludeDispatchKeyGuard,
  ForceDispatchKeyGuard,
  IncludeDispatchKeyGuard,
  forceTlsLocalDispatchKeySet,
  tlsIsDispatchKeyExcluded,
  tlsIsDispatchKeyIncluded,
  tlsLocalDispatchKeySet,
  tlsSetDispatchKeyExcluded,
  tlsSetDispatchKeyIncluded,
  withGuard,
  type LocalDispatchKeySet,
} from './LocalDispatchKeySet.js';
export {
  addDispatchObserver,
  frontEndEnter,
  isDispatchPhaseTimingEnabled,
  isDispatchTraceEnabled,
  setDispatchPhaseTiming,
  setDispatchTraceEnabled,
  setDispatchTraceSink,
  type DispatchEvent,
  type DispatchObserver,
} from './debug.js';
export { builtinFallbacks, registerBuiltinFallbacks } from './builtinFallbacks.js';
export {
  TorchDispatchModeTLS,
  pythonFallback,
  pythonTLSSnapshotFallback,
  setPythonDispatchHandler,
  type PythonDispatchHandler,
} from './PythonFallbackKernel.js';
export { argumentTypesOf, checkInferredSchema, parseDispatcherSchema, type DispatcherSchema } from './schemaInfo.js';
