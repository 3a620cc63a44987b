"""Golden fixture for batch norm's forward bit for bit (Note [Batch norm's affine in PyTorch's bits]): float32
native_batch_norm in evaluation and in training (output, save_mean, save_invstd, the running statistics after),
on contiguous [N, C, S] inputs whose plane sizes cover the kernels' vector widths and tails; float32 values as
their bit patterns (uint32); the last shape is over aten-ts's size for the WASM kernels (4096 elements). Not S = 1: PyTorch runs [N, C] (and [N, C, 1]) through its channels-last kernel,
whose training statistics sum float32 partials per thread (bits that depend on its thread count), which aten-ts
does not reproduce.

Run: $PYTHON tools/golden/gen_batch_norm_bits.py  ->  test/golden/batch_norm_bits.json
"""
import json
import os

import numpy as np
import torch

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'batch_norm_bits.json')


def bits(t):
    return t.detach().contiguous().view(-1).numpy().view(np.uint32).tolist()


cases = []
torch.manual_seed(0)
for shape in ([2, 3, 5, 7], [4, 8, 16], [3, 5, 2], [2, 4, 9, 9], [2, 8, 13, 21]):
    c = shape[1]
    x = torch.randn(*shape) * 3 + 1
    w = torch.randn(c)
    b = torch.randn(c)
    rm = torch.randn(c)
    rv = torch.rand(c) + 0.1
    for training in (False, True):
        rm2, rv2 = rm.clone(), rv.clone()
        out, save_mean, save_invstd = torch.ops.aten.native_batch_norm(x, w, b, rm2, rv2, training, 0.1, 1e-5)
        cases.append({
            'shape': shape, 'training': training, 'momentum': 0.1, 'eps': 1e-5,
            'x': bits(x), 'w': bits(w), 'b': bits(b), 'running_mean': bits(rm), 'running_var': bits(rv),
            'out': bits(out), 'save_mean': bits(save_mean), 'save_invstd': bits(save_invstd),
            'running_mean_after': bits(rm2), 'running_var_after': bits(rv2),
        })

with open(OUT, 'w') as f:
    json.dump({'generated_by': 'tools/golden/gen_batch_norm_bits.py', 'torch_version': torch.__version__, 'cases': cases}, f, separators=(',', ':'))
    f.write('\n')
