// The backward engine: from root gradients, run every node of the graph once all gradients flowing into it
// have arrived, accumulating into leaves or capturing the gradients `autograd.grad` asked for. Mirrors
// torch/csrc/autograd/engine.cpp (Engine::execute, compute_dependencies, init_to_execute, evaluate_function,
// validate_outputs) and torch/autograd/__init__.py (backward, grad, _make_grads).

import { autogradState } from '../c10/AutogradState.js';
import { isComplexType, isFloatingType, type ScalarType } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';
import { nextStorageSerial, type Storage } from '../tensor/Storage.js';
import { isExpandableTo, sameSizes } from '../tensor/ExpandUtils.js';
import { sumTo } from './FunctionsManual.js';
import { withoutHistory } from './GradientUtils.js';
import { anomalyMode, checkNanOutputs, warnForwardTrace } from './anomaly_mode.js';
import { AccumulateGrad, GraphRoot, Node, setActiveExecInfo, stealableGrads } from './function.js';
import { gradientEdge, materializeAutogradMeta, type Edge } from './variable.js';
import { CustomFunctionBackward } from './customFunction.js';
import { closeScope, escapeStorage, openScope } from '../tensor/StorageScope.js';
import { isKw, parseKw } from '../c10/Kwargs.js';

/**
 * The keyword arguments of `Tensor.backward` (PyTorch's names; each also in camelCase, Note [Option keys] in
 * src/c10/Kwargs.ts).
 */
export interface BackwardOptions {
  /** The gradient of the tensor (`gradient`), when not given positionally. */
  gradient?: Tensor | null;
  /** Keep saved tensors so the graph can be differentiated again (defaults to `create_graph`). */
  retain_graph?: boolean | null;
  retainGraph?: boolean | null;
  /** Record the backward pass itself, for higher-order gradients. */
  create_graph?: boolean;
  createGraph?: boolean;
  /** Accumulate only into these tensors' `.grad`. */
  inputs?: Tensor | readonly Tensor[] | null;
}

/** The keyword arguments of `torch.autograd.backward`. */
export interface AutogradBackwardOptions extends Omit<BackwardOptions, 'gradient'> {
  grad_tensors?: Tensor | readonly (Tensor | null)[] | null;
  gradTensors?: Tensor | readonly (Tensor | null)[] | null;
}

/** The keyword arguments of `torch.autograd.grad`. */
export interface GradOptions {
  /** Gradients of the outputs (`grad_outputs`); null entries mean ones for scalar outputs. */
  grad_outputs?: Tensor | readonly (Tensor | null)[] | null;
  gradOutputs?: Tensor | readonly (Tensor | null)[] | null;
  retain_graph?: boolean | null;
  retainGraph?: boolean | null;
  create_graph?: boolean;
  createGraph?: boolean;
  /** Return null for inputs the outputs do not depend on instead of raising. */
  allow_unused?: boolean | null;
  allowUnused?: boolean | null;
  /** With allow_unused, return zeros instead of null for unused inputs. */
  materialize_grads?: boolean;
  materializeGrads?: boolean;
}

const BACKWARD_KEYS = ['grad_tensors', 'retain_graph', 'create_graph', 'inputs'];
const TENSOR_BACKWARD_KEYS = ['gradient', 'retain_graph', 'create_graph', 'inputs'];
const GRAD_KEYS = ['grad_outputs', 'retain_graph', 'create_graph', 'allow_unused', 'materialize_grads'];

function sizeStr(sizes: readonly number[]): string {
  return `torch.Size([${sizes.join(', ')}])`;
}

/** `_make_grads`: the root gradients, ones for scalar outputs when none was given, with PyTorch's checks. */
function makeGrads(outputs: readonly Tensor[], grads: readonly (Tensor | null | undefined)[]): (Tensor | null)[] {
  const out: (Tensor | null)[] = [];
  for (let i = 0; i < outputs.length; i++) {
    const o = outputs[i] as Tensor;
    const g = grads[i];
    if (g !== null && g !== undefined) {
      if (!sameSizes(g.sizes, o.sizes)) {
        throw new Error(
          `Mismatch in shape: grad_output[${i}] has a shape of ${sizeStr(g.sizes)} and output[${i}] has a shape of ${sizeStr(o.sizes)}.`,
        );
      }
      if (isComplexType(o.scalarType) !== isComplexType(g.scalarType)) {
        throw new Error(
          `For complex Tensors, both grad_output and output are required to have the same dtype. Mismatch in dtype: ` +
            `grad_output[${i}] has a dtype of ${g.scalarType} and output[${i}] has a dtype of ${o.scalarType}.`,
        );
      }
      out.push(g);
    } else if (o.requiresGrad) {
      if (o.numel() !== 1) throw new Error('grad can be implicitly created only for scalar outputs');
      if (!isFloatingType(o.scalarType)) throw new Error('grad can be implicitly created only for real scalar outputs');
      out.push(aten().ones_like.call(o, null, null, null, null, null));
    } else {
      out.push(null);
    }
  }
  return out;
}

