"""Golden fixture: PyTorch's gradients of every differentiable operator aten-ts has.
Each case is a call spec that the TypeScript test (test/autograd/gradients.test.ts) replays through aten-ts's
public `torch` API, followed by `torch.autograd.grad`:

  {id, op, fn, name, method, args, kwargs, select, outputs, grad_outputs, grads, second?}

* `id`: `<op>/<n>`; `op`: the operator; `fn`: the Python callable (`torch.<x>`, `torch._C._nn.<x>`,
  `torch.ops.aten.<x>.<overload>` or, with `method: true`, the Tensor method `<x>` of the first argument);
  `name`: the aten-ts function (`torch.<name>`) or Tensor method taking the same arguments.
* `args`, `kwargs`: tensors are `{dtype, sizes, values}` (row-major; `"nan"`, `"inf"`, `"-inf"` for non-finite
  floats) with `grad: true` on the differentiable inputs (they are leaves with requires_grad); lists, numbers,
  booleans, strings and null as themselves; `permute: [...]` on a tensor means the op gets `leaf.permute(...)`
  (a non-contiguous view; the gradient is the leaf's); a scalar `"inf"`/`"-inf"` stands for the float; `{dtype: name}`
  without sizes is a dtype argument. Float scalars are never integral (JavaScript has one number type). Loss
  cases always pass `reduction` (PyTorch's Python bindings of the aten loss ops default it to 0, not Mean).
* `select`: which outputs are differentiated (indices into the op's outputs; a single tensor result is output
  0; `max.dim`, `sort`, `topk` select only the values). `outputs`: `[{dtype, sizes, values}]` for the selected
  outputs. `grad_outputs`: a fixed random upstream gradient per selected output (same shape, row-major values).
* `grads`: `torch.autograd.grad(outputs, inputs, grad_outputs, allow_unused=True)` for the `grad: true` tensors
  in the order they appear in args then kwargs (depth first): `{dtype, sizes, values}` or null when unused.
* `grad_fns` (the matmul and linear cases): PyTorch's `grad_fn.name()` of each selected output (null for none).
  Both are CompositeImplicitAutograd, so the name is that of the last operator of the decomposition
  (`MmBackward0`, `AddmmBackward0`, `UnsafeViewBackward0`, `CloneBackward0`, ...), which depends on the dims,
  the strides, the bias and which inputs require grad. Also recorded for layer_norm, max_pool2d and conv2d,
  CompositeImplicitAutograd too: NativeLayerNormBackward0, MaxPool2DWithIndicesBackward0, ConvolutionBackward0
  (SqueezeBackward1 for an unbatched conv2d, whose batch dim is squeezed away after the convolution).
* `second` (a subset of cases): `{weights, grads}`: with the first-order grads g_i computed with
  create_graph=True, `z = sum_i (g_i * weights_i).sum()` over the non-null g_i, and `grads` =
  `torch.autograd.grad(z, inputs, allow_unused=True)`.

Inputs avoid non-differentiable points (no ties unless a case is about ties, no zeros for prod/log, no values
at clamp bounds). Deterministic: values come from random.Random with a fixed seed, rounded to 3 decimals.
Run: $PYTHON tools/golden/gen_autograd.py  ->  test/golden/autograd.json
"""
import json
import math
import os
import random
import warnings

import torch

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'autograd.json')
DTYPES = {n: getattr(torch, n) for n in ['bool', 'int64', 'float32', 'float64']}
rng = random.Random(20240607)


def rnd(lo, hi):
    return round(rng.uniform(lo, hi), 3)


def T(*sizes, lo=-2.0, hi=2.0, dtype='float64', grad=True, distinct=False, avoid=(), values=None):
    """A float tensor spec: random values in [lo, hi] (3 decimals) at least 0.05 away from the `avoid` points."""
    n = math.prod(sizes)
    if values is None:
        vals = []
        while len(vals) < n:
            v = rnd(lo, hi)
            if any(abs(v - p) < 0.05 for p in avoid):
                continue
            if distinct and any(abs(v - w) < 0.01 for w in vals):
                continue
            vals.append(v)
    else:
        vals = list(values)
    assert len(vals) == n, (sizes, vals)
    spec = {'dtype': dtype, 'sizes': list(sizes), 'values': vals}
    if grad:
        spec['grad'] = True
    return spec


def P(perm, *sizes, **k):
    """A leaf of `sizes` passed to the op as `leaf.permute(perm)` (a non-contiguous input)."""
    spec = T(*sizes, **k)
    spec['permute'] = list(perm)
    return spec


def F32(*sizes, **k):
    return T(*sizes, dtype='float32', **k)


def C_(*sizes, **k):
    """A constant (non-differentiable) float tensor."""
    return T(*sizes, grad=False, **k)


def I(sizes, values):
    assert len(values) == math.prod(sizes)
    return {'dtype': 'int64', 'sizes': list(sizes), 'values': list(values)}


def B(sizes, values):
    assert len(values) == math.prod(sizes)
    return {'dtype': 'bool', 'sizes': list(sizes), 'values': [bool(v) for v in values]}


def is_spec(v):
    return isinstance(v, dict) and 'dtype' in v and 'sizes' in v


def decode(v):
    if v == 'nan':
        return math.nan
    if v == 'inf':
        return math.inf
    if v == '-inf':
        return -math.inf
    return v


