"""Golden fixture for the indexing kernels over every stored dtype and layout: index_select, gather, scatter,
scatter (value), scatter_add, masked_fill, masked_fill_, masked_select, nonzero, index.Tensor and index_put_
(with accumulate) on float32/float64/int64/int32/int16/int8/uint8/bool/float16/bfloat16/complex64/complex128
tensors, contiguous and transposed (non-contiguous) inputs, int32 and int64 indices, negative indices,
wraparound of integer accumulation, and PyTorch's out-of-range errors.

Each case: {name, op, args, inputs: [spec], result: spec | error}. A spec is {dtype, sizes, values, t}: the
tensor of `sizes` holding `values` row-major (complex as [re, im], non-finite floats as "nan", "inf", "-inf"), transposed (.t()) when t is
true. An in-place op's result is its first input after the call (for a transposed input: the view).

Run: $PYTHON tools/golden/gen_index_storage.py  ->  test/golden/index_storage.json
"""
import json
import os

import torch

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'index_storage.json')
DTYPES = ['float32', 'float64', 'int64', 'int32', 'int16', 'int8', 'uint8', 'bool', 'float16', 'bfloat16', 'complex64', 'complex128']


def value(v):
    if isinstance(v, complex):
        return [value(v.real), value(v.imag)]
    if isinstance(v, float) and (v != v or v in (float('inf'), float('-inf'))):
        return 'nan' if v != v else ('inf' if v > 0 else '-inf')
    return v


def spec(t, transposed=False):
    # A transposed view is stored as the contiguous tensor it views.
    base = t.t() if transposed else t
    return {'dtype': str(t.dtype).replace('torch.', ''), 'sizes': list(base.shape), 'values': [value(v) for v in base.reshape(-1).tolist()], 't': transposed}


def make(s):
    dt = getattr(torch, s['dtype'])
    real = lambda v: float(v) if isinstance(v, str) else v  # noqa: E731
    vals = [complex(real(v[0]), real(v[1])) if isinstance(v, list) else real(v) for v in s['values']]
    t = torch.tensor(vals, dtype=dt).reshape(s['sizes'])
    return t.t() if s['t'] else t


cases = []


def case(name, op, args, inputs, call, inplace=False):
    entry = {'name': name, 'op': op, 'args': args, 'inputs': inputs}
    ts = [None if s is None else make(s) for s in inputs]
    try:
        r = call(*ts)
        entry['result'] = spec(ts[0] if inplace else r)
    except Exception as e:  # noqa: BLE001
        entry['error'] = str(e).split('\n')[0]
    cases.append(entry)


def typed(dt, rows):
    return torch.tensor(rows).to(getattr(torch, dt))


L = lambda *v: spec(torch.tensor(v, dtype=torch.int64))  # noqa: E731
I32 = lambda *v: spec(torch.tensor(v, dtype=torch.int32))  # noqa: E731
B = lambda *v: spec(torch.tensor(v, dtype=torch.bool))  # noqa: E731

base = [[0, 1, -2], [3, 0, 5], [-6, 7, 0], [9, -10, 11]]
for dt in DTYPES:
    x = spec(typed(dt, base).t(), transposed=True)  # [3, 4], a transposed view
    xc = spec(typed(dt, base))  # [4, 3] contiguous
    ones = spec(typed(dt, [[1, 1, 1], [1, 1, 1]]).t(), transposed=True)  # [3, 2], a transposed view
    z = spec(typed(dt, [[0, 0], [0, 0], [0, 0]]))
    case(f'{dt} index_select dim 0', 'index_select', {'dim': 0}, [x, L(2, 0, 2)], lambda a, i: torch.index_select(a, 0, i))
    case(f'{dt} index_select dim 1 int32', 'index_select', {'dim': 1}, [x, I32(3, 1)], lambda a, i: torch.index_select(a, 1, i))
    case(f'{dt} index_select contiguous rows', 'index_select', {'dim': 0}, [xc, L(3, 3, 0)], lambda a, i: torch.index_select(a, 0, i))
    case(f'{dt} gather dim 1', 'gather', {'dim': 1}, [x, spec(torch.tensor([[3, 0], [1, 1], [0, 2]]))], lambda a, i: torch.gather(a, 1, i))
    case(f'{dt} gather dim 0', 'gather', {'dim': 0}, [xc, spec(torch.tensor([[3, 0, 1]]))], lambda a, i: torch.gather(a, 0, i))
    si = spec(torch.tensor([[0, 1], [0, 1], [2, 1]]))
    case(f'{dt} scatter', 'scatter', {'dim': 0}, [z, si, ones], lambda a, i, s: torch.scatter(a, 0, i, s))
    case(f'{dt} scatter transposed self', 'scatter', {'dim': 1}, [x, spec(torch.tensor([[3], [0]])), ones], lambda a, i, s: torch.scatter(a, 1, i, s))
    case(f'{dt} scatter_add', 'scatter_add', {'dim': 0}, [z, si, ones], lambda a, i, s: torch.scatter_add(a, 0, i, s))
    if dt not in ('complex64', 'complex128'):
        case(f'{dt} scatter value', 'scatter_value', {'dim': 0, 'value': 3}, [z, si], lambda a, i: torch.scatter(a, 0, i, 3))
    case(f'{dt} masked_fill', 'masked_fill', {'value': 3}, [x, B(True, False, False, True)], lambda a, m: a.masked_fill(m, 3))
    case(f'{dt} masked_fill_ transposed', 'masked_fill_', {'value': 3}, [x, B(True, False, False, True)], lambda a, m: a.masked_fill_(m, 3), inplace=True)
    case(f'{dt} masked_select', 'masked_select', {}, [x, spec(torch.tensor([[True], [False], [True]]))], lambda a, m: torch.masked_select(a, m))
    case(f'{dt} nonzero', 'nonzero', {}, [x], lambda a: torch.nonzero(a))
    case(f'{dt} index negative', 'index', {}, [x, L(-1, 0), L(3, -4)], lambda a, i, j: a[i, j])
    case(f'{dt} index after null', 'index', {}, [x, None, spec(torch.tensor([[-1], [1]]))], lambda a, _, i: a[:, i])
    case(f'{dt} index mask', 'index', {}, [x, B(True, False, True)], lambda a, m: a[m])
    vals = spec(typed(dt, [1, 1, 1]))
    case(f'{dt} index_put_', 'index_put_', {'accumulate': False}, [x, L(1, 1, 0), L(0, -1, 1), vals], lambda a, i, j, v: a.index_put_((i, j), v), inplace=True)
    case(f'{dt} index_put_ accumulate', 'index_put_', {'accumulate': True}, [x, L(1, 1, 0), L(0, 0, 1), vals], lambda a, i, j, v: a.index_put_((i, j), v, accumulate=True), inplace=True)

