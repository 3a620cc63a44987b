// The CPU flash attention against PyTorch 2.13: `_scaled_dot_product_flash_attention_for_cpu`'s output,
// logsumexp and gradients (float32 and float64, causal, masked, grouped heads, odd sizes), its error texts, and
// F.scaled_dot_product_attention / F.multi_head_attention_forward taking it where PyTorch's CPU build does
// (grad_fn ScaledDotProductFlashAttentionForCpuBackward0) or keeping the math path: test/golden/flash_attention.json
// (tools/golden/gen_flash_attention.py), replayed by ../kernels/opCases.ts.
import { describe } from 'vitest';
import { loadGolden } from '../golden.js';
import { opCases, type OpCase } from '../kernels/opCases.js';

describe('CPU flash attention (PyTorch golden)', () => {
  opCases(loadGolden<{ cases: OpCase[] }>('flash_attention.json').cases);
});
