"""Golden fixture for torch.unique_consecutive (function and Tensor methods, with dim,
inverse and counts; Meta raising), torch.diagonal and einsum's diagonal of a repeated label (DiagonalBackward0),
einsum's sublist form, complex views (view_as_real / view_as_complex, x.real / x.imag) and the deprecation
warning of scatter(..., reduce=) with a Tensor src. Results are {dtype, sizes, strides, offset, values, grad_fn}
(or a list of them), a plain value, or the first line of the error.

Run: $PYTHON tools/golden/gen_unique_consecutive_complex_views.py  ->  test/golden/unique_consecutive_complex_views.json
"""
import json
import os
import warnings

import torch

from _encode import spec as _spec


def spec(r):
    return _spec(r, ('dtype', 'sizes', 'strides', 'offset', 'values', 'grad_fn'))

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'unique_consecutive_complex_views.json')


cases = {}


def case(cid, call):
    assert cid not in cases, cid
    try:
        cases[cid] = {'result': spec(call())}
    except Exception as e:  # noqa: BLE001
        cases[cid] = {'error': str(e).split('\n')[0]}


def chain(t):
    """grad_fn names along the first input edge, down to the leaf."""
    names = []
    g = t.grad_fn
    while g is not None:
        names.append(g.name())
        g = g.next_functions[0][0] if g.next_functions else None
    return names


# ---- unique_consecutive
x = torch.tensor([1, 1, 2, 2, 3, 1, 1, 2])
xf = torch.tensor([1.5, float('nan'), float('nan'), 1.5, 1.5, -0.0, 0.0])
xb = torch.tensor([True, True, False, True])
x2 = torch.tensor([[1, 1], [1, 1], [2, 3], [1, 1], [1, 1]])
case('uc_default', lambda: torch.unique_consecutive(x))
case('uc_inverse', lambda: torch.unique_consecutive(x, return_inverse=True))
case('uc_counts', lambda: torch.unique_consecutive(x, return_counts=True))
case('uc_both', lambda: torch.unique_consecutive(x, return_inverse=True, return_counts=True))
case('uc_positional', lambda: torch.unique_consecutive(x, True, True))
case('uc_float_nan', lambda: torch.unique_consecutive(xf, return_inverse=True, return_counts=True))
case('uc_bool', lambda: torch.unique_consecutive(xb, return_counts=True))
case('uc_2d_flat', lambda: torch.unique_consecutive(x2, return_inverse=True))
case('uc_dim0', lambda: torch.unique_consecutive(x2, dim=0))
case('uc_dim0_both', lambda: torch.unique_consecutive(x2, return_inverse=True, return_counts=True, dim=0))
case('uc_dim1', lambda: torch.unique_consecutive(x2, return_counts=True, dim=1))
case('uc_dim_neg', lambda: torch.unique_consecutive(x2.t(), return_inverse=True, dim=-1))
case('uc_1d_dim0', lambda: torch.unique_consecutive(x, return_counts=True, dim=0))
case('uc_0dim', lambda: torch.unique_consecutive(torch.tensor(5.0), return_inverse=True, return_counts=True))
case('uc_0dim_dim', lambda: torch.unique_consecutive(torch.tensor(5.0), dim=0))
case('uc_empty', lambda: torch.unique_consecutive(torch.zeros(0, 3), return_inverse=True, return_counts=True))
case('uc_empty_dim0', lambda: torch.unique_consecutive(torch.zeros(0, 3), return_inverse=True, dim=0))
case('uc_empty_dim1', lambda: torch.unique_consecutive(torch.zeros(0, 3), dim=1))
case('uc_meta', lambda: torch.unique_consecutive(torch.empty(2, 3, device='meta')))
case('uc_meta_dim', lambda: torch.unique_consecutive(torch.empty(2, 3, device='meta'), dim=0))
case('uc_grad_fn', lambda: torch.unique_consecutive(torch.tensor([1.0, 1.0, 2.0], requires_grad=True)))
case('uc_method', lambda: x.unique_consecutive(return_counts=True))
case('uc_method_dim', lambda: x2.unique_consecutive(True, False, 0))
case('unique_method', lambda: x.unique(return_inverse=True))
case('unique_method_dim', lambda: x2.unique(dim=0, return_counts=True))
case('unique_method_positional', lambda: x.unique(True, False, True))

# ---- diagonal
m = torch.arange(12.0).reshape(3, 4)
m3 = torch.arange(24.0).reshape(2, 3, 4)
case('diagonal', lambda: torch.diagonal(m))
case('diagonal_offset', lambda: torch.diagonal(m, 1))
case('diagonal_neg_offset', lambda: torch.diagonal(m, offset=-1))
case('diagonal_past_end', lambda: torch.diagonal(m, 5))
case('diagonal_dims', lambda: torch.diagonal(m3, 0, 2, 0))
case('diagonal_method', lambda: m3.diagonal(offset=1, dim1=-1, dim2=1))
case('diagonal_same_dims', lambda: torch.diagonal(m3, 0, 1, -2))
case('diagonal_meta', lambda: torch.diagonal(torch.empty(3, 4, device='meta'), 1))


def diagonal_grad():
    torch.manual_seed(5)
    a = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    d = torch.diagonal(a, 1)
    cot = torch.randn(d.shape, dtype=torch.float64)
    (g,) = torch.autograd.grad((d * cot).sum(), [a])
    return [d, g]


