"""Golden fixture for neural-network functions: softmax, log_softmax, nll_loss, cross_entropy (class indices and
probabilities, weights, ignore_index, label smoothing, reductions), mse_loss, l1_loss, binary_cross_entropy,
binary_cross_entropy_with_logits, layer_norm, dropout (values for a seed), and errors.

Run: $PYTHON tools/golden/gen_nn.py  ->  test/golden/nn.json
"""
import json
import os

import torch

from _encode import enc
import torch.nn.functional as F

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'nn.json')
NAMES = {getattr(torch, n): n for n in ['int64', 'float32', 'float64']}
seed = [100]


def spec(t):
    return {'dtype': NAMES[t.dtype], 'sizes': list(t.shape), 'values': [enc(x) for x in t.reshape(-1).tolist()]}


def randn(*shape, dtype=torch.float32):
    seed[0] += 1
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed[0]), dtype=dtype)


def randint(high, *shape):
    seed[0] += 1
    return torch.randint(0, high, shape, generator=torch.Generator().manual_seed(seed[0]))


cases = []


def case(fn, tensors, kwargs, call):
    entry = {'fn': fn, 'tensors': [None if t is None else spec(t) for t in tensors], 'kwargs': kwargs}
    try:
        entry['result'] = spec(call())
    except Exception as e:  # noqa: BLE001
        entry['error'] = str(e).split('\n')[0]
    cases.append(entry)


for shape, dim in [([2, 5], 1), ([2, 5], 0), ([3, 4, 2], -1), ([4], 0), ([2, 3], -1)]:
    for dt in (torch.float32, torch.float64):
        x = randn(*shape, dtype=dt) * 4
        case('softmax', [x], {'dim': dim}, lambda: F.softmax(x, dim))
        case('log_softmax', [x], {'dim': dim}, lambda: F.log_softmax(x, dim))
x = torch.tensor([[1.0, float('inf'), 2.0], [float('-inf'), 0.0, 1.0]])
case('softmax', [x], {'dim': 1}, lambda: F.softmax(x, 1))
case('log_softmax', [x], {'dim': 1}, lambda: F.log_softmax(x, 1))
xi = torch.tensor([1, 2, 3])
case('softmax', [xi], {'dim': 0}, lambda: F.softmax(xi, 0))
case('softmax', [xi], {'dim': 0, 'dtype': 'float64'}, lambda: F.softmax(xi, 0, dtype=torch.float64))

for red in ('mean', 'sum', 'none'):
    x = F.log_softmax(randn(4, 5), 1)
    t = randint(5, 4)
    case('nll_loss', [x, t], {'reduction': red}, lambda: F.nll_loss(x, t, reduction=red))
    w = randn(5).abs()
    case('nll_loss', [x, t, w], {'reduction': red}, lambda: F.nll_loss(x, t, weight=w, reduction=red))
    t2 = t.clone()
    t2[1] = -100
    case('nll_loss', [x, t2], {'reduction': red}, lambda: F.nll_loss(x, t2, reduction=red))
    x3 = F.log_softmax(randn(2, 3, 4), 1)
    t3 = randint(3, 2, 4)
    case('nll_loss', [x3, t3], {'reduction': red}, lambda: F.nll_loss(x3, t3, reduction=red))
    logits = randn(4, 5) * 2
    case('cross_entropy', [logits, t], {'reduction': red}, lambda: F.cross_entropy(logits, t, reduction=red))
    case('cross_entropy', [logits, t, w], {'reduction': red}, lambda: F.cross_entropy(logits, t, weight=w, reduction=red))
    case('cross_entropy', [logits, t2], {'reduction': red, 'label_smoothing': 0.1},
         lambda: F.cross_entropy(logits, t2, reduction=red, label_smoothing=0.1))
    case('cross_entropy', [logits, t, w], {'reduction': red, 'label_smoothing': 0.2},
         lambda: F.cross_entropy(logits, t, weight=w, reduction=red, label_smoothing=0.2))
    probs = F.softmax(randn(4, 5), 1)
    case('cross_entropy', [logits, probs], {'reduction': red}, lambda: F.cross_entropy(logits, probs, reduction=red))
    case('cross_entropy', [logits, probs], {'reduction': red, 'label_smoothing': 0.1},
         lambda: F.cross_entropy(logits, probs, reduction=red, label_smoothing=0.1))
    a, b = randn(3, 4), randn(3, 4)
    case('mse_loss', [a, b], {'reduction': red}, lambda: F.mse_loss(a, b, reduction=red))
    case('l1_loss', [a, b], {'reduction': red}, lambda: F.l1_loss(a, b, reduction=red))
    p = torch.sigmoid(randn(3, 4))
    y = (randn(3, 4) > 0).float()
    case('binary_cross_entropy', [p, y], {'reduction': red}, lambda: F.binary_cross_entropy(p, y, reduction=red))
    case('binary_cross_entropy_with_logits', [a, y], {'reduction': red},
         lambda: F.binary_cross_entropy_with_logits(a, y, reduction=red))
    pw = randn(4).abs()
    case('binary_cross_entropy_with_logits', [a, y, None, pw], {'reduction': red},
         lambda: F.binary_cross_entropy_with_logits(a, y, pos_weight=pw, reduction=red))
logits = randn(3, 5)
case('cross_entropy', [logits, torch.tensor([0, 7, 1])], {'reduction': 'mean'}, lambda: F.cross_entropy(logits, torch.tensor([0, 7, 1])))
case('nll_loss', [logits, torch.tensor([0, 1])], {'reduction': 'mean'}, lambda: F.nll_loss(logits, torch.tensor([0, 1])))
case('binary_cross_entropy', [torch.tensor([1.5]), torch.tensor([1.0])], {'reduction': 'mean'},
     lambda: F.binary_cross_entropy(torch.tensor([1.5]), torch.tensor([1.0])))
for shape, ns in [([2, 3, 4], [4]), ([2, 3, 4], [3, 4]), ([5, 6], [6])]:
    x = randn(*shape) * 3 + 1
    w, b = randn(*ns), randn(*ns)
    case('layer_norm', [x], {'normalized_shape': ns}, lambda: F.layer_norm(x, ns))
    case('layer_norm', [x, w, b], {'normalized_shape': ns}, lambda: F.layer_norm(x, ns, w, b))
x = randn(2, 3)
case('layer_norm', [x], {'normalized_shape': [2]}, lambda: F.layer_norm(x, [2]))
def seeded_dropout(x, p_):
    torch.manual_seed(7)  # dropout draws from the default generator
    return F.dropout(x, p_, True)


for p_ in (0.0, 0.3, 0.5, 1.0):
    x = randn(4, 8)
    case('dropout', [x], {'p': p_, 'seed': 7}, lambda: seeded_dropout(x, p_))

with open(OUT, 'w') as f:
    json.dump({'generated_by': 'tools/golden/gen_nn.py', 'torch_version': torch.__version__, 'cases': cases}, f)
print('wrote', len(cases), 'cases to', OUT)
