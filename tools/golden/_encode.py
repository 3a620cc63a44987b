"""Encoders shared by the golden generators: one home for how a tensor or a Python value becomes JSON.

* `enc(v)`: JSON has no NaN / Infinity, so non-finite floats are the strings 'nan', 'inf', '-inf'.
* `values(t)`: a tensor's row-major values, enc'ed; complex as [re, im] pairs.
* `spec(r, fields, ...)`: a call's result as test/compare.ts's `checkResult` reads it — a tensor as a dict of the
  chosen fields (in that order), a tuple/list as a list of specs, any other value as {'value': v}.

Imported by the generators beside it (`from _encode import enc, spec`): a script run as
`$PYTHON tools/golden/gen_x.py` has tools/golden/ on sys.path.
"""
import math

import torch


def enc(v):
    """JSON has no NaN / Infinity: non-finite floats are the strings 'nan', 'inf', '-inf'."""
    if isinstance(v, float) and not math.isfinite(v):
        return 'nan' if math.isnan(v) else ('inf' if v > 0 else '-inf')
    return v


def values(t):
    """Row-major values of `t`, enc'ed; complex values as [re, im] pairs."""
    v = t.detach()
    if v.is_complex():
        v = torch.view_as_real(v)
    return [enc(x) for x in v.reshape(-1).tolist()]


_FIELDS = {
    'sizes': lambda t: list(t.shape),
    'strides': lambda t: list(t.stride()),
    'offset': lambda t: t.storage_offset(),
    'device': lambda t: t.device.type,
    'values': values,
    'grad_fn': lambda t: None if t.grad_fn is None else t.grad_fn.name(),
}


def spec(r, fields=('dtype', 'sizes', 'values', 'grad_fn'), torch_dtype=False, meta_values='empty'):
    """`r` as JSON. A tensor is a dict of `fields` in that order: 'dtype' is 'float32' (or 'torch.float32' with
    `torch_dtype`), the rest as in _FIELDS. A Meta tensor has no values: 'values' is [] (`meta_values='empty'`)
    or left out (`meta_values='omit'`)."""
    if isinstance(r, (tuple, list)):
        return [spec(x, fields, torch_dtype, meta_values) for x in r]
    if not isinstance(r, torch.Tensor):
        return {'value': r}
    meta = r.device.type == 'meta'
    out = {}
    for f in fields:
        if f == 'dtype':
            out[f] = str(r.dtype) if torch_dtype else str(r.dtype).replace('torch.', '')
        elif f == 'values' and meta:
            if meta_values == 'empty':
                out[f] = []
        else:
            out[f] = _FIELDS[f](r)
    return out
