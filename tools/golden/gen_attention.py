"""Golden fixture for the attention functions and the attention/bilinear/group_norm/cross_entropy fixes:
F.multi_head_attention_forward in PyTorch's call form (positional and keyword; batched and unbatched; masks,
bias_k/bias_v, add_zero_attn, separate projection weights, need_weights False, average_attn_weights False),
F.scaled_dot_product_attention (bool/float masks, scale, is_causal, enable_gqa, a fully masked row), F.bilinear
(grad_fn, integer dtypes, error texts), native_group_norm's mean/rstd gradients and cross_entropy's grad_fn
with class probabilities (format: tools/golden/opcase.py; `nn.functional.X` names resolve in the package's
full namespace).

Run: $PYTHON tools/golden/gen_attention.py  ->  test/golden/attention.json
"""
import os

import opcase
from opcase import G, I, T, Cases

_tensor_json = opcase.tensor_json
opcase.tensor_json = lambda t: None if t is None else _tensor_json(t)  # need_weights=False: (output, None)

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'attention.json')
c = Cases()
MHA = 'torch.nn.functional.multi_head_attention_forward'
SDPA = 'torch.nn.functional.scaled_dot_product_attention'


def mha(L, S, N, E, H, kwargs, batched=True, bias=True, bias_kv=False, zero_attn=False, separate=False,
        positional_tail=False):
    lead = [L, N] if batched else [L]
    src = [S, N] if batched else [S]
    args = [G(*lead, E), G(*src, E), G(*src, E), E, H,
            None if separate else G(3 * E, E, lo=-0.7, hi=0.7), G(3 * E, lo=-0.3, hi=0.3) if bias else None,
            G(1, 1, E) if bias_kv else None, G(1, 1, E) if bias_kv else None, zero_attn, 0.0,
            G(E, E, lo=-0.7, hi=0.7), G(E, lo=-0.3, hi=0.3) if bias else None]
    kw = {'training': False, **kwargs}
    if separate:
        kw.update({'use_separate_proj_weight': True, 'q_proj_weight': G(E, E, lo=-0.7, hi=0.7),
                   'k_proj_weight': G(E, E, lo=-0.7, hi=0.7), 'v_proj_weight': G(E, E, lo=-0.7, hi=0.7)})
    if positional_tail:  # training, key_padding_mask, need_weights, attn_mask positionally
        args += [kw.pop('training'), kw.pop('key_padding_mask', None), kw.pop('need_weights', True), kw.pop('attn_mask', None)]
    select = [0, 1] if kw.get('need_weights', True) else [0]
    c.C('nn.functional.multi_head_attention_forward', args, kw, fn=MHA, select=select)


mha(3, 4, 2, 4, 2, {})
mha(3, 4, 2, 4, 2, {'need_weights': False})
mha(3, 4, 2, 4, 1, {'average_attn_weights': False})
mha(3, 3, 2, 4, 2, {'attn_mask': T(3, 3, lo=-1.0, hi=1.0)})
mha(3, 3, 2, 4, 2, {'attn_mask': I([3, 3], [0, 1, 1, 0, 0, 1, 0, 0, 0], dtype='bool'), 'need_weights': False})
mha(3, 4, 2, 4, 2, {'key_padding_mask': I([2, 4], [0, 0, 0, 1, 0, 1, 0, 0], dtype='bool')})
mha(3, 4, 2, 4, 2, {'key_padding_mask': I([2, 4], [0, 0, 0, 1, 0, 1, 0, 0], dtype='bool'), 'need_weights': False})
mha(3, 3, 2, 4, 2, {'attn_mask': I([3, 3], [0, 1, 1, 0, 0, 1, 0, 0, 0], dtype='bool'), 'is_causal': True, 'need_weights': False})
mha(3, 4, 2, 4, 2, {}, bias_kv=True)
mha(3, 4, 2, 4, 2, {'key_padding_mask': I([2, 4], [0, 0, 1, 1, 0, 0, 0, 0], dtype='bool')}, bias_kv=True, zero_attn=True)
mha(3, 4, 2, 4, 2, {}, separate=True, bias=False)
mha(3, 4, 1, 4, 2, {}, batched=False)
mha(3, 4, 1, 4, 2, {'need_weights': False, 'key_padding_mask': I([4], [0, 0, 0, 1], dtype='bool')}, batched=False)
mha(3, 4, 2, 4, 2, {'attn_mask': T(3, 4, lo=-1.0, hi=1.0)}, positional_tail=True)
# PyTorch's errors
c.C('nn.functional.multi_head_attention_forward', [G(3, 2, 4), G(4, 2, 4), G(4, 2, 4), 6, 2, G(12, 4), G(12), None, None,
                                                   False, 0.0, G(4, 4), G(4)], fn=MHA)
c.C('nn.functional.multi_head_attention_forward', [G(3, 2, 4), G(4, 2, 4), G(4, 2, 4), 4, 3, G(12, 4), G(12), None, None,
                                                   False, 0.0, G(4, 4), G(4)], fn=MHA)
