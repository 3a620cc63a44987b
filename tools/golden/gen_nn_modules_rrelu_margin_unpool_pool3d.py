"""Golden fixture for RReLU (training draws and eval),
MultiMarginLoss, MultiLabelMarginLoss, MaxUnpool1d/2d/3d, MaxPool3d, AvgPool3d, AdaptiveMaxPool3d: each module's
repr, its forward output and float64 input gradients for a given output gradient, after torch.manual_seed(0)
then the constructor, and manual_seed(1) before the forward (RReLU's draws). Integer inputs (targets, indices)
carry dtype int64 and get no gradient.

Run: $PYTHON tools/golden/gen_nn_modules_rrelu_margin_unpool_pool3d.py  ->  test/golden/nn_modules_rrelu_margin_unpool_pool3d.json
"""
import json
import os

import torch
import torch.nn as nn

from _encode import enc

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'nn_modules_rrelu_margin_unpool_pool3d.json')


def spec(t):
    t = t.detach()
    return {'sizes': list(t.shape), 'dtype': 'int64' if t.dtype == torch.int64 else 'float64',
            'values': [enc(x) for x in t.reshape(-1).tolist()]}


def randn(seed, *shape):
    return torch.randn(shape, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)


cases = []


def case(name, make, inputs, mode='train'):
    torch.manual_seed(0)
    m = make()
    m.train(mode == 'train')
    xs = [x.clone().requires_grad_(x.is_floating_point()) for x in inputs]
    torch.manual_seed(1)
    out = m(*xs)
    go = randn(99, *out.shape)
    out.backward(go)
    cases.append({'name': name, 'mode': mode, 'repr': repr(m), 'inputs': [spec(x) for x in inputs], 'output': spec(out),
                  'grad_output': spec(go), 'input_grads': [spec(x.grad) if x.grad is not None else None for x in xs]})


x = randn(1, 2, 3, 4)
case('RReLU()', lambda: nn.RReLU(), [x])
case('RReLU(0.1, 0.3) eval', lambda: nn.RReLU(0.1, 0.3), [x], mode='eval')
t = torch.tensor([1, 0, 3], dtype=torch.int64)
case('MultiMarginLoss()', lambda: nn.MultiMarginLoss(), [randn(2, 3, 4), t])
case("MultiMarginLoss(p=2, margin=0.5, weight, reduction='none')",
     lambda: nn.MultiMarginLoss(p=2, margin=0.5, weight=torch.tensor([1.0, 2.0, 0.5, 1.5], dtype=torch.float64), reduction='none'),
     [randn(2, 3, 4), t])
case('MultiLabelMarginLoss()', lambda: nn.MultiLabelMarginLoss(),
     [randn(3, 2, 4), torch.tensor([[3, 0, -1, 1], [1, 2, 3, -1]], dtype=torch.int64)])
pooled, idx = nn.functional.max_pool1d(randn(4, 2, 3, 6), 2, return_indices=True)
case('MaxUnpool1d(2)', lambda: nn.MaxUnpool1d(2), [pooled, idx])
pooled, idx = nn.functional.max_pool2d(randn(5, 1, 2, 4, 4), 2, return_indices=True)
case('MaxUnpool2d(2, stride=2)', lambda: nn.MaxUnpool2d(2, stride=2), [pooled, idx])
pooled, idx = nn.functional.max_pool3d(randn(6, 1, 2, 4, 4, 4), 2, return_indices=True)
case('MaxUnpool3d(2)', lambda: nn.MaxUnpool3d(2), [pooled, idx])
case('MaxPool3d(2, stride=1, padding=1)', lambda: nn.MaxPool3d(2, stride=1, padding=1), [randn(7, 1, 2, 3, 3, 3)])
case('AvgPool3d((2, 1, 2), count_include_pad=False)', lambda: nn.AvgPool3d((2, 1, 2), padding=(1, 0, 1), count_include_pad=False),
     [randn(8, 2, 3, 3, 4)])
case('AdaptiveMaxPool3d((2, 1, 3))', lambda: nn.AdaptiveMaxPool3d((2, 1, 3)), [randn(9, 1, 2, 3, 4, 5)])

with open(OUT, 'w') as f:
    json.dump({'generated_by': 'tools/golden/gen_nn_modules_rrelu_margin_unpool_pool3d.py', 'torch_version': torch.__version__, 'cases': cases}, f,
              separators=(',', ':'))
    f.write('\n')
print('wrote', OUT, os.path.getsize(OUT))
