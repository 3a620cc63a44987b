"""Golden fixture for the activations leaky_relu, elu, selu, celu, softplus, hardtanh, hardswish,
hardsigmoid, mish, relu6, log_sigmoid (functional, in-place, out=) and their backward operators: values in
float32 and float64, gradients and grad_fn names, dtype errors, Meta shapes (format: tools/golden/opcase.py).

Run: $PYTHON tools/golden/gen_activation.py  ->  test/golden/activation.json
"""
import os

from opcase import F32, G, G32, M, T, Cases

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'activation.json')
c = Cases()
W = dict(lo=-6.0, hi=6.0)


def L(*sizes):
    n = 1
    for s in sizes:
        n *= s
    return T(*sizes, dtype='int64', values=list(range(-n // 2, n - n // 2)))


ACTS = [
    ('leaky_relu', [], [[0.2]]),
    ('elu', [], [[0.5, 2.0, 1.5]]),
    ('selu', [], None),
    ('celu', [], [[0.7]]),
    ('softplus', [], [[2.0, 3.0], [0.5, 1.5]]),
    ('hardtanh', [], [[-0.5, 2.5]]),
    ('hardswish', [], None),
    ('hardsigmoid', [], None),
    ('mish', [], None),
    ('relu6', [], None),
    ('log_sigmoid', [], None),
]
for name, _, extra in ACTS:
    fn = f'torch._C._nn.{name}' if name in ('leaky_relu', 'elu', 'softplus', 'hardtanh', 'hardswish', 'hardsigmoid',
                                               'log_sigmoid') else f'torch.{name}'
    fn = 'torch.nn.functional.relu6' if name == 'relu6' else ('torch._C._nn.mish' if name == 'mish' else fn)
    c.C(name, [G(3, 8, **W)], fn=fn)
    c.C(name, [G32(2, 5, **W)], fn=fn)
    for e in extra or []:
        c.C(name, [G(3, 4, **W), *e], fn=fn)
    c.C(name, [L(2, 3)], fn=fn)
    c.C(name, [M(2, 3)], fn=fn, meta=True)
# in-place variants (the values of self after the call) and their grad_fn (LeakyReluBackward1, EluBackward1, ...)
for name, args in [('leaky_relu_', [0.2]), ('elu_', [0.5, 2.0, 1.5]), ('selu_', []), ('celu_', [0.7]), ('hardtanh_', [-0.5, 2.5]),
                   ('hardswish_', []), ('hardsigmoid_', []), ('mish_', []), ('relu6_', [])]:
    c.C(name, [T(3, 4, **W), *args], fn=f'torch.ops.aten.{name}.default', after=[0])
c.C('celu', [T(3, 4), 0.0], fn='torch.celu')
c.C('hardtanh', [T(2, 3, dtype='bool', values=[True, False] * 3)], fn='torch._C._nn.hardtanh')
# backward operators
g, x = T(3, 4), T(3, 4, **W)
c.C('leaky_relu_backward', [g, x, 0.3, False])
c.C('leaky_relu_backward', [g, x, -0.3, True])
c.C('elu_backward', [g, 0.5, 2.0, 1.5, False, x])
c.C('elu_backward', [g, 0.5, 2.0, 1.5, True, T(3, 4, lo=-0.9, hi=3.0)])
c.C('softplus_backward', [g, x, 2.0, 3.0])
c.C('hardtanh_backward', [g, x, -0.5, 2.5])
c.C('hardswish_backward', [F32(3, 4), F32(3, 4, **W)])
c.C('hardsigmoid_backward', [g, x])
c.C('mish_backward', [g, x])
c.C('log_sigmoid_forward', [F32(3, 4, **W)])

c.write(OUT, 'gen_activation.py')