def build(v, leaves):
    if is_spec(v):
        t = torch.tensor([decode(x) for x in v['values']], dtype=DTYPES[v['dtype']]).reshape(v['sizes'])
        if v.get('grad'):
            t.requires_grad_()
            leaves.append(t)
        return t.permute(v['permute']) if 'permute' in v else t
    if isinstance(v, dict) and set(v) == {'dtype'}:
        return DTYPES[v['dtype']]
    if isinstance(v, list):
        return [build(x, leaves) for x in v]
    if isinstance(v, float):
        assert not v.is_integer(), f'float scalar {v} would read as an int in JavaScript'
    return decode(v) if isinstance(v, str) else v


def resolve(fn):
    if fn.startswith('torch.ops.aten.'):
        name, overload = fn[len('torch.ops.aten.'):].split('.')
        return getattr(getattr(torch.ops.aten, name), overload)
    if fn.startswith('torch._C._nn.'):
        return getattr(torch._C._nn, fn[len('torch._C._nn.'):])
    assert fn.startswith('torch.'), fn
    return getattr(torch, fn[len('torch.'):])


def enc(x):
    if isinstance(x, float):
        if math.isnan(x):
            return 'nan'
        if math.isinf(x):
            return 'inf' if x > 0 else '-inf'
    return x


def tensor_json(t):
    t = t.detach()
    if t._is_zerotensor():  # an efficient zero tensor (e.g. abs's second derivative) has no storage to read
        t = torch.zeros(t.shape, dtype=t.dtype)
    return {'dtype': str(t.dtype).replace('torch.', ''), 'sizes': list(t.shape),
            'values': [enc(float(x)) for x in t.reshape(-1).tolist()]}


def random_like(t):
    return [rnd(-1.0, 1.0) for _ in range(t.numel())]


cases = []
per_op = {}
REDUCTION_POS = {'nll_loss': 3, 'cross_entropy': 3, 'mse_loss': 2, 'l1_loss': 2, 'binary_cross_entropy': 3,
                 'binary_cross_entropy_with_logits': 4}
no_second = []
GRAD_FN_OPS = {'matmul', 'linear', 'layer_norm', 'max_pool2d', 'conv2d', 'avg_pool2d'}


def C(op, args, kwargs=None, fn=None, name=None, method=False, select=None, second=False):
    kwargs = dict(kwargs or {})
    fn = fn or (op if method else f'torch.{op}')
    if op in REDUCTION_POS and len(args) <= REDUCTION_POS[op] and 'reduction' not in kwargs:
        # PyTorch's Python bindings of these aten ops default `reduction` to 0 (none), not Mean: always say it.
        kwargs['reduction'] = 1
    if name is None:
        name = fn.split('.')[-2] if fn.startswith('torch.ops.') else fn.split('.')[-1]
    leaves = []
    py_args = build(args, leaves)
    py_kwargs = {k: build(v, leaves) for k, v in kwargs.items()}
    assert leaves, f'{op}: no differentiable input'
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        r = getattr(py_args[0], fn)(*py_args[1:], **py_kwargs) if method else resolve(fn)(*py_args, **py_kwargs)
    outs = list(r) if isinstance(r, (tuple, list)) else [r]
    if select is None:
        select = list(range(len(outs)))
    chosen = [outs[i] for i in select]
    gos = [random_like(o) for o in chosen]
    go_t = [torch.tensor(g, dtype=o.dtype).reshape(o.shape) for g, o in zip(gos, chosen)]
    firsts = torch.autograd.grad(chosen, leaves, go_t, allow_unused=True, create_graph=second)
    per_op[op] = per_op.get(op, 0) + 1
    case = {'id': f'{op}/{per_op[op]}', 'op': op, 'fn': fn, 'name': name, 'method': method, 'args': args,
            'kwargs': kwargs, 'select': select, 'outputs': [tensor_json(o) for o in chosen], 'grad_outputs': gos,
            'grads': [None if g is None else tensor_json(g) for g in firsts]}
    if op in GRAD_FN_OPS:
        case['grad_fns'] = [None if o.grad_fn is None else o.grad_fn.name() for o in chosen]
    if second:
        weights = [None if g is None else random_like(g) for g in firsts]
        z = None
        for g, w in zip(firsts, weights):
            if g is None:
                continue
            term = (g * torch.tensor(w, dtype=g.dtype).reshape(g.shape)).sum()
            z = term if z is None else z + term
        if z is None or not z.requires_grad:
            no_second.append(case['id'])
        else:
            seconds = torch.autograd.grad(z, leaves, allow_unused=True)
            case['second'] = {'weights': weights, 'grads': [None if g is None else tensor_json(g) for g in seconds]}
    cases.append(case)


NN = 'torch._C._nn.'
INF = 'inf'

