"""Golden fixture for constant_pad_nd, reflection_pad1d/2d/3d, replication_pad1d/2d/3d (+ backwards), _pad_circular
and the composite pad(self, pad, mode, value): values in float32, float64 and integer dtypes, negative pads,
gradients and grad_fn names, argument errors, Meta shapes (format: tools/golden/opcase.py).

Run: $PYTHON tools/golden/gen_padding.py  ->  test/golden/padding.json
"""
import os

from opcase import F32, G, G32, M, T, Cases

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'padding.json')
c = Cases()


def L(*sizes):
    n = 1
    for s in sizes:
        n *= s
    return T(*sizes, dtype='int64', values=list(range(n)))


# constant_pad_nd(self, pad, value=0)
c.C('constant_pad_nd', [G(2, 3), [1, 2]])
c.C('constant_pad_nd', [G(2, 3, 4), [1, 0, 2, 1], 1.5])
c.C('constant_pad_nd', [G(2, 3, 4), [-1, 2, 0, -1]])
c.C('constant_pad_nd', [G(2, 3, 4), [1, 1, 1, 1, 1, 1]])
c.C('constant_pad_nd', [G32(2, 3, 4, permute=[2, 0, 1]), [1, 2], -0.5])
c.C('constant_pad_nd', [L(2, 3), [1, 1], 7])
c.C('constant_pad_nd', [T(2, 3, 4), [1]])
c.C('constant_pad_nd', [T(2, 3, 4), [1, 1, 1, 1, 1, 1, 1, 1]])
c.C('constant_pad_nd', [T(2, 3, 4), [-3, -3]])
c.C('constant_pad_nd', [M(2, 3, 4), [1, 2, -1, 0]], meta=True)

for kind in ('reflection', 'replication'):
    c.C(f'{kind}_pad1d', [G(2, 3, 5), [2, 3] if kind == 'replication' else [2, 1]])
    c.C(f'{kind}_pad1d', [G(3, 4), [1, 3]])
    c.C(f'{kind}_pad1d', [G(2, 3, 5), [-1, 2]])
    c.C(f'{kind}_pad1d', [G32(2, 3, 5), [1, 1]])
    c.C(f'{kind}_pad1d', [L(2, 3, 4), [2, 1]])
    c.C(f'{kind}_pad2d', [G(1, 2, 4, 5), [1, 2, 3, 1]])
    c.C(f'{kind}_pad2d', [G(2, 3, 4), [2, 0, 1, 1]])
    c.C(f'{kind}_pad2d', [G(2, 3, 4, permute=[0, 2, 1]), [1, 1, 1, 1]])
    c.C(f'{kind}_pad2d', [G32(1, 2, 3, 3), [1, 2, 2, 1]])
    c.C(f'{kind}_pad2d', [G(1, 2, 4, 5), [-1, 1, 2, -2]])
    c.C(f'{kind}_pad1d', [T(2, 3, 4), [1]])
    c.C(f'{kind}_pad1d', [T(2, 0, 4), [1, 1]])
    c.C(f'{kind}_pad1d', [T(4), [1, 1]])
    c.C(f'{kind}_pad1d', [T(2, 3, 4), [-2, -2]])
    c.C(f'{kind}_pad1d', [T(2, 3, 4), [5, 1]])
    c.C(f'{kind}_pad1d', [T(2, 3, values=[True, False] * 3, dtype='bool'), [1, 1]])
    c.C(f'{kind}_pad2d', [T(2, 3, 4), [1, 1, 1]])
    c.C(f'{kind}_pad2d', [T(4), [1, 1, 1, 1]])
    c.C(f'{kind}_pad2d', [T(2, 3, 4), [1, 1, 3, 1]])
    c.C(f'{kind}_pad2d', [T(2, 3, 4), [-2, -2, 0, 0]])
    c.C(f'{kind}_pad2d', [M(2, 3, 4, 5), [1, 2, 2, 1]], meta=True)
    c.C(f'{kind}_pad1d_backward', [T(2, 3, 7), T(2, 3, 5), [1, 1]])
    c.C(f'{kind}_pad2d_backward', [F32(1, 2, 5, 6), F32(1, 2, 3, 4), [1, 1, 1, 1]])
    c.C(f'{kind}_pad3d', [G(1, 2, 3, 4, 5), [1, 2, 2, 1, 1, 2]])
    c.C(f'{kind}_pad3d', [G(2, 3, 3, 4), [2, 0, 1, 1, 0, 2]])
    c.C(f'{kind}_pad3d', [G(2, 3, 3, 4, permute=[0, 2, 1, 3]), [1, 1, 1, 1, 1, 1]])
    c.C(f'{kind}_pad3d', [G32(1, 2, 3, 3, 3), [1, 2, 2, 1, 2, 1]])
    c.C(f'{kind}_pad3d', [G(1, 2, 3, 4, 5), [-1, 1, 2, -2, 1, -1]])
    c.C(f'{kind}_pad3d', [L(1, 2, 3, 3), [1, 1, 1, 1, 1, 1]])
    c.C(f'{kind}_pad3d', [T(1, 2, 3, 3, 3), [1, 1, 1, 1, 1]])
    c.C(f'{kind}_pad3d', [T(2, 3, 4), [1, 1, 1, 1, 1, 1]])
    c.C(f'{kind}_pad3d', [T(1, 2, 3, 3, 3), [0, 0, 0, 0, 3, 0]])
    c.C(f'{kind}_pad3d', [T(1, 2, 3, 3, 3), [0, 0, 3, 0, 0, 0]])
    c.C(f'{kind}_pad3d', [T(1, 2, 3, 3, 3), [-2, -2, -2, -2, -2, -2]])
    c.C(f'{kind}_pad3d', [T(2, 3, 2, values=[True, False] * 6, dtype='bool'), [1, 1, 1, 1, 1, 1]])
    c.C(f'{kind}_pad3d', [M(2, 3, 4, 5, 6), [1, 2, 2, 1, 0, 1]], meta=True)
    c.C(f'{kind}_pad3d_backward', [F32(1, 2, 5, 6, 4), F32(1, 2, 3, 4, 2), [1, 1, 1, 1, 1, 1]])
    c.C(f'{kind}_pad3d_backward', [L(1, 2, 3, 3, 3), L(1, 2, 3, 3, 3), [0, 0, 0, 0, 0, 0]])

