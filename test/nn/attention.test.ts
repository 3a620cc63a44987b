// F.multi_head_attention_forward (PyTorch's positional/keyword call form), F.scaled_dot_product_attention
// (PyTorch's math path), F.bilinear, native_group_norm's mean/rstd gradients and cross_entropy's grad_fn against
// PyTorch 2.13: test/golden/attention.json (tools/golden/gen_attention.py), replayed by ../kernels/opCases.ts.
import { describe } from 'vitest';
import { loadGolden } from '../golden.js';
import { opCases, type OpCase } from '../kernels/opCases.js';

describe('attention, bilinear, group_norm and cross_entropy (PyTorch golden)', () => {
  opCases(loadGolden<{ cases: OpCase[] }>('attention.json').cases);
});