# ---- pointwise binary -------------------------------------------------------------------------------------------
C('add', [T(2, 3), T(2, 3)])
C('add', [T(2, 3), T(3)], {'alpha': 2})
C('add', [T(2, 1, 3), T(4, 1)], {'alpha': 0.5})
C('add', [T(2, 3), 1.5])
C('add', [F32(2, 3), F32(2, 3)])
C('sub', [T(2, 3), T(2, 3)])
C('sub', [T(3, 1), T(1, 4)], {'alpha': 3})
C('mul', [T(2, 3), T(2, 3)], second=True)
C('mul', [T(2, 3), T(3)], second=True)
C('mul', [T(2, 3), 2.5])
C('mul', [F32(3, 2), F32(3, 2)])
C('div', [T(2, 3), T(2, 3, lo=0.5, hi=2.0)], second=True)
C('div', [T(2, 3), T(2, 1, lo=-2.0, hi=-0.5)], second=True)
C('div', [T(2, 3), 0.25])
C('div', [T(2, 3), T(2, 3, lo=0.5, hi=2.0)], {'rounding_mode': 'floor'})
C('div', [T(2, 3), T(2, 3, lo=0.5, hi=2.0)], {'rounding_mode': 'trunc'})
C('maximum', [T(2, 3), T(2, 3)])
C('maximum', [T(2, 3), T(3)])
C('maximum', [T(4, values=[1.0, 2.0, -1.5, 0.25]), T(4, values=[1.0, 0.5, -1.5, 3.0])])  # ties: grad halves
C('minimum', [T(2, 3), T(2, 3)])
C('minimum', [T(4, values=[1.0, 2.0, -1.5, 0.25]), T(4, values=[1.0, 0.5, -1.5, 3.0])])
C('atan2', [T(2, 3), T(2, 3, avoid=[0.0])])
C('atan2', [T(3, 1), T(1, 2, lo=0.5, hi=2.0)])
C('remainder', [T(2, 3, lo=0.1, hi=3.0, avoid=[1.0, 2.0, 3.0]), 1.5])
C('remainder', [T(2, 3, values=[2.3, -1.7, 3.4, 0.7, -2.6, 5.1]), T(2, 3, values=[1.1, 0.9, -1.3, 1.6, 1.2, -2.2])])
C('fmod', [T(2, 3, values=[2.3, -1.7, 3.4, 0.7, -2.6, 5.1]), 1.5])
C('fmod', [T(2, 3, values=[2.3, -1.7, 3.4, 0.7, -2.6, 5.1]), T(2, 3, values=[1.1, 0.9, -1.3, 1.6, 1.2, -2.2])])
C('pow', [T(2, 3, lo=0.2, hi=2.0), T(2, 3)], second=True)
C('pow', [T(2, 3, lo=0.2, hi=2.0), T(3, lo=-1.0, hi=1.0)])
C('pow', [T(2, 3), 3], second=True)
C('pow', [T(2, 3), 2])
C('pow', [T(2, 3, lo=0.2, hi=2.0), 2.5], second=True)
C('pow', [T(2, 3, lo=0.2, hi=2.0), -1.5])
C('pow', [2.5, T(2, 3)], second=True)
C('pow', [F32(2, 2, lo=0.5, hi=2.0), F32(2, 2)])
C('where', [B([2, 3], [1, 0, 1, 1, 0, 0]), T(2, 3), T(2, 3)])
C('where', [B([2, 3], [1, 0, 1, 1, 0, 0]), T(3), T(2, 1)])
C('clamp', [T(2, 4, avoid=[-0.5, 0.5]), -0.5, 0.5])
C('clamp', [T(2, 4, avoid=[-0.5]), -0.5])
C('clamp', [T(2, 4, avoid=[0.5]), None, 0.5])
C('clamp', [T(2, 3, values=[-1.2, -0.3, 0.1, 0.8, 1.9, -2.0]), T(2, 3, values=[-1.0] * 6), T(2, 3, values=[1.0] * 6)])
C('clamp', [T(2, 3, values=[-1.2, -0.3, 0.1, 0.8, 1.9, -2.0]), T(3, values=[-0.5, -0.6, 0.3]), T(2, 1, values=[0.7, 1.5])])
C('lerp', [T(2, 3), T(2, 3), 0.3])
C('lerp', [T(2, 3), T(3), 0.75])
C('lerp', [T(2, 3), T(2, 3), T(2, 3, lo=0.0, hi=1.0)])
C('lerp', [T(2, 3), T(2, 1), T(3, lo=0.0, hi=1.0)])

# ---- pointwise unary --------------------------------------------------------------------------------------------
UNARY = {
    'neg': {}, 'abs': {'avoid': [0.0]}, 'exp': {}, 'exp2': {}, 'log': {'lo': 0.2, 'hi': 3.0},
    'log2': {'lo': 0.2, 'hi': 3.0}, 'log1p': {'lo': -0.8, 'hi': 2.0}, 'expm1': {}, 'sqrt': {'lo': 0.2, 'hi': 3.0},
    'rsqrt': {'lo': 0.2, 'hi': 3.0}, 'sin': {}, 'cos': {}, 'tan': {'lo': -1.2, 'hi': 1.2},
    'asin': {'lo': -0.9, 'hi': 0.9}, 'acos': {'lo': -0.9, 'hi': 0.9}, 'atan': {}, 'sinh': {}, 'cosh': {},
    'tanh': {}, 'sigmoid': {}, 'relu': {'avoid': [0.0]}, 'erf': {}, 'floor': {'avoid': [-1.0, 0.0, 1.0]},
    'ceil': {'avoid': [-1.0, 0.0, 1.0]}, 'round': {'avoid': [-1.5, -0.5, 0.5, 1.5]},
    'trunc': {'avoid': [-1.0, 0.0, 1.0]}, 'frac': {'avoid': [-1.0, 0.0, 1.0]},
    'reciprocal': {'avoid': [0.0], 'lo': -2.0, 'hi': 2.0},
}
SECOND_UNARY = {'abs', 'exp', 'exp2', 'log', 'log2', 'log1p', 'expm1', 'sqrt', 'rsqrt', 'sin', 'cos', 'tan',
                'asin', 'acos', 'atan', 'sinh', 'cosh', 'tanh', 'sigmoid', 'erf', 'reciprocal', 'relu'}
