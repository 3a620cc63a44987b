"""Golden fixture for torch.unique (_unique2 / unique_dim),
torch.multinomial (seeded streams, with and without replacement) and torch.einsum (values, gradients,
grad_fn names). Results are {dtype, sizes, values, grad_fn} (or a list of them), a plain value, or the first
line of the error.

Run: $PYTHON tools/golden/gen_unique_multinomial_einsum.py  ->  test/golden/unique_multinomial_einsum.json
"""
import json
import os

import torch

from _encode import spec  # {dtype, sizes, values, grad_fn}

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'unique_multinomial_einsum.json')


cases = {}


def case(cid, call):
    assert cid not in cases, cid
    try:
        cases[cid] = {'result': spec(call())}
    except Exception as e:  # noqa: BLE001
        cases[cid] = {'error': str(e).split('\n')[0]}


def grads(fn, *shapes, seed=3):
    """fn's value and the float64 gradients of sum(out * cotangent) w.r.t. each seeded input."""
    def run():
        torch.manual_seed(seed)
        xs = [torch.randn(s, dtype=torch.float64, requires_grad=True) for s in shapes]
        out = fn(*xs)
        cot = torch.randn(out.shape, dtype=torch.float64)
        gs = torch.autograd.grad((out * cot).sum(), xs)
        return [out, *gs]
    return run


# ---- unique
u = torch.tensor([3, 1, 2, 1, 3, 3, 0])
uf = torch.tensor([2.5, float('nan'), -1.0, 2.5, float('nan'), 0.0])
u2 = torch.tensor([[1, 2], [3, 4], [1, 2], [0, 9]])
case('unique', lambda: torch.unique(u))
case('unique_unsorted', lambda: torch.unique(u, sorted=False))
case('unique_positional', lambda: torch.unique(u, True, False, True))
case('unique_inverse', lambda: torch.unique(u, return_inverse=True))
case('unique_counts', lambda: torch.unique(u, return_counts=True))
case('unique_both', lambda: torch.unique(u, return_inverse=True, return_counts=True))
case('unique_nan', lambda: torch.unique(uf, return_inverse=True, return_counts=True))
case('unique_2d_inverse', lambda: torch.unique(u2, return_inverse=True))
case('unique_bool', lambda: torch.unique(torch.tensor([True, True, False]), return_counts=True))
case('unique_empty', lambda: torch.unique(torch.tensor([], dtype=torch.float32), return_inverse=True, return_counts=True))
case('unique_0d', lambda: torch.unique(torch.tensor(5.0), return_inverse=True))
case('unique2_raw', lambda: torch._unique2(u))
case('unique_dim0', lambda: torch.unique(u2, dim=0, return_inverse=True, return_counts=True))
case('unique_dim1', lambda: torch.unique(torch.tensor([[1, 1, 0], [2, 2, 5]]), dim=1, return_counts=True))
case('unique_dim_neg', lambda: torch.unique(u2, dim=-2))
case('unique_dim_bad', lambda: torch.unique(u2, dim=2))
case('unique_grad_fn', lambda: torch.unique(torch.tensor([2.0, 1.0, 2.0], requires_grad=True)))
case('unique_meta', lambda: torch.unique(torch.empty(3, device='meta')))


def unique_backward():
    x = torch.tensor([2.0, 1.0, 2.0], requires_grad=True)
    torch.unique(x).sum().backward()


case('unique_backward', unique_backward)

# ---- multinomial (seeded; the samples are PyTorch's stream for the same generator)
def seeded(fn, seed=7):
    def run():
        g = torch.Generator().manual_seed(seed)
        return fn(g)
    return run


pm = torch.tensor([0.1, 0.2, 0.3, 0.4])
pm2 = torch.tensor([[0.5, 0.0, 2.0, 1.0, 0.25], [1.0, 1.0, 1.0, 1.0, 1.0], [0.0, 3.0, 0.0, 0.0, 1.0]])
case('multinomial', seeded(lambda g: torch.multinomial(pm, 3, generator=g)))
case('multinomial_one', seeded(lambda g: torch.multinomial(pm2, 1, generator=g)))
case('multinomial_2d', seeded(lambda g: torch.multinomial(pm2, 2, generator=g)))
case('multinomial_f64', seeded(lambda g: torch.multinomial(pm.double(), 4, generator=g)))
case('multinomial_repl', seeded(lambda g: torch.multinomial(pm, 10, replacement=True, generator=g)))
case('multinomial_repl_2d', seeded(lambda g: torch.multinomial(pm2, 6, replacement=True, generator=g)))
case('multinomial_repl_f64', seeded(lambda g: torch.multinomial(pm2.double(), 6, True, generator=g)))
case('multinomial_repl_one', seeded(lambda g: torch.multinomial(pm, 1, replacement=True, generator=g)))
case('multinomial_many', seeded(lambda g: torch.multinomial(torch.rand(40, generator=torch.Generator().manual_seed(1)), 25, generator=g)))
case('multinomial_repl_many', seeded(lambda g: torch.multinomial(torch.rand(3, 40, generator=torch.Generator().manual_seed(1)), 30, replacement=True, generator=g)))


def multinomial_default():
    torch.manual_seed(11)
    return torch.multinomial(pm2, 2)


