// Compares a result with its PyTorch golden: the one `check` the fixture-driven parity tests share
// (test/kernels/AllcloseDiffBucketize.test.ts, UniqueMultinomialEinsum.test.ts, UniqueConsecutiveComplexViews.test.ts, test/api/kwargs.test.ts, test/api/api_overloads.test.ts). The goldens come
// from tools/golden/_encode.py's `spec`; which layout fields a fixture records decides what is compared.
import { expect } from 'vitest';
import { torch, Tensor } from '../src/api/index.js';
import { dtypeName } from '../src/c10/index.js';

/** A tensor as tools/golden/_encode.py writes it; optional fields are compared only when present. */
export interface TensorSpec {
  dtype: string; // 'float32' or 'torch.float32'
  sizes: number[];
  strides?: number[];
  offset?: number;
  device?: string;
  /** Row-major values; non-finite floats as 'nan' / 'inf' / '-inf'; complex as [re, im] pairs. Absent: not compared. */
  values?: (number | boolean | string)[];
  grad_fn: string | null;
}
/** A result: a tensor, a plain value, or a tuple/list of results. */
export type Want = TensorSpec | { value: unknown } | Want[];

export interface CheckOptions {
  /** Absolute tolerance on floats (default 5e-7: toBeCloseTo's 6 digits). */
  atol?: number;
  /** Relative tolerance on floats (default 0). */
  rtol?: number;
  /** Integral expected values must match exactly (default true). */
  exactIntegers?: boolean;
}

function matches(a: unknown, e: number | boolean | string, o: Required<CheckOptions>): boolean {
  if (e === 'nan') return typeof a === 'number' && Number.isNaN(a);
  if (e === 'inf' || e === '-inf') return a === (e === 'inf' ? Infinity : -Infinity);
  if (typeof a !== 'number' || typeof e !== 'number') return a === e;
  if (o.exactIntegers && Number.isInteger(e)) return a === e;
  return Math.abs(a - e) <= o.atol + o.rtol * Math.abs(e);
}

/** Asserts that `got` matches `want` field by field; `label` names the case in failure messages. */
export function checkResult(label: string, got: unknown, want: Want, options: CheckOptions = {}): void {
  const o: Required<CheckOptions> = { atol: 5e-7, rtol: 0, exactIntegers: true, ...options };
  if (Array.isArray(want)) {
    expect(Array.isArray(got), label).toBe(true);
    const g = got as unknown[];
    expect(g.length, label).toBe(want.length);
    want.forEach((w, i) => checkResult(`${label}[${i}]`, g[i], w, options));
    return;
  }
  if ('value' in want) {
    expect(got, label).toEqual(want.value);
    return;
  }
  expect(got instanceof Tensor, label).toBe(true);
  const t = got as Tensor;
  expect(dtypeName(t.scalarType), label).toBe(want.dtype.replace(/^torch\./, ''));
  expect(t.sizes, label).toEqual(want.sizes);
  if (want.strides !== undefined) expect(t.strides, label).toEqual(want.strides);
  if (want.offset !== undefined) expect(t.storageOffset, label).toBe(want.offset);
  if (want.device !== undefined) expect(String(t.device), label).toBe(want.device);
  expect(t.gradFn?.name() ?? null, label).toBe(want.grad_fn);
  if (want.values === undefined || t.isMeta()) return;
  const d = t.detach();
  const values = (d.isComplex() ? torch.view_as_real(d) : d).reshape([-1]).tolist() as (number | boolean)[];
  expect(values.length, label).toBe(want.values.length);
  values.forEach((v, i) => {
    const e = want.values![i]!;
    expect(matches(v, e, o), `${label} value ${i}: ${v} vs ${e}`).toBe(true);
  });
}

/** The api-forms fixtures' tolerance (api_forms*.json): numpy's allclose at 1e-5, integers included. */
export const API_TOLERANCE: CheckOptions = { atol: 1e-5, rtol: 1e-5, exactIntegers: false };
