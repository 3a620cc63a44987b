// Autograd's per-tensor state and the operations autograd kernels perform on it: which edge a tensor's
// gradient flows into, attaching a grad_fn to outputs, the in-place checks and rebasing of history, views.
// Mirrors torch/csrc/autograd/variable.{h,cpp} (AutogradMeta, DifferentiableViewMeta, impl::set_gradient_edge,
// impl::rebase_history, impl::grad_accumulator) and VariableTypeUtils.h (check_inplace, set_history).

import { autogradState } from '../c10/AutogradState.js';
import { afterAutogradKeyset, type DispatchKeySet } from '../c10/DispatchKeySet.js';
import { isComplexType, isFloatingType } from '../c10/ScalarType.js';
import { int64Hint } from '../c10/Scalar.js';
import { escapeStorage } from '../tensor/StorageScope.js';
import type { Tensor } from '../tensor/Tensor.js';
import type { TensorImpl } from '../tensor/TensorImpl.js';
import type { FunctionPreHook, Node } from './function.js';

// Note [Autograd metadata]
// ~~~~~~~~~~~~~~~~~~~~~~~~
// As in PyTorch, a tensor that autograd has never touched carries no autograd state: `autogradMeta` is null,
// so creating a tensor costs one null field and `requiresGrad` is one load. The metadata is made when a leaf
// is asked to require grad, when an operation records a grad_fn for it, when it gets a `.grad`, a hook or
// `retainGrad()`, and when it is a view (it then remembers its base, like DifferentiableViewMeta).
export class AutogradMeta {
  /** The leaf flag (`requires_grad_`); a non-leaf requires grad because it has a grad_fn. */
  requiresGrad = false;
  /** The node that computed this tensor (null for leaves). */
  gradFn: Node | null = null;
  /** Which input of `gradFn` this tensor's gradient flows into. */
  outputNr = 0;
  /** `.grad`. */
  grad: Tensor | null = null;
  /** The AccumulateGrad node of a leaf, made on first use and kept (PyTorch keeps a weak reference). */
  gradAccumulator: Node | null = null;
  /** `retain_grad()` was called on this non-leaf. */
  retainsGrad = false;
  /** Hooks registered on a leaf before its AccumulateGrad exists; moved onto it when it is made. */
  leafHooks: FunctionPreHook[] | null = null;
  /** For views: the base tensor (never itself a view) and whether the view was made with grad mode off. */
  base: Tensor | null = null;
  viewCreatedInNoGrad = false;
  viewCreatedInInferenceMode = false;
  /** The edge `gradientEdge` last returned, reused while it still names the same node and input. */
  edge: Edge | null = null;
  /** The version of the base when this view's grad_fn was last refreshed (see Note [Views and in-place]). */
  attrVersion = 0;
}

/** The autograd metadata of `t`, made if missing (`impl::materialize_autograd_meta`). */
export function materializeAutogradMeta(t: TensorImpl): AutogradMeta {
  return t.autogradMeta ?? (t.autogradMeta = new AutogradMeta());
}

/** `x.requires_grad = flag` / `requires_grad_(flag)`, with PyTorch's checks and messages. */
export function setRequiresGrad(t: TensorImpl, flag: boolean): void {
  const m = t.autogradMeta;
  if (m !== null && m.gradFn !== null) {
    // PyTorch only objects to turning it off; turning it on for a non-leaf is a no-op there too.
    if (flag) return;
    throw new Error(
      'you can only change requires_grad flags of leaf variables. If you want to use a computed variable in a ' +
        "subgraph that doesn't require differentiation use var_no_grad = var.detach().",
    );
  }
  if (flag) {
    if (!isFloatingType(t.scalarType) && !isComplexType(t.scalarType)) {
      throw new Error(`only Tensors of floating point dtype can require gradients${int64Hint(t)}`);
    }
    if (t.isInference() && !autogradState.inferenceMode) {
      throw new Error('Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.');
    }
  }
  if (m === null && !flag) return;
  materializeAutogradMeta(t).requiresGrad = flag;
}

