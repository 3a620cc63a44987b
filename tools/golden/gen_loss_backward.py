"""Golden fixture for the native softmax backward ops: direct calls of torch.ops.aten._softmax_backward_data /
_log_softmax_backward_data (dims, float32/float64, input_dtype), and first and second derivatives of softmax /
log_softmax (values and grad_fn names of the first-order grad built with create_graph=True); nll_loss_backward /
nll_loss2d_backward called directly, and nll_loss's first and second derivatives (NllLossBackward0,
NllLossBackwardBackward0) with weights, ignore_index, the three reductions and 1-d / 2-d / K-d targets.

Run: $PYTHON tools/golden/gen_loss_backward.py  ->  test/golden/loss_backward.json
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

# nll_loss_backward / nll_loss2d_backward called directly (total_weight from nll_loss_forward), and nll_loss's
# first and second derivatives through autograd: weights, ignore_index, reductions, 1-d / 2-d / K-d targets.
R = {'none': 0, 'mean': 1, 'sum': 2}
nll = []
for dt in ['float32', 'float64']:
    for shape, C in [((5,), 5), ((4, 3), 3), ((2, 3, 4, 5), 3)]:
        for red in ['none', 'mean', 'sum']:
            for weighted in [False, True]:
                for ignore in [-100, 1]:
                    x = torch.randn(shape, dtype=DT[dt]).log_softmax(0 if len(shape) == 1 else 1)
                    tshape = () if len(shape) == 1 else (shape[0],) + tuple(shape[2:])
                    t = torch.randint(0, C, tshape)
                    if t.dim() > 0:
                        t.view(-1)[0] = 1  # one ignored target when ignore_index is 1
                    w = torch.rand(C, dtype=DT[dt]) + 0.5 if weighted else None
                    fwd = torch.ops.aten.nll_loss2d_forward if len(shape) == 4 else torch.ops.aten.nll_loss_forward
                    bwd = torch.ops.aten.nll_loss2d_backward if len(shape) == 4 else torch.ops.aten.nll_loss_backward
                    out, total = fwd(x, t, w, R[red], ignore)
                    go = torch.randn(out.shape, dtype=DT[dt])
                    r = bwd(go, x, t, w, R[red], ignore, total)
                    nll.append({'op': bwd.__name__.split('.')[0], 'reduction': R[red], 'ignore_index': ignore, 'self': tj(x),
                                'target': [int(v) for v in t.reshape(-1).tolist()], 'target_sizes': list(t.shape),
                                'weight': None if w is None else tj(w), 'grad_output': tj(go), 'total_weight': tj(total), 'result': tj(r)})

nll_second = []
for shape, C in [((4, 3), 3), ((5,), 5), ((2, 3, 4, 5), 3), ((2, 3, 4), 3)]:
    for red in ['none', 'mean', 'sum']:
        x = torch.randn(shape, dtype=torch.float64).requires_grad_()
        tshape = () if len(shape) == 1 else (shape[0],) + tuple(shape[2:])
        t = torch.randint(0, C, tshape)
        w = torch.rand(C, dtype=torch.float64) + 0.5
        y = torch.nn.functional.nll_loss(x, t, w, reduction=red, ignore_index=0)
        go = torch.randn(y.shape, dtype=torch.float64, requires_grad=True)
        (gx,) = torch.autograd.grad(y, x, go, create_graph=True)
        v = torch.randn(shape, dtype=torch.float64)
        ggx, ggo = torch.autograd.grad(gx, (x, go), v, allow_unused=True, materialize_grads=True)
        nll_second.append({'reduction': red, 'x': tj(x), 'target': [int(v) for v in t.reshape(-1).tolist()],
                           'target_sizes': list(t.shape), 'weight': tj(w), 'grad_output': tj(go), 'v': tj(v),
                           'y_grad_fn': y.grad_fn.name(), 'gx': tj(gx), 'gx_grad_fn': gx.grad_fn.name(), 'ggx': tj(ggx), 'ggo': tj(ggo)})

with open(OUT, 'w') as f:
    json.dump({'generated_by': 'tools/golden/gen_loss_backward.py', 'torch_version': torch.__version__,
               'direct': direct, 'second': second, 'nll': nll, 'nll_second': nll_second}, f, indent=None)
    f.write('\n')
