// Graph nodes: the base class every backward function extends, AccumulateGrad for leaves, the graph root the
// engine starts from, CopySlices and AsStridedBackward0 for in-place operations on views, and SavedVariable.
// Mirrors torch/csrc/autograd/function.h (Node), functions/accumulate_grad.h, functions/basic_ops.h
// (GraphRoot, Error, NotImplemented), functions/tensor.h (CopySlices) and saved_variable.{h,cpp}.

import { autogradState } from '../c10/AutogradState.js';
import { aliasCamelCase } from '../c10/Kwargs.js';
import { anomalyMode, recordForwardTrace } from './anomaly_mode.js';
import { escapeStorage } from '../tensor/StorageScope.js';
import type { Tensor } from '../tensor/Tensor.js';
import { gradientEdge, installNodeFactories, materializeAutogradMeta, setHistory, type Edge } from './variable.js';
import { accumulateInto, asStridedScatter, detachedClone, sliceOfBaseGrad } from './GradientUtils.js';
import * as at from '../generated/TensorBody.js';

/** A hook run on the gradient flowing into one input of a node; it may return a replacement. */
export type FunctionPreHook = (grad: Tensor) => Tensor | undefined | void;

/** Sequence numbers order the ready queue: later nodes run first (Note [Engine order]). */
let nextSequenceNr = 0;

/** Shape and dtype of one forward output, as the node's input (`InputMetadata`). */
export interface InputMetadata {
  sizes: readonly number[];
  dtype: number;
}

/** The hooks of a node, made on first registration (most nodes never have any). */
export class NodeHooks {
  /** Tensor hooks (`register_hook` on a tensor): the function and the input number it watches. */
  tensorPreHooks: FunctionPreHook[] = [];
  tensorPreHookInputs: number[] = [];
  /** `retain_grad()` on outputs: run after the tensor hooks, they store the gradient in `.grad`. */
  retainsGradTensors: (Tensor | undefined)[] = [];
  /** `register_prehook(fn(gradOutputs))` and `register_hook(fn(gradInputs, gradOutputs))`. */
  preHooks: ((grads: (Tensor | null)[]) => (Tensor | null)[] | undefined | void)[] = [];
  postHooks: ((gradInputs: (Tensor | null)[], gradOutputs: (Tensor | null)[]) => (Tensor | null)[] | undefined | void)[] = [];
}

const NO_EDGES: Edge[] = [];

// Note [Lean graph nodes]
// ~~~~~~~~~~~~~~~~~~~~~~~
// A node is made for every recorded operation, so its construction is on the hot path of training: it
// starts with a shared empty edge list (replaced, never mutated, when set) and no hook state (`hooks` is made
// on the first registration); the metadata of output 0 lives in two fields (most nodes have one output),
// further outputs in a list made on demand. A recorded call allocates the node and its edge list, and
// nothing for features it does not use.

// Note [Node fields are assigned, not defined]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Every node class (hundreds of generated XxxBackward0) runs Node's constructor, so its property writes see
// one object shape per class. Class-field *definitions* (ES2022 define semantics) that see more than a few
// shapes fall off V8's fast path into a runtime call per field: after a mixed workload, one recorded `add`
// cost 0.95 µs instead of 0.2 µs, half of it in Node's field initializer (bench/RESULTS.md). Plain
// assignments in the constructor stay on the megamorphic store cache, a few ns each.

/**
 * `torch::autograd::Node`: a backward function. `apply` maps the gradients of the forward outputs (this
 * node's inputs) to the gradients of the forward inputs (one per entry of `nextEdges`, where they go).
 */
export abstract class Node {
  declare readonly nextFunctions: Node['next_functions'];
  declare registerHook: Node['register_hook'];
  declare registerPrehook: Node['register_prehook'];
  // Declared, and assigned in the constructor: see Note [Node fields are assigned, not defined].
  declare nextEdges: Edge[];
  declare readonly sequenceNr: number;
  /** What the gradient flowing into input 0 (forward output 0) must look like: sizes (undefined: unknown), dtype. */
  declare sizes0: readonly number[] | undefined;
  declare dtype0: number;
  /** The same for inputs 1, 2, ... (multi-output operators), or null. */
  declare moreMetadata: (InputMetadata | undefined)[] | null;
  /** Hooks, or null until one is registered (Note [Lean graph nodes]). */
  declare hooks: NodeHooks | null;

  constructor(sequenceNr = nextSequenceNr++) {
    this.nextEdges = NO_EDGES;
    (this as { sequenceNr: number }).sequenceNr = sequenceNr;
    this.sizes0 = undefined;
    this.dtype0 = 0;
    this.moreMetadata = null;
    this.hooks = null;
    if (anomalyMode.enabled) recordForwardTrace(this);
  }

