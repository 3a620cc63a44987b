// The test suite's one comparison of results with expected values, as two vitest matchers installed by
// test/setup.ts (`expect.extend`):
//   expect(x).toBeAllclose(y, { rtol, atol, equal_nan })   torch.allclose's rule, |x - y| <= atol + rtol * |y|
//   expect(x).toMatchGolden(entry, { atol, rtol, ... })    a result against its PyTorch golden entry
// The older helpers (test/compare.ts's `checkResult`, test/autograd/helpers.ts's `compareTensor`) are thin
// wrappers over the functions below. See Note [One set of test matchers].
//
// Note [One set of test matchers]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Every comparison of numbers goes through `valueProblems`: an expected value is a number, a boolean or the
// goldens' encoding of a non-finite float ('nan', 'inf', '-inf', tools/golden/_encode.py's `enc`); a NaN matches
// only a NaN (torch.allclose's equal_nan=False matches none), an infinity only itself, a number within
// `atol + rtol * |expected|` by a finite difference (torch.isclose's rule; `exactIntegers` makes integral expected values exact). A
// failure names the count of differing values and the worst one, so a large tensor's message stays short.
import { expect } from 'vitest';
import { Tensor, torch } from '../src/api/index.js';
import { Dtype } from '../src/c10/Dtype.js';
import { dtypeName } from '../src/c10/index.js';

/** An expected value as the goldens write it. */
export type GoldenValue = number | boolean | string;

export interface Tolerance {
  /** Relative tolerance. */
  rtol?: number;
  /** Absolute tolerance. */
  atol?: number;
  /** NaN matches NaN (torch.allclose's `equal_nan`; goldens' 'nan' always matches NaN). */
  equal_nan?: boolean;
  /** Integral expected numbers must match exactly. */
  exactIntegers?: boolean;
}

/** A tensor as tools/golden/_encode.py writes it; optional fields are compared only when present. */
export interface TensorSpec {
  dtype: string; // 'float32' or 'torch.float32'
  sizes: number[];
  strides?: number[];
  offset?: number;
  device?: string;
  /** Row-major values; non-finite floats as 'nan' / 'inf' / '-inf'; complex as [re, im] pairs. Absent: not compared. */
  values?: GoldenValue[];
  grad_fn?: string | null;
}
/** A golden result: a tensor, a plain value, or a tuple/list of results. */
export type Want = TensorSpec | { value: unknown } | Want[];

export interface GoldenOptions extends Tolerance {
  /** Names the case in failure messages. */
  label?: string;
}

function decode(e: unknown): unknown {
  if (e === 'nan') return Number.NaN;
  if (e === 'inf') return Number.POSITIVE_INFINITY;
  if (e === '-inf') return Number.NEGATIVE_INFINITY;
  return e;
}

/** The problems of `got` against `want` value by value (Note [One set of test matchers]); empty when they agree. */
export function valueProblems(what: string, got: readonly unknown[], want: readonly unknown[], tol: Tolerance = {}): string[] {
  const { rtol = 0, atol = 0, exactIntegers = false } = tol;
  if (got.length !== want.length) return [`${what}: ${got.length} values, expected ${want.length}`];
  let bad = 0;
  let worst = -1;
  let worstDiff = -1;
  want.forEach((raw, i) => {
    const e = decode(raw);
    const a = got[i];
    let ok: boolean;
    if (typeof e !== 'number' || typeof a !== 'number') ok = a === e;
    else if (Number.isNaN(e)) ok = Number.isNaN(a) && (raw === 'nan' || tol.equal_nan === true);
    else if (!Number.isFinite(e)) ok = a === e;
    else if (exactIntegers && Number.isInteger(e)) ok = a === e;
    else ok = a === e || (Number.isFinite(a - e) && Math.abs(a - e) <= atol + rtol * Math.abs(e)); // torch.isclose
    if (ok) return;
    bad++;
    const d = typeof a === 'number' && typeof e === 'number' && Number.isFinite(a - e) ? Math.abs(a - e) : Number.POSITIVE_INFINITY;
    if (d > worstDiff) [worst, worstDiff] = [i, d];
  });
  if (bad === 0) return [];
  return [
    `${what}: ${bad}/${want.length} values differ, max |diff| ${worstDiff.toExponential(2)} at ${worst} ` +
      `(got ${String(got[worst])}, expected ${String(want[worst])})`,
  ];
}

/** Row-major values of a tensor (complex as [re, im] pairs), or of a nested array. */
export function flatValues(x: unknown): unknown[] {
  if (x instanceof Tensor) {
    const d = x.detach();
    const l = (d.isComplex() ? torch.view_as_real(d) : d).reshape([-1]).tolist() as unknown;
    return Array.isArray(l) ? l : [l];
  }
  return Array.isArray(x) ? (x.flat(Number.POSITIVE_INFINITY) as unknown[]) : [x];
}

