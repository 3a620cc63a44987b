"""Golden fixture for torch.nn modules: each layer's forward output (and input/parameter gradients for a given
output gradient) on small inputs, train and eval mode, after torch.manual_seed(0) then the constructor (so the
parameters are PyTorch's defaults); buffers after the forward calls (BatchNorm running statistics); the repr of
each module, state_dict keys, load_state_dict errors.

Run: $PYTHON tools/golden/gen_nn_modules.py  ->  test/golden/nn_modules.json
"""
import json
import os

import torch

from _encode import enc
import torch.nn as nn
import torch.nn.functional as F

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'nn_modules.json')
NAMES = {torch.float32: 'float32', torch.float64: 'float64', torch.int64: 'int64', torch.bool: 'bool'}


def spec(t):
    t = t.detach()
    return {'dtype': NAMES[t.dtype], 'sizes': list(t.shape), 'values': [enc(x) for x in t.reshape(-1).tolist()]}


SEED = [1000]


def randn(*shape):
    SEED[0] += 1
    return torch.randn(tuple(shape), generator=torch.Generator().manual_seed(SEED[0]))


def randint(high, *shape):
    SEED[0] += 1
    return torch.randint(0, high, shape, generator=torch.Generator().manual_seed(SEED[0]))


def rand(*shape):
    SEED[0] += 1
    return torch.rand(*shape, generator=torch.Generator().manual_seed(SEED[0]))


cases = []


def case(name, make, inputs, call=None, mode='train', grad=True, steps=1):
    torch.manual_seed(0)
    m = make()
    m.train(mode == 'train')
    xs = [x.clone().requires_grad_(grad and x.is_floating_point()) for x in inputs]
    call = call or (lambda m, *a: m(*a))
    torch.manual_seed(1)  # the dropout draws
    for _ in range(steps - 1):
        call(m, *[x.detach() for x in xs])
    out = call(m, *xs)
    outs = list(out) if isinstance(out, tuple) else [out]
    entry = {'name': name, 'mode': mode, 'steps': steps, 'inputs': [spec(x) for x in inputs], 'outputs': [None if o is None else spec(o) for o in outs]}
    if grad:
        gos = [randn(*o.shape) if o is not None and o.requires_grad else None for o in outs]
        pairs = [(o, g) for o, g in zip(outs, gos) if g is not None]
        torch.autograd.backward([o for o, _ in pairs], [g for _, g in pairs])
        entry['grad_outputs'] = [None if g is None else spec(g) for g in gos]
        entry['input_grads'] = [None if x.grad is None else spec(x.grad) for x in xs]
        entry['param_grads'] = [[k, spec(p.grad)] for k, p in m.named_parameters() if p.grad is not None]
    entry['buffers'] = [[k, spec(b)] for k, b in m.named_buffers()]
    cases.append(entry)


# Linear family
case('Linear(4, 3)', lambda: nn.Linear(4, 3), [randn(2, 4)])
case('Linear(4, 3) 3d input', lambda: nn.Linear(4, 3), [randn(2, 5, 4)])
case('Bilinear(2, 3, 4)', lambda: nn.Bilinear(2, 3, 4), [randn(5, 2), randn(5, 3)])
case('Identity()', lambda: nn.Identity(), [randn(2, 3)])
case('Flatten()', lambda: nn.Flatten(), [randn(2, 3, 2, 2)])
case('Unflatten(1, (2, 3))', lambda: nn.Unflatten(1, (2, 3)), [randn(2, 6)])
# convolutions
case('Conv1d(2, 4, 3)', lambda: nn.Conv1d(2, 4, 3), [randn(2, 2, 7)])
case("Conv1d(2, 4, 3, padding='same', padding_mode='reflect')", lambda: nn.Conv1d(2, 4, 3, padding='same', padding_mode='reflect'), [randn(1, 2, 6)])
case('Conv2d(1, 6, 5)', lambda: nn.Conv2d(1, 6, 5), [randn(2, 1, 8, 8)])
case('Conv2d(2, 4, 3, stride=2, padding=1, groups=2)', lambda: nn.Conv2d(2, 4, 3, stride=2, padding=1, groups=2), [randn(1, 2, 7, 6)])
case('Conv2d(2, 3, 3, dilation=2)', lambda: nn.Conv2d(2, 3, 3, dilation=2), [randn(1, 2, 7, 7)])
case("Conv2d(2, 3, 4, padding='same')", lambda: nn.Conv2d(2, 3, 4, padding='same'), [randn(1, 2, 5, 6)])
case("Conv2d(2, 3, 3, padding='valid')", lambda: nn.Conv2d(2, 3, 3, padding='valid'), [randn(1, 2, 5, 5)])
for mode in ['reflect', 'replicate', 'circular']:
    case(f"Conv2d(2, 3, 3, padding=(1, 2), padding_mode='{mode}')", lambda mode=mode: nn.Conv2d(2, 3, 3, padding=(1, 2), padding_mode=mode), [randn(1, 2, 4, 5)])
