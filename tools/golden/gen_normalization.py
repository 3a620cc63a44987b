"""Golden fixture for batch_norm, native_batch_norm (+ backward, running statistics updated in place),
instance_norm, group_norm and native_group_norm (+ backward) and native_layer_norm_backward: values in float32 and float64, gradients and
grad_fn names, argument errors, Meta shapes and dtypes (format: tools/golden/opcase.py).

Run: $PYTHON tools/golden/gen_normalization.py  ->  test/golden/normalization.json
"""
import os

from opcase import F32, G, G32, M, T, Cases

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'normalization.json')
c = Cases()
BN = 'torch.batch_norm'

# batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled)
for shape in ([4, 3], [2, 3, 4], [2, 3, 2, 3]):
    c.C('batch_norm', [G(*shape), G(3, lo=0.5, hi=1.5), G(3), T(3), T(3, lo=0.5, hi=1.5), True, 0.1, 1e-5, False],
        fn=BN, after=[3, 4])
    c.C('batch_norm', [G(*shape), G(3, lo=0.5, hi=1.5), G(3), T(3), T(3, lo=0.5, hi=1.5), False, 0.1, 1e-5, False],
        fn=BN, after=[3, 4])
c.C('batch_norm', [G32(2, 3, 5), G32(3, lo=0.5, hi=1.5), G32(3), F32(3), F32(3, lo=0.5, hi=1.5), True, 0.3, 1e-3, False],
    fn=BN, after=[3, 4])
c.C('batch_norm', [G32(2, 3, 5), None, None, F32(3), F32(3, lo=0.5, hi=1.5), False, 0.1, 1e-5, False], fn=BN)
c.C('batch_norm', [G(3, 2, 2), None, None, None, None, True, 0.1, 1e-5, False], fn=BN)
c.C('batch_norm', [G(3, 2, 2, permute=[0, 2, 1]), G(2), None, T(2), T(2, lo=0.5, hi=1.5), True, 0.1, 1e-5, False],
    fn=BN, after=[3, 4])
c.C('batch_norm', [T(1, 3), None, None, T(3), T(3, lo=0.5, hi=1.5), True, 0.1, 1e-5, False], fn=BN, after=[3, 4])
c.C('batch_norm', [T(2, 3, 4), None, None, T(4), T(3), True, 0.1, 1e-5, False], fn=BN)
c.C('batch_norm', [T(2, 3, 4), T(4), None, T(3), T(3), True, 0.1, 1e-5, False], fn=BN)
c.C('batch_norm', [T(2, 3, 4), None, T(2), None, None, True, 0.1, 1e-5, False], fn=BN)
c.C('batch_norm', [T(2, 3, 4), None, None, T(3), None, False, 0.1, 1e-5, False], fn=BN)
c.C('batch_norm', [T(2, 3, 4), None, None, None, T(3), False, 0.1, 1e-5, False], fn=BN)
c.C('batch_norm', [T(3), None, None, None, None, True, 0.1, 1e-5, False], fn=BN)
c.C('batch_norm', [T(2, 3, dtype='int64', values=[1, 2, 3, 4, 5, 6]), None, None, None, None, True, 0.1, 1e-5, False], fn=BN)
c.C('batch_norm', [F32(2, 3), None, None, T(3), T(3), True, 0.1, 1e-5, False], fn=BN)

# native_batch_norm and its backward, called directly
c.C('native_batch_norm', [F32(2, 3, 4), F32(3), F32(3), F32(3), F32(3, lo=0.5, hi=1.5), True, 0.1, 1e-5], after=[3, 4])
c.C('native_batch_norm', [T(2, 3, 4), T(3), None, T(3), T(3, lo=0.5, hi=1.5), False, 0.1, 1e-5])
c.C('native_batch_norm', [T(4, 2), None, None, None, None, True, 0.1, 1e-5])
c.C('native_batch_norm', [M(2, 3, 4), None, None, None, None, True, 0.1, 1e-5], meta=True)
c.C('native_batch_norm', [M(2, 3, 4, dtype='float64'), None, None, M(3, dtype='float64'), M(3, dtype='float64'), False, 0.1,
                          1e-5], meta=True)
