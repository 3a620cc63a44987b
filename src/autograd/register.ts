// Autograd's start-up: its kernels into the dispatcher (the generated Autograd and ADInplaceOrView kernels of
// src/generated/autograd.ts, from derivatives.yaml — libtorch's VariableType and ADInplaceOrViewType
// registrations) and its implementation of the tensor hooks (torch/csrc/autograd/variable.cpp's
// VariableHooks, installed as `at::impl::SetVariableHooks` does). Called by the public entry point.

import type { Dispatcher } from '../dispatch/Dispatcher.js';
import { parseDispatchKey } from '../c10/DispatchKey.js';
import { toKernelFunction, type Kernel } from '../dispatch/Library.js';
import { buildHandles, type AtenOps } from '../generated/Operators.js';
import { autogradKernels, inplaceOrViewKernels } from '../generated/autograd.js';
import { setVariableHooks } from '../tensor/VariableHooks.js';
import { installAutogradFallback } from './autograd_not_implemented_fallback.js';
import { tensorBackward } from './engine.js';
import { currentGradFn, registerHook, retainGrad, setGrad, setRequiresGrad } from './variable.js';

/** Registers the Autograd and ADInplaceOrView kernels of the aten operators into `dispatcher` (after registerAten). */
export function registerAutograd(dispatcher: Dispatcher): void {
  dispatcher.batch(() => {
    // The kernels call operators through handles of this dispatcher (See Note [Handles in one object literal]).
    const ops = buildHandles((name, overload) => dispatcher.findSchemaOrThrow(name, overload));
    // What Library('aten', 'FRAGMENT').impl(name, kernel, key) registers, with the handles' operator names
    // instead of parsing each name again (start-up; generated, trusted names).
    for (const [key, table] of [
      ['Autograd', autogradKernels(ops)],
      ['ADInplaceOrView', inplaceOrViewKernels(ops)],
    ] as const) {
      const k = parseDispatchKey(key);
      for (const [name, kernel] of Object.entries(table) as [keyof AtenOps, Kernel][]) {
        dispatcher.registerImpl(
          ops[name].entry.name,
          k,
          toKernelFunction(kernel),
          `registered at aten-ts autograd ${String(name)} (${key})`,
        );
      }
    }
  });
}

/** Installs autograd's side of Note [Tensor reaches autograd through hooks]. */
export function installVariableHooks(): void {
  setVariableHooks({
    setRequiresGrad,
    gradFn: currentGradFn,
    setGrad,
    retainGrad,
    registerHook,
    backward: (t, gradient, options) => tensorBackward(t, gradient, options),
  });
  // VariableHooks::basic_autograd_not_implemented_fallback: the autograd fallback of custom operators.
  installAutogradFallback();
}
