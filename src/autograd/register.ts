// Autograd's start-up: its kernels into the dispatcher (the generated Autograd and ADInplaceOrView kernels of
// src/generated/autograd.ts, from derivatives.yaml — libtorch's VariableType and ADInplaceOrViewType
// registrations) and its implementation of the tensor hooks (torch/csrc/autograd/variable.cpp's
// VariableHooks, installed as `at::impl::SetVariableHooks` does). Called by the public entry point.

import { Dispatcher } from '../dispatch/Dispatcher.js';
import { parseDispatchKey, type DispatchKey } from '../c10/DispatchKey.js';
import { toKernelFunction, type Kernel } from '../dispatch/Library.js';
import { aten, buildHandles } from '../generated/Operators.js';
import { autogradKernels, inplaceOrViewKernels } from '../generated/autograd.js';
import { setVariableHooks } from '../tensor/VariableHooks.js';
import { installAutogradFallback } from './autograd_not_implemented_fallback.js';
import { tensorBackward } from './engine.js';
import { currentGradFn, registerHook, retainGrad, setGrad, setRequiresGrad } from './variable.js';

/**
 * Registers the Autograd and ADInplaceOrView kernels of the aten operators into `dispatcher` (after registerAten):
 * each operator's when it is first touched (Note [Registration on first touch] in src/dispatch/Dispatcher.ts).
 */
export function registerAutograd(dispatcher: Dispatcher): void {
  let tables: (readonly [DispatchKey, string, Readonly<Record<string, Kernel>>])[] | null = null;
  dispatcher.addDeferredKernels((d, opName, name) => {
    if (tables === null) {
      // The kernels call operators through handles of this dispatcher (See Note [Handles in one object literal]).
      // (the process-wide dispatcher's are the front end's: found once)
      const ops = Dispatcher.isSingleton(d) ? aten() : buildHandles((n, overload) => d.findSchemaOrThrow(n, overload));
      tables = [
        [parseDispatchKey('Autograd'), 'Autograd', autogradKernels(ops)],
        [parseDispatchKey('ADInplaceOrView'), 'ADInplaceOrView', inplaceOrViewKernels(ops)],
      ];
    }
    // What Library('aten', 'FRAGMENT').impl(name, kernel, key) registers, without parsing the name again.
    for (const [k, key, table] of tables) {
      const kernel = Object.hasOwn(table, name) ? table[name] : undefined;
      if (kernel !== undefined) d.registerImpl(opName, k, toKernelFunction(kernel), `registered at aten-ts autograd ${name} (${key})`);
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
