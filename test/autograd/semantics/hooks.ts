// The autograd semantics scenarios of tensor hooks, retain_grad and node (pre-)hooks: the replays of
// tools/golden/autograd_semantics/hooks.py's scenarios (test/golden/autograd_semantics.json), one function per
// scenario name, run by test/autograd/semantics_hooks.test.ts.
import type { Node } from '../../../src/autograd/index.js';
import type { Tensor } from '../../../src/tensor/Tensor.js';
import { type Json, T, err, leaf, f32 } from './harness.js';

export const HOOKS: Record<string, () => Json> = {
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
};