for op, kw in UNARY.items():
    rng_kw = dict(kw)
    if 'avoid' in rng_kw and op in ('reciprocal', 'abs'):
        rng_kw['avoid'] = [0.0, 0.1, -0.1]
    C(op, [T(2, 3, **rng_kw)], second=op in SECOND_UNARY)
for op in ['exp', 'tanh', 'sigmoid', 'log', 'sqrt']:
    kw = UNARY[op]
    C(op, [F32(5, **kw)])
C('round', [T(2, 3, avoid=[-0.05, 0.0, 0.05])], {'decimals': 1})
C('sign', [T(2, 3, avoid=[0.0])])
C('gelu', [T(2, 4)], fn=NN + 'gelu', second=True)
C('gelu', [T(2, 4)], {'approximate': 'tanh'}, fn=NN + 'gelu', second=True)
C('silu', [T(2, 4)], fn=NN + 'silu', second=True)
C('nan_to_num', [T(2, 3, values=[0.5, 'nan', 'inf', '-inf', -1.25, 2.0])])
C('nan_to_num', [T(2, 3, values=[0.5, 'nan', 'inf', '-inf', -1.25, 2.0]), 0.5, 10.5, -10.5])

# ---- reductions -------------------------------------------------------------------------------------------------
C('sum', [T(2, 3, 4)])
C('sum', [T(2, 3, 4), [0, 2]])
C('sum', [T(2, 3, 4), [1], True])
C('sum', [T(2, 3), [-1]])
C('sum', [F32(2, 3, 4), [2]])
C('mean', [T(2, 3, 4)])
C('mean', [T(2, 3, 4), [0, 2]])
C('mean', [T(2, 3, 4), [1], True])
C('mean', [F32(3, 4), [0]])
C('prod', [T(2, 3, lo=0.5, hi=1.5)], second=True)
C('prod', [T(2, 3, avoid=[0.0]), 1])
C('prod', [T(2, 3, 2, avoid=[0.0]), 0, True])
C('amax', [T(2, 3, 4, distinct=True), [1]])
C('amax', [T(2, 3, 4, distinct=True), [0, 2], True])
C('amax', [T(2, 3, values=[1.0, 3.0, 3.0, -1.0, -1.0, -2.0]), [1]])  # ties: gradient split evenly
C('amin', [T(2, 3, 4, distinct=True), [2]])
C('amin', [T(2, 3, values=[1.0, -3.0, -3.0, -1.0, -1.0, 2.0]), [1]])
C('max', [T(3, 4, distinct=True), 1], select=[0])
C('max', [T(3, 4, distinct=True), 0, True], select=[0])
C('max', [T(2, 3, values=[1.0, 3.0, 3.0, -1.0, -1.0, -2.0]), 1], select=[0])  # ties: the returned index
C('min', [T(3, 4, distinct=True), 1], select=[0])
C('min', [T(2, 3, values=[1.0, -3.0, -3.0, -1.0, -1.0, 2.0]), 1], select=[0])
C('var', [T(3, 4)], fn='var', method=True, second=True)
C('var', [T(3, 4), 1], {'correction': 1}, fn='var', method=True, second=True)
C('var', [T(2, 3, 4), [0, 2]], {'correction': 0, 'keepdim': True}, fn='var', method=True)
C('std', [T(3, 4)], second=True)
C('std', [T(3, 4), [1]], {'correction': 1})
C('std', [T(2, 3, 4), [0, 2]], {'correction': 0, 'keepdim': True})
C('norm', [T(3, 4, avoid=[0.0])])
C('norm', [T(3, 4, avoid=[0.0]), 1])
C('norm', [T(3, 4, avoid=[0.0]), 3, [1]])
C('norm', [T(3, 4, distinct=True), INF, [1]])
C('norm', [T(2, 3, 4, avoid=[0.0]), 2, [0, 2], True], second=True)
C('logsumexp', [T(3, 4), [1]], second=True)
C('logsumexp', [T(2, 3, 4), [0, 2], True])
C('cumsum', [T(3, 4), 1])
C('cumsum', [T(3, 4), 0])
C('cumprod', [T(3, 4, lo=0.5, hi=1.5), 1], second=True)
C('cumprod', [T(3, 4, avoid=[0.0]), 0])

# ---- linear algebra ---------------------------------------------------------------------------------------------
C('mm', [T(2, 3), T(3, 4)], second=True)
C('mm', [F32(3, 3), F32(3, 2)])
C('bmm', [T(2, 2, 3), T(2, 3, 2)])
C('matmul', [T(3), T(3)])
C('matmul', [T(2, 3), T(3)])
C('matmul', [T(3), T(3, 2)])
C('matmul', [T(2, 3), T(3, 4)], second=True)
C('matmul', [T(2, 2, 3), T(3, 2)], second=True)
C('matmul', [T(2, 3), T(2, 3, 2)])
C('matmul', [T(2, 1, 2, 3), T(3, 3, 2)])
C('matmul', [T(4), T(2, 4, 3)])
C('matmul', [T(2, 3, 4), T(4)])
C('matmul', [F32(2, 3), F32(3, 2)])
C('dot', [T(4), T(4)], second=True)
C('mv', [T(3, 4), T(4)])
C('outer', [T(3), T(4)])
C('addmm', [T(2, 4), T(2, 3), T(3, 4)])
C('addmm', [T(4), T(2, 3), T(3, 4)], {'beta': 0.5, 'alpha': 2})
C('baddbmm', [T(2, 2, 4), T(2, 2, 3), T(2, 3, 4)])
C('baddbmm', [T(1, 4), T(2, 2, 3), T(2, 3, 4)], {'beta': 1.5, 'alpha': 0.5})
C('linear', [T(2, 3), T(4, 3)], fn=NN + 'linear')
C('linear', [T(2, 3), T(4, 3), T(4)], fn=NN + 'linear', second=True)
C('linear', [T(2, 2, 3), T(4, 3), T(4)], fn=NN + 'linear')
C('linear', [T(3), T(4, 3), T(4)], fn=NN + 'linear')

