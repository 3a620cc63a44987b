"""Golden fixture for shape and indexing operators: cat, stack, split, chunk, unbind, flip, roll, repeat, tile,
index_select, gather, scatter, scatter_add, masked_fill, masked_select, nonzero, tril, triu, sort, argsort,
topk, one_hot, embedding: results (dtype, sizes, values) and errors.

Run: $PYTHON tools/golden/gen_indexing.py  ->  test/golden/indexing.json
"""
import json
import os

import torch
import torch.nn.functional as F

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'indexing.json')
NAMES = {getattr(torch, n): n for n in ['bool', 'int32', 'int64', 'float32', 'float64']}
seed = [500]


def spec(t):
    # NaN is written as null (JSON has no NaN)
    values = [None if isinstance(v, float) and v != v else v for v in t.reshape(-1).tolist()]
    return {'dtype': NAMES[t.dtype], 'sizes': list(t.shape), 'values': values}


def ints(*shape, low=-5, high=6):
    seed[0] += 1
    return torch.randint(low, high, shape, generator=torch.Generator().manual_seed(seed[0]))


def floats(*shape):
    seed[0] += 1
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed[0]))


cases = []


def case(op, tensors, args, call):
    entry = {'op': op, 'tensors': [spec(t) for t in tensors], 'args': args}
    try:
        r = call()
        rs = list(r) if isinstance(r, (tuple, list)) else [r]
        entry['results'] = [spec(x) for x in rs]
    except Exception as e:  # noqa: BLE001
        entry['error'] = str(e).split('\n')[0]
    cases.append(entry)


