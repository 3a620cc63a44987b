"""Golden fixture: PyTorch's error for bad calls, at least one per operator of the families (pointwise, reductions,
linear algebra, shapes and indexing, nn). Each case is a small call spec that the TypeScript test replays
through aten-ts's public `torch` API:

  {id, op, fn, name, method, args, kwargs, error_type, error}

* `id`: `<op>/<n>`, the n-th case of the operator.

* `op`: the operator's name; `fn`: the Python callable (`torch.<x>`, `torch._C._nn.<x>`,
  `torch.ops.aten.<x>.<overload>` or, with `method: true`, the Tensor method `<x>` of the first argument);
  `name`: the aten-ts function (`torch.<name>`) or method that takes the same arguments.
* `args`, `kwargs`: tensors are `{dtype, sizes, values}` (row-major values; `expand` = sizes to expand the
  tensor to, giving an overlapping view); lists, numbers, booleans, strings and null as themselves; a
  `dtype` keyword is the dtype's name. Float scalars are never integral (JavaScript has one number type).
* `error_type`, `error`: the Python exception class and `str(exception)` cut at "\\nException raised from".

Deterministic. Run: $PYTHON tools/golden/gen_errors.py  ->  test/golden/errors.json
"""
import json
import math
import os
import warnings

import torch

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'errors.json')
DTYPES = {n: getattr(torch, n) for n in ['bool', 'uint8', 'int32', 'int64', 'float16', 'float32', 'float64']}


def default_values(dtype, n):
    if dtype == 'bool':
        return [i % 2 == 0 for i in range(n)]
    if dtype in ('uint8', 'int32', 'int64'):
        return [i % 3 for i in range(n)]
    return [0.25 * (i % 7) - 0.5 for i in range(n)]


def T(dtype, *sizes, values=None, expand=None):
    n = math.prod(sizes)
    vals = default_values(dtype, n) if values is None else list(values)
    assert len(vals) == n, (sizes, vals)
    spec = {'dtype': dtype, 'sizes': list(sizes), 'values': vals}
    if expand is not None:
        spec['expand'] = list(expand)
    return spec


def f32(*s, **k):
    return T('float32', *s, **k)


def f64(*s, **k):
    return T('float64', *s, **k)


def i64(*s, **k):
    return T('int64', *s, **k)


def i32(*s, **k):
    return T('int32', *s, **k)


def b(*s, **k):
    return T('bool', *s, **k)


def is_spec(v):
    return isinstance(v, dict) and 'dtype' in v and 'sizes' in v


def build(v):
    if is_spec(v):
        t = torch.tensor(v['values'], dtype=DTYPES[v['dtype']]).reshape(v['sizes'])
        return t.expand(v['expand']) if 'expand' in v else t
    if isinstance(v, list):
        return [build(x) for x in v]
    if isinstance(v, float):
        assert not v.is_integer(), f'float scalar {v} would read as an int in JavaScript'
    return v


def resolve(fn):
    if fn.startswith('torch.ops.aten.'):
        name, overload = fn[len('torch.ops.aten.'):].split('.')
        return getattr(getattr(torch.ops.aten, name), overload)
    if fn.startswith('torch._C._nn.'):
        return getattr(torch._C._nn, fn[len('torch._C._nn.'):])
    assert fn.startswith('torch.'), fn
    return getattr(torch, fn[len('torch.'):])


cases = []
seen_ops = set()
no_error = []
per_op = {}


