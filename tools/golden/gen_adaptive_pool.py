"""Golden fixture for adaptive_avg_pool2d (+ _adaptive_avg_pool2d and its backward), adaptive_max_pool2d (+
indices, backward) and the 1-d pooling functions composed over the 2-d kernels (max_pool1d,
max_pool1d_with_indices, avg_pool1d, adaptive_avg_pool1d, adaptive_max_pool1d): values in float32 and float64,
gradients and grad_fn names, argument errors, Meta shapes (format: tools/golden/opcase.py).

Run: $PYTHON tools/golden/gen_adaptive_pool.py  ->  test/golden/adaptive_pool.json
"""
import os

from opcase import F32, G, G32, M, T, Cases

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'adaptive_pool.json')
c = Cases()

for shape, out in [([1, 2, 5, 7], [2, 3]), ([2, 3, 4], [3, 2]), ([1, 1, 6, 6], [4, 4]), ([2, 2, 3, 3], [5, 4]),
                   ([1, 2, 4, 5], [1, 1]), ([1, 2, 4, 5], [1, 2])]:
    c.C('adaptive_avg_pool2d', [G(*shape), out])
    c.C('adaptive_max_pool2d', [G(*shape), out], select=[0])
c.C('adaptive_avg_pool2d', [G32(2, 3, 5, 5), [3, 3]])
c.C('adaptive_avg_pool2d', [G(1, 3, 4, 5, permute=[0, 1, 3, 2]), [2, 3]])
c.C('adaptive_max_pool2d', [G32(2, 3, 5, 5), [3, 3]], select=[0])
c.C('adaptive_max_pool2d', [G(1, 3, 4, 5, permute=[0, 1, 3, 2]), [2, 3]], select=[0])
c.C('adaptive_max_pool2d', [T(1, 2, 3, values=[1.0, 'nan', 3.0, 4.0, 5.0, 6.0]), [1, 2]])
c.C('adaptive_max_pool2d', [T(1, 2, 3, values=[2.0, 2.0, -1.0, 2.0, 2.0, 0.5]), [1, 2]])  # ties: the first
c.C('_adaptive_avg_pool2d', [F32(2, 3, 5), [2, 4]])
c.C('_adaptive_avg_pool2d_backward', [F32(2, 2, 4), F32(2, 3, 5)])
c.C('adaptive_max_pool2d_backward', [T(1, 2, 2), T(1, 3, 3), {'dtype': 'int64', 'sizes': [1, 2, 2], 'values': [0, 4, 4, 8]}])
c.C('adaptive_avg_pool2d', [T(5, 7), [2, 2]])
c.C('adaptive_avg_pool2d', [T(2, 5, 7), [2, -1]])
c.C('adaptive_avg_pool2d', [T(2, 5, 7), [2]])
c.C('adaptive_avg_pool2d', [T(2, 3, 0, 4), [2, 2]])
c.C('adaptive_avg_pool2d', [T(2, 3, 4, dtype='int64', values=list(range(24))), [2, 2]])
c.C('adaptive_max_pool2d', [T(5, 7), [2, 2]])
c.C('adaptive_max_pool2d', [T(2, 0, 4), [2, 2]])
c.C('adaptive_max_pool2d', [T(2, 3, 4, dtype='int64', values=list(range(24))), [2, 2]])
c.C('adaptive_max_pool2d', [T(2, 3, 4), [2]])
c.C('_adaptive_avg_pool2d', [M(2, 3, 5, 7), [2, 4]], meta=True)
c.C('adaptive_max_pool2d', [M(2, 3, 5, 7, dtype='float64'), [2, 4]], meta=True)

# 1-d: (kernel, stride, padding, dilation, ceil_mode)
for shape in ([2, 3, 9], [3, 8]):
    c.C('max_pool1d', [G(*shape), [3], [2], [1], [1], False])
    c.C('max_pool1d', [G(*shape), [2], [], [0], [2], True])
    c.C('max_pool1d_with_indices', [G(*shape), [3], [1], [0], [1], False], select=[0])
    c.C('avg_pool1d', [G(*shape), [3], [2], [1], False, True])
    c.C('avg_pool1d', [G(*shape), [2], [], [1], True, False])
    c.C('adaptive_avg_pool1d', [G(*shape), [4]])
    c.C('adaptive_avg_pool1d', [G(*shape), [1]])
    c.C('adaptive_max_pool1d', [G(*shape), [4]], select=[0])
c.C('max_pool1d', [G32(2, 3, 7), [2]])
c.C('avg_pool1d', [G32(2, 3, 7), [2]])
c.C('adaptive_avg_pool1d', [G32(2, 3, 7), [3]])
c.C('max_pool1d', [T(5), [2]])
c.C('max_pool1d', [T(2, 3, 5), [2, 2]])
c.C('max_pool1d_with_indices', [T(5), [2]])
c.C('max_pool1d_with_indices', [T(2, 3, 5), [2], [1, 1]])
c.C('avg_pool1d', [T(5), [2]])
c.C('avg_pool1d', [T(2, 3, 5), [2, 2]])
c.C('adaptive_avg_pool1d', [T(5), [2]])
c.C('adaptive_avg_pool1d', [T(2, 3, 5), [2, 2]])
c.C('adaptive_max_pool1d', [T(5), [2]])
c.C('adaptive_max_pool1d', [T(2, 3, 5), [2, 2]])

c.write(OUT, 'gen_adaptive_pool.py')