case('ConvTranspose2d(4, 2, 3, stride=2, padding=1, output_padding=1)', lambda: nn.ConvTranspose2d(4, 2, 3, stride=2, padding=1, output_padding=1), [randn(1, 4, 3, 3)])
case('ConvTranspose2d(4, 6, 2, groups=2, dilation=2)', lambda: nn.ConvTranspose2d(4, 6, 2, groups=2, dilation=2), [randn(2, 4, 3, 2)])
# pooling
case('MaxPool1d(2)', lambda: nn.MaxPool1d(2), [randn(2, 3, 7)])
case('MaxPool2d(2)', lambda: nn.MaxPool2d(2), [randn(1, 2, 5, 6)])
case('MaxPool2d(3, stride=2, padding=1)', lambda: nn.MaxPool2d(3, stride=2, padding=1), [randn(1, 2, 6, 6)])
case('AvgPool2d(2)', lambda: nn.AvgPool2d(2), [randn(1, 2, 4, 6)])
case('AdaptiveAvgPool2d((3, 2))', lambda: nn.AdaptiveAvgPool2d((3, 2)), [randn(2, 2, 5, 7)])
case('AdaptiveAvgPool2d(2)', lambda: nn.AdaptiveAvgPool2d(2), [randn(1, 3, 4, 4)])
# normalisation
case('BatchNorm1d(3)', lambda: nn.BatchNorm1d(3), [randn(4, 3)], steps=2)
case('BatchNorm1d(3) 3d', lambda: nn.BatchNorm1d(3), [randn(2, 3, 4)])
case('BatchNorm2d(3)', lambda: nn.BatchNorm2d(3), [randn(2, 3, 2, 3)], steps=3)
case('BatchNorm2d(3, momentum=None)', lambda: nn.BatchNorm2d(3, momentum=None), [randn(2, 3, 2, 3)], steps=3)
case('BatchNorm2d(3) eval', lambda: nn.BatchNorm2d(3), [randn(2, 3, 2, 3)], mode='eval')
case('BatchNorm2d(3, affine=False, track_running_stats=False)', lambda: nn.BatchNorm2d(3, affine=False, track_running_stats=False), [randn(2, 3, 2, 2)])
case('LayerNorm(4)', lambda: nn.LayerNorm(4), [randn(2, 3, 4)])
case('LayerNorm((3, 4), elementwise_affine=False)', lambda: nn.LayerNorm((3, 4), elementwise_affine=False), [randn(2, 3, 4)])
case('GroupNorm(2, 4)', lambda: nn.GroupNorm(2, 4), [randn(2, 4, 3)])
# dropout, embedding
case('Dropout(0.4)', lambda: nn.Dropout(0.4), [randn(4, 5)])
case('Dropout(0.4) eval', lambda: nn.Dropout(0.4), [randn(4, 5)], mode='eval')
case('Embedding(5, 3, padding_idx=1)', lambda: nn.Embedding(5, 3, padding_idx=1), [torch.tensor([[0, 1, 4], [1, 2, 2]])])
# activations
for nm, mk in [('ReLU()', nn.ReLU), ('LeakyReLU(0.2)', lambda: nn.LeakyReLU(0.2)), ('GELU()', nn.GELU), ("GELU(approximate='tanh')", lambda: nn.GELU(approximate='tanh')),
               ('SiLU()', nn.SiLU), ('Tanh()', nn.Tanh), ('Sigmoid()', nn.Sigmoid), ('Softmax(dim=1)', lambda: nn.Softmax(dim=1)), ('LogSoftmax(dim=-1)', lambda: nn.LogSoftmax(dim=-1))]:
    case(nm, mk, [randn(3, 4)])
# losses
case('CrossEntropyLoss()', lambda: nn.CrossEntropyLoss(), [randn(4, 3), torch.tensor([0, 2, 1, 2])])
case('CrossEntropyLoss(weight, ignore_index=1, label_smoothing=0.1)',
     lambda: nn.CrossEntropyLoss(weight=torch.tensor([0.2, 1.0, 3.0]), ignore_index=1, label_smoothing=0.1), [randn(4, 3), torch.tensor([0, 2, 1, 2])])
