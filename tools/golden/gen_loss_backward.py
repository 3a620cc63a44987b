"""Golden fixture for the native softmax backward ops: direct calls of torch.ops.aten._softmax_backward_data /
_log_softmax_backward_data (dims, float32/float64, input_dtype), and first and second derivatives of softmax /
log_softmax (values and grad_fn names of the first-order grad built with create_graph=True).

Run: /tmp/tv/bin/python tools/golden/gen_loss_backward.py  ->  test/golden/loss_backward.json
"""
import json
import os

import torch

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'loss_backward.json')
torch.manual_seed(0)
DT = {'float32': torch.float32, 'float64': torch.float64}


def tj(t):
    t = t.detach()
    return {'dtype': str(t.dtype).replace('torch.', ''), 'sizes': list(t.shape), 'values': [float(x) for x in t.reshape(-1).tolist()]}


direct = []
for op in ['_softmax_backward_data', '_log_softmax_backward_data']:
    for dt in ['float32', 'float64']:
        for sizes, dim in [((4, 5), 1), ((4, 5), 0), ((2, 3, 4), -1), ((2, 3, 4), 1), ((), 0)]:
            x = torch.randn(sizes, dtype=DT[dt])
            out = torch.softmax(x, dim) if op == '_softmax_backward_data' else torch.log_softmax(x, dim)
            g = torch.randn(sizes, dtype=DT[dt])
            r = getattr(torch.ops.aten, op)(g, out, dim, DT[dt])
            direct.append({'op': op, 'dim': dim, 'input_dtype': dt, 'grad_output': tj(g), 'output': tj(out), 'result': tj(r)})

second = []
for fn in ['softmax', 'log_softmax']:
    for sizes, dim in [((3, 4), 1), ((2, 3, 4), 0)]:
        x = torch.randn(sizes, dtype=torch.float64, requires_grad=True)
        y = getattr(torch, fn)(x, dim)
        go = torch.randn(sizes, dtype=torch.float64, requires_grad=True)
        (gx,) = torch.autograd.grad(y, x, go, create_graph=True)
        v = torch.randn(sizes, dtype=torch.float64)
        ggx, ggo = torch.autograd.grad(gx, (x, go), v)
        second.append({'fn': fn, 'dim': dim, 'x': tj(x), 'grad_output': tj(go), 'v': tj(v), 'y_grad_fn': y.grad_fn.name(),
                       'gx': tj(gx), 'gx_grad_fn': gx.grad_fn.name(), 'ggx': tj(ggx), 'ggo': tj(ggo)})

with open(OUT, 'w') as f:
    json.dump({'generated_by': 'tools/golden/gen_loss_backward.py', 'torch_version': torch.__version__,
               'direct': direct, 'second': second}, f, indent=None)
    f.write('\n')
