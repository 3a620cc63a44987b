"""Golden fixture for torch.library and torch.ops (test/library/): PyTorch 2.13's texts and values for

* `errors`: {id: {type, error}} — Library / define / impl misuse, torch.ops argument errors, custom_op
  checks, the autograd fallback mode and its warning, opcheck failures. `error` is str(exception), cut at
  "\\nException raised from" and, where PyTorch prints a file of its own build, before that file.
* `ops`: what torch.ops objects print and report for `pmyops::foo(Tensor x, Scalar alpha=2., *, bool neg=False)`
  and for aten::add.
* `opcheck_keys`: the keys of opcheck's result dict, in order.
* `custom_op`: a custom op `mylib::scaled_sin(x, k) = sin(x) * k` with register_fake and register_autograd:
  its schema, forward values and the gradient of x.

Deterministic: fixed inputs, no randomness. Run: $PYTHON tools/golden/gen_library.py
  -> test/golden/library.json
"""
import json
import re
import os
import warnings

import sys
import types

try:
    import filelock  # noqa: F401
except ImportError:
    # opcheck imports torch._inductor, which imports filelock at module level; nothing here compiles or locks,
    # so a placeholder module lets the import succeed without installing anything.
    _stub = types.ModuleType('filelock')

    class _NoFileLock:
        def __init__(self, *a, **k):
            raise RuntimeError('filelock placeholder: not installed')

    _stub.FileLock = _NoFileLock
    _stub.BaseFileLock = _NoFileLock
    _stub.Timeout = TimeoutError
    sys.modules['filelock'] = _stub

import torch

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'library.json')

errors = {}


def err(id_, fn, cut=None):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - recording PyTorch's error is the point
        msg = str(e).split('\nException raised from')[0]
        if cut is not None:
            msg = msg.split(cut)[0]
        errors[id_] = {'type': type(e).__name__, 'error': msg}
        return
    raise AssertionError(f'{id_}: no error')


# --- Library misuse ---------------------------------------------------------------------------------------
err('library_aten_def', lambda: torch.library.Library('aten', 'DEF'), cut='Previous registration of TORCH_LIBRARY was')
err('library_prim_def', lambda: torch.library.Library('prim', 'DEF'))
err('library_bad_kind', lambda: torch.library.Library('goldlib', 'BOGUS'))

lib = torch.library.Library('pmyops', 'DEF')
define_result = lib.define('foo(Tensor x, Scalar alpha=2.0, *, bool neg=False) -> Tensor')
lib.impl('foo', lambda x, alpha=2.0, neg=False: (x * alpha).neg() if neg else x * alpha, 'CPU')
err('define_bad_alias', lambda: lib.define('bar(Tensor x) -> Tensor', alias_analysis='PURE_FUNCTION'))
err('define_twice', lambda: lib.define('foo(Tensor x) -> Tensor'), cut=' Duplicate registration:')
err('impl_not_callable', lambda: lib.impl('foo', 3, 'CPU'))
err('impl_no_override', lambda: lib.impl('foo', lambda x, alpha, neg: x, 'CPU', allow_override=False))
err('fallback_not_global', lambda: lib.fallback(lambda op, *a: None, 'CPU'))

# --- torch.ops -------------------------------------------------------------------------------------------
op = torch.ops.pmyops.foo
x = torch.tensor([1.0, 2.0])
err('ops_missing', lambda: op())
err('ops_too_many', lambda: op(x, 1, 2))
err('ops_unknown_kw', lambda: op(x, bogus=1))
err('ops_type', lambda: op.default(x, x), cut='\nPosition:')
err('ops_no_op', lambda: torch.ops.pmyops.nope)
err('ops_no_overload', lambda: op.nope)
ops = {
    'define_result': define_result,
    'packet_str': str(op),
    'overload_str': str(op.default),
    'overload_name': op.default.name(),
    'overload___name__': op.default.__name__,
    'schema': str(op.default._schema),
    'overloads': op.overloads(),
    'packet_qualified_name': op._qualified_op_name,
    'call_default': op(x).tolist(),
    'call_kw': op(x, neg=True).tolist(),
    'call_positional': op(x, 3).tolist(),
    'aten_add_schema': str(torch.ops.aten.add.Tensor._schema),
    'aten_add_name': torch.ops.aten.add.Tensor.name(),
    'aten_add_scalar_other': torch.ops.aten.add(torch.ones(2), 1).tolist(),
    'aten_add_alpha': torch.ops.aten.add.Tensor(torch.ones(2), torch.ones(2), alpha=3).tolist(),
}

# --- autograd fallback -----------------------------------------------------------------------------------
xg = torch.tensor([1.0, 2.0], requires_grad=True)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    y = op(xg)
    y.sum().backward()
