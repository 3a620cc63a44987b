// The runnable examples in examples/, executed so that they cannot rot.
import { describe, expect, it } from 'vitest';
import { customOp } from '../examples/custom-op.js';
import { fitALine } from '../examples/fit-a-line.js';
import { torch } from '../src/index.js';

describe('examples/fit-a-line.ts', () => {
  it('learns y = 3x - 2 with autograd and plain gradient descent', () => {
    const r = fitALine();
    expect(r.w).toBeCloseTo(3, 2);
    expect(r.b).toBeCloseTo(-2, 2);
    expect(r.last).toBeLessThan(r.first / 1000);
  });
});

describe('examples/custom-op.ts', () => {
  it('defines a custom op with a fake kernel and a backward formula that passes opcheck', () => {
    const r = customOp();
    r.y.forEach((v, i) => expect(v).toBeCloseTo(2 * Math.sin([0, 0.5, 1][i]!), 5));
    r.grad.forEach((v, i) => expect(v).toBeCloseTo(2 * Math.cos([0, 0.5, 1][i]!), 5));
    expect(r.viaOps).toEqual(r.y);
    expect(r.metaShape).toEqual([8, 3]);
    expect(Object.entries(r.opcheck).filter(([, v]) => v !== 'SUCCESS')).toEqual([
      ['test_aot_dispatch_dynamic', torch.library.AOT_NOT_APPLICABLE],
    ]);
  });
});
