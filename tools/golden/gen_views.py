"""Golden fixture for views and shape ops: sizes, strides, storage offsets, storage sharing, values and errors.

Run: $PYTHON tools/golden/gen_views.py  ->  test/golden/views.json
"""
import json
import os

import torch

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'views.json')


def base(shape):
    n = 1
    for s in shape:
        n *= s
    return torch.arange(n, dtype=torch.float32).reshape(shape)


def make_input(spec):
    t = base(spec['shape'])
    for step in spec.get('pre', []):
        t = apply(t, step)
    return t


def apply(t, step):
    op, args = step[0], step[1:]
    if op == 'view':
        return t.view(*args)
    if op == 'reshape':
        return t.reshape(*args)
    if op == 'transpose':
        return t.transpose(*args)
    if op == 't':
        return t.t()
    if op == 'permute':
        return t.permute(*args)
    if op == 'expand':
        return t.expand(*args)
    if op == 'squeeze':
        return t.squeeze(*args)
    if op == 'unsqueeze':
        return t.unsqueeze(*args)
    if op == 'select':
        return t.select(*args)
    if op == 'slice':
        dim, start, end, step_ = args
        return torch.ops.aten.slice.Tensor(t, dim, start, end, step_)
    if op == 'narrow':
        return t.narrow(*args)
    if op == 'flatten':
        return t.flatten(*args)
    if op == 'unflatten':
        return t.unflatten(*args)
    if op == 'as_strided':
        return t.as_strided(*args)
    if op == 'contiguous':
        return t.contiguous()
    raise ValueError(op)


CASES = []


def case(shape, steps, pre=()):
    CASES.append({'shape': list(shape), 'pre': [list(p) for p in pre], 'steps': [list(s) for s in steps]})


for shape in [(6,), (2, 3), (2, 3, 4), (1, 3, 1), (0, 3), ()]:
    n = 1
    for s in shape:
        n *= s
    case(shape, [('view', [-1])])
    case(shape, [('reshape', [-1])])
    case(shape, [('flatten',)])
    case(shape, [('squeeze',)])
    case(shape, [('unsqueeze', 0)])
    case(shape, [('unsqueeze', -1)])
    case(shape, [('contiguous',)])
    if len(shape) >= 1:
        case(shape, [('select', 0, 0)])
        case(shape, [('select', -1, -1)])
        case(shape, [('slice', 0, 1, None, 1)])
        case(shape, [('slice', -1, None, None, 2)])
        case(shape, [('slice', 0, -5, 100, 1)])
        case(shape, [('narrow', 0, 0, 1)])
        case(shape, [('transpose', 0, -1)])
        case(shape, [('permute', list(reversed(range(len(shape)))))])
        case(shape, [('squeeze', 0)])
        case(shape, [('select', 0, 5)])
        case(shape, [('select', 3, 0)])
        case(shape, [('narrow', 0, 1, 10)])
        case(shape, [('view', [n + 1])])
    if len(shape) == 2:
        case(shape, [('t',)])
        case(shape, [('t',), ('view', [-1])])
        case(shape, [('t',), ('reshape', [-1])])
        case(shape, [('t',), ('contiguous',), ('view', [-1])])
        case(shape, [('expand', [4] + list(shape))])
        case(shape, [('unsqueeze', 1), ('expand', [shape[0], 5, shape[1]])])
        case(shape, [('expand', [5])])
        case(shape, [('permute', [0, 0])])
        case(shape, [('permute', [0])])
        case(shape, [('unflatten', 1, [shape[1], 1])])
        case(shape, [('as_strided', [2, 2], [1, 2], 1)])
        case(shape, [('as_strided', [3, 3], [3, 1], 2)])
    if len(shape) == 3:
        case(shape, [('transpose', 0, 1), ('reshape', [-1])])
        case(shape, [('transpose', 1, 2), ('reshape', [shape[0], -1])])
        case(shape, [('transpose', 0, 2), ('view', [-1, shape[0]])])
        case(shape, [('permute', [2, 0, 1]), ('flatten', 0, 1)])
        case(shape, [('slice', 2, 0, None, 2), ('reshape', [-1])])
        case(shape, [('select', 1, 1), ('unsqueeze', 1), ('expand', [-1, 3, -1])])
        case(shape, [('unflatten', -1, [2, -1])])
        case(shape, [('flatten', 1), ('view', [shape[0], shape[1], shape[2]])])
        case(shape, [('view', [-1, -1])])
        case(shape, [('flatten', 2, 1)])
case((4, 4), [('slice', 0, 1, 3, 1), ('slice', 1, 1, 3, 1), ('reshape', [-1])])
case((4, 4), [('slice', 0, 0, 4, 2), ('view', [-1])])
case((4, 4), [('slice', 1, 0, 4, 2), ('view', [2, 2, 2])])
case((2, 1, 3), [('expand', [2, 4, 3]), ('reshape', [8, 3])])
case((3,), [('expand', [2, 3]), ('view', [6])])
case((3,), [('expand', [2, 3]), ('reshape', [6])])


def describe(t, b):
    return {
        'sizes': list(t.shape),
        'strides': list(t.stride()),
        'offset': t.storage_offset(),
        'shares': t.untyped_storage().data_ptr() == b.untyped_storage().data_ptr(),
        'values': t.contiguous().view(-1).tolist(),
        'contiguous': t.is_contiguous(),
    }


def run(c):
    b = base(c['shape'])
    t = b
    try:
        for s in c['steps']:
            t = apply(t, s)
        return describe(t, b)
    except Exception as e:  # noqa: BLE001
        return {'error': str(e).split('\n')[0]}


out = {
    'generated_by': 'tools/golden/gen_views.py',
    'torch_version': torch.__version__,
    'cases': [dict(c, expected=run(c)) for c in CASES],
}
with open(OUT, 'w') as f:
    f.write('{\n  "generated_by": %s,\n  "torch_version": %s,\n  "cases": [\n' % (json.dumps(out['generated_by']), json.dumps(out['torch_version'])))
    f.write(',\n'.join('    ' + json.dumps(c) for c in out['cases']))
    f.write('\n  ]\n}\n')
print(f'wrote {len(CASES)} cases to {OUT}')
