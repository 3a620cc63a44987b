"""Golden fixture for the out= forms and single cases of the linalg helper: max/min with out=
(max.unary_out, max.out), bernoulli(out=) (seeded draws, resize without warning, internal overlap), the
memory-overlap texts of cat / gather / index_select / masked_select with out= aliasing an input, conv2d
padding='same' checks, and clamp's Tensor-bound gradients (ties min == max, and the broadcast error PyTorch
raises in the backward). Each case is a result {dtype, sizes, values} (or a list), or the error text.

Run: $PYTHON tools/golden/gen_out_forms.py  ->  test/golden/out_forms.json
"""
import json
import os
import warnings

import torch

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'out_forms.json')


def spec(t):
    if isinstance(t, (tuple, list)):
        return [spec(x) for x in t]
    return {'dtype': str(t.dtype).replace('torch.', ''), 'sizes': list(t.shape), 'values': t.detach().reshape(-1).tolist()}


cases = {}


def case(cid, call):
    assert cid not in cases, cid
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        try:
            cases[cid] = {'result': spec(call())}
        except Exception as e:  # noqa: BLE001
            cases[cid] = {'error': str(e).split('\n')[0]}
    cases[cid]['warned'] = any('was resized' in str(x.message) for x in w)


x = torch.tensor([[1.5, -2.0, 3.25], [0.5, 4.0, -1.0]])
y = torch.tensor([[2.0, -3.0, 3.0], [1.0, 5.0, -2.0]])


def out_call(f, out):
    f(out)
    return out


case('max_unary_out', lambda: out_call(lambda o: torch.max(x, out=o), torch.empty(0)))
case('max_unary_out_resized', lambda: out_call(lambda o: torch.max(x, out=o), torch.empty(3)))
case('min_unary_out_double', lambda: out_call(lambda o: torch.min(x, out=o), torch.empty((), dtype=torch.float64)))
case('max_unary_out_cast_error', lambda: torch.max(x, out=torch.empty(0, dtype=torch.int64)))
case('max_out', lambda: out_call(lambda o: torch.max(x, y, out=o), torch.empty(2, 3)))
case('min_out', lambda: out_call(lambda o: torch.min(x, y, out=o), torch.empty(0)))
case('max_int_tensor', lambda: torch.max(2, torch.tensor([1, 2])))


def bern(out):
    torch.manual_seed(7)
    torch.bernoulli(torch.tensor([0.1, 0.9, 0.5, 0.5, 0.3, 0.7]), out=out)
    return out


case('bernoulli_out', lambda: bern(torch.empty(6)))
case('bernoulli_out_resize', lambda: bern(torch.empty(2, dtype=torch.float64)))
case('bernoulli_out_overlap', lambda: bern(torch.zeros(1).expand(6)))



def A():
    return torch.arange(12.0).reshape(3, 4)


case('cat_out_is_input', lambda: (lambda a: torch.cat([a, a], out=a))(A()))
case('cat_out_internal', lambda: torch.cat([A(), A()], out=torch.zeros(1, 4).expand(6, 4)))
case('cat_out_internal_resized', lambda: torch.cat([A(), A()], out=torch.zeros(1, 4).expand(5, 4)))
case('cat_out_view_of_input', lambda: (lambda a: torch.cat([a[:1], a[1:2]], out=a[1:3]))(A()))
case('cat_out_empty_skipped', lambda: out_call(lambda o: torch.cat([torch.empty(0), torch.empty(0)], out=o), torch.empty(0)))
case('gather_out_is_input', lambda: (lambda a: torch.gather(a, 1, torch.tensor([[0], [1], [2]]), out=a))(A()))
case('gather_out_partial_index', lambda: (lambda ind: torch.gather(ind.clone(), 0, ind[1:], out=ind[:1]))(torch.tensor([2, 1, 0])))
case('gather_out_ok', lambda: out_call(lambda o: torch.gather(A(), 1, torch.tensor([[0], [1], [2]]), out=o), torch.empty(3, 1)))
case('index_select_out_is_input', lambda: (lambda a: torch.index_select(a, 0, torch.tensor([0, 1, 2]), out=a))(A()))
case('index_select_out_is_index', lambda: (lambda i: torch.index_select(torch.arange(5), 0, i, out=i))(torch.tensor([0, 1])))
case('index_select_out_internal', lambda: torch.index_select(A(), 0, torch.tensor([0, 1]), out=torch.zeros(1, 4).expand(2, 4)))
case('masked_select_out_is_input', lambda: (lambda a: torch.masked_select(a, a > 5, out=a))(A()))
case('masked_select_out_is_mask', lambda: (lambda m: torch.masked_select(m, m, out=m))(torch.tensor([True, False, True])))
case('masked_select_out_ok', lambda: out_call(lambda o: torch.masked_select(A(), A() > 5, out=o), torch.empty(0)))

w3 = torch.ones(1, 2, 2)
case('conv2d_same_dims', lambda: torch.nn.functional.conv2d(torch.ones(1, 1, 4, 3), w3, padding='same'))
case('conv2d_same_stride', lambda: torch.nn.functional.conv2d(torch.ones(1, 1, 4, 3), torch.ones(1, 1, 2, 2), padding='same', stride=2))
case('conv2d_same_groups', lambda: torch.nn.functional.conv2d(torch.ones(1, 1, 4, 3), torch.ones(1, 1, 2, 2), padding='same', groups=0))


def clamp_grads(shape_x, lo, hi):
    torch.manual_seed(3)
    xx = torch.randn(shape_x, dtype=torch.float64, requires_grad=True)
    lo = lo.clone().requires_grad_(True)
    hi = hi.clone().requires_grad_(True)
    out = torch.clamp(xx, lo, hi)
    return list(torch.autograd.grad(out.sum(), [xx, lo, hi]))


ties = torch.tensor([-0.5, 0.0, 0.5, 1.0], dtype=torch.float64)
case('clamp_grad_ties', lambda: clamp_grads([4], ties, ties))
case('clamp_grad_crossed', lambda: clamp_grads([4], torch.full([4], 0.5, dtype=torch.float64), torch.full([4], -0.5, dtype=torch.float64)))
case('clamp_grad_broadcast_error', lambda: clamp_grads([4, 4], torch.zeros(1, 4, 4, dtype=torch.float64), torch.ones(4, 4, dtype=torch.float64)))

with open(OUT, 'w') as f:
    json.dump({'generated_by': 'tools/golden/gen_out_forms.py', 'torch_version': torch.__version__, 'cases': cases}, f, indent=0)
    f.write('\n')
