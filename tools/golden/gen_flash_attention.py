"""Golden fixture for the CPU flash attention: `_scaled_dot_product_flash_attention_for_cpu` called
directly (output, logsumexp and the gradients of q, k, v through its backward, float32 and float64, causal and
masked, head dims 8/16/17/32/64, sequence lengths that are not multiples of the query block of 32 / 64 or of the
key block of 512, grouped-query heads, a row masked throughout), PyTorch's error texts for bad inputs, and
F.scaled_dot_product_attention / F.multi_head_attention_forward where PyTorch's CPU build takes the fused kernel
(the grad_fn ScaledDotProductFlashAttentionForCpuBackward0) or keeps the math path (3-D inputs, a 3-D mask, a
mask that requires grad, heads that differ without enable_gqa) (format: tools/golden/opcase.py).

Run: $PYTHON tools/golden/gen_flash_attention.py  ->  test/golden/flash_attention.json
"""
import os

import opcase
from opcase import G, G32, I, T, Cases

_tensor_json = opcase.tensor_json
opcase.tensor_json = lambda t: None if t is None else _tensor_json(t)  # need_weights=False: (output, None)

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'flash_attention.json')
c = Cases()
FA = '_scaled_dot_product_flash_attention_for_cpu'
SDPA = 'torch.nn.functional.scaled_dot_product_attention'
MHA = 'torch.nn.functional.multi_head_attention_forward'


def qkv(b, h, l, s, d, grad=True, f32=False, hk=None):
    mk = (G32 if f32 else G) if grad else (lambda *z: T(*z, dtype='float32' if f32 else 'float64'))
    hk = h if hk is None else hk
    return [mk(b, h, l, d), mk(b, hk, s, d), mk(b, hk, s, d)]


def mask_row_dead(l, s, dead_row, f32=False):
    """An additive [l, s] mask with -inf at a pattern of positions and row `dead_row` -inf throughout."""
    vals = []
    for i in range(l):
        for j in range(s):
            vals.append('-inf' if i == dead_row or (i + 2 * j) % 5 == 0 else round(((i * 7 + j * 3) % 11) / 10 - 0.5, 3))
    return T(l, s, dtype='float32' if f32 else 'float64', values=vals)


# the fused op: outputs (values of output and logsumexp without grad, then gradients through the output)
for f32 in (False, True):
    dt = 'float32' if f32 else 'float64'
    for (b, h, l, s, d, causal) in [(2, 3, 5, 7, 8, False), (1, 2, 33, 45, 16, True), (2, 1, 40, 40, 17, True),
                                    (1, 2, 9, 70, 32, False), (1, 1, 6, 6, 64, True), (1, 1, 200, 24, 8, True),
                                    (1, 1, 3, 530, 8, False)]:
        c.C(FA, qkv(b, h, l, s, d, grad=False, f32=f32), {'is_causal': causal}, select=[0, 1])
        c.C(FA, qkv(b, h, l, s, d, f32=f32), {'is_causal': causal})
    # scale, masks: 2-D, 4-D broadcast over batch/head/rows, 4-D full; causal with a mask; a dead row
    c.C(FA, qkv(2, 2, 5, 6, 8, f32=f32), {'scale': 0.3})
    c.C(FA, qkv(2, 2, 5, 6, 8, f32=f32), {'attn_mask': T(5, 6, lo=-1.0, hi=1.0, dtype=dt)})
    c.C(FA, qkv(2, 2, 5, 6, 8, f32=f32), {'attn_mask': T(2, 1, 1, 6, lo=-1.0, hi=1.0, dtype=dt)})
    c.C(FA, qkv(2, 2, 5, 6, 8, f32=f32), {'attn_mask': T(1, 2, 5, 1, lo=-1.0, hi=1.0, dtype=dt)})
    c.C(FA, qkv(2, 2, 5, 6, 8, f32=f32), {'attn_mask': T(2, 2, 5, 6, lo=-1.0, hi=1.0, dtype=dt)})
    c.C(FA, qkv(1, 2, 7, 7, 8, f32=f32), {'is_causal': True, 'attn_mask': T(7, 7, lo=-1.0, hi=1.0, dtype=dt)})
    c.C(FA, qkv(1, 2, 6, 9, 8, grad=False, f32=f32), {'attn_mask': mask_row_dead(6, 9, 2, f32)}, select=[0, 1])
    c.C(FA, qkv(1, 2, 6, 9, 8, f32=f32), {'attn_mask': mask_row_dead(6, 9, 2, f32)})
    # grouped-query heads (4 query heads over 2 kv heads)
    c.C(FA, qkv(2, 4, 5, 6, 8, f32=f32, hk=2), {})
    c.C(FA, qkv(1, 4, 40, 9, 16, f32=f32, hk=1), {'is_causal': True})