a, b = floats(2, 3), floats(2, 4)
case('cat', [a, b], {'dim': 1}, lambda: torch.cat([a, b], 1))
case('cat', [a, a], {'dim': 0}, lambda: torch.cat([a, a], 0))
ci = ints(2, 3)
case('cat', [a, ci], {'dim': 0}, lambda: torch.cat([a, ci], 0))
case('cat', [a, b], {'dim': 0}, lambda: torch.cat([a, b], 0))
e = torch.zeros(0)
case('cat', [a, e], {'dim': 0}, lambda: torch.cat([a, e], 0))
case('stack', [a, a], {'dim': 1}, lambda: torch.stack([a, a], 1))
case('stack', [a, a], {'dim': -1}, lambda: torch.stack([a, a], -1))
case('stack', [a, b], {'dim': 0}, lambda: torch.stack([a, b], 0))
x = floats(5, 4)
case('split', [x], {'size': 2, 'dim': 0}, lambda: torch.split(x, 2, 0))
case('split', [x], {'size': 3, 'dim': 1}, lambda: torch.split(x, 3, 1))
case('split_with_sizes', [x], {'sizes': [1, 4], 'dim': 0}, lambda: torch.split(x, [1, 4], 0))
case('split_with_sizes', [x], {'sizes': [1, 3], 'dim': 0}, lambda: torch.split(x, [1, 3], 0))
case('chunk', [x], {'chunks': 2, 'dim': 0}, lambda: torch.chunk(x, 2, 0))
case('chunk', [x], {'chunks': 3, 'dim': 1}, lambda: torch.chunk(x, 3, 1))
case('unbind', [x], {'dim': 1}, lambda: torch.unbind(x, 1))
y = ints(2, 3, 4)
case('flip', [y], {'dims': [0, 2]}, lambda: torch.flip(y, [0, 2]))
case('flip', [y], {'dims': [-1]}, lambda: torch.flip(y, [-1]))
case('roll', [y], {'shifts': [1], 'dims': []}, lambda: torch.roll(y, 1))
case('roll', [y], {'shifts': [1, -2], 'dims': [0, 2]}, lambda: torch.roll(y, (1, -2), (0, 2)))
case('repeat', [a], {'repeats': [2, 1, 2]}, lambda: a.repeat(2, 1, 2))
case('repeat', [a], {'repeats': [2]}, lambda: a.repeat(2))
case('tile', [a], {'dims': [2]}, lambda: a.tile((2,)))
idx = torch.tensor([2, 0, 2])
case('index_select', [x, idx], {'dim': 0}, lambda: torch.index_select(x, 0, idx))
case('index_select', [x, idx], {'dim': 1}, lambda: torch.index_select(x, 1, idx))
case('index_select', [x, torch.tensor([7])], {'dim': 0}, lambda: torch.index_select(x, 0, torch.tensor([7])))
gi = torch.tensor([[0, 1, 0, 2], [2, 2, 1, 0]])
case('gather', [x, gi], {'dim': 0}, lambda: torch.gather(x, 0, gi))
gi2 = torch.tensor([[3, 0], [1, 1], [0, 2], [2, 3], [1, 0]])
case('gather', [x, gi2], {'dim': 1}, lambda: torch.gather(x, 1, gi2))
case('gather', [x, torch.tensor([[9]])], {'dim': 1}, lambda: torch.gather(x, 1, torch.tensor([[9]])))
z = torch.zeros(3, 5)
si = torch.tensor([[0, 1, 2, 0, 0], [2, 0, 0, 1, 2]])
src = floats(2, 5)
case('scatter', [z, si, src], {'dim': 0}, lambda: torch.scatter(z, 0, si, src))
case('scatter_add', [z, si, src], {'dim': 0}, lambda: torch.scatter_add(z, 0, si, src))
case('scatter_value', [z, si], {'dim': 0, 'value': 2.5}, lambda: torch.scatter(z, 0, si, 2.5))
m = floats(3, 4) > 0
case('masked_fill', [x[:3], m], {'value': -1.0}, lambda: x[:3].masked_fill(m, -1.0))
case('masked_fill', [x, m[0]], {'value': 0.0}, lambda: x.masked_fill(m[0], 0.0))
case('masked_select', [x[:3], m], {}, lambda: torch.masked_select(x[:3], m))
nz_in = ints(3, 4, low=-1, high=2)
case('nonzero', [nz_in], {}, lambda: torch.nonzero(nz_in))
xs = floats(4, 5)
case('tril', [xs], {'diagonal': 0}, lambda: torch.tril(xs))
case('tril', [xs], {'diagonal': -1}, lambda: torch.tril(xs, -1))
case('triu', [xs], {'diagonal': 1}, lambda: torch.triu(xs, 1))
tri_in = floats(2, 3, 3)
case('triu', [tri_in], {'diagonal': 0}, lambda: torch.triu(tri_in))
sv = torch.tensor([[3.0, 1.0, float('nan'), 2.0, 1.0], [0.5, -1.0, 2.0, 2.0, -3.0]])
case('sort', [sv], {'dim': 1, 'descending': False}, lambda: torch.sort(sv, dim=1, stable=True))
case('sort', [sv], {'dim': 1, 'descending': True}, lambda: torch.sort(sv, dim=1, descending=True, stable=True))
case('sort', [sv], {'dim': 0, 'descending': False}, lambda: torch.sort(sv, dim=0, stable=True))
si2 = ints(3, 6)
case('argsort', [si2], {'dim': -1, 'descending': False}, lambda: torch.argsort(si2, dim=-1, stable=True))
tk = floats(3, 6)
case('topk', [tk], {'k': 2, 'dim': -1, 'largest': True}, lambda: torch.topk(tk, 2))
case('topk', [tk], {'k': 3, 'dim': 0, 'largest': False}, lambda: torch.topk(tk, 3, 0, largest=False))
case('topk', [tk], {'k': 7, 'dim': -1, 'largest': True}, lambda: torch.topk(tk, 7))
oh = torch.tensor([0, 2, 1, 2])
case('one_hot', [oh], {'num_classes': -1}, lambda: F.one_hot(oh))
case('one_hot', [oh], {'num_classes': 5}, lambda: F.one_hot(oh, 5))
case('one_hot', [oh], {'num_classes': 2}, lambda: F.one_hot(oh, 2))
w = floats(6, 3)
ei = torch.tensor([[1, 5], [0, 1]])
case('embedding', [w, ei], {}, lambda: F.embedding(ei, w))


with open(OUT, 'w') as f:
    json.dump(allow_nan=False, obj={'generated_by': 'tools/golden/gen_indexing.py', 'torch_version': torch.__version__, 'cases': cases}, fp=f)
print('wrote', len(cases), 'cases to', OUT)
