// leaky_relu, elu, selu, celu, softplus, hardtanh, hardswish, hardsigmoid, mish, relu6, log_sigmoid (+ in-place
// variants and backward operators) against PyTorch 2.13: test/golden/activation.json
// (tools/golden/gen_activation.py), replayed by ./opCases.ts.
import { describe } from 'vitest';
import { loadGolden } from '../golden.js';
import { opCases, type OpCase } from './opCases.js';

describe('activations (PyTorch golden)', () => {
  opCases(loadGolden<{ cases: OpCase[] }>('activation.json').cases);
});
