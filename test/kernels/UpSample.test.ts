// upsample_nearest2d, upsample_bilinear2d (+ .vec overloads, backwards) against PyTorch 2.13:
// test/golden/upsample.json (tools/golden/gen_upsample.py), replayed by ./opCases.ts.
import { describe } from 'vitest';
import { loadGolden } from '../golden.js';
import { opCases, type OpCase } from './opCases.js';

describe('upsampling (PyTorch golden)', () => {
  opCases(loadGolden<{ cases: OpCase[] }>('upsample.json').cases);
});
