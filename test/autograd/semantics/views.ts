// The autograd semantics scenarios of views, in-place on views and in-place view ops; also retain_grad under
// create_graph, anomaly mode and torch.autograd.functional: the replays of tools/golden/autograd_semantics/views.py's
// scenarios (test/golden/autograd_semantics.json), one function per scenario name, run by
// test/autograd/semantics_views.test.ts.
import { torch } from '../../../src/api/index.js';
import type { Tensor } from '../../../src/tensor/Tensor.js';
import { setWarningHandler } from '../../../src/c10/Warning.js';
import { type Json, T, name, nf, err, leaf, f32 } from './harness.js';

export const VIEWS: Record<string, () => Json> = {
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
};