/** A max-heap of nodes by sequence number: the most recently created ready node runs first. */
class ReadyQueue {
  private readonly heap: Node[] = [];

  get size(): number {
    return this.heap.length;
  }

  push(n: Node): void {
    const h = this.heap;
    h.push(n);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if ((h[p] as Node).sequenceNr >= n.sequenceNr) break;
      h[i] = h[p] as Node;
      i = p;
    }
    h[i] = n;
  }

  pop(): Node {
    const h = this.heap;
    const top = h[0] as Node;
    const last = h.pop() as Node;
    if (h.length > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= h.length) break;
        const r = l + 1;
        const c = r < h.length && (h[r] as Node).sequenceNr > (h[l] as Node).sequenceNr ? r : l;
        if ((h[c] as Node).sequenceNr <= last.sequenceNr) break;
        h[i] = h[c] as Node;
        i = c;
      }
      h[i] = last;
    }
    return top;
  }
}

// Note [Engine order]
// ~~~~~~~~~~~~~~~~~~~
// As in PyTorch's CPU engine, a node runs once every gradient flowing into it has arrived (dependency counts
// from one walk of the graph), and among ready nodes the one created last (highest sequence number) runs
// first; AccumulateGrad has the largest number, so leaves receive their gradient as soon as it is complete.
// Gradients arriving at the same input are summed out of place (the first is kept as is), so a formula may
// hand one tensor to several inputs.
//
// Note [Gradients are reduced to the input's shape]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Formulas return gradients shaped like the broadcast result (`add`: `self: grad`); validate_outputs sums
// them to the shape the forward input had (kept in the receiving node's input metadata) and converts them to
// its dtype, so broadcasting never needs handling in a formula.

/** `validate_outputs`: reduce or cast a gradient flowing along `edge` to what its node expects. */
function validateGrad(node: Node, i: number, edge: Edge, grad: Tensor): Tensor {
  const next = edge.fn as Node;
  const sizes = edge.inputNr === 0 ? next.sizes0 : next.moreMetadata?.[edge.inputNr]?.sizes;
  if (sizes === undefined) return grad;
  const dtype = edge.inputNr === 0 ? next.dtype0 : (next.moreMetadata?.[edge.inputNr]?.dtype as number);
  let g = grad;
  if (!sameSizes(g.sizes, sizes)) {
    if (!isExpandableTo(sizes, g.sizes)) {
      throw new Error(
        `Function ${node.name()} returned an invalid gradient at index ${i} - got [${g.sizes.join(', ')}] but ` +
          `expected shape compatible with [${sizes.join(', ')}]`,
      );
    }
    g = sumTo(g, sizes);
  }
  if (g.scalarType !== dtype) g = aten().to_dtype.call(g, dtype as ScalarType, false, false, null);
  return g;
}

interface Capture {
  node: Node;
  inputNr: number;
  index: number;
}

/**
 * `Engine::execute`: runs the graph from `roots` with `rootGrads`. With `captures`, the gradients flowing
 * into those edges are returned (autograd.grad) and only the nodes on a path to them run.
 */
// Note [Gradients freed after backward]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The gradients that flow between nodes during `backward()` are the engine's own: no user code sees them
// unless a hook or a custom Function's backward runs, or the graph is built again (create_graph). So
// `backward()` runs inside a storage scope (src/tensor/StorageScope.ts) and, when none of those happened,
// frees every storage allocated during the pass except the ones that escaped into `.grad` (AccumulateGrad,
// retain_grad) — as PyTorch's reference counts free them when the pass ends (Note [Storage lifetime]).
let userCodeSawGradients = false;