  /** The class name PyTorch prints (`AddBackward0`). */
  abstract name(): string;

  /** Gradients of the forward inputs from the gradients of the forward outputs (null: zero/unknown). */
  abstract apply(grads: (Tensor | null)[]): (Tensor | null)[];

  /** Frees saved tensors after a backward pass without `retainGraph`. */
  releaseVariables(): void {}

  /** `next_functions`: `[node, inputNr]` per forward input. */
  get next_functions(): [Node | null, number][] {
    return this.nextEdges.map((e) => [e.fn, e.inputNr]);
  }

  numInputs(): number {
    return this.moreMetadata !== null ? this.moreMetadata.length : this.sizes0 !== undefined ? 1 : 0;
  }

  /** The metadata of input `nr` (forward output `nr`), if recorded. */
  inputMetadata(nr: number): InputMetadata | undefined {
    if (nr === 0) return this.sizes0 === undefined ? undefined : { sizes: this.sizes0, dtype: this.dtype0 };
    return this.moreMetadata?.[nr];
  }

  numOutputs(): number {
    return this.nextEdges.length;
  }

  /** `should_compute_output(i)`: some node wants the gradient of forward input `i`. */
  shouldComputeOutput(i: number): boolean {
    const e = this.nextEdges[i];
    return e !== undefined && e.fn !== null && (activeExecInfo === null || activeExecInfo.has(e.fn));
  }

  /** Forward input `i` has somewhere for its gradient to go (at record time: no backward pass consulted). */
  hasEdge(i: number): boolean {
    const e = this.nextEdges[i];
    return e !== undefined && e.fn !== null;
  }

  setNextEdges(edges: Edge[]): void {
    this.nextEdges = edges;
  }

  setInputMetadata(inputNr: number, t: Tensor): void {
    if (inputNr === 0) {
      this.sizes0 = t.sizes;
      this.dtype0 = t.scalarType;
      if (this.moreMetadata !== null) this.moreMetadata[0] = { sizes: t.sizes, dtype: t.scalarType };
      return;
    }
    if (this.moreMetadata === null) this.moreMetadata = this.sizes0 === undefined ? [] : [{ sizes: this.sizes0, dtype: this.dtype0 }];
    this.moreMetadata[inputNr] = { sizes: t.sizes, dtype: t.scalarType };
  }

  /** The node's hook state, made if missing. */
  withHooks(): NodeHooks {
    return this.hooks ?? (this.hooks = new NodeHooks());
  }

  /** `register_hook(fn)`: runs after `apply` with (gradInputs, gradOutputs); may return new gradInputs. */
  register_hook(fn: (gradInputs: (Tensor | null)[], gradOutputs: (Tensor | null)[]) => (Tensor | null)[] | undefined | void): {
    remove(): void;
  } {
    const h = this.withHooks();
    h.postHooks.push(fn);
    return { remove: () => void removeItem(h.postHooks, fn) };
  }

  /** `register_prehook(fn)`: runs before `apply` with the incoming gradients; may return replacements. */
  register_prehook(fn: (grads: (Tensor | null)[]) => (Tensor | null)[] | undefined | void): { remove(): void } {
    const h = this.withHooks();
    h.preHooks.push(fn);
    return { remove: () => void removeItem(h.preHooks, fn) };
  }

  toString(): string {
    return `<${this.name()} object>`;
  }
}

// Python's grad_fn members under PyTorch's names; the camelCase ones are the same (Note [One naming rule]).
aliasCamelCase(Node.prototype, { nextFunctions: 'next_functions', registerHook: 'register_hook', registerPrehook: 'register_prehook' });

function removeItem<T>(list: T[], item: T): void {
  const i = list.indexOf(item);
  if (i >= 0) list.splice(i, 1);
}

/**
 * The nodes the running `autograd.grad` call needs (its exec_info), or null when every node runs (backward).
 * Set by the engine for the duration of a pass.
 */
let activeExecInfo: ReadonlySet<Node> | null = null;

export function setActiveExecInfo(info: ReadonlySet<Node> | null): ReadonlySet<Node> | null {
  const prev = activeExecInfo;
  activeExecInfo = info;
  return prev;
}

/**
 * Gradients the engine hands to an AccumulateGrad that nothing else references, which it may store as `.grad`
 * without a copy (Note [Stealing the gradient] in GradientUtils.ts).
 */
export const stealableGrads = new WeakSet<Tensor>();

