// torch.autograd.Function: operations whose forward and backward the user writes. Mirrors
// torch/autograd/function.py (Function, FunctionCtx, once_differentiable aside) and
// torch/csrc/autograd/python_function.cpp (THPFunction_apply: forward under no-grad, _wrap_outputs,
// the backward node that calls the user's backward).

import { aten } from '../generated/Operators.js';
import { autogradState } from '../c10/AutogradState.js';
import { aliasCamelCase } from '../c10/Kwargs.js';
import { Tensor } from '../tensor/Tensor.js';
import { Node, SavedVariable } from './function.js';
import { GradModeGuard } from './grad_mode.js';
import { checkInplace, gradientEdge, isDifferentiableType, rebaseHistory, setHistory } from './variable.js';

/**
 * The `ctx` a custom Function's forward and backward share (`torch.autograd.function.FunctionCtx`): saved
 * tensors (with the version checks of SavedVariable), which inputs need a gradient, the dirty and
 * non-differentiable outputs. PyTorch's names; the camelCase ones are the same members (Note [One naming
 * rule]). Fields of your own are typed where you take the ctx: `forward(ctx: FunctionCtx & { k: number }, x)`
 * (no index signature: `ctx.saved_tensor` is a type error, not a silent `undefined`).
 */
export class FunctionCtx {
  /** `materialize_grads`: undefined output gradients reach backward as zeros (the default) or as null. */
  materialize_grads = true;
  #needsInputGrad: readonly boolean[] = [];
  #toSave: (Tensor | null)[] = [];
  #saved: SavedVariable[] | null = null;
  #dirty: Tensor[] = [];
  #nonDifferentiable: Tensor[] = [];
  declare readonly needsInputGrad: FunctionCtx['needs_input_grad'];
  declare readonly savedTensors: FunctionCtx['saved_tensors'];
  declare saveForBackward: FunctionCtx['save_for_backward'];
  declare markDirty: FunctionCtx['mark_dirty'];
  declare markNonDifferentiable: FunctionCtx['mark_non_differentiable'];
  declare setMaterializeGrads: FunctionCtx['set_materialize_grads'];

  /** `needs_input_grad`: per forward argument, whether its gradient is wanted (a tuple of bools). */
  get needs_input_grad(): readonly boolean[] {
    return this.#needsInputGrad;
  }

  /** `save_for_backward(*tensors)` (call in forward, or in setup_context); null for an absent tensor. */
  save_for_backward(...tensors: (Tensor | null)[]): void {
    this.#toSave = tensors;
  }