# ---- nn -----------------------------------------------------------------------------------------------------------
C('softmax', [T(3, 4), 1], second=True)
C('softmax', [T(2, 3, 4), 0])
C('softmax', [F32(3, 4), -1])
C('log_softmax', [T(3, 4), 1], second=True)
C('log_softmax', [T(2, 3, 4), 1])
TGT = I([4], [1, 0, 3, 2])
C('nll_loss', [T(4, 5), TGT], fn=NN + 'nll_loss_nd')
C('nll_loss', [T(4, 5), TGT, C_(5, lo=0.2, hi=2.0)], fn=NN + 'nll_loss_nd')
C('nll_loss', [T(4, 5), I([4], [1, 0, 3, 0]), None, 2, 0], fn=NN + 'nll_loss_nd')
C('nll_loss', [T(4, 5), TGT, C_(5, lo=0.2, hi=2.0), 0], fn=NN + 'nll_loss_nd')
C('nll_loss', [T(2, 3, 2, 2), I([2, 2, 2], [0, 1, 2, 1, 2, 0, 1, 1])], fn=NN + 'nll_loss_nd')
C('nll_loss', [T(5), I([], [2])], fn=NN + 'nll_loss_nd')
C('cross_entropy', [T(4, 5), TGT], fn=NN + 'cross_entropy_loss', second=True)
C('cross_entropy', [T(4, 5), TGT, C_(5, lo=0.2, hi=2.0)], fn=NN + 'cross_entropy_loss')
C('cross_entropy', [T(4, 5), I([4], [1, -100, 3, 2])], {'reduction': 2}, fn=NN + 'cross_entropy_loss')
C('cross_entropy', [T(4, 5), TGT], {'label_smoothing': 0.1}, fn=NN + 'cross_entropy_loss')
C('cross_entropy', [T(4, 5), TGT, C_(5, lo=0.2, hi=2.0), 0, -100, 0.2], fn=NN + 'cross_entropy_loss')
C('cross_entropy', [T(4, 5), C_(4, 5, lo=0.0, hi=1.0)], fn=NN + 'cross_entropy_loss', second=True)
C('cross_entropy', [T(4, 5), C_(4, 5, lo=0.0, hi=1.0)], {'label_smoothing': 0.25}, fn=NN + 'cross_entropy_loss')
C('cross_entropy', [T(2, 3, 2), I([2, 2], [0, 2, 1, 1])], fn=NN + 'cross_entropy_loss')
C('cross_entropy', [F32(4, 5), TGT], fn=NN + 'cross_entropy_loss')
C('mse_loss', [T(2, 3), T(2, 3)], fn=NN + 'mse_loss', second=True)
C('mse_loss', [T(2, 3), C_(2, 3)], fn=NN + 'mse_loss')
C('mse_loss', [T(2, 3), T(2, 3), 0], fn=NN + 'mse_loss')
C('mse_loss', [T(2, 3), T(2, 3), 2], fn=NN + 'mse_loss')
C('l1_loss', [T(2, 3), T(2, 3)], fn=NN + 'l1_loss')
C('l1_loss', [T(2, 3), C_(2, 3), 0], fn=NN + 'l1_loss')
C('l1_loss', [T(2, 3), T(2, 3), 2], fn=NN + 'l1_loss')
C('binary_cross_entropy', [T(2, 3, lo=0.05, hi=0.95), C_(2, 3, lo=0.0, hi=1.0)], fn=NN + 'binary_cross_entropy', second=True)
C('binary_cross_entropy', [T(2, 3, lo=0.05, hi=0.95), C_(2, 3, lo=0.0, hi=1.0), C_(2, 3, lo=0.5, hi=2.0)], fn=NN + 'binary_cross_entropy')
C('binary_cross_entropy', [T(2, 3, lo=0.05, hi=0.95), C_(2, 3, lo=0.0, hi=1.0), None, 0], fn=NN + 'binary_cross_entropy')
C('binary_cross_entropy', [T(2, 3, lo=0.05, hi=0.95), T(2, 3, lo=0.0, hi=1.0), None, 2], fn=NN + 'binary_cross_entropy')
C('binary_cross_entropy_with_logits', [T(2, 3), C_(2, 3, lo=0.0, hi=1.0)], second=True)
C('binary_cross_entropy_with_logits', [T(2, 3), C_(2, 3, lo=0.0, hi=1.0), C_(2, 3, lo=0.5, hi=2.0)])
C('binary_cross_entropy_with_logits', [T(2, 3), C_(2, 3, lo=0.0, hi=1.0), None, C_(3, lo=0.5, hi=3.0)])
C('binary_cross_entropy_with_logits', [T(2, 3), C_(2, 3, lo=0.0, hi=1.0), C_(3, lo=0.5, hi=2.0), C_(3, lo=0.5, hi=3.0), 0])
C('binary_cross_entropy_with_logits', [T(2, 3), T(2, 3, lo=0.0, hi=1.0), None, None, 2])
C('layer_norm', [T(2, 3, 4), [4]], second=True)
C('layer_norm', [T(2, 3, 4), [4], T(4), T(4)], second=True)
C('layer_norm', [T(2, 3, 4), [3, 4], T(3, 4), T(3, 4), 0.001])
C('layer_norm', [T(3, 5), [5], T(5), None])
C('layer_norm', [F32(2, 6), [6], F32(6), F32(6)])
C('conv2d', [T(1, 2, 5, 5), T(3, 2, 3, 3)])
C('conv2d', [T(2, 2, 5, 5), T(3, 2, 3, 3), T(3)], second=True)
C('conv2d', [T(1, 2, 6, 5), T(2, 2, 2, 3), T(2), [2, 1], [1, 2]])
C('conv2d', [T(1, 2, 7, 7), T(2, 2, 3, 3), None, 1, 0, 2])
C('conv2d', [T(1, 4, 5, 5), T(6, 2, 3, 3), T(6), 1, 1, 1, 2])
C('conv2d', [T(2, 5, 5), T(3, 2, 3, 3)])
C('conv2d', [F32(1, 2, 4, 4), F32(2, 2, 3, 3), F32(2)])
C('max_pool2d', [T(1, 2, 4, 4, distinct=True), 2])
C('max_pool2d', [T(1, 1, 5, 5, distinct=True), 3, 2, 1])
C('max_pool2d', [T(1, 1, 5, 5, distinct=True), 2, 2, 0, 1, True])
C('max_pool2d', [T(1, 1, 6, 6, distinct=True), 2, 1, 0, 2])
C('max_pool2d', [T(2, 5, 5, distinct=True), [2, 3], [1, 2]])
C('avg_pool2d', [T(1, 2, 4, 4), 2], fn=NN + 'avg_pool2d')
C('avg_pool2d', [T(1, 1, 5, 5), 3, 2, 1], fn=NN + 'avg_pool2d')
C('avg_pool2d', [T(1, 1, 5, 5), 3, 2, 1, False, False], fn=NN + 'avg_pool2d')
C('avg_pool2d', [T(1, 1, 5, 5), 2, 2, 0, True], fn=NN + 'avg_pool2d')
C('avg_pool2d', [T(1, 1, 4, 4), 2, 1, 0, False, True, 3], fn=NN + 'avg_pool2d')

