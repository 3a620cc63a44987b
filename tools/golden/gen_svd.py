"""Golden fixture for the SVD family: torch.linalg.svd (full_matrices True/False),
torch.linalg.svdvals, torch.svd (some, compute_uv), torch.linalg.matrix_norm / torch.norm with 'nuc' and
'fro', their gradients (LinalgSvdBackward0 through gauge-invariant losses) and grad_fn names, Meta shapes and
strides, and the error texts. Inputs are listed by value (seeded draws), so the tests never depend on the RNG.
Singular vectors are unique only up to sign: the tests compare U / Vh column by column up to sign, and
everything else (S, norms, gradients of sign-invariant losses) exactly within tolerance.

Run: $PYTHON tools/golden/gen_svd.py  ->  test/golden/svd.json
"""
import json
import os

import torch

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'svd.json')


def t(x):
    return {
        'dtype': str(x.dtype).replace('torch.', ''),
        'sizes': list(x.shape),
        'strides': list(x.stride()),
        'values': x.detach().reshape(-1).tolist() if x.device.type != 'meta' else [],
        'grad_fn': None if x.grad_fn is None else x.grad_fn.name(),
    }


def err(f):
    try:
        f()
    except Exception as e:  # noqa: BLE001
        return {'type': type(e).__name__, 'message': str(e).split('\n')[0]}
    raise AssertionError('expected an error')


torch.manual_seed(0)
SHAPES = [[3, 3], [4, 3], [3, 5], [2, 4, 3], [2, 2, 3, 5], [1, 1], [5, 1], [1, 4], [0, 3], [3, 0], [2, 0, 0]]

decomp = []
for dtype in (torch.float64, torch.float32):
    for shape in SHAPES:
        A = torch.randn(shape, dtype=dtype)
        for full in (True, False):
            U, S, Vh = torch.linalg.svd(A, full_matrices=full)
            decomp.append({'input': t(A), 'full_matrices': full, 'U': t(U), 'S': t(S), 'Vh': t(Vh),
                           'svdvals': t(torch.linalg.svdvals(A))})

# Rank-deficient and repeated singular values: S exactly, and U / Vh still orthonormal.
special = []
for name, A in [
    ('zeros', torch.zeros(3, 4, dtype=torch.float64)),
    ('rank1', torch.outer(torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64), torch.tensor([1.0, -1.0], dtype=torch.float64))),
    ('identity', torch.eye(3, dtype=torch.float64)),
    ('diag', torch.diag(torch.tensor([1.0, -3.0, 2.0], dtype=torch.float64))),
]:
    U, S, Vh = torch.linalg.svd(A)
    special.append({'name': name, 'input': t(A), 'S': t(S)})

# torch.svd: V (not Vh), some / compute_uv.
svd_cases = []
for shape, some, uv in [([4, 3], True, True), ([3, 5], False, True), ([2, 3, 4], True, False), ([2, 3, 4], True, True)]:
    A = torch.randn(shape, dtype=torch.float64)
    U, S, V = torch.svd(A, some=some, compute_uv=uv)
    svd_cases.append({'input': t(A), 'some': some, 'compute_uv': uv, 'U': t(U), 'S': t(S), 'V': t(V)})

# Norms: torch.norm(x, 'nuc' / 'fro', dim, keepdim) and linalg.matrix_norm, with their gradients.
norms = []
for shape, p, dim, keepdim in [
    ([4, 3], 'nuc', None, False),
    ([3, 5], 'nuc', None, True),
    ([2, 3, 4], 'nuc', [1, 2], False),
    ([2, 3, 4], 'nuc', [0, 2], True),
    ([2, 3, 4], 'nuc', [2, 0], False),
    ([2, 3, 4], 'fro', [0, 2], True),
    ([3, 3], 'fro', None, False),
]:
    A = torch.randn(shape, dtype=torch.float64, requires_grad=True)
    out = torch.norm(A, p, dim, keepdim)
    (g,) = torch.autograd.grad(out.sum(), A)
    norms.append({'fn': 'norm', 'input': t(A), 'p': p, 'dim': dim, 'keepdim': keepdim, 'out': t(out), 'grad': t(g)})
for shape, ord, dim, keepdim in [([2, 3, 4], 'nuc', [-2, -1], False), ([3, 2, 4], 'nuc', [0, -1], True), ([3, 4], 'fro', [-2, -1], False)]:
    A = torch.randn(shape, dtype=torch.float64, requires_grad=True)
    out = torch.linalg.matrix_norm(A, ord, dim, keepdim)
    (g,) = torch.autograd.grad(out.sum(), A)
    norms.append({'fn': 'matrix_norm', 'input': t(A), 'p': ord, 'dim': dim, 'keepdim': keepdim, 'out': t(out), 'grad': t(g)})