function execute(
  roots: readonly Edge[],
  rootGrads: (Tensor | null)[],
  keepGraph: boolean,
  createGraph: boolean,
  outputEdges: readonly Edge[] | null,
  accumulate: boolean,
): (Tensor | null)[] {
  const root = new GraphRoot([...roots], rootGrads);
  // compute_dependencies
  const deps = new Map<Node, number>();
  const seen = new Set<Node>([root]);
  const stack: Node[] = [root];
  const order: Node[] = [];
  while (stack.length > 0) {
    const n = stack.pop() as Node;
    order.push(n);
    for (const e of n.nextEdges) {
      const f = e.fn;
      if (f === null) continue;
      deps.set(f, (deps.get(f) ?? 0) + 1);
      if (!seen.has(f)) {
        seen.add(f);
        stack.push(f);
      }
    }
  }
  // init_to_execute: which nodes lead to a captured edge (or to an AccumulateGrad of `inputs`).
  let needed: Set<Node> | null = null;
  const captures: Capture[] = [];
  const captured: (Tensor | null)[] = [];
  if (outputEdges !== null) {
    needed = new Set<Node>();
    const targets = new Set<Node>();
    for (let index = 0; index < outputEdges.length; index++) {
      const e = outputEdges[index] as Edge;
      const f = e.fn as Node;
      if (accumulate) needed.add(f);
      else captures.push({ node: f, inputNr: e.inputNr, index });
      targets.add(f);
      captured.push(null);
    }
    // A node is needed if one of its edges leads to a target or to a needed node: visit in reverse
    // discovery order until nothing changes (graphs are DAGs; a few passes suffice).
    let changed = true;
    while (changed) {
      changed = false;
      for (let k = order.length - 1; k >= 0; k--) {
        const n = order[k] as Node;
        if (needed.has(n)) continue;
        for (const e of n.nextEdges) {
          if (e.fn !== null && (targets.has(e.fn) || needed.has(e.fn))) {
            needed.add(n);
            changed = true;
            break;
          }
        }
      }
    }
    needed.add(root);
  }

  const buffers = new Map<Node, (Tensor | null)[]>();
  const queue = new ReadyQueue();
  const prevGradMode = autogradState.gradMode;
  // Nodes consult this in shouldComputeOutput: an input's gradient is wanted when its edge leads to a node
  // that runs or whose incoming gradient is captured.
  let wanted: Set<Node> | null = null;
  if (needed !== null) {
    wanted = new Set(needed);
    for (const e of outputEdges ?? []) if (e.fn !== null) wanted.add(e.fn);
  }
  const prevExec = setActiveExecInfo(wanted);
  const frees = new GradientFrees(freeAsTheyDie && !createGraph);
  try {
    autogradState.gradMode = createGraph;
    queue.push(root);
    buffers.set(root, []);
    while (queue.size > 0) {
      const node = queue.pop();
      let inputs = buffers.get(node) ?? [];
      buffers.delete(node);
      // Tensor hooks, retain_grad, captures, pre-hooks: in PyTorch's order.
      const hooks = node.hooks;
      if (hooks !== null || node instanceof CustomFunctionBackward) {
        userCodeSawGradients = true;
        frees.enabled = false;
      }
      if (hooks !== null) {
        for (let h = 0; h < hooks.tensorPreHooks.length; h++) {
          const nr = hooks.tensorPreHookInputs[h] ?? 0;
          const g = inputs[nr];
          if (g === null || g === undefined) continue;
          const r = (hooks.tensorPreHooks[h] as (g: Tensor) => Tensor | undefined | void)(g);
          if (r !== undefined) inputs[nr] = r;
        }
        for (let nr = 0; nr < hooks.retainsGradTensors.length; nr++) {
          const t = hooks.retainsGradTensors[nr];
          const g = inputs[nr];
          if (t !== undefined && g !== null && g !== undefined) {
            // The retains_grad hook: a clone the first time, then `grad + new` (both recorded under create_graph).
            const m = materializeAutogradMeta(t);
            m.grad = m.grad === null ? aten().clone.call(createGraph ? g : withoutHistory(g), 0) : aten().add_Tensor.call(m.grad, g, 1);
            escapeStorage(m.grad.storage);
          }
        }
      }
      for (const c of captures) {
        if (c.node !== node) continue;
        const g = inputs[c.inputNr] ?? null;
        captured[c.index] = g;
        if (g !== null) frees.pin(g);
      }
      if (hooks !== null) {
        for (const hook of hooks.preHooks) {
          const r = hook(inputs);
          if (r !== undefined) inputs = r;
        }
      }
      if (needed !== null && !needed.has(node)) {
        frees.consumed(inputs);
        continue;
      }

      let outputs: (Tensor | null)[];
      if (anomalyMode.enabled) {
        try {
          outputs = node.apply(inputs);
          if (anomalyMode.checkNan) checkNanOutputs(node, outputs);
        } catch (e) {
          warnForwardTrace(node);
          throw e;
        }
      } else outputs = node.apply(inputs);
      if (!keepGraph) node.releaseVariables();
      let outs = outputs;
      if (hooks !== null) {
        for (const hook of hooks.postHooks) {
          const r = hook(outs, inputs);
          if (r !== undefined) outs = r;
        }
      }
      const edges = node.nextEdges;
      if (outs.length !== edges.length && !(node instanceof GraphRoot)) {
        if (outs.length !== 0 || edges.length !== 0) {
          throw new Error(
            `function ${node.name()} returned an incorrect number of gradients (expected ${edges.length}, got ${outs.length})`,
          );
        }
      }
      for (let i = 0; i < edges.length; i++) {
        const e = edges[i] as Edge;
        const next = e.fn;
        if (next === null) continue;
        const made = outs[i] ?? null;
        let g = made;
        if (g !== null) g = validateGrad(node, i, e, g);
        if (g !== made) frees.dropped(made);
        let buf = buffers.get(next);
        if (buf === undefined) {
          buf = [];
          buffers.set(next, buf);
        }
        if (g !== null) {
          const old = buf[e.inputNr];
          if (old === null || old === undefined) {
            buf[e.inputNr] = g;
            frees.held(g);
            if (next instanceof AccumulateGrad && (g.storage !== (made as Tensor).storage || madeBy(node, made as Tensor, outs, inputs)))
              stealableGrads.add(g);
          } else {
            const sum = aten().add_Tensor.call(old, g, 1);
            buf[e.inputNr] = sum;
            frees.held(sum);
            frees.released(old);
            frees.dropped(g);
            if (next instanceof AccumulateGrad && !createGraph) stealableGrads.add(sum);
          }
        } else if (buf[e.inputNr] === undefined) {
          buf[e.inputNr] = null;
        }
        const d = (deps.get(next) ?? 1) - 1;
        deps.set(next, d);
        if (d === 0) queue.push(next);
      }
      // Outputs not passed on (no next node) die here; then the node's incoming gradients have been used.
      for (let i = edges.length; i < outs.length; i++) frees.dropped(outs[i] ?? null);
      for (let i = 0; i < edges.length; i++) if ((edges[i] as Edge).fn === null) frees.dropped(outs[i] ?? null);
      frees.consumed(inputs);
    }
  } finally {
    autogradState.gradMode = prevGradMode;
    setActiveExecInfo(prevExec);
  }
  return captured;
}

