"""Golden fixture for torch.nn default initialisation: after torch.manual_seed(seed), each layer's state_dict
(every parameter and buffer, in order) exactly as PyTorch initialises it, as base64 of the little-endian
raw bytes (float32 / int64) so the LeNet layers fit; plus nn.init functions on fresh tensors.

Run: $PYTHON tools/golden/gen_nn_init.py  ->  test/golden/nn_init.json
"""
import base64
import json
import math
import os

import torch
import torch.nn as nn

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'nn_init.json')
NAMES = {torch.float32: 'float32', torch.float64: 'float64', torch.int64: 'int64'}


def raw(t):
    t = t.detach().contiguous()
    return {'dtype': NAMES[t.dtype], 'sizes': list(t.shape), 'b64': base64.b64encode(t.numpy().tobytes()).decode('ascii')}


# name -> constructor; the TypeScript test builds the same layer from the same name.
LAYERS = [
    ('Linear(4, 3)', lambda: nn.Linear(4, 3)),
    ('Linear(4, 3, bias=False)', lambda: nn.Linear(4, 3, bias=False)),
    ('Bilinear(2, 3, 4)', lambda: nn.Bilinear(2, 3, 4)),
    ('Conv1d(2, 4, 3)', lambda: nn.Conv1d(2, 4, 3)),
    ('Conv2d(2, 4, 3, groups=2)', lambda: nn.Conv2d(2, 4, 3, groups=2)),
    ('Conv2d(3, 2, (2, 3), bias=False)', lambda: nn.Conv2d(3, 2, (2, 3), bias=False)),
    ('ConvTranspose2d(4, 2, 3, stride=2)', lambda: nn.ConvTranspose2d(4, 2, 3, stride=2)),
    ('ConvTranspose2d(4, 6, 2, groups=2)', lambda: nn.ConvTranspose2d(4, 6, 2, groups=2)),
    ('Embedding(5, 3, padding_idx=1)', lambda: nn.Embedding(5, 3, padding_idx=1)),
    ('LayerNorm(4)', lambda: nn.LayerNorm(4)),
    ('GroupNorm(2, 4)', lambda: nn.GroupNorm(2, 4)),
    ('BatchNorm1d(3)', lambda: nn.BatchNorm1d(3)),
    ('BatchNorm2d(3)', lambda: nn.BatchNorm2d(3)),
    ('MultiheadAttention(4, 2)', lambda: nn.MultiheadAttention(4, 2)),
    ('MultiheadAttention(8, 2, add_bias_kv=True, kdim=6, vdim=5)', lambda: nn.MultiheadAttention(8, 2, add_bias_kv=True, kdim=6, vdim=5)),
    ('MultiheadAttention(8, 2, bias=False, add_bias_kv=True)', lambda: nn.MultiheadAttention(8, 2, bias=False, add_bias_kv=True)),
    ('TransformerEncoderLayer(4, 2, dim_feedforward=8)', lambda: nn.TransformerEncoderLayer(4, 2, dim_feedforward=8)),
    ('TransformerEncoder(TransformerEncoderLayer(4, 2, dim_feedforward=8), 2)',
     lambda: nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, dim_feedforward=8), 2, enable_nested_tensor=False)),
    ('LeNet', lambda: nn.Sequential(nn.Conv2d(1, 6, 5), nn.Conv2d(6, 16, 5), nn.Linear(256, 120), nn.Linear(120, 84), nn.Linear(84, 10))),
]

layers = []
for name, make in LAYERS:
    torch.manual_seed(0)
    m = make()
    layers.append({'name': name, 'state_dict': [[k, raw(v)] for k, v in m.state_dict().items()]})

INITS = []


def init_case(name, shape, fn):
    torch.manual_seed(0)
    t = torch.empty(*shape)
    fn(t)
    INITS.append({'name': name, 'value': raw(t)})


init_case('uniform_(-2, 3)', (3, 4), lambda t: nn.init.uniform_(t, -2, 3))
init_case('normal_(1, 0.5)', (3, 4), lambda t: nn.init.normal_(t, 1, 0.5))
init_case('constant_(0.25)', (2, 3), lambda t: nn.init.constant_(t, 0.25))
init_case('ones_', (2, 3), nn.init.ones_)
init_case('zeros_', (2, 3), nn.init.zeros_)
init_case('xavier_uniform_', (5, 3, 2), nn.init.xavier_uniform_)
init_case('xavier_normal_(gain=2)', (5, 3), lambda t: nn.init.xavier_normal_(t, gain=2))
init_case('kaiming_uniform_', (4, 6), nn.init.kaiming_uniform_)
init_case("kaiming_uniform_(a=0.1, mode='fan_out', nonlinearity='relu')", (4, 6),
          lambda t: nn.init.kaiming_uniform_(t, a=0.1, mode='fan_out', nonlinearity='relu'))
init_case("kaiming_normal_(mode='fan_out')", (4, 6, 3), lambda t: nn.init.kaiming_normal_(t, mode='fan_out'))
init_case('trunc_normal_', (40,), nn.init.trunc_normal_)
init_case('trunc_normal_(mean=1, std=2, a=0, b=3)', (40,), lambda t: nn.init.trunc_normal_(t, mean=1, std=2, a=0, b=3))
init_case('trunc_normal_(a=1, b=3)', (40,), lambda t: nn.init.trunc_normal_(t, a=1, b=3))
# Every parameter by keyword, and positional and keyword mixed (test/nn/init.test.ts passes them as options).
init_case('uniform_(a=-0.5, b=2)', (3, 4), lambda t: nn.init.uniform_(t, a=-0.5, b=2))
init_case('uniform_(-0.5, b=2)', (3, 4), lambda t: nn.init.uniform_(t, -0.5, b=2))
init_case('normal_(mean=1, std=0.5)', (3, 4), lambda t: nn.init.normal_(t, mean=1, std=0.5))
init_case('constant_(val=0.25)', (2, 3), lambda t: nn.init.constant_(t, val=0.25))
init_case('kaiming_uniform_(sqrt(5)) positional', (4, 6), lambda t: nn.init.kaiming_uniform_(t, 5 ** 0.5))
init_case("kaiming_uniform_(0.1, 'fan_out', 'relu') positional", (4, 6),
          lambda t: nn.init.kaiming_uniform_(t, 0.1, 'fan_out', 'relu'))
init_case('xavier_uniform_(gain=2)', (5, 3), lambda t: nn.init.xavier_uniform_(t, gain=2))
init_case('orthogonal_', (4, 6), nn.init.orthogonal_)
init_case('orthogonal_(gain=2) tall', (6, 3), lambda t: nn.init.orthogonal_(t, gain=2))
init_case('orthogonal_ 3d', (3, 2, 2), nn.init.orthogonal_)

gains = {n: nn.init.calculate_gain(n) for n in ['linear', 'conv2d', 'sigmoid', 'tanh', 'relu', 'leaky_relu', 'selu']}
gains['leaky_relu(0.2)'] = nn.init.calculate_gain('leaky_relu', 0.2)
fans = {str(s): list(nn.init._calculate_fan_in_and_fan_out(torch.empty(*s))) for s in [(3, 4), (6, 2, 5, 5), (2, 3, 4)]}

with open(OUT, 'w') as f:
    json.dump({'generated_by': 'tools/golden/gen_nn_init.py', 'torch_version': torch.__version__,
               'layers': layers, 'inits': INITS, 'gains': gains, 'fans': fans}, f, separators=(',', ':'))
    f.write('\n')
print('wrote', OUT, os.path.getsize(OUT))