c.C('nn.functional.multi_head_attention_forward', [G(3, 2, 4), G(4, 2, 4), G(4, 2, 4), 4, 2, G(12, 4), G(12), None, None,
                                                   False, 0.0, G(4, 4), G(4)], {'is_causal': True}, fn=MHA)
c.C('nn.functional.multi_head_attention_forward', [G(3, 2, 4), G(4, 2, 4), G(4, 2, 4), 4, 2, G(12, 4), G(12), None, None,
                                                   False, 0.0, G(4, 4), G(4)], {'attn_mask': T(3, 3)}, fn=MHA)
c.C('nn.functional.multi_head_attention_forward', [G(3, 2, 4), G(4, 2, 4), G(4, 2), 4, 2, G(12, 4), G(12), None, None,
                                                   False, 0.0, G(4, 4), G(4)], fn=MHA)
c.C('nn.functional.multi_head_attention_forward', [G(3, 2, 4), G(4, 2, 4), G(4, 2, 4), 4, 2], fn=MHA)

# scaled_dot_product_attention: PyTorch's math path (3-D inputs; 4-D ones take the flash kernel,
# _scaled_dot_product_flash_attention_for_cpu: gen_flash_attention.py)
q, k, v = (4, 3, 4), (4, 5, 4), (4, 5, 4)
c.C('nn.functional.scaled_dot_product_attention', [G(*q), G(*k), G(*v)], fn=SDPA)
c.C('nn.functional.scaled_dot_product_attention', [G(*q), G(*k), G(*v)], {'is_causal': True}, fn=SDPA)
c.C('nn.functional.scaled_dot_product_attention', [G(*q), G(*k), G(*v)], {'scale': 0.3}, fn=SDPA)
c.C('nn.functional.scaled_dot_product_attention', [G(*q), G(*k), G(*v), T(3, 5, lo=-1.0, hi=1.0)], fn=SDPA)
c.C('nn.functional.scaled_dot_product_attention', [G(*q), G(*k), G(*v)],
    {'attn_mask': I([3, 5], [1, 1, 0, 0, 1, 0, 1, 1, 1, 0, 1, 0, 0, 0, 0], dtype='bool')}, fn=SDPA)
# a row masked throughout: _safe_softmax gives zeros (and zero gradients), where softmax gives NaN
c.C('nn.functional.scaled_dot_product_attention', [G(*q), G(*k), G(*v)],
    {'attn_mask': I([3, 5], [1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0], dtype='bool')}, fn=SDPA)
c.C('nn.functional.scaled_dot_product_attention', [G(4, 3, 4), G(2, 5, 4), G(2, 5, 4)], {'enable_gqa': True}, fn=SDPA)
c.C('nn.functional.scaled_dot_product_attention', [G(3, 4), G(5, 4), G(5, 4)], {'is_causal': True, 'scale': 0.5}, fn=SDPA)
c.C('nn.functional.scaled_dot_product_attention', [G(*q), G(*k), G(*v), T(3, 5)], {'is_causal': True}, fn=SDPA)

# bilinear: aten::bilinear's reshape then `+ bias` (AddBackward0), integer dtypes kept, its check texts
B = 'torch.nn.functional.bilinear'
c.C('nn.functional.bilinear', [G(2, 3), G(2, 4), G(5, 3, 4), G(5)], fn=B)
c.C('nn.functional.bilinear', [G(2, 2, 3), G(2, 2, 4), G(5, 3, 4)], fn=B)
c.C('nn.functional.bilinear', [I([2, 2], [1, -2, 3, 0], 'int32'), I([2, 1], [2, -1], 'int32'), I([3, 2, 1], [1, 2, 3, 4, 5, 6], 'int32'),
                               I([3], [1, 0, -1], 'int32')], fn=B)
for a in ([T(2, 3), T(2, 2, 4), T(5, 3, 4)], [T(2, 3), T(3, 4), T(5, 3, 4)], [T(2, 2), T(2, 4), T(5, 3, 4)],
          [T(2, 3), T(2, 5), T(5, 3, 4)], [T(2, 3), T(2, 4), T(5, 3, 4), T(4)]):
    c.C('nn.functional.bilinear', a, fn=B)

# native_group_norm: gradients through mean and rstd too; cross_entropy with class probabilities (DivBackward1)
c.C('native_group_norm', [G(2, 4, 3), G(4), G(4), 2, 4, 3, 2, 1e-5], select=[0, 1, 2])
c.C('native_group_norm', [G(2, 4, 3), None, None, 2, 4, 3, 1, 1e-5], select=[1, 2])
c.C('nn.functional.cross_entropy', [G(3, 4), T(3, 4, lo=0.0, hi=1.0)], fn='torch.nn.functional.cross_entropy')
c.C('nn.functional.cross_entropy', [G(3, 4), T(3, 4, lo=0.0, hi=1.0)], {'label_smoothing': 0.2}, fn='torch.nn.functional.cross_entropy')
c.C('nn.functional.cross_entropy', [G(3, 4), I([3], [0, 3, 1])], fn='torch.nn.functional.cross_entropy')

c.write(OUT, 'gen_attention.py')
