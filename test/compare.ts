// Compares a result with its PyTorch golden: the one `check` the fixture-driven parity tests share
// (test/kernels/AllcloseDiffBucketize.test.ts, UniqueMultinomialEinsum.test.ts, UniqueConsecutiveComplexViews.test.ts, test/api/kwargs.test.ts, test/api/api_overloads.test.ts). The goldens come
// from tools/golden/_encode.py's `spec`; which layout fields a fixture records decides what is compared. A thin
// wrapper over test/matchers.ts's `toMatchGolden`.
import { expect } from 'vitest';
import type { Tolerance, Want } from './matchers.js';

export type { TensorSpec, Want } from './matchers.js';

export type CheckOptions = Tolerance;

/**
 * Asserts that `got` matches `want` field by field; `label` names the case in failure messages. Floats within
 * 5e-7 (toBeCloseTo's 6 digits) unless `options` says otherwise, integral values exact: `toMatchGolden`
 * (Note [One set of test matchers] in test/matchers.ts) with those defaults.
 */
export function checkResult(label: string, got: unknown, want: Want, options: CheckOptions = {}): void {
  expect(got).toMatchGolden(want, { atol: 5e-7, rtol: 0, exactIntegers: true, ...options, label });
}

/** The api-forms fixtures' tolerance (api_forms*.json): numpy's allclose at 1e-5, integers included. */
export const API_TOLERANCE: CheckOptions = { atol: 1e-5, rtol: 1e-5, exactIntegers: false };
