// The public `torch` namespace, as `import torch` assembles it in torch/__init__.py: the functions of
// src/api/torch.ts (torch._C._VariableFunctions and friends) plus the libraries built on them
// (torch.serialization's save and load, torch.nn, torch.optim, torch.utils.data). It sits on the floor above the libraries (.dependency-cruiser.cjs),
// so src/api stays below them.
export * from './api/torch.js';
export { load, save, type LoadOptions } from './serialization/index.js';
export * as nn from './nn/index.js';
export * as optim from './optim/index.js';
export * as utils from './utils/index.js';
// torch.library, torch.ops and the torch._C functions they use (src/library; issue 17, torch.library).
export * as library from './library/index.js';
export { ops } from './library/index.js';
export { _C } from './library/_C.js';