/**
 * `requires_grad=True` given to a factory (`torch.zeros(2, { requires_grad: true })`, `torch.tensor(...)`):
 * PyTorch's argument parser checks the dtype with its own text before setting the flag.
 */
export function setFactoryRequiresGrad(t: TensorImpl): void {
  if (!isFloatingType(t.scalarType) && !isComplexType(t.scalarType)) {
    throw new Error(`Only Tensors of floating point and complex dtype can require gradients${int64Hint(t)}`);
  }
  setRequiresGrad(t, true);
}

/** An edge of the graph: input `inputNr` of node `fn` (PyTorch's `Edge`); `fn` null means "no gradient". */
export interface Edge {
  readonly fn: Node | null;
  readonly inputNr: number;
}

const NO_EDGE: Edge = Object.freeze({ fn: null, inputNr: 0 });

/** The node a leaf's gradient accumulates into, made once (`impl::grad_accumulator`). */
export function gradAccumulator(t: Tensor): Node {
  const m = materializeAutogradMeta(t);
  if (m.gradAccumulator === null) {
    m.gradAccumulator = newAccumulateGrad(t);
    if (m.leafHooks !== null) {
      const hooks = m.gradAccumulator.withHooks();
      for (const h of m.leafHooks) {
        hooks.tensorPreHooks.push(h);
        hooks.tensorPreHookInputs.push(0);
      }
    }
  }
  return m.gradAccumulator;
}

/**
 * `grad_fn()`: the tensor's node, after refreshing a view whose storage changed in place since its grad_fn
 * was set (its base was modified through another alias), as PyTorch's VariableHooks::grad_fn does (Note
 * [Views and in-place]).
 */
export function currentGradFn(t: Tensor): Node | null {
  const m = t.autogradMeta;
  if (m === null) return null;
  if (m.base !== null && m.attrVersion !== t.storage.version && m.base.requiresGrad) refreshView(t);
  return m.gradFn;
}

/**
 * `impl::gradient_edge`: where the gradient of `t` goes — its grad_fn (at its output number), the
 * AccumulateGrad of a leaf that requires grad, or nowhere.
 */
export function gradientEdge(t: Tensor | null | undefined): Edge {
  if (t === null || t === undefined) return NO_EDGE;
  const m = t.autogradMeta;
  if (m === null) return NO_EDGE;
  const gradFn = m.base !== null ? currentGradFn(t) : m.gradFn;
  const fn = gradFn !== null ? gradFn : m.requiresGrad ? gradAccumulator(t) : null;
  if (fn === null) return NO_EDGE;
  const nr = gradFn !== null ? m.outputNr : 0;
  // Edges are immutable: one per (node, input) is shared by every consumer of this tensor.
  const e = m.edge;
  if (e !== null && e.fn === fn && e.inputNr === nr) return e;
  return (m.edge = { fn, inputNr: nr });
}

// Note [Key set below Autograd, remembered]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Every generated Autograd kernel redispatches with `ks & after_autograd_keyset`. Key sets are immutable, and
// consecutive calls nearly always bring the same one, so the last answer is kept: an identity test instead of
// the intersection and its intern-table lookup (DispatchKeySet.fromBits), on the path of every operator call.
let lastAbove: DispatchKeySet | null = null;
let lastBelow: DispatchKeySet | null = null;

/** `ks & after_autograd_keyset`: the keys an Autograd kernel redispatches to. */
export function belowAutograd(ks: DispatchKeySet): DispatchKeySet {
  if (ks !== lastAbove) {
    lastBelow = ks.and(afterAutogradKeyset);
    lastAbove = ks;
  }
  return lastBelow as DispatchKeySet;
}

