// The autograd machinery against PyTorch 2.13: every scenario of test/golden/autograd_semantics.json
// (tools/golden/gen_autograd_semantics.py) is replayed here with aten-ts's API, one function per scenario name,
// and its observations (flags, grad_fn names, next_functions, gradients, versions, error texts) must equal
// what PyTorch recorded. Floats are compared to 1e-6 relative (the gradients are float32 sums).
import { describe, expect, it } from 'vitest';
import { torch } from '../../src/api/index.js';
import { dtypeName } from '../../src/c10/index.js';
import type { FunctionCtx, Node } from '../../src/autograd/index.js';
import { Tensor } from '../../src/tensor/Tensor.js';
import { setWarningHandler } from '../../src/c10/Warning.js';
import { INT64_HINT } from '../../src/c10/Scalar.js';
import { loadGolden } from '../golden.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const golden = loadGolden<{ scenarios: Record<string, Json> }>('autograd_semantics.json');

interface TensorRecord {
  dtype: string;
  sizes: number[];
  values: Json[];
  [k: string]: Json;
}

/** A tensor as the generator writes it: {dtype, sizes, values (flattened)}, or null. */
function T(t: Tensor | null | undefined): TensorRecord | null {
  if (t === null || t === undefined) return null;
  const d = t.detach();
  return { dtype: dtypeName(d.scalarType), sizes: [...d.sizes], values: flat(d.tolist() as Json) };
}

function flat(v: Json): Json[] {
  return Array.isArray(v) ? v.flatMap(flat) : [v];
}

function name(node: Node | null | undefined): string | null {
  return node === null || node === undefined ? null : node.name();
}

function nf(node: Node | null): Json {
  return (node as Node).nextFunctions.map(([n, nr]) => [name(n), nr]);
}

