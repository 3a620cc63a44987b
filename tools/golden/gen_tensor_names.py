# PyTorch's spelling of the Tensor members that had none in aten-ts (Note [One naming rule]):
# is_floating_point, is_complex, storage_offset, element_size, expand_as and type(), as methods and as
# torch.is_floating_point / torch.is_complex, over every dtype aten-ts stores.
# Run: /work/main/.venv-golden/bin/python tools/golden/gen_tensor_names.py -> test/golden/tensor_names.json
import json
import os

import torch

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'tensor_names.json')

DTYPES = ['float32', 'float64', 'float16', 'bfloat16', 'int64', 'int32', 'int16', 'int8', 'uint8', 'bool',
          'complex64', 'complex128']


def err(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the text and type are what is pinned
        return {'error': str(e), 'type': type(e).__name__}
    raise AssertionError('expected an error')


dtypes = {}
for name in DTYPES:
    t = torch.zeros(2, 3, dtype=getattr(torch, name))
    dtypes[name] = {
        'is_floating_point': t.is_floating_point(),
        'is_complex': t.is_complex(),
        'torch_is_floating_point': torch.is_floating_point(t),
        'torch_is_complex': torch.is_complex(t),
        'element_size': t.element_size(),
        'type': t.type(),
        'meta_type': torch.empty(2, dtype=getattr(torch, name), device='meta').type(),
    }

x = torch.arange(12, dtype=torch.float32).reshape(3, 4)
storage_offsets = {
    'x': x.storage_offset(),
    'x[1:]': x[1:].storage_offset(),
    'x.t()[2]': x.t()[2].storage_offset(),
    'x[2, 1:]': x[2, 1:].storage_offset(),
    'x.flatten()[5:]': x.flatten()[5:].storage_offset(),
}

col = torch.tensor([[1.0], [2.0], [3.0]])
expanded = col.expand_as(x)
expand_as = {'sizes': list(expanded.shape), 'strides': list(expanded.stride()), 'values': expanded.tolist(),
             'error': err(lambda: x.expand_as(torch.zeros(3)))}

conversions = {}
for arg in ['float64', 'int32', 'float32']:
    r = x.type(getattr(torch, arg))
    conversions[f'dtype {arg}'] = {'dtype': str(r.dtype), 'same': r is x}
for arg in ['torch.DoubleTensor', 'torch.IntTensor', 'torch.FloatTensor', 'torch.BoolTensor']:
    r = x.type(arg)
    conversions[f'str {arg}'] = {'dtype': str(r.dtype), 'same': r is x}

errors = {
    "type('float64')": err(lambda: x.type('float64')),
    "type('torch.FooTensor')": err(lambda: x.type('torch.FooTensor')),
    'type(5)': err(lambda: x.type(5)),
    'torch.is_floating_point(3)': err(lambda: torch.is_floating_point(3)),
    'torch.is_complex(3)': err(lambda: torch.is_complex(3)),
}

with open(OUT, 'w') as f:
    json.dump({'generated_by': 'tools/golden/gen_tensor_names.py', 'torch_version': torch.__version__,
               'dtypes': dtypes, 'storage_offsets': storage_offsets, 'expand_as': expand_as,
               'conversions': conversions, 'errors': errors}, f, indent=1)
    f.write('\n')
print('wrote', OUT, os.path.getsize(OUT))
