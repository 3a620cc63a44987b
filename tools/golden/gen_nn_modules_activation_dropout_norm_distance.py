"""Golden fixture for the nn modules over the wider nn.functional: activations (Softmin,
LogSigmoid, Softsign, Tanhshrink, Threshold, Softshrink, Hardshrink), Dropout2d/3d, AlphaDropout,
FeatureAlphaDropout, RMSNorm, LocalResponseNorm, PairwiseDistance, CosineSimilarity,
TripletMarginWithDistanceLoss: each module's repr and parameter names, its forward output and input / parameter
gradients for a given output gradient, after torch.manual_seed(0) then the constructor, and manual_seed(1)
before the forward (the dropout draws).

Run: $PYTHON tools/golden/gen_nn_modules_activation_dropout_norm_distance.py  ->  test/golden/nn_modules_activation_dropout_norm_distance.json
"""
import json
import os

import torch
import torch.nn as nn

from _encode import enc

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'nn_modules_activation_dropout_norm_distance.json')


def spec(t):
    t = t.detach()
    return {'sizes': list(t.shape), 'values': [enc(x) for x in t.reshape(-1).tolist()]}


def randn(seed, *shape):
    return torch.randn(shape, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)


cases = []


def case(name, make, inputs, mode='train'):
    torch.manual_seed(0)
    m = make()
    m.train(mode == 'train')
    xs = [x.clone().requires_grad_(True) for x in inputs]
    torch.manual_seed(1)
    out = m(*xs)
    go = randn(99, *out.shape)
    out.backward(go)
    cases.append({'name': name, 'mode': mode, 'repr': repr(m), 'parameters': [k for k, _ in m.named_parameters()],
                  'inputs': [spec(x) for x in inputs], 'output': spec(out), 'grad_output': spec(go),
                  'input_grads': [spec(x.grad) for x in xs],
                  'param_grads': [[k, spec(p.grad)] for k, p in m.named_parameters() if p.grad is not None]})


x = randn(1, 2, 3, 4)
case('Softmin(dim=1)', lambda: nn.Softmin(dim=1), [x])
case('LogSigmoid()', lambda: nn.LogSigmoid(), [x])
case('Softsign()', lambda: nn.Softsign(), [x])
case('Tanhshrink()', lambda: nn.Tanhshrink(), [x])
case('Threshold(0.1, 20)', lambda: nn.Threshold(0.1, 20), [x])
case('Softshrink()', lambda: nn.Softshrink(), [x])
case('Hardshrink(0.3)', lambda: nn.Hardshrink(0.3), [x])
x5 = randn(2, 2, 3, 2, 2, 2)
case('Dropout2d()', lambda: nn.Dropout2d(), [randn(3, 2, 3, 2, 2)])
case('Dropout2d(0.3) eval', lambda: nn.Dropout2d(0.3), [randn(3, 2, 3, 2, 2)], mode='eval')
case('Dropout3d(0.25)', lambda: nn.Dropout3d(0.25), [x5])
case('Dropout3d() unbatched', lambda: nn.Dropout3d(), [randn(4, 3, 2, 2, 2)])
case('AlphaDropout(0.2)', lambda: nn.AlphaDropout(0.2), [randn(5, 4, 6)])
case('FeatureAlphaDropout(0.4)', lambda: nn.FeatureAlphaDropout(0.4), [randn(6, 3, 4, 2)])
case('RMSNorm(4)', lambda: nn.RMSNorm(4), [x])
case('RMSNorm([3, 4], eps=1e-3, elementwise_affine=False)', lambda: nn.RMSNorm([3, 4], eps=1e-3, elementwise_affine=False), [x])
case('LocalResponseNorm(2)', lambda: nn.LocalResponseNorm(2), [randn(7, 2, 5, 3)])
case('LocalResponseNorm(3, alpha=0.01, beta=0.5, k=2.0) 5d', lambda: nn.LocalResponseNorm(3, alpha=0.01, beta=0.5, k=2.0), [randn(8, 2, 4, 2, 3, 2)])
case('PairwiseDistance()', lambda: nn.PairwiseDistance(), [randn(9, 3, 4), randn(10, 3, 4)])
case('CosineSimilarity(dim=0)', lambda: nn.CosineSimilarity(dim=0), [randn(9, 3, 4), randn(10, 3, 4)])
case('TripletMarginWithDistanceLoss()', lambda: nn.TripletMarginWithDistanceLoss(), [randn(11, 3, 4), randn(12, 3, 4), randn(13, 3, 4)])
case("TripletMarginWithDistanceLoss(margin=2.0, swap=True, reduction='none')",
     lambda: nn.TripletMarginWithDistanceLoss(margin=2.0, swap=True, reduction='none'), [randn(11, 3, 4), randn(12, 3, 4), randn(13, 3, 4)])

with open(OUT, 'w') as f:
    json.dump({'generated_by': 'tools/golden/gen_nn_modules_activation_dropout_norm_distance.py', 'torch_version': torch.__version__, 'cases': cases}, f,
              separators=(',', ':'))
    f.write('\n')
print('wrote', OUT, os.path.getsize(OUT))
