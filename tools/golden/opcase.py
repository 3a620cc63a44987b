"""Shared helpers of the operator fixtures (gen_normalization.py, gen_adaptive_pool.py, gen_padding.py,
gen_activation.py, ...): each case is a call spec that test/kernels/opCases.ts replays through aten-ts's public
`torch` API:

  {id, name, fn, method, args, kwargs, outputs, after?, select?, grad_outputs?, grads?, grad_fn?, error?, meta?}

* `fn`: the Python callable (`torch.<x>`, `torch.ops.aten.<x>.<overload>`, `torch._C._nn.<x>`, or `Tensor.<x>`, a
  method of the first argument); `name`: the aten-ts function `torch.<name>` (or method) taking the same arguments.
* `args`, `kwargs`: tensors are `{dtype, sizes, values}` (row-major; "nan"/"inf"/"-inf" for non-finite floats),
  `grad: true` on the differentiable inputs (leaves with requires_grad), `permute` for a non-contiguous view.
* `outputs`: every tensor output. `after`: `{index: tensor}` the values of tensor arguments after the call
  (running statistics updated in place). `grads`: `torch.autograd.grad` of the `select`ed outputs with the
  fixed `grad_outputs`, per `grad: true` input, null when unused. `grad_fn`: the first output's
  `grad_fn.name()`. `error`: the first line of PyTorch's error (then nothing else).
* `meta: true`: the tensors are built on the meta device (only their dtype and sizes are given) and `outputs`
  give only dtype and sizes.

Deterministic: values come from random.Random with a fixed seed, rounded to 3 decimals.
"""
import json
import math
import random
import warnings

import torch

from _encode import enc

DTYPES = {n: getattr(torch, n) for n in ['bool', 'int64', 'int32', 'float32', 'float64']}
rng = random.Random(1515)


def rnd(lo, hi):
    return round(rng.uniform(lo, hi), 3)


def T(*sizes, lo=-2.0, hi=2.0, dtype='float64', grad=False, values=None, permute=None):
    n = math.prod(sizes)
    vals = list(values) if values is not None else [rnd(lo, hi) for _ in range(n)]
    assert len(vals) == n
    spec = {'dtype': dtype, 'sizes': list(sizes), 'values': vals}
    if grad:
        spec['grad'] = True
    if permute is not None:
        spec['permute'] = list(permute)
    return spec


def G(*sizes, **k):
    """A float64 leaf that requires grad."""
    return T(*sizes, grad=True, **k)


def F32(*sizes, **k):
    return T(*sizes, dtype='float32', **k)


def G32(*sizes, **k):
    return T(*sizes, dtype='float32', grad=True, **k)


def I(sizes, values, dtype='int64'):
    return {'dtype': dtype, 'sizes': list(sizes), 'values': list(values)}


def M(*sizes, dtype='float32'):
    """A meta tensor (meta cases): only dtype and sizes."""
    return {'dtype': dtype, 'sizes': list(sizes), 'meta': True}


def is_spec(v):
    return isinstance(v, dict) and 'dtype' in v and 'sizes' in v


def decode(v):
    return {'nan': math.nan, 'inf': math.inf, '-inf': -math.inf}.get(v, v) if isinstance(v, str) else v


def build(v, leaves, tensors, in_list=False):
    if is_spec(v):
        if v.get('meta'):
            t = torch.empty(v['sizes'], dtype=DTYPES[v['dtype']], device='meta')
        else:
            t = torch.tensor([decode(x) for x in v['values']], dtype=DTYPES[v['dtype']]).reshape(v['sizes'])
        if v.get('grad'):
            t.requires_grad_()
            leaves.append(t)
        tensors.append(t)
        return t.permute(v['permute']) if 'permute' in v else t
    if isinstance(v, list):
        return [build(x, leaves, tensors, True) for x in v]
    if isinstance(v, float) and not in_list:  # a Scalar: an integral float would read as an int (float[] is fine)
        assert not v.is_integer(), f'float scalar {v} would read as an int in JavaScript'
    return decode(v) if isinstance(v, str) else v


def resolve(fn):
    if fn.startswith('Tensor.'):
        name = fn[len('Tensor.'):]
        return lambda self, *a, **k: getattr(self, name)(*a, **k)
    if fn.startswith('torch.ops.aten.'):
        name, overload = fn[len('torch.ops.aten.'):].split('.')
        return getattr(getattr(torch.ops.aten, name), overload)
    obj = torch
    for part in fn.split('.')[1:]:
        obj = getattr(obj, part)
    return obj


def tensor_json(t):
    t = t.detach()
    if t.device.type == 'meta':
        return {'dtype': str(t.dtype).replace('torch.', ''), 'sizes': list(t.shape)}
    vals = t.reshape(-1).tolist()
    if t.dtype.is_floating_point:
        vals = [enc(float(x)) for x in vals]
    return {'dtype': str(t.dtype).replace('torch.', ''), 'sizes': list(t.shape), 'values': vals}


class Cases:
    def __init__(self):
        self.cases = []
        self.per = {}

    def C(self, name, args, kwargs=None, fn=None, select=None, after=(), meta=False):
        """One call of `fn` (default torch.ops.aten.<name>.default); `after`: arg indices recorded after the call."""
        kwargs = dict(kwargs or {})
        fn = fn or f'torch.ops.aten.{name}.default'
        self.per[name] = self.per.get(name, 0) + 1
        case = {'id': f'{name}/{self.per[name]}', 'name': name, 'fn': fn, 'method': False, 'args': args, 'kwargs': kwargs}
        if meta:
            case['meta'] = True
        leaves, tensors = [], []
        py_args = build(args, leaves, tensors)
        py_kwargs = {k: build(v, leaves, tensors) for k, v in kwargs.items()}
        try:
            with warnings.catch_warnings():
                warnings.simplefilter('ignore')
                r = resolve(fn)(*py_args, **py_kwargs)
        except Exception as e:  # noqa: BLE001
            case['error'] = str(e).split('\n')[0]
            self.cases.append(case)
            return case
        outs = list(r) if isinstance(r, (tuple, list)) else [r]
        case['outputs'] = [tensor_json(o) for o in outs]
        if after:
            case['after'] = {str(i): tensor_json(py_args[i]) for i in after}
        if leaves:
            select = select if select is not None else [0]
            chosen = [outs[i] for i in select]
            gos = [[rnd(-1.0, 1.0) for _ in range(o.numel())] for o in chosen]
            go_t = [torch.tensor(g, dtype=o.dtype).reshape(o.shape) for g, o in zip(gos, chosen)]
            grads = torch.autograd.grad(chosen, leaves, go_t, allow_unused=True)
            case.update({'select': select, 'grad_outputs': gos,
                         'grads': [None if g is None else tensor_json(g) for g in grads],
                         'grad_fn': None if outs[0].grad_fn is None else outs[0].grad_fn.name()})
        self.cases.append(case)
        return case

    def with_strides(self, name, args, fn=None):
        """C, and also the first output's strides (`out_strides`: channels-last inputs keep their layout)."""
        case = self.C(name, args, fn=fn)
        if 'error' not in case:
            out = resolve(fn or f'torch.ops.aten.{name}.default')(*build(args, [], []))
            case['out_strides'] = list(out.stride())
        return case

    def write(self, path, script):
        with open(path, 'w') as f:  # one case per line
            head = json.dumps({'generated_by': f'tools/golden/{script}', 'torch_version': torch.__version__})
            f.write(head[:-1] + ', "cases": [\n' + ',\n'.join(json.dumps(c) for c in self.cases) + '\n]}\n')
        print('wrote', len(self.cases), 'cases to', path)
