"""Golden fixture for reductions: sum, mean, prod, amax, amin, all, any, argmax, argmin, max.dim, min.dim,
var, std, logsumexp over dtypes, dim lists, keepdim, non-contiguous inputs, empty tensors, NaN, and errors;
and the out= overloads of the structured reductions (`out_cases`: result, resize warning, dtype errors),
including the two-output max.dim_max / min.dim_min (`out_indices`, `result_indices`) and cumsum.out /
cumprod.out.

Run: $PYTHON tools/golden/gen_reduce.py  ->  test/golden/reduce.json
"""
import json
import math
import os
import warnings

import torch

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'reduce.json')
NAMES = {getattr(torch, n): n for n in ['bool', 'uint8', 'int32', 'int64', 'float32', 'float64']}


def enc(v):
    if isinstance(v, float):
        if math.isnan(v):
            return 'nan'
        if math.isinf(v):
            return 'inf' if v > 0 else '-inf'
    return v


def flat(t):
    return [enc(x) for x in t.reshape(-1).tolist()]


def make(spec):
    g = torch.Generator().manual_seed(spec['seed'])
    dtype = getattr(torch, spec['dtype'])
    shape = spec['shape']
    if dtype == torch.bool:
        t = torch.rand(shape, generator=g) > 0.3
    elif dtype.is_floating_point:
        t = (torch.randn(shape, generator=g, dtype=torch.float64) * 3).to(dtype)
        if spec.get('nan'):
            t.view(-1)[1] = float('nan')
    else:
        t = torch.randint(-5 if dtype != torch.uint8 else 0, 6, shape, generator=g, dtype=dtype)
    if spec.get('transpose'):
        t = t.transpose(0, 1)
    return t


def call(op, t, args):
    if op == 'sum':
        return torch.sum(t, **args) if args else torch.sum(t)
    if op == 'mean':
        return torch.mean(t, **args)
    if op == 'prod':
        return torch.prod(t, **args)
    if op in ('amax', 'amin'):
        return getattr(torch, op)(t, **args)
    if op in ('all', 'any'):
        return getattr(torch, op)(t, **args)
    if op in ('argmax', 'argmin'):
        return getattr(torch, op)(t, **args)
    if op in ('max_dim', 'min_dim'):
        r = getattr(torch, op[:3])(t, **args)
        return (r.values, r.indices)
    if op in ('var', 'std'):
        return getattr(torch, op)(t, **args)
    if op == 'logsumexp':
        return torch.logsumexp(t, **args)
    raise ValueError(op)


cases = []
shapes = [[2, 3, 4], [5], [3, 1], []]
dtypes = ['float32', 'float64', 'int64', 'int32', 'uint8', 'bool']
seed = 0
for op in ['sum', 'mean', 'prod', 'amax', 'amin', 'all', 'any', 'argmax', 'argmin', 'max_dim', 'min_dim', 'var', 'std', 'logsumexp']:
    for dtype in dtypes:
        for shape in shapes:
            arg_sets = [{}]
            if len(shape) >= 1:
                arg_sets += [{'dim': [0]}, {'dim': [-1], 'keepdim': True}]
            if len(shape) >= 3:
                arg_sets += [{'dim': [0, 2]}, {'dim': [2, 0], 'keepdim': True}, {'dim': [1, 1]}]
            for args in arg_sets:
                a = dict(args)
                if op in ('argmax', 'argmin', 'max_dim', 'min_dim', 'prod'):
                    if 'dim' in a:
                        if len(a['dim']) != 1:
                            continue
                        a['dim'] = a['dim'][0]
                    elif op in ('max_dim', 'min_dim'):
                        continue
                if op == 'logsumexp' and 'dim' not in a:
                    a['dim'] = list(range(len(shape)))
                for extra in ([{}] if dtype in ('int64', 'int32', 'uint8', 'bool') else [{}, {'nan': True}, {'transpose': True}]):
                    if extra.get('transpose') and len(shape) < 2:
                        continue
                    if extra.get('nan') and (len(shape) == 0 or shape == [3, 1]):
                        continue
                    seed += 1
                    spec = {'dtype': dtype, 'shape': shape, 'seed': seed, **extra}
                    t = make(spec)
                    entry = {'op': op, 'input': {'dtype': dtype, 'sizes': list(t.shape), 'values': flat(t)}, 'args': a,
                             'contiguous': t.is_contiguous()}
                    if not t.is_contiguous():
                        entry['input']['transposed_from'] = list(t.transpose(0, 1).shape)
                    try:
                        r = call(op, t, a)
                        rs = r if isinstance(r, tuple) else (r,)
                        entry['results'] = [{'dtype': NAMES.get(x.dtype, str(x.dtype)), 'sizes': list(x.shape), 'values': flat(x)} for x in rs]
                    except Exception as e:  # noqa: BLE001
                        entry['error'] = str(e).split('\n')[0]
                    cases.append(entry)