case("CrossEntropyLoss(reduction='none') 4d", lambda: nn.CrossEntropyLoss(reduction='none'), [randn(2, 3, 2, 2), randint(3, 2, 2, 2)])
case("NLLLoss(reduction='sum')", lambda: nn.NLLLoss(reduction='sum'), [randn(4, 3).log_softmax(1), torch.tensor([1, 0, 2, 2])])
case('MSELoss()', lambda: nn.MSELoss(), [randn(3, 4), randn(3, 4)])
case('L1Loss()', lambda: nn.L1Loss(), [randn(3, 4), randn(3, 4)])
case('SmoothL1Loss(beta=0.5)', lambda: nn.SmoothL1Loss(beta=0.5), [randn(3, 4), randn(3, 4)])
case("SmoothL1Loss(reduction='none')", lambda: nn.SmoothL1Loss(reduction='none'), [randn(3, 4), randn(3, 4)])
case('BCELoss()', lambda: nn.BCELoss(), [rand(3, 4), rand(3, 4)])
case('BCEWithLogitsLoss(pos_weight)', lambda: nn.BCEWithLogitsLoss(pos_weight=torch.tensor([1.0, 2.0, 0.5, 3.0])), [randn(3, 4), rand(3, 4)])
# attention
case('scaled_dot_product_attention', lambda: nn.Identity(), [randn(2, 3, 4), randn(2, 5, 4), randn(2, 5, 4)],
     call=lambda m, q, k, v: F.scaled_dot_product_attention(q, k, v))
case('scaled_dot_product_attention(is_causal=True)', lambda: nn.Identity(), [randn(2, 4, 4), randn(2, 4, 4), randn(2, 4, 4)],
     call=lambda m, q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True))
case('scaled_dot_product_attention(bool attn_mask, scale=0.3)', lambda: nn.Identity(), [randn(1, 3, 4), randn(1, 3, 4), randn(1, 3, 4), torch.tensor([[True, False, True], [True, True, False], [False, True, True]])],
     call=lambda m, q, k, v, mask: F.scaled_dot_product_attention(q, k, v, attn_mask=mask, scale=0.3))
case('MultiheadAttention(4, 2) self', lambda: nn.MultiheadAttention(4, 2), [randn(3, 2, 4)], call=lambda m, x: m(x, x, x))
case('MultiheadAttention(4, 2, batch_first=True) cross, key_padding_mask', lambda: nn.MultiheadAttention(4, 2, batch_first=True),
     [randn(2, 3, 4), randn(2, 5, 4), torch.tensor([[False, False, False, True, True], [False, False, False, False, False]])],
     call=lambda m, q, kv, kpm: m(q, kv, kv, key_padding_mask=kpm))
case('MultiheadAttention(4, 2) need_weights=False, causal', lambda: nn.MultiheadAttention(4, 2), [randn(3, 2, 4)],
     call=lambda m, x: m(x, x, x, need_weights=False, attn_mask=nn.Transformer.generate_square_subsequent_mask(3), is_causal=True))
case('TransformerEncoderLayer(4, 2, dim_feedforward=8, dropout=0.0)', lambda: nn.TransformerEncoderLayer(4, 2, dim_feedforward=8, dropout=0.0), [randn(3, 2, 4)])
case('TransformerEncoderLayer(4, 2, dim_feedforward=8, dropout=0.0, batch_first=True, norm_first=True, activation=gelu)',
     lambda: nn.TransformerEncoderLayer(4, 2, dim_feedforward=8, dropout=0.0, batch_first=True, norm_first=True, activation='gelu'), [randn(2, 3, 4)])
case('TransformerEncoder(layer, 2) src_key_padding_mask', lambda: nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, dim_feedforward=8, dropout=0.0, batch_first=True), 2, enable_nested_tensor=False),
     [randn(2, 3, 4), torch.tensor([[False, False, True], [False, False, False]])], call=lambda m, x, kpm: m(x, src_key_padding_mask=kpm))
case('TransformerDecoder(layer, 2, norm) causal tgt_mask, memory_key_padding_mask',
     lambda: nn.TransformerDecoder(nn.TransformerDecoderLayer(4, 2, dim_feedforward=8, dropout=0.0, batch_first=True), 2, nn.LayerNorm(4)),
     [randn(2, 3, 4), randn(2, 5, 4), torch.tensor([[False, False, False, True, True], [False, False, False, False, False]])],
     call=lambda m, t, mem, kpm: m(t, mem, tgt_mask=nn.Transformer.generate_square_subsequent_mask(3), memory_key_padding_mask=kpm))


# ---- repr, state_dict keys, load_state_dict errors ------------------------------------------------------


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.bn = nn.BatchNorm2d(6)
        self.pool = nn.MaxPool2d(2)
        self.fc1 = nn.Linear(16, 8)
        self.register_buffer('steps', torch.zeros(1))
        self.register_buffer('scratch', torch.zeros(2), persistent=False)
        self.head = nn.Sequential(nn.ReLU(), nn.Dropout(0.25), nn.Linear(8, 2))


