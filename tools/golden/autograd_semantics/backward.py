"""The autograd semantics golden, backward (implicit ones, gradient=, accumulation, a second backward, retain_graph, create_graph, inputs=, several roots) and torch.autograd.grad (allow_unused, grad_outputs, materialize_grads).

Part of tools/golden/gen_autograd_semantics.py (which writes test/golden/autograd_semantics.json); replayed by
test/autograd/semantics_backward.test.ts. Mirrors the behaviour of PyTorch 2.13's torch/csrc/autograd.
"""
import torch

from autograd_semantics.common import scenario, T, name, err, leaf


@scenario
def backward_implicit_scalar():
    x = leaf([1.0, 2.0, 3.0])
    (x * x).sum().backward()
    return {'grad': T(x.grad)}


@scenario
def backward_errors():
    x = leaf([1.0, 2.0, 3.0])
    c = torch.tensor([1.0, 2.0])
    return {
        'nonscalar': err(lambda: (x * 2).backward()),
        'no_grad_fn': err(lambda: c.sum().backward()),
        'leaf_no_grad': err(lambda: c.backward(torch.ones(2))),
        'shape': err(lambda: (x * 2).backward(torch.ones(2))),
        'shape_2d': err(lambda: (x * 2).backward(torch.ones(1, 3))),
        'x_grad_after': T(x.grad),
    }


@scenario
def backward_with_gradient():
    x = leaf([1.0, 2.0, 3.0])
    (x * x).backward(torch.tensor([1.0, 0.5, -1.0]))
    return {'grad': T(x.grad)}


@scenario
def backward_nonscalar_one_element():
    x = leaf([[3.0]])
    (x * x).backward()
    return {'grad': T(x.grad)}


@scenario
def backward_accumulates():
    x = leaf([1.0, 2.0, 3.0])
    y = (x * x).sum()
    y.backward(retain_graph=True)
    first = T(x.grad)
    y.backward()
    return {'first': first, 'second': T(x.grad)}


@scenario
def backward_second_time():
    x = leaf([1.0, 2.0, 3.0])
    y = (x * x).sum()
    y.backward()
    e = x.exp().sum()
    e.backward()
    return {'mul': err(lambda: y.backward()), 'exp': err(lambda: e.backward()), 'grad': T(x.grad)}


@scenario
def backward_second_time_nothing_saved():
    # add and sum save no tensors: a second backward through them works and accumulates.
    x = leaf([1.0, 2.0, 3.0])
    y = (x + 1).sum()
    y.backward()
    r = err(lambda: y.backward())
    return {'second': r, 'grad': T(x.grad)}


@scenario
def backward_retain_graph_three_times():
    x = leaf([2.0])
    y = x.exp().sum()
    y.backward(retain_graph=True)
    y.backward(retain_graph=True)
    y.backward()
    return {'grad': T(x.grad), 'fourth': err(lambda: y.backward())}


@scenario
def backward_create_graph():
    x = leaf(2.0)
    y = x * x * x
    y.backward(create_graph=True)
    g = x.grad
    out = {'grad': T(g), 'grad_requires_grad': g.requires_grad, 'grad_fn': name(g.grad_fn)}
    x2 = leaf(2.0)
    y2 = x2 * x2 * x2
    (g1,) = torch.autograd.grad(y2, x2, create_graph=True)
    out['g1'] = [T(g1), g1.requires_grad, name(g1.grad_fn)]
    (g2,) = torch.autograd.grad(g1, x2, create_graph=True)
    out['g2'] = [T(g2), g2.requires_grad]
    (g3,) = torch.autograd.grad(g2, x2)
    out['g3'] = [T(g3), g3.requires_grad, name(g3.grad_fn)]
    out['x2_grad'] = T(x2.grad)
    return out


@scenario
def backward_create_graph_exp():
    x = leaf([0.0, 1.0])
    (g,) = torch.autograd.grad(x.exp().sum(), x, create_graph=True)
    (gg,) = torch.autograd.grad(g.sum(), x)
    return {'g': T(g), 'gg': T(gg)}


