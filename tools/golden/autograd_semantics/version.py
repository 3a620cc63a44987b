"""The autograd semantics golden, the version counter of in-place operations, saved-tensor version checks and their errors, in-place on leaves and non-leaves, detach.

Part of tools/golden/gen_autograd_semantics.py (which writes test/golden/autograd_semantics.json); replayed by
test/autograd/semantics_version.test.ts. Mirrors the behaviour of PyTorch 2.13's torch/csrc/autograd.
"""
import torch

from autograd_semantics.common import scenario, T, name, nf, err, leaf


def _fresh():
    return torch.zeros(2, 3)


@scenario
def version_counter():
    # Each entry: how much one operation moves the version of a fresh tensor.
    ops = [
        ('add_', lambda t: t.add_(1)),
        ('add_tensor', lambda t: t.add_(torch.ones(3))),
        ('sub_', lambda t: t.sub_(1)),
        ('mul_', lambda t: t.mul_(2)),
        ('div_', lambda t: t.div_(2)),
        ('copy_', lambda t: t.copy_(torch.ones(2, 3))),
        ('copy_broadcast', lambda t: t.copy_(torch.ones(3))),
        ('copy_dtype', lambda t: t.copy_(torch.ones(2, 3, dtype=torch.int64))),
        ('fill_', lambda t: t.fill_(3)),
        ('zero_', lambda t: t.zero_()),
        ('index_put_', lambda t: t.index_put_((torch.tensor([0, 1]),), torch.tensor(1.0))),
        ('index_put_accumulate', lambda t: t.index_put_((torch.tensor([0, 0]),), torch.tensor(1.0), accumulate=True)),
        ('masked_fill_', lambda t: t.masked_fill_(torch.tensor([True, False, True]), 1.0)),
        ('clamp_', lambda t: t.clamp_(0, 1)),
        ('exp_', lambda t: t.exp_()),
        ('neg_', lambda t: t.neg_()),
        ('relu_', lambda t: t.relu_()),
        ('sqrt_', lambda t: t.sqrt_()),
        ('uniform_', lambda t: t.uniform_()),
        ('normal_', lambda t: t.normal_()),
        ('lerp_', lambda t: t.lerp_(torch.ones(2, 3), 0.5)),
        ('transposed_add_', lambda t: t.t().add_(1)),
        ('view_add_', lambda t: t.view(6).add_(1)),
        ('select_fill_', lambda t: t.select(0, 1).fill_(2)),
        ('out_add', lambda t: torch.add(torch.ones(2, 3), 1, out=t)),
        ('out_mul', lambda t: torch.mul(torch.ones(2, 3), 2, out=t)),
        ('out_sum', lambda t: torch.sum(torch.ones(2, 3, 4), 2, out=t)),
        ('functional_add', lambda t: t.add(1)),
        ('view', lambda t: t.view(6)),
        ('clone', lambda t: t.clone()),
    ]
    out = {}
    for op, fn in ops:
        t = _fresh()
        v0 = t._version
        fn(t)
        out[op] = t._version - v0
    t = _fresh()
    v0 = t._version
    t.add_(1)
    t.mul_(2)
    t.zero_()
    out['three_ops'] = t._version - v0
    return out


@scenario
def version_of_factories():
    return {
        'zeros': torch.zeros(2)._version,
        'ones': torch.ones(2)._version,
        'empty': torch.empty(2)._version,
        'full': torch.full((2,), 3.0)._version,
        'tensor': torch.tensor([1.0, 2.0])._version,
        'arange': torch.arange(3)._version,
        'rand': torch.rand(2)._version,
        'zeros_like': torch.zeros_like(torch.ones(2))._version,
        'result_of_add': (torch.ones(2) + 1)._version,
    }


@scenario
def version_shared_by_views_and_detach():
    x = torch.tensor([0.0, 0.0, 0.0, 0.0])
    v = x.view(2, 2)
    d = x.detach()
    v.add_(1)
    d.mul_(2)
    return {'versions': [x._version, v._version, d._version], 'x': T(x)}