reprs = {}
for name, make in [
    ('Net', Net),
    ('Linear', lambda: nn.Linear(784, 128)),
    ('Linear bias=False', lambda: nn.Linear(3, 2, bias=False)),
    ('Bilinear', lambda: nn.Bilinear(2, 3, 4)),
    ('Conv2d', lambda: nn.Conv2d(1, 6, 5)),
    ('Conv2d all', lambda: nn.Conv2d(4, 6, (3, 5), stride=(2, 1), padding=(1, 2), dilation=2, groups=2, bias=False, padding_mode='reflect')),
    ('Conv2d same', lambda: nn.Conv2d(2, 3, 3, padding='same')),
    ('Conv1d', lambda: nn.Conv1d(2, 3, 3, stride=2)),
    ('ConvTranspose2d', lambda: nn.ConvTranspose2d(4, 2, 3, stride=2, padding=1, output_padding=1)),
    ('MaxPool1d', lambda: nn.MaxPool1d(2)),
    ('MaxPool2d', lambda: nn.MaxPool2d(3, stride=2, padding=1)),
    ('AvgPool2d', lambda: nn.AvgPool2d(2)),
    ('AdaptiveAvgPool2d', lambda: nn.AdaptiveAvgPool2d((3, 2))),
    ('BatchNorm1d momentum None', lambda: nn.BatchNorm1d(3, momentum=None)),
    ('LayerNorm', lambda: nn.LayerNorm(4)),
    ('LayerNorm 2d no affine', lambda: nn.LayerNorm((3, 4), eps=1e-6, elementwise_affine=False)),
    ('GroupNorm', lambda: nn.GroupNorm(2, 4)),
    ('Dropout', lambda: nn.Dropout()),
    ('Embedding', lambda: nn.Embedding(10, 3, padding_idx=0)),
    ('Activations', lambda: nn.Sequential(nn.ReLU(), nn.ReLU(inplace=True), nn.LeakyReLU(), nn.LeakyReLU(0.2, inplace=True), nn.GELU(), nn.SiLU(), nn.Tanh(), nn.Sigmoid(), nn.Softmax(dim=1), nn.LogSoftmax(), nn.Identity(), nn.Flatten(), nn.Unflatten(1, (2, 5)))),
    ('Losses', lambda: nn.ModuleList([nn.CrossEntropyLoss(), nn.NLLLoss(), nn.MSELoss(), nn.L1Loss(), nn.SmoothL1Loss(), nn.BCELoss(), nn.BCEWithLogitsLoss()])),
    ('ModuleList repeated', lambda: nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 2), nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 2)])),
    ('ModuleDict', lambda: nn.ModuleDict({'a': nn.Linear(2, 3), 'b': nn.ReLU()})),
    ('Empty ModuleList', lambda: nn.ModuleList()),
    ('MultiheadAttention', lambda: nn.MultiheadAttention(4, 2)),
    ('TransformerEncoder', lambda: nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, dim_feedforward=8), 2, enable_nested_tensor=False)),
]:
    m = make()
    reprs[name] = {'repr': repr(m), 'state_dict_keys': list(m.state_dict().keys()), 'named_parameters': [k for k, _ in m.named_parameters()],
                   'named_buffers': [k for k, _ in m.named_buffers()], 'named_modules': [k for k, _ in m.named_modules()]}

errors = {}
net = Net()
sd = net.state_dict()
bad = dict(sd)
del bad['bn.running_var']
del bad['fc1.bias']
bad['fc1.weight'] = torch.zeros(3, 3)
bad['extra'] = torch.zeros(1)
bad['head.5.weight'] = torch.zeros(1)
bad['bn.foo'] = torch.zeros(1)
for label, d in [('mixed', bad), ('missing only', {k: v for k, v in sd.items() if k != 'conv1.bias'})]:
    try:
        Net().load_state_dict(d)
        errors[label] = None
    except RuntimeError as e:
        errors[label] = str(e)
try:
    Net().load_state_dict({**sd, 'fc1.weight': torch.zeros(2, 2)}, strict=False)
except RuntimeError as e:
    errors['size mismatch non-strict'] = str(e)
r = Net().load_state_dict({k: v for k, v in sd.items() if k != 'conv1.bias'} | {'zzz': torch.zeros(1)}, strict=False)
errors['non-strict result'] = {'missing_keys': r.missing_keys, 'unexpected_keys': r.unexpected_keys}
p = nn.Parameter(torch.tensor([1.0, 2.0]))

with open(OUT, 'w') as f:
    json.dump({'generated_by': 'tools/golden/gen_nn_modules.py', 'torch_version': torch.__version__, 'cases': cases, 'reprs': reprs, 'errors': errors,
               'parameter_repr': repr(p)}, f, separators=(',', ':'))
    f.write('\n')
print('wrote', OUT, os.path.getsize(OUT))
