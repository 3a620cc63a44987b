"""Golden fixture for the rest of the convolution family: conv1d, padding='same'/'valid' (conv1d.padding,
conv2d.padding), conv_transpose1d/2d (stride, padding, output_padding, groups, dilation), with the gradients
of input, weight and bias, in float32 and float64; the output strides of channels-last inputs; errors.

Run: $PYTHON tools/golden/gen_conv1d_padding_transpose.py  ->  test/golden/conv1d_padding_transpose.json
"""
import json
import os

import torch
import torch.nn.functional as F

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'conv1d_padding_transpose.json')
seed = [1700]


def spec(t):
    values = t.reshape(-1).tolist()
    if t.dtype == torch.float32:  # 9 significant digits identify a float32 exactly and keep the file small
        values = [float(f'{v:.9g}') for v in values]
    return {'dtype': str(t.dtype).replace('torch.', ''), 'sizes': list(t.shape), 'values': values}


def randn(*shape, dtype=torch.float32):
    seed[0] += 1
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed[0]), dtype=dtype)


FNS = {
    'conv1d': F.conv1d,
    'conv2d': F.conv2d,
    'conv_transpose1d': F.conv_transpose1d,
    'conv_transpose2d': F.conv_transpose2d,
}
cases = []


def case(fn, x, w, b, kwargs, grads=True):
    """Forward value; with `grads`, the gradients of sum(out * g) for a fixed g."""
    entry = {'fn': fn, 'tensors': [None if t is None else spec(t) for t in (x, w, b)], 'kwargs': kwargs}
    try:
        xs, ws = x.clone().requires_grad_(grads), w.clone().requires_grad_(grads)
        bs = None if b is None else b.clone().requires_grad_(grads)
        out = FNS[fn](xs, ws, bs, **kwargs)
        entry['result'] = spec(out.detach())
        if grads:
            # The output gradient (i % 7 - 3) / 4 at flat index i: exact in every float dtype, rebuilt by the test.
            g = ((torch.arange(out.numel()) % 7 - 3) / 4).to(out.dtype).reshape(out.shape)
            (out * g).sum().backward()
            entry['grads'] = [None if t is None else spec(t.grad) for t in (xs, ws, bs)]
    except Exception as e:  # noqa: BLE001
        entry['error'] = str(e).split('\n')[0]
    cases.append(entry)