# ---- views and shapes -------------------------------------------------------------------------------------------
C('view', [T(2, 3, 2), [3, 4]], fn='view', method=True)
C('view', [T(2, 3), [6]], fn='view', method=True)
C('reshape', [T(2, 3, 2), [4, 3]])
C('reshape', [T(2, 3), [-1]])
C('transpose', [T(2, 3, 4), 0, 2])
C('t', [T(2, 3)])
C('permute', [T(2, 3, 4), [2, 0, 1]])
C('expand', [T(3, 1), [2, 3, 4]], fn='expand', method=True)
C('expand', [T(3), [2, 3]], fn='expand', method=True)
C('squeeze', [T(2, 1, 3)])
C('squeeze', [T(2, 1, 3), 1])
C('unsqueeze', [T(2, 3), 1])
C('select', [T(2, 3, 4), 1, 2])
C('select', [T(2, 3), 0, -1])
C('slice', [T(4, 5), 1, 1, 4], fn='torch.ops.aten.slice.Tensor')
C('slice', [T(6, 3), 0, 0, 6, 2], fn='torch.ops.aten.slice.Tensor')
C('narrow', [T(4, 5), 0, 1, 2])
C('flatten', [T(2, 3, 4)])
C('flatten', [T(2, 3, 4), 1, 2])
C('unflatten', [T(2, 6), 1, [2, 3]], fn='unflatten', method=True)
C('as_strided', [T(3, 4), [2, 2], [1, 2], 1])
C('as_strided', [T(6), [3, 2], [1, 1]])  # overlapping windows
C('contiguous', [T(2, 3)], fn='contiguous', method=True)
C('clone', [T(2, 3)])
C('to', [T(2, 3), {'dtype': 'float32'}], fn='to', method=True)
C('to', [F32(2, 3), {'dtype': 'float64'}], fn='to', method=True)
C('cat', [[T(2, 3), T(1, 3)]])
C('cat', [[T(2, 3), T(2, 2), T(2, 1)], 1])
C('stack', [[T(2, 3), T(2, 3)]])
C('stack', [[T(2, 3), T(2, 3), T(2, 3)], 2])
C('split', [T(5, 2), 2])
C('split', [T(2, 5), 3, 1])
C('split', [T(5, 2), 2], select=[1])
C('split_with_sizes', [T(5, 2), [2, 3]])
C('split_with_sizes', [T(2, 5), [1, 3, 1], 1], select=[0, 2])
C('chunk', [T(6, 2), 3])
C('chunk', [T(2, 5), 2, 1])
C('unbind', [T(3, 2)])
C('unbind', [T(2, 3), 1])
C('flip', [T(2, 3, 2), [0, 2]])
C('roll', [T(2, 3), 1, 1])
C('roll', [T(2, 3), [1, 2], [0, 1]])
C('roll', [T(2, 3), 2])
C('repeat', [T(2, 3), [2, 1, 2]], fn='repeat', method=True)
C('tile', [T(2, 3), [2, 2]])
C('tile', [T(2, 3), [2]])