x, g = T(2, 3, 4), T(2, 3, 4)
mean, invstd = T(3, lo=-0.2, hi=0.2), T(3, lo=0.8, hi=1.2)
c.C('native_batch_norm_backward', [g, x, T(3), None, None, mean, invstd, True, 1e-5, [True, True, True]])
c.C('native_batch_norm_backward', [g, x, None, T(3), T(3, lo=0.5, hi=1.5), None, None, False, 1e-5, [True, True, True]])
c.C('native_batch_norm_backward', [F32(2, 3), F32(2, 3), F32(3), None, None, F32(3), F32(3, lo=0.5, hi=1.5), True, 1e-5,
                                   [True, True, True]])

# instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, cudnn_enabled)
c.C('instance_norm', [G(2, 3, 4), G(3), G(3), T(3), T(3, lo=0.5, hi=1.5), True, 0.1, 1e-5, False], fn='torch.instance_norm',
    after=[3, 4])
c.C('instance_norm', [G32(2, 2, 3, 3), None, None, None, None, True, 0.1, 1e-5, False], fn='torch.instance_norm')
c.C('instance_norm', [G(2, 3, 4), None, None, T(3), T(3, lo=0.5, hi=1.5), False, 0.1, 1e-5, False], fn='torch.instance_norm')

# group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True)
GN = 'torch.group_norm'
c.C('group_norm', [G(2, 6, 4), 3, G(6, lo=0.5, hi=1.5), G(6)], fn=GN)
c.C('group_norm', [G(2, 6, 2, 2), 2, G(6, lo=0.5, hi=1.5), G(6), 1e-3], fn=GN)
c.C('group_norm', [G(3, 4), 2], fn=GN)
c.C('group_norm', [G(2, 4, 3), 4, G(4), None], fn=GN)
c.C('group_norm', [G32(2, 6, 5), 3, G32(6, lo=0.5, hi=1.5), G32(6)], fn=GN)
c.C('group_norm', [G(2, 4, 3, permute=[0, 2, 1]), 1, G(3), G(3)], fn=GN)
c.C('group_norm', [T(2, 6, 4), 4], fn=GN)
c.C('group_norm', [T(2, 6, 4), 3, T(5)], fn=GN)
c.C('group_norm', [T(2, 6, 4), 3, None, T(5)], fn=GN)
c.C('group_norm', [T(2, 6, 4), 3, T(6), T(5)], fn=GN)
c.C('group_norm', [T(2, 6, 4, dtype='int64', values=list(range(48))), 3], fn=GN)
c.C('group_norm', [T(3), 3], fn=GN)
c.C('group_norm', [F32(2, 6, 4), 3, T(6)], fn=GN)
c.C('native_group_norm', [T(2, 6, 4), None, None, 2, 6, 5, 3, 1e-5])
c.C('native_group_norm', [F32(2, 6, 4), F32(6), F32(6), 2, 6, 4, 3, 1e-5])
c.C('native_group_norm', [M(2, 6, 4), None, None, 2, 6, 4, 3, 1e-5], meta=True)
c.C('native_group_norm_backward', [T(2, 6, 4), T(2, 6, 4), T(2, 3, lo=-0.2, hi=0.2), T(2, 3, lo=0.8, hi=1.2), T(6), 2, 6, 4, 3,
                                   [True, True, True]])

# native_layer_norm_backward, called directly (mean and rstd made up: the formula only reads them); the masks' undefined outputs in test/kernels/layer_norm.test.ts
c.C('native_layer_norm_backward', [T(3, 4), T(3, 4), [4], T(3, 1), T(3, 1, lo=0.5, hi=1.5), T(4), T(4), [True, True, True]])
c.C('native_layer_norm_backward', [F32(4, 6), F32(4, 6), [6], F32(4, 1), F32(4, 1, lo=0.5, hi=1.5), F32(6), F32(6),
                                   [True, True, True]])
c.C('native_layer_norm_backward', [M(3, 8), M(3, 8), [8], M(3, 1), M(3, 1), M(8), M(8), [True, True, True]], meta=True)
c.C('native_layer_norm_backward', [T(2, 5), T(2, 5), [4], T(2, 1), T(2, 1), None, None, [True, False, False]])

c.write(OUT, 'gen_normalization.py')
