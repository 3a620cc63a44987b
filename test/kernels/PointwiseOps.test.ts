// addcmul, addcdiv, clamp_min, clamp_max and isclose against PyTorch 2.13: test/golden/pointwise.json
// (tools/golden/gen_pointwise.py), replayed by ./opCases.ts.
import { describe } from 'vitest';
import { loadGolden } from '../golden.js';
import { opCases, type OpCase } from './opCases.js';

describe('pointwise ops (PyTorch golden)', () => {
  opCases(loadGolden<{ cases: OpCase[] }>('pointwise.json').cases);
});