def C(op, args, kwargs=None, fn=None, name=None, method=False):
    """One bad call: `fn(*args, **kwargs)` (or `args[0].<fn>(*args[1:], **kwargs)` with method=True)."""
    kwargs = kwargs or {}
    fn = fn or (op if method else f'torch.{op}')
    name = name or fn.split('.')[-1] if not fn.startswith('torch.ops.') else name or fn.split('.')[-2]
    py_args = build(args)
    py_kwargs = {k: (DTYPES[v] if k == 'dtype' else build(v)) for k, v in kwargs.items()}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            if method:
                # spelled out as `self.fn(a1, ..., k=v)`: CPython names a METH_NOARGS method after the class that
                # defines it (TensorBase) in a direct call, after type(self) (Tensor) through a bound method object
                env = {'self': py_args[0], **{f'a{i}': v for i, v in enumerate(py_args[1:], 1)}, **{f'k_{k}': v for k, v in py_kwargs.items()}}
                call = ', '.join([f'a{i}' for i in range(1, len(py_args))] + [f'{k}=k_{k}' for k in py_kwargs])
                eval(f'self.{fn}({call})', {}, env)
            else:
                resolve(fn)(*py_args, **py_kwargs)
    except Exception as e:  # noqa: BLE001
        assert not isinstance(e, AttributeError), e
        msg = str(e).split('\nException raised from')[0]
        per_op[op] = per_op.get(op, 0) + 1
        cases.append({'id': f'{op}/{per_op[op]}', 'op': op, 'fn': fn, 'name': name, 'method': method, 'args': args, 'kwargs': kwargs,
                      'error_type': type(e).__name__, 'error': msg})
        seen_ops.add(op)
        return
    no_error.append(f'{op} {fn} {json.dumps(args)} {kwargs}')


OPS = '''add sub mul div remainder fmod pow maximum minimum atan2 eq ne lt le gt ge logical_and logical_or logical_xor
logical_not bitwise_and bitwise_or bitwise_xor bitwise_not where clamp lerp neg abs sign exp exp2 log log2 log1p expm1
sqrt rsqrt sin cos tan asin acos atan sinh cosh tanh sigmoid relu gelu silu erf floor ceil round trunc frac reciprocal
isnan isinf isfinite nan_to_num
sum mean prod amax amin max min argmax argmin var std norm logsumexp all any cumsum cumprod
mm bmm matmul addmm linear dot mv outer baddbmm
cat stack split chunk unbind flip roll repeat tile index_select gather scatter scatter_add masked_fill masked_select
nonzero index index_put_ embedding one_hot tril triu sort topk argsort
softmax log_softmax nll_loss cross_entropy mse_loss l1_loss binary_cross_entropy binary_cross_entropy_with_logits
dropout layer_norm conv2d max_pool2d avg_pool2d'''.split()

# ---- pointwise binary: broadcasting, dtypes, out= and in-place result types --------------------------------------
for op in ['add', 'sub', 'mul', 'div', 'remainder', 'fmod', 'pow', 'maximum', 'minimum', 'atan2']:
    C(op, [f32(2, 3), f32(4)])
C('add', [f32(2, 3), f32(2, 3)], {'out': i64(2, 3)})
C('add', [i64(3), f32(3)], fn='add_', method=True)
C('add', [i64(3), i64(3)], {'alpha': 0.5})
C('add', [f32(1, expand=[3]), f32(3)], fn='add_', method=True)
C('add', [f32(3), f32(2, 3)], fn='add_', method=True)
C('sub', [b(3), b(3)])
C('sub', [b(3), True])
C('sub', [i64(3), f32(3)], fn='sub_', method=True)
C('mul', [i64(2, 2), 0.5], fn='mul_', method=True)
C('mul', [f32(3), f32(3)], {'out': b(3)})
C('div', [f32(3), f32(3)], {'rounding_mode': 'round'})
C('div', [i64(3), i64(3)], fn='div_', method=True)
C('div', [i64(3), i64(3, values=[1, 0, 2])], {'rounding_mode': 'floor'})
C('div', [i64(3), i64(3, values=[1, 0, 2])], {'rounding_mode': 'trunc'})
C('remainder', [i64(3), i64(3, values=[1, 0, 2])])
C('remainder', [i64(3), f32(3)], fn='remainder_', method=True)
C('fmod', [i32(3), i32(3, values=[0, 1, 2])])
C('fmod', [i64(3), 0.5], fn='fmod_', method=True)
C('pow', [i64(3), -2])
C('pow', [f32(3), f32(3)], {'out': i64(3)})
C('maximum', [f32(3), f32(3)], {'out': i64(3)})
C('minimum', [i64(3), f32(3)], {'out': i32(3)})
C('atan2', [i64(3), i64(3)], fn='atan2_', method=True)
C('atan2', [f32(3), f32(3)], {'out': i64(3)})
for op in ['eq', 'ne', 'lt', 'le', 'gt', 'ge']:
    C(op, [f32(2, 3), f32(4)])
    C(op, [f32(3), f32(2, 3)], fn=op + '_', method=True)
