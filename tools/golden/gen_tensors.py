"""Golden fixture for tensor creation and conversion: dtype inference of torch.tensor / full / arange,
factory values (arange, linspace, eye), dtype conversions (including float16/bfloat16 rounding and integer
wrap-around), copy_ with broadcasting, and errors.

Run: $PYTHON tools/golden/gen_tensors.py  ->  test/golden/tensors.json
"""
import json
import os
import struct

import torch

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'tensors.json')
NAMES = {getattr(torch, n): n for n in ['bool', 'uint8', 'int8', 'int16', 'int32', 'int64', 'float16', 'bfloat16',
                                         'float32', 'float64', 'complex64', 'complex128']}


def enc(v):
    """A value that JSON can carry exactly: floats as their float64 bit pattern in hex."""
    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        return {'f64': struct.pack('>d', v).hex()}
    if isinstance(v, complex):
        return [enc(v.real), enc(v.imag)]
    if isinstance(v, list):
        return [enc(x) for x in v]
    raise TypeError(type(v))


def desc(t):
    return {'dtype': NAMES[t.dtype], 'sizes': list(t.shape), 'values': enc(t.tolist())}


def attempt(fn):
    try:
        return desc(fn())
    except Exception as e:  # noqa: BLE001
        return {'error': str(e).split('\n')[0]}


cases = {'tensor': [], 'full': [], 'arange': [], 'linspace': [], 'eye': [], 'convert': [], 'copy': []}

for data in [[1, 2], [1.5, 2], [True, False], [True, 2], [[1, 2], [3.5, 4]], [], [[]], 7, 2.5, True,
             [[1, 2], [3]], [[1, 2], 3], [0.1, 0.2, 0.3], [1e-8, 1e8], [-0.0, 0.0]]:
    cases['tensor'].append({'data': data, 'expected': attempt(lambda: torch.tensor(data))})
for data, dtype in [([1, 2], 'float32'), ([1.7, -1.7], 'int64'), ([1.7, -1.7], 'int32'), ([0.1, 1 / 3], 'float16'),
                    ([0.1, 1 / 3], 'bfloat16'), ([1, 0, 2], 'bool'), ([300, -129], 'int64')]:
    cases['tensor'].append({'data': data, 'dtype': dtype, 'expected': attempt(lambda: torch.tensor(data, dtype=getattr(torch, dtype)))})

for value, dtype in [(1, None), (1.5, None), (True, None), (2, 'float64'), (-1, 'uint8'), (3.9, 'int32')]:
    cases['full'].append({'size': [2, 2], 'value': value, 'dtype': dtype,
                          'expected': attempt(lambda: torch.full([2, 2], value, **({'dtype': getattr(torch, dtype)} if dtype else {})))})

for args, dtype in [((5,), None), ((1, 4), None), ((0, 1, 0.25), None), ((1, 2.5, 0.5), None), ((10, 0, -3), None),
                    ((0, 1, 0.1), 'float32'), ((0, 1, 0.1), 'float64'), ((-5, 5, 1.5), 'int64'), ((0, 5, 0), None),
                    ((5, 0, 1), None), ((0, 3), 'float16'), ((0,), None)]:
    start, end, step = (0, args[0], 1) if len(args) == 1 else (args[0], args[1], args[2] if len(args) > 2 else 1)
    cases['arange'].append({'start': start, 'end': end, 'step': step, 'dtype': dtype,
                            'expected': attempt(lambda: torch.arange(start, end, step, **({'dtype': getattr(torch, dtype)} if dtype else {})))})

for start, end, steps, dtype in [(0, 1, 5, 'float32'), (-3.7, 12.1, 17, 'float32'), (-3.7, 12.1, 17, 'float64'),
                                 (0, 1, 1, 'float32'), (0, 1, 0, 'float32'), (5, -5, 11, 'float32'), (0, 10, 7, 'int64'),
                                 (0.1, 0.7, 4, 'float64')]:
    cases['linspace'].append({'start': start, 'end': end, 'steps': steps, 'dtype': dtype,
                              'expected': attempt(lambda: torch.linspace(start, end, steps, dtype=getattr(torch, dtype)))})

for n, m in [(3, None), (2, 4), (0, None), (3, 1)]:
    cases['eye'].append({'n': n, 'm': m, 'expected': attempt(lambda: torch.eye(n, m) if m is not None else torch.eye(n))})

src_values = {
    'float64': [-2.7, -0.5, -0.0, 0.0, 0.5, 1.5, 2.5, 100.25, 65504.0, 70000.0, 1e-5, 1e-8, 3.14159265358979],
    'int64': [-300, -129, -128, -1, 0, 1, 127, 128, 255, 256, 300, 65535, 70000, 2 ** 31, -2 ** 31 - 1],
    'float32': [0.1, 1 / 3, 1e-3, 123.456, -7.875],
    'bool': [True, False],
}
targets = ['bool', 'uint8', 'int8', 'int16', 'int32', 'int64', 'float16', 'bfloat16', 'float32', 'float64']
for src, values in src_values.items():
    base = torch.tensor(values, dtype=getattr(torch, src))
    for dst in targets:
        vals = base
        if src == 'float64' and dst in ('uint8', 'int8', 'int16', 'int32', 'int64', 'bool'):
            vals = base[(base.abs() < 100)]  # float -> small int conversion is undefined out of range
        if src == 'int64' and dst in ('float16',):
            vals = base[(base.abs() < 60000)]
        cases['convert'].append({'src': src, 'values': enc(vals.tolist()), 'dst': dst, 'expected': desc(vals.to(getattr(torch, dst)))})

for dst_shape, src_shape in [([2, 3], [3]), ([2, 3], [1, 3]), ([2, 3], [2, 1]), ([2, 3], []), ([2, 3], [2, 3]), ([2, 3], [4]), ([3], [2, 3])]:
    def run(dst_shape=dst_shape, src_shape=src_shape):
        n = 1
        for s in src_shape:
            n *= s
        src = torch.arange(1, n + 1, dtype=torch.int64).reshape(src_shape)
        dst = torch.zeros(dst_shape, dtype=torch.float32)
        dst.copy_(src)
        return dst
    cases['copy'].append({'dst': dst_shape, 'src': src_shape, 'expected': attempt(run)})

with open(OUT, 'w') as f:
    json.dump({'generated_by': 'tools/golden/gen_tensors.py', 'torch_version': torch.__version__, **cases}, f, indent=1)
print('wrote', OUT, {k: len(v) for k, v in cases.items()})
