// The one rule for the dtype a JavaScript number stands for (Note [JavaScript numbers as Python scalars] in
// src/c10/Scalar.ts), used alike by tensor construction, wrapped numbers and type promotion.
import { describe, expect, it } from 'vitest';
import { torch } from '../../src/api/index.js';
import { scalarTypeOfNumber } from '../../src/c10/Scalar.js';
import { ScalarType } from '../../src/c10/ScalarType.js';
import { resultType } from '../../src/iter/index.js';

describe('scalarTypeOfNumber', () => {
  it('maps booleans, integral numbers and other numbers to Bool, Long and Double', () => {
    expect(scalarTypeOfNumber(true)).toBe(ScalarType.Bool);
    expect(scalarTypeOfNumber(3)).toBe(ScalarType.Long);
    expect(scalarTypeOfNumber(0)).toBe(ScalarType.Long);
    expect(scalarTypeOfNumber(2.5)).toBe(ScalarType.Double);
    expect(scalarTypeOfNumber(Infinity)).toBe(ScalarType.Double);
  });

  it('takes -0 as a float everywhere (only a Python float has a signed zero)', () => {
    expect(scalarTypeOfNumber(-0)).toBe(ScalarType.Double);
    const ints = torch.tensor([1, 2]);
    // torch.add(int64, -0.0) and torch.clamp(int64, -0.0) both promote to the default float dtype in PyTorch.
    expect(torch.add(ints, -0).scalarType).toBe(ScalarType.Float);
    expect(torch.clamp(ints, -0).scalarType).toBe(ScalarType.Float);
    expect(resultType([ints, -0])).toBe(ScalarType.Float);
    expect(torch.tensor([-0]).scalarType).toBe(ScalarType.Float);
    expect(torch.clamp(ints, 0).scalarType).toBe(ScalarType.Long);
  });
});
