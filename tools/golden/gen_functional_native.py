"""Golden fixture: torch.nn.functional calls that PyTorch routes to a native operator (batch_norm, group_norm,
pad modes, conv1d/conv2d with 'same'/'valid', conv_transpose2d, max_pool1d, adaptive_avg_pool2d): the output
values and the grad_fn name autograd records, so aten-ts's F.* must call the same operators.

Run: $PYTHON tools/golden/gen_functional_native.py  ->  test/golden/functional_native.json
"""
import json
import os

import torch
import torch.nn.functional as F

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'functional_native.json')


def t(*sizes, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(*sizes, generator=g, dtype=torch.float64)


cases = []


def case(name, fn, inputs, kwargs_js):
    """fn(*inputs) with inputs requiring grad; kwargs_js: what the JS call passes (names only, for the test)."""
    xs = [x.clone().requires_grad_(True) if isinstance(x, torch.Tensor) and x.is_floating_point() else x for x in inputs]
    y = fn(*xs)
    cases.append(
        {
            'name': name,
            'inputs': [{'shape': list(x.shape), 'values': x.detach().flatten().tolist()} for x in inputs],
            'call': kwargs_js,
            'shape': list(y.shape),
            'values': y.detach().flatten().tolist(),
            'grad_fn': y.grad_fn.name(),
        }
    )


case('batch_norm_train', lambda x, w, b: F.batch_norm(x, torch.zeros(3, dtype=torch.float64), torch.ones(3, dtype=torch.float64), w, b, training=True), [t(4, 3, 2, seed=1), t(3, seed=2), t(3, seed=3)], {'fn': 'batch_norm', 'training': True})
case('batch_norm_eval', lambda x, w, b: F.batch_norm(x, torch.zeros(3, dtype=torch.float64), torch.ones(3, dtype=torch.float64), w, b), [t(4, 3, 2, seed=4), t(3, seed=5), t(3, seed=6)], {'fn': 'batch_norm', 'training': False})
case('group_norm', lambda x, w, b: F.group_norm(x, 2, w, b), [t(2, 4, 3, seed=7), t(4, seed=8), t(4, seed=9)], {'fn': 'group_norm', 'num_groups': 2})
for mode in ('constant', 'reflect', 'replicate', 'circular'):
    case(f'pad_{mode}', lambda x, mode=mode: F.pad(x, [1, 2, 2, 1], mode=mode), [t(1, 2, 3, 4, seed=10)], {'fn': 'pad', 'pad': [1, 2, 2, 1], 'mode': mode})
case('conv1d_same', lambda x, w: F.conv1d(x, w, padding='same', dilation=2), [t(2, 3, 7, seed=11), t(4, 3, 4, seed=12)], {'fn': 'conv1d', 'padding': 'same', 'dilation': 2})
case('conv2d_same', lambda x, w: F.conv2d(x, w, padding='same'), [t(1, 2, 5, 5, seed=13), t(3, 2, 2, 3, seed=14)], {'fn': 'conv2d', 'padding': 'same'})
case('conv2d_valid', lambda x, w: F.conv2d(x, w, padding='valid'), [t(1, 2, 5, 5, seed=15), t(3, 2, 2, 3, seed=16)], {'fn': 'conv2d', 'padding': 'valid'})
case('conv_transpose2d', lambda x, w, b: F.conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1), [t(1, 2, 3, 3, seed=17), t(2, 3, 3, 3, seed=18), t(3, seed=19)], {'fn': 'conv_transpose2d', 'stride': 2, 'padding': 1, 'output_padding': 1})
case('max_pool1d', lambda x: F.max_pool1d(x, 3, stride=2, padding=1), [t(2, 3, 8, seed=20)], {'fn': 'max_pool1d', 'kernel_size': 3, 'stride': 2, 'padding': 1})
case('adaptive_avg_pool2d', lambda x: F.adaptive_avg_pool2d(x, [3, None]), [t(1, 2, 5, 4, seed=21)], {'fn': 'adaptive_avg_pool2d', 'output_size': [3, None]})
case('adaptive_avg_pool2d_odd', lambda x: F.adaptive_avg_pool2d(x, 3), [t(2, 5, 7, seed=22)], {'fn': 'adaptive_avg_pool2d', 'output_size': 3})

with open(OUT, 'w') as f:
    json.dump({'generated_by': 'tools/golden/gen_functional_native.py', 'torch_version': torch.__version__, 'cases': cases}, f)
    f.write('\n')
