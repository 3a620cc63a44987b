// The autograd semantics scenarios of grad modes: no_grad, set_grad_enabled, inference_mode and inference tensors:
// the replays of tools/golden/autograd_semantics/grad_modes.py's scenarios (test/golden/autograd_semantics.json), one
// function per scenario name, run by test/autograd/semantics_grad_modes.test.ts.
import { torch } from '../../../src/api/index.js';
import type { Tensor } from '../../../src/tensor/Tensor.js';
import { type Json, T, name, err, leaf, f32 } from './harness.js';

export const GRAD_MODES: Record<string, () => Json> = {
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
};
