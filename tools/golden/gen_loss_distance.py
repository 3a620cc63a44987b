"""Golden fixture for smooth_l1_loss, huber_loss, kl_div, cosine_similarity and pairwise_distance: values in
float32 and float64, reductions, broadcasting, gradients and grad_fn names, argument errors
(format: tools/golden/opcase.py).

Run: $PYTHON tools/golden/gen_loss_distance.py  ->  test/golden/loss_distance.json
"""
import os

from opcase import G, G32, T, Cases

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'loss_distance.json')
c = Cases()

for name, extra in (('smooth_l1_loss', [0.5, 1.0, 0.0, 2.5]), ('huber_loss', [0.5, 1.0, 2.5])):
    for red in (0, 1, 2):
        c.C(name, [G(3, 4), G(3, 4), red], select=None)
    for e in extra:
        c.C(name, [G(3, 4), G(3, 4), 1, e])
    c.C(name, [G32(2, 5), G32(2, 5), 2])
    c.C(name, [G(2, 3), T(3), 1])  # broadcast target (PyTorch's target gradient of a broadcast target is resized: not compared)
c.C('smooth_l1_loss', [T(3), T(3), 1, -1.0])
c.C('huber_loss', [T(3), T(3), 1, 0.0])

for red in (0, 1, 2):
    c.C('kl_div', [G(3, 4), G(3, 4, lo=0.0, hi=1.0), red])
    c.C('kl_div', [G(3, 4), G(3, 4), red], {'log_target': True})
c.C('kl_div', [G(2, 3), T(2, 3, values=[0.0, 0.5, 0.25, 0.0, 1.0, 0.125]), 2])
c.C('kl_div', [G32(2, 3), G32(2, 3, lo=0.1, hi=1.0), 1])
c.C('kl_div', [T(3, dtype='int64', values=[1, 2, 3]), T(3), 1])

c.C('cosine_similarity', [G(3, 4), G(3, 4)])
c.C('cosine_similarity', [G(3, 4), G(4), 0])
c.C('cosine_similarity', [G(2, 3, 4), G(2, 1, 4), -1, 1e-3])
c.C('cosine_similarity', [G32(3, 5), G32(3, 5)])
c.C('cosine_similarity', [G(2, 3), T(2, 3, values=[0.0] * 6, grad=True)])
c.C('cosine_similarity', [T(2, 3, dtype='int64', values=[1, 2, 3, 4, 5, 6]), T(2, 3, dtype='int64', values=[1, 0, 1, 0, 1, 0])])
c.C('pairwise_distance', [G(3, 4), G(3, 4)])
c.C('pairwise_distance', [G(3, 4), G(4), 1.0])
c.C('pairwise_distance', [G(3, 4), G(3, 4), 3.0, 1e-3, True])
c.C('pairwise_distance', [G32(2, 5), G32(2, 5)])

c.write(OUT, 'gen_loss_distance.py')
