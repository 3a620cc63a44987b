"""The autograd semantics golden, broadcast gradients (reduced back to the input shape, alpha) and the dtypes of gradients.

Part of tools/golden/gen_autograd_semantics.py (which writes test/golden/autograd_semantics.json); replayed by
test/autograd/semantics_broadcast.test.ts. Mirrors the behaviour of PyTorch 2.13's torch/csrc/autograd.
"""
import torch

from autograd_semantics.common import scenario, T, leaf


@scenario
def broadcast_add():
    a = leaf([[1.0], [2.0], [3.0]])
    b = leaf([1.0, 2.0, 3.0, 4.0])
    y = a + b
    y.sum().backward()
    return {'y_sizes': list(y.shape), 'a': T(a.grad), 'b': T(b.grad)}


@scenario
def broadcast_mul_scalar_tensor():
    a = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    s = leaf(2.0)
    (a * s).sum().backward()
    return {'a': T(a.grad), 's': T(s.grad)}


@scenario
def broadcast_leading_dims():
    a = leaf([1.0, 2.0])
    b = leaf([[[1.0, 1.0]], [[2.0, 2.0]]])
    (a * b).backward(torch.ones(2, 1, 2))
    return {'a': T(a.grad), 'b': T(b.grad)}


@scenario
def broadcast_alpha():
    a = leaf([1.0, 2.0])
    b = leaf([[1.0], [2.0]])
    torch.add(a, b, alpha=3).sum().backward()
    return {'a': T(a.grad), 'b': T(b.grad)}


@scenario
def grad_dtypes():
    x = leaf([1.0, 2.0])
    d = torch.tensor([3.0, 4.0], dtype=torch.float64)
    y = x * d
    y.sum().backward()
    out = {'y_dtype': str(y.dtype), 'x_grad': T(x.grad)}
    w = leaf([1.0, 2.0], torch.float64)
    z = x + w
    z.sum().backward()
    out['x_grad2'] = T(x.grad)
    out['w_grad'] = T(w.grad)
    h = leaf([1.0, 2.0])
    (h * 2.5).sum().backward()
    out['h'] = T(h.grad)
    return out
