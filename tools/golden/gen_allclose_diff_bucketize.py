"""Golden fixture for allclose, equal, rand_like / randn_like /
randint_like (seeded streams), diff, bucketize / searchsorted, scatter with reduce, and the grad_fn names of
the decompositions (chunk, tile, outer, l1_loss, diff). Results are {dtype, sizes, values, grad_fn}, a plain
value, or the first line of the error.

Run: $PYTHON tools/golden/gen_allclose_diff_bucketize.py  ->  test/golden/allclose_diff_bucketize.json
"""
import json
import os

import torch
import torch.nn.functional as F

from _encode import spec  # {dtype, sizes, values, grad_fn}

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'allclose_diff_bucketize.json')


cases = {}


def case(cid, call):
    assert cid not in cases, cid
    try:
        cases[cid] = {'result': spec(call())}
    except Exception as e:  # noqa: BLE001
        cases[cid] = {'error': str(e).split('\n')[0]}


f32 = torch.tensor([1.0, 2.0, float('nan')])
case('allclose_true', lambda: torch.allclose(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.000001])))
case('allclose_false', lambda: torch.allclose(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.1])))
case('allclose_nan', lambda: torch.allclose(f32, f32))
case('allclose_nan_equal', lambda: torch.allclose(f32, f32, equal_nan=True))
case('allclose_atol', lambda: torch.allclose(torch.tensor([1.0]), torch.tensor([1.5]), atol=0.6))
case('equal_true', lambda: torch.equal(torch.tensor([[1, 2], [3, 4]]), torch.tensor([[1, 2], [3, 4]])))
case('equal_values', lambda: torch.equal(torch.tensor([1, 2]), torch.tensor([1, 3])))
case('equal_sizes', lambda: torch.equal(torch.tensor([1, 2]), torch.tensor([[1, 2]])))
case('equal_nan', lambda: torch.equal(f32, f32))
case('equal_dtype', lambda: torch.equal(torch.tensor([1.0]), torch.tensor([1.0], dtype=torch.float64)))


def seeded(fn):
    def run():
        torch.manual_seed(7)
        return fn()
    return run


case('rand_like', seeded(lambda: torch.rand_like(torch.zeros(2, 3))))
case('rand_like_f64', seeded(lambda: torch.rand_like(torch.zeros(4), dtype=torch.float64)))
case('randn_like', seeded(lambda: torch.randn_like(torch.zeros(5))))
case('randint_like', seeded(lambda: torch.randint_like(torch.zeros(6), 10)))
case('randint_like_low', seeded(lambda: torch.randint_like(torch.zeros(6, dtype=torch.int64), -5, 5)))

v = torch.tensor([1.0, 4.0, 9.0, 16.0, 25.0])
m = torch.tensor([[1, 3, 6], [2, 2, 7]])
case('diff', lambda: torch.diff(v))
case('diff_n2', lambda: torch.diff(v, n=2))
case('diff_n_big', lambda: torch.diff(v, n=7))
case('diff_n0', lambda: torch.diff(v, n=0))
case('diff_dim0', lambda: torch.diff(m, dim=0))
case('diff_prepend_append', lambda: torch.diff(m, dim=1, prepend=torch.tensor([[0], [0]]), append=torch.tensor([[9], [9]])))
case('diff_bool', lambda: torch.diff(torch.tensor([True, False, False, True])))
case('diff_0d', lambda: torch.diff(torch.tensor(1.0)))
case('diff_neg_n', lambda: torch.diff(v, n=-1))
case('diff_bad_prepend', lambda: torch.diff(m, prepend=torch.tensor([0])))
case('diff_bad_prepend_size', lambda: torch.diff(m, dim=1, prepend=torch.tensor([[0], [0], [0]])))
case('diff_grad_fn', lambda: torch.diff(v.clone().requires_grad_()))

