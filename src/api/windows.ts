// `torch.signal.windows`: the window functions of torch/signal/windows/windows.py (Python composites over
// linspace, exp, cos, i0, ...), with PyTorch's keyword arguments and error texts: bartlett, blackman, cosine,
// exponential, gaussian, general_cosine, general_hamming, hamming, hann, kaiser, nuttall. Each builds the same
// linspace as PyTorch (its endpoints computed in double, as Python floats) and the same tensor expression, so
// float32 windows round as PyTorch's do. ValueError is a RangeError here (Note [Index errors as PyTorch's]).
// Browser-safe.

import { bindArgs } from '../c10/Kwargs.js';
import { Layout, layoutPythonName, parseLayout } from '../c10/Layout.js';
import { type DtypeLike, toDtype } from '../c10/Dtype.js';
import { ScalarType } from '../c10/ScalarType.js';
import {
  abs,
  add,
  arange,
  cos,
  div,
  empty,
  exp,
  i0,
  linspace,
  minimum,
  mul,
  neg,
  ones,
  pow,
  sin,
  sqrt,
  sub,
  sum,
  unsqueeze,
} from '../generated/functions.js';
import type { Tensor } from '../tensor/Tensor.js';
import { get_default_dtype } from './dtypes.js';
import { tensor, type TensorOptions } from './torch.js';

/** The factory keywords every window takes, besides `sym`. */
interface WindowOptions {
  sym?: boolean;
  dtype?: DtypeLike | null;
  layout?: Layout | string | null;
  device?: TensorOptions['device'];
  requires_grad?: boolean;
  requiresGrad?: boolean;
}

const FACTORY = { sym: true, dtype: null, layout: Layout.Strided, device: null, requires_grad: false };

interface Resolved {
  sym: boolean;
  dtype: DtypeLike;
  layout: Layout;
  device: TensorOptions['device'];
  requires_grad: boolean;
  [k: string]: unknown;
}

/** Binds the keywords (`params` adds the window's own, with defaults) and runs _window_function_checks. */
function resolve(name: string, M: number, options: unknown, params: Record<string, unknown> = {}): Resolved {
  const o = bindArgs(name, { ...params, ...FACTORY }, options === undefined ? [] : [options]) as Resolved;
  const dtype = o.dtype === null ? get_default_dtype() : toDtype(o.dtype);
  const layout = typeof o.layout === 'string' ? parseLayout(o.layout) : o.layout;
  if (M < 0) throw new RangeError(`${name} requires non-negative window length, got M=${M}`);
  if (layout !== Layout.Strided)
    throw new RangeError(`${name} is implemented for strided tensors only, got: torch.${layoutPythonName(layout)}`);
  const st = dtype.scalarType;
  if (st !== ScalarType.Float && st !== ScalarType.Double)
    throw new RangeError(`${name} expects float32 or float64 dtypes, got: torch.${dtype.name}`);
  return { ...o, dtype, layout, sym: Boolean(o.sym), requires_grad: Boolean(o.requires_grad) };
}

const factory = (o: Resolved): { dtype: DtypeLike; layout: Layout; device: TensorOptions['device']; requires_grad: boolean } => ({
  dtype: o.dtype,
  layout: o.layout,
  device: o.device,
  requires_grad: o.requires_grad,
});
const emptyWindow = (o: Resolved): Tensor => empty([0], factory(o));
const onesWindow = (o: Resolved): Tensor => ones([1], factory(o));
const span = (o: Resolved, M: number): number => (!o.sym && M > 1 ? M : M - 1);

/** exp(-|n - center| / tau). */
export function exponential(M: number, options?: WindowOptions & { center?: number | null; tau?: number }): Tensor {
  const o = resolve('exponential', M, options, { center: null, tau: 1.0 });
  const tau = o['tau'] as number;
  let center = o['center'] as number | null;
  if (tau <= 0) throw new RangeError(`Tau must be positive, got: ${pyFloat(tau)} instead.`);
  if (o.sym && center !== null) throw new RangeError('Center must be None for symmetric windows');
  if (M === 0) return emptyWindow(o);
  if (center === null) center = span(o, M) / 2.0;
  const c = 1 / tau;
  const k = linspace(-center * c, (-center + (M - 1)) * c, M, factory(o));
  return exp(neg(abs(k)));
}

/** sin(pi (n + 1/2) / M). */
export function cosine(M: number, options?: WindowOptions): Tensor {
  const o = resolve('cosine', M, options);
  if (M === 0) return emptyWindow(o);
  const c = Math.PI / (!o.sym && M > 1 ? M + 1 : M);
  return sin(linspace(0.5 * c, (0.5 + (M - 1)) * c, M, factory(o)));
}

