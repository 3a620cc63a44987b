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
