// The global forward hooks of every nn.Module call. Mirrors register_module_forward_pre_hook and
// register_module_forward_hook of torch/nn/modules/module.py.

import { RemovableHandle, type ForwardHook, type ForwardPreHook } from './module.js';

// Global forward hooks (torch.nn.modules.module.register_module_forward_pre_hook / _forward_hook): they run for
// every module's call, before the module's own hooks, as in PyTorch; ModuleTracker (src/modes) uses them.
export const globalForwardPreHooks = new Map<number, ForwardPreHook>();
export const globalForwardHooks = new Map<number, ForwardHook>();

/** `register_module_forward_pre_hook(hook)`: `hook(module, args)` before every module's forward. */
export function register_module_forward_pre_hook(hook: ForwardPreHook): RemovableHandle {
  const h = new RemovableHandle([globalForwardPreHooks as Map<number, unknown>]);
  globalForwardPreHooks.set(h.id, hook);
  return h;
}

/** `register_module_forward_hook(hook)`: `hook(module, args, output)` after every module's forward. */
export function register_module_forward_hook(hook: ForwardHook): RemovableHandle {
  const h = new RemovableHandle([globalForwardHooks as Map<number, unknown>]);
  globalForwardHooks.set(h.id, hook);
  return h;
}