for op in ['logical_and', 'logical_or', 'logical_xor']:
    C(op, [b(2, 3), b(4)])
    C(op, [b(3), b(2, 3)], fn=op + '_', method=True)
C('logical_not', [b(1, expand=[3])], fn='logical_not_', method=True)
C('logical_not', [b(2)], {'out': b(1, expand=[3])})
for op in ['bitwise_and', 'bitwise_or', 'bitwise_xor']:
    C(op, [f32(3), f32(3)])
    C(op, [i64(2, 3), i64(4)])
C('bitwise_not', [f32(3)])
C('bitwise_not', [f64(2)], {'out': f64(2)})
C('bitwise_not', [i64(1, expand=[3])], fn='bitwise_not_', method=True)
C('where', [f32(3), f32(3), f32(3)])
C('where', [i64(3), f32(3), f32(3)])
C('where', [b(2, 3), f32(2, 3), f32(4)])
C('where', [b(3), f32(3), f32(3)], {'out': i64(3)})
C('clamp', [f32(3)])
C('clamp', [i64(3), 0.5], fn='clamp_', method=True)
C('clamp', [f32(2, 3), f32(4), f32(4)])
C('clamp', [b(3), False, True])
C('lerp', [f32(3), f64(3), 0.5])
C('lerp', [i64(3), i64(3), 0.5])
C('lerp', [f32(2, 3), f32(4), 0.5])
C('lerp', [f32(3), f32(3), f32(2)])

# ---- pointwise unary ----------------------------------------------------------------------------------------------
C('neg', [b(3)])
C('neg', [f32(3)], {'out': i64(3)})
C('neg', [f32(1, expand=[3])], fn='neg_', method=True)
C('abs', [f32(3)], {'out': i64(3)})
C('abs', [f32(1, expand=[3])], fn='abs_', method=True)
C('sign', [f32(3)], {'out': b(3)})
C('sign', [f32(1, expand=[3])], fn='sign_', method=True)
for op in ['exp', 'exp2', 'log', 'log2', 'log1p', 'expm1', 'sqrt', 'rsqrt', 'sin', 'cos', 'tan', 'asin', 'acos', 'atan',
           'sinh', 'cosh', 'tanh', 'sigmoid', 'erf', 'reciprocal']:
    C(op, [i64(3)], fn=op + '_', method=True)
    C(op, [f32(3)], {'out': i64(3)})
C('relu', [b(3)])
C('relu', [f32(1, expand=[3])], fn='relu_', method=True)
C('gelu', [f32(3)], {'approximate': 'fast'}, fn='torch._C._nn.gelu')
C('gelu', [i64(3)], fn='torch._C._nn.gelu')
C('gelu', [f32(3)], {'out': i64(3)}, fn='torch._C._nn.gelu')
C('silu', [i64(3)], fn='torch._C._nn.silu')
C('silu', [f32(3)], {'out': i64(3)}, fn='torch._C._nn.silu')
for op in ['floor', 'ceil', 'trunc']:
    C(op, [f32(3)], {'out': i64(3)})
    C(op, [f32(1, expand=[3])], fn=op + '_', method=True)
C('round', [f32(3)], {'out': i64(3)})
C('round', [i64(3)], {'decimals': 2})
C('round', [f32(1, expand=[3])], fn='round_', method=True)
C('frac', [i64(3)])
C('frac', [f32(3)], {'out': i64(3)})
C('frac', [f32(1, expand=[3])], fn='frac_', method=True)
for op in ['isnan', 'isinf', 'isfinite']:
    C(op, [f32(3), f32(3)])
    C(op, [[f32(3)]])