fallback_warning = str(w[0].message).split(' (Triggered internally at')[0]
fallback_grad = xg.grad.tolist()
default_mode = torch._C._get_autograd_fallback_mode()
err('fallback_mode_error', lambda: torch._C._set_autograd_fallback_mode('error'))
err('fallback_mode_bogus', lambda: torch._C._set_autograd_fallback_mode('bogus'), cut=None)
errors['fallback_mode_bogus']['error'] = errors['fallback_mode_bogus']['error'].split('please report a bug to PyTorch. ')[-1]

# --- custom_op -------------------------------------------------------------------------------------------
err(
    'custom_op_mutates_mismatch',
    lambda: torch.library.custom_op('mylib::m', lambda x: x, mutates_args=['x'], schema='(Tensor x) -> Tensor'),
)


@torch.library.custom_op('mylib::scaled_sin', mutates_args=(), schema='(Tensor x, float k=1.0) -> Tensor')
def scaled_sin(x, k=1.0):
    return torch.sin(x) * k


@scaled_sin.register_fake
def _(x, k=1.0):
    return torch.empty_like(x)


def setup_context(ctx, inputs, output):
    ctx.save_for_backward(inputs[0])
    ctx.k = inputs[1]


def backward(ctx, g):
    (x,) = ctx.saved_tensors
    return g * torch.cos(x) * ctx.k, None


scaled_sin.register_autograd(backward, setup_context=setup_context)
xs = torch.tensor([0.5, 1.0, 2.0, -0.25], dtype=torch.float32, requires_grad=True)
ys = scaled_sin(xs, 2.0)
ys.sum().backward()
custom = {
    'repr': repr(scaled_sin),
    'schema': str(scaled_sin._opoverload._schema),
    'x': [0.5, 1.0, 2.0, -0.25],
    'k': 2.0,
    'y': ys.tolist(),
    'grad_x': xs.grad.tolist(),
    'grad_fn': type(ys.grad_fn).__name__,
}
opcheck_result = torch.library.opcheck(scaled_sin, (torch.tensor([0.5, 1.0], requires_grad=True), 2.0))
opcheck_keys = list(opcheck_result.keys())
assert all(v == 'SUCCESS' for v in opcheck_result.values()), opcheck_result


@torch.library.custom_op('mylib::nofake', mutates_args=(), schema='(Tensor x) -> Tensor')
def nofake(x):
    return x * 2


err('custom_op_no_fake', lambda: nofake(torch.empty(2, device='meta')))


@torch.library.custom_op('mylib::noautograd', mutates_args=(), schema='(Tensor x) -> Tensor')
def noautograd(x):
    return x * 2


err('custom_op_no_backward', lambda: noautograd(torch.ones(2, requires_grad=True)).sum().backward())


@torch.library.custom_op('mylib::addone_', mutates_args=['x'], schema='(Tensor(a!) x) -> ()')
def addone_(x):
    x.add_(1)


err('register_autograd_mutable', lambda: addone_.register_autograd(lambda ctx, g: g))


@torch.library.custom_op('mylib::liar', mutates_args=(), schema='(Tensor x) -> Tensor')
def liar(x):
    x.add_(1)
    return x.clone()


liar.register_fake(lambda x: torch.empty_like(x))
err('opcheck_schema_mutation', lambda: torch.library.opcheck(liar, (torch.ones(3),), test_utils='test_schema'))


@torch.library.custom_op('mylib::badfake', mutates_args=(), schema='(Tensor x) -> Tensor')
def badfake(x):
    return x.sum(0, keepdim=True)


badfake.register_fake(lambda x: torch.empty_like(x))
err('opcheck_fake_shape', lambda: torch.library.opcheck(badfake, (torch.ones(3, 2),), test_utils='test_faketensor'))


@torch.library.custom_op('mylib::aliasing', mutates_args=(), schema='(Tensor x) -> Tensor')
def aliasing(x):
    return x


# PyTorch names the Python module of the implementation; the test compares the text around it.
err('custom_op_returns_input', lambda: aliasing(torch.ones(2)))

# The module PyTorch names is a path of this machine's install: keep the text around it.
for v in errors.values():
    v['error'] = re.sub(r'\(with implementation in <module [^>]*>\)', '(with implementation in <module>)', v['error'])

data = {
    'generated_by': 'tools/golden/gen_library.py',
    'torch_version': torch.__version__,
    'errors': errors,
    'ops': ops,
    'fallback': {'default_mode': default_mode, 'warning': fallback_warning, 'grad': fallback_grad},
    'opcheck_keys': opcheck_keys,
    'custom_op': custom,
}
with open(OUT, 'w') as f:
    json.dump(data, f, indent=1, sort_keys=False)
    f.write('\n')
print(f'wrote {OUT}: {len(errors)} errors')