// Note [Gradients freed as they die]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch frees a gradient flowing between nodes when its last reference goes: once the node it was sent to
// has run, unless something else kept it. The engine does the same for the storages it can account for:
// those made during this pass (Storage.serial at least the pass's first; never a root gradient, a forward
// tensor or anything saved), counted per input-buffer slot that holds a tensor over them. When a node has
// run, each incoming gradient's storage whose count is zero is freed at once, so the next node's result
// reuses the block, warm in cache, instead of one more block the collector must find (Note [Storage
// lifetime]). Never freed: storages that escaped (a leaf's `.grad`: AccumulateGrad's stolen gradient),
// gradients autograd.grad captures (the caller's results), anything once user code has seen a gradient in
// this pass (a hook, retain_grad, a custom Function's backward: it may keep one), and nothing under
// create_graph (the new graph saves gradients). What is left is freed when the pass ends (Note [Gradients
// freed after backward]).

let freeAsTheyDie = true;

/** @internal Turns the freeing of Note [Gradients freed as they die] on or off (bench/step_memory.ts's A/B); returns the old setting. */
export function setGradientsFreedAsTheyDie(on: boolean): boolean {
  const old = freeAsTheyDie;
  freeAsTheyDie = on;
  return old;
}

/** The engine's accounting of the gradients of one pass (Note [Gradients freed as they die]). */
class GradientFrees {
  private readonly first = nextStorageSerial();
  /** Input-buffer slots holding a tensor over each storage. */
  private readonly slots = new Map<Storage, number>();
  private pinned: Set<Storage> | null = null;
  private readonly pending: Storage[] = [];

