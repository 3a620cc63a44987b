"""Golden fixture for the pooling kernels read and written over storage (src/kernels/Pooling.ts):
max_pool2d_with_indices, avg_pool2d and their backwards through torch.ops.aten, with ceil_mode, padding,
dilation, count_include_pad, divisor_override, NaN / -inf / ties, overlapping windows (stride < kernel),
non-contiguous (permuted) inputs, unbatched inputs and the dtypes PyTorch's CPU kernels accept.

Run: $PYTHON tools/golden/gen_pool.py  ->  test/golden/pool.json
"""
import json
import math
import os

import torch

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'pool.json')
A = torch.ops.aten
seed = [1300]


def num(v):
    if isinstance(v, float) and not math.isfinite(v):
        return 'nan' if math.isnan(v) else ('inf' if v > 0 else '-inf')
    return v


def spec(t, permute=None):
    """A tensor as {dtype, sizes, values[, permute]}: `values` fill `sizes` row-major, then `permute` applies."""
    base = t if permute is None else t.permute(*[permute.index(i) for i in range(len(permute))]).contiguous()
    s = {'dtype': str(t.dtype).replace('torch.', ''), 'sizes': list(base.shape),
         'values': [num(v) for v in base.reshape(-1).tolist()]}
    if permute is not None:
        s['permute'] = permute
    return s


def randn(*shape, dtype=torch.float32, scale=1.0):
    seed[0] += 1
    x = torch.randn(*shape, generator=torch.Generator().manual_seed(seed[0]), dtype=torch.float64) * scale
    return x.to(dtype)


cases = []


def case(op, x, args, grad=None, permute=None, channels_last=False):
    entry = {'op': op, 'args': args, 'input': spec(x, permute)}
    # A channels-last input (permute [0, 3, 1, 2] of NHWC values): PyTorch's output, indices and gradient
    # strides are recorded too.
    xin = x.contiguous(memory_format=torch.channels_last) if channels_last else x
    try:
        if op == 'max_pool2d_with_indices':
            v, i = A.max_pool2d_with_indices(xin, *args)
            entry['result'] = spec(v)
            entry['indices'] = spec(i)
            if grad is not None:
                g = grad
                entry['grad'] = spec(g)
                entry['grad_input'] = spec(A.max_pool2d_with_indices_backward(g, xin, *args, i))
        else:
            entry['result'] = spec(A.avg_pool2d(xin, *args))
            if grad is not None:
                entry['grad'] = spec(grad)
                entry['grad_input'] = spec(A.avg_pool2d_backward(grad, xin, *args))
        if channels_last and op == 'max_pool2d_with_indices':
            entry['strides'] = {'result': list(v.stride()), 'indices': list(i.stride()), 'grad_input': list(A.max_pool2d_with_indices_backward(grad, xin, *args, i).stride())}
        elif channels_last:
            entry['strides'] = {'result': list(A.avg_pool2d(xin, *args).stride()), 'grad_input': list(A.avg_pool2d_backward(grad, xin, *args).stride())}
    except Exception as e:  # noqa: BLE001
        entry['error'] = str(e).split('\n')[0]
    cases.append(entry)


def outgrad(x, op, args, dtype=None):
    shape = (A.max_pool2d_with_indices(x, *args)[0] if op == 'max_pool2d_with_indices' else A.avg_pool2d(x, *args)).shape
    g = randn(*shape, dtype=torch.float64)
    return g.to(dtype or x.dtype)


# max_pool2d_with_indices(kernel, stride, padding, dilation, ceil_mode)
MAX = [
    [[2, 2], [2, 2], [0, 0], [1, 1], False],
    [[3, 3], [1, 1], [1, 1], [1, 1], False],        # overlapping windows
    [[3, 2], [2, 1], [1, 1], [1, 1], True],         # ceil mode with padding
    [[2, 2], [2, 2], [1, 1], [2, 2], False],        # dilation with padding
    [[3, 3], [2, 2], [0, 0], [1, 1], True],         # ceil mode: a clipped last window
    [[2, 3], [3, 1], [1, 0], [2, 1], True],
]
for args in MAX:
    for dtype in (torch.float32, torch.float64):
        x = randn(2, 3, 7, 6, dtype=dtype)
        case('max_pool2d_with_indices', x, args, outgrad(x, 'max_pool2d_with_indices', args))
# NaN wins (the last NaN's index), -inf windows keep their first index, ties keep the first maximum, -0 / +0
x = torch.tensor([[[[1.0, float('nan'), 3.0, 3.0], [float('nan'), 5.0, 3.0, 2.0],
                    [-math.inf, -math.inf, -0.0, 0.0], [-math.inf, -math.inf, 0.0, -0.0]]]])
for dtype in (torch.float32, torch.float64):
    xd = x.to(dtype)
    for args in ([[2, 2], [2, 2], [0, 0], [1, 1], False], [[3, 3], [1, 1], [1, 1], [1, 1], False]):
        case('max_pool2d_with_indices', xd, args, outgrad(xd, 'max_pool2d_with_indices', args))
