// Grad mode and inference mode: `noGrad`, `enableGrad`, `setGradEnabled`, `inferenceMode`, as scoped guards
// (usable with `using`) and as functions that run a callback. Mirrors c10/core/GradMode.h, InferenceMode.h
// and torch/autograd/grad_mode.py.

import { autogradState } from '../c10/AutogradState.js';
import { DispatchKey } from '../c10/DispatchKey.js';
import { DispatchKeySet, autogradDispatchKeyset } from '../c10/DispatchKeySet.js';
import { tls } from '../dispatch/LocalDispatchKeySet.js';

// Note [Grad mode and inference mode]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Grad mode is not a dispatch key: with it off, calls still reach the Autograd kernels, which then record
// nothing (`compute_requires_grad` reads the flag), and views still remember their base. Inference mode
// goes further, through the dispatcher's thread-local state: it excludes the Autograd keys and takes
// ADInplaceOrView out of the included set (c10/core/InferenceMode.h), and tensors created meanwhile lack both
// (inference tensors; see Note [Inference tensors] in src/tensor/TensorImpl.ts), so calls on inference
// tensors skip both layers. ADInplaceOrView is not excluded: a normal tensor still carries the key, so an
// in-place operation on it inside inference mode bumps its version and a view of it is still a (normal) view. Every guard snapshots the state it
// changes and restores exactly that snapshot, so guards nest.

const inplaceOrViewKeyset = DispatchKeySet.fromKey(DispatchKey.ADInplaceOrView);

/** `torch.is_grad_enabled()`. */
export function isGradEnabled(): boolean {
  return autogradState.gradMode;
}

/** `torch.set_grad_enabled(flag)` (not scoped; see GradModeGuard for a scoped change). */
export function setGradEnabled(flag: boolean): void {
  autogradState.gradMode = flag;
}

/** `torch.is_inference_mode_enabled()`. */
export function isInferenceModeEnabled(): boolean {
  return autogradState.inferenceMode;
}

/** `AutoGradMode(enabled)`: sets grad mode until released (`using g = new GradModeGuard(false)`). */
export class GradModeGuard implements Disposable {
  private readonly prev: boolean;
  private released = false;

  constructor(enabled: boolean) {
    this.prev = autogradState.gradMode;
    autogradState.gradMode = enabled;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    autogradState.gradMode = this.prev;
  }

  [Symbol.dispose](): void {
    this.release();
  }
}

/** `torch.no_grad()` as a guard. */
export class NoGradGuard extends GradModeGuard {
  constructor() {
    super(false);
  }
}

/** `torch.enable_grad()` as a guard. */
export class EnableGradGuard extends GradModeGuard {
  constructor() {
    super(true);
  }
}

/** `c10::InferenceMode(enabled)`: see Note [Grad mode and inference mode]. */
export class InferenceModeGuard implements Disposable {
  private readonly saved: readonly [boolean, boolean, number, number, number, number];
  private released = false;

  constructor(enabled = true) {
    this.saved = [autogradState.gradMode, autogradState.inferenceMode, tls.includedLo, tls.includedHi, tls.excludedLo, tls.excludedHi];
    autogradState.gradMode = !enabled;
    autogradState.inferenceMode = enabled;
    if (enabled) {
      tls.includedLo &= ~inplaceOrViewKeyset.lo;
      tls.includedHi &= ~inplaceOrViewKeyset.hi;
      tls.excludedLo |= autogradDispatchKeyset.lo;
      tls.excludedHi |= autogradDispatchKeyset.hi;
    } else {
      tls.includedLo |= inplaceOrViewKeyset.lo;
      tls.includedHi |= inplaceOrViewKeyset.hi;
      tls.excludedLo &= ~autogradDispatchKeyset.lo;
      tls.excludedHi &= ~autogradDispatchKeyset.hi;
    }
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    [autogradState.gradMode, autogradState.inferenceMode, tls.includedLo, tls.includedHi, tls.excludedLo, tls.excludedHi] = this.saved;
  }

  [Symbol.dispose](): void {
    this.release();
  }
}

function runWith<T>(guard: Disposable, fn: () => T): T {
  try {
    return fn();
  } finally {
    guard[Symbol.dispose]();
  }
}

/** `with torch.no_grad(): fn()`. */
export function noGrad<T>(fn: () => T): T {
  return runWith(new GradModeGuard(false), fn);
}

/** `with torch.enable_grad(): fn()`. */
export function enableGrad<T>(fn: () => T): T {
  return runWith(new GradModeGuard(true), fn);
}

/** `with torch.set_grad_enabled(flag): fn()`. */
export function withGradEnabled<T>(flag: boolean, fn: () => T): T {
  return runWith(new GradModeGuard(flag), fn);
}

/** `with torch.inference_mode(mode): fn()`. */
export function inferenceMode<T>(fn: () => T, mode = true): T {
  return runWith(new InferenceModeGuard(mode), fn);
}