  constructor(public enabled: boolean) {}

  /** `t` went into an input buffer. */
  held(t: Tensor): void {
    if (this.enabled) this.slots.set(t.storage, (this.slots.get(t.storage) ?? 0) + 1);
  }

  /** `t` left an input buffer (used); a candidate for `flush`. */
  released(t: Tensor): void {
    if (!this.enabled) return;
    const s = t.storage;
    const n = (this.slots.get(s) ?? 0) - 1;
    if (n > 0) this.slots.set(s, n);
    else this.slots.delete(s);
    this.pending.push(s);
  }

  /** A node's incoming gradients, used now; then `flush`. */
  consumed(inputs: readonly (Tensor | null | undefined)[]): void {
    if (!this.enabled) return;
    for (const g of inputs) if (g !== null && g !== undefined) this.released(g);
    this.flush();
  }

  /** `t` was made and not kept in a buffer (it may still be passed on along another edge: `flush` decides). */
  dropped(t: Tensor | null): void {
    if (this.enabled && t !== null) this.pending.push(t.storage);
  }

  /** Frees the candidates nothing holds, once a node's outputs have all been passed on. */
  private flush(): void {
    const p = this.pending;
    for (let i = 0; i < p.length; i++) this.freeIfDead(p[i] as Storage);
    p.length = 0;
  }

  /** `t` is handed to the caller (autograd.grad): never freed. */
  pin(t: Tensor): void {
    (this.pinned ??= new Set()).add(t.storage);
  }

  private freeIfDead(s: Storage): void {
    if (s.serial < this.first || s.escaped || this.slots.has(s) || this.pinned?.has(s) === true) return;
    s.free();
  }
}

/**
 * Whether `g`, output of `node`, is a tensor the node's backward made itself and handed out once: a built-in
 * node without hooks, `g` not one of its incoming gradients nor on two of its edges (Note [Stealing the
 * gradient] in GradientUtils.ts). (A gradient validateGrad had to reduce or cast to the input's shape and
 * dtype is new storage, the engine's own, whatever the node returned.)
 */
function madeBy(node: Node, g: Tensor, outs: readonly (Tensor | null)[], inputs: readonly (Tensor | null)[]): boolean {
  if (node instanceof GraphRoot || node instanceof CustomFunctionBackward || node.hooks !== null) return false;
  return outs.indexOf(g) === outs.lastIndexOf(g) && !inputs.includes(g);
}

function asList<T>(x: T | readonly T[] | null | undefined): T[] {
  if (x === null || x === undefined) return [];
  return Array.isArray(x) ? [...(x as readonly T[])] : [x as T];
}

function rootEdges(outputs: readonly Tensor[]): Edge[] {
  return outputs.map((o, i) => {
    const e = gradientEdge(o);
    if (e.fn === null) throw new Error(`element ${i} of tensors does not require grad and does not have a grad_fn`);
    return e;
  });
}

/** `Tensor.backward(gradient=None, retain_graph=None, create_graph=False, inputs=None)`. */
export function tensorBackward(t: Tensor, gradient?: Tensor | null | BackwardOptions, options?: BackwardOptions): void {
  if (isKw(gradient)) [gradient, options] = [undefined, gradient as BackwardOptions];
  const o = parseKw('Tensor.backward', options, TENSOR_BACKWARD_KEYS);
  if (o.gradient !== undefined) {
    if (gradient !== undefined && gradient !== null) throw new TypeError("Tensor.backward() got multiple values for argument 'gradient'");
    gradient = o.gradient as Tensor | null;
  }
  backward(t, (gradient as Tensor | null | undefined) ?? null, {
    retain_graph: o.retain_graph,
    create_graph: o.create_graph,
    inputs: o.inputs,
  } as AutogradBackwardOptions);
}