@scenario
def backward_inputs():
    a = leaf([1.0, 2.0])
    b = leaf([3.0, 4.0])
    y = (a * b).sum()
    y.backward(inputs=[a], retain_graph=True)
    out = {'a': T(a.grad), 'b': T(b.grad)}
    y.backward(inputs=b, retain_graph=True)
    out['a2'] = T(a.grad)
    out['b2'] = T(b.grad)
    out['empty'] = err(lambda: y.backward(inputs=[]))
    c = torch.tensor([1.0])
    out['no_grad_input'] = err(lambda: y.backward(inputs=[c], retain_graph=True))
    return out


@scenario
def backward_inputs_nonleaf():
    a = leaf([1.0, 2.0])
    m = a * 3
    y = (m * m).sum()
    y.backward(inputs=[m])
    return {'m': T(m.grad), 'a': T(a.grad), 'm_retains_grad': m.retains_grad}


@scenario
def backward_multiple_roots():
    a = leaf([1.0, 2.0])
    y1 = (a * a).sum()
    y2 = (a * 3).sum()
    torch.autograd.backward([y1, y2])
    out = {'grad': T(a.grad)}
    b = leaf([1.0, 2.0])
    torch.autograd.backward([b * 2, b.exp()], [torch.ones(2), torch.tensor([1.0, 0.0])])
    out['b'] = T(b.grad)
    return out


# ---- torch.autograd.grad --------------------------------------------------------------------------------------


@scenario
def grad_basic():
    a = leaf([1.0, 2.0])
    b = leaf([3.0, 4.0])
    y = (a * b).sum()
    ga, gb = torch.autograd.grad(y, [a, b])
    return {'ga': T(ga), 'gb': T(gb), 'a_grad': T(a.grad), 'requires_grad': [ga.requires_grad, gb.requires_grad]}


@scenario
def grad_unused():
    a = leaf([1.0, 2.0])
    b = leaf([3.0, 4.0])
    c = torch.tensor([1.0, 1.0])
    out = {}
    out['unused'] = err(lambda: torch.autograd.grad((a * 2).sum(), [a, b]))
    out['allow_unused'] = err(lambda: [T(g) for g in torch.autograd.grad((a * 2).sum(), [a, b], allow_unused=True)])
    out['materialize'] = err(
        lambda: [T(g) for g in torch.autograd.grad((a * 2).sum(), [a, b], allow_unused=True, materialize_grads=True)])
    out['materialize_only'] = err(lambda: [T(g) for g in torch.autograd.grad((a * 2).sum(), [a, b], materialize_grads=True)])
    out['materialize_disallowed'] = err(
        lambda: torch.autograd.grad((a * 2).sum(), [a, b], allow_unused=False, materialize_grads=True))
    out['no_requires_grad'] = err(lambda: torch.autograd.grad((a * c).sum(), [a, c]))
    out['output_no_grad'] = err(lambda: torch.autograd.grad(c.sum(), [a]))
    out['unused_first'] = err(lambda: torch.autograd.grad((b * 2).sum(), [a, b]))
    return out


@scenario
def grad_outputs():
    a = leaf([1.0, 2.0, 3.0])
    y = a * a
    out = {}
    out['given'] = err(lambda: T(torch.autograd.grad(y, a, grad_outputs=torch.tensor([1.0, 0.0, 2.0]), retain_graph=True)[0]))
    out['missing'] = err(lambda: torch.autograd.grad(y, a, retain_graph=True))
    out['shape'] = err(lambda: torch.autograd.grad(y, a, grad_outputs=torch.ones(2), retain_graph=True))
    out['list'] = err(lambda: T(torch.autograd.grad([y], [a], grad_outputs=[torch.ones(3)], retain_graph=True)[0]))
    out['two_outputs'] = err(lambda: T(torch.autograd.grad([y.sum(), (a * 2).sum()], [a], retain_graph=True)[0]))
    out['freed'] = err(lambda: (torch.autograd.grad(y.sum(), a), torch.autograd.grad(y.sum(), a))[1])
    return out


@scenario
def grad_nonleaf_input():
    a = leaf([1.0, 2.0])
    m = a * 2
    y = (m * m).sum()
    (gm,) = torch.autograd.grad(y, m, retain_graph=True)
    ga, gm2 = torch.autograd.grad(y, [a, m])
    return {'gm': T(gm), 'ga': T(ga), 'gm2': T(gm2), 'm_grad': T(m.grad), 'a_grad': T(a.grad)}
