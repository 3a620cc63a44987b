"""Golden fixture for advanced indexing: aten index.Tensor, index_put_ and index_put with int64/int32 index
tensors, bool/uint8 masks and None (full slices): results (dtype, sizes, values), the meta result's sizes
and errors (str(e) cut at "\\nException raised from").

Each case: {name, op: 'index' | 'index_put_' | 'index_put', self: spec, transpose: bool (self is the 2-D spec
transposed, a non-contiguous view), indices: [spec | null], values?: spec, accumulate?: bool,
result: spec | error: str, meta?: {sizes} | {error}} (meta only for cases without masks: PyTorch's meta
nonzero has no data-independent size). For index_put_ the result is self after the call.

Run: $PYTHON tools/golden/gen_advindex.py  ->  test/golden/advindex.json
"""
import json
import os
import warnings

import torch

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'advindex.json')
NAMES = {getattr(torch, n): n for n in ['bool', 'uint8', 'int32', 'int64', 'float32', 'float64']}
seed = [900]
warnings.filterwarnings('ignore')  # uint8 masks are deprecated (a warning, not an error)


def spec(t):
    return {'dtype': NAMES[t.dtype], 'sizes': list(t.shape), 'values': t.reshape(-1).tolist()}


def ints(*shape, low=-5, high=6):
    seed[0] += 1
    return torch.randint(low, high, shape, generator=torch.Generator().manual_seed(seed[0]))


def floats(*shape):
    seed[0] += 1
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed[0]))


def message(e):
    return str(e).split('\nException raised from')[0]


def L(*v, dtype=torch.int64):
    return torch.tensor(v, dtype=dtype)


B = torch.tensor
cases = []


def run(op, self, indices, values, accumulate):
    if op == 'index':
        return torch.ops.aten.index.Tensor(self, indices)
    if op == 'index_put_':
        s = self.clone()
        r = torch.ops.aten.index_put_(s, indices, values, accumulate)
        assert r is s
        return s
    return torch.ops.aten.index_put(self, indices, values, accumulate)


def case(name, op, base, indices, values=None, accumulate=False, transpose=False):
    self = base.t() if transpose else base
    entry = {'name': name, 'op': op, 'self': spec(base), 'transpose': transpose,
             'indices': [None if i is None else spec(i) for i in indices]}
    if op != 'index':
        entry['values'] = spec(values)
        entry['accumulate'] = accumulate
    try:
        entry['result'] = spec(run(op, self, indices, values, accumulate))
    except Exception as e:  # noqa: BLE001
        entry['error'] = message(e)
    if all(i is None or i.dtype not in (torch.bool, torch.uint8) for i in indices):
        m = lambda t: None if t is None else t.to('meta')  # noqa: E731
        try:
            r = run(op, m(self), [m(i) for i in indices], m(values), accumulate)
            entry['meta'] = {'sizes': list(r.shape)}
        except Exception as e:  # noqa: BLE001
            entry['meta'] = {'error': message(e)}
    cases.append(entry)


x = floats(3, 4)
x3 = floats(2, 3, 4)
xi = ints(3, 4)
xb = ints(3, 4, low=0, high=2).bool()

# index.Tensor
case('single int index', 'index', x, [L(2, 0, 2)])
case('negative indices', 'index', x, [L(-1, -3)])
case('int32 index', 'index', x, [L(1, 2, dtype=torch.int32)])
case('second dim after null', 'index', x, [None, L(3, -4, 1)])
case('two indices broadcast', 'index', x, [L(0, 2), L(1, 3)])
case('broadcast 2-d with 1-d', 'index', x, [L(0, 2, 1).reshape(3, 1), L(1, 3)])
case('adjacent pair in 3-d', 'index', x3, [None, L(0, 2), L(1, 3)])
case('adjacent pair 2-d index in 3-d', 'index', x3, [L(1, 0), L(2, 0).reshape(2, 1)])
case('separated by null', 'index', x3, [L(1, 0, 1), None, L(3, 0, 2)])
case('separated by null broadcast', 'index', x3, [L(1, 0).reshape(2, 1), None, L(3, 0, 2)])
case('null before single', 'index', x3, [None, None, L(2, 2, 0)])
case('bool mask 1-d', 'index', x, [B([True, False, True])])
case('bool mask 1-d on dim 1', 'index', x, [None, B([False, True, True, False])])
case('bool mask 2-d', 'index', x, [xb])
case('bool mask 2-d in 3-d', 'index', x3, [ints(2, 3, low=0, high=2).bool()])
case('uint8 mask', 'index', x, [B([1, 0, 1], dtype=torch.uint8)])
case('mask and index', 'index', x, [B([True, False, True]), L(3, 0)])
case('all-false mask', 'index', x, [B([False, False, False])])
case('0-dim index', 'index', x, [L(1).reshape(())])
case('0-dim indices pair', 'index', x, [torch.tensor(2), torch.tensor(-1)])
case('empty index', 'index', x, [torch.zeros(0, dtype=torch.int64)])
case('empty index on dim 1', 'index', x, [None, torch.zeros(0, dtype=torch.int64)])
case('int64 self', 'index', xi, [L(2, 1), L(0, 3)])
case('bool self', 'index', xb, [None, L(3, 3, 0)])
case('transposed self', 'index', x, [L(3, 0, 1)], transpose=True)
case('transposed self two indices', 'index', x, [L(3, 0), L(2, 1)], transpose=True)
case('transposed self mask', 'index', x, [None, B([True, False, True])], transpose=True)
case('out of range', 'index', x, [L(5)])
case('out of range negative on dim 1', 'index', x, [None, L(0, -5)])
case('too many indices', 'index', x, [L(0), L(0), L(0)])
case('mask shape', 'index', x, [B([True, False])])
case('mask shape on dim 1', 'index', x, [None, B([True, False])])
case('indices do not broadcast', 'index', x, [L(0, 1), L(0, 1, 2)])
case('float index', 'index', x, [torch.tensor([0.5])])
case('no indices', 'index', x, [])

