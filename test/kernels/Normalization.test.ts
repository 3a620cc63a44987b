// batch_norm, native_batch_norm (+ backward, running statistics), instance_norm, group_norm and
// native_group_norm (+ backward) against PyTorch 2.13: test/golden/normalization.json
// (tools/golden/gen_normalization.py), replayed by ./opCases.ts.
import { describe } from 'vitest';
import { loadGolden } from '../golden.js';
import { opCases, type OpCase } from './opCases.js';

describe('normalization (PyTorch golden)', () => {
  opCases(loadGolden<{ cases: OpCase[] }>('normalization.json').cases);
});
