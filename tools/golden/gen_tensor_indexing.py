"""Golden fixture for the Tensor Indexing API: Python's `x[...]` and `x[...] = v` over a broad table of
index expressions — basic (ints, negative ints, slices with steps, None, Ellipsis), advanced (int64/int32 index
tensors, bool/uint8 masks, lists, bools, 0-dim tensors), both combined (adjacent and separated advanced indices),
setitem with numbers, tensors, broadcast values and dtype casts, and the errors. test/api/TensorIndexing.test.ts
replays every row through `x.index([...])` / `x.index_put_([...], v)`.

Index elements are encoded as: a JSON number (int), true/false (bool), null (None), "..." (Ellipsis),
{"slice": [start, stop, step]} (null for an omitted bound), {"tensor": spec}, {"list": nested list},
{"float": v}, {"str": s}. A one-element index is written `x[e]` in Python (a list `x[(e,)]`, one index tensor).

Each case: {id, op: 'get' | 'set', self: {dtype, sizes, values, permute?, requires_grad?}, index: [...], value?: number | bool |
{tensor: spec, requires_grad?}, result?: {dtype, sizes, strides, offset, is_view, shares_storage, values}
(get: the result, set: self after the assignment), ops: the aten calls a TorchDispatchMode sees, keeping only the
view / indexing / copy ones (list and value tensors are made differently), grad?: {grad_fn, self_grad,
value_grad?} (float cases: grad_fn of the result / of the assigned tensor, and the gradients of
sum(result * (1..n))), error?: {type, message}} (str(e) cut at "\\nException raised from").

Run: $PYTHON tools/golden/gen_tensor_indexing.py  ->  test/golden/tensor_indexing.json
"""
import json
import os
import warnings

import torch
from torch.utils._python_dispatch import TorchDispatchMode

from _encode import values

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'tensor_indexing.json')
NAMES = {getattr(torch, n): n for n in ['bool', 'uint8', 'int32', 'int64', 'float32', 'float64']}
warnings.filterwarnings('ignore')  # uint8 masks and list-as-tuple indices are deprecated (warnings, not errors)

KEEP = {
    'aten.select.int', 'aten.slice.Tensor', 'aten.unsqueeze.default', 'aten.alias.default', 'aten.index.Tensor',
    'aten.index_put_.default', 'aten.copy_.default', 'aten.fill_.Tensor', 'aten.view.default', 'aten.expand.default',
}