C('nan_to_num', [f32(3)], {'out': i64(3)})
C('nan_to_num', [f32(1, expand=[3])], fn='nan_to_num_', method=True)
C('nan_to_num', [i64(3), 0.5], {'out': f32(3)})

# ---- reductions ---------------------------------------------------------------------------------------------------
C('sum', [f32(2, 3), 2])
C('sum', [f32(2, 3), [0, 0]])
C('mean', [i64(2, 3)])
C('mean', [f32(2, 3), -3])
C('mean', [i64(2, 3), 1])
C('prod', [f32(2, 3), 2])
for op in ['amax', 'amin']:
    C(op, [f32(0, 3), 0])
    C(op, [f32(2, 3), 2])
    C(op, [f32(2, 3), [1, 1]])
for op in ['max', 'min']:
    C(op, [f32(2, 3), 2])
    C(op, [f32(0, 3), 0])
for op in ['argmax', 'argmin']:
    C(op, [f32(0, 3)])
    C(op, [f32(2, 3), 2])
    C(op, [f32(0, 3), 0])
for op in ['var', 'std']:
    C(op, [i64(2, 3)], fn=op, method=True)
    C(op, [f32(2, 3), 2], fn=op, method=True)
C('std', [i64(2, 3)])
C('norm', [i64(2, 3)])
C('norm', [f32(2, 3), 2, 3])
C('logsumexp', [f32(2, 3), 2])
C('logsumexp', [f32(2, 3), [0, 0]])
for op in ['all', 'any']:
    C(op, [b(2, 3), 2])
    C(op, [b(2, 3), [1, 1]])
for op in ['cumsum', 'cumprod']:
    C(op, [f32(2, 3), 2])
    C(op, [f32(2, 3), -3])

# ---- linear algebra -----------------------------------------------------------------------------------------------
C('mm', [f32(2, 3), f32(4, 5)])
C('mm', [f32(2, 3), f64(3, 2)])
C('mm', [f32(3), f32(3, 2)])
C('bmm', [f32(2, 3), f32(3, 2)])
C('bmm', [f32(2, 2, 3), f32(3, 3, 2)])
C('bmm', [f32(2, 2, 3), f32(2, 4, 2)])
C('bmm', [f32(1, 2, 3), f64(1, 3, 2)])
C('matmul', [f32(2, 3), f32(4, 5)])
C('matmul', [f32(3), f32(4)])
C('matmul', [f32(2, 2, 3), f32(3, 3, 2)])
C('matmul', [f32(2, 3), f64(3, 2)])
C('addmm', [f32(2, 2), f32(2, 3), f32(4, 2)])
C('addmm', [f32(3, 3), f32(2, 3), f32(3, 2)])
C('addmm', [f32(2, 2), f32(2, 3), f64(3, 2)])
C('linear', [f32(2, 3), f32(4, 5)], fn='torch._C._nn.linear')
C('linear', [f32(2, 3), f32(4, 3), f32(5)], fn='torch._C._nn.linear')
C('linear', [f32(2, 3), f64(4, 3)], fn='torch._C._nn.linear')
C('dot', [f32(2, 3), f32(2, 3)])
C('dot', [f32(3), f32(4)])
C('dot', [f32(3), f64(3)])
C('mv', [f32(2, 3), f32(4)])
C('mv', [f32(3), f32(3)])
C('mv', [f32(2, 3), f64(3)])
C('outer', [f32(2, 3), f32(3)])
C('baddbmm', [f32(2, 2, 2), f32(2, 2, 3), f32(2, 4, 2)])
C('baddbmm', [f32(2, 3, 3), f32(2, 2, 3), f32(2, 3, 2)])
C('baddbmm', [f32(2, 2, 2), f32(2, 2, 3), f64(2, 3, 2)])

