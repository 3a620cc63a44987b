"""Golden fixture for addcmul, addcdiv (promotion, broadcasting, value, in-place), clamp_min, clamp_max and
isclose: values, gradients and grad_fn names, argument errors, Meta shapes (format: tools/golden/opcase.py).

Run: $PYTHON tools/golden/gen_pointwise.py  ->  test/golden/pointwise.json
"""
import os

from opcase import F32, G, G32, M, T, Cases

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'pointwise.json')
c = Cases()

for name in ('addcmul', 'addcdiv'):
    fn = f'torch.{name}'
    hi = dict(lo=0.5, hi=2.0)
    c.C(name, [G(2, 3), G(2, 3), G(2, 3, **hi)], fn=fn)
    c.C(name, [G(2, 3), G(3), G(2, 1, **hi)], {'value': 0.5}, fn=fn)
    c.C(name, [G32(3, 4), G32(3, 4), G32(3, 4, **hi)], {'value': -2}, fn=fn)
    c.C(name, [F32(2, 3), T(2, 3), T(2, 3, **hi)], fn=fn)
    c.C(name, [T(2, 3, dtype='int64', values=[1, 2, 3, 4, 5, 6]), T(2, 3, dtype='int64', values=[1, 2, 3, 4, 5, 6]),
               T(2, 3, dtype='int64', values=[2, 2, 2, 3, 3, 3])], {'value': 2}, fn=fn)
    c.C(name + '_', [T(2, 3), T(2, 3), T(2, 3, **hi)], {'value': 1.5}, fn=f'Tensor.{name}_', after=[0])
    c.C(name, [M(2, 3), M(1, 3), M(2, 1)], fn=fn, meta=True)
for name in ('clamp_min', 'clamp_max'):
    fn = f'torch.{name}'
    c.C(name, [G(3, 4), 0.25], fn=fn)
    c.C(name, [G32(3, 4), -0.5], fn=fn)
    c.C(name, [T(2, 3, dtype='int64', values=[-3, -1, 0, 1, 2, 5]), 1], fn=fn)
    c.C(name + '_', [T(3, 4), 0.25], fn=f'torch.ops.aten.{name}_.default', after=[0])
    c.C(name, [T(2, 2, dtype='bool', values=[True, False, True, True]), True], fn=fn)
a = T(2, 4, values=[1.0, 2.0, 'nan', 'inf', 1e-9, -3.0, 100.0, 0.0])
b = T(2, 4, values=[1.000001, 2.1, 'nan', 'inf', 0.0, -3.00001, 100.001, 1e-7])
c.C('isclose', [a, b], fn='torch.isclose')
c.C('isclose', [a, b, 1e-3, 1e-6, True], fn='torch.isclose')
c.C('isclose', [a, b, 0.0, 0.0], fn='torch.isclose')
c.C('isclose', [F32(2, 4, values=[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]), F32(4, values=[1.00001, 2.0001, 3.01, 4.0])],
    fn='torch.isclose')
c.C('isclose', [T(3, dtype='int64', values=[1, 2, 3]), T(3, dtype='int64', values=[1, 3, 3])], fn='torch.isclose')
c.C('isclose', [F32(3), T(3)], fn='torch.isclose')
c.C('isclose', [T(3), T(3), -1.0], fn='torch.isclose')
c.C('isclose', [T(3), T(3), 1e-5, -1.0], fn='torch.isclose')

c.write(OUT, 'gen_pointwise.py')