class Ops(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.seen = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        if str(func) in KEEP:
            self.seen.append(str(func))
        return func(*args, **(kwargs or {}))


def spec(t):
    return {'dtype': NAMES[t.dtype], 'sizes': list(t.shape), 'values': values(t)}


def message(e):
    return str(e).split('\nException raised from')[0]


def enc_index(o):
    if isinstance(o, bool) or o is None:
        return o
    if isinstance(o, int):
        return o
    if o is Ellipsis:
        return '...'
    if isinstance(o, slice):
        return {'slice': [o.start, o.stop, o.step]}
    if isinstance(o, torch.Tensor):
        return {'tensor': spec(o)}
    if isinstance(o, list):
        return {'list': o}
    if isinstance(o, float):
        return {'float': o}
    if isinstance(o, str):
        return {'str': o}
    raise TypeError(o)


def key_of(index):
    if len(index) == 1:
        return (index[0],) if isinstance(index[0], list) else index[0]
    return tuple(index)


T = torch.tensor
S = slice
E = Ellipsis
A = torch.arange(24, dtype=torch.float32).reshape(2, 3, 4)
B = torch.arange(12, dtype=torch.float32).reshape(3, 4)
L = torch.arange(12, dtype=torch.int64).reshape(3, 4)
Z = torch.tensor(7.0)
V = torch.arange(5, dtype=torch.float32)
cases = []


def self_spec(x, permute):
    s = spec(x)
    if permute is not None:
        s['permute'] = permute
    return s


def make_self(base, permute):
    return base.permute(*permute) if permute is not None else base


def result_of(r, x):
    return {
        'dtype': NAMES[r.dtype], 'sizes': list(r.shape), 'strides': list(r.stride()), 'offset': r.storage_offset(),
        'is_view': r._base is not None,
        'shares_storage': r.untyped_storage().data_ptr() == x.untyped_storage().data_ptr(),
        'values': values(r),
    }


def weights(t):
    return torch.arange(1, t.numel() + 1, dtype=t.dtype).reshape(t.shape)


def get(base, *index, permute=None):
    entry = {'id': len(cases), 'op': 'get', 'self': self_spec(base, permute), 'index': [enc_index(i) for i in index]}
    key = key_of(index)
    x = make_self(base.clone(), permute)
    mode = Ops()
    try:
        with mode:
            r = x[key]
        entry['result'] = result_of(r, x)
        entry['ops'] = mode.seen
    except Exception as e:  # noqa: BLE001
        entry['error'] = {'type': type(e).__name__, 'message': message(e)}
        cases.append(entry)
        return
    if base.is_floating_point():
        leaf = base.clone().requires_grad_(True)
        r = make_self(leaf, permute)[key]
        g = {'grad_fn': None if r.grad_fn is None else type(r.grad_fn).__name__}
        if r.requires_grad:
            (r * weights(r)).sum().backward()
        g['self_grad'] = None if leaf.grad is None else values(leaf.grad)
        entry['grad'] = g
    cases.append(entry)


def put(base, index, value, permute=None, value_grad=False, leaf=False):
    index = list(index)
    entry = {'id': len(cases), 'op': 'set', 'self': self_spec(base, permute), 'index': [enc_index(i) for i in index]}
    if leaf:
        entry['self']['requires_grad'] = True
    if isinstance(value, torch.Tensor):
        entry['value'] = {'tensor': spec(value)}
        if value_grad:
            entry['value']['requires_grad'] = True
    else:
        entry['value'] = {'str': value} if isinstance(value, str) else value
    key = key_of(index)
    x = make_self(base.clone().requires_grad_(leaf), permute)
    mode = Ops()
    try:
        with mode:
            x[key] = value
        entry['result'] = result_of(x, x)
        entry['ops'] = mode.seen
    except Exception as e:  # noqa: BLE001
        entry['error'] = {'type': type(e).__name__, 'message': message(e)}
        cases.append(entry)
        return
    if base.is_floating_point() and permute is None:
        leaf = base.clone().requires_grad_(True)
        y = leaf.clone()
        v = value
        if isinstance(value, torch.Tensor) and value_grad:
            v = value.clone().requires_grad_(True)
        y[key] = v
        g = {'grad_fn': None if y.grad_fn is None else type(y.grad_fn).__name__}
        (y * weights(y)).sum().backward()
        g['self_grad'] = values(leaf.grad)
        if isinstance(v, torch.Tensor) and v.requires_grad:
            g['value_grad'] = values(v.grad)
        entry['grad'] = g
    cases.append(entry)


# --- basic indexing: views -------------------------------------------------------------------------------
for idx in [(0,), (1,), (-1,), (-2,), (S(None),), (S(1, None),), (S(None, 1),), (S(0, 2),), (S(None, None, 2),),
            (S(-1, None),), (S(-5, 10),), (S(5, 10),), (S(2, 1),), (None,), (E,), ('...',)]:
    if idx == ('...',):
        continue
    get(A, *idx)
for idx in [(0, 1), (1, -1, 2), (S(None), 1), (S(None), S(None)), (S(None), S(None), S(None)), (E, 1), (E, S(1, 3)),
            (0, E), (0, E, 1), (E, None), (None, E), (None, 0, None), (S(None), None, S(1, 3)), (1, S(None, None, 2), -1),
            (E, E), (S(0, 2), S(0, 3), S(0, 4)), (S(None, None, 3), 0), (None, None), (), (0, S(None), S(None), None),
            (E, S(None, None, 2), None)]:
    get(A, *idx)
get(A, 1, S(None), 2, permute=[2, 0, 1])
get(A, S(None), S(1, None, 2), permute=[1, 2, 0])
get(B, S(None), 0, permute=[1, 0])
# 0-dim tensors
for idx in [(E,), (None,), ((),), (True,), (False,), (0,), (-1,), (1,), (S(None),), (0, 0), (E, None)]:
    if idx == ((),):
        get(Z)
        continue
    get(Z, *idx)
# zero-dim index tensors are ints (views) / booleans
get(A, T(1))
get(A, S(None), T(-1))
get(A, T(1, dtype=torch.int32), S(None), T(2))
get(A, T(True))
get(A, T(False))
get(A, S(None), T(True), 0)
get(A, T(1, dtype=torch.uint8))
get(A, T(5))
get(A, T(1.0))

# --- advanced indexing: copies -----------------------------------------------------------------------------
get(A, T([1, 0]))
get(A, T([[0, 1], [1, 1]]))
get(A, T([1, 0], dtype=torch.int32))
get(A, [1, 0])
get(A, [-1])
get(A, [])
get(A, [[0, 1], [1, 0]])
get(A, T([True, False]))
get(A, [True, False])
get(A, A > 10)
get(A, (A > 10).to(torch.uint8))
get(A, A[0] > 5)
get(A, S(None), B > 5)
get(A, 0, B > 5)
get(A, T([0, 1]), T([2, 0]))
get(A, [0, 1], [2, 0], [3, 3])
get(A, T([[0], [1]]), T([0, 1, 2]))
get(A, T([0, 1]), S(None), T([3, 0]))
get(A, S(None), T([0, 2]), T([1, 3]))
get(A, T([0, 1]), 1)
get(A, 1, T([0, 2]))
get(A, 1, S(None), T([0, 3]))
get(A, T([0, 1]), 1, T([0, 3]))
get(A, E, T([0, 3]))
get(A, T([1]), E, T([0, 3]))
get(A, None, T([1, 0]))
get(A, T([1, 0]), None)
get(A, T([1, 0]), None, T([2, 1]))
get(A, S(None), None, T([2, 1]))
get(A, S(0, 1), T([2, 1]), S(None, None, 2))
get(A, True)
get(A, False)
get(A, True, 0)
get(A, 0, True)
get(A, E, True)
get(A, False, S(None))
get(A, T([1, 0]), permute=[2, 0, 1])
get(A, S(None), T([0, 2]), permute=[1, 2, 0])
get(A, A.permute(1, 2, 0) > 10, permute=[1, 2, 0])
get(B, T([2, 0]), T([1, 3]), permute=[1, 0])
get(L, T([2, 0]), S(1, 3))
get(L, L > 4)
get(A, [1.0, 0.0])

# --- getitem errors ----------------------------------------------------------------------------------------
get(A, 2)
get(A, -3)
get(A, 0, 3)
get(A, 0, 0, 4)
get(A, 0, 0, 0, 0)
get(A, E, 0, 0, 0, 0)
get(A, S(None, None, -1))
get(A, S(None, None, 0))
get(A, T([2]))
get(A, T([0.5]))
get(A, 1.5)
get(A, [True])
get(A, B > 5)
get(A, T([[True]]), 0, 0)
get(A, T([0, 1]), T([0, 1, 2]))
get(Z, 0)
get(Z, 1)
get(Z, S(None))
get(Z, 0, 0)

# --- setitem -----------------------------------------------------------------------------------------------
for idx, val in [
    ((0,), 5.0), ((-1,), -2), ((S(None), 1), 0), ((S(None),), 3.5), ((E,), 1), ((E, 0), 9), ((None,), 4),
    ((True,), 6), ((False,), 6), ((0, 1, 2), 100), ((S(None, None, 2),), -1), ((S(1, None), S(None), S(None, 2)), 8),
    ((T(1),), 2), ((T([1, 0]),), 3), (([0, 0],), 4), ((A > 10,), 0), ((S(None), B > 5), -7), ((T([0, 1]), 1, T([3, 0])), 11),
    ((T([1]), E, T([0, 3])), 12), ((True, 0), 13), ((T(True),), 14), ((T(False),), 14),
]:
    put(A, idx, val)
put(A, (0,), T([1.0, 2.0, 3.0, 4.0]))
put(A, (0,), T([[1.0, 2.0, 3.0, 4.0]]))
put(A, (0,), T([[[1.0, 2.0, 3.0, 4.0]]]))
put(A, (S(None), 0), T([[-1.0], [-2.0]]))
put(A, (0,), T(-3.0))
put(A, (E,), torch.ones(3, 4))
put(A, (E,), T(2.0))
put(A, (1, 1), T([7, 8, 9, 10]))  # int64 into float32: copy_ casts
put(A, (T([0, 1]),), torch.ones(3, 4))
put(A, (T([0, 1]),), T([[[1.0, 2.0, 3.0, 4.0]]]))
put(A, (T([1, 0]), T([2, 1])), T([[[5.0, 6.0, 7.0, 8.0]]]))
put(A, (A > 20,), T([1.0, 2.0, 3.0]))
put(A, (S(None), T([0, 2]), 1), T(9.0))
put(A, (0,), V[:4], value_grad=True)
put(A, (T([1, 0]), 2), T([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]), value_grad=True)
put(A, (S(None), 1), T(3.0), value_grad=True)
put(A, (E,), T(3.0), value_grad=True)
put(A, (A > 20,), T(3.0), value_grad=True)
put(A, (T([0]),), T([2.0, 3.0, 4.0, 5.0]), value_grad=True)
put(L, (0,), 2.7)
put(L, (L > 5,), -1)
put(L, (S(None), 2), True)
put(torch.zeros(3, dtype=torch.bool), (1,), 5)
put(A, (S(None), 1), 1.5, permute=[2, 0, 1])
put(A, (T([0, 2]),), 0.5, permute=[1, 0, 2])
put(Z, (E,), 1.0)
put(Z, (None,), 2.0)
put(Z, (True,), T([3.0]))
# setitem errors
put(A, (2,), 1)
put(A, (0, 0, 0, 0), 1)
put(A, (0,), torch.ones(5))
put(A, (0,), torch.ones(2, 1, 4))
put(A, (T([0]),), T([1], dtype=torch.int64))
put(A, (T([0, 1]),), torch.ones(2, 2, 4))
put(A, (0,), 'a')
put(A, (S(None, None, -1),), 1)
put(A, (T([0.5]),), 1)
put(Z, (0,), 1)
# in place on a leaf that requires grad
put(A, (0,), 1.0, leaf=True)
put(A, ([0],), 1.0, leaf=True)
put(A, (E,), 1.0, leaf=True)

with open(OUT, 'w') as f:
    json.dump({'generated_by': 'tools/golden/gen_tensor_indexing.py', 'torch_version': torch.__version__, 'cases': cases}, f,
              separators=(',', ':'))
    f.write('\n')
print(f'{len(cases)} cases -> {os.path.relpath(OUT)}')