case('diagonal_grad', diagonal_grad)

# ---- einsum: a repeated label's diagonal, the sublist form


def einsum_diag(eq, *shapes):
    def run():
        torch.manual_seed(3)
        xs = [torch.randn(s, dtype=torch.float64, requires_grad=True) for s in shapes]
        out = torch.einsum(eq, *xs)
        cot = torch.randn(out.shape, dtype=torch.float64)
        gs = torch.autograd.grad((out * cot).sum(), xs)
        return [out, *gs]
    return run


case('einsum_ii_i', einsum_diag('ii->i', (3, 3)))
case('einsum_iij_j', einsum_diag('iij->j', (2, 2, 3)))
case('einsum_jii_ij', einsum_diag('jii,ij->ij', (2, 3, 3), (3, 2)))
case('einsum_ii_i_chain', lambda: {'value': chain(torch.einsum('ii->i', torch.ones(3, 3, requires_grad=True)))})
case('einsum_jii_chain', lambda: {'value': chain(torch.einsum('jii->ij', torch.ones(2, 3, 3, requires_grad=True)))})
a = torch.arange(6.0).reshape(2, 3)
b = torch.arange(12.0).reshape(3, 4)
case('sublist_matmul', lambda: torch.einsum(a, [0, 1], b, [1, 2], [0, 2]))
case('sublist_implicit', lambda: torch.einsum(a, [0, 1], b, [1, 2]))
case('sublist_one', lambda: torch.einsum(a, [1, 0]))
case('sublist_lower', lambda: torch.einsum(a, [30, 27], [27]))
case('sublist_ellipsis', lambda: torch.einsum(m3, [Ellipsis, 0, 1], b.t()[:, :4].reshape(4, 3), [1, 2], [Ellipsis, 0, 2]))
case('sublist_out_of_range', lambda: torch.einsum(a, [0, 52]))
case('sublist_negative', lambda: torch.einsum(a, [0, -1]))
case('einsum_too_few', lambda: torch.einsum(a))

# ---- complex views
re = torch.tensor([1.0, -2.0, 3.5])
im = torch.tensor([0.5, 4.0, -1.0])
c = torch.complex(re, im)
cd = torch.complex(re.double(), im.double()).reshape(3, 1)
case('view_as_real', lambda: torch.view_as_real(c))
case('view_as_real_2d', lambda: torch.view_as_real(cd.t()))
case('view_as_real_real', lambda: torch.view_as_real(re))
case('real', lambda: c.real)
case('imag', lambda: c.imag)
case('real_fn', lambda: torch.real(cd))
case('imag_fn', lambda: torch.imag(cd))
case('real_of_real', lambda: re.real)
case('real_fn_of_real', lambda: torch.real(re))
case('imag_of_real', lambda: re.imag)
case('imag_fn_of_real', lambda: torch.imag(re))
case('view_as_complex', lambda: torch.view_as_complex(torch.arange(8.0).reshape(2, 2, 2)))
case('view_as_complex_long', lambda: torch.view_as_complex(torch.ones(2, 2, dtype=torch.long)))
case('view_as_complex_last3', lambda: torch.view_as_complex(torch.ones(2, 3)))
case('view_as_complex_stride', lambda: torch.view_as_complex(torch.ones(2, 4)[:, ::2]))
case('view_as_complex_odd_stride', lambda: torch.view_as_complex(torch.ones(2, 3, 2)[:, 0:1, :].reshape(2, 1, 2).as_strided((2, 2), (3, 1))))
case('view_as_complex_offset', lambda: torch.view_as_complex(torch.ones(5)[1:].view(2, 2)))
case('view_as_complex_0dim', lambda: torch.view_as_complex(torch.tensor(1.0)))
case('view_as_complex_meta', lambda: torch.view_as_complex(torch.empty(3, 2, device='meta')))


def write_through_real():
    z = torch.complex(re.clone(), im.clone())
    z.real.mul_(10)
    z.imag.fill_(7)
    return z


case('write_through_real', write_through_real)

# ---- scatter(..., reduce=) with a Tensor src: a UserWarning (once per process), none with a scalar value


def scatter_warnings():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        r1 = torch.zeros(3).scatter(0, torch.tensor([0, 1]), torch.ones(2), reduce='add')
        r2 = torch.zeros(3).scatter(0, torch.tensor([0, 1]), 2.0, reduce='multiply')
        r3 = torch.ones(3).scatter(0, torch.tensor([2, 1]), torch.full((2,), 3.0), reduce='multiply')
    msgs = [str(x.message).split(' (Triggered internally at')[0] for x in w]
    cats = sorted({x.category.__name__ for x in w})
    return {'value': {'messages': msgs, 'categories': cats, 'results': [r1.tolist(), r2.tolist(), r3.tolist()]}}


case('scatter_reduce_warning', scatter_warnings)

with open(OUT, 'w') as f:
    json.dump({'generated_by': 'tools/golden/gen_unique_consecutive_complex_views.py', 'torch_version': torch.__version__, 'cases': cases}, f, indent=1)
    f.write('\n')
print(f'{len(cases)} cases -> {os.path.relpath(OUT)}')
