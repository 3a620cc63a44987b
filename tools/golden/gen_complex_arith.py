"""Golden fixture for complex64/complex128 arithmetic on the CPU: division by c10::complex's scaled Smith method
(float64 bits), type promotion of real and complex operands, the unary complex functions, angle / polar, sum /
mean / prod, mm / vdot, and float64 gradients of real losses of complex128 inputs (PyTorch's conjugate Wirtinger
convention). Results are {dtype, sizes, values, grad_fn} (complex values as [re, im] pairs) or the first line
of the error.

Run: $PYTHON tools/golden/gen_complex_arith.py  ->  test/golden/complex_arith.json
"""
import json
import os

import torch

from _encode import spec as _spec

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'complex_arith.json')

cases = {}


def spec(r):
    return _spec(r, ('dtype', 'sizes', 'values', 'grad_fn'))


def case(cid, call):
    assert cid not in cases, cid
    try:
        cases[cid] = {'result': spec(call())}
    except Exception as e:  # noqa: BLE001
        cases[cid] = {'error': str(e).split('\n')[0]}


def z(pairs, dtype=torch.complex128):
    return torch.view_as_complex(torch.tensor(pairs, dtype=torch.float64)).to(dtype)


A = [[1.0, 2.0], [-3.0, 0.5], [1e300, 1e300], [1e-300, -2e-300], [0.0, -0.0], [7.25, -1.5]]
B = [[0.5, -1.0], [2.0, 3.0], [3e299, -1e300], [4e-301, 1e-300], [0.0, 0.0], [1.0, 1e-20]]
case('div_c128', lambda: z(A) / z(B))
case('div_c64', lambda: z(A[:2] + A[5:], torch.complex64) / z(B[:2] + B[5:], torch.complex64))
case('div_real_divisor', lambda: z(A) / torch.tensor([2.0, -3.0, 7.0, 0.5, 1.0, 3.0], dtype=torch.float64))
case('mul_c128', lambda: z(A[:2] + A[5:]) * z(B[:2] + B[5:]))
case('promote_c64_f64', lambda: z([[1.0, 2.0]], torch.complex64) + torch.tensor([0.1], dtype=torch.float64))
case('promote_c64_i64', lambda: z([[1.0, 2.0]], torch.complex64) * torch.tensor([3]))
case('promote_f32_c128', lambda: torch.tensor([1.5], dtype=torch.float32) - z([[1.0, 2.0]]))
case('eq_ne', lambda: [z([[1, 2], [1, 0]]) == z([[1, 2], [1, 1]]), z([[1, 2], [1, 0]]) != z([[1, 2], [1, 1]])])

U = [[0.5, -1.25], [-2.0, 0.75], [0.0, 3.0], [-0.3, -0.2]]
for name in ['exp', 'log', 'log10', 'log2', 'log1p', 'expm1', 'sqrt', 'rsqrt', 'reciprocal', 'sin', 'cos', 'tan',
             'sinh', 'cosh', 'tanh', 'asin', 'acos', 'atan', 'asinh', 'acosh', 'atanh', 'sigmoid', 'sgn', 'angle',
             'abs', 'neg', 'square', 'exp2']:
    case(f'unary_{name}', lambda name=name: getattr(torch, name)(z(U)))
case('unary_sgn_zero', lambda: torch.sgn(z([[0.0, 0.0], [3.0, -4.0]])))
case('pow_scalar', lambda: [torch.pow(z(U), 2), torch.pow(z(U), 3), torch.pow(z(U), -1), torch.pow(z(U), 0.5),
                            torch.pow(z(U), 2.5)])
case('pow_tensor', lambda: torch.pow(z(U), z([[1.0, 0.5], [2.0, 0.0], [-1.0, 1.0], [0.5, -0.5]])))
case('angle_real', lambda: torch.angle(torch.tensor([-2.0, 0.0, 3.0, float('nan')])))
case('angle_int', lambda: torch.angle(torch.tensor([-2, 0, 3])))
case('polar', lambda: torch.polar(torch.tensor([1.0, 2.0, 0.5], dtype=torch.float64),
                                  torch.tensor([0.0, 1.0, -2.5], dtype=torch.float64)))