@scenario
def inplace_leaf_errors():
    x = leaf([1.0, 2.0])
    out = {}
    for op, fn in [('add_', lambda: x.add_(1)), ('mul_', lambda: x.mul_(2)), ('zero_', lambda: x.zero_()),
                   ('copy_', lambda: x.copy_(torch.ones(2))), ('fill_', lambda: x.fill_(1)),
                   ('exp_', lambda: x.exp_())]:
        out[op] = err(fn)
    out['version'] = x._version
    c = torch.tensor([1.0, 2.0])
    out['into_plain_with_grad'] = err(lambda: name(c.add_(x).grad_fn))
    out['c_after'] = [c.requires_grad, c.is_leaf]
    return out


@scenario
def saved_version_error_output():
    x = leaf([1.0, 2.0, 3.0])
    y = x.exp()
    y.add_(1)
    return {'grad_fn': name(y.grad_fn), 'version': y._version, 'error': err(lambda: y.sum().backward())}


@scenario
def saved_version_error_input():
    x = leaf([1.0, 2.0, 3.0])
    a = x + 0
    b = a * a
    a.mul_(2)
    return {'a_grad_fn': name(a.grad_fn), 'error': err(lambda: b.sum().backward())}


@scenario
def saved_version_error_leaf():
    w = leaf([1.0, 2.0, 3.0])
    c = torch.tensor([1.0, 2.0, 3.0])
    y = w * c
    c.add_(1)
    c.add_(1)
    return {'error': err(lambda: y.sum().backward())}


@scenario
def saved_not_needed_not_checked():
    # mul saves `self` only when `other` requires grad: modifying `a` afterwards does not break the backward.
    x = leaf([1.0, 2.0, 3.0])
    c = torch.tensor([2.0, 2.0, 2.0])
    a = x + 0
    b = a * c
    a.add_(1)
    r = err(lambda: b.sum().backward())
    return {'result': r, 'grad': T(x.grad)}


@scenario
def inplace_nonleaf_history():
    x = leaf([1.0, 2.0, 3.0])
    y = x * 2
    names = [name(y.grad_fn)]
    y.add_(1)
    names.append(name(y.grad_fn))
    y.mul_(3)
    names.append(name(y.grad_fn))
    nxt = nf(y.grad_fn)
    y.sum().backward()
    return {'names': names, 'next': nxt, 'leaf': y.is_leaf, 'version': y._version, 'grad': T(x.grad), 'y': T(y)}


@scenario
def inplace_nonleaf_exp_():
    x = leaf([0.0, 1.0])
    y = x * 1
    y.exp_()
    y.sum().backward()
    return {'name': name(y.grad_fn), 'grad': T(x.grad)}


@scenario
def inplace_mul_with_grad_operand():
    x = leaf([1.0, 2.0])
    w = leaf([3.0, 4.0])
    y = x * 1
    y.mul_(w)
    y.sum().backward()
    return {'name': name(y.grad_fn), 'next': nf(y.grad_fn), 'x': T(x.grad), 'w': T(w.grad)}


@scenario
def inplace_into_plain_tensor():
    x = leaf([1.0, 2.0])
    c = torch.zeros(2)
    c.add_(x * 2)
    out = {'c': [c.requires_grad, c.is_leaf, name(c.grad_fn)], 'next': nf(c.grad_fn)}
    c.sum().backward()
    out['grad'] = T(x.grad)
    return out


@scenario
def detach_semantics():
    x = leaf([1.0, 2.0])
    y = x * 2
    d = y.detach()
    out = {'d': [d.requires_grad, d.is_leaf, name(d.grad_fn), d._base is None]}
    v0 = y._version
    d.add_(1)
    out['y_version'] = [v0, y._version]
    out['y_after'] = T(y)
    out['backward'] = err(lambda: y.sum().backward())
    z = x * 3
    z.detach_()
    out['z'] = [z.requires_grad, z.is_leaf, name(z.grad_fn)]
    out['leaf_detach'] = [x.detach().requires_grad, x.detach().is_leaf]
    v = x.view(2)
    out['view_detach_'] = err(lambda: v.detach_())
    return out
