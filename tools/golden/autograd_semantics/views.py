"""The autograd semantics golden, views: _base, view grad_fn names, in-place on views (CopySlices), in-place view ops (t_, squeeze_, ...); also retain_grad under create_graph, anomaly mode and torch.autograd.functional, which the fixture records among them.

Part of tools/golden/gen_autograd_semantics.py (which writes test/golden/autograd_semantics.json); replayed by
test/autograd/semantics_views.test.ts. Mirrors the behaviour of PyTorch 2.13's torch/csrc/autograd.
"""
import warnings

import torch

from autograd_semantics.common import scenario, T, name, nf, err, leaf


@scenario
def view_base():
    x = leaf([[1.0, 2.0], [3.0, 4.0]])
    v = x.view(4)
    v2 = v.view(2, 2)
    c = torch.zeros(4)
    cv = c.view(2, 2)
    return {
        'v': [v._base is x, v._is_view(), name(v.grad_fn), nf(v.grad_fn), v.is_leaf, v.requires_grad],
        'v2': [v2._base is x, v2._is_view()],
        'x': [x._base is None, x._is_view()],
        'cv': [cv._base is c, cv._is_view(), cv.requires_grad],
        'clone': [v.clone()._is_view()],
    }


@scenario
def view_grad_fn_names():
    x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    cases = {
        'view': lambda: x.view(6),
        'select': lambda: x.select(0, 1),
        'slice': lambda: x[:, 1:],
        'transpose': lambda: x.t(),
        'expand': lambda: x[0].expand(2, 3),
        'unsqueeze': lambda: x.unsqueeze(0),
        'squeeze': lambda: x.unsqueeze(0).squeeze(0),
        'permute': lambda: x.permute(1, 0),
        'reshape_view': lambda: x.reshape(3, 2),
        'narrow': lambda: x.narrow(1, 0, 2),
    }
    out = {}
    for k, fn in cases.items():
        v = fn()
        out[k] = [name(v.grad_fn), v._is_view()]
    return out


@scenario
def view_inplace_on_nonleaf():
    x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    y = x * 1
    v = y.view(6)
    v.mul_(2)
    out = {'y_grad_fn': name(y.grad_fn), 'v_grad_fn': name(v.grad_fn), 'versions': [y._version, v._version],
           'y_next': nf(y.grad_fn), 'v_next': nf(v.grad_fn), 'v_base': v._base is y}
    y.sum().backward()
    out['grad'] = T(x.grad)
    out['y'] = T(y)
    return out


@scenario
def view_inplace_select():
    x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    y = x * 1
    v = y.select(0, 0)
    v.mul_(2)
    out = {'y_grad_fn': name(y.grad_fn), 'v_grad_fn': name(v.grad_fn)}
    (y * y).sum().backward()
    out['grad'] = T(x.grad)
    return out


