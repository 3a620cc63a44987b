// The runnable examples in examples/, executed so that they cannot rot.
import { describe, expect, it } from 'vitest';
import { fitALine } from '../examples/fit-a-line.js';

describe('examples/fit-a-line.ts', () => {
  it('learns y = 3x - 2 with autograd and plain gradient descent', () => {
    const r = fitALine();
    expect(r.w).toBeCloseTo(3, 2);
    expect(r.b).toBeCloseTo(-2, 2);
    expect(r.last).toBeLessThan(r.first / 1000);
  });
});