# ---- shapes and indexing ------------------------------------------------------------------------------------------
C('cat', [[f32(2, 3), f32(3, 3)], 1])
C('cat', [[]])
C('cat', [[f32(2, 3), f32(2, 3)], 2])
C('cat', [[f32(2, 3), f32(3)]])
C('stack', [[f32(2, 3), f32(3, 3)]])
C('stack', [[]])
C('stack', [[f32(2, 3), f32(2, 3)], 3])
C('split', [f32(3, 2), 0])
C('split', [f32(3, 2), 1, 2])
C('split', [f32(3, 2), [1, 1]], fn='torch.split_with_sizes')
C('split', [f32(3, 2), [2, -1, 2]], fn='torch.split_with_sizes')
C('chunk', [f32(3, 2), 0])
C('chunk', [f32(3, 2), 2, 2])
C('chunk', [f32(), 2])
C('unbind', [f32(2, 3), 2])
C('unbind', [f32()])
C('flip', [f32(2, 3), [2]])
C('flip', [f32(2, 3), [0, 0]])
C('roll', [f32(2, 3), [1, 2], [0]])
C('roll', [f32(2, 3), 1, 2])
C('roll', [f32(2, 3), []])
C('repeat', [f32(2, 3), [2]], method=True)
C('repeat', [f32(2, 3), [-1, 1]], method=True)
C('tile', [f32(2, 3), [-1]])
C('index_select', [f32(3, 2), 0, i64(2, values=[0, 5])])
C('index_select', [f32(3, 2), 0, f32(2, values=[0.0, 1.0])])
C('index_select', [f32(3, 2), 0, i64(1, 2)])
C('index_select', [f32(3, 2), 2, i64(2)])
C('gather', [f32(2, 3), 1, i64(2, 2, values=[0, 5, 1, 2])])
C('gather', [f32(2, 3), 1, i64(2)])
C('gather', [f32(2, 3), 0, i64(3, 3)])
C('scatter', [f32(2, 3), 1, i64(2, 2, values=[0, 5, 1, 2]), f32(2, 2)])
C('scatter', [f32(2, 3), 1, i64(2, 2), f64(2, 2)])
C('scatter', [f32(2, 3), 1, f32(2, 2), f32(2, 2)])
C('scatter', [f32(2, 3), 1, i64(2), f32(2)])
C('scatter_add', [f32(2, 3), 1, i64(2, 2, values=[0, 5, 1, 2]), f32(2, 2)])
C('scatter_add', [f32(2, 3), 1, i64(2, 2), f64(2, 2)])
C('scatter_add', [f32(2, 3), 1, i64(2, 2), f32(2, 1)])
C('masked_fill', [f32(2, 3), f32(2, 3), 0.5])
C('masked_fill', [f32(2, 3), b(2, 3), f32(2)])
C('masked_fill', [f32(2, 3), b(4), 0.5])
C('masked_fill', [f32(3), b(2, 3), 0.5], fn='masked_fill_', method=True)
C('masked_select', [f32(2, 3), f32(2, 3)])
C('masked_select', [f32(2, 3), b(4)])
C('nonzero', [f32(3), f32(3)])
C('nonzero', [[f32(3)]])
C('index', [f32(3), [i64(1, values=[5])]], fn='torch.ops.aten.index.Tensor')
C('index', [f32(3), [i64(1), i64(1)]], fn='torch.ops.aten.index.Tensor')
C('index', [f32(3), [f32(1, values=[0.5])]], fn='torch.ops.aten.index.Tensor')
C('index', [f32(3, 2), [b(2)]], fn='torch.ops.aten.index.Tensor')
C('index', [f32(3, 2), [i64(2), i64(3)]], fn='torch.ops.aten.index.Tensor')
C('index_put_', [f32(3), [i64(1, values=[5])], f32(1)])
C('index_put_', [f32(3), [i64(3)], f32(2)])
C('index_put_', [f32(3), [i64(3)], i64(3)])
C('index_put_', [f32(3, 2), [b(2)], f32(1)])
C('embedding', [f32(4, 2), f32(3)])
C('embedding', [f32(4, 2), i64(2, values=[1, 4])])
C('embedding', [f32(4), i64(2)])
C('one_hot', [i64(3, values=[0, -1, 2])], fn='torch._C._nn.one_hot')
C('one_hot', [i64(3, values=[0, 3, 2]), 3], fn='torch._C._nn.one_hot')
C('one_hot', [f32(3)], fn='torch._C._nn.one_hot')
C('tril', [f32(3)])
C('triu', [f32(3)])
C('tril', [f32()])
C('sort', [f32(2, 3), 2])
C('sort', [f32(2, 3)], {'dim': -3})
C('topk', [f32(2, 3), 4])
C('topk', [f32(2, 3), 1, 2])
C('topk', [f32(2, 3), -1])
C('argsort', [f32(2, 3), 2])
C('argsort', [f32(2, 3)], {'dim': -3})