# Rows long enough to move as blocks (a contiguous run of 16 or more elements), and short runs.
for dt in ['float32', 'int64', 'uint8', 'complex64']:
    big = spec(torch.arange(5 * 4 * 8).reshape(5, 4, 8).to(getattr(torch, dt)))
    case(f'{dt} index_select rows of 32', 'index_select', {'dim': 0}, [big, L(4, 0, 4)], lambda a, i: torch.index_select(a, 0, i))
    case(f'{dt} index_select rows of 8', 'index_select', {'dim': 1}, [big, L(3, 1)], lambda a, i: torch.index_select(a, 1, i))
    case(f'{dt} index rows of 32', 'index', {}, [big, spec(torch.tensor([[1, -1], [0, 2]]))], lambda a, i: a[i])
    case(f'{dt} index block then rows of 8', 'index', {}, [big, L(2, 0), L(-1, 1)], lambda a, i, j: a[i, j])
    case(f'{dt} index separated', 'index', {}, [big, L(2, 0), None, L(7, 1)], lambda a, i, _, j: a[i, :, j])

# Accumulation in the element type: wraparound, rounding, or for bool.
acc = [
    ('int32 wraps', torch.tensor([2**31 - 1, 0], dtype=torch.int32), torch.tensor([1, 5], dtype=torch.int32)),
    ('uint8 wraps', torch.tensor([250, 0], dtype=torch.uint8), torch.tensor([3, 5], dtype=torch.uint8)),
    ('int8 wraps', torch.tensor([120, 0], dtype=torch.int8), torch.tensor([5, 6], dtype=torch.int8)),
    ('int16 wraps', torch.tensor([32000, 0], dtype=torch.int16), torch.tensor([500, 300], dtype=torch.int16)),
    ('float16 rounds', torch.tensor([1.0, 2.0], dtype=torch.float16), torch.tensor([0.1, 0.2], dtype=torch.float16)),
    ('bfloat16 rounds', torch.tensor([1.0, 2.0], dtype=torch.bfloat16), torch.tensor([0.01, 0.02], dtype=torch.bfloat16)),
    ('float32 rounds', torch.tensor([1.0, 0.0]), torch.tensor([1e-8, 1e-8])),
    ('bool ors', torch.tensor([True, False]), torch.tensor([True, True])),
    ('complex64', torch.tensor([1 + 2j, 0j], dtype=torch.complex64), torch.tensor([3 - 1j, 0.5j], dtype=torch.complex64)),
]
for name, a, v in acc:
    case(f'scatter_add {name}', 'scatter_add', {'dim': 0}, [spec(a), L(0, 0), spec(v)], lambda s, i, w: torch.scatter_add(s, 0, i, w))
    case(f'index_put_ accumulate {name}', 'index_put_', {'accumulate': True}, [spec(a), L(0, 0), spec(v)], lambda s, i, w: s.index_put_((i,), w, accumulate=True), inplace=True)

