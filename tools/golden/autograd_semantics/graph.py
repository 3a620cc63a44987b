"""The autograd semantics golden, graph structure: requires_grad, is_leaf, grad_fn names, next_functions, output_nr, requires_grad_ errors, printing.

Part of tools/golden/gen_autograd_semantics.py (which writes test/golden/autograd_semantics.json); replayed by
test/autograd/semantics_graph.test.ts. Mirrors the behaviour of PyTorch 2.13's torch/csrc/autograd.
"""
import torch

from autograd_semantics.common import scenario, T, name, nf, err, leaf


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