# ---- nn -----------------------------------------------------------------------------------------------------------
C('softmax', [f32(2, 3), 2])
C('softmax', [i64(2, 3), 1])
C('softmax', [f32(2, 3), 1], {'dtype': 'int64'})
C('log_softmax', [f32(2, 3), -3])
C('log_softmax', [i64(2, 3), 1])
NN = 'torch._C._nn.'
C('nll_loss', [f32(3, 5), i64(2)], fn=NN + 'nll_loss_nd')
C('nll_loss', [f32(3, 5), i64(3, values=[0, 7, 1])], fn=NN + 'nll_loss_nd')
C('nll_loss', [f32(3, 5), f32(3)], fn=NN + 'nll_loss_nd')
C('nll_loss', [f32(3, 5), i64(3), f32(4)], fn=NN + 'nll_loss_nd')
C('cross_entropy', [f32(3, 5), i64(2)], fn=NN + 'cross_entropy_loss')
C('cross_entropy', [f32(3, 5), i64(3, values=[0, 7, 1])], fn=NN + 'cross_entropy_loss')
C('cross_entropy', [f32(3, 5), f32(3, 4)], fn=NN + 'cross_entropy_loss')
C('cross_entropy', [f32(3, 5), i64(3)], {'label_smoothing': 1.5}, fn=NN + 'cross_entropy_loss')
C('cross_entropy', [f32(3, 5), f32(3, 5)], {'ignore_index': 1}, fn=NN + 'cross_entropy_loss')
C('mse_loss', [f32(2, 3), f32(4)], fn=NN + 'mse_loss')
C('mse_loss', [b(2, 3), b(2, 3)], fn=NN + 'mse_loss')
C('l1_loss', [f32(2, 3), f32(4)], fn=NN + 'l1_loss')
C('binary_cross_entropy', [f32(3, values=[0.5, 1.5, 0.25]), f32(3, values=[1.0, 0.0, 1.0])], fn=NN + 'binary_cross_entropy')
C('binary_cross_entropy', [f32(3, values=[0.5, 0.75, 0.25]), f32(2, values=[1.0, 0.0])], fn=NN + 'binary_cross_entropy')
C('binary_cross_entropy', [f32(3, values=[0.5, 0.75, 0.25]), i64(3)], fn=NN + 'binary_cross_entropy')
C('binary_cross_entropy_with_logits', [f32(2, 3), f32(4)])
C('binary_cross_entropy_with_logits', [f32(2, 3), f32(2, 3), f32(4)])
C('binary_cross_entropy_with_logits', [f32(2, 3), f32(2, 3), None, f32(4)])
C('dropout', [f32(2, 3), 1.5, True])
C('dropout', [f32(2, 3), -0.5, False])
C('layer_norm', [f32(2, 3), [4]])
C('layer_norm', [f32(2, 3), [3], f32(4)])
C('layer_norm', [f32(2, 3), [3], f32(3), f32(2)])
C('layer_norm', [f32(2, 3), []])
C('conv2d', [f32(1, 3, 5, 5), f32(4, 2, 3, 3)])
C('conv2d', [f32(1, 2, 2, 2), f32(4, 2, 3, 3)])
C('conv2d', [f32(5, 5), f32(4, 1, 3, 3)])
C('conv2d', [f32(1, 2, 5, 5), f64(4, 2, 3, 3)])
C('conv2d', [f32(1, 2, 5, 5), f32(4, 2, 3, 3), f32(3)])
C('conv2d', [f32(1, 4, 5, 5), f32(4, 2, 3, 3)], {'groups': 3})
C('conv2d', [f32(1, 2, 5, 5), f32(4, 2, 3, 3)], {'stride': 0})
C('max_pool2d', [f32(1, 1, 2, 2), 3])
C('max_pool2d', [f32(1, 1, 4, 4), 2, 2, 2])
C('max_pool2d', [f32(4, 4), 2])
C('max_pool2d', [f32(1, 1, 4, 4), 2], {'stride': 0})
C('avg_pool2d', [f32(1, 1, 2, 2), 3], fn=NN + 'avg_pool2d')
C('avg_pool2d', [f32(1, 1, 4, 4), 2, 2, 2], fn=NN + 'avg_pool2d')
C('avg_pool2d', [f32(4, 4), 2], fn=NN + 'avg_pool2d')
C('avg_pool2d', [f32(1, 1, 4, 4), 2], {'divisor_override': 0}, fn=NN + 'avg_pool2d')