# ---- indexing -----------------------------------------------------------------------------------------------------
C('index_select', [T(4, 3), 0, I([3], [2, 0, 2])])
C('index_select', [T(3, 4), 1, I([2], [3, 1])])
C('gather', [T(3, 4), 1, I([3, 2], [0, 3, 1, 1, 2, 0])])
C('gather', [T(3, 4), 0, I([2, 4], [0, 2, 1, 1, 2, 0, 0, 1])])
C('scatter', [T(3, 4), 1, I([3, 2], [0, 3, 1, 2, 2, 0]), T(3, 2)])
C('scatter', [T(3, 4), 0, I([1, 4], [2, 0, 1, 1]), T(1, 4)])
C('scatter', [T(3, 4), 1, I([3, 2], [0, 3, 1, 2, 2, 0]), 0.5])
C('scatter_add', [T(3, 4), 1, I([3, 3], [0, 3, 0, 1, 1, 2, 2, 0, 3]), T(3, 3)])
C('masked_fill', [T(2, 3), B([2, 3], [1, 0, 0, 1, 1, 0]), 0.5])
C('masked_fill', [T(2, 3), B([3], [0, 1, 0]), -1.5])
C('masked_select', [T(2, 3), B([2, 3], [1, 0, 0, 1, 1, 0])])
C('masked_select', [T(2, 3), B([3], [1, 0, 1])])
C('index', [T(4, 3), [I([3], [2, 0, 2])]], fn='torch.ops.aten.index.Tensor')
C('index', [T(3, 4), [None, I([2], [3, 1])]], fn='torch.ops.aten.index.Tensor')
C('index', [T(3, 4), [I([2], [0, 2]), I([2], [1, 3])]], fn='torch.ops.aten.index.Tensor')
C('index', [T(3, 4), [B([3, 4], [1, 0, 0, 1, 0, 1, 1, 0, 0, 0, 1, 1])]], fn='torch.ops.aten.index.Tensor')
C('index', [T(3, 4), [B([3], [1, 0, 1])]], fn='torch.ops.aten.index.Tensor')
C('index', [T(2, 3, 4), [I([2, 2], [0, 1, 1, 0]), None, I([2, 1], [3, 0])]], fn='torch.ops.aten.index.Tensor')
C('index_put', [T(4, 3), [I([2], [1, 3])], T(2, 3)])
C('index_put', [T(4, 3), [I([3], [1, 3, 1])], T(3, 3), True])
C('index_put', [T(3, 4), [I([2], [0, 2]), I([2], [1, 3])], T(2)])
C('index_put', [T(3, 4), [B([3, 4], [1, 0, 0, 1, 0, 1, 1, 0, 0, 0, 1, 1])], T(1)])
C('index_put', [T(3, 4), [I([2], [0, 2])], T(4), True])
C('embedding', [T(5, 3), I([2, 3], [1, 4, 1, 0, 2, 4])])
C('embedding', [T(5, 3), I([4], [1, 0, 2, 0]), 0])
C('tril', [T(3, 4)])
C('tril', [T(3, 4), -1])
C('triu', [T(3, 4)])
C('triu', [T(2, 3, 3), 1])
C('sort', [T(3, 4, distinct=True)], select=[0])
C('sort', [T(3, 4, distinct=True), 0, True], select=[0])
C('topk', [T(3, 5, distinct=True), 2], select=[0])
C('topk', [T(3, 5, distinct=True), 2, 0, False], select=[0])

# ---- non-contiguous (permuted) inputs ----------------------------------------------------------------------------
C('mul', [P([1, 0], 3, 2), T(2, 3)])
C('exp', [P([1, 0], 3, 2)])
C('sum', [P([2, 0, 1], 3, 2, 2), [0]])
C('mm', [P([1, 0], 3, 2), P([1, 0], 4, 3)])
C('softmax', [P([1, 0], 4, 3), 1])
C('layer_norm', [P([1, 0], 4, 2), [4], T(4), T(4)])
C('cumsum', [P([1, 0], 4, 3), 1])
C('gather', [P([1, 0], 4, 3), 1, I([3, 2], [0, 3, 1, 1, 2, 0])])
C('index', [P([1, 0], 4, 3), [I([2], [2, 0])]], fn='torch.ops.aten.index.Tensor')
C('conv2d', [P([0, 1, 3, 2], 1, 2, 5, 4), T(2, 2, 3, 3)])

