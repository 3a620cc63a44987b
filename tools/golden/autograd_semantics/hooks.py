"""The autograd semantics golden, tensor hooks, retain_grad and node (pre-)hooks, their order, removal and errors.

Part of tools/golden/gen_autograd_semantics.py (which writes test/golden/autograd_semantics.json); replayed by
test/autograd/semantics_hooks.test.ts. Mirrors the behaviour of PyTorch 2.13's torch/csrc/autograd.
"""
import torch

from autograd_semantics.common import scenario, T, err, leaf


@scenario
def hook_leaf_modifies():
    x = leaf([1.0, 2.0, 3.0])
    seen = []
    x.register_hook(lambda g: seen.append(T(g)))
    x.register_hook(lambda g: g * 2)
    (x * 3).sum().backward()
    return {'seen': seen, 'grad': T(x.grad)}


@scenario
def hook_nonleaf_order():
    x = leaf([1.0, 2.0])
    y = x * 2
    log = []

    def h1(g):
        log.append(['h1', T(g)])
        return g * 10

    def h2(g):
        log.append(['h2', T(g)])
        return g + 1

    y.register_hook(h1)
    y.register_hook(h2)
    y.sum().backward()
    return {'log': log, 'grad': T(x.grad), 'y_grad': T(y.grad)}


@scenario
def hook_remove():
    x = leaf([1.0, 2.0])
    h = x.register_hook(lambda g: g * 100)
    y = x * 2
    h2 = y.register_hook(lambda g: g * 1000)
    h.remove()
    h2.remove()
    h.remove()
    y.sum().backward()
    return {'grad': T(x.grad)}


@scenario
def hook_errors():
    c = torch.tensor([1.0])
    return {'no_grad': err(lambda: c.register_hook(lambda g: g))}


@scenario
def retain_grad():
    x = leaf([1.0, 2.0])
    y = x * 2
    y.retain_grad()
    y.retain_grad()
    z = y * y
    x.retain_grad()
    (z.sum()).backward()
    c = torch.tensor([1.0])
    return {
        'y_grad': T(y.grad),
        'z_grad': T(z.grad),
        'x_grad': T(x.grad),
        'retains': [x.retains_grad, y.retains_grad, z.retains_grad],
        'error': err(lambda: c.retain_grad()),
    }


@scenario
def retain_grad_sees_hooks():
    x = leaf([1.0, 2.0])
    y = x * 2
    y.retain_grad()
    y.register_hook(lambda g: g * 10)
    y.sum().backward()
    return {'y_grad': T(y.grad), 'x_grad': T(x.grad)}


@scenario
def retain_grad_accumulates():
    x = leaf([1.0, 2.0])
    y = x * 2
    y.retain_grad()
    s = (y * y).sum()
    s.backward(retain_graph=True)
    s.backward()
    return {'y_grad': T(y.grad), 'x_grad': T(x.grad)}


@scenario
def node_hooks():
    x = leaf([1.0, 2.0])
    y = x * 3
    node = y.grad_fn
    log = []

    def pre(grad_outputs):
        log.append(['pre', [T(g) for g in grad_outputs]])
        return (grad_outputs[0] * 2,)

    def post(grad_inputs, grad_outputs):
        log.append(['post', [T(g) for g in grad_inputs], [T(g) for g in grad_outputs]])
        return (grad_inputs[0] + 1, grad_inputs[1])

    node.register_prehook(pre)
    node.register_hook(post)
    y.sum().backward()
    return {'log': log, 'grad': T(x.grad)}


@scenario
def node_hook_remove():
    x = leaf([1.0, 2.0])
    y = x * 3
    h = y.grad_fn.register_prehook(lambda go: (go[0] * 100,))
    h2 = y.grad_fn.register_hook(lambda gi, go: (gi[0] * 100, gi[1]))
    h.remove()
    h2.remove()
    y.sum().backward()
    return {'grad': T(x.grad)}
