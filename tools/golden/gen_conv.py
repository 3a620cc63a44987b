"""Golden fixture for conv2d, max_pool2d and avg_pool2d: strides, padding, dilation, groups, ceil mode,
count_include_pad, divisor_override, unbatched inputs, and errors.

Run: $PYTHON tools/golden/gen_conv.py  ->  test/golden/conv.json
"""
import json
import os

import torch
import torch.nn.functional as F

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'conv.json')
seed = [900]


def spec(t):
    return {'dtype': str(t.dtype).replace('torch.', ''), 'sizes': list(t.shape), 'values': t.reshape(-1).tolist()}


def randn(*shape, dtype=torch.float32):
    seed[0] += 1
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed[0]), dtype=dtype)


cases = []


def case(fn, tensors, kwargs, call):
    entry = {'fn': fn, 'tensors': [None if t is None else spec(t) for t in tensors], 'kwargs': kwargs}
    try:
        entry['result'] = spec(call())
    except Exception as e:  # noqa: BLE001
        entry['error'] = str(e).split('\n')[0]
    cases.append(entry)


for kw in [{}, {'stride': 2}, {'padding': 1}, {'padding': [1, 2], 'stride': [2, 1]}, {'dilation': 2}, {'groups': 2}]:
    x = randn(2, 4, 7, 6)
    w = randn(6, 4 // kw.get('groups', 1), 3, 3)
    b = randn(6)
    case('conv2d', [x, w, b], kw, lambda: F.conv2d(x, w, b, **kw))
    case('conv2d', [x, w, None], kw, lambda: F.conv2d(x, w, None, **kw))
x3 = randn(3, 5, 5, dtype=torch.float64)
w3 = randn(2, 3, 2, 2, dtype=torch.float64)
case('conv2d', [x3, w3, None], {}, lambda: F.conv2d(x3, w3))
xb = randn(1, 3, 5, 5)
w_bad_channels = randn(2, 4, 3, 3)
case('conv2d', [xb, w_bad_channels, None], {}, lambda: F.conv2d(xb, w_bad_channels))
w_too_big = randn(2, 3, 7, 7)
case('conv2d', [xb, w_too_big, None], {}, lambda: F.conv2d(xb, w_too_big))
for kw in [{'kernel_size': 2}, {'kernel_size': 3, 'stride': 2}, {'kernel_size': 3, 'stride': 2, 'padding': 1},
           {'kernel_size': [2, 3], 'stride': [1, 2]}, {'kernel_size': 3, 'stride': 2, 'ceil_mode': True},
           {'kernel_size': 2, 'dilation': 2}]:
    x = randn(2, 3, 7, 8)
    case('max_pool2d', [x], kw, lambda: F.max_pool2d(x, **kw))
    if 'dilation' not in kw:
        case('avg_pool2d', [x], kw, lambda: F.avg_pool2d(x, **kw))
        case('avg_pool2d', [x], {**kw, 'count_include_pad': False}, lambda: F.avg_pool2d(x, **kw, count_include_pad=False))
x = randn(2, 3, 6, 6)
case('avg_pool2d', [x], {'kernel_size': 3, 'padding': 1, 'divisor_override': 4}, lambda: F.avg_pool2d(x, 3, padding=1, divisor_override=4))
x_unbatched = randn(3, 6, 6)
case('max_pool2d', [x_unbatched], {'kernel_size': 2}, lambda: F.max_pool2d(x_unbatched, 2))
case('max_pool2d', [x], {'kernel_size': 2, 'padding': 2}, lambda: F.max_pool2d(x, 2, padding=2))

with open(OUT, 'w') as f:
    json.dump({'generated_by': 'tools/golden/gen_conv.py', 'torch_version': torch.__version__, 'cases': cases}, f)
print('wrote', len(cases), 'cases to', OUT)
