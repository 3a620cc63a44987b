"""Golden fixture for F.interpolate's antialias=True operators: _upsample_bilinear2d_aa and
_upsample_bicubic2d_aa (+ .vec overloads and backwards): down- and up-sampling by sizes and scale factors,
align_corners both, float32 and float64, channels-last inputs (with their output strides), gradients and
grad_fn names, the backward's own derivative in grad_output (the double-backward value), argument and dtype
errors, Meta shapes, and F.interpolate's antialias dispatch (format: tools/golden/opcase.py).

Run: $PYTHON tools/golden/gen_upsample_aa.py  ->  test/golden/upsample_aa.json
"""
import os

from opcase import G, G32, M, T, Cases

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'upsample_aa.json')
c = Cases()


S = c.with_strides


for k in ['bilinear', 'bicubic']:
    op = f'_upsample_{k}2d_aa'
    vec = f'torch.ops.aten.{op}.vec'
    for shape, out in [([1, 2, 9, 7], [4, 3]), ([1, 1, 5, 6], [11, 13]), ([2, 1, 8, 5], [3, 9]), ([1, 1, 4, 4], [1, 1]),
                       ([1, 2, 3, 4], [3, 4])]:
        c.C(op, [G(*shape), out, False])
        c.C(op, [G(*shape), out, True])
    c.C(op, [G(1, 2, 10, 9), [4, 4], False, 0.4, 0.45])
    c.C(op, [G32(2, 3, 11, 6), [4, 9], False])
    c.C(op, [G32(1, 2, 12, 12), [5, 5], True])
    S(op, [G(1, 6, 5, 3, permute=[0, 3, 1, 2]), [3, 7], False])
    S(op, [G32(2, 9, 4, 3, permute=[0, 3, 1, 2]), [4, 2], True])
    c.C(op, [G(1, 1, 9, 8), None, False, [0.5, 0.3]], fn=vec)
    c.C(op, [G(1, 2, 4, 5), None, True, [1.5, 2.0]], fn=vec)
    c.C(op, [G(1, 1, 7, 7), [3, 2], False, None], fn=vec)
    c.C(op, [T(1, 2, 3, 4), [0, 3], False])
    c.C(op, [T(1, 2, 3, 4, dtype='int64', values=list(range(24))), [2, 2], False])
    c.C(op, [T(2, 3, 4), [2, 2], False])
    c.C(f'{op}_backward', [G(1, 2, 3, 4), [3, 4], [1, 2, 9, 7], False])
    c.C(f'{op}_backward', [G32(1, 1, 5, 6), [5, 6], [1, 1, 3, 4], True])
    c.C(f'{op}_backward', [T(1, 2, 5, 6), [5, 7], [1, 2, 3, 4], False])
    c.C(op, [M(2, 3, 8, 5), [3, 9], False], meta=True)

c.write(OUT, 'gen_upsample_aa.py')