b = torch.tensor([1.0, 3.0, 5.0, 7.0, 9.0])
x = torch.tensor([[0.0, 3.0, 6.0], [9.0, 10.0, float('nan')]])
case('bucketize', lambda: torch.bucketize(x, b))
case('bucketize_right', lambda: torch.bucketize(x, b, right=True))
case('bucketize_int32', lambda: torch.bucketize(x, b, out_int32=True))
case('bucketize_scalar', lambda: torch.bucketize(4, b))
case('bucketize_2d_boundaries', lambda: torch.bucketize(x, b.reshape(1, 5)))
sb = torch.tensor([[1, 3, 5, 7, 9], [2, 4, 6, 8, 10]])
case('searchsorted', lambda: torch.searchsorted(sb, torch.tensor([[3, 6, 9], [3, 6, 9]])))
case('searchsorted_right', lambda: torch.searchsorted(sb, torch.tensor([[3, 6, 9], [3, 6, 9]]), right=True))
case('searchsorted_side', lambda: torch.searchsorted(b, torch.tensor([3.0, 4.0]), side='right'))
case('searchsorted_scalar', lambda: torch.searchsorted(b, 5))
case('searchsorted_sorter', lambda: torch.searchsorted(torch.tensor([5, 1, 3]), torch.tensor([2, 4]), sorter=torch.tensor([1, 2, 0])))
case('searchsorted_bad_side', lambda: torch.searchsorted(b, torch.tensor([3.0]), side='middle'))
case('searchsorted_opposite', lambda: torch.searchsorted(b, torch.tensor([3.0]), right=True, side='left'))
case('searchsorted_dims', lambda: torch.searchsorted(sb, torch.tensor([[3.0]]).expand(3, 1)))
case('searchsorted_0d_boundaries', lambda: torch.searchsorted(torch.tensor(1.0), torch.tensor([3.0])))

idx = torch.tensor([[0, 1], [2, 2]])
case('scatter_reduce_multiply', lambda: torch.ones(2, 4).scatter(1, idx, torch.full((2, 2), 2.0), reduce='multiply'))
case('scatter_reduce_add', lambda: torch.ones(2, 4).scatter(1, idx, torch.full((2, 2), 2.0), reduce='add'))
case('scatter_value_reduce_add', lambda: torch.ones(2, 4).scatter(1, idx, 3.0, reduce='add'))
case('scatter_value_reduce_multiply', lambda: torch.full((2, 4), 2.0).scatter(1, idx, 3.0, reduce='multiply'))
case('scatter_reduce_bad', lambda: torch.ones(2, 4).scatter(1, idx, 3.0, reduce='max'))


def gfn(fn, *shape):
    def run():
        torch.manual_seed(3)
        x = torch.randn(*shape, dtype=torch.float64, requires_grad=True)
        return fn(x)
    return run


case('chunk_grad_fn', gfn(lambda x: x.chunk(2)[1], 5, 2))
case('tile_grad_fn', gfn(lambda x: x.tile((2,)), 3))
case('outer_grad_fn', gfn(lambda x: torch.outer(x, x), 3))
case('outer_bool', lambda: torch.outer(torch.tensor([True, False]), torch.tensor([True, True])))
case('outer_2d', lambda: torch.outer(torch.ones(2, 2), torch.ones(2)))
case('l1_loss_mean_grad_fn', gfn(lambda x: F.l1_loss(x, torch.zeros(4, dtype=torch.float64)), 4))
case('l1_loss_sum_grad_fn', gfn(lambda x: F.l1_loss(x, torch.zeros(4, dtype=torch.float64), reduction='sum'), 4))
case('l1_loss_none_grad_fn', gfn(lambda x: F.l1_loss(x, torch.zeros(4, dtype=torch.float64), reduction='none'), 4))

with open(OUT, 'w') as f:
    json.dump({'generated_by': 'tools/golden/gen_allclose_diff_bucketize.py', 'torch_version': torch.__version__, 'cases': cases}, f, indent=None)
    f.write('\n')
print(f'wrote {OUT}: {len(cases)} cases')