case('multinomial_default_gen', multinomial_default)
case('multinomial_3d', lambda: torch.multinomial(torch.ones(2, 2, 2), 1))
case('multinomial_int', lambda: torch.multinomial(torch.tensor([1, 2]), 1))
case('multinomial_zero_samples', lambda: torch.multinomial(pm, 0))
case('multinomial_too_many', lambda: torch.multinomial(pm, 5))
case('multinomial_negative', lambda: torch.multinomial(torch.tensor([0.5, -0.1]), 1))
case('multinomial_nan', lambda: torch.multinomial(torch.tensor([0.5, float('nan')]), 1))
case('multinomial_zero_sum', lambda: torch.multinomial(torch.tensor([[0.5, 0.5], [0.0, 0.0]]), 1))
case('multinomial_repl_negative', lambda: torch.multinomial(torch.tensor([0.5, -0.1]), 2, True))
case('multinomial_repl_inf', lambda: torch.multinomial(torch.tensor([0.5, float('inf')]), 2, True))
case('multinomial_repl_zero_sum', lambda: torch.multinomial(torch.tensor([0.0, 0.0]), 2, True))
case('multinomial_meta', lambda: torch.multinomial(torch.empty(3, 4, device='meta'), 2))
case('multinomial_method', seeded(lambda g: pm.multinomial(2, generator=g)))

# ---- einsum (values, float64 gradients with a seeded cotangent, grad_fn names)
EINSUM = [
    ('matmul', 'ij,jk->ik', [(2, 3), (3, 4)]),
    ('implicit', 'ij,jk', [(2, 3), (3, 4)]),
    ('transpose', 'ij->ji', [(2, 3)]),
    ('implicit_transpose', 'ji', [(2, 3)]),
    ('identity', 'ij', [(2, 3)]),
    ('sum_all', 'ij->', [(2, 3)]),
    ('sum_rows', 'ij->j', [(2, 3)]),
    ('diag', 'ii->i', [(3, 3)]),
    ('trace', 'ii', [(3, 3)]),
    ('dot', 'i,i->', [(3,), (3,)]),
    ('outer', 'i,j->ij', [(3,), (2,)]),
    ('matvec', 'ij,j->i', [(2, 3), (3,)]),
    ('bmm', 'bij,bjk->bik', [(2, 3, 4), (2, 4, 5)]),
    ('ellipsis', '...ij,...jk->...ik', [(2, 3, 4), (4, 5)]),
    ('ellipsis_implicit', '...ij,...jk', [(2, 1, 3, 4), (3, 4, 2)]),
    ('ellipsis_sum', 'b...->b', [(2, 3, 4)]),
    ('three', 'bij,bjk,bkl->bil', [(2, 3, 4), (2, 4, 5), (2, 5, 2)]),
    ('chain', 'ab,bc,cd->ad', [(2, 3), (3, 4), (4, 2)]),
    ('broadcast_one', 'ij,ij->ij', [(2, 3), (1, 3)]),
    ('upper', 'Ab,bA->A', [(2, 3), (3, 2)]),
    ('spaces', 'i j , j k -> i k', [(2, 3), (3, 4)]),
    ('diag_mixed', 'iij,jk->ik', [(3, 3, 2), (2, 4)]),
    ('contract_only_first', 'ij,k->k', [(2, 3), (4,)]),
    ('bilinear', 'bn,anm,bm->ba', [(2, 3), (4, 3, 5), (2, 5)]),
]
for name, eq, shapes in EINSUM:
    case('einsum_' + name, grads(lambda *xs, eq=eq: torch.einsum(eq, *xs), *shapes))
case('einsum_list', lambda: torch.einsum('ij,jk->ik', [torch.ones(2, 3), torch.ones(3, 2)]))
case('einsum_int', lambda: torch.einsum('ij,jk->ik', torch.arange(6).reshape(2, 3), torch.arange(6).reshape(3, 2)))
case('einsum_zero_size', lambda: torch.einsum('ij,jk->ik', torch.ones(2, 0), torch.ones(0, 3)))
case('einsum_fewer', lambda: torch.einsum('ij,jk->ik', torch.ones(2, 3)))
case('einsum_more', lambda: torch.einsum('ij->ij', torch.ones(2, 3), torch.ones(2, 3)))
case('einsum_bad_out', lambda: torch.einsum('ij->ik', torch.ones(2, 3)))
case('einsum_repeat_out', lambda: torch.einsum('ij->ii', torch.ones(2, 3)))
case('einsum_size', lambda: torch.einsum('ij,jk->ik', torch.ones(2, 3), torch.ones(2, 3)))
case('einsum_bad_char', lambda: torch.einsum('i1->i', torch.ones(2, 3)))
case('einsum_ndim', lambda: torch.einsum('ijk->i', torch.ones(2, 3)))
case('einsum_ell_ndim', lambda: torch.einsum('ijk...->i', torch.ones(2, 3)))
case('einsum_diag_size', lambda: torch.einsum('ii->i', torch.ones(2, 3)))
case('einsum_dot_alone', lambda: torch.einsum('i.j->i', torch.ones(2, 3)))
case('einsum_ell_broadcast', lambda: torch.einsum('...i,...i->...', torch.ones(2, 3), torch.ones(4, 3)))

with open(OUT, 'w') as f:
    json.dump({'generated_by': 'tools/golden/gen_unique_multinomial_einsum.py', 'torch_version': torch.__version__, 'cases': cases}, f, indent=1, allow_nan=False)
    f.write('\n')
