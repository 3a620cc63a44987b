"""Golden fixture for the whole upsample family beyond 4-d nearest / bilinear (gen_upsample.py):
upsample_nearest1d/3d, _upsample_nearest_exact1d/2d/3d, upsample_linear1d, upsample_bicubic2d,
upsample_trilinear3d (+ their .vec overloads and backwards) and adaptive_avg_pool3d: values in float32 and
float64 (sizes, scales, align_corners, down- and up-sampling), gradients and grad_fn names, argument and dtype
errors, Meta shapes, and the output strides of channels-last inputs (`out_strides`, format:
tools/golden/opcase.py).

Run: $PYTHON tools/golden/gen_upsample_nd.py  ->  test/golden/upsample_nd.json
"""
import os

from opcase import F32, G, G32, M, T, Cases

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'upsample_nd.json')
c = Cases()


S = c.with_strides


NEAREST = ['upsample_nearest1d', '_upsample_nearest_exact1d', 'upsample_nearest2d', '_upsample_nearest_exact2d',
           'upsample_nearest3d', '_upsample_nearest_exact3d']
LINEAR = ['upsample_linear1d', 'upsample_bilinear2d', 'upsample_bicubic2d', 'upsample_trilinear3d']
K = {'1d': 1, '2d': 2, '3d': 3}
SHAPES = {1: [([2, 2, 5], [7]), ([1, 2, 6], [4]), ([1, 1, 3], [6]), ([1, 1, 4], [1])],
          2: [([1, 2, 3, 4], [5, 7]), ([1, 1, 5, 6], [3, 4]), ([1, 1, 3, 3], [6, 5])],
          3: [([1, 2, 2, 3, 3], [3, 4, 4]), ([1, 1, 4, 3, 5], [2, 3, 3])]}
SCALES = {1: [1.7], 2: [1.7, 2.5], 3: [1.5, 1.7, 0.75]}


def k_of(name):
    return K[name[-2:]]


for name in NEAREST:
    k = k_of(name)
    for shape, out in SHAPES[k]:
        c.C(name, [G(*shape), out])
    shape, out = SHAPES[k][0]
    c.C(name, [G32(*shape), out])
    c.C(name, [G(*shape), [int(s * f) for s, f in zip(shape[2:], SCALES[k])], *SCALES[k]])
    c.C(name, [G(*shape), None, SCALES[k]], fn=f'torch.ops.aten.{name}.vec')
    c.C(name, [T(*shape, dtype='int64', values=list(range(1, 1 + __import__('math').prod(shape)))), out])
    c.C(name, [T(*shape[:-1]), out])
    c.C(name, [T(*shape), out + [2]])
    c.C(name, [T(*shape), [0] * k])
    c.C(name + '_backward', [T(*shape[:2], *out), out, shape])
    c.C(name + '_backward', [T(*shape[:2], *[o + 1 for o in out]), out, shape])
    c.C(name + '_backward', [T(*shape[:2], *out[:-1]), out, shape])
    c.C(name + '_backward', [F32(*shape[:2], *out), out, shape, *SCALES[k]])
    c.C(name, [M(*shape), out], meta=True)

for name in LINEAR:
    k = k_of(name)
    for shape, out in SHAPES[k]:
        c.C(name, [G(*shape), out, False])
        c.C(name, [G(*shape), out, True])
    shape, out = SHAPES[k][0]
    c.C(name, [G32(*shape), out, False])
    c.C(name, [G32(*shape), out, True])
    c.C(name, [G(*shape), [int(s * f) for s, f in zip(shape[2:], SCALES[k])], False, *SCALES[k]])
    c.C(name, [G(*shape), None, False, SCALES[k]], fn=f'torch.ops.aten.{name}.vec')
    c.C(name, [G(*shape), None, True, SCALES[k]], fn=f'torch.ops.aten.{name}.vec')
    c.C(name, [G(*shape), shape[2:], False])  # equal sizes: a copy
    c.C(name, [T(*shape, dtype='int64', values=list(range(__import__('math').prod(shape)))), out, False])
    c.C(name, [T(*shape[:-1]), out, False])
    c.C(name, [T(*shape), [0] * k, False])
    c.C(name + '_backward', [T(*shape[:2], *out), out, shape, True])
    c.C(name + '_backward', [F32(*shape[:2], *out), out, shape, False, *SCALES[k]])
    c.C(name + '_backward', [T(*shape[:2], *out[:-1]), out, shape, False])
    c.C(name, [M(*shape, dtype='float64'), out, True], meta=True)

