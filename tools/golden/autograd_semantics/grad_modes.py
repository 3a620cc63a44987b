"""The autograd semantics golden, grad modes: no_grad, set_grad_enabled, inference_mode and inference tensors.

Part of tools/golden/gen_autograd_semantics.py (which writes test/golden/autograd_semantics.json); replayed by
test/autograd/semantics_grad_modes.test.ts. Mirrors the behaviour of PyTorch 2.13's torch/csrc/autograd.
"""
import torch

from autograd_semantics.common import scenario, T, name, err, leaf


@scenario
def no_grad_mode():
    x = leaf([1.0, 2.0])
    out = {'outside': torch.is_grad_enabled()}
    with torch.no_grad():
        y = x * 2
        out['inside'] = torch.is_grad_enabled()
        out['y'] = [y.requires_grad, name(y.grad_fn), y.is_leaf]
        with torch.enable_grad():
            z = x * 2
            out['enable_inside'] = torch.is_grad_enabled()
            out['z'] = [z.requires_grad, name(z.grad_fn)]
        out['after_enable'] = torch.is_grad_enabled()
    out['after'] = torch.is_grad_enabled()
    w = x * 2
    out['w'] = [w.requires_grad, name(w.grad_fn)]
    return out


@scenario
def set_grad_enabled_mode():
    x = leaf([1.0, 2.0])
    out = {}
    torch.set_grad_enabled(False)
    try:
        out['off'] = torch.is_grad_enabled()
        out['y'] = (x * 2).requires_grad
        with torch.set_grad_enabled(True):
            out['scoped'] = [torch.is_grad_enabled(), (x * 2).requires_grad]
        out['after_scope'] = torch.is_grad_enabled()
    finally:
        torch.set_grad_enabled(True)
    out['on'] = [torch.is_grad_enabled(), (x * 2).requires_grad]
    return out


@scenario
def no_grad_inplace_on_leaf():
    x = leaf([1.0, 2.0])
    v0 = x._version
    with torch.no_grad():
        x.mul_(2)
    return {'x': T(x), 'leaf': [x.is_leaf, x.requires_grad], 'version': [v0, x._version]}


@scenario
def no_grad_backward_inside():
    x = leaf([1.0, 2.0])
    y = (x * x).sum()
    with torch.no_grad():
        y.backward()
    return {'grad': T(x.grad), 'grad_requires_grad': x.grad.requires_grad}


@scenario
def inference_mode_basics():
    x = leaf([1.0, 2.0])
    out = {'enabled_outside': torch.is_inference_mode_enabled()}
    with torch.inference_mode():
        t = torch.ones(2)
        y = x * 2
        out['enabled_inside'] = torch.is_inference_mode_enabled()
        out['grad_enabled_inside'] = torch.is_grad_enabled()
        out['t'] = [t.is_inference(), t.requires_grad]
        out['y'] = [y.is_inference(), y.requires_grad, name(y.grad_fn)]
        out['x'] = x.is_inference()
        out['inplace_inside'] = err(lambda: T(t.add_(1)))
        out['requires_grad_inside'] = err(lambda: torch.ones(2).requires_grad_().requires_grad)
    out['after'] = [torch.is_inference_mode_enabled(), torch.is_grad_enabled()]
    out['t_outside'] = t.is_inference()
    u = t * 2
    out['u'] = [u.is_inference(), u.requires_grad]
    return out


@scenario
def inference_tensor_errors():
    with torch.inference_mode():
        c = torch.ones(3)
    x = leaf([1.0, 2.0, 3.0])
    out = {}
    out['saved'] = err(lambda: x * c)
    out['add_not_saved'] = err(lambda: name((x + c).grad_fn))
    out['inplace'] = err(lambda: c.add_(1))
    out['inplace_zero'] = err(lambda: c.zero_())
    out['version'] = err(lambda: c._version)
    out['requires_grad'] = err(lambda: c.requires_grad_())
    out['requires_grad_false'] = err(lambda: c.requires_grad_(False).requires_grad)
    out['clone'] = err(lambda: [c.clone().is_inference(), T(c.clone().requires_grad_())])
    return out


@scenario
def inference_mode_normal_tensors():
    # Inside inference mode a normal tensor keeps its version counter and its views are normal views.
    t = torch.tensor([[0.0, 0.0], [0.0, 0.0]])
    x = leaf([1.0, 2.0])
    with torch.inference_mode():
        t.add_(1)
        v = t.view(4)
        s = t[0]
        f = t.add(1)
        d = t.detach()
        xv = x.view(2, 1)
        out = {'t_version': t._version, 'v': [v.is_inference(), v._is_view(), v._base is t],
               's': [s.is_inference(), s._is_view()], 'f': f.is_inference(), 'd': d.is_inference(),
               'xv': [xv.is_inference(), xv.requires_grad, name(xv.grad_fn), xv._is_view()]}
        v.mul_(2)
        out['after_view_inplace'] = [t._version, v._version]
    out['outside'] = [v.is_inference(), v._version, T(t)]
    return out


@scenario
def inference_mode_false():
    out = {}
    with torch.inference_mode():
        with torch.inference_mode(False):
            t = torch.ones(2)
            out['inner'] = [torch.is_inference_mode_enabled(), torch.is_grad_enabled(), t.is_inference()]
        out['back'] = torch.is_inference_mode_enabled()
    return out
