"""Golden fixture for nn.MultiheadAttention's options (add_bias_kv, add_zero_attn, kdim/vdim, batch_first,
bias, dtype): for each case, after torch.manual_seed(0) then the constructor, the named parameters (names,
shapes, initial values), state_dict keys, repr, the forward's output and attention weights, and the gradient of
sum(out * g) w.r.t. every parameter and input; plus PyTorch's error text for bad constructor arguments.
Small shapes: embed_dim 8, heads 2, kdim 6, vdim 5.

Run: $PYTHON tools/golden/gen_mha_options.py  ->  test/golden/mha_options.json
"""
import json
import os

import torch
import torch.nn as nn

from _encode import enc

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'mha_options.json')
NAMES = {torch.float32: 'float32', torch.float64: 'float64', torch.bool: 'bool'}


def spec(t):
    if t is None:
        return None
    t = t.detach()
    return {'dtype': NAMES[t.dtype], 'sizes': list(t.shape), 'values': [enc(x) for x in t.reshape(-1).tolist()]}


# (name, constructor kwargs, query shape, key shape, value shape, forward kwargs, mask builders)
# Masks: 'kpm' -> key_padding_mask (N, S) bool, 'causal' -> float causal attn_mask (L, S), 'bool_mask' -> (L, S) bool.
CASES = [
    ('kdim=6, vdim=5 cross', dict(kdim=6, vdim=5), (3, 2, 8), (4, 2, 6), (4, 2, 5), {}, []),
    ('add_bias_kv self', dict(add_bias_kv=True), (3, 2, 8), None, None, {}, []),
    ('add_zero_attn key_padding_mask', dict(add_zero_attn=True), (3, 2, 8), (4, 2, 8), (4, 2, 8), {}, ['kpm']),
    ('add_bias_kv add_zero_attn kdim vdim batch_first attn_mask per-head', dict(add_bias_kv=True, add_zero_attn=True, kdim=6, vdim=5, batch_first=True),
     (2, 3, 8), (2, 4, 6), (2, 4, 5), dict(average_attn_weights=False), ['bool_mask']),
    ('kdim vdim need_weights=False is_causal', dict(kdim=6, vdim=5), (4, 2, 8), (4, 2, 6), (4, 2, 5), dict(need_weights=False, is_causal=True), ['causal']),
    ('kdim vdim unbatched key_padding_mask', dict(kdim=6, vdim=5, add_bias_kv=True), (3, 8), (4, 6), (4, 5), {}, ['kpm1']),
    ('bias=False add_bias_kv float64', dict(bias=False, add_bias_kv=True, dtype=torch.float64), (3, 2, 8), None, None, {}, []),
    ('vdim=5 only, add_zero_attn, batch_first', dict(vdim=5, add_zero_attn=True, batch_first=True), (2, 3, 8), (2, 4, 8), (2, 4, 5), {}, []),
]

cases = []
for name, kw, qs, ks, vs, fkw, masks in CASES:
    torch.manual_seed(0)
    m = nn.MultiheadAttention(8, 2, **kw)
    dtype = kw.get('dtype', torch.float32)
    g = torch.Generator().manual_seed(123)
    q = torch.randn(qs, generator=g, dtype=dtype).requires_grad_()
    self_attn = ks is None
    k = q if self_attn else torch.randn(ks, generator=g, dtype=dtype).requires_grad_()
    v = q if self_attn else torch.randn(vs, generator=g, dtype=dtype).requires_grad_()
    batched = len(qs) == 3
    L = qs[1] if (batched and kw.get('batch_first')) else qs[0]
    S = (ks or qs)[1] if (batched and kw.get('batch_first')) else (ks or qs)[0]
    fwd = dict(fkw)
    mask_specs = {}
    for mk in masks:
        if mk == 'kpm':
            kpm = torch.zeros(2, S, dtype=torch.bool)
            kpm[0, -1] = True
            kpm[1, 0] = True
            fwd['key_padding_mask'] = kpm
        elif mk == 'kpm1':
            kpm = torch.zeros(S, dtype=torch.bool)
            kpm[1] = True
            fwd['key_padding_mask'] = kpm
        elif mk == 'causal':
            fwd['attn_mask'] = nn.Transformer.generate_square_subsequent_mask(L)
        elif mk == 'bool_mask':
            bm = torch.zeros(L, S, dtype=torch.bool)
            bm[0, 2:] = True
            bm[2, 0] = True
            fwd['attn_mask'] = bm
    for key in ('key_padding_mask', 'attn_mask'):
        if key in fwd:
            mask_specs[key] = spec(fwd[key])
    out, weights = m(q, k, v, **fwd)
    gout = torch.randn(out.shape, generator=g, dtype=dtype)
    (out * gout).sum().backward()
    cases.append({
        'name': name,
        'options': {k2: (NAMES[v2] if isinstance(v2, torch.dtype) else v2) for k2, v2 in kw.items()},
        'forward_options': fkw,
        'masks': mask_specs,
        'self_attention': self_attn,
        'parameters': [[n, spec(p)] for n, p in m.named_parameters()],
        'state_dict_keys': list(m.state_dict().keys()),
        'none_parameters': [n for n, p in m._parameters.items() if p is None],
        'qkv_same_embed_dim': m._qkv_same_embed_dim,
        'repr': repr(m),
        'inputs': [spec(q)] if self_attn else [spec(q), spec(k), spec(v)],
        'grad_output': spec(gout),
        'output': spec(out),
        'weights': spec(weights),
        'param_grads': [[n, spec(p.grad)] for n, p in m.named_parameters()],
        'input_grads': [spec(q.grad)] if self_attn else [spec(q.grad), spec(k.grad), spec(v.grad)],
    })

errors = []
for name, args, kw in [
    ('embed_dim not divisible', (8, 3), {}),
    ('embed_dim zero', (0, 2), {}),
    ('num_heads negative', (8, -1), {}),
]:
    try:
        nn.MultiheadAttention(*args, **kw)
        raise SystemExit(f'{name}: expected an error')
    except (AssertionError, ValueError) as e:
        errors.append({'name': name, 'args': list(args), 'options': kw, 'message': str(e)})

with open(OUT, 'w') as f:
    json.dump({'generated_by': 'tools/golden/gen_mha_options.py', 'torch_version': torch.__version__, 'cases': cases, 'errors': errors}, f)
print('wrote', OUT, os.path.getsize(OUT))