C('pow', [f32(3), 2.5], {'out': i64(3)})
C('pow', [i64(3), 2], {'out': b(3)})
C('pow', [2.5, f32(3)], {'out': i64(3)})
C('masked_fill', [f32(3), b(3), f32(3)], fn='masked_fill_', method=True)
C('masked_fill', [f32(3), b(2, 3), f32(2)])
C('masked_fill', [f32(3), f32(3), f32()])

# ---- the argument parser of single-signature bindings (FunctionSignature::parse with raise_exception) ------------
C('isnan', [])
C('isnan', [f32(3)], {'foo': 1})
C('isnan', [f32(3), f32(3)], fn='isnan', method=True)
C('isnan', [f32(3)], {'foo': 1}, fn='isnan', method=True)
C('index_select', [f32(3, 2), 'a', i64(2)])
C('index_select', [f32(3, 2), 0])
C('index_select', [f32(3, 2)])
C('index_select', [f32(3, 2), 0, i64(2), 1])
C('index_select', [f32(3, 2), 0], fn='index_select', method=True)
C('index_select', [f32(3, 2), 0, i64(2)], {'dim': 1})
C('tril', [f32(2, 2), 1, 2])
C('tril', [f32(2, 2)], {'foo': 1})
C('tril', [f32(2, 2)], {'diagonal': 0.5})
C('tril', [f32(2, 2)], {'diagonal': None})
C('tril', [f32(2, 2), True])
C('stack', [[f32(2), 1]])
C('stack', [f32(2)])
C('stack', [[f32(2)], 'a'])
C('flip', [f32(2, 3), [0.5]])
C('flip', [f32(2, 3), [0, 0.5]])
C('flip', [f32(2, 3), 0.5])
C('repeat', [f32(2, 3), 2, 0.5], method=True)
C('repeat', [f32(2, 3), 0.5], method=True)
C('repeat', [f32(2, 3), 0.5, 2], method=True)
C('masked_select', [f32(2, 3), [1]])
C('mm', [f32(2, 3), None])

assert not no_error, 'expected an error from:\n' + '\n'.join(no_error)
missing = [op for op in OPS if op not in seen_ops]
assert not missing, f'no error case for {missing}'
with open(OUT, 'w') as f:  # one case per line
    head = json.dumps({'generated_by': 'tools/golden/gen_errors.py', 'torch_version': torch.__version__})
    f.write(head[:-1] + ', "cases": [\n' + ',\n'.join(json.dumps(c) for c in cases) + '\n]}\n')
print('wrote', len(cases), 'cases covering', len(seen_ops), 'operators to', OUT)