/** The problems of `actual` against `expected` (tensors, numbers or nested arrays): the shapes, when both have one, then the values. */
export function allcloseProblems(what: string, actual: unknown, expected: unknown, tol: Tolerance = {}): string[] {
  if (actual instanceof Tensor && expected instanceof Tensor && actual.sizes.join(',') !== expected.sizes.join(',')) {
    return [`${what}: sizes [${actual.sizes.join(', ')}], expected [${expected.sizes.join(', ')}]`];
  }
  return valueProblems(what, flatValues(actual), flatValues(expected), tol);
}

/** Whether a tensor's dtype is the one a golden names ('float32', 'torch.float32', or an alias: 'long', 'double'). */
function sameDtype(t: Tensor, name: string): boolean {
  const bare = name.replace(/^torch\./, '');
  const d = (torch as unknown as Record<string, unknown>)[bare];
  return d instanceof Dtype ? d.scalarType === t.scalarType : dtypeName(t.scalarType) === bare;
}

/** The problems of a tensor against a golden tensor's dtype, sizes, layout fields, grad_fn and values. */
export function tensorProblems(what: string, got: unknown, want: TensorSpec, tol: Tolerance = {}): string[] {
  if (!(got instanceof Tensor)) return [`${what}: expected a tensor, got ${String(got)}`];
  const problems: string[] = [];
  if (!sameDtype(got, want.dtype)) return [`${what}: dtype ${dtypeName(got.scalarType)}, expected ${want.dtype}`];
  if (got.sizes.join(',') !== want.sizes.join(','))
    return [`${what}: sizes [${got.sizes.join(', ')}], expected [${want.sizes.join(', ')}]`];
  if (want.strides !== undefined && got.strides.join(',') !== want.strides.join(','))
    problems.push(`${what}: strides [${got.strides.join(', ')}], expected [${want.strides.join(', ')}]`);
  if (want.offset !== undefined && got.storageOffset !== want.offset)
    problems.push(`${what}: storage offset ${got.storageOffset}, expected ${want.offset}`);
  if (want.device !== undefined && String(got.device) !== want.device)
    problems.push(`${what}: device ${String(got.device)}, expected ${want.device}`);
  if (want.grad_fn !== undefined && (got.gradFn?.name() ?? null) !== want.grad_fn)
    problems.push(`${what}: grad_fn ${got.gradFn?.name() ?? 'None'}, expected ${want.grad_fn ?? 'None'}`);
  if (want.values !== undefined && !got.isMeta()) problems.push(...valueProblems(what, flatValues(got), want.values, tol));
  return problems;
}

/** The problems of a result against its golden entry (a tensor, a plain value or a list of them). */
export function goldenProblems(what: string, got: unknown, want: Want, tol: Tolerance = {}): string[] {
  if (Array.isArray(want)) {
    if (!Array.isArray(got)) return [`${what}: expected a list of ${want.length}, got ${String(got)}`];
    if (got.length !== want.length) return [`${what}: ${got.length} results, expected ${want.length}`];
    return want.flatMap((w, i) => goldenProblems(`${what}[${i}]`, got[i], w, tol));
  }
  if ('value' in want) {
    try {
      expect(got).toEqual(want.value);
      return [];
    } catch {
      return [`${what}: ${JSON.stringify(got)}, expected ${JSON.stringify(want.value)}`];
    }
  }
  return tensorProblems(what, got, want, tol);
}

interface MatcherResult {
  pass: boolean;
  message: () => string;
}

function result(problems: string[], isNot: boolean, what: string): MatcherResult {
  return {
    pass: problems.length === 0,
    message: () => (isNot ? `expected ${what} not to match, but it does` : problems.join('\n')),
  };
}

/** The matchers test/setup.ts installs. */
export const matchers = {
  toBeAllclose(this: { isNot: boolean }, received: unknown, expected: unknown, tol: Tolerance = {}): MatcherResult {
    const t = { rtol: 1e-5, atol: 1e-8, ...tol };
    return result(allcloseProblems('allclose', received, expected, t), this.isNot, 'the values');
  },
  toMatchGolden(this: { isNot: boolean }, received: unknown, want: Want, options: GoldenOptions = {}): MatcherResult {
    const { label = 'result', ...tol } = options;
    return result(goldenProblems(label, received, want, tol), this.isNot, label);
  },
};

interface TestMatchers<R = unknown> {
  /** torch.allclose's rule value by value (default rtol 1e-5, atol 1e-8); tensors must also agree in sizes. */
  toBeAllclose(expected: unknown, tol?: Tolerance): R;
  /** A result against its PyTorch golden entry (dtype, sizes, recorded layout fields, grad_fn, values). */
  toMatchGolden(want: Want, options?: GoldenOptions): R;
}

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any, @typescript-eslint/no-empty-object-type
  interface Assertion<T = any> extends TestMatchers<T> {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AsymmetricMatchersContaining extends TestMatchers {}
}