/** `AccumulateGrad`: the node of a leaf; adds the incoming gradient into `variable.grad`. */
export class AccumulateGrad extends Node {
  constructor(readonly variable: Tensor) {
    // PyTorch gives AccumulateGrad the largest sequence number so that it runs as soon as it is ready.
    super(Number.MAX_SAFE_INTEGER);
    this.setInputMetadata(0, variable);
  }

  name(): string {
    return 'torch::autograd::AccumulateGrad';
  }

  apply(grads: (Tensor | null)[]): (Tensor | null)[] {
    const grad = grads[0];
    if (grad === null || grad === undefined) return [];
    const m = materializeAutogradMeta(this.variable);
    const stealable = this.hooks === null && stealableGrads.has(grad);
    m.grad = accumulateInto(m.grad, grad, autogradState.gradMode, this.variable, stealable);
    if (m.grad !== null) escapeStorage(m.grad.storage); // a leaf's .grad outlives any torch.scope
    return [];
  }
}

/** The node the engine starts from: it hands out the root gradients (`GraphRoot`). */
export class GraphRoot extends Node {
  constructor(
    edges: Edge[],
    private readonly grads: (Tensor | null)[],
  ) {
    super();
    this.nextEdges = edges;
  }

  name(): string {
    return 'torch::autograd::GraphRoot';
  }

  apply(): (Tensor | null)[] {
    return this.grads;
  }
}

/**
 * `NotImplemented` / `Error`: recorded for an operation without a derivative formula whose input requires
 * grad, so that the forward works and the backward says what is missing.
 */
export class ErrorNode extends Node {
  constructor(private readonly message: string) {
    super();
  }

  name(): string {
    return 'torch::autograd::NotImplemented';
  }

  apply(): (Tensor | null)[] {
    throw new Error(this.message);
  }
}

// Note [Views and in-place]
// ~~~~~~~~~~~~~~~~~~~~~~~~~
// A view shares its base's storage, so an in-place operation on the view changes the base too. Its history
// is rewritten as PyTorch does: the base gets a `CopySlices` node that, given the gradient of the new base,
// runs the in-place operation's backward on the slice the view covers and passes the rest through; the
// view's grad_fn becomes `AsStridedBackward0` of the base's new history. A view also refreshes its grad_fn
// that way whenever the storage version moved since the view's grad_fn was last set (its base was modified
// in place through another alias).

/** Geometry of a view relative to its base. */
interface ViewGeometry {
  sizes: number[];
  strides: number[];
  offset: number;
}

function viewGeometry(view: Tensor, base: Tensor): ViewGeometry {
  return { sizes: [...view.sizes], strides: [...view.strides], offset: view.storageOffset - base.storageOffset };
}

/** `CopySlices`: the base's grad_fn after an in-place operation on one of its views. */
export class CopySlices extends Node {
  private readonly baseSizes: number[];
  private readonly baseStrides: number[];

  constructor(
    base: Tensor,
    private readonly view: ViewGeometry,
    private readonly fn: Node,
  ) {
    super();
    this.baseSizes = [...base.sizes];
    this.baseStrides = [...base.strides];
    const fnEdges = fn.nextEdges;
    this.nextEdges = [gradientEdge(base), ...fnEdges.slice(1)];
    this.setInputMetadata(0, base);
  }

  name(): string {
    return 'torch::autograd::CopySlices';
  }

  apply(grads: (Tensor | null)[]): (Tensor | null)[] {
    const grad = grads[0];
    const fn = this.fn;
    const out: (Tensor | null)[] = new Array<Tensor | null>(this.nextEdges.length).fill(null);
    if (grad === null || grad === undefined) return out;
    const { result, slice } = sliceOfBaseGrad(grad, this.baseSizes, this.baseStrides, this.view.sizes, this.view.strides, this.view.offset);
    const res = fn.apply([detachedClone(slice)]);
    const r0 = res[0];
    if (r0 !== null && r0 !== undefined) at.copy_(slice, r0);
    else at.zero_(slice);
    out[0] = result;
    for (let i = 1; i < out.length; i++) out[i] = res[i] ?? null;
    return out;
  }

  override releaseVariables(): void {
    this.fn.releaseVariables();
  }
}

/** The regenerated grad_fn of a view whose base changed in place: scatter the gradient into the base. */
export class AsStridedBackward0 extends Node {
  constructor(
    base: Tensor,
    private readonly baseSizes: number[],
    private readonly baseStrides: number[],
    private readonly view: ViewGeometry,
  ) {
    super();
    this.nextEdges = [gradientEdge(base)];
  }

  name(): string {
    return 'AsStridedBackward0';
  }

