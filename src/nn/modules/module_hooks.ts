// The forward hooks' types and handle (torch.utils.hooks.RemovableHandle), and the global forward hooks of every
// nn.Module call. Mirrors register_module_forward_pre_hook and register_module_forward_hook of
// torch/nn/modules/module.py.

import type { Module } from './module.js';

/** A forward pre-hook (`register_forward_pre_hook`): called with the module and its arguments; may return new arguments. */
export type ForwardPreHook = (module: Module, args: unknown[]) => unknown;
/** A forward hook (`register_forward_hook`): called with the module, its arguments and output; may return a new output. */
export type ForwardHook = (module: Module, args: unknown[], output: unknown) => unknown;

/** What `register_*_hook` returns: `remove()` unregisters the hook. Mirrors torch.utils.hooks.RemovableHandle. */
export class RemovableHandle {
  private static nextId = 0;
  readonly id = RemovableHandle.nextId++;
  constructor(private readonly dicts: Map<number, unknown>[]) {}
  remove(): void {
    for (const d of this.dicts) d.delete(this.id);
  }
}

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