A = torch.randn(2, 3, 4, dtype=torch.float32)
norms.append({'fn': 'norm', 'input': t(A), 'p': 'nuc', 'dim': [1, 2], 'keepdim': False, 'out': t(torch.norm(A, 'nuc', [1, 2])), 'grad': None})

# Gradients through U, S and Vh with a sign-invariant loss: sum(U^2 * wu) + sum(S * ws) + sum(Vh^2 * wv)
# (reduced SVD, and full_matrices with the extra columns / rows unused).
grads = []
for shape, full in [([4, 3], False), ([3, 5], False), ([3, 3], False), ([2, 4, 3], False), ([4, 3], True), ([3, 5], True)]:
    A = torch.randn(shape, dtype=torch.float64, requires_grad=True)
    U, S, Vh = torch.linalg.svd(A, full_matrices=full)
    k = S.shape[-1]
    Uk, Vk = U[..., :k], Vh[..., :k, :]
    wu, ws, wv = torch.randn(Uk.shape, dtype=torch.float64), torch.randn(S.shape, dtype=torch.float64), torch.randn(Vk.shape, dtype=torch.float64)
    loss = (Uk * Uk * wu).sum() + (S * ws).sum() + (Vk * Vk * wv).sum()
    (g,) = torch.autograd.grad(loss, A)
    grads.append({'input': t(A), 'full_matrices': full, 'wu': t(wu), 'ws': t(ws), 'wv': t(wv), 'grad': t(g)})
# svdvals' gradient alone (U diag(gS) Vh).
for shape in ([4, 3], [3, 5], [2, 2, 3]):
    A = torch.randn(shape, dtype=torch.float64, requires_grad=True)
    S = torch.linalg.svdvals(A)
    ws = torch.randn(S.shape, dtype=torch.float64)
    (g,) = torch.autograd.grad((S * ws).sum(), A)
    grads.append({'input': t(A), 'svdvals': True, 'ws': t(ws), 'grad': t(g), 'grad_fn': S.grad_fn.name()})

# Meta: shapes and strides of every output.
meta = []
for shape in ([4, 3], [3, 5], [2, 4, 3], [2, 3, 5]):
    A = torch.empty(shape, device='meta')
    for full in (True, False):
        U, S, Vh = torch.linalg.svd(A, full_matrices=full)
        meta.append({'sizes': shape, 'full_matrices': full, 'U': t(U), 'S': t(S), 'Vh': t(Vh)})
    meta.append({'sizes': shape, 'fn': 'norm_nuc', 'out': t(torch.norm(A, 'nuc', [-2, -1]))})

errors = {
    'svd_long': err(lambda: torch.linalg.svd(torch.ones(2, 2, dtype=torch.int64))),
    'svd_1d': err(lambda: torch.linalg.svd(torch.ones(2))),
    'svd_half': err(lambda: torch.linalg.svd(torch.ones(2, 2, dtype=torch.float16))),
    'svd_driver': err(lambda: torch.linalg.svd(torch.ones(2, 2), driver='gesvd')),
    'svdvals_1d': err(lambda: torch.linalg.svdvals(torch.ones(3))),
    'torch_svd_1d': err(lambda: torch.svd(torch.ones(2))),
    'matrix_norm_dims3': err(lambda: torch.linalg.matrix_norm(torch.ones(2, 2, 2), 'nuc', dim=(0, 1, 2))),
    'matrix_norm_same': err(lambda: torch.linalg.matrix_norm(torch.ones(2, 2), 'nuc', dim=(0, -2))),
    'matrix_norm_half': err(lambda: torch.linalg.matrix_norm(torch.ones(2, 2, dtype=torch.float16), 'nuc')),
    'matrix_norm_order': err(lambda: torch.linalg.matrix_norm(torch.ones(2, 2), 'abc')),
    'matrix_norm_1d': err(lambda: torch.linalg.matrix_norm(torch.ones(2), 'nuc')),
    'norm_nuc_3dims': err(lambda: torch.norm(torch.ones(2, 2, 2), 'nuc')),
    'norm_fro_3dims': err(lambda: torch.norm(torch.ones(2, 2, 2), 'fro', [0, 1, 2])),
    'norm_nuc_long': err(lambda: torch.norm(torch.ones(2, 2, dtype=torch.int64), 'nuc')),
}

with open(OUT, 'w') as f:
    json.dump({'generated_by': 'tools/golden/gen_svd.py', 'torch_version': torch.__version__, 'decomp': decomp,
               'special': special, 'svd': svd_cases, 'norms': norms, 'grads': grads, 'meta': meta, 'errors': errors}, f)
    f.write('\n')