/** `compute_requires_grad`: grad mode is on and some tensor argument requires grad. */
export function anyRequiresGrad(a: Tensor | null | undefined, b?: Tensor | null, c?: Tensor | null, d?: Tensor | null): boolean {
  return (
    autogradState.gradMode &&
    ((a != null && a.requiresGrad) || (b != null && b.requiresGrad) || (c != null && c.requiresGrad) || (d != null && d.requiresGrad))
  );
}

/** `compute_requires_grad` over a tensor list (`Tensor[]` / `Tensor?[]` arguments). */
export function anyRequiresGradList(ts: readonly (Tensor | null | undefined)[]): boolean {
  if (!autogradState.gradMode) return false;
  for (const t of ts) if (t !== null && t !== undefined && t.requiresGrad) return true;
  return false;
}

/**
 * `set_history(output, grad_fn)`: the output was computed by `gradFn` as its output number `outputNr`. The node
 * records the output's shape, dtype and device (its InputMetadata), which the engine uses to check and reduce
 * incoming gradients (see Note [Gradients are reduced to the input's shape]).
 */
export function setHistory(output: Tensor, gradFn: Node, outputNr = 0): void {
  if (!isDifferentiableType(output)) return;
  const m = materializeAutogradMeta(output);
  m.gradFn = gradFn;
  m.outputNr = outputNr;
  m.requiresGrad = false;
  gradFn.setInputMetadata(outputNr, output);
}

/**
 * `set_history` after an in-place view operator (t_, squeeze_, ...): the new node, and, for a view, the version
 * it was taken at, so that the operator's own version bump does not count as its base changing.
 */
export function setInplaceViewHistory(self: Tensor, gradFn: Node): void {
  setHistory(self, gradFn);
  const m = self.autogradMeta;
  if (m !== null && m.base !== null) m.attrVersion = self.storage.version;
}

/** Records `gradFn` for every differentiable output in `outputs` (multi-output and list-returning operators). */
export function setHistoryList(outputs: readonly Tensor[], gradFn: Node): void {
  for (let i = 0; i < outputs.length; i++) setHistory(outputs[i] as Tensor, gradFn, i);
}

/** True if `t`'s gradient cannot flow (integer and bool outputs are never differentiable). */
export function isDifferentiableType(t: Tensor): boolean {
  return isFloatingType(t.scalarType) || isComplexType(t.scalarType);
}

// Note [In-place checks]
// ~~~~~~~~~~~~~~~~~~~~~~
// Before an in-place operation runs under autograd, `checkInplace` refuses what PyTorch refuses: writing
// into a leaf that requires grad (its `.grad` would no longer be the gradient of anything), into a view of
// such a leaf, into a view made under no_grad while grad mode is on, and (outside inference mode) into an
// inference tensor. After the kernel, `rebaseHistory` gives the tensor its new grad_fn; when the tensor is
// a view, the base's history is rewritten through CopySlices (see Note [Views and in-place]).

/** `check_inplace(self, requires_grad)`, with PyTorch's texts. */
export function checkInplace(self: Tensor, requiresGrad: boolean): void {
  if (self.isInference() && !autogradState.inferenceMode) {
    throw new Error(
      'Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get a ' +
        'normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more details.',
    );
  }
  if (!requiresGrad) return;
  const m = self.autogradMeta;
  if (m === null) return;
  if (m.base !== null) {
    if (m.viewCreatedInNoGrad && autogradState.gradMode) {
      throw new Error(
        'A view was created in no_grad mode and is being modified inplace with grad mode enabled. Given that ' +
          'this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both ' +
          "the view and the inplace either both inside the no_grad block (if you don't want the inplace to be " +
          'tracked) or both outside (if you want the inplace to be tracked).',
      );
    }
    const bm = m.base.autogradMeta;
    if (bm !== null && bm.gradFn === null && bm.requiresGrad) {
      throw new Error('a view of a leaf Variable that requires grad is being used in an in-place operation.');
    }
  }
  if (m.gradFn === null && m.requiresGrad) {
    throw new Error('a leaf Variable that requires grad is being used in an in-place operation.');
  }
}