c.C('_pad_circular', [G(2, 3, 5), [2, 1]])
c.C('_pad_circular', [G(1, 2, 3, 4), [1, 2, 2, 0]])
c.C('_pad_circular', [G(1, 2, 3, 4), [-1, 2, 1, -1]])
c.C('_pad_circular', [T(2, 3, 4), [5, 1]])
c.C('_pad_circular', [T(2, 3, 4), [1, 1, 1, 1, 1, 1]])
c.C('_pad_circular', [T(2, 3, 4), [-3, -2]])

P = 'torch._C._nn.pad'
c.C('pad', [G(2, 3, 4), [1, 2]], fn=P)
c.C('pad', [G(2, 3, 4), [1, 2, 0, 1], 'constant', 2.5], fn=P)
c.C('pad', [G(2, 3, 4), [1, 2], 'reflect'], fn=P)
c.C('pad', [G(1, 2, 3, 4), [1, 2, 2, 1], 'reflect'], fn=P)
c.C('pad', [G(2, 3, 4), [1, 3], 'replicate'], fn=P)
c.C('pad', [G(1, 2, 3, 4), [1, 2, 2, 1], 'replicate'], fn=P)
c.C('pad', [G(2, 3, 4), [1, 3], 'circular'], fn=P)
c.C('pad', [G(1, 2, 3, 4), [1, 2, 2, 1], 'circular'], fn=P)
c.C('pad', [G(1, 2, 3, 3, 4), [1, 2, 2, 1, 1, 1], 'reflect'], fn=P)
c.C('pad', [G(2, 3, 3, 4), [1, 2, 2, 1, 1, 1], 'replicate'], fn=P)
c.C('pad', [T(2, 3, 4), [1, 1], 'foo'], fn=P)
c.C('pad', [T(2, 3, 4), [1, 1, 1]], fn=P)
c.C('pad', [T(2, 3, 4), [1, 1, 1, 1, 1, 1, 1, 1]], fn=P)
c.C('pad', [T(2, 3, 4), [1, 1], 'reflect', 1.5], fn=P)
c.C('pad', [T(4), [1, 1], 'reflect'], fn=P)

c.write(OUT, 'gen_padding.py')