# Conversions of a scalar fill value.
case('scatter value int32 truncates', 'scatter_value', {'dim': 0, 'value': 2.7}, [spec(torch.zeros(3, dtype=torch.int32)), L(0, 2)], lambda a, i: torch.scatter(a, 0, i, 2.7))
case('scatter value bool', 'scatter_value', {'dim': 0, 'value': 2.7}, [spec(torch.zeros(3, dtype=torch.bool)), L(0, 2)], lambda a, i: torch.scatter(a, 0, i, 2.7))
case('masked_fill uint8 wraps', 'masked_fill', {'value': -1}, [spec(torch.zeros(3, dtype=torch.uint8)), B(True, False, True)], lambda a, m: a.masked_fill(m, -1))
case('masked_fill complex', 'masked_fill', {'value': 2.5}, [spec(torch.tensor([1 + 2j, 3j])), B(False, True)], lambda a, m: a.masked_fill(m, 2.5))
case('masked_fill broadcast self', 'masked_fill', {'value': 0}, [spec(torch.tensor([1.0, 2.0, 3.0])), spec(torch.tensor([[True], [False]]))], lambda a, m: a.masked_fill(m, 0))

# nonzero: NaN is non-zero, -0 is zero; complex is non-zero when either part is.
nz = [
    torch.tensor([-0.0, float('nan'), 0.0, float('-inf')]),
    torch.tensor([-0.0, 0.0, float('nan'), 1.0], dtype=torch.float16),
    torch.tensor([-0.0, 0.0, 1.0], dtype=torch.bfloat16),
    torch.tensor([0j, 1j, 1 + 0j, -0.0 + 0j], dtype=torch.complex64),
    torch.tensor(3.0),
    torch.tensor(0),
    torch.zeros(2, 0),
]
for t in nz:
    case(f'nonzero {t.dtype} {list(t.shape)}', 'nonzero', {}, [spec(t)], lambda a: torch.nonzero(a))

# Errors (PyTorch's texts) and edge shapes.
x = spec(torch.arange(12.0).reshape(3, 4))
case('index_select negative dim 0', 'index_select', {'dim': 0}, [x, L(-1)], lambda a, i: torch.index_select(a, 0, i))
case('index_select negative dim 1', 'index_select', {'dim': 1}, [x, L(-1)], lambda a, i: torch.index_select(a, 1, i))
case('index_select too big dim 1', 'index_select', {'dim': 1}, [x, L(0, 4)], lambda a, i: torch.index_select(a, 1, i))
case('index_select too big 1-d', 'index_select', {'dim': 0}, [spec(torch.arange(3.0)), L(3)], lambda a, i: torch.index_select(a, 0, i))
case('index_select scalar', 'index_select', {'dim': 0}, [spec(torch.tensor(5.0)), L(0)], lambda a, i: torch.index_select(a, 0, i))
case('index_select scalar two', 'index_select', {'dim': 0}, [spec(torch.tensor(5.0)), L(0, 0)], lambda a, i: torch.index_select(a, 0, i))
case('index_select 0-dim index', 'index_select', {'dim': 1}, [x, spec(torch.tensor(2))], lambda a, i: torch.index_select(a, 1, i))
case('index_select empty self', 'index_select', {'dim': 0}, [spec(torch.zeros(0, 3)), L(0)], lambda a, i: torch.index_select(a, 0, i))
case('index_select empty self dim 1', 'index_select', {'dim': 1}, [spec(torch.zeros(0, 3)), L(3)], lambda a, i: torch.index_select(a, 1, i))
case('index_select empty self ok', 'index_select', {'dim': 1}, [spec(torch.zeros(0, 3)), L(2, 0)], lambda a, i: torch.index_select(a, 1, i))
case('index_select empty index', 'index_select', {'dim': 0}, [x, spec(torch.zeros(0, dtype=torch.int64))], lambda a, i: torch.index_select(a, 0, i))
case('gather negative', 'gather', {'dim': 1}, [x, spec(torch.tensor([[0, -1]]))], lambda a, i: torch.gather(a, 1, i))
case('gather 0-dim', 'gather', {'dim': 0}, [spec(torch.tensor(5.0)), spec(torch.tensor(0))], lambda a, i: torch.gather(a, 0, i))
case('scatter negative', 'scatter_value', {'dim': 0, 'value': 1.0}, [x, spec(torch.tensor([[-1]]))], lambda a, i: torch.scatter(a, 0, i, 1.0))
case('scatter_add too big', 'scatter_add', {'dim': 1}, [x, spec(torch.tensor([[4]])), spec(torch.ones(1, 1))], lambda a, i, s: torch.scatter_add(a, 1, i, s))
case('index negative pairs', 'index', {}, [x, L(-3, 2), L(-1)], lambda a, i, j: a[i, j])
case('index negative out of range', 'index', {}, [x, None, L(-5)], lambda a, _, i: a[:, i])

with open(OUT, 'w') as f:
    json.dump({'generated_by': 'tools/golden/gen_index_storage.py', 'torch_version': torch.__version__, 'cases': cases}, f, indent=None, separators=(',', ':'))
    f.write('\n')
print(f'{len(cases)} cases -> {OUT}')