# non-contiguous (channels and width swapped) and unbatched inputs
x = randn(2, 5, 4, 6)
args = [[3, 3], [1, 2], [1, 1], [1, 1], True]
case('max_pool2d_with_indices', x, args, outgrad(x, 'max_pool2d_with_indices', args), permute=[0, 3, 2, 1])
x = randn(3, 5, 5, dtype=torch.float64)
case('max_pool2d_with_indices', x, [[2, 2], [1, 1], [1, 1], [1, 1], False], outgrad(x, 'max_pool2d_with_indices', [[2, 2], [1, 1], [1, 1], [1, 1], False]))
# other dtypes: integers (forward only), int64, float16 / bfloat16 (forward and backward)
for dtype in (torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64):
    x = randn(1, 2, 5, 5, scale=40.0).abs().to(dtype) if dtype == torch.uint8 else randn(1, 2, 5, 5, scale=40.0).to(dtype)
    case('max_pool2d_with_indices', x, [[3, 3], [2, 2], [1, 1], [1, 1], True])
for dtype in (torch.float16, torch.bfloat16):
    x = randn(1, 2, 6, 6, dtype=dtype)
    case('max_pool2d_with_indices', x, [[2, 2], [2, 2], [0, 0], [1, 1], False], outgrad(x, 'max_pool2d_with_indices', [[2, 2], [2, 2], [0, 0], [1, 1], False]))
for dtype in (torch.bool,):
    case('max_pool2d_with_indices', torch.ones(1, 1, 2, 2, dtype=dtype), [[2, 2], [2, 2], [0, 0], [1, 1], False])

# avg_pool2d(kernel, stride, padding, ceil_mode, count_include_pad, divisor_override)
AVG = [
    [[2, 2], [2, 2], [0, 0], False, True, None],
    [[3, 3], [1, 1], [1, 1], False, True, None],    # overlapping windows
    [[3, 3], [1, 1], [1, 1], False, False, None],
    [[3, 2], [2, 1], [1, 1], True, True, None],     # ceil mode: windows reaching past the padding
    [[3, 2], [2, 1], [1, 1], True, False, None],
    [[3, 3], [2, 2], [1, 1], True, True, 5],        # divisor_override
    [[2, 3], [3, 2], [1, 0], True, False, -3],
]
for args in AVG:
    for dtype in (torch.float32, torch.float64):
        x = randn(2, 3, 7, 6, dtype=dtype, scale=100.0)
        case('avg_pool2d', x, args, outgrad(x, 'avg_pool2d', args))
x = randn(2, 5, 4, 6)
args = [[3, 3], [1, 2], [1, 1], True, False, None]
case('avg_pool2d', x, args, outgrad(x, 'avg_pool2d', args), permute=[0, 3, 2, 1])
x = torch.tensor([[[1.0, float('nan'), 2.0], [math.inf, 1.0, 2.0], [3.0, 4.0, 5.0]]])
case('avg_pool2d', x, [[2, 2], [1, 1], [0, 0], False, True, None], torch.ones(1, 2, 2))
for args in ([[3, 3], [1, 1], [1, 1], False, True, None], [[2, 2], [2, 2], [1, 1], True, False, None], [[2, 2], [1, 1], [0, 0], False, True, 3]):
    x = randn(1, 2, 5, 5, scale=50.0).to(torch.int64)
    case('avg_pool2d', x, args, outgrad(x, 'avg_pool2d', args, torch.float64).mul(20).to(torch.int64))
for dtype in (torch.float16, torch.bfloat16):
    x = randn(1, 2, 6, 6, dtype=dtype, scale=10.0)
    args = [[2, 2], [2, 2], [1, 1], False, True, None]
    case('avg_pool2d', x, args, outgrad(x, 'avg_pool2d', args))
for dtype in (torch.int32, torch.uint8, torch.bool):
    case('avg_pool2d', torch.ones(1, 1, 2, 2, dtype=dtype), [[2, 2], [2, 2], [0, 0], False, True, None])

# channels-last inputs (Note [Channels-last pooling] in src/kernels/Pooling.ts): float32 and float64, 2x2 and
# overlapping padded windows, the gradient given contiguous
for args in ([[2, 2], [2, 2], [0, 0], [1, 1], False], [[3, 3], [1, 2], [1, 1], [1, 1], True]):
    for dtype in (torch.float32, torch.float64):
        x = randn(2, 3, 4, 5, dtype=dtype)
        case('max_pool2d_with_indices', x, args, outgrad(x, 'max_pool2d_with_indices', args), permute=[0, 3, 1, 2], channels_last=True)
for args in ([[2, 2], [2, 2], [0, 0], False, True, None], [[3, 3], [1, 2], [1, 1], True, False, None]):
    for dtype in (torch.float32, torch.float64, torch.int64):
        x = randn(2, 3, 4, 5, dtype=torch.float64, scale=30.0).to(dtype)
        g = outgrad(x, 'avg_pool2d', args, torch.float64)
        case('avg_pool2d', x, args, g.mul(20).to(torch.int64) if dtype == torch.int64 else g.to(dtype), permute=[0, 3, 1, 2], channels_last=True)

with open(OUT, 'w') as f:
    json.dump({'generated_by': 'tools/golden/gen_pool.py', 'torch_version': torch.__version__, 'cases': cases}, f)
print('wrote', len(cases), 'cases to', OUT)