# empty tensors
for op, args in [('sum', {}), ('mean', {}), ('amax', {}), ('argmax', {}), ('all', {}), ('any', {}), ('sum', {'dim': [0]}), ('amax', {'dim': [1]}), ('prod', {})]:
    t = torch.zeros(0, 3)
    entry = {'op': op, 'input': {'dtype': 'float32', 'sizes': [0, 3], 'values': []}, 'args': args, 'contiguous': True}
    try:
        r = call(op, t, args)
        entry['results'] = [{'dtype': NAMES[r.dtype], 'sizes': list(r.shape), 'values': flat(r)}]
    except Exception as e:  # noqa: BLE001
        entry['error'] = str(e).split('\n')[0]
    cases.append(entry)


# out= overloads of the structured reductions: the out tensor's dtype and shape (empty, right, wrong: resized
# with the deprecation warning), the result or PyTorch's error, and whether it warned.
OUT_OPS = {
    'sum': lambda t, a, o: torch.sum(t, a['dim'], keepdim=a.get('keepdim', False), dtype=a.get('dtype'), out=o),
    'mean': lambda t, a, o: torch.mean(t, a['dim'], keepdim=a.get('keepdim', False), dtype=a.get('dtype'), out=o),
    'prod': lambda t, a, o: torch.prod(t, a['dim'], keepdim=a.get('keepdim', False), dtype=a.get('dtype'), out=o),
    'amax': lambda t, a, o: torch.amax(t, a['dim'], keepdim=a.get('keepdim', False), out=o),
    'amin': lambda t, a, o: torch.amin(t, a['dim'], keepdim=a.get('keepdim', False), out=o),
    'all': lambda t, a, o: torch.all(t, a['dim'], keepdim=a.get('keepdim', False), out=o) if 'dim' in a else torch.all(t, out=o),
    'any': lambda t, a, o: torch.any(t, a['dim'], keepdim=a.get('keepdim', False), out=o) if 'dim' in a else torch.any(t, out=o),
    'argmax': lambda t, a, o: torch.argmax(t, a.get('dim'), keepdim=a.get('keepdim', False), out=o),
    'argmin': lambda t, a, o: torch.argmin(t, a.get('dim'), keepdim=a.get('keepdim', False), out=o),
    'norm': lambda t, a, o: torch.ops.aten.norm.out(t, a['p'], a['dim'], a.get('keepdim', False), out=o),
    'cumsum': lambda t, a, o: torch.cumsum(t, a['dim'], dtype=a.get('dtype'), out=o),
    'cumprod': lambda t, a, o: torch.cumprod(t, a['dim'], dtype=a.get('dtype'), out=o),
}
# max.dim_max / min.dim_min: out=(values, indices).
OUT2_OPS = {
    'max_dim': lambda t, a, o, oi: torch.max(t, a['dim'], keepdim=a.get('keepdim', False), out=(o, oi)),
    'min_dim': lambda t, a, o, oi: torch.min(t, a['dim'], keepdim=a.get('keepdim', False), out=(o, oi)),
}
out_specs = [
    ('sum', 'float32', {'dim': [1]}, 'float32', [0]),
    ('sum', 'float32', {'dim': [1]}, 'float32', [2]),
    ('sum', 'float32', {'dim': [0, 2], 'keepdim': True}, 'float32', [5]),
    ('sum', 'float32', {'dim': [1]}, 'float64', [0]),
    ('sum', 'float32', {'dim': [1]}, 'int32', [0]),
    ('sum', 'float32', {'dim': [1], 'dtype': 'float64'}, 'float32', [0]),
    ('sum', 'int32', {'dim': [0]}, 'int32', [0]),
    ('sum', 'float32', {'dim': []}, 'float32', [3]),
    ('mean', 'float32', {'dim': [1]}, 'float32', [0]),
    ('mean', 'float32', {'dim': [2], 'keepdim': True}, 'float64', [7]),
    ('mean', 'float32', {'dim': [1]}, 'int64', [0]),
    ('mean', 'int64', {'dim': [1]}, 'float32', [0]),
    ('mean', 'float32', {'dim': [1], 'dtype': 'float64'}, 'float32', [0]),
    ('prod', 'float32', {'dim': 1}, 'float32', [0]),
    ('prod', 'float32', {'dim': 0}, 'int64', [1]),
    ('amax', 'float32', {'dim': [1]}, 'float32', [0]),
    ('amax', 'float32', {'dim': [1]}, 'float64', [0]),
    ('amin', 'int32', {'dim': [0, 1], 'keepdim': True}, 'int32', [4]),
    ('amin', 'int32', {'dim': [0]}, 'int64', [0]),
    ('all', 'float32', {'dim': [1]}, 'bool', [0]),
    ('all', 'float32', {'dim': [1]}, 'uint8', [0]),
    ('all', 'float32', {'dim': [1]}, 'float32', [0]),
    ('all', 'float32', {}, 'bool', [2]),
    ('any', 'float32', {'dim': [0, 2]}, 'bool', [0]),
    ('any', 'int32', {}, 'uint8', [0]),
    ('any', 'float32', {'dim': [1]}, 'int64', [0]),
    ('argmax', 'float32', {'dim': 1}, 'int64', [0]),
    ('argmax', 'float32', {}, 'int64', [2, 2]),
    ('argmax', 'float32', {'dim': 1}, 'float32', [0]),
    ('argmin', 'float32', {'dim': 2, 'keepdim': True}, 'int64', [0]),
    ('norm', 'float32', {'p': 2, 'dim': [1]}, 'float32', [0]),
    ('norm', 'float32', {'p': 1, 'dim': [0, 2]}, 'float32', [9]),
    ('norm', 'float32', {'p': 2, 'dim': [1]}, 'float64', [0]),
    ('cumsum', 'float32', {'dim': 1}, 'float32', [0]),
    ('cumsum', 'float32', {'dim': -1}, 'float32', [5]),
    ('cumsum', 'float32', {'dim': 0}, 'float64', [0]),
    ('cumsum', 'float32', {'dim': 2}, 'int64', [2, 3, 4]),
    ('cumsum', 'float32', {'dim': 1, 'dtype': 'float64'}, 'float64', [0]),
    ('cumsum', 'float32', {'dim': 1, 'dtype': 'float64'}, 'float32', [0]),
    ('cumsum', 'int32', {'dim': 1}, 'int32', [0]),
    ('cumsum', 'bool', {'dim': 0}, 'int64', [0]),
    ('cumsum', 'float32', {'dim': 1}, 'bool', [0]),
    ('cumsum', 'float32', {'dim': 3}, 'float32', [0]),
    ('cumprod', 'float32', {'dim': 2}, 'float32', [0]),
    ('cumprod', 'int32', {'dim': 0}, 'int64', [2, 3, 4]),
    ('cumprod', 'float32', {'dim': 1, 'dtype': 'float64'}, 'float64', [1]),
    ('cumprod', 'float32', {'dim': 0, 'dtype': 'int32'}, 'int64', [0]),
    # (values, indices): the out dtypes/sizes, then the indices' dtype/sizes
    ('max_dim', 'float32', {'dim': 1}, 'float32', [0], 'int64', [0]),
    ('max_dim', 'float32', {'dim': 2, 'keepdim': True}, 'float32', [5], 'int64', [5]),
    ('max_dim', 'float32', {'dim': -1}, 'float32', [2, 3], 'int64', [7]),
    ('max_dim', 'int32', {'dim': 0}, 'int32', [0], 'int64', [0]),
    ('max_dim', 'float32', {'dim': 1}, 'float64', [0], 'int64', [0]),
    ('max_dim', 'float32', {'dim': 1}, 'float32', [5], 'int32', [0]),
    ('max_dim', 'float32', {'dim': 3}, 'float32', [0], 'int64', [0]),
    ('max_dim', 'bool', {'dim': 1}, 'bool', [0], 'int64', [0]),
    ('min_dim', 'float32', {'dim': 0}, 'float32', [0], 'int64', [0]),
    ('min_dim', 'float32', {'dim': 1, 'keepdim': True}, 'float32', [2, 1, 4], 'int64', [9]),
    ('min_dim', 'int32', {'dim': 2}, 'int64', [0], 'int64', [0]),
    ('min_dim', 'float32', {'dim': 2}, 'float32', [0], 'float32', [0]),
]
out_cases = []
for i, (op, dtype, args, out_dtype, out_sizes, *indices) in enumerate(out_specs):
    t = make({'dtype': dtype, 'shape': [2, 3, 4], 'seed': 1000 + i})
    a = dict(args)
    if 'dtype' in a:
        a['dtype'] = getattr(torch, a['dtype'])
    o = torch.full(out_sizes, 7, dtype=getattr(torch, out_dtype))
    entry = {'op': op, 'input': {'dtype': dtype, 'sizes': list(t.shape), 'values': flat(t)}, 'args': args,
             'out': {'dtype': out_dtype, 'sizes': out_sizes}}
    if indices:
        oi = torch.full(indices[1], 7, dtype=getattr(torch, indices[0]))
        entry['out_indices'] = {'dtype': indices[0], 'sizes': indices[1]}
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        try:
            if indices:
                r = OUT2_OPS[op](t, a, o, oi)
                assert r[0] is o and r[1] is oi
                entry['result_indices'] = {'dtype': NAMES.get(oi.dtype, str(oi.dtype)), 'sizes': list(oi.shape), 'values': flat(oi)}
            else:
                r = OUT_OPS[op](t, a, o)
                assert r is o
            entry['result'] = {'dtype': NAMES.get(o.dtype, str(o.dtype)), 'sizes': list(o.shape), 'values': flat(o)}
        except Exception as e:  # noqa: BLE001
            entry['error'] = str(e).split('\n')[0]
    # torch.ops calls (norm.out) log the C++ warning instead of raising a Python one: unknown there.
    resized = [x for x in w if 'was resized' in str(x.message)]
    entry['warned'] = None if op == 'norm' else len(resized) > 0
    if indices or op in ('cumsum', 'cumprod'):
        entry['warnings'] = len(resized)  # one per resized output
    out_cases.append(entry)

with open(OUT, 'w') as f:
    f.write('{\n "generated_by": "tools/golden/gen_reduce.py",\n "torch_version": %s,\n "cases": [\n' % json.dumps(torch.__version__))
    f.write(',\n'.join('  ' + json.dumps(c) for c in cases))
    f.write('\n ],\n "out_cases": [\n')
    f.write(',\n'.join('  ' + json.dumps(c) for c in out_cases))
    f.write('\n ]\n}\n')
print('wrote', len(cases), 'cases and', len(out_cases), 'out= cases to', OUT)
