"""Golden fixture for matrix products: mm, bmm, matmul (all dim combinations, broadcasting), dot, mv, outer,
addmm, linear, baddbmm: shapes, dtypes, values and errors.

Run: $PYTHON tools/golden/gen_linalg.py  ->  test/golden/linalg.json
"""
import json
import os

import torch

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'linalg.json')
NAMES = {getattr(torch, n): n for n in ['int64', 'int32', 'float32', 'float64']}
seed = [0]


def rand(shape, dtype):
    seed[0] += 1
    g = torch.Generator().manual_seed(seed[0])
    if dtype.is_floating_point:
        return torch.randn(shape, generator=g, dtype=dtype)
    return torch.randint(-4, 5, shape, generator=g, dtype=dtype)


def spec(t):
    return {'dtype': NAMES[t.dtype], 'sizes': list(t.shape), 'values': t.reshape(-1).tolist()}


cases = []


def case(op, shapes, dtypes=(torch.float32,), kwargs=None, transpose=False):
    ins = [rand(s, d) for s, d in zip(shapes, dtypes * len(shapes) if len(dtypes) == 1 else dtypes)]
    if transpose:
        ins[0] = ins[0].transpose(-1, -2).contiguous().transpose(-1, -2) if ins[0].dim() >= 2 else ins[0]
    entry = {'op': op, 'inputs': [spec(t) for t in ins], 'kwargs': kwargs or {}, 'transpose_first': transpose}
    try:
        r = getattr(torch, op)(*ins, **(kwargs or {}))
        entry['result'] = spec(r)
    except Exception as e:  # noqa: BLE001
        entry['error'] = str(e).split('\n')[0]
    cases.append(entry)


for dt in (torch.float32, torch.float64, torch.int64):
    case('mm', [[3, 4], [4, 5]], (dt,))
    case('mm', [[1, 1], [1, 1]], (dt,))
    case('mm', [[0, 3], [3, 2]], (dt,))
    case('bmm', [[2, 3, 4], [2, 4, 5]], (dt,))
    case('dot', [[5], [5]], (dt,))
    case('mv', [[3, 4], [4]], (dt,))
    case('outer', [[3], [4]], (dt,))
case('mm', [[5, 4], [4, 3]], transpose=True)
case('mm', [[5, 140], [140, 260]])
case('mm', [[2, 3], [4, 5]])
case('mm', [[2, 3], [3, 4]], (torch.float32, torch.float64))
case('mm', [[2, 3, 1], [3, 4]])
case('bmm', [[2, 3, 4], [3, 4, 5]])
case('bmm', [[2, 3, 4], [2, 5, 5]])
case('dot', [[3], [4]])
case('dot', [[2, 2], [2, 2]])
for a, b in [([4], [4]), ([3, 4], [4]), ([4], [4, 5]), ([3, 4], [4, 5]), ([2, 3, 4], [4]), ([4], [2, 4, 5]),
             ([2, 3, 4], [2, 4, 5]), ([2, 3, 4], [4, 5]), ([3, 4], [2, 4, 5]), ([2, 1, 3, 4], [5, 4, 2]),
             ([1, 3, 4], [6, 4, 2]), ([3, 4], [5, 6]), ([], [3]), ([2, 3, 4], [3, 5, 6])]:
    case('matmul', [a, b])
case('addmm', [[3, 5], [3, 4], [4, 5]])
case('addmm', [[5], [3, 4], [4, 5]], kwargs={'beta': 0.5, 'alpha': 2.0})
case('addmm', [[3, 5], [3, 4], [4, 5]], kwargs={'beta': 0.0})
case('addmm', [[2, 5], [3, 4], [4, 5]])
case('baddbmm', [[2, 3, 5], [2, 3, 4], [2, 4, 5]], kwargs={'alpha': 0.5})
cases.append(None)  # placeholder removed below
cases.pop()
for shapes in ([[2, 4], [3, 4], [3]], [[5, 2, 4], [3, 4], [3]]):
    ins = [rand(s, torch.float32) for s in shapes]
    r = torch.nn.functional.linear(*ins)
    cases.append({'op': 'linear', 'inputs': [spec(t) for t in ins], 'kwargs': {}, 'transpose_first': False, 'result': spec(r)})

with open(OUT, 'w') as f:
    json.dump({'generated_by': 'tools/golden/gen_linalg.py', 'torch_version': torch.__version__, 'cases': cases}, f)
print('wrote', len(cases), 'cases to', OUT)
