// constant_pad_nd, reflection_pad1d/2d/3d, replication_pad1d/2d/3d (+ backwards), _pad_circular and pad against
// PyTorch 2.13: test/golden/padding.json (tools/golden/gen_padding.py), replayed by ./opCases.ts.
import { describe } from 'vitest';
import { loadGolden } from '../golden.js';
import { opCases, type OpCase } from './opCases.js';

describe('padding (PyTorch golden)', () => {
  opCases(loadGolden<{ cases: OpCase[] }>('padding.json').cases);
});
