"""Golden fixture for the autograd machinery: graph structure (requires_grad, is_leaf, grad_fn names,
next_functions, output_nr), requires_grad_ errors, printing, backward (implicit ones, retain_graph, second
backward, create_graph, inputs=), torch.autograd.grad (allow_unused, grad_outputs, materialize_grads), tensor
and node hooks, retain_grad, broadcasting and dtypes of gradients, grad modes and inference mode, the version
counter of in-place operations and its errors, detach, views (_base, in-place on views, CopySlices) and out=.

Each scenario is a small Python function whose observations (a JSON object) test/autograd/semantics.test.ts
reproduces with aten-ts's API, one TypeScript function per scenario name. Tensors are written as
{dtype, sizes, values} (values flattened row-major), graph nodes by `name()`, errors as {"error": text} with the
text cut at "\\nException raised from".

Run: $PYTHON tools/golden/gen_autograd_semantics.py  ->  test/golden/autograd_semantics.json
"""
import json
import os
import warnings

import torch

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'autograd_semantics.json')
warnings.simplefilter('ignore')

SCENARIOS = {}


def scenario(fn):
    SCENARIOS[fn.__name__] = fn
    return fn


def T(t):
    """A tensor as {dtype, sizes, values}, or None."""
    if t is None:
        return None
    t = t.detach()
    return {'dtype': str(t.dtype).replace('torch.', ''), 'sizes': list(t.shape), 'values': t.reshape(-1).tolist()}


def name(node):
    return None if node is None else node.name()


def nf(node):
    """next_functions as [[name, input_nr], ...]."""
    return [[name(n), nr] for n, nr in node.next_functions]


def err(fn):
    """Runs fn: {"error": PyTorch's text} if it raises, else {"ok": its result}."""
    try:
        r = fn()
    except Exception as e:  # noqa: BLE001
        return {'error': str(e).split('\nException raised from')[0]}
    return {'ok': T(r) if isinstance(r, torch.Tensor) else r}


def leaf(values, dtype=torch.float32):
    return torch.tensor(values, dtype=dtype, requires_grad=True)


# ---- graph structure ----------------------------------------------------------------------------------------


@scenario
def graph_leaf_flags():
    x = leaf([1.0, 2.0, 3.0])
    c = torch.tensor([1.0, 2.0, 3.0])
    y = x * 2
    return {
        'x': [x.requires_grad, x.is_leaf, name(x.grad_fn), x.output_nr],
        'c': [c.requires_grad, c.is_leaf, name(c.grad_fn)],
        'y': [y.requires_grad, y.is_leaf, name(y.grad_fn), y.output_nr],
        'y_next': nf(y.grad_fn),
        'cy': [(c * 2).requires_grad, name((c * 2).grad_fn)],
        'x_grad': T(x.grad),
    }


@scenario
def graph_chain():
    x = leaf([1.0, 2.0, 3.0])
    s = (x * 2 + x).exp().sum()
    exp_node = s.grad_fn.next_functions[0][0]
    add_node = exp_node.next_functions[0][0]
    mul_node = add_node.next_functions[0][0]
    return {
        's': name(s.grad_fn),
        's_next': nf(s.grad_fn),
        'exp_next': nf(exp_node),
        'add_next': nf(add_node),
        'mul_next': nf(mul_node),
        'same_accumulate': add_node.next_functions[1][0] is mul_node.next_functions[0][0],
    }


@scenario
def graph_two_leaves():
    a = leaf([1.0, 2.0])
    b = leaf([3.0, 4.0])
    c = torch.tensor([5.0, 6.0])
    y = a + b
    z = c * a
    w = a + a
    return {
        'y_next': nf(y.grad_fn),
        'z_next': nf(z.grad_fn),
        'w_next': nf(w.grad_fn),
        'w_same': w.grad_fn.next_functions[0][0] is w.grad_fn.next_functions[1][0],
        'accumulate_is_kept': y.grad_fn.next_functions[0][0] is z.grad_fn.next_functions[1][0],
    }


@scenario
def graph_output_nr_unbind():
    x = leaf([[1.0, 2.0], [3.0, 4.0]])
    a, b = x.unbind(0)
    return {'names': [name(a.grad_fn), name(b.grad_fn)], 'output_nr': [a.output_nr, b.output_nr],
            'same_node': a.grad_fn is b.grad_fn}


@scenario
def graph_integer_outputs():
    x = leaf([1.0, 5.0, 3.0])
    i = x.argmax()
    g = x > 2
    return {'argmax': [i.requires_grad, name(i.grad_fn), str(i.dtype)], 'gt': [g.requires_grad, name(g.grad_fn)]}


@scenario
def requires_grad_errors():
    out = {}
    out['int'] = err(lambda: torch.tensor([1, 2]).requires_grad_())
    out['bool'] = err(lambda: torch.tensor([True]).requires_grad_())
    out['int_false'] = err(lambda: torch.tensor([1, 2]).requires_grad_(False).requires_grad)
    out['float64'] = err(lambda: torch.tensor([1.0], dtype=torch.float64).requires_grad_().requires_grad)
    x = leaf([1.0, 2.0])
    y = x * 2
    out['nonleaf_false'] = err(lambda: y.requires_grad_(False))
    out['nonleaf_true'] = err(lambda: y.requires_grad_(True).requires_grad)
    x.requires_grad_(False)
    out['leaf_off'] = [x.requires_grad, x.is_leaf]
    out['factory'] = err(lambda: torch.ones(2, requires_grad=True).requires_grad)
    out['factory_int'] = err(lambda: torch.ones(2, dtype=torch.int64, requires_grad=True))
    return out


