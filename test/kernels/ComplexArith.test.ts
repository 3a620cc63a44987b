// complex64/complex128 arithmetic against PyTorch 2.13: division (c10::complex's scaled Smith method, float64
// bits), promotion of real and complex operands, the unary complex functions, angle / polar (with their error
// texts), sum / mean / prod, mm / dot / vdot, where, and float64 gradients of real losses of complex128 inputs
// (PyTorch's conjugate Wirtinger convention). See Note [Complex loops in JS] in src/kernels/zmath.ts.
// Fixture: tools/golden/gen_complex_arith.py -> test/golden/complex_arith.json.
import { describe, expect, it } from 'vitest';
import * as torch from '../../src/torch.js';
import type { Tensor } from '../../src/tensor/Tensor.js';
import { checkResult, type Want } from '../compare.js';
import { loadGolden } from '../golden.js';

interface Case {
  result?: Want;
  error?: string;
}
const golden = loadGolden<{ cases: Record<string, Case> }>('complex_arith.json');
type Fn = (...a: unknown[]) => unknown;
const T = torch as unknown as Record<string, Fn>;

/** A complex tensor from [re, im] pairs (as the script's view_as_complex of a float64 tensor). */
function z(pairs: number[][], dtype = torch.complex128): Tensor {
  return torch.view_as_complex(torch.tensor(pairs, { dtype: torch.float64 })).to(dtype);
}
const f64 = (v: number[]): Tensor => torch.tensor(v, { dtype: torch.float64 });

const A = [
  [1, 2],
  [-3, 0.5],
  [1e300, 1e300],
  [1e-300, -2e-300],
  [0, -0],
  [7.25, -1.5],
];
const B = [
  [0.5, -1],
  [2, 3],
  [3e299, -1e300],
  [4e-301, 1e-300],
  [0, 0],
  [1, 1e-20],
];
const pick = (v: number[][]): number[][] => [v[0]!, v[1]!, v[5]!];
const U = [
  [0.5, -1.25],
  [-2, 0.75],
  [0, 3],
  [-0.3, -0.2],
];
const M = (): Tensor =>
  z([
    [1, 2],
    [3, -1],
    [0.5, 0],
    [-2, 1],
    [0, 1],
    [1, 1],
  ]).reshape([2, 3]);
const N = (): Tensor =>
  z([
    [2, -1],
    [0, 1],
    [1, 0.5],
    [3, 0],
    [-1, -1],
    [0.25, 2],
  ]).reshape([3, 2]);
const P = [
  [0.5, -1.25],
  [-2, 0.75],
  [1, 3],
];
const Q = [
  [1.5, 0.25],
  [0.5, -1],
  [-0.75, 2],
];

/** The value of a real loss of complex128 leaves and its gradients. */
function grads(f: (...xs: Tensor[]) => Tensor, ...pairs: number[][][]): Tensor[] {
  const xs = pairs.map((p) => z(p).requires_grad_());
  const out = f(...xs);
  return [out, ...(torch.autograd.grad([out], xs) as Tensor[])];
}

const UNARY = [
  'exp',
  'log',
  'log10',
  'log2',
  'log1p',
  'expm1',
  'sqrt',
  'rsqrt',
  'reciprocal',
  'sin',
  'cos',
  'tan',
  'sinh',
  'cosh',
  'tanh',
  'asin',
  'acos',
  'atan',
  'asinh',
  'acosh',
  'atanh',
  'sigmoid',
  'sgn',
  'angle',
  'abs',
  'neg',
  'square',
  'exp2',
];

