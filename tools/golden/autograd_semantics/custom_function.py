"""The autograd semantics golden, custom torch.autograd.Function (saved tensors, needs_input_grad, wrong gradient counts and shapes) and out= with autograd.

Part of tools/golden/gen_autograd_semantics.py (which writes test/golden/autograd_semantics.json); replayed by
test/autograd/semantics_custom_function.test.ts. Mirrors the behaviour of PyTorch 2.13's torch/csrc/autograd.
"""
import torch

from autograd_semantics.common import scenario, T, name, nf, err, leaf


class ScaledExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        r = x.exp() * k
        ctx.save_for_backward(r)
        ctx.k = k
        return r

    @staticmethod
    def backward(ctx, g):
        (r,) = ctx.saved_tensors
        return g * r, None


class TwoGrads(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g, g


class WrongShape(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g[:1]


class NoBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.seen = list(ctx.needs_input_grad)
        return x.clone()


class SavesInput(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 1

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * x


@scenario
def custom_function_basic():
    x = leaf([1.0, 2.0])
    y = ScaledExp.apply(x, 2.0)
    out = {'grad_fn': name(y.grad_fn), 'next': nf(y.grad_fn), 'y': T(y), 'requires_grad': y.requires_grad}
    y.sum().backward()
    out['grad'] = T(x.grad)
    with torch.no_grad():
        out['no_grad'] = ScaledExp.apply(x, 1.0).requires_grad
    out['plain_input'] = ScaledExp.apply(torch.tensor([1.0]), 1.0).requires_grad
    return out


@scenario
def custom_function_errors():
    x = leaf([1.0, 2.0])
    n = NoBackward.apply(x)
    return {
        'count': err(lambda: TwoGrads.apply(x).sum().backward()),
        'shape': err(lambda: WrongShape.apply(x).sum().backward()),
        'no_backward': err(lambda: NoBackward.apply(x).sum().backward()),
        'grad_fn': name(n.grad_fn),
    }


@scenario
def custom_function_saved_version():
    a = leaf([1.0, 2.0])
    b = a * 1
    c = SavesInput.apply(b)
    b.add_(1)
    return {'error': err(lambda: c.sum().backward())}


# ---- out= -----------------------------------------------------------------------------------------------------


@scenario
def out_with_requires_grad():
    x = leaf([1.0, 2.0])
    o = torch.empty(2)
    out = {}
    out['add'] = err(lambda: torch.add(x, 1, out=o))
    out['mul'] = err(lambda: torch.mul(x, x, out=o))
    out['exp'] = err(lambda: torch.exp(x, out=o))
    out['sum'] = err(lambda: torch.sum(x, 0, out=torch.empty(())))
    with torch.no_grad():
        torch.add(x, 1, out=o)
    out['no_grad'] = [T(o), o.requires_grad]
    out['plain'] = err(lambda: T(torch.add(torch.ones(2), 1, out=o)))
    out['out_requires_grad'] = err(lambda: torch.add(torch.ones(2), 1, out=leaf([0.0, 0.0])))
    return out