/** The factories of graph nodes this module needs, set by function.ts (which imports this module). */
let newAccumulateGrad: (t: Tensor) => Node;
let rebaseView: (view: Tensor, gradFn: Node) => void;
let refreshView: (view: Tensor) => void;

export function installNodeFactories(
  accumulate: (t: Tensor) => Node,
  rebase: (view: Tensor, gradFn: Node) => void,
  refresh: (view: Tensor) => void,
): void {
  refreshView = refresh;
  newAccumulateGrad = accumulate;
  rebaseView = rebase;
}

/** `rebase_history(self, grad_fn)` after an in-place operation recorded `gradFn` for `self`. */
export function rebaseHistory(self: Tensor, gradFn: Node, outputNr = 0): void {
  const m = self.autogradMeta;
  // Any view goes through CopySlices, also when its base did not require grad yet: the base then gets its
  // first history from the in-place operation (PyTorch's rebase_history checks only `has_bw_view()`).
  if (m !== null && m.base !== null) {
    rebaseView(self, gradFn);
    return;
  }
  setHistory(self, gradFn, outputNr);
}

/**
 * `as_view(base, view)`: `view` shares `base`'s storage; remember the base (the root base when `base` is
 * itself a view) and how the view was made, for the in-place rules and CopySlices.
 */
export function markView(view: Tensor, base: Tensor): void {
  const bm = base.autogradMeta;
  const root = bm !== null && bm.base !== null ? bm.base : base;
  const m = materializeAutogradMeta(view);
  m.base = root;
  m.viewCreatedInNoGrad = !autogradState.gradMode;
  m.viewCreatedInInferenceMode = autogradState.inferenceMode;
  m.attrVersion = view.storage.version;
}

/** `x.grad = g` (`VariableHooks::set_grad` checks: same dtype and size). */
export function setGrad(t: Tensor, g: Tensor | null): void {
  if (g !== null) {
    if (g.scalarType !== t.scalarType) throw new Error('assigned grad has data of a different type');
    if (g.sizes.length !== t.sizes.length || g.sizes.some((s, i) => s !== t.sizes[i])) {
      throw new Error('assigned grad has data of a different size');
    }
  }
  if (g === null && t.autogradMeta === null) return;
  if (g !== null) escapeStorage(g.storage);
  materializeAutogradMeta(t).grad = g;
}

/** `retain_grad()` (`VariableHooks::retain_grad`): keep `.grad` for this non-leaf too. */
export function retainGrad(t: Tensor): void {
  if (!t.requiresGrad) throw new Error("can't retain_grad on Tensor that has requires_grad=False");
  const fn = currentGradFn(t);
  if (fn === null) return;
  const m = materializeAutogradMeta(t);
  if (m.retainsGrad) return;
  m.retainsGrad = true;
  fn.withHooks().retainsGradTensors[t.outputNr] = t;
}

/** `register_hook(fn)` (`VariableHooks::_register_hook`): a pre-hook on the node this tensor's gradient enters. */
export function registerHook(t: Tensor, fn: FunctionPreHook): { remove(): void } {
  if (!t.requiresGrad) throw new Error("cannot register a hook on a tensor that doesn't require gradient");
  const gradFn = currentGradFn(t);
  const node = gradFn ?? gradAccumulator(t);
  const nr = gradFn === null ? 0 : t.outputNr;
  const hooks = node.withHooks();
  hooks.tensorPreHooks.push(fn);
  hooks.tensorPreHookInputs.push(nr);
  return {
    remove: () => {
      const i = hooks.tensorPreHooks.indexOf(fn);
      if (i >= 0) {
        hooks.tensorPreHooks.splice(i, 1);
        hooks.tensorPreHookInputs.splice(i, 1);
      }
    },
  };
}
