// Shared by the autograd semantics tests (test/autograd/semantics_*.test.ts): the fixture
// (test/golden/autograd_semantics.json, written by tools/golden/gen_autograd_semantics.py), the encoders that write
// aten-ts's observations as the generator's tools/golden/autograd_semantics/common.py writes PyTorch's, and
// `replayScenarios`, which compares one topic's replays with the fixture. Floats are compared to 1e-6 relative (the
// gradients are float32 sums).
import { describe, expect, it } from 'vitest';
import { torch } from '../../../src/api/index.js';
import { dtypeName } from '../../../src/c10/index.js';
import type { Node } from '../../../src/autograd/index.js';
import { Tensor } from '../../../src/tensor/Tensor.js';
import { loadGolden } from '../../golden.js';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

export const golden = loadGolden<{ scenarios: Record<string, Json> }>('autograd_semantics.json');

export interface TensorRecord {
  dtype: string;
  sizes: number[];
  values: Json[];
  [k: string]: Json;
}

/** A tensor as the generator writes it: {dtype, sizes, values (flattened)}, or null. */
export function T(t: Tensor | null | undefined): TensorRecord | null {
  if (t === null || t === undefined) return null;
  const d = t.detach();
  return { dtype: dtypeName(d.scalarType), sizes: [...d.sizes], values: flat(d.tolist() as Json) };
}

export function flat(v: Json): Json[] {
  return Array.isArray(v) ? v.flatMap(flat) : [v];
}

export function name(node: Node | null | undefined): string | null {
  return node === null || node === undefined ? null : node.name();
}

export function nf(node: Node | null): Json {
  return (node as Node).nextFunctions.map(([n, nr]) => [name(n), nr]);
}

/** `{ok: result}` or `{error: message}`, as the generator's `err`. */
export function err(fn: () => unknown): Json {
  try {
    const r = fn();
    return { ok: r instanceof Tensor ? T(r) : r === undefined ? null : (r as Json) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

export function leaf(values: number | number[] | number[][] | number[][][], dtype = 'float32'): Tensor {
  return torch.tensor(values, { dtype, requires_grad: true });
}

export function f32(values: number | number[] | number[][]): Tensor {
  return torch.tensor(values, { dtype: 'float32' });
}

// Note [Known differences from PyTorch]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Observations where aten-ts still differs, each with the reason and the file that owns the fix. They are
// asserted to differ, so an entry must be removed (and the observation then compared) once it is fixed.
// Empty today: every observation of the fixture matches PyTorch.
const KNOWN_DIFFERENCES: Record<string, Record<string, string>> = {};

/** `actual` with every number that is within 1e-6 (relative) of the expected one replaced by it. */
function alignFloats(actual: Json, expected: Json): Json {
  if (typeof actual === 'number' && typeof expected === 'number') {
    return Math.abs(actual - expected) <= 1e-6 * Math.max(1, Math.abs(expected)) ? expected : actual;
  }
  if (Array.isArray(actual) && Array.isArray(expected)) return actual.map((a, i) => alignFloats(a, expected[i] ?? null));
  if (
    actual !== null &&
    expected !== null &&
    typeof actual === 'object' &&
    typeof expected === 'object' &&
    !Array.isArray(actual) &&
    !Array.isArray(expected)
  ) {
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(actual)) out[k] = alignFloats(v, expected[k] ?? null);
    return out;
  }
  return actual;
}

/** Replays each scenario of `scenarios` (one topic) against the fixture's observations. */
export function replayScenarios(topic: string, scenarios: Record<string, () => Json>): void {
  describe(`autograd semantics against PyTorch 2.13: ${topic} (autograd_semantics.json)`, () => {
    it('every scenario replayed here is in the fixture', () => {
      expect(Object.keys(scenarios).filter((k) => !(k in golden.scenarios))).toEqual([]);
      expect(Object.keys(scenarios).length).toBeGreaterThan(0);
    });

    for (const [key, run] of Object.entries(scenarios)) {
      it(key, () => {
        const expected = golden.scenarios[key];
        if (expected === undefined) throw new Error(`scenario ${key} is not in the fixture`);
        let actual: Json;
        try {
          actual = run();
        } finally {
          // A failing scenario must not leave a grad mode behind for the next one.
          torch.setGradEnabled(true);
        }
        const got = alignFloats(actual, expected) as Record<string, Json>;
        const want = { ...(expected as Record<string, Json>) };
        for (const [k, why] of Object.entries(KNOWN_DIFFERENCES[key] ?? {})) {
          expect(k in want, `${key}.${k}: no such observation`).toBe(true);
          expect(
            got[k],
            `${key}.${k} is a known difference (${why}) but now matches PyTorch: remove it from KNOWN_DIFFERENCES`,
          ).not.toEqual(want[k]);
          delete got[k];
          delete want[k];
        }
        expect(got).toEqual(want);
      });
    }
  });
}
