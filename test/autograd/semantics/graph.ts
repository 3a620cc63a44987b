// The autograd semantics scenarios of graph structure: requires_grad, is_leaf, grad_fn names, next_functions,
// output_nr, requires_grad_ errors, printing: the replays of tools/golden/autograd_semantics/graph.py's scenarios
// (test/golden/autograd_semantics.json), one function per scenario name, run by
// test/autograd/semantics_graph.test.ts.
import { expect } from 'vitest';
import { torch } from '../../../src/api/index.js';
import type { Node } from '../../../src/autograd/index.js';
import type { Tensor } from '../../../src/tensor/Tensor.js';
import { INT64_HINT } from '../../../src/c10/Scalar.js';
import { dtypeName } from '../../../src/c10/index.js';
import { type Json, T, name, nf, err, leaf, f32 } from './harness.js';

export const GRAPH: Record<string, () => Json> = {
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
};