@scenario
def printing():
    x = leaf([1.0, 2.0, 3.0])
    y = x * 2
    return {
        'leaf': repr(x),
        'mul': repr(y),
        'sum': repr(y.sum()),
        'exp': repr(x.exp()),
        'add': repr(x + 1),
        'detached': repr(y.detach()),
        'float64_leaf': repr(leaf([0.5], torch.float64)),
    }


# ---- backward -----------------------------------------------------------------------------------------------


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


# ---- hooks --------------------------------------------------------------------------------------------------


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


# ---- broadcasting and dtypes ----------------------------------------------------------------------------------


@scenario
def broadcast_add():
    a = leaf([[1.0], [2.0], [3.0]])
    b = leaf([1.0, 2.0, 3.0, 4.0])
    y = a + b
    y.sum().backward()
    return {'y_sizes': list(y.shape), 'a': T(a.grad), 'b': T(b.grad)}


@scenario
def broadcast_mul_scalar_tensor():
    a = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    s = leaf(2.0)
    (a * s).sum().backward()
    return {'a': T(a.grad), 's': T(s.grad)}


@scenario
def broadcast_leading_dims():
    a = leaf([1.0, 2.0])
    b = leaf([[[1.0, 1.0]], [[2.0, 2.0]]])
    (a * b).backward(torch.ones(2, 1, 2))
    return {'a': T(a.grad), 'b': T(b.grad)}


@scenario
def broadcast_alpha():
    a = leaf([1.0, 2.0])
    b = leaf([[1.0], [2.0]])
    torch.add(a, b, alpha=3).sum().backward()
    return {'a': T(a.grad), 'b': T(b.grad)}


@scenario
def grad_dtypes():
    x = leaf([1.0, 2.0])
    d = torch.tensor([3.0, 4.0], dtype=torch.float64)
    y = x * d
    y.sum().backward()
    out = {'y_dtype': str(y.dtype), 'x_grad': T(x.grad)}
    w = leaf([1.0, 2.0], torch.float64)
    z = x + w
    z.sum().backward()
    out['x_grad2'] = T(x.grad)
    out['w_grad'] = T(w.grad)
    h = leaf([1.0, 2.0])
    (h * 2.5).sum().backward()
    out['h'] = T(h.grad)
    return out


# ---- grad modes -----------------------------------------------------------------------------------------------


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


# ---- version counter and in-place -----------------------------------------------------------------------------


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


# ---- views --------------------------------------------------------------------------------------------------


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


# ---- custom autograd.Function ---------------------------------------------------------------------------------


class ScaledExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        r = x.exp() * k
        ctx.save_for_backward(r)
        ctx.k = k
        return r

    @staticmethod
    def backward(ctx, g):
        (r,) = ctx.saved_tensors
        return g * r, None


class TwoGrads(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g, g


class WrongShape(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g[:1]


class NoBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.seen = list(ctx.needs_input_grad)
        return x.clone()


class SavesInput(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 1

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * x


@scenario
def custom_function_basic():
    x = leaf([1.0, 2.0])
    y = ScaledExp.apply(x, 2.0)
    out = {'grad_fn': name(y.grad_fn), 'next': nf(y.grad_fn), 'y': T(y), 'requires_grad': y.requires_grad}
    y.sum().backward()
    out['grad'] = T(x.grad)
    with torch.no_grad():
        out['no_grad'] = ScaledExp.apply(x, 1.0).requires_grad
    out['plain_input'] = ScaledExp.apply(torch.tensor([1.0]), 1.0).requires_grad
    return out


@scenario
def custom_function_errors():
    x = leaf([1.0, 2.0])
    n = NoBackward.apply(x)
    return {
        'count': err(lambda: TwoGrads.apply(x).sum().backward()),
        'shape': err(lambda: WrongShape.apply(x).sum().backward()),
        'no_backward': err(lambda: NoBackward.apply(x).sum().backward()),
        'grad_fn': name(n.grad_fn),
    }


@scenario
def custom_function_saved_version():
    a = leaf([1.0, 2.0])
    b = a * 1
    c = SavesInput.apply(b)
    b.add_(1)
    return {'error': err(lambda: c.sum().backward())}


# ---- out= -----------------------------------------------------------------------------------------------------


@scenario
def out_with_requires_grad():
    x = leaf([1.0, 2.0])
    o = torch.empty(2)
    out = {}
    out['add'] = err(lambda: torch.add(x, 1, out=o))
    out['mul'] = err(lambda: torch.mul(x, x, out=o))
    out['exp'] = err(lambda: torch.exp(x, out=o))
    out['sum'] = err(lambda: torch.sum(x, 0, out=torch.empty(())))
    with torch.no_grad():
        torch.add(x, 1, out=o)
    out['no_grad'] = [T(o), o.requires_grad]
    out['plain'] = err(lambda: T(torch.add(torch.ones(2), 1, out=o)))
    out['out_requires_grad'] = err(lambda: torch.add(torch.ones(2), 1, out=leaf([0.0, 0.0])))
    return out


def main():
    scenarios = {}
    for key, fn in SCENARIOS.items():
        torch.manual_seed(0)
        scenarios[key] = fn()
    lines = ['{', f'  "generated_by": "tools/golden/gen_autograd_semantics.py",',
             f'  "torch_version": {json.dumps(torch.__version__)},', '  "scenarios": {']
    items = list(scenarios.items())
    for i, (key, value) in enumerate(items):
        lines.append(f'    {json.dumps(key)}: {json.dumps(value, sort_keys=True)}' + (',' if i < len(items) - 1 else ''))
    lines.append('  }')
    lines.append('}')
    with open(OUT, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    print(f'wrote {OUT}: {len(scenarios)} scenarios')


if __name__ == '__main__':
    main()