/** `{ok: result}` or `{error: message}`, as the generator's `err`. */
function err(fn: () => unknown): Json {
  try {
    const r = fn();
    return { ok: r instanceof Tensor ? T(r) : r === undefined ? null : (r as Json) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

function leaf(values: number | number[] | number[][] | number[][][], dtype = 'float32'): Tensor {
  return torch.tensor(values, { dtype, requires_grad: true });
}

function f32(values: number | number[] | number[][]): Tensor {
  return torch.tensor(values, { dtype: 'float32' });
}

// Custom autograd.Functions of the custom_function_* scenarios, as gen_autograd_semantics.py defines them.
class ScaledExp extends torch.autograd.Function {
  static override forward(ctx: FunctionCtx & { k: number }, x: Tensor, k: number): Tensor {
    const r = x.exp().mul(k);
    ctx.saveForBackward(r);
    ctx.k = k;
    return r;
  }
  static override backward(ctx: FunctionCtx, g: Tensor | null): (Tensor | null)[] {
    const [r] = ctx.savedTensors;
    return [g!.mul(r!), null];
  }
}
class TwoGrads extends torch.autograd.Function {
  static override forward(_ctx: FunctionCtx, x: Tensor): Tensor {
    return x.mul(2);
  }
  static override backward(_ctx: FunctionCtx, g: Tensor | null): (Tensor | null)[] {
    return [g, g];
  }
}
class WrongShape extends torch.autograd.Function {
  static override forward(_ctx: FunctionCtx, x: Tensor): Tensor {
    return x.mul(2);
  }
  static override backward(_ctx: FunctionCtx, g: Tensor | null): Tensor {
    return g!.slice(0, 0, 1);
  }
}
class NoBackward extends torch.autograd.Function {
  static override forward(ctx: FunctionCtx & { seen: boolean[] }, x: Tensor): Tensor {
    ctx.seen = [...ctx.needsInputGrad];
    return x.clone();
  }
}
class SavesInput extends torch.autograd.Function {
  static override forward(ctx: FunctionCtx, x: Tensor): Tensor {
    ctx.saveForBackward(x);
    return x.mul(1);
  }
  static override backward(ctx: FunctionCtx, g: Tensor | null): Tensor {
    return g!.mul(ctx.savedTensors[0]!);
  }
}

const SCENARIOS: Record<string, () => Json> = {
  // ---- graph structure --------------------------------------------------------------------------------------
  graph_leaf_flags: () => {
    const x = leaf([1, 2, 3]);
    const c = f32([1, 2, 3]);
    const y = x.mul(2);
    return {
      x: [x.requiresGrad, x.isLeaf, name(x.gradFn), x.outputNr],
      c: [c.requiresGrad, c.isLeaf, name(c.gradFn)],
      y: [y.requiresGrad, y.isLeaf, name(y.gradFn), y.outputNr],
      y_next: nf(y.gradFn),
      cy: [c.mul(2).requiresGrad, name(c.mul(2).gradFn)],
      x_grad: T(x.grad),
    };
  },
  graph_chain: () => {
    const x = leaf([1, 2, 3]);
    const s = x.mul(2).add(x).exp().sum();
    const expNode = (s.gradFn as Node).nextFunctions[0]?.[0] as Node;
    const addNode = expNode.nextFunctions[0]?.[0] as Node;
    const mulNode = addNode.nextFunctions[0]?.[0] as Node;
    return {
      s: name(s.gradFn),
      s_next: nf(s.gradFn),
      exp_next: nf(expNode),
      add_next: nf(addNode),
      mul_next: nf(mulNode),
      same_accumulate: addNode.nextFunctions[1]?.[0] === mulNode.nextFunctions[0]?.[0],
    };
  },
  graph_two_leaves: () => {
    const a = leaf([1, 2]);
    const b = leaf([3, 4]);
    const c = f32([5, 6]);
    const y = a.add(b);
    const z = c.mul(a);
    const w = a.add(a);
    const wf = w.gradFn as Node;
    return {
      y_next: nf(y.gradFn),
      z_next: nf(z.gradFn),
      w_next: nf(wf),
      w_same: wf.nextFunctions[0]?.[0] === wf.nextFunctions[1]?.[0],
      accumulate_is_kept: (y.gradFn as Node).nextFunctions[0]?.[0] === (z.gradFn as Node).nextFunctions[1]?.[0],
    };
  },
  graph_output_nr_unbind: () => {
    const x = leaf([
      [1, 2],
      [3, 4],
    ]);
    const [a, b] = x.unbind(0) as [Tensor, Tensor];
    return { names: [name(a.gradFn), name(b.gradFn)], output_nr: [a.outputNr, b.outputNr], same_node: a.gradFn === b.gradFn };
  },
  graph_integer_outputs: () => {
    const x = leaf([1, 5, 3]);
    const i = x.argmax();
    const g = x.gt(2);
    return { argmax: [i.requiresGrad, name(i.gradFn), `torch.${dtypeName(i.scalarType)}`], gt: [g.requiresGrad, name(g.gradFn)] };
  },
  requires_grad_errors: () => {
    const out: Record<string, Json> = {};
    // PyTorch's text, then aten-ts's hint (Note [Messages from the integral-number rule]; test/api/kwargs.test.ts).
    out.int = err(() => torch.tensor([1, 2]).requiresGrad_());
    expect((out.int as { error: string }).error.endsWith(INT64_HINT)).toBe(true);
    out.int = { error: (out.int as { error: string }).error.slice(0, -INT64_HINT.length) };
    out.bool = err(() => torch.tensor([true]).requiresGrad_());
    out.int_false = err(() => torch.tensor([1, 2]).requiresGrad_(false).requiresGrad);
    out.float64 = err(() => torch.tensor([1], { dtype: 'float64' }).requiresGrad_().requiresGrad);
    const x = leaf([1, 2]);
    const y = x.mul(2);
    out.nonleaf_false = err(() => y.requiresGrad_(false));
    out.nonleaf_true = err(() => y.requiresGrad_(true).requiresGrad);
    x.requiresGrad_(false);
    out.leaf_off = [x.requiresGrad, x.isLeaf];
    out.factory = err(() => torch.ones(2, { requires_grad: true }).requiresGrad);
    out.factory_int = err(() => torch.ones(2, { dtype: 'int64', requires_grad: true }));
    return out;
  },
  printing: () => {
    const x = leaf([1, 2, 3]);
    const y = x.mul(2);
    return {
      leaf: String(x),
      mul: String(y),
      sum: String(y.sum()),
      exp: String(x.exp()),
      add: String(x.add(1)),
      detached: String(y.detach()),
      float64_leaf: String(leaf([0.5], 'float64')),
    };
  },

  // ---- backward ---------------------------------------------------------------------------------------------
  backward_implicit_scalar: () => {
    const x = leaf([1, 2, 3]);
    x.mul(x).sum().backward();
    return { grad: T(x.grad) };
  },
  backward_errors: () => {
    const x = leaf([1, 2, 3]);
    const c = f32([1, 2]);
    return {
      nonscalar: err(() => x.mul(2).backward()),
      no_grad_fn: err(() => c.sum().backward()),
      leaf_no_grad: err(() => c.backward(torch.ones(2))),
      shape: err(() => x.mul(2).backward(torch.ones(2))),
      shape_2d: err(() => x.mul(2).backward(torch.ones(1, 3))),
      x_grad_after: T(x.grad),
    };
  },
  backward_with_gradient: () => {
    const x = leaf([1, 2, 3]);
    x.mul(x).backward(f32([1, 0.5, -1]));
    return { grad: T(x.grad) };
  },
  backward_nonscalar_one_element: () => {
    const x = leaf([[3]]);
    x.mul(x).backward();
    return { grad: T(x.grad) };
  },
  backward_accumulates: () => {
    const x = leaf([1, 2, 3]);
    const y = x.mul(x).sum();
    y.backward(null, { retainGraph: true });
    const first = T(x.grad);
    y.backward();
    return { first, second: T(x.grad) };
  },
  backward_second_time: () => {
    const x = leaf([1, 2, 3]);
    const y = x.mul(x).sum();
    y.backward();
    const e = x.exp().sum();
    e.backward();
    return { mul: err(() => y.backward()), exp: err(() => e.backward()), grad: T(x.grad) };
  },
  backward_second_time_nothing_saved: () => {
    const x = leaf([1, 2, 3]);
    const y = x.add(1).sum();
    y.backward();
    const second = err(() => y.backward());
    return { second, grad: T(x.grad) };
  },
  backward_retain_graph_three_times: () => {
    const x = leaf([2]);
    const y = x.exp().sum();
    y.backward(null, { retainGraph: true });
    y.backward(null, { retainGraph: true });
    y.backward();
    return { grad: T(x.grad), fourth: err(() => y.backward()) };
  },
  backward_create_graph: () => {
    const x = leaf(2);
    x.mul(x).mul(x).backward(null, { createGraph: true });
    const g = x.grad as Tensor;
    const out: Record<string, Json> = { grad: T(g), grad_requires_grad: g.requiresGrad, grad_fn: name(g.gradFn) };
    const x2 = leaf(2);
    const y2 = x2.mul(x2).mul(x2);
    const g1 = torch.autograd.grad(y2, x2, { createGraph: true })[0] as Tensor;
    out.g1 = [T(g1), g1.requiresGrad, name(g1.gradFn)];
    const g2 = torch.autograd.grad(g1, x2, { createGraph: true })[0] as Tensor;
    out.g2 = [T(g2), g2.requiresGrad];
    const g3 = torch.autograd.grad(g2, x2)[0] as Tensor;
    out.g3 = [T(g3), g3.requiresGrad, name(g3.gradFn)];
    out.x2_grad = T(x2.grad);
    return out;
  },
  backward_create_graph_exp: () => {
    const x = leaf([0, 1]);
    const g = torch.autograd.grad(x.exp().sum(), x, { createGraph: true })[0] as Tensor;
    const gg = torch.autograd.grad(g.sum(), x)[0] as Tensor;
    return { g: T(g), gg: T(gg) };
  },
  backward_inputs: () => {
    const a = leaf([1, 2]);
    const b = leaf([3, 4]);
    const y = a.mul(b).sum();
    y.backward(null, { inputs: [a], retainGraph: true });
    const out: Record<string, Json> = { a: T(a.grad), b: T(b.grad) };
    y.backward(null, { inputs: b, retainGraph: true });
    out.a2 = T(a.grad);
    out.b2 = T(b.grad);
    out.empty = err(() => y.backward(null, { inputs: [] }));
    const c = f32([1]);
    out.no_grad_input = err(() => y.backward(null, { inputs: [c], retainGraph: true }));
    return out;
  },
  backward_inputs_nonleaf: () => {
    const a = leaf([1, 2]);
    const m = a.mul(3);
    m.mul(m)
      .sum()
      .backward(null, { inputs: [m] });
    return { m: T(m.grad), a: T(a.grad), m_retains_grad: m.retainsGrad };
  },
  backward_multiple_roots: () => {
    const a = leaf([1, 2]);
    torch.autograd.backward([a.mul(a).sum(), a.mul(3).sum()]);
    const out: Record<string, Json> = { grad: T(a.grad) };
    const b = leaf([1, 2]);
    torch.autograd.backward([b.mul(2), b.exp()], [torch.ones(2), f32([1, 0])]);
    out.b = T(b.grad);
    return out;
  },

  // ---- torch.autograd.grad ----------------------------------------------------------------------------------
  grad_basic: () => {
    const a = leaf([1, 2]);
    const b = leaf([3, 4]);
    const [ga, gb] = torch.autograd.grad(a.mul(b).sum(), [a, b]) as [Tensor, Tensor];
    return { ga: T(ga), gb: T(gb), a_grad: T(a.grad), requires_grad: [ga.requiresGrad, gb.requiresGrad] };
  },
  grad_unused: () => {
    const a = leaf([1, 2]);
    const b = leaf([3, 4]);
    const c = f32([1, 1]);
    const grad = torch.autograd.grad;
    return {
      unused: err(() => grad(a.mul(2).sum(), [a, b])),
      allow_unused: err(() => grad(a.mul(2).sum(), [a, b], { allowUnused: true }).map(T)),
      materialize: err(() => grad(a.mul(2).sum(), [a, b], { allowUnused: true, materializeGrads: true }).map(T)),
      materialize_only: err(() => grad(a.mul(2).sum(), [a, b], { materializeGrads: true }).map(T)),
      materialize_disallowed: err(() => grad(a.mul(2).sum(), [a, b], { allowUnused: false, materializeGrads: true })),
      no_requires_grad: err(() => grad(a.mul(c).sum(), [a, c])),
      output_no_grad: err(() => grad(c.sum(), [a])),
      unused_first: err(() => grad(b.mul(2).sum(), [a, b])),
    };
  },
  grad_outputs: () => {
    const a = leaf([1, 2, 3]);
    const y = a.mul(a);
    const grad = torch.autograd.grad;
    return {
      given: err(() => T(grad(y, a, { gradOutputs: f32([1, 0, 2]), retainGraph: true })[0])),
      missing: err(() => grad(y, a, { retainGraph: true })),
      shape: err(() => grad(y, a, { gradOutputs: torch.ones(2), retainGraph: true })),
      list: err(() => T(grad([y], [a], { gradOutputs: [torch.ones(3)], retainGraph: true })[0])),
      two_outputs: err(() => T(grad([y.sum(), a.mul(2).sum()], [a], { retainGraph: true })[0])),
      freed: err(() => {
        grad(y.sum(), a);
        return grad(y.sum(), a);
      }),
    };
  },
  grad_nonleaf_input: () => {
    const a = leaf([1, 2]);
    const m = a.mul(2);
    const y = m.mul(m).sum();
    const [gm] = torch.autograd.grad(y, m, { retainGraph: true }) as [Tensor];
    const [ga, gm2] = torch.autograd.grad(y, [a, m]) as [Tensor, Tensor];
    return { gm: T(gm), ga: T(ga), gm2: T(gm2), m_grad: T(m.grad), a_grad: T(a.grad) };
  },

  // ---- hooks --------------------------------------------------------------------------------------------------
  hook_leaf_modifies: () => {
    const x = leaf([1, 2, 3]);
    const seen: Json[] = [];
    x.registerHook((g) => {
      seen.push(T(g));
    });
    x.registerHook((g) => g.mul(2));
    x.mul(3).sum().backward();
    return { seen, grad: T(x.grad) };
  },
  hook_nonleaf_order: () => {
    const x = leaf([1, 2]);
    const y = x.mul(2);
    const log: Json[] = [];
    y.registerHook((g) => {
      log.push(['h1', T(g)]);
      return g.mul(10);
    });
    y.registerHook((g) => {
      log.push(['h2', T(g)]);
      return g.add(1);
    });
    y.sum().backward();
    return { log, grad: T(x.grad), y_grad: T(y.grad) };
  },
  hook_remove: () => {
    const x = leaf([1, 2]);
    const h = x.registerHook((g) => g.mul(100));
    const y = x.mul(2);
    const h2 = y.registerHook((g) => g.mul(1000));
    h.remove();
    h2.remove();
    h.remove();
    y.sum().backward();
    return { grad: T(x.grad) };
  },
  hook_errors: () => ({ no_grad: err(() => f32([1]).registerHook((g) => g)) }),
  retain_grad: () => {
    const x = leaf([1, 2]);
    const y = x.mul(2);
    y.retainGrad();
    y.retainGrad();
    const z = y.mul(y);
    x.retainGrad();
    z.sum().backward();
    return {
      y_grad: T(y.grad),
      z_grad: T(z.grad),
      x_grad: T(x.grad),
      retains: [x.retainsGrad, y.retainsGrad, z.retainsGrad],
      error: err(() => f32([1]).retainGrad()),
    };
  },
  retain_grad_sees_hooks: () => {
    const x = leaf([1, 2]);
    const y = x.mul(2);
    y.retainGrad();
    y.registerHook((g) => g.mul(10));
    y.sum().backward();
    return { y_grad: T(y.grad), x_grad: T(x.grad) };
  },
  retain_grad_accumulates: () => {
    const x = leaf([1, 2]);
    const y = x.mul(2);
    y.retainGrad();
    const s = y.mul(y).sum();
    s.backward(null, { retainGraph: true });
    s.backward();
    return { y_grad: T(y.grad), x_grad: T(x.grad) };
  },
  node_hooks: () => {
    const x = leaf([1, 2]);
    const y = x.mul(3);
    const node = y.gradFn as Node;
    const log: Json[] = [];
    node.registerPrehook((gradOutputs) => {
      log.push(['pre', gradOutputs.map(T)]);
      return [(gradOutputs[0] as Tensor).mul(2)];
    });
    node.registerHook((gradInputs, gradOutputs) => {
      log.push(['post', gradInputs.map(T), gradOutputs.map(T)]);
      return [(gradInputs[0] as Tensor).add(1), gradInputs[1] ?? null];
    });
    y.sum().backward();
    return { log, grad: T(x.grad) };
  },
  node_hook_remove: () => {
    const x = leaf([1, 2]);
    const y = x.mul(3);
    const node = y.gradFn as Node;
    const h = node.registerPrehook((go) => [(go[0] as Tensor).mul(100)]);
    const h2 = node.registerHook((gi) => [(gi[0] as Tensor).mul(100), gi[1] ?? null]);
    h.remove();
    h2.remove();
    y.sum().backward();
    return { grad: T(x.grad) };
  },

  // ---- broadcasting and dtypes ------------------------------------------------------------------------------
  broadcast_add: () => {
    const a = leaf([[1], [2], [3]]);
    const b = leaf([1, 2, 3, 4]);
    const y = a.add(b);
    y.sum().backward();
    return { y_sizes: [...y.sizes], a: T(a.grad), b: T(b.grad) };
  },
  broadcast_mul_scalar_tensor: () => {
    const a = leaf([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    const s = leaf(2);
    a.mul(s).sum().backward();
    return { a: T(a.grad), s: T(s.grad) };
  },
  broadcast_leading_dims: () => {
    const a = leaf([1, 2]);
    const b = leaf([[[1, 1]], [[2, 2]]]);
    a.mul(b).backward(torch.ones(2, 1, 2));
    return { a: T(a.grad), b: T(b.grad) };
  },
  broadcast_alpha: () => {
    const a = leaf([1, 2]);
    const b = leaf([[1], [2]]);
    torch.add(a, b, { alpha: 3 }).sum().backward();
    return { a: T(a.grad), b: T(b.grad) };
  },
  grad_dtypes: () => {
    const x = leaf([1, 2]);
    const d = torch.tensor([3, 4], { dtype: 'float64' });
    const y = x.mul(d);
    y.sum().backward();
    const out: Record<string, Json> = { y_dtype: `torch.${dtypeName(y.scalarType)}`, x_grad: T(x.grad) };
    const w = leaf([1, 2], 'float64');
    x.add(w).sum().backward();
    out.x_grad2 = T(x.grad);
    out.w_grad = T(w.grad);
    const h = leaf([1, 2]);
    h.mul(2.5).sum().backward();
    out.h = T(h.grad);
    return out;
  },

  // ---- grad modes -------------------------------------------------------------------------------------------
  no_grad_mode: () => {
    const x = leaf([1, 2]);
    const out: Record<string, Json> = { outside: torch.isGradEnabled() };
    torch.noGrad(() => {
      const y = x.mul(2);
      out.inside = torch.isGradEnabled();
      out.y = [y.requiresGrad, name(y.gradFn), y.isLeaf];
      torch.enableGrad(() => {
        const z = x.mul(2);
        out.enable_inside = torch.isGradEnabled();
        out.z = [z.requiresGrad, name(z.gradFn)];
      });
      out.after_enable = torch.isGradEnabled();
    });
    out.after = torch.isGradEnabled();
    const w = x.mul(2);
    out.w = [w.requiresGrad, name(w.gradFn)];
    return out;
  },
  set_grad_enabled_mode: () => {
    const x = leaf([1, 2]);
    const out: Record<string, Json> = {};
    torch.setGradEnabled(false);
    try {
      out.off = torch.isGradEnabled();
      out.y = x.mul(2).requiresGrad;
      torch.withGradEnabled(true, () => {
        out.scoped = [torch.isGradEnabled(), x.mul(2).requiresGrad];
      });
      out.after_scope = torch.isGradEnabled();
    } finally {
      torch.setGradEnabled(true);
    }
    out.on = [torch.isGradEnabled(), x.mul(2).requiresGrad];
    return out;
  },
  no_grad_inplace_on_leaf: () => {
    const x = leaf([1, 2]);
    const v0 = x._version;
    torch.noGrad(() => x.mul_(2));
    return { x: T(x), leaf: [x.isLeaf, x.requiresGrad], version: [v0, x._version] };
  },
  no_grad_backward_inside: () => {
    const x = leaf([1, 2]);
    const y = x.mul(x).sum();
    torch.noGrad(() => y.backward());
    return { grad: T(x.grad), grad_requires_grad: (x.grad as Tensor).requiresGrad };
  },
  inference_mode_basics: () => {
    const x = leaf([1, 2]);
    const out: Record<string, Json> = { enabled_outside: torch.isInferenceModeEnabled() };
    const t = torch.inferenceMode(() => {
      const t = torch.ones(2);
      const y = x.mul(2);
      out.enabled_inside = torch.isInferenceModeEnabled();
      out.grad_enabled_inside = torch.isGradEnabled();
      out.t = [t.isInference(), t.requiresGrad];
      out.y = [y.isInference(), y.requiresGrad, name(y.gradFn)];
      out.x = x.isInference();
      out.inplace_inside = err(() => T(t.add_(1)));
      out.requires_grad_inside = err(() => torch.ones(2).requiresGrad_().requiresGrad);
      return t;
    });
    out.after = [torch.isInferenceModeEnabled(), torch.isGradEnabled()];
    out.t_outside = t.isInference();
    const u = t.mul(2);
    out.u = [u.isInference(), u.requiresGrad];
    return out;
  },
  inference_tensor_errors: () => {
    const c = torch.inferenceMode(() => torch.ones(3));
    const x = leaf([1, 2, 3]);
    return {
      saved: err(() => x.mul(c)),
      add_not_saved: err(() => name(x.add(c).gradFn)),
      inplace: err(() => c.add_(1)),
      inplace_zero: err(() => c.zero_()),
      version: err(() => c._version),
      requires_grad: err(() => c.requiresGrad_()),
      requires_grad_false: err(() => c.requiresGrad_(false).requiresGrad),
      clone: err(() => [c.clone().isInference(), T(c.clone().requiresGrad_())]),
    };
  },
  inference_mode_normal_tensors: () => {
    const t = f32([
      [0, 0],
      [0, 0],
    ]);
    const x = leaf([1, 2]);
    let v = t;
    const out: Record<string, Json> = torch.inferenceMode(() => {
      t.add_(1);
      v = t.view(4);
      const s = t.select(0, 0);
      const f = t.add(1);
      const d = t.detach();
      const xv = x.view(2, 1);
      const o: Record<string, Json> = {
        t_version: t._version,
        v: [v.isInference(), v.isView(), v._base === t],
        s: [s.isInference(), s.isView()],
        f: f.isInference(),
        d: d.isInference(),
        xv: [xv.isInference(), xv.requiresGrad, name(xv.gradFn), xv.isView()],
      };
      v.mul_(2);
      o.after_view_inplace = [t._version, v._version];
      return o;
    });
    out.outside = [v.isInference(), v._version, T(t)];
    return out;
  },
  inference_mode_false: () => {
    const out: Record<string, Json> = {};
    torch.inferenceMode(() => {
      torch.inferenceMode(() => {
        const t = torch.ones(2);
        out.inner = [torch.isInferenceModeEnabled(), torch.isGradEnabled(), t.isInference()];
      }, false);
      out.back = torch.isInferenceModeEnabled();
    });
    return out;
  },

  // ---- version counter and in-place -------------------------------------------------------------------------
  version_counter: () => {
    const ops: [string, (t: Tensor) => unknown][] = [
      ['add_', (t) => t.add_(1)],
      ['add_tensor', (t) => t.add_(torch.ones(3))],
      ['sub_', (t) => t.sub_(1)],
      ['mul_', (t) => t.mul_(2)],
      ['div_', (t) => t.div_(2)],
      ['copy_', (t) => t.copy_(torch.ones(2, 3))],
      ['copy_broadcast', (t) => t.copy_(torch.ones(3))],
      ['copy_dtype', (t) => t.copy_(torch.ones(2, 3, { dtype: 'int64' }))],
      ['fill_', (t) => t.fill_(3)],
      ['zero_', (t) => t.zero_()],
      ['index_put_', (t) => t.index_put_([torch.tensor([0, 1])], torch.tensor(1, { dtype: 'float32' }))],
      ['index_put_accumulate', (t) => t.index_put_([torch.tensor([0, 0])], torch.tensor(1, { dtype: 'float32' }), true)],
      [
        'masked_fill_',
        (t) => (t as unknown as { masked_fill_(mask: Tensor, value: number): Tensor }).masked_fill_(torch.tensor([true, false, true]), 1),
      ],
      ['clamp_', (t) => t.clamp_(0, 1)],
      ['exp_', (t) => t.exp_()],
      ['neg_', (t) => t.neg_()],
      ['relu_', (t) => t.relu_()],
      ['sqrt_', (t) => t.sqrt_()],
      ['uniform_', (t) => t.uniform_()],
      ['normal_', (t) => t.normal_()],
      ['lerp_', (t) => t.lerp_(torch.ones(2, 3), 0.5)],
      ['transposed_add_', (t) => t.t().add_(1)],
      ['view_add_', (t) => t.view(6).add_(1)],
      ['select_fill_', (t) => t.select(0, 1).fill_(2)],
      ['out_add', (t) => torch.add(torch.ones(2, 3), 1, { out: t })],
      ['out_mul', (t) => torch.mul(torch.ones(2, 3), 2, { out: t })],
      ['out_sum', (t) => torch.sum(torch.ones(2, 3, 4), 2, { out: t })],
      ['functional_add', (t) => t.add(1)],
      ['view', (t) => t.view(6)],
      ['clone', (t) => t.clone()],
    ];
    const out: Record<string, Json> = {};
    for (const [op, fn] of ops) {
      const t = torch.zeros(2, 3);
      const v0 = t._version;
      const r = err(() => fn(t)) as { error?: string };
      out[op] = r.error === undefined ? t._version - v0 : r.error;
    }
    const t = torch.zeros(2, 3);
    const v0 = t._version;
    t.add_(1);
    t.mul_(2);
    t.zero_();
    out.three_ops = t._version - v0;
    return out;
  },
  version_of_factories: () => ({
    zeros: torch.zeros(2)._version,
    ones: torch.ones(2)._version,
    empty: torch.empty(2)._version,
    full: torch.full([2], 3, { dtype: 'float32' })._version,
    tensor: f32([1, 2])._version,
    arange: torch.arange(3)._version,
    rand: torch.rand(2)._version,
    zeros_like: torch.zeros_like(torch.ones(2))._version,
    result_of_add: torch.ones(2).add(1)._version,
  }),
  version_shared_by_views_and_detach: () => {
    const x = f32([0, 0, 0, 0]);
    const v = x.view(2, 2);
    const d = x.detach();
    v.add_(1);
    d.mul_(2);
    return { versions: [x._version, v._version, d._version], x: T(x) };
  },
  inplace_leaf_errors: () => {
    const x = leaf([1, 2]);
    const out: Record<string, Json> = {};
    const ops: [string, () => unknown][] = [
      ['add_', () => x.add_(1)],
      ['mul_', () => x.mul_(2)],
      ['zero_', () => x.zero_()],
      ['copy_', () => x.copy_(torch.ones(2))],
      ['fill_', () => x.fill_(1)],
      ['exp_', () => x.exp_()],
    ];
    for (const [op, fn] of ops) out[op] = err(fn);
    out.version = x._version;
    const c = f32([1, 2]);
    out.into_plain_with_grad = err(() => name(c.add_(x).gradFn));
    out.c_after = [c.requiresGrad, c.isLeaf];
    return out;
  },
  saved_version_error_output: () => {
    const x = leaf([1, 2, 3]);
    const y = x.exp();
    y.add_(1);
    return { grad_fn: name(y.gradFn), version: y._version, error: err(() => y.sum().backward()) };
  },
  saved_version_error_input: () => {
    const x = leaf([1, 2, 3]);
    const a = x.add(0);
    const b = a.mul(a);
    a.mul_(2);
    return { a_grad_fn: name(a.gradFn), error: err(() => b.sum().backward()) };
  },
  saved_version_error_leaf: () => {
    const w = leaf([1, 2, 3]);
    const c = f32([1, 2, 3]);
    const y = w.mul(c);
    c.add_(1);
    c.add_(1);
    return { error: err(() => y.sum().backward()) };
  },
  saved_not_needed_not_checked: () => {
    const x = leaf([1, 2, 3]);
    const c = f32([2, 2, 2]);
    const a = x.add(0);
    const b = a.mul(c);
    a.add_(1);
    const result = err(() => b.sum().backward());
    return { result, grad: T(x.grad) };
  },
  inplace_nonleaf_history: () => {
    const x = leaf([1, 2, 3]);
    const y = x.mul(2);
    const names = [name(y.gradFn)];
    y.add_(1);
    names.push(name(y.gradFn));
    y.mul_(3);
    names.push(name(y.gradFn));
    const next = nf(y.gradFn);
    y.sum().backward();
    return { names, next, leaf: y.isLeaf, version: y._version, grad: T(x.grad), y: T(y) };
  },
  inplace_nonleaf_exp_: () => {
    const x = leaf([0, 1]);
    const y = x.mul(1);
    y.exp_();
    y.sum().backward();
    return { name: name(y.gradFn), grad: T(x.grad) };
  },
  inplace_mul_with_grad_operand: () => {
    const x = leaf([1, 2]);
    const w = leaf([3, 4]);
    const y = x.mul(1);
    y.mul_(w);
    y.sum().backward();
    return { name: name(y.gradFn), next: nf(y.gradFn), x: T(x.grad), w: T(w.grad) };
  },
  inplace_into_plain_tensor: () => {
    const x = leaf([1, 2]);
    const c = torch.zeros(2);
    c.add_(x.mul(2));
    const out: Record<string, Json> = { c: [c.requiresGrad, c.isLeaf, name(c.gradFn)], next: nf(c.gradFn) };
    c.sum().backward();
    out.grad = T(x.grad);
    return out;
  },
  detach_semantics: () => {
    const x = leaf([1, 2]);
    const y = x.mul(2);
    const d = y.detach();
    const out: Record<string, Json> = { d: [d.requiresGrad, d.isLeaf, name(d.gradFn), d._base === null] };
    const v0 = y._version;
    d.add_(1);
    out.y_version = [v0, y._version];
    out.y_after = T(y);
    out.backward = err(() => y.sum().backward());
    const z = x.mul(3);
    z.detach_();
    out.z = [z.requiresGrad, z.isLeaf, name(z.gradFn)];
    out.leaf_detach = [x.detach().requiresGrad, x.detach().isLeaf];
    const v = x.view(2);
    out.view_detach_ = err(() => v.detach_());
    return out;
  },

  // ---- views ------------------------------------------------------------------------------------------------
  view_base: () => {
    const x = leaf([
      [1, 2],
      [3, 4],
    ]);
    const v = x.view(4);
    const v2 = v.view(2, 2);
    const c = torch.zeros(4);
    const cv = c.view(2, 2);
    return {
      v: [v._base === x, v.isView(), name(v.gradFn), nf(v.gradFn), v.isLeaf, v.requiresGrad],
      v2: [v2._base === x, v2.isView()],
      x: [x._base === null, x.isView()],
      cv: [cv._base === c, cv.isView(), cv.requiresGrad],
      clone: [v.clone().isView()],
    };
  },
  view_grad_fn_names: () => {
    const x = leaf([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    const cases: Record<string, () => Tensor> = {
      view: () => x.view(6),
      select: () => x.select(0, 1),
      slice: () => x.slice(1, 1),
      transpose: () => x.t(),
      expand: () => x.select(0, 0).expand(2, 3),
      unsqueeze: () => x.unsqueeze(0),
      squeeze: () => x.unsqueeze(0).squeeze(0),
      permute: () => x.permute(1, 0),
      reshape_view: () => x.reshape(3, 2),
      narrow: () => x.narrow(1, 0, 2),
    };
    const out: Record<string, Json> = {};
    for (const [k, fn] of Object.entries(cases)) {
      const r = err(() => {
        const v = fn();
        return [name(v.gradFn), v.isView()];
      }) as { ok?: Json; error?: string };
      out[k] = r.ok ?? r.error ?? null;
    }
    return out;
  },
  view_inplace_on_nonleaf: () => {
    const x = leaf([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    const y = x.mul(1);
    const v = y.view(6);
    v.mul_(2);
    const out: Record<string, Json> = {
      y_grad_fn: name(y.gradFn),
      v_grad_fn: name(v.gradFn),
      versions: [y._version, v._version],
      y_next: nf(y.gradFn),
      v_next: nf(v.gradFn),
      v_base: v._base === y,
    };
    y.sum().backward();
    out.grad = T(x.grad);
    out.y = T(y);
    return out;
  },
  view_inplace_select: () => {
    const x = leaf([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    const y = x.mul(1);
    const v = y.select(0, 0);
    v.mul_(2);
    const out: Record<string, Json> = { y_grad_fn: name(y.gradFn), v_grad_fn: name(v.gradFn) };
    y.mul(y).sum().backward();
    out.grad = T(x.grad);
    return out;
  },
  view_inplace_with_grad_operand: () => {
    const x = torch.zeros(2, 2);
    const w = leaf([1, 2]);
    const v = x.view(4);
    v.slice(0, 0, 2).add_(w);
    const out: Record<string, Json> = { x: [x.requiresGrad, x.isLeaf, name(x.gradFn)], v: [v.requiresGrad, name(v.gradFn)] };
    x.mul(
      f32([
        [1, 2],
        [3, 4],
      ]),
    )
      .sum()
      .backward();
    out.w = T(w.grad);
    return out;
  },
  view_of_leaf_inplace: () => {
    const x = leaf([1, 2, 3]);
    const out: Record<string, Json> = {
      view: err(() => x.view(3).add_(1)),
      view_mul: err(() => x.view(3, 1).mul_(2)),
      select: err(() => x.select(0, 0).zero_()),
    };
    torch.noGrad(() => x.view(3).add_(1));
    out.no_grad_ok = T(x);
    return out;
  },
  view_no_grad_then_inplace: () => {
    const x = leaf([1, 2, 3]);
    const y = x.mul(2);
    const v = torch.noGrad(() => y.view(3));
    const w = leaf([1, 1, 1]);
    return {
      v: [v.requiresGrad, v.isView(), name(v.gradFn)],
      add_scalar: err(() => name(v.add_(1).gradFn)),
      add_grad: err(() => v.add_(w)),
    };
  },
  view_base_modified_in_place: () => {
    const x = leaf([1, 2, 3, 4]);
    const y = x.mul(1);
    const v = y.view(2, 2);
    const before = name(v.gradFn);
    y.mul_(2);
    const out: Record<string, Json> = { before, after: name(v.gradFn), y: name(y.gradFn) };
    v.sum().backward();
    out.grad = T(x.grad);
    return out;
  },
  view_base_modified_then_used: () => {
    const x = leaf([1, 2, 3, 4]);
    const y = x.mul(1);
    const v = y.slice(0, 0, 2);
    y.mul_(3);
    v.mul(1).sum().backward();
    return { grad: T(x.grad), v: name(v.gradFn) };
  },

  retain_grad_create_graph: () => {
    const x = leaf([1, 2]);
    const y = x.mul(x);
    y.retainGrad();
    const z = y.mul(y).sum();
    z.backward(null, { createGraph: true });
    const out: Record<string, Json> = { first: [T(y.grad), name(y.grad?.gradFn)] };
    z.backward(null, { createGraph: true });
    out.second = [T(y.grad), name(y.grad?.gradFn)];
    return out;
  },

  anomaly_mode: () => {
    const out: Record<string, Json> = { enabled_before: torch.autograd.isAnomalyEnabled() };
    const warned: string[] = [];
    const prev = setWarningHandler((m) => warned.push(m.split('\n')[0] as string));
    try {
      torch.autograd.detectAnomaly(() => {
        out.enabled_inside = torch.autograd.isAnomalyEnabled();
        const x = leaf([0, 1]);
        const y = x.sqrt().mul(0);
        out.mul_nan = err(() => y.div(y.detach().clamp(0, null)).sum().backward());
        const z = x.div(x).sum();
        out.div_nan = err(() => z.backward());
        const x2 = leaf([1, 2]);
        out.clean = err(() => x2.mul(3).sum().backward());
        out.clean_grad = T(x2.grad);
      });
    } finally {
      setWarningHandler(prev);
    }
    out.warnings = warned;
    const prev2 = setWarningHandler(() => undefined);
    try {
      torch.autograd.setDetectAnomaly(true, false);
      const x = leaf([0, 1]);
      out.no_check_nan = err(() => x.div(x).sum().backward());
      out.no_check_nan_grad_has_nan = x.grad!.isnan().any().item() as boolean;
      torch.autograd.setDetectAnomaly(false);
    } finally {
      setWarningHandler(prev2);
    }
    out.enabled_after = torch.autograd.isAnomalyEnabled();
    return out;
  },

  functional_api: () => {
    const F = torch.autograd.functional;
    const f = (x: Tensor): Tensor => x.mul(x).mul(x);
    const g = (x: Tensor, y: Tensor): Tensor => x.mul(y).sum().add(x.mul(x).sum());
    const cube = (a: Tensor): Tensor => a.mul(a).mul(a).sum();
    const x = f32([1, 2, 3]);
    const y = f32([0.5, -1, 2]);
    const v = f32([1, 0.5, -1]);
    const jx = F.jacobian(f as (...xs: Tensor[]) => Tensor, x) as Tensor;
    const jxy = F.jacobian(g as (...xs: Tensor[]) => Tensor, [x, y]) as Tensor[];
    const h = F.hessian(cube as (...xs: Tensor[]) => Tensor, x) as Tensor;
    const hxy = F.hessian(g as (...xs: Tensor[]) => Tensor, [x, y]) as Tensor[][];
    const [o, vj] = F.vjp(f as (...xs: Tensor[]) => Tensor, x, v) as [Tensor, Tensor];
    const [o2, jv] = F.jvp(f as (...xs: Tensor[]) => Tensor, x, v) as [Tensor, Tensor];
    const [o3, hv] = F.hvp(cube as (...xs: Tensor[]) => Tensor, x, v) as [Tensor, Tensor];
    const jm = F.jacobian(((a: Tensor) => [a.mul(2), a.sum()]) as (...xs: Tensor[]) => Tensor[], x) as Tensor[];
    return {
      jacobian: T(jx),
      jacobian_two_inputs: jxy.map(T),
      hessian: T(h),
      hessian_two_inputs: hxy.map((row) => row.map(T)),
      vjp: [T(o), T(vj)],
      jvp: [T(o2), T(jv)],
      hvp: [T(o3), T(hv)],
      jacobian_two_outputs: jm.map(T),
      requires_grad: [jx.requiresGrad, vj.requiresGrad],
    };
  },

  inplace_view_ops: () => {
    const out: Record<string, Json> = {};
    const cases: Record<string, (y: Tensor) => Tensor> = {
      t_: (y) => y.t_(),
      transpose_: (y) => y.transpose_(0, 1),
      squeeze_: (y) => y.unsqueeze(0).squeeze_(),
      squeeze_dim: (y) => y.unsqueeze(0).squeeze_(0),
      squeeze_dims: (y) => y.unsqueeze(0).squeeze_([0]),
      unsqueeze_: (y) => y.unsqueeze_(1),
    };
    for (const [key, fn] of Object.entries(cases)) {
      const x = leaf([
        [1, 2, 3],
        [4, 5, 6],
      ]);
      const y = x.mul(1);
      const r = fn(y);
      const w = torch.arange(r.numel(), { dtype: 'float32' }).reshape(r.sizes);
      r.mul(w).sum().backward();
      out[key] = { grad_fn: name(r.gradFn), sizes: [...r.sizes], version: y._version, grad: T(x.grad) };
    }
    out.squeeze_dims_fn = torch.ones(1, 2, 1).squeeze([0, 2]).size();
    out.dup = err(() => torch.ones(1, 2).squeeze([0, 0]));
    out.leaf = err(() => leaf([1, 2]).t_());
    return out;
  },

  // ---- custom autograd.Function ---------------------------------------------------------------------------------
  custom_function_basic: () => {
    const x = leaf([1, 2]);
    const y = ScaledExp.apply(x, 2);
    const out: Record<string, Json> = { grad_fn: name(y.gradFn), next: nf(y.gradFn), y: T(y), requires_grad: y.requiresGrad };
    y.sum().backward();
    out.grad = T(x.grad);
    out.no_grad = torch.noGrad(() => ScaledExp.apply(x, 1).requiresGrad);
    out.plain_input = ScaledExp.apply(torch.tensor([1], { dtype: 'float32' }), 1).requiresGrad;
    return out;
  },
  custom_function_errors: () => {
    const x = leaf([1, 2]);
    const n = NoBackward.apply(x);
    return {
      count: err(() => TwoGrads.apply(x).sum().backward()),
      shape: err(() => WrongShape.apply(x).sum().backward()),
      no_backward: err(() => NoBackward.apply(x).sum().backward()),
      grad_fn: name(n.gradFn),
    };
  },
  custom_function_saved_version: () => {
    const a = leaf([1, 2]);
    const b = a.mul(1);
    const c = SavesInput.apply(b);
    b.add_(1);
    return { error: err(() => c.sum().backward()) };
  },

  // ---- out= -----------------------------------------------------------------------------------------------------
  out_with_requires_grad: () => {
    const x = leaf([1, 2]);
    const o = torch.empty(2);
    const out: Record<string, Json> = {
      add: err(() => torch.add(x, 1, { out: o })),
      mul: err(() => torch.mul(x, x, { out: o })),
      exp: err(() => torch.exp(x, { out: o })),
      sum: err(() => torch.sum(x, 0, { out: torch.empty([]) })),
    };
    torch.noGrad(() => torch.add(x, 1, { out: o }));
    out.no_grad = [T(o), o.requiresGrad];
    out.plain = err(() => T(torch.add(torch.ones(2), 1, { out: o })));
    out.out_requires_grad = err(() => torch.add(torch.ones(2), 1, { out: leaf([0, 0]) }));
    return out;
  },
};

// Note [Known differences from PyTorch]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Observations where aten-ts still differs, each with the reason and the file that owns the fix. They are
// asserted to differ, so an entry must be removed (and the observation then compared) once it is fixed.
// Empty today: every observation of the fixture matches PyTorch.
const KNOWN_DIFFERENCES: Record<string, Record<string, string>> = {};

/** `actual` with every number that is within 1e-6 (relative) of the expected one replaced by it. */
function alignFloats(actual: Json, expected: Json): Json {
  if (typeof actual === 'number' && typeof expected === 'number') {
    return Math.abs(actual - expected) <= 1e-6 * Math.max(1, Math.abs(expected)) ? expected : actual;
  }
  if (Array.isArray(actual) && Array.isArray(expected)) return actual.map((a, i) => alignFloats(a, expected[i] ?? null));
  if (
    actual !== null &&
    expected !== null &&
    typeof actual === 'object' &&
    typeof expected === 'object' &&
    !Array.isArray(actual) &&
    !Array.isArray(expected)
  ) {
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(actual)) out[k] = alignFloats(v, expected[k] ?? null);
    return out;
  }
  return actual;
}

describe('autograd semantics against PyTorch 2.13 (autograd_semantics.json)', () => {
  it('replays every scenario of the fixture, and the fixture has every scenario replayed here', () => {
    expect(Object.keys(SCENARIOS).sort()).toEqual(Object.keys(golden.scenarios).sort());
    expect(Object.keys(SCENARIOS).length).toBeGreaterThan(60);
  });

  for (const [key, expected] of Object.entries(golden.scenarios)) {
    it(key, () => {
      const run = SCENARIOS[key];
      if (run === undefined) throw new Error(`no replay for scenario ${key}`);
      let actual: Json;
      try {
        actual = run();
      } finally {
        // A failing scenario must not leave a grad mode behind for the next one.
        torch.setGradEnabled(true);
      }
      const got = alignFloats(actual, expected) as Record<string, Json>;
      const want = { ...(expected as Record<string, Json>) };
      for (const [k, why] of Object.entries(KNOWN_DIFFERENCES[key] ?? {})) {
        expect(k in want, `${key}.${k}: no such observation`).toBe(true);
        expect(got[k], `${key}.${k} is a known difference (${why}) but now matches PyTorch: remove it from KNOWN_DIFFERENCES`).not.toEqual(
          want[k],
        );
        delete got[k];
        delete want[k];
      }
      expect(got).toEqual(want);
    });
  }
});