  apply(grads: (Tensor | null)[]): (Tensor | null)[] {
    const grad = grads[0];
    if (grad === null || grad === undefined || !this.shouldComputeOutput(0)) return [null];
    return [asStridedScatter(grad, this.baseSizes, this.baseStrides, this.view.sizes, this.view.strides, this.view.offset)];
  }
}

/** Makes `view`'s grad_fn AsStridedBackward0 of its base's current history (`VariableHooks::grad_fn`). */
export function refreshViewGradFn(view: Tensor): void {
  const m = view.autogradMeta;
  if (m === null || m.base === null) return;
  const base = m.base;
  if (!base.requiresGrad) return;
  const node = new AsStridedBackward0(base, [...base.sizes], [...base.strides], viewGeometry(view, base));
  setHistory(view, node);
  m.attrVersion = view.storage.version;
}

function rebaseView(view: Tensor, gradFn: Node): void {
  const m = view.autogradMeta;
  const base = m?.base;
  if (m === null || base === null || base === undefined) return;
  const copySlices = new CopySlices(base, viewGeometry(view, base), gradFn);
  setHistory(base, copySlices);
  refreshViewGradFn(view);
}

installNodeFactories((t) => new AccumulateGrad(t), rebaseView, refreshViewGradFn);

// ---- SavedVariable ---------------------------------------------------------------------------------

export const ERR_RELEASED =
  'Trying to backward through the graph a second time (or directly access saved tensors after they have ' +
  'already been freed). Saved intermediate values of the graph are freed when you call .backward() or ' +
  'autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if ' +
  'you need to access saved tensors after calling backward.';

const HINT =
  'Hint: enable anomaly detection to find the operation that failed to compute its gradient, with ' +
  'torch.autograd.set_detect_anomaly(True, check_nan=False).';

// Note [Saved variables]
// ~~~~~~~~~~~~~~~~~~~~~~
// A node keeps the tensors its formula needs as SavedVariables: the tensor, the version of its storage when
// saved, and, for outputs of the node itself, which output it was. Unpacking checks that nothing modified the
// tensor in place since (PyTorch's version-counter error) and that the graph was not freed by a backward
// pass without retain_graph. JavaScript's collector handles the node ↔ output cycle that PyTorch breaks with
// weak references, so the tensor itself is kept and unpacking returns it, with its autograd history, which is
// what double backward differentiates through.
export class SavedVariable {
  private data: Tensor | null;
  private readonly savedVersion: number;
  private released = false;

  constructor(
    t: Tensor | null,
    private readonly isOutput: boolean,
  ) {
    this.data = t;
    if (t !== null && t.isInference()) {
      throw new Error(
        'Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode ' +
          'in computation tracked by autograd. To work around this, you can make a clone to get a normal tensor ' +
          'and use it in autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`.',
      );
    }
    this.savedVersion = t === null ? 0 : t.storage.version;
  }

  /** The saved tensor; `saver` is the node that saved it (named in the version error for outputs). */
  unpack(saver?: Node): Tensor {
    const t = this.data;
    if (this.released) throw new Error(ERR_RELEASED);
    if (t === null) throw new Error('SavedVariable: unpacking an undefined tensor');
    const version = t.storage.version;
    if (version !== this.savedVersion) {
      const m = t.autogradMeta;
      const node = this.isOutput ? saver : (m?.gradFn ?? undefined);
      const which =
        node !== undefined && node !== null ? `, which is output ${m?.outputNr ?? 0} of ${node.name().replace(/Backward\d*$/, '')},` : '';
      throw new Error(
        'one of the variables needed for gradient computation has been modified by an inplace operation: ' +
          `[${t.typeString()} [${t.sizes.join(', ')}]]${which} is at version ${version}; expected version ` +
          `${this.savedVersion} instead. ${HINT}`,
      );
    }
    return t;
  }

  /** Something was saved (the kernel saves a tensor only when a formula that needs it may run). */
  defined(): boolean {
    return this.data !== null || this.released;
  }

  /** The saved tensor or null (for optional arguments saved as undefined). */
  unpackOpt(saver?: Node): Tensor | null {
    return this.data === null && !this.released ? null : this.unpack(saver);
  }

  /** Frees the tensor (`reset_data`). A variable that never held one stays unset, not "freed". */
  reset(): void {
    if (this.data === null) return;
    this.data = null;
    this.released = true;
  }
}

/** The empty saved variable (an optional tensor argument that was None). */
export function savedOpt(t: Tensor | null | undefined, isOutput = false): SavedVariable {
  return new SavedVariable(t ?? null, isOutput);
}
