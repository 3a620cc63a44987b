// torch.special's functions (src/kernels/MathBessel.ts, MathErfcx.ts, MathPolynomials.ts, Math.ts's i0e / i1e)
// against PyTorch 2.13 at the branch points of their approximations, in float64 and float32. Fixture:
// test/golden/special_torch.json (tools/golden/gen_special_torch.py). Special values (NaN, ±inf, ±0) must match
// exactly. Finite float64 values within 64 ulps or 1e-13 relative (libm's sin/cos/exp differ from V8's by an
// ulp, which the asymptotic Bessel forms carry; PyTorch's build contracts the polynomial recurrences into fmas,
// See Note [Polynomials in the compute dtype]). float32 within torch.testing.assert_close's tolerances (rtol
// 1.3e-6, atol 1e-5): PyTorch evaluates the Cephes series in float (with truncated float coefficients for i1),
// aten-ts in double rounded once (Note [Special functions in double] in src/kernels/SpecialOpsKernel.ts), and the two differ
// by up to ~2e-5 relative where float loses digits (airy_ai at -30, bessel_j0 at 100: values of ~1e-2).
// Plus torch.signal.windows' argument checks with PyTorch's texts, and torch.special's aliases.
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/index.js';
import { loadGolden } from '../golden.js';

type V = number | 'nan' | 'inf' | '-inf';
interface Unary {
  op: string;
  dtype: 'float32' | 'float64';
  input: V[];
  result: V[];
}
interface Binary {
  op: string;
  dtype: 'float32' | 'float64';
  x: V[];
  n: V[];
  result: V[];
}

const golden = loadGolden<{ unary: Unary[]; binary: Binary[] }>('special_torch.json');
const dec = (v: V): number => (v === 'nan' ? NaN : v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v);
const special = torch.special as unknown as Record<string, (...a: unknown[]) => Tensor>;

function ulp(v: number, dtype: 'float32' | 'float64'): number {
  const a = Math.abs(v);
  const bits = dtype === 'float64' ? 52 : 23;
  const min = dtype === 'float64' ? 2 ** -1074 : 2 ** -149;
  return a === 0 ? min : Math.max(2 ** (Math.floor(Math.log2(a)) - bits), min);
}

function mismatches(got: number[], want: V[], dtype: 'float32' | 'float64', label: (i: number) => string): string[] {
  const bad: string[] = [];
  want.forEach((w, i) => {
    const e = dec(w);
    const g = got[i] as number;
    const d = Math.abs(g - e);
    const close = dtype === 'float64' ? d <= Math.max(64 * ulp(e, dtype), 1e-13 * Math.abs(e)) : d <= 1e-5 + 1.3e-6 * Math.abs(e);
    const ok = Number.isFinite(e) ? close : Object.is(g, e);
    if (!ok) bad.push(`${label(i)}: ${g} vs ${e}`);
  });
  return bad;
}

const dtypeOf = (d: 'float32' | 'float64'): typeof torch.float32 => (d === 'float64' ? torch.float64 : torch.float32);

describe('torch.special against PyTorch 2.13 at the branch points', () => {
  it('covers every function in both dtypes', () => {
    expect(new Set(golden.unary.map((c) => `${c.op}:${c.dtype}`)).size).toBe(38);
    expect(new Set(golden.binary.map((c) => `${c.op}:${c.dtype}`)).size).toBe(24);
  });

  it.each(golden.unary.map((c) => [`${c.op} ${c.dtype}`, c] as const))('%s', (_name, c) => {
    const x = torch.tensor(c.input.map(dec), { dtype: dtypeOf(c.dtype) });
    const got = (special[c.op] as (t: Tensor) => Tensor)(x).tolist() as number[];
    expect(mismatches(got, c.result, c.dtype, (i) => `x=${String(c.input[i])}`)).toEqual([]);
  });

  it.each(golden.binary.map((c) => [`${c.op} ${c.dtype}`, c] as const))('%s', (_name, c) => {
    const x = torch.tensor(c.x.map(dec), { dtype: dtypeOf(c.dtype) });
    const n = torch.tensor(c.n.map(dec), { dtype: dtypeOf(c.dtype) });
    const got = (special[c.op] as (a: Tensor, b: Tensor) => Tensor)(x, n).tolist() as number[];
    expect(mismatches(got, c.result, c.dtype, (i) => `x=${String(c.x[i])} n=${String(c.n[i])}`)).toEqual([]);
  });

  it('binds the Scalar overloads and the aliases of core operators', () => {
    const x = torch.tensor([0.25, 0.5], { dtype: torch.float64 });
    expect(torch.special.chebyshev_polynomial_t(x, 3).tolist()).toEqual(
      torch.special.chebyshev_polynomial_t(x, torch.tensor([3.0, 3.0], { dtype: torch.float64 })).tolist(),
    );
    expect(torch.special.zeta(2, torch.tensor([1.0], { dtype: torch.float64 })).item()).toBeCloseTo(Math.PI ** 2 / 6, 14);
    expect(torch.special.expit(x).tolist()).toEqual(torch.sigmoid(x).tolist());
    expect(torch.special.psi(x).tolist()).toEqual(torch.digamma(x).tolist());
    expect(torch.special.gammaln(x).tolist()).toEqual(torch.lgamma(x).tolist());
    expect(() => torch.special.bessel_j0(torch.tensor([1], { dtype: torch.float16 }))).toThrow(
      `"bessel_j0_cpu" not implemented for 'Half'`,
    );
  });

  it("has PyTorch's differentiability: Bessel functions and polynomials are non_differentiable", () => {
    const x = torch.tensor([0.5, 1.5], { dtype: torch.float64, requires_grad: true });
    expect(torch.special.bessel_j0(x).grad_fn).toBeNull();
    expect(torch.special.legendre_polynomial_p(x, 2).grad_fn).toBeNull();
    expect(torch.special.i1e(x).grad_fn?.name()).toBe('SpecialI1EBackward0');
  });
});

describe('torch.signal.windows', () => {
  const w = torch.signal.windows;
  it("checks its arguments with PyTorch's texts (ValueError as RangeError)", () => {
    expect(() => w.hann(-1)).toThrow(new RangeError('general_cosine requires non-negative window length, got M=-1'));
    expect(() => w.bartlett(3, { dtype: torch.int64 })).toThrow('bartlett expects float32 or float64 dtypes, got: torch.int64');
    expect(() => w.cosine(3, { layout: 'sparse_coo' })).toThrow('cosine is implemented for strided tensors only, got: torch.sparse_coo');
    expect(() => w.exponential(3, { center: 1 })).toThrow('Center must be None for symmetric windows');
    expect(() => w.gaussian(3, { std: -0.5 })).toThrow('Standard deviation must be positive, got: -0.5 instead.');
    expect(() => w.general_cosine(3, { a: [] })).toThrow('Coefficients cannot be empty');
    expect(() => w.hann(3, { beta: 1 } as never)).toThrow(TypeError);
  });
  it('has the empty, one-point and periodic forms', () => {
    expect(w.kaiser(0).shape).toEqual([0]);
    expect(w.blackman(1).tolist()).toEqual([1]);
    // a periodic window of M points is the symmetric one of M + 1 without its last point
    const sym = w.hann(9, { dtype: torch.float64 }).tolist() as number[];
    const periodic = w.hann(8, { sym: false, dtype: torch.float64 }).tolist() as number[];
    periodic.forEach((v, i) => expect(v).toBeCloseTo(sym[i] as number, 15));
    expect(w.hamming(5).dtype).toBe(torch.float32);
  });
});
