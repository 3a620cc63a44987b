// The autograd fallback of operators that have no kernel at an Autograd key (custom operators): PyTorch's
// basicAutogradNotImplementedFallback and its mode (`torch._C._set_autograd_fallback_mode`). Mirrors
// torch/csrc/autograd/autograd_not_implemented_fallback.cpp.

import { autogradState } from '../c10/AutogradState.js';
import { afterAutogradKeyset, type DispatchKeySet } from '../c10/DispatchKeySet.js';
import { warn } from '../c10/Warning.js';
import { setBasicAutogradFallback } from '../dispatch/builtinFallbacks.js';
import type { OperatorHandle } from '../dispatch/OperatorHandle.js';
import { Tensor } from '../tensor/Tensor.js';
import { Node } from './function.js';
import { gradientEdge, isDifferentiableType, registerHook, setHistory } from './variable.js';

export type AutogradFallbackMode = 'nothing' | 'warn';

// Note [Autograd fallback mode]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Every tensor carries the Autograd keys, so a call of an operator without an Autograd kernel reaches the
// autograd backend fallback. In mode 'nothing' it only redispatches below autograd (the outputs have no
// history: the graph is silently cut). In mode 'warn' (PyTorch's default) it does what PyTorch's
// basicAutogradNotImplementedFallback does when grad mode is on and an input requires grad: the outputs get
// a `WarnNotImplemented` grad_fn (or, when the kernel's own operations already gave them history, a hook)
// that warns, during backward, that no autograd kernel was registered, and passes no gradient on.
// PyTorch 2.13 rejects mode 'error' ("NYI: mode='error'"), and so does aten-ts.
// The fallback applies to operators outside the aten namespace only: in PyTorch every aten operator has a
// generated Autograd kernel (VariableType), so the basic fallback never serves one; the few aten-ts aten
// operators without one (factories such as zeros_like, whose outputs never need grad) keep the allocation-free
// redispatch (Note [Dispatch hot path]).
let mode: AutogradFallbackMode = 'warn';

/** `torch._C._set_autograd_fallback_mode(mode)`: 'nothing' or 'warn' (Note [Autograd fallback mode]). */
export function setAutogradFallbackMode(m: string): void {
  if (m === 'error') throw new Error("NYI: mode='error'");
  if (m !== 'nothing' && m !== 'warn') throw new Error(`Unsupported AutogradFallbackMode: ${String(m)}`);
  mode = m;
}

/** `torch._C._get_autograd_fallback_mode()`. */
export function getAutogradFallbackMode(): AutogradFallbackMode {
  return mode;
}

function warnAutogradNotImplemented(opName: string): void {
  warn(
    `${opName}: an autograd kernel was not registered to the Autograd key(s) but we are trying to backprop through it. ` +
      'This may lead to silently incorrect behavior. This behavior is deprecated and will be removed in a future ' +
      'version of PyTorch. If your operator is differentiable, please ensure you have registered an autograd kernel ' +
      'to the correct Autograd key (e.g. DispatchKey::Autograd, DispatchKey::CompositeImplicitAutograd). If your ' +
      'operator is not differentiable, or to squash this warning and use the previous behavior, please register ' +
      'torch::CppFunction::makeFallthrough() to DispatchKey::Autograd.',
  );
}

/** `WarnNotImplemented`: warns when backward reaches it and passes no gradient on. */
export class WarnNotImplemented extends Node {
  constructor(
    private readonly opName: string,
    private readonly numGrads: number,
  ) {
    super();
  }

  name(): string {
    return 'torch::autograd::WarnNotImplemented';
  }

  apply(): (Tensor | null)[] {
    warnAutogradNotImplemented(this.opName);
    return new Array<Tensor | null>(this.numGrads).fill(null);
  }
}

function tensorsOf(values: readonly unknown[]): Tensor[] {
  const out: Tensor[] = [];
  for (const v of values) {
    if (v instanceof Tensor) out.push(v);
    else if (Array.isArray(v)) for (const t of v) if (t instanceof Tensor) out.push(t);
  }
  return out;
}

/** basicAutogradNotImplementedFallbackImpl (Note [Autograd fallback mode]). */
export function basicAutogradNotImplementedFallback(op: OperatorHandle, ks: DispatchKeySet, args: unknown[]): unknown {
  const below = ks.and(afterAutogradKeyset);
  if (mode === 'nothing') return op.redispatch(below, ...args);
  const inputs = tensorsOf(args);
  if (!autogradState.gradMode || !inputs.some((t) => t.requiresGrad)) return op.redispatch(below, ...args);
  const opName = op.entry.name.name;
  const gradFn = new WarnNotImplemented(opName, inputs.length);
  gradFn.setNextEdges(inputs.map((t) => gradientEdge(t)));
  const result: unknown = op.redispatch(below, ...args);
  const schema = op.schema;
  const returns = op.entry.numReturns() === 1 ? [result] : Array.isArray(result) ? (result as unknown[]) : [];
  returns.forEach((r, i) => {
    if (!(r instanceof Tensor) || !isDifferentiableType(r)) return;
    if (r.requiresGrad) {
      registerHook(r, () => warnAutogradNotImplemented(opName));
      return;
    }
    const ret = schema?.returns[i];
    const isMutableOutput = ret?.aliasInfo?.isWrite === true;
    if (!isMutableOutput) setHistory(r, gradFn, i);
  });
  return result;
}

/** Installs the fallback into the dispatcher's built-in autograd fallback (once, at start-up). */
export function installAutogradFallback(): void {
  setBasicAutogradFallback(basicAutogradNotImplementedFallback);
}
