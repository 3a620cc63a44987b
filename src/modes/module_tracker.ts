// ModuleTracker: which nn.Modules are running (forward, or their backward), by fully qualified name with the
// root's class name first (`LeNet.conv1`), plus `Global`. Mirrors torch/utils/module_tracker.py: global forward
// hooks add a module's name before its forward and remove it after; gradient hooks on its outputs add it back
// when backward reaches them, and hooks on its inputs remove it when backward leaves it.

import type { Module, RemovableHandle } from '../nn/modules/module.js';
import { register_module_forward_hook, register_module_forward_pre_hook } from '../nn/modules/module_hooks.js';
import { Tensor } from '../tensor/Tensor.js';

function tensorsNeedingGrad(v: unknown, out: Tensor[] = []): Tensor[] {
  if (v instanceof Tensor) {
    if (v.requiresGrad) out.push(v);
  } else if (Array.isArray(v)) for (const x of v) tensorsNeedingGrad(x, out);
  return out;
}

/**
 * `register_multi_grad_hook(tensors, fn)` ("all" mode) for what ModuleTracker needs: `fn` runs once, when
 * the gradients of all `tensors` that backward reaches have been computed (here: when the last of them has).
 */
function registerMultiGradHook(tensors: readonly Tensor[], fn: () => void): { remove(): void } {
  let pending = tensors.length;
  const handles = tensors.map((t) =>
    t.registerHook(() => {
      if (--pending === 0) {
        fn();
        pending = tensors.length;
      }
    }),
  );
  return { remove: () => handles.forEach((h) => h.remove()) };
}

/** `torch.utils.module_tracker.ModuleTracker`: `parents` is the set of running modules' names. */
export class ModuleTracker implements Disposable {
  parents = new Set<string>(['Global']);
  private readonly knownModules = new WeakMap<Module, string>();
  private readonly seenModules = new WeakSet<Module>();
  private handles: RemovableHandle[] = [];
  private gradHooks: { remove(): void }[] = [];

  private modName(mod: Module): string {
    let name = this.knownModules.get(mod);
    if (name === undefined) {
      name = mod.constructor.name;
      this.knownModules.set(mod, name);
    }
    if (!this.seenModules.has(mod)) {
      for (const [child, sub] of mod.named_children()) {
        this.knownModules.set(sub, `${name}.${child}`);
        this.modName(sub);
      }
      this.seenModules.add(mod);
    }
    return name;
  }

  /** `__enter__`: installs the global forward hooks. */
  enter(): this {
    this.handles.push(
      register_module_forward_pre_hook((mod, args) => {
        const name = this.modName(mod);
        this.parents.add(name);
        const tensors = tensorsNeedingGrad(args);
        if (tensors.length > 0) this.gradHooks.push(registerMultiGradHook(tensors, () => this.parents.delete(name)));
        return undefined;
      }),
      register_module_forward_hook((mod, _args, output) => {
        const name = this.modName(mod);
        this.parents.delete(name);
        const tensors = tensorsNeedingGrad(output);
        if (tensors.length > 0) this.gradHooks.push(registerMultiGradHook(tensors, () => this.parents.add(name)));
        return undefined;
      }),
    );
    return this;
  }

  /** `__exit__`: removes the hooks (and the gradient hooks not yet run). */
  exit(): void {
    for (const h of this.handles) h.remove();
    for (const h of this.gradHooks) h.remove();
    this.handles = [];
    this.gradHooks = [];
    this.parents = new Set(['Global']);
  }

  [Symbol.dispose](): void {
    this.exit();
  }
}
