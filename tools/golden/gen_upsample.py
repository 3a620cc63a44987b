"""Golden fixture for upsample_nearest2d and upsample_bilinear2d (output sizes, scale factors, align_corners,
the .vec overloads F.interpolate calls) and their backwards: values in float32 and float64, gradients and
grad_fn names, argument errors, Meta shapes (format: tools/golden/opcase.py).

Run: $PYTHON tools/golden/gen_upsample.py  ->  test/golden/upsample.json
"""
import os

from opcase import F32, G, G32, M, T, Cases

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'upsample.json')
c = Cases()
NV = 'torch.ops.aten.upsample_nearest2d.vec'
BV = 'torch.ops.aten.upsample_bilinear2d.vec'

for shape, out in [([1, 2, 3, 4], [6, 8]), ([2, 1, 3, 3], [5, 7]), ([1, 1, 4, 6], [3, 4]), ([1, 2, 3, 4], [3, 4]),
                   ([1, 1, 2, 2], [1, 1])]:
    c.C('upsample_nearest2d', [G(*shape), out])
    c.C('upsample_bilinear2d', [G(*shape), out, False])
    c.C('upsample_bilinear2d', [G(*shape), out, True])
c.C('upsample_nearest2d', [G(1, 2, 3, 4), [5, 10], 1.7, 2.5])
c.C('upsample_bilinear2d', [G(1, 2, 3, 4), [5, 10], False, 1.7, 2.5])
c.C('upsample_nearest2d', [G32(2, 3, 4, 5), [7, 9]])
c.C('upsample_bilinear2d', [G32(2, 3, 4, 5), [7, 9], False])
c.C('upsample_bilinear2d', [G32(2, 3, 4, 5), [7, 9], True])
c.C('upsample_bilinear2d', [G(1, 2, 3, 4, permute=[0, 1, 3, 2]), [6, 5], False])
c.C('upsample_nearest2d', [T(1, 1, 2, 3, dtype='int64', values=list(range(6))), [4, 5]])
c.C('upsample_nearest2d', [G(1, 2, 3, 4), None, [2.0, 1.5]], fn=NV)
c.C('upsample_nearest2d', [G(1, 2, 3, 4), [5, 7], None], fn=NV)
c.C('upsample_nearest2d', [G(1, 1, 5, 5), None, [0.6, 0.5]], fn=NV)
c.C('upsample_bilinear2d', [G(1, 2, 3, 4), None, False, [2.0, 1.5]], fn=BV)
c.C('upsample_bilinear2d', [G(1, 2, 3, 4), None, True, [2.5, 2.0]], fn=BV)
c.C('upsample_bilinear2d', [G(1, 2, 3, 4), [4, 6], False, None], fn=BV)
c.C('upsample_nearest2d', [T(1, 2, 3, 4), [5, 7], [2.0, 2.0]], fn=NV)
c.C('upsample_nearest2d', [T(1, 2, 3, 4), None, None], fn=NV)
c.C('upsample_nearest2d', [T(2, 3, 4), [5, 7]])
c.C('upsample_nearest2d', [T(1, 2, 3, 4), [5]])
c.C('upsample_nearest2d', [T(1, 2, 3, 4), [0, 3]])
c.C('upsample_nearest2d', [T(1, 0, 3, 4), [2, 3]])
c.C('upsample_bilinear2d', [T(1, 2, 3, 4, dtype='int64', values=list(range(24))), [5, 7], False])
c.C('upsample_bilinear2d', [T(1, 2, 3, 4), [0, 3], False])
c.C('upsample_nearest2d_backward', [F32(1, 2, 5, 7), [5, 7], [1, 2, 3, 4]])
c.C('upsample_nearest2d_backward', [F32(1, 2, 5, 6), [5, 7], [1, 2, 3, 4]])
c.C('upsample_bilinear2d_backward', [T(1, 2, 5, 7), [5, 7], [1, 2, 3, 4], True])
c.C('upsample_bilinear2d_backward', [T(1, 2, 5, 7, dtype='float64'), [5, 7], [1, 2, 3, 4], False, 1.5, 2.0])
c.C('upsample_nearest2d', [M(2, 3, 4, 5), [8, 3]], meta=True)
c.C('upsample_bilinear2d', [M(2, 3, 4, 5, dtype='float64'), [8, 3], True], meta=True)

c.write(OUT, 'gen_upsample.py')