# ---- matmul and linear: every branch of their decompositions (appended here so that the cases above keep
# their random values). Which inputs require grad and the strides choose PyTorch's branch (should_fold).
C('matmul', [C_(2, 3), T(2, 3, 2)])                      # 2-D @ 3-D, only the batched operand: bmm
C('matmul', [T(4), C_(2, 4, 3)])                         # 1-D @ 3-D, vector requires grad: fold into mv
C('matmul', [C_(4), T(2, 4, 3)])                         # 1-D @ 3-D: bmm with a broadcast vector
C('matmul', [T(2, 2, 3), T(2, 3, 2)], second=True)       # 3-D @ 3-D: bmm
C('matmul', [T(1, 2, 3), T(4, 3, 2)], second=True)       # batch 1 requiring grad squeezed, then folded
C('matmul', [T(4, 2, 3), T(1, 3, 2)])
C('matmul', [C_(1, 2, 3), T(4, 3, 2)])                   # batch 1 without grad: broadcast bmm
C('matmul', [T(3, 2, 4), C_(4, 2)])                      # contiguous 3-D @ 2-D: folded even without grad
C('matmul', [P([1, 0, 2], 2, 3, 4), C_(4, 2)])           # non-contiguous 3-D @ constant 2-D: bmm
C('matmul', [P([1, 0, 2], 2, 3, 4), T(4, 2)], second=True)  # ... @ 2-D requiring grad: folded with a copy
C('matmul', [P([1, 0, 2], 2, 3, 4), C_(4)])              # non-contiguous 3-D @ constant vector: bmm, squeeze
C('matmul', [T(2, 3, 2, 4), T(4)], second=True)          # 4-D @ 1-D: fold into mv
C('matmul', [T(3, 1, 2, 3), T(2, 3, 4)])                 # 4-D @ 3-D with broadcast batches
C('matmul', [T(2, 1, 2, 3), T(2, 1, 3, 2)], second=True)  # 4-D @ 4-D, both broadcast
C('matmul', [T(2, 0, 3), T(3, 2)])                       # empty
C('matmul', [T(3), T(3, 2)], second=True)
C('matmul', [T(3), T(3)], second=True)
C('matmul', [T(2, 3), T(3)], second=True)
C('linear', [T(2, 3), T(4, 3), T(2, 4)], fn=NN + 'linear')   # 2-D input, 2-D bias: addmm
C('linear', [T(2, 2, 3), T(4, 3)], fn=NN + 'linear', second=True)  # no bias: matmul (folded)
C('linear', [T(3), T(4, 3)], fn=NN + 'linear')           # 1-D input, no bias
C('linear', [T(2, 2, 2, 3), T(4, 3), T(4)], fn=NN + 'linear', second=True)  # contiguous n-D: flattened addmm
C('linear', [T(2, 2, 3), T(4, 3), T(1, 4)], fn=NN + 'linear')      # bias 1-D after squeeze: flattened addmm
C('linear', [T(2, 2, 3), T(4, 3), T(2, 1, 4)], fn=NN + 'linear')   # bias 2-D after squeeze: matmul, add_
C('linear', [T(2, 2, 3), T(4, 3), T(2, 4)], fn=NN + 'linear', second=True)  # 2-D bias: matmul, add_
C('linear', [P([1, 0, 2], 2, 3, 4), T(5, 4), T(5)], fn=NN + 'linear', second=True)  # non-contiguous: matmul, add_
C('linear', [P([1, 0, 2], 2, 3, 4), T(5, 4)], fn=NN + 'linear')
C('linear', [C_(2, 2, 3), T(4, 3), C_(4)], fn=NN + 'linear')  # only the weight requires grad
C('linear', [T(2, 3), C_(4, 3), C_(4)], fn=NN + 'linear')      # only the input requires grad
C('linear', [F32(2, 3), F32(4, 3), F32(4)], fn=NN + 'linear')

# ---- layer_norm, max_pool2d, conv2d decompose (native_layer_norm, max_pool2d_with_indices, convolution): more
# second-order cases, now that max_pool2d's backward (a scatter at the saved indices) has a derivative.
C('max_pool2d', [T(1, 2, 4, 4, distinct=True), 2], second=True)
C('max_pool2d', [T(1, 1, 5, 5, distinct=True), 3, 1, 1], second=True)        # overlapping windows, padding
C('max_pool2d', [T(1, 1, 5, 5, distinct=True), 2, 2, 0, 1, True], second=True)  # ceil mode
C('max_pool2d', [T(1, 1, 6, 6, distinct=True), 2, 1, 0, 2], second=True)     # dilation
C('max_pool2d', [T(2, 5, 5, distinct=True), [2, 3], [1, 2]], second=True)    # unbatched
C('max_pool2d', [T(1, 1, 4, 4, values=[1.0, 1.0, 0.5, 0.5, 1.0, 1.0, 0.5, 0.5,
                                       -0.25, 2.0, 2.0, 0.75, 2.0, -1.0, 0.75, 0.75]), 2, 1], second=True)  # ties
C('max_pool2d', [F32(2, 2, 4, 4, distinct=True), 2], second=True)
C('layer_norm', [T(2, 3, 4), [3, 4], T(3, 4), T(3, 4)], second=True)
C('layer_norm', [C_(3, 5), [5], T(5), T(5)])                                 # only the parameters require grad
C('layer_norm', [T(3, 5), [5], C_(5, lo=0.5, hi=1.5), None], second=True)
C('conv2d', [T(2, 5, 5), T(3, 2, 3, 3), T(3)], second=True)                  # unbatched: SqueezeBackward1
C('conv2d', [T(1, 4, 5, 5), T(6, 2, 3, 3), None, 1, 1, 1, 2], second=True)   # groups
C('conv2d', [C_(1, 2, 5, 5), T(3, 2, 3, 3), T(3)], second=True)              # only the parameters require grad

# ---- avg_pool2d twice differentiable (avg_pool2d_backward has a derivative): appended, same reason -----------------
C('avg_pool2d', [T(1, 2, 4, 4), 2], fn=NN + 'avg_pool2d', second=True)
C('avg_pool2d', [T(1, 1, 5, 5), 3, 2, 1, True, False], fn=NN + 'avg_pool2d', second=True)
C('avg_pool2d', [T(1, 1, 4, 4), 2, 1, 0, False, True, 3], fn=NN + 'avg_pool2d', second=True)

assert not no_second, f'second order requested but z does not require grad: {no_second}'
with open(OUT, 'w') as f:  # one case per line
    head = json.dumps({'generated_by': 'tools/golden/gen_autograd.py', 'torch_version': torch.__version__})
    f.write(head[:-1] + ', "cases": [\n' + ',\n'.join(json.dumps(c) for c in cases) + '\n]}\n')
n_second = sum(1 for c in cases if 'second' in c)
print('wrote', len(cases), 'cases (', n_second, 'with second order) covering', len(per_op), 'operators to', OUT)