@scenario
def view_inplace_with_grad_operand():
    x = torch.zeros(2, 2)
    w = leaf([1.0, 2.0])
    v = x.view(4)
    v[0:2].add_(w)
    out = {'x': [x.requires_grad, x.is_leaf, name(x.grad_fn)], 'v': [v.requires_grad, name(v.grad_fn)]}
    (x * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
    out['w'] = T(w.grad)
    return out


@scenario
def view_of_leaf_inplace():
    x = leaf([1.0, 2.0, 3.0])
    out = {}
    out['view'] = err(lambda: x.view(3).add_(1))
    out['view_mul'] = err(lambda: x.view(3, 1).mul_(2))
    out['select'] = err(lambda: x.select(0, 0).zero_())
    with torch.no_grad():
        x.view(3).add_(1)
    out['no_grad_ok'] = T(x)
    return out


@scenario
def view_no_grad_then_inplace():
    x = leaf([1.0, 2.0, 3.0])
    y = x * 2
    with torch.no_grad():
        v = y.view(3)
    w = leaf([1.0, 1.0, 1.0])
    out = {'v': [v.requires_grad, v._is_view(), name(v.grad_fn)]}
    out['add_scalar'] = err(lambda: name(v.add_(1).grad_fn))
    out['add_grad'] = err(lambda: v.add_(w))
    return out


@scenario
def view_base_modified_in_place():
    x = leaf([1.0, 2.0, 3.0, 4.0])
    y = x * 1
    v = y.view(2, 2)
    before = name(v.grad_fn)
    y.mul_(2)
    out = {'before': before, 'after': name(v.grad_fn), 'y': name(y.grad_fn)}
    v.sum().backward()
    out['grad'] = T(x.grad)
    return out


@scenario
def view_base_modified_then_used():
    # The view's grad_fn is not read before it is used: the op must still see the refreshed history.
    x = leaf([1.0, 2.0, 3.0, 4.0])
    y = x * 1
    v = y[:2]
    y.mul_(3)
    (v * 1).sum().backward()
    return {'grad': T(x.grad), 'v': name(v.grad_fn)}


@scenario
def retain_grad_create_graph():
    x = leaf([1.0, 2.0])
    y = x * x
    y.retain_grad()
    z = (y * y).sum()
    z.backward(create_graph=True)
    out = {'first': [T(y.grad), name(y.grad.grad_fn)]}
    z.backward(create_graph=True)
    out['second'] = [T(y.grad), name(y.grad.grad_fn)]
    return out


@scenario
def anomaly_mode():
    # Warnings are compared by their first line: the forward traceback itself is Python's or JavaScript's.
    out = {'enabled_before': torch.is_anomaly_enabled()}
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        with torch.autograd.detect_anomaly():
            out['enabled_inside'] = torch.is_anomaly_enabled()
            x = leaf([0.0, 1.0])
            y = x.sqrt() * 0
            out['mul_nan'] = err(lambda: (y / y.detach().clamp(min=0)).sum().backward())
            z = (x / x).sum()
            out['div_nan'] = err(lambda: z.backward())
            x2 = leaf([1.0, 2.0])
            out['clean'] = err(lambda: (x2 * 3).sum().backward())
            out['clean_grad'] = T(x2.grad)
        out['warnings'] = [str(m.message).split('\n')[0] for m in w]
    with torch.autograd.set_detect_anomaly(True, check_nan=False):
        x = leaf([0.0, 1.0])
        out['no_check_nan'] = err(lambda: (x / x).sum().backward())
        out['no_check_nan_grad_has_nan'] = bool(torch.isnan(x.grad).any())
    out['enabled_after'] = torch.is_anomaly_enabled()
    return out


@scenario
def functional_api():
    F = torch.autograd.functional

    def f(x):
        return x * x * x

    def g(x, y):
        return (x * y).sum() + (x * x).sum()

    x = torch.tensor([1.0, 2.0, 3.0])
    y = torch.tensor([0.5, -1.0, 2.0])
    v = torch.tensor([1.0, 0.5, -1.0])
    jx = F.jacobian(f, x)
    jxy = F.jacobian(g, (x, y))
    h = F.hessian(lambda a: (a * a * a).sum(), x)
    hxy = F.hessian(g, (x, y))
    o, vj = F.vjp(f, x, v)
    o2, jv = F.jvp(f, x, v)
    o3, hv = F.hvp(lambda a: (a * a * a).sum(), x, v)
    jm = F.jacobian(lambda a: (a * 2, a.sum()), x)
    return {
        'jacobian': T(jx),
        'jacobian_two_inputs': [T(t) for t in jxy],
        'hessian': T(h),
        'hessian_two_inputs': [[T(t) for t in row] for row in hxy],
        'vjp': [T(o), T(vj)],
        'jvp': [T(o2), T(jv)],
        'hvp': [T(o3), T(hv)],
        'jacobian_two_outputs': [T(t) for t in jm],
        'requires_grad': [jx.requires_grad, vj.requires_grad],
    }


@scenario
def inplace_view_ops():
    out = {}
    for key, fn in {
        't_': lambda y: y.t_(),
        'transpose_': lambda y: y.transpose_(0, 1),
        'squeeze_': lambda y: y.unsqueeze(0).squeeze_(),
        'squeeze_dim': lambda y: y.unsqueeze(0).squeeze_(0),
        'squeeze_dims': lambda y: y.unsqueeze(0).squeeze_((0,)),
        'unsqueeze_': lambda y: y.unsqueeze_(1),
    }.items():
        x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        y = x * 1
        r = fn(y)
        w = torch.arange(r.numel(), dtype=torch.float32).reshape(r.shape)
        (r * w).sum().backward()
        out[key] = {'grad_fn': name(r.grad_fn), 'sizes': list(r.shape), 'version': y._version, 'grad': T(x.grad)}
    out['squeeze_dims_fn'] = list(torch.ones(1, 2, 1).squeeze((0, 2)).shape)
    out['dup'] = err(lambda: torch.ones(1, 2).squeeze((0, 0)))
    out['leaf'] = err(lambda: leaf([1.0, 2.0]).t_())
    return out
