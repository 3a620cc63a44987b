"""Golden fixture for pow (Tensor/Scalar overloads), div with rounding modes, cumsum, cumprod (with a dtype,
in place: cumsum_/cumprod_, 0-dim), norm and lerp with a tensor weight:
result dtypes, shapes, values and errors.

Run: $PYTHON tools/golden/gen_pow_div_cumsum_norm_lerp.py  ->  test/golden/pow_div_cumsum_norm_lerp.json
"""
import json
import os

import torch

from _encode import enc

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'pow_div_cumsum_norm_lerp.json')
NAMES = {getattr(torch, n): n for n in ['bool', 'uint8', 'int32', 'int64', 'float32', 'float64']}


def spec(t):
    return {'dtype': NAMES[t.dtype], 'sizes': list(t.shape), 'values': [enc(x) for x in t.reshape(-1).tolist()]}


cases = []


def case(op, tensors, args, call):
    entry = {'op': op, 'tensors': [spec(t) for t in tensors], 'args': args}
    try:
        entry['result'] = spec(call())
    except Exception as e:  # noqa: BLE001
        entry['error'] = str(e).split('\n')[0]
    cases.append(entry)


fa = torch.tensor([[-2.5, 0.0, 1.5], [3.0, -0.75, 7.0]])
fb = torch.tensor([[2.0, -3.0, 0.5], [-2.0, 0.25, 3.0]])
ia = torch.tensor([[-7, 0, 5], [9, -4, 13]])
ib = torch.tensor([[2, -3, 2], [-2, 3, 4]])
for a, b in [(fa, fb), (ia, ib), (ia, fb), (fa.double(), ib)]:
    case('pow', [a, b.abs()], {}, lambda: torch.pow(a, b.abs()))
    for mode in (None, 'trunc', 'floor'):
        case('div', [a, b], {'rounding_mode': mode}, lambda: torch.div(a, b, rounding_mode=mode))
for e in (2, 0.5, -1, 3):
    case('pow_scalar', [fa], {'exponent': e}, lambda: torch.pow(fa, e))
    case('pow_scalar', [ia.abs()], {'exponent': e}, lambda: torch.pow(ia.abs(), e))
case('pow_scalar', [ia], {'exponent': -2}, lambda: torch.pow(ia, -2))
case('pow_self_scalar', [fb], {'self': 2}, lambda: torch.pow(2, fb))
case('pow_self_scalar', [ib.abs()], {'self': 3}, lambda: torch.pow(3, ib.abs()))
case('div', [ia, torch.tensor([[1, 0, 1], [1, 1, 1]])], {'rounding_mode': 'floor'}, lambda: torch.div(ia, torch.tensor([[1, 0, 1], [1, 1, 1]]), rounding_mode='floor'))
case('div', [fa, fb], {'rounding_mode': 'round'}, lambda: torch.div(fa, fb, rounding_mode='round'))
for t in (fa, ia, torch.tensor([[True, False, True], [True, True, False]])):
    for dim in (0, 1, -1):
        case('cumsum', [t], {'dim': dim}, lambda: torch.cumsum(t, dim))
        case('cumprod', [t], {'dim': dim}, lambda: torch.cumprod(t, dim))
# cumsum/cumprod with a dtype, 0-dim, and in place (the result keeps self's dtype; a dtype must match it)
ia32 = ia.to(torch.int32)
for op in ('cumsum', 'cumprod'):
    for t, dt in [(ia, 'float64'), (fa, 'int32'), (fa, 'float64'), (torch.tensor(2.5), None), (torch.tensor(True), 'int64')]:
        d = getattr(torch, dt) if dt else None
        case(op, [t], {'dim': 0, 'dtype': dt}, lambda: getattr(torch, op)(t, 0, dtype=d))
    for t, dim, dt in [(fa, 1, None), (fa, 0, 'float64'), (ia, 1, None), (ia32, 0, None), (ia32, 1, 'int64'),
                       (torch.tensor([True, False, True]), 0, None), (fa.t(), 1, None), (torch.tensor(-3.0), -1, None)]:
        d = getattr(torch, dt) if dt else None
        case(op + '_', [t], {'dim': dim, 'dtype': dt}, lambda: getattr(t.clone(), op + '_')(dim, dtype=d))

for p in (2, 1, 0, 3, float('inf'), float('-inf')):
    case('norm', [fa], {'p': enc(p), 'dim': [1]}, lambda: torch.norm(fa, p, dim=[1]))
    case('norm_all', [fa], {'p': enc(p)}, lambda: torch.norm(fa, p))
case('norm', [ia], {'p': 2, 'dim': [1]}, lambda: torch.norm(ia, 2, dim=[1]))

# lerp.Tensor: per-element weights (both formulas, |w| < 0.5 and not), broadcasting, in-place, dtype errors
w = torch.tensor([[0.0, 0.3, 0.5], [0.7, 1.0, -0.5]])
w_row = torch.tensor([0.25, 2.0, -1.5])
for s_, e_, w_ in [(fa, fb, w), (fa, fb, w_row), (fa.double(), fb.double(), w.double()), (fa[0], fb, w)]:
    case('lerp_tensor', [s_, e_, w_], {}, lambda: torch.lerp(s_, e_, w_))
case('lerp_tensor_', [fa, fb, w_row], {}, lambda: fa.clone().lerp_(fb, w_row))
case('lerp_tensor_', [fa[0], fb, w], {}, lambda: fa[0].clone().lerp_(fb, w))
case('lerp_tensor', [fa, fb, w.double()], {}, lambda: torch.lerp(fa, fb, w.double()))
case('lerp_tensor', [fa, fb.double(), w], {}, lambda: torch.lerp(fa, fb.double(), w))
case('lerp_tensor', [ia, ib, ia], {}, lambda: torch.lerp(ia, ib, ia))

with open(OUT, 'w') as f:
    json.dump({'generated_by': 'tools/golden/gen_pow_div_cumsum_norm_lerp.py', 'torch_version': torch.__version__, 'cases': cases}, f, allow_nan=False)
print('wrote', len(cases), 'cases to', OUT)