# index_put_ / index_put
case('put rows', 'index_put_', x, [L(2, 0)], floats(2, 4))
case('put broadcast row', 'index_put_', x, [L(2, 0)], floats(4))
case('put scalar value', 'index_put_', x, [L(1), L(-1)], torch.tensor(7.5))
case('put pairs', 'index_put_', x, [L(0, 2, 1), L(3, 0, 1)], floats(3))
case('put after null', 'index_put_', x3, [None, L(2, 0)], floats(2, 2, 4))
case('put separated by null', 'index_put_', x3, [L(1, 0), None, L(3, 2)], floats(2, 3))
case('put mask 1-d', 'index_put_', x, [B([True, False, True])], floats(2, 4))
case('put mask 2-d', 'index_put_', x, [xb], floats(int(xb.sum())))
case('put mask 2-d scalar', 'index_put_', x, [xb], torch.tensor(-1.0))
case('put mask scalar other dtype', 'index_put_', x, [xb], torch.tensor(3))
case('put int64', 'index_put_', xi, [None, L(1, 3)], ints(3, 2))
case('put bool', 'index_put_', xb, [L(0, 2)], B([True, False, True, False]))
case('put transposed self', 'index_put_', x, [L(1, 3)], floats(2, 3), transpose=True)
case('put empty index', 'index_put_', x, [torch.zeros(0, dtype=torch.int64)], floats(4))
case('accumulate duplicates', 'index_put_', x, [L(0, 2, 0, 0)], floats(4, 4), accumulate=True)
case('accumulate pairs duplicates', 'index_put_', xi, [L(1, 1, 2), L(3, 3, 0)], ints(3), accumulate=True)
case('accumulate broadcast', 'index_put_', x, [None, L(1, 1)], floats(1), accumulate=True)
case('accumulate mask', 'index_put_', x, [B([False, True, True])], floats(2, 4), accumulate=True)
case('accumulate bool', 'index_put_', xb, [L(0, 0), L(1, 1)], B([True, False]), accumulate=True)
case('accumulate transposed', 'index_put_', xi, [L(2, 2, 0)], ints(3, 3), accumulate=True, transpose=True)
case('put functional', 'index_put', x, [L(1), None], floats(4))
case('put functional accumulate', 'index_put', xi, [L(0, 0), L(2, 2)], ints(2), accumulate=True)
case('put out of range', 'index_put_', x, [L(3)], floats(4))
case('put out of range accumulate', 'index_put_', x, [None, L(0, 4)], floats(2), accumulate=True)
case('put too many indices', 'index_put_', x, [L(0), L(0), L(0)], floats(1))
case('put mask shape', 'index_put_', x, [B([True, False])], floats(4))
case('put dtype mismatch', 'index_put_', x, [L(0)], ints(4))
case('put dtype mismatch accumulate', 'index_put_', x, [L(0)], ints(4), accumulate=True)
case('put values shape', 'index_put_', x, [L(0)], floats(2, 4))
case('put values shape functional', 'index_put', x, [L(0, 1)], floats(3))

with open(OUT, 'w') as f:
    json.dump(allow_nan=False, obj={'generated_by': 'tools/golden/gen_advindex.py', 'torch_version': torch.__version__, 'cases': cases}, fp=f)
print('wrote', len(cases), 'cases to', OUT)