# PyTorch's errors
c.C(FA, [T(3, 5, 8), T(3, 7, 8), T(3, 7, 8)])
c.C(FA, qkv(2, 3, 5, 7, 8, grad=False) + [0.5])
c.C(FA, [T(2, 3, 5, 8), T(2, 3, 7, 8), T(2, 3, 7, 4)])
c.C(FA, qkv(2, 3, 5, 7, 8, grad=False), {'attn_mask': T(3, 5, 7)})
c.C(FA, qkv(2, 3, 5, 7, 8, grad=False), {'attn_mask': I([5, 7], [1] * 35, dtype='bool')})
c.C(FA, qkv(2, 3, 5, 7, 8, grad=False), {'attn_mask': T(5, 7, dtype='float32')})
c.C(FA, [T(2, 3, 5, 8), T(2, 3, 7, 8, dtype='float32'), T(2, 3, 7, 8)])
c.C(FA, [I([1, 1, 2, 2], [1, 2, 3, 4]), I([1, 1, 2, 2], [1, 2, 3, 4]), I([1, 1, 2, 2], [1, 2, 3, 4])])

# F.scaled_dot_product_attention: the fused kernel (4-D) or the math path, by PyTorch's choice
B = [1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1]
for f32 in (False, True):
    dt = 'float32' if f32 else 'float64'
    c.C('nn.functional.scaled_dot_product_attention', qkv(2, 2, 5, 6, 8, f32=f32), fn=SDPA)
    c.C('nn.functional.scaled_dot_product_attention', qkv(2, 2, 5, 6, 8, f32=f32), {'is_causal': True}, fn=SDPA)
    c.C('nn.functional.scaled_dot_product_attention', qkv(2, 2, 5, 6, 8, f32=f32), {'attn_mask': I([5, 6], B, dtype='bool')}, fn=SDPA)
    c.C('nn.functional.scaled_dot_product_attention', qkv(2, 2, 5, 6, 8, f32=f32),
        {'attn_mask': I([2, 1, 1, 6], [1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 0], dtype='bool')}, fn=SDPA)
    c.C('nn.functional.scaled_dot_product_attention', qkv(2, 2, 5, 6, 8, f32=f32),
        {'attn_mask': T(1, 1, 5, 6, lo=-1.0, hi=1.0, dtype=dt), 'scale': 0.4}, fn=SDPA)
    c.C('nn.functional.scaled_dot_product_attention', qkv(2, 4, 5, 6, 8, f32=f32, hk=2), {'enable_gqa': True}, fn=SDPA)
    c.C('nn.functional.scaled_dot_product_attention', qkv(2, 2, 5, 6, 8, f32=f32),
        {'attn_mask': T(5, 6, lo=-1.0, hi=1.0, dtype=dt), 'is_causal': True}, fn=SDPA)
# the math path: a mask that requires grad (its gradient too), a 3-D mask, heads that differ without enable_gqa
c.C('nn.functional.scaled_dot_product_attention', qkv(2, 2, 5, 6, 8) + [G(5, 6, lo=-1.0, hi=1.0)], fn=SDPA)
c.C('nn.functional.scaled_dot_product_attention', qkv(2, 2, 5, 6, 8) + [T(2, 5, 6, lo=-1.0, hi=1.0)], fn=SDPA)
c.C('nn.functional.scaled_dot_product_attention', qkv(2, 2, 5, 6, 8, grad=False) + [I([5, 6], [2] * 30, dtype='int32')], fn=SDPA)

# F.multi_head_attention_forward with need_weights=False: SDPA on [N, H, L, hd] views (the fused kernel), with a
# float mask, a boolean causal mask with is_causal (the mask dropped), and a key padding mask (merged, 4-D)
def mha(L, S, N, E, H, kwargs):
    args = [G(L, N, E), G(S, N, E), G(S, N, E), E, H, G(3 * E, E, lo=-0.7, hi=0.7), G(3 * E, lo=-0.3, hi=0.3),
            None, None, False, 0.0, G(E, E, lo=-0.7, hi=0.7), G(E, lo=-0.3, hi=0.3)]
    c.C('nn.functional.multi_head_attention_forward', args, {'training': True, 'need_weights': False, **kwargs}, fn=MHA)


CAUSAL = [0 if j <= i else 1 for i in range(5) for j in range(5)]
mha(5, 5, 2, 8, 2, {})
mha(5, 5, 2, 8, 2, {'attn_mask': T(5, 5, lo=-1.0, hi=1.0)})
mha(5, 5, 2, 8, 2, {'attn_mask': I([5, 5], CAUSAL, dtype='bool'), 'is_causal': True})
mha(5, 5, 2, 8, 2, {'attn_mask': I([5, 5], CAUSAL, dtype='bool'), 'key_padding_mask': I([2, 5], [0, 0, 0, 0, 1, 0, 1, 0, 0, 0], dtype='bool')})

c.write(OUT, 'gen_flash_attention.py')