const calls: Record<string, () => unknown> = {
  div_c128: () => torch.div(z(A), z(B)),
  div_c64: () => torch.div(z(pick(A), torch.complex64), z(pick(B), torch.complex64)),
  div_real_divisor: () => torch.div(z(A), f64([2, -3, 7, 0.5, 1, 3])),
  mul_c128: () => torch.mul(z(pick(A)), z(pick(B))),
  promote_c64_f64: () => torch.add(z([[1, 2]], torch.complex64), f64([0.1])),
  promote_c64_i64: () => torch.mul(z([[1, 2]], torch.complex64), torch.tensor([3])),
  promote_f32_c128: () => torch.sub(torch.tensor([1.5], { dtype: torch.float32 }), z([[1, 2]])),
  eq_ne: () => [
    torch.eq(
      z([
        [1, 2],
        [1, 0],
      ]),
      z([
        [1, 2],
        [1, 1],
      ]),
    ),
    torch.ne(
      z([
        [1, 2],
        [1, 0],
      ]),
      z([
        [1, 2],
        [1, 1],
      ]),
    ),
  ],
  ...Object.fromEntries(UNARY.map((n) => [`unary_${n}`, () => T[n]!(z(U))])),
  unary_sgn_zero: () =>
    torch.sgn(
      z([
        [0, 0],
        [3, -4],
      ]),
    ),
  pow_scalar: () => [2, 3, -1, 0.5, 2.5].map((e) => torch.pow(z(U), e)),
  pow_tensor: () =>
    torch.pow(
      z(U),
      z([
        [1, 0.5],
        [2, 0],
        [-1, 1],
        [0.5, -0.5],
      ]),
    ),
  angle_real: () => T.angle!(torch.tensor([-2, 0, 3, Number.NaN], { dtype: torch.float32 })),
  angle_int: () => T.angle!(torch.tensor([-2, 0, 3])),
  polar: () => T.polar!(f64([1, 2, 0.5]), f64([0, 1, -2.5])),
  polar_f32: () => T.polar!(torch.tensor([1, 2], { dtype: torch.float32 }), torch.tensor([0.5, -1], { dtype: torch.float32 })),
  polar_mixed: () => T.polar!(torch.tensor([1], { dtype: torch.float32 }), f64([1])),
  polar_int: () => T.polar!(torch.tensor([1]), torch.tensor([1])),
  sum: () => [M().sum(), M().sum(0), M().sum(1, true)],
  mean: () => [M().mean(), M().mean(1)],
  prod: () => [M().prod(), M().prod(0)],
  mm: () => torch.matmul(M(), N()),
  mm_c64: () => torch.matmul(M().to(torch.complex64), N().to(torch.complex64)),
  vdot_dot: () => [torch.vdot(M().flatten(), N().flatten()), torch.dot(M().flatten(), N().flatten())],
  where: () =>
    torch.where(
      torch.tensor([true, false]),
      z([
        [1, 2],
        [3, 4],
      ]),
      z([
        [5, 6],
        [7, 8],
      ]),
    ),
  grad_mul_abs: () => grads((a, b) => a.mul(b).abs().sum(), P, Q),
  grad_div_real: () => grads((a, b) => a.div(b).real.sum(), P, Q),
  grad_exp_imag: () => grads((a) => a.exp().imag.sum(), P),
  grad_log_abs: () => grads((a) => a.log().abs().sum(), P),
  grad_sin_cos: () => grads((a) => a.sin().mul(a.cos()).real.sum(), P),
  grad_tanh_sigmoid: () => grads((a) => a.tanh().add(a.sigmoid()).abs().sum(), P),
  grad_sqrt_recip: () => grads((a) => a.sqrt().add(a.reciprocal()).imag.sum(), P),
  grad_pow: () => grads((a) => a.pow(3).abs().sum(), P),
  grad_sgn: () =>
    grads(
      (a) =>
        a
          .sgn()
          .mul(
            z([
              [1, 2],
              [0, -1],
              [0.5, 0],
            ]),
          )
          .real.sum(),
      P,
    ),
  grad_angle: () => grads((a) => (T.angle!(a) as Tensor).sum(), P),
  grad_prod_mean: () => grads((a) => a.prod().add(a.mean()).abs(), P),
  grad_mm: () =>
    grads(
      (a, b) =>
        torch
          .matmul(a.reshape([3, 1]), b.reshape([1, 3]))
          .abs()
          .sum(),
      P,
      Q,
    ),
  grad_vdot: () => grads((a, b) => torch.vdot(a, b).abs(), P, Q),
  grad_view_as_real: () => grads((a) => torch.view_as_real(a).pow(2).sum(), P),
  grad_polar: () => {
    const r = f64([1, 2, 0.5]).requires_grad_();
    const t = f64([0, 1, -2.5]).requires_grad_();
    const out = (T.polar!(r, t) as Tensor)
      .mul(
        z([
          [1, 1],
          [2, -1],
          [0, -0.5],
        ]),
      )
      .real.sum();
    return [out, ...torch.autograd.grad([out], [r, t])];
  },
};

describe('complex arithmetic (PyTorch 2.13)', () => {
  it('covers every case of the fixture', () => {
    expect(Object.keys(calls).sort()).toEqual(Object.keys(golden.cases).sort());
  });
  it.each(Object.keys(golden.cases))('%s', (id) => {
    const c = golden.cases[id] as Case;
    const call = calls[id] as () => unknown;
    if (c.error !== undefined) {
      expect(call).toThrow(c.error);
      return;
    }
    // float64 division and products are PyTorch's bits; transcendental functions within a few ulps
    const exact = id.startsWith('div_c128') || id === 'mul_c128' || id.startsWith('promote');
    checkResult(id, call(), c.result as Want, exact ? { atol: 0, rtol: 0 } : { atol: 1e-12, rtol: 2e-6 });
  });
});
