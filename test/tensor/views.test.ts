// Views and shape ops against PyTorch 2.13: sizes, strides, offsets, storage sharing, values, errors.
// Fixture: test/golden/views.json (tools/golden/gen_views.py).
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import { loadGolden } from '../golden.js';

type Step = [string, ...unknown[]];
interface Case {
  shape: number[];
  steps: Step[];
  expected:
    { sizes: number[]; strides: number[]; offset: number; shares: boolean; values: number[]; contiguous: boolean } | { error: string };
}

const golden = loadGolden<{ cases: Case[] }>('views.json');

function apply(t: Tensor, [op, ...args]: Step): Tensor {
  const a = args as unknown as [never, never, never, never];
  switch (op) {
    case 'view':
      return t.view(a[0]);
    case 'reshape':
      return t.reshape(a[0]);
    case 'transpose':
      return t.transpose(a[0], a[1]);
    case 't':
      return t.t();
    case 'permute':
      return t.permute(a[0]);
    case 'expand':
      return t.expand(a[0]);
    case 'squeeze':
      return t.squeeze(a[0]);
    case 'unsqueeze':
      return t.unsqueeze(a[0]);
    case 'select':
      return t.select(a[0], a[1]);
    case 'slice':
      return t.slice(a[0], a[1], a[2], a[3]);
    case 'narrow':
      return t.narrow(a[0], a[1], a[2]);
    case 'flatten':
      return t.flatten(a[0], a[1]);
    case 'unflatten':
      return t.unflatten(a[0], a[1]);
    case 'as_strided':
      return t.as_strided(a[0], a[1], a[2]);
    case 'contiguous':
      return t.contiguous();
    default:
      throw new Error(`unknown step ${op}`);
  }
}

describe('views and shape ops (PyTorch golden)', () => {
  it('has the cases', () => expect(golden.cases.length).toBeGreaterThan(100));
  for (const c of golden.cases) {
    it(`[${c.shape.join(', ')}] ${c.steps
      .map(
        (s) =>
          `${s[0]}(${s
            .slice(1)
            .map((x) => JSON.stringify(x))
            .join(', ')})`,
      )
      .join('.')}`, () => {
      const n = c.shape.reduce((a, b) => a * b, 1);
      const base = torch.arange(n, { dtype: 'float32' }).reshape(c.shape);
      const run = () => c.steps.reduce(apply, base);
      if ('error' in c.expected) {
        expect(run).toThrow(c.expected.error);
        return;
      }
      const t = run();
      const e = c.expected;
      expect({ sizes: t.size(), strides: t.stride(), offset: t.storageOffset, contiguous: t.isContiguous() }).toEqual({
        sizes: e.sizes,
        strides: e.strides,
        offset: e.offset,
        contiguous: e.contiguous,
      });
      expect(t.sharesStorageWith(base)).toBe(e.shares);
      expect(t.contiguous().reshape(-1).tolist() as number[]).toEqual(e.values);
    });
  }
});
