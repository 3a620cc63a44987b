// Shared helpers for the autograd golden tests: building tensors from fixture specs, replaying a call spec
// through the public `torch` API, and comparing tensors with PyTorch's values within a tolerance.
import { torch, type Tensor } from '../../src/api/index.js';
import { Dtype } from '../../src/c10/Dtype.js';
import { tensorProblems } from '../matchers.js';

export type Value = number | boolean | string;

/** A tensor in a fixture: row-major values, `"nan"`/`"inf"`/`"-inf"` for non-finite floats. */
export interface TensorSpec {
  dtype: string;
  sizes: number[];
  values: Value[];
  /** A differentiable input: a leaf that requires grad. */
  grad?: boolean;
  /** The op gets `leaf.permute(permute)`, a non-contiguous view (the gradient is the leaf's). */
  permute?: number[];
}

/** A dtype argument (`x.to(torch.float32)`). */
export interface DtypeSpec {
  dtype: string;
}

export type Arg = TensorSpec | DtypeSpec | Arg[] | number | boolean | string | null;

export interface CallSpec {
  fn: string;
  name: string;
  method: boolean;
  args: Arg[];
  kwargs: Record<string, Arg>;
}

export function decode(v: Value): number | boolean {
  if (v === 'nan') return Number.NaN;
  if (v === 'inf') return Number.POSITIVE_INFINITY;
  if (v === '-inf') return Number.NEGATIVE_INFINITY;
  if (typeof v === 'string') throw new Error(`not a tensor value: ${v}`);
  return v;
}

export function dtypeOf(name: string): number {
  const d = (torch as unknown as Record<string, unknown>)[name];
  if (!(d instanceof Dtype)) throw new Error(`unknown dtype ${name}`);
  return d.scalarType;
}

const isTensorSpec = (a: Arg): a is TensorSpec => typeof a === 'object' && a !== null && !Array.isArray(a) && 'sizes' in a;
const isDtypeSpec = (a: Arg): a is DtypeSpec => typeof a === 'object' && a !== null && !Array.isArray(a) && !('sizes' in a);

export function tensorOf(spec: { dtype: string; sizes: readonly number[]; values: readonly Value[] }): Tensor {
  return torch.tensor(spec.values.map(decode) as number[], { dtype: spec.dtype }).reshape([...spec.sizes]);
}

/** Builds an argument; tensors marked `grad` become leaves that require grad and are appended to `leaves`. */
export function buildArg(a: Arg, leaves: Tensor[]): unknown {
  if (isTensorSpec(a)) {
    const t = tensorOf(a);
    if (a.grad === true) {
      t.requiresGrad_();
      leaves.push(t);
    }
    return a.permute === undefined ? t : t.permute(a.permute);
  }
  if (isDtypeSpec(a)) return dtypeOf(a.dtype);
  if (Array.isArray(a)) return a.map((x) => buildArg(x, leaves));
  if (a === 'inf' || a === '-inf' || a === 'nan') return decode(a);
  return a;
}

type Fn = (...args: unknown[]) => unknown;

/** Replays a call spec: `torch.<name>(...args, kwargs)` or `args[0].<name>(...rest, kwargs)`. */
export function callSpec(c: CallSpec, leaves: Tensor[]): unknown {
  const args = c.args.map((a) => buildArg(a, leaves));
  const kwargs = Object.fromEntries(Object.entries(c.kwargs).map(([k, v]) => [k, buildArg(v, leaves)]));
  if (Object.keys(kwargs).length > 0) args.push(kwargs);
  if (c.method) {
    const self = args.shift() as Tensor;
    const m = (self as unknown as Record<string, Fn | undefined>)[c.name];
    if (m === undefined) throw new Error(`aten-ts has no method Tensor.${c.name}`);
    return m.apply(self, args);
  }
  const f = (torch as unknown as Record<string, Fn | undefined>)[c.name];
  if (f === undefined) throw new Error(`aten-ts has no function torch.${c.name}`);
  return f(...args);
}

/** Row-major values of any tensor (views included). */
export function flatValues(t: Tensor): number[] {
  const l = t.detach().tolist() as unknown;
  return Array.isArray(l) ? (l.flat(Number.POSITIVE_INFINITY) as number[]) : [Number(l)];
}

export interface Tolerance {
  rtol: number;
  atol: number;
}

/** float64: what differs only by summation order; float32: a few ulps of values around 1. */
export function toleranceFor(dtype: string): Tolerance {
  return dtype === 'float64' ? { rtol: 1e-7, atol: 1e-9 } : { rtol: 1e-4, atol: 1e-5 };
}

/**
 * Compares a tensor with a fixture tensor: dtype, sizes and every value within `atol + rtol * |expected|`
 * (NaN matches NaN, infinities match exactly). Returns the problems found, empty when they agree; test/matchers.ts's
 * `tensorProblems` (Note [One set of test matchers]).
 */
export function compareTensor(
  what: string,
  got: Tensor,
  want: { dtype: string; sizes: readonly number[]; values: readonly Value[] },
  tol: Tolerance = toleranceFor(want.dtype),
): string[] {
  return tensorProblems(what, got, { dtype: want.dtype, sizes: [...want.sizes], values: [...want.values] }, tol);
}

/** The first line of an error's message. */
export function firstLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0] as string;
}