for dtype in [torch.float32, torch.float64]:
    # conv1d: numeric padding, stride, dilation, groups, unbatched.
    for kw in [{}, {'stride': 2}, {'padding': 2}, {'dilation': 2, 'padding': 1}, {'groups': 2}]:
        x = randn(2, 2, 7, dtype=dtype)
        w = randn(4, 2 // kw.get('groups', 1), 3, dtype=dtype)
        case('conv1d', x, w, randn(4, dtype=dtype), kw)
    case('conv1d', randn(3, 7, dtype=dtype), randn(2, 3, 2, dtype=dtype), None, {})
    # padding='same' / 'valid', symmetric and asymmetric (even kernel, odd dilation).
    for pad, k, d in [('same', 3, 1), ('same', 4, 1), ('same', 2, 3), ('same', 4, 2), ('valid', 3, 1)]:
        case('conv1d', randn(1, 3, 8, dtype=dtype), randn(2, 3, k, dtype=dtype), randn(2, dtype=dtype), {'padding': pad, 'dilation': d})
    for pad, k, d in [('same', [3, 4], 1), ('same', [2, 5], [3, 1]), ('valid', [2, 3], 1), ('same', 3, 2)]:
        ks = k if isinstance(k, list) else [k, k]
        case('conv2d', randn(1, 2, 5, 5, dtype=dtype), randn(3, 2, *ks, dtype=dtype), randn(3, dtype=dtype), {'padding': pad, 'dilation': d})
    case('conv2d', randn(2, 6, 7, dtype=dtype), randn(4, 2, 2, 2, dtype=dtype), None, {'padding': 'same'})
    # Depthwise (groups == input channels; channel multiplier 1 and 2): the direct kernel.
    for kw, mult in [({'groups': 3, 'padding': 1}, 1), ({'groups': 3, 'stride': 2, 'dilation': [1, 2]}, 2),
                     ({'groups': 3, 'stride': [1, 3], 'padding': [2, 0]}, 1)]:
        case('conv2d', randn(1, 3, 5, 6, dtype=dtype), randn(3 * mult, 1, 3, 2, dtype=dtype), randn(3 * mult, dtype=dtype), kw)
    case('conv1d', randn(1, 4, 9, dtype=dtype), randn(4, 1, 3, dtype=dtype), None, {'groups': 4, 'padding': 1})
    # Transposed: stride, padding, output_padding, groups, dilation.
    for kw in [{}, {'stride': 2}, {'stride': 2, 'padding': 1, 'output_padding': 1}, {'groups': 2, 'stride': 3, 'output_padding': 2},
               {'dilation': 2, 'padding': 2}, {'stride': [2, 1], 'padding': [0, 1], 'dilation': [1, 2], 'output_padding': [1, 0]},
               {'stride': 2, 'dilation': 3, 'output_padding': 2}]:
        g = kw.get('groups', 1)
        x = randn(1, 2, 3, 3, dtype=dtype)
        w = randn(2, 4 // g, 3, 2, dtype=dtype)
        case('conv_transpose2d', x, w, randn(4, dtype=dtype), kw)
    case('conv_transpose2d', randn(4, 3, 3, dtype=dtype), randn(4, 2, 2, 2, dtype=dtype), None, {'stride': 2})
    for kw in [{}, {'stride': 3, 'padding': 1, 'output_padding': 2}, {'groups': 2, 'dilation': 2}]:
        g = kw.get('groups', 1)
        case('conv_transpose1d', randn(1, 4, 5, dtype=dtype), randn(4, 4 // g, 3, dtype=dtype), randn(4, dtype=dtype), kw)
    case('conv_transpose1d', randn(4, 5, dtype=dtype), randn(4, 3, 2, dtype=dtype), None, {})

# Errors.
x1, w1 = randn(1, 3, 8), randn(4, 3, 3)
case('conv1d', x1, w1, None, {'padding': 'same', 'stride': 2}, grads=False)
case('conv1d', x1, w1, None, {'padding': 'full'}, grads=False)
case('conv2d', randn(1, 3, 6, 6), randn(4, 3, 3, 3), None, {'padding': 'same', 'stride': [1, 2]}, grads=False)
case('conv1d', randn(2, 2, 3, 8), w1, None, {}, grads=False)
case('conv1d', x1, randn(4, 2, 3), None, {}, grads=False)
case('conv1d', randn(1, 3, 2), w1, None, {}, grads=False)
case('conv1d', x1, w1, randn(4, dtype=torch.float64), {}, grads=False)
case('conv1d', x1, w1, None, {'stride': [1, 1]}, grads=False)
xt, wt = randn(1, 4, 3, 3), randn(4, 2, 3, 3)
case('conv_transpose2d', xt, wt, None, {'stride': 2, 'output_padding': 2}, grads=False)
case('conv_transpose2d', xt, wt, None, {'output_padding': 1}, grads=False)
case('conv_transpose2d', randn(1, 3, 3, 3), wt, None, {}, grads=False)
case('conv_transpose2d', xt, wt, randn(3), {}, grads=False)
case('conv_transpose2d', xt, wt, None, {'padding': 3}, grads=False)
case('conv_transpose2d', xt, wt, None, {'groups': 3}, grads=False)
case('conv_transpose2d', randn(4, 3, 3, 3, 3), wt, None, {}, grads=False)
case('conv_transpose1d', randn(1, 4, 3), randn(4, 2, 3), None, {'padding': -1}, grads=False)


# Channels-last: the strides of the output (torch.channels_last inputs or weights).
def strides_case(fn, x, w, b, kwargs):
    out = FNS[fn](x, w, b, **kwargs)
    layouts.append({
        'fn': fn, 'kwargs': kwargs, 'dtype': str(x.dtype).replace('torch.', ''),
        'input': {'sizes': list(x.shape), 'strides': list(x.stride())},
        'weight': {'sizes': list(w.shape), 'strides': list(w.stride())},
        'bias': b is not None,
        'out': {'sizes': list(out.shape), 'strides': list(out.stride())},
    })


layouts = []
cl = torch.channels_last
for dtype in [torch.float32, torch.float64]:
    x = randn(2, 3, 5, 6, dtype=dtype)
    w = randn(4, 3, 3, 3, dtype=dtype)
    strides_case('conv2d', x.contiguous(memory_format=cl), w, randn(4, dtype=dtype), {'padding': 1})
    strides_case('conv2d', x, w.contiguous(memory_format=cl), None, {})
    strides_case('conv2d', x, w, None, {})
    strides_case('conv2d', x.permute(0, 1, 3, 2), w, None, {'stride': 2})
    strides_case('conv_transpose2d', randn(2, 4, 3, 3, dtype=dtype).contiguous(memory_format=cl), randn(4, 2, 2, 2, dtype=dtype), None, {'stride': 2})
    strides_case('conv1d', randn(2, 3, 7, dtype=dtype).transpose(1, 2).contiguous().transpose(1, 2), randn(4, 3, 2, dtype=dtype), None, {})

with open(OUT, 'w') as f:
    json.dump({'generated_by': 'tools/golden/gen_conv1d_padding_transpose.py', 'torch_version': torch.__version__, 'cases': cases, 'layouts': layouts}, f)
print('wrote', len(cases), 'cases and', len(layouts), 'layouts to', OUT)