/** exp(-(n - (M - 1) / 2)^2 / (2 std^2)). */
export function gaussian(M: number, options?: WindowOptions & { std?: number }): Tensor {
  const o = resolve('gaussian', M, options, { std: 1.0 });
  const std = o['std'] as number;
  if (std <= 0) throw new RangeError(`Standard deviation must be positive, got: ${pyFloat(std)} instead.`);
  if (M === 0) return emptyWindow(o);
  const start = -span(o, M) / 2.0;
  const c = 1 / (std * Math.sqrt(2));
  const k = linspace(start * c, (start + (M - 1)) * c, M, factory(o));
  return exp(neg(pow(k, 2)));
}

/** I0(beta sqrt(1 - (2n / (M - 1) - 1)^2)) / I0(beta), on a linspace of tensor endpoints as PyTorch's. */
export function kaiser(M: number, options?: WindowOptions & { beta?: number }): Tensor {
  const o = resolve('kaiser', M, options, { beta: 12.0 });
  const betaValue = o['beta'] as number;
  if (betaValue < 0) throw new RangeError(`beta must be non-negative, got: ${pyFloat(betaValue)} instead.`);
  if (M === 0) return emptyWindow(o);
  if (M === 1) return onesWindow(o);
  const beta = tensor(betaValue, { dtype: o.dtype, device: o.device });
  const start = neg(beta);
  const constant = div(mul(beta, 2.0), o.sym ? M - 1 : M);
  const end = minimum(beta, add(start, mul(constant, M - 1)));
  const k = linspace(start, end, M, factory(o));
  return div(i0(sqrt(sub(mul(beta, beta), pow(k, 2)))), i0(beta));
}

/** The periodic or symmetric Hamming window: general_hamming with alpha = 0.54. */
export function hamming(M: number, options?: WindowOptions): Tensor {
  return general_hamming(M, options);
}

/** The Hann window: general_hamming with alpha = 0.5. */
export function hann(M: number, options?: WindowOptions): Tensor {
  return general_hamming(M, { ...options, alpha: 0.5 });
}

/** The Blackman window: general_cosine with a = [0.42, 0.5, 0.08]. */
export function blackman(M: number, options?: WindowOptions): Tensor {
  const o = resolve('blackman', M, options);
  return general_cosine(M, { a: [0.42, 0.5, 0.08], ...factory(o), sym: o.sym });
}

/** The triangular window 1 - |2n / (M - 1) - 1|. */
export function bartlett(M: number, options?: WindowOptions): Tensor {
  const o = resolve('bartlett', M, options);
  if (M === 0) return emptyWindow(o);
  if (M === 1) return onesWindow(o);
  const c = 2 / (o.sym ? M - 1 : M);
  const k = linspace(-1, -1 + (M - 1) * c, M, factory(o));
  return sub(1, abs(k));
}

/** sum_i (-1)^i a_i cos(2 pi i n / (M - 1)). */
export function general_cosine(M: number, options?: WindowOptions & { a?: readonly number[] }): Tensor {
  if (options?.a === undefined) throw new TypeError("general_cosine() missing 1 required keyword-only argument: 'a'");
  const o = resolve('general_cosine', M, options, { a: undefined });
  if (M === 0) return emptyWindow(o);
  if (M === 1) return onesWindow(o);
  const a = o['a'];
  if (!Array.isArray(a)) throw new TypeError('Coefficients must be a list/tuple');
  if (a.length === 0) throw new RangeError('Coefficients cannot be empty');
  const c = (2 * Math.PI) / (o.sym ? M - 1 : M);
  const k = linspace(0, (M - 1) * c, M, factory(o));
  const ai = tensor(
    (a as number[]).map((w, i) => (i % 2 === 0 ? 1 : -1) * w),
    { dtype: o.dtype, device: o.device, requires_grad: o.requires_grad },
  );
  const i = arange(0, ai.shape[0] as number, { dtype: ai.dtype, device: ai.device, requires_grad: ai.requires_grad });
  return sum(mul(unsqueeze(ai, -1), cos(mul(unsqueeze(i, -1), k))), 0);
}

/** alpha - (1 - alpha) cos(2 pi n / (M - 1)). */
export function general_hamming(M: number, options?: WindowOptions & { alpha?: number }): Tensor {
  const { alpha = 0.54, ...rest } = options ?? {};
  return general_cosine(M, { ...rest, a: [alpha, 1.0 - alpha] });
}

/** The minimum 4-term Blackman-Harris window of Nuttall. */
export function nuttall(M: number, options?: WindowOptions): Tensor {
  return general_cosine(M, { ...options, a: [0.3635819, 0.4891775, 0.1365995, 0.0106411] });
}

/** The value as Python formats the argument: the defaults are floats (`1.0`), a number passed in prints as given. */
function pyFloat(v: number): string {
  return String(v);
}
