// adaptive_avg_pool2d, adaptive_max_pool2d (+ backwards) and the 1-d pooling functions against PyTorch 2.13:
// test/golden/adaptive_pool.json (tools/golden/gen_adaptive_pool.py), replayed by ./opCases.ts.
import { describe } from 'vitest';
import { loadGolden } from '../golden.js';
import { opCases, type OpCase } from './opCases.js';

describe('adaptive and 1-d pooling (PyTorch golden)', () => {
  opCases(loadGolden<{ cases: OpCase[] }>('adaptive_pool.json').cases);
});
