// The autograd semantics scenarios of backward (implicit ones, gradient=, accumulation, a second backward,
// retain_graph, create_graph, inputs=, several roots) and torch.autograd.grad: the replays of
// tools/golden/autograd_semantics/backward.py's scenarios (test/golden/autograd_semantics.json), one function per
// scenario name, run by test/autograd/semantics_backward.test.ts.
import { torch } from '../../../src/api/index.js';
import type { Tensor } from '../../../src/tensor/Tensor.js';
import { type Json, T, name, err, leaf, f32 } from './harness.js';

export const BACKWARD: Record<string, () => Json> = {
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
};
