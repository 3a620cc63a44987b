// The autograd semantics scenarios of the version counter, saved-tensor version checks, in-place on leaves and
// non-leaves, detach: the replays of tools/golden/autograd_semantics/version.py's scenarios
// (test/golden/autograd_semantics.json), one function per scenario name, run by
// test/autograd/semantics_version.test.ts.
import { torch } from '../../../src/api/index.js';
import type { Tensor } from '../../../src/tensor/Tensor.js';
import { type Json, T, name, nf, err, leaf, f32 } from './harness.js';

export const VERSION: Record<string, () => Json> = {
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
};