/** `torch.autograd.backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None)`. */
export function backward(
  tensors: Tensor | readonly Tensor[],
  gradTensors?: Tensor | readonly (Tensor | null)[] | null | AutogradBackwardOptions,
  options?: AutogradBackwardOptions,
): void {
  if (isKw(gradTensors)) [gradTensors, options] = [undefined, gradTensors as AutogradBackwardOptions];
  const o = parseKw('backward', options, BACKWARD_KEYS);
  if (o.grad_tensors !== undefined) {
    if (gradTensors !== undefined && gradTensors !== null)
      throw new TypeError("backward() got multiple values for argument 'grad_tensors'");
    gradTensors = o.grad_tensors as Tensor | readonly (Tensor | null)[] | null;
  }
  const outputs = asList(tensors);
  const inputs = asList((o.inputs ?? undefined) as Tensor | readonly Tensor[] | undefined);
  if (o.inputs !== undefined && o.inputs !== null && inputs.length === 0)
    throw new Error('`inputs` argument to `backward()` cannot be empty.');
  const grads = makeGrads(outputs, asList(gradTensors as Tensor | readonly (Tensor | null)[] | null | undefined));
  const createGraph = (o.create_graph as boolean | undefined) ?? false;
  const keepGraph = (o.retain_graph as boolean | null | undefined) ?? createGraph;
  const roots = rootEdges(outputs);
  // See Note [Gradients freed after backward].
  const tracked = openScope();
  const sawBefore = userCodeSawGradients;
  userCodeSawGradients = false;
  let completed = false;
  try {
    runBackward(roots, grads, keepGraph, createGraph, inputs);
    completed = true;
  } finally {
    closeScope(tracked, completed && !createGraph && !userCodeSawGradients);
    userCodeSawGradients = sawBefore;
  }
}

function runBackward(roots: Edge[], grads: (Tensor | null)[], keepGraph: boolean, createGraph: boolean, inputs: Tensor[]): void {
  if (inputs.length === 0) {
    execute(roots, grads, keepGraph, createGraph, null, true);
    return;
  }
  // Note [backward(inputs=...)]
  // ~~~~~~~~~~~~~~~~~~~~~~~~~~~
  // As python_engine.cpp's run_backward: every input is first asked to `retain_grad()` (a no-op for leaves,
  // PyTorch's "can't retain_grad on Tensor that has requires_grad=False" for a tensor that does not require
  // grad, and for a non-leaf it stays `retains_grad` afterwards), then one pass runs with the inputs' edges
  // marked needed: leaves accumulate through their AccumulateGrad, non-leaves receive `.grad` through the
  // retain_grad mechanism when their grad_fn is reached, and nothing past them gets a gradient.
  const edges = inputs.map((t) => {
    t.retainGrad();
    const e = gradientEdge(t);
    if (e.fn === null) throw new Error('One of the differentiated Tensors does not require grad');
    return e;
  });
  execute(roots, grads, keepGraph, createGraph, edges, true);
}

/** `torch.autograd.grad(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused)`. */
export function grad(outputs: Tensor | readonly Tensor[], inputs: Tensor | readonly Tensor[], options?: GradOptions): (Tensor | null)[] {
  const o = parseKw('grad', options, GRAD_KEYS);
  const outs = asList(outputs);
  const ins = asList(inputs);
  if (ins.length === 0) throw new Error('grad requires non-empty inputs.');
  const grads = makeGrads(outs, asList(o.grad_outputs as Tensor | readonly (Tensor | null)[] | null | undefined));
  const createGraph = (o.create_graph as boolean | undefined) ?? false;
  const keepGraph = (o.retain_graph as boolean | null | undefined) ?? createGraph;
  const materialize = o.materialize_grads === true;
  const allowUnused = (o.allow_unused as boolean | null | undefined) ?? materialize;
  if (materialize && o.allow_unused === false) {
    throw new Error('Expected allow_unused to be True or not passed when materialize_grads=True, but got: allow_unused=False.');
  }
  const edges = ins.map((t) => {
    const e = gradientEdge(t);
    if (e.fn === null) throw new Error('One of the differentiated Tensors does not require grad');
    return e;
  });
  const result = execute(rootEdges(outs), grads, keepGraph, createGraph, edges, false);
  return result.map((g, i) => {
    if (g !== null && g !== undefined) return g;
    if (!allowUnused) {
      throw new Error(
        `The differentiated Tensor at index ${i} appears to not have been used in the graph. Set allow_unused=True if this is the desired behavior.`,
      );
    }
    return materialize ? aten().zeros_like.call(ins[i] as Tensor, null, null, null, null, null) : null;
  });
}
