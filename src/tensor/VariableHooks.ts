// The hooks through which a Tensor reaches autograd without importing it. Mirrors
// ATen/core/VariableHooksInterface.h: at::TensorBase's grad_fn(), requires_grad_(), retain_grad(),
// _backward() ... call `impl::GetVariableHooks()`, an interface that libtorch's autograd implements
// (torch/csrc/autograd/variable.cpp, VariableHooks) and installs at start-up.

import type { Node } from '../autograd/function.js';
import type { BackwardOptions } from '../autograd/engine.js';
import type { Tensor } from './Tensor.js';
import type { TensorImpl } from './TensorImpl.js';

// Note [Tensor reaches autograd through hooks]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// tensor/ sits below autograd/ (autograd's graph nodes hold tensors), so Tensor's autograd methods cannot
// import it. As in PyTorch, they call an interface that autograd implements and installs once
// (`installVariableHooks` in src/autograd/variable.ts, called by the public entry point). Until then the
// default hooks throw a clear error; a tensor that only reads `requiresGrad` (a field) never needs them.

/** What Tensor asks of autograd (VariableHooksInterface). */
export interface VariableHooksInterface {
  /** `x.requires_grad = flag` / `requires_grad_(flag)`, with PyTorch's checks. */
  setRequiresGrad(t: TensorImpl, flag: boolean): void;
  /** `grad_fn`, refreshed for a view whose base changed in place. */
  gradFn(t: Tensor): Node | null;
  /** `x.grad = g`. */
  setGrad(t: Tensor, g: Tensor | null): void;
  /** `retain_grad()`. */
  retainGrad(t: Tensor): void;
  /** `register_hook(fn)`. */
  registerHook(t: Tensor, fn: (grad: Tensor) => Tensor | undefined | void): { remove(): void };
  /** `backward(gradient, options)`. */
  backward(t: Tensor, gradient: Tensor | null | BackwardOptions | undefined, options: BackwardOptions | undefined): void;
}

function notLoaded(): never {
  throw new Error('autograd is not loaded: import aten-ts from its package entry (src/index.ts), which installs it');
}

const DEFAULT_HOOKS: VariableHooksInterface = {
  setRequiresGrad: notLoaded,
  gradFn: () => null,
  setGrad: notLoaded,
  retainGrad: notLoaded,
  registerHook: notLoaded,
  backward: notLoaded,
};

let hooks: VariableHooksInterface = DEFAULT_HOOKS;

/** The installed hooks (`impl::GetVariableHooks()`). */
export function variableHooks(): VariableHooksInterface {
  return hooks;
}

/** Installs autograd's implementation (`impl::SetVariableHooks`); returns the previous hooks. */
export function setVariableHooks(h: VariableHooksInterface): VariableHooksInterface {
  const previous = hooks;
  hooks = h;
  return previous;
}