# a scale factor that disagrees with the sizes (3 * 1.3 -> 3): 1-d / 3-d use the scale, 2-d copies
for dtype in ['float64', 'float32']:
    c.C('upsample_nearest1d', [T(1, 1, 3, dtype=dtype), None, [1.3]], fn='torch.ops.aten.upsample_nearest1d.vec')
    c.C('upsample_nearest2d', [T(1, 1, 3, 3, dtype=dtype), None, [1.3, 2.1]], fn='torch.ops.aten.upsample_nearest2d.vec')
    c.C('upsample_nearest3d', [T(1, 1, 1, 3, 5, dtype=dtype), None, [1.0, 1.3, 2.1]],
        fn='torch.ops.aten.upsample_nearest3d.vec')
    c.C('_upsample_nearest_exact2d', [T(1, 1, 3, 5, dtype=dtype), None, [1.3, 0.7]],
        fn='torch.ops.aten._upsample_nearest_exact2d.vec')
    c.C('upsample_linear1d', [T(1, 1, 3, dtype=dtype), None, False, [1.3]], fn='torch.ops.aten.upsample_linear1d.vec')
    c.C('upsample_bicubic2d', [T(1, 1, 3, 4, dtype=dtype), None, False, [1.3, 0.6]],
        fn='torch.ops.aten.upsample_bicubic2d.vec')

# double backward: the backward's derivative in grad_output is the forward (Upsample*BackwardBackward0)
for name in NEAREST + LINEAR:
    k = k_of(name)
    shape, out = SHAPES[k][-1]
    c.C(name + '_backward', [G(*shape[:2], *out), out, shape] + ([False] if name in LINEAR else []))
c.C('_adaptive_avg_pool3d_backward', [G(1, 2, 2, 3, 2), T(1, 2, 4, 5, 3)])
c.C('_adaptive_avg_pool2d_backward', [G(1, 2, 2, 3), T(1, 2, 4, 5)])

# channels-last inputs: the output (and some backwards') memory format
S('upsample_nearest2d', [G(1, 3, 4, 2, permute=[0, 3, 1, 2]), [5, 3]])
S('_upsample_nearest_exact2d', [G(2, 3, 4, 3, permute=[0, 3, 1, 2]), [5, 7]])
S('upsample_bilinear2d', [G(1, 3, 4, 2, permute=[0, 3, 1, 2]), [5, 3], False])
S('upsample_bicubic2d', [G(1, 3, 4, 2, permute=[0, 3, 1, 2]), [5, 3], True])
S('upsample_nearest3d', [G(1, 2, 3, 4, 2, permute=[0, 4, 1, 2, 3]), [3, 5, 3]])
S('upsample_trilinear3d', [G(1, 2, 3, 4, 2, permute=[0, 4, 1, 2, 3]), [3, 5, 3], False])
S('upsample_linear1d', [G(2, 5, 3, permute=[0, 2, 1]), [7], False])
S('upsample_nearest2d_backward', [T(1, 5, 3, 2, permute=[0, 3, 1, 2]), [5, 3], [1, 2, 4, 2]])
S('upsample_bilinear2d_backward', [T(1, 5, 3, 2, permute=[0, 3, 1, 2]), [5, 3], [1, 2, 4, 2], False])
S('upsample_bicubic2d_backward', [T(1, 5, 3, 2, permute=[0, 3, 1, 2]), [5, 3], [1, 2, 4, 2], False])
S('upsample_nearest3d_backward', [T(1, 3, 5, 3, 2, permute=[0, 4, 1, 2, 3]), [3, 5, 3], [1, 2, 2, 4, 2]])
S('upsample_trilinear3d_backward', [T(1, 3, 5, 3, 2, permute=[0, 4, 1, 2, 3]), [3, 5, 3], [1, 2, 2, 4, 2], True])

# 'area' of channels-last 4-d inputs: adaptive_avg_pool2d keeps the memory format (its backward too)
S('adaptive_avg_pool2d', [G(1, 3, 4, 2, permute=[0, 3, 1, 2]), [3, 5]], fn='torch._C._nn.adaptive_avg_pool2d')
S('_adaptive_avg_pool2d_backward', [T(1, 3, 5, 2, permute=[0, 3, 1, 2]), T(1, 3, 4, 2, permute=[0, 3, 1, 2])])

# adaptive_avg_pool3d ('area' of 5-d inputs)
AP = 'torch._C._nn.adaptive_avg_pool3d'
c.C('adaptive_avg_pool3d', [G(1, 2, 4, 5, 3), [2, 3, 2]], fn=AP)
c.C('adaptive_avg_pool3d', [G(2, 3, 5, 4), [3, 2, 3]], fn=AP)
c.C('adaptive_avg_pool3d', [G32(1, 2, 3, 3, 3), [1, 1, 1]], fn=AP)
c.C('adaptive_avg_pool3d', [G(1, 1, 3, 4, 5), [4, 5, 6]], fn=AP)
c.C('adaptive_avg_pool3d', [T(4, 5, 6), [2, 2, 2]], fn=AP)
c.C('adaptive_avg_pool3d', [T(1, 2, 0, 3, 3), [2, 2, 2]], fn=AP)
c.C('adaptive_avg_pool3d', [T(1, 2, 3, 3, 3), [2, 2]], fn=AP)
c.C('adaptive_avg_pool3d', [T(1, 2, 3, 3, 3), [2, -3, 1]], fn=AP)
c.C('adaptive_avg_pool3d', [T(1, 2, 3, 3, 3, dtype='int64', values=list(range(54))), [2, 2, 2]], fn=AP)
c.C('adaptive_avg_pool3d', [M(2, 3, 4, 5, 6), [2, 3, 4]], fn=AP, meta=True)

c.write(OUT, 'gen_upsample_nd.py')