case('polar_f32', lambda: torch.polar(torch.tensor([1.0, 2.0]), torch.tensor([0.5, -1.0])))
case('polar_mixed', lambda: torch.polar(torch.tensor([1.0]), torch.tensor([1.0], dtype=torch.float64)))
case('polar_int', lambda: torch.polar(torch.tensor([1]), torch.tensor([1])))

M = z([[1, 2], [3, -1], [0.5, 0], [-2, 1], [0, 1], [1, 1]]).reshape(2, 3)
N = z([[2, -1], [0, 1], [1, 0.5], [3, 0], [-1, -1], [0.25, 2]]).reshape(3, 2)
case('sum', lambda: [M.sum(), M.sum(0), M.sum(1, keepdim=True)])
case('mean', lambda: [M.mean(), M.mean(1)])
case('prod', lambda: [M.prod(), M.prod(0)])
case('mm', lambda: M @ N)
case('mm_c64', lambda: M.to(torch.complex64) @ N.to(torch.complex64))
case('vdot_dot', lambda: [torch.vdot(M.flatten(), N.flatten()), torch.dot(M.flatten(), N.flatten())])
case('where', lambda: torch.where(torch.tensor([True, False]), z([[1, 2], [3, 4]]), z([[5, 6], [7, 8]])))


def grads(f, *pairs):
    xs = [z(p).requires_grad_() for p in pairs]
    out = f(*xs)
    return [out] + list(torch.autograd.grad(out, xs))


P = [[0.5, -1.25], [-2.0, 0.75], [1.0, 3.0]]
Q = [[1.5, 0.25], [0.5, -1.0], [-0.75, 2.0]]
case('grad_mul_abs', lambda: grads(lambda a, b: (a * b).abs().sum(), P, Q))
case('grad_div_real', lambda: grads(lambda a, b: (a / b).real.sum(), P, Q))
case('grad_exp_imag', lambda: grads(lambda a: a.exp().imag.sum(), P))
case('grad_log_abs', lambda: grads(lambda a: a.log().abs().sum(), P))
case('grad_sin_cos', lambda: grads(lambda a: (a.sin() * a.cos()).real.sum(), P))
case('grad_tanh_sigmoid', lambda: grads(lambda a: (a.tanh() + a.sigmoid()).abs().sum(), P))
case('grad_sqrt_recip', lambda: grads(lambda a: (a.sqrt() + a.reciprocal()).imag.sum(), P))
case('grad_pow', lambda: grads(lambda a: a.pow(3).abs().sum(), P))
case('grad_sgn', lambda: grads(lambda a: (a.sgn() * torch.tensor([1 + 2j, -1j, 0.5])).real.sum(), P))
case('grad_angle', lambda: grads(lambda a: a.angle().sum(), P))
case('grad_prod_mean', lambda: grads(lambda a: (a.prod() + a.mean()).abs(), P))
case('grad_mm', lambda: grads(lambda a, b: (a.reshape(3, 1) @ b.reshape(1, 3)).abs().sum(), P, Q))
case('grad_vdot', lambda: grads(lambda a, b: torch.vdot(a, b).abs(), P, Q))
case('grad_view_as_real', lambda: grads(lambda a: (torch.view_as_real(a) ** 2).sum(), P))


def grad_polar():
    r = torch.tensor([1.0, 2.0, 0.5], dtype=torch.float64, requires_grad=True)
    t = torch.tensor([0.0, 1.0, -2.5], dtype=torch.float64, requires_grad=True)
    out = (torch.polar(r, t) * torch.tensor([1 + 1j, 2 - 1j, -0.5j], dtype=torch.complex128)).real.sum()
    return [out] + list(torch.autograd.grad(out, [r, t]))


case('grad_polar', grad_polar)

os.makedirs(os.path.dirname(OUT), exist_ok=True)
with open(OUT, 'w') as f:
    json.dump({'generated_by': 'tools/golden/gen_complex_arith.py', 'torch_version': torch.__version__, 'cases': cases}, f,
              indent=1, allow_nan=False, default=str)
    f.write('\n')