  /** `saved_tensors`: what forward saved, checked against in-place modification since. */
  get saved_tensors(): (Tensor | null)[] {
    if (this.#saved === null) return [...this.#toSave];
    return this.#saved.map((s) => s.unpackOpt());
  }

  /** `mark_dirty(*tensors)`: these inputs were modified in place by forward. */
  mark_dirty(...tensors: Tensor[]): void {
    this.#dirty = tensors;
  }

  /** `mark_non_differentiable(*tensors)`: these outputs get no gradient. */
  mark_non_differentiable(...tensors: Tensor[]): void {
    this.#nonDifferentiable = tensors;
  }

  /** `set_materialize_grads(value)`. */
  set_materialize_grads(value: boolean): void {
    this.materialize_grads = value;
  }

  /** @internal `Function.apply` records which arguments need a gradient. */
  static _begin(ctx: FunctionCtx, needsInputGrad: readonly boolean[]): void {
    ctx.#needsInputGrad = needsInputGrad;
  }

  /** @internal Turns the tensors saved by forward into SavedVariables, outputs marked as such. */
  static _freeze(ctx: FunctionCtx, outputs: readonly Tensor[]): void {
    ctx.#saved = ctx.#toSave.map((t) => new SavedVariable(t, t !== null && outputs.includes(t)));
  }

  /** @internal */
  static _isDirty(ctx: FunctionCtx, t: Tensor): boolean {
    return ctx.#dirty.includes(t);
  }

  /** @internal */
  static _isNonDifferentiable(ctx: FunctionCtx, t: Tensor): boolean {
    return ctx.#nonDifferentiable.includes(t);
  }

  /** @internal */
  static _release(ctx: FunctionCtx): void {
    for (const s of ctx.#saved ?? []) s.reset();
  }
}

aliasCamelCase(FunctionCtx.prototype, {
  needsInputGrad: 'needs_input_grad',
  savedTensors: 'saved_tensors',
  saveForBackward: 'save_for_backward',
  markDirty: 'mark_dirty',
  markNonDifferentiable: 'mark_non_differentiable',
  setMaterializeGrads: 'set_materialize_grads',
});

type ForwardResult = Tensor | (Tensor | unknown)[];
type BackwardResult = Tensor | null | undefined | (Tensor | null | undefined)[];

/** The graph node of one `Function.apply` call: `<Name>Backward`, calling the class's static `backward`. */
export class CustomFunctionBackward extends Node {
  constructor(
    private readonly cls: FunctionClass,
    private readonly ctx: FunctionCtx,
    private readonly numArgs: number,
    /** Forward argument index of each edge (tensor arguments only). */
    private readonly tensorArgs: readonly number[],
    private readonly outputs: readonly (Tensor | null)[],
  ) {
    super();
  }

  name(): string {
    return `${this.cls.name}Backward`;
  }

  apply(grads: (Tensor | null)[]): (Tensor | null)[] {
    const gs = this.outputs.map((o, i) => {
      const g = grads[i] ?? null;
      if (g !== null || !this.ctx.materialize_grads || o === null) return g;
      return aten().zeros_like.call(o, null, null, null, null, null);
    });
    if (this.cls.backward === Function.backward) {
      throw new Error(
        'You must implement either the backward or vjp method for your custom autograd.Function to use it with backward mode AD.',
      );
    }
    const r = this.cls.backward(this.ctx, ...gs);
    const res: (Tensor | null | undefined)[] = Array.isArray(r) ? r : [r];
    // Extra trailing gradients are allowed only when they are None (PyTorch's check).
    let n = res.length;
    while (n > this.numArgs && (res[n - 1] === null || res[n - 1] === undefined)) n--;
    if (n !== this.numArgs) {
      throw new Error(`function ${this.name()} returned an incorrect number of gradients (expected ${this.numArgs}, got ${n})`);
    }
    return this.tensorArgs.map((argIndex) => res[argIndex] ?? null);
  }

  override releaseVariables(): void {
    FunctionCtx._release(this.ctx);
  }
}

/** A subclass of Function, as `apply` sees it. */
export interface FunctionClass {
  readonly name: string;
  forward(ctx: FunctionCtx, ...args: never[]): ForwardResult;
  backward(ctx: FunctionCtx, ...grads: (Tensor | null)[]): BackwardResult;
}

// Note [Custom autograd Functions]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// `apply` runs forward with grad mode off (its operations record nothing), then, if grad mode is on and a
// tensor argument requires grad, records one `<Name>Backward` node whose edges are the tensor arguments'
// gradient edges, and gives it the outputs as PyTorch's _wrap_outputs does: an input returned unchanged
// is returned as a new alias (so the input keeps its own history), an input marked dirty is rebased (the
// in-place rules apply), outputs marked non-differentiable or of integer dtype get no history.

/**
 * `torch.autograd.Function`: subclass it with static `forward(ctx, ...args)` and `backward(ctx, ...grads)`,
 * then call `MyFn.apply(...args)`.
 *
 * @example
 * class Exp extends torch.autograd.Function {
 *   static override forward(ctx: FunctionCtx, x: Tensor) { const r = x.exp(); ctx.save_for_backward(r); return r; }
 *   static override backward(ctx: FunctionCtx, g: Tensor | null) { return g!.mul(ctx.saved_tensors[0]!); }
 * }
 * Exp.apply(x).sum().backward();
 */
export class Function {
  /** The forward computation; runs with grad mode off. */
  static forward(_ctx: FunctionCtx, ..._args: never[]): ForwardResult {
    throw new Error('You must implement the forward function for custom autograd.Function.');
  }

  /** Gradients of the forward arguments (null for non-tensors or unneeded ones) from the outputs' gradients. */
  static backward(_ctx: FunctionCtx, ..._grads: (Tensor | null)[]): BackwardResult {
    throw new Error(
      'You must implement either the backward or vjp method for your custom autograd.Function to use it with backward mode AD.',
    );
  }

  /** Runs forward and records the backward node (see Note [Custom autograd Functions]). */
  static apply<T>(this: { forward(ctx: FunctionCtx, ...args: never[]): T } & FunctionClass, ...args: unknown[]): T {
    const tensorArgs: number[] = [];
    args.forEach((a, i) => {
      if (a instanceof Tensor) tensorArgs.push(i);
    });
    const ctx = new FunctionCtx();
    const gradMode = autogradState.gradMode;
    const needsInputGrad = args.map((a) => gradMode && a instanceof Tensor && a.requiresGrad);
    FunctionCtx._begin(ctx, needsInputGrad);
    const requiresGrad = needsInputGrad.some((b) => b);
    let result: T;
    const guard = new GradModeGuard(false);
    try {
      result = this.forward(ctx, ...(args as never[]));
    } finally {
      guard.release();
    }
    if (!requiresGrad) return result;
    const outs: unknown[] = Array.isArray(result) ? [...(result as unknown[])] : [result];
    for (let i = 0; i < outs.length; i++) {
      const o = outs[i];
      if (o instanceof Tensor && args.includes(o) && !FunctionCtx._isDirty(ctx, o)) {
        const alias = new GradModeGuard(false);
        try {
          outs[i] = aten().alias.call(o);
        } finally {
          alias.release();
        }
      }
    }
    const outputTensors = outs.map((o) => (o instanceof Tensor ? o : null));
    const node = new CustomFunctionBackward(this, ctx, args.length, tensorArgs, outputTensors);
    node.setNextEdges(tensorArgs.map((i) => gradientEdge(args[i] as Tensor)));
    outputTensors.forEach((o, i) => {
      if (o === null) return;
      if (FunctionCtx._isNonDifferentiable(ctx, o) || !isDifferentiableType(o)) {
        node.setInputMetadata(i, o);
        return;
      }
      if (FunctionCtx._isDirty(ctx, o)) {
        checkInplace(o, true);
        rebaseHistory(o, node, i);
      } else setHistory(o, node, i);
    });
    FunctionCtx._freeze(
      ctx,
      outputTensors.filter((o): o is Tensor => o !== null),
    );
    return (Array.isArray(result) ? outs : outs[0]) as T;
  }
}
