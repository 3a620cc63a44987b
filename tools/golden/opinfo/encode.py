"""The JSON encoding of tools/golden/gen_opinfo.py's samples (format in that script's docstring): tensors with
their storage when they are views, Python floats, dtypes, errors, and the aliasing within one error input.
"""
import math

import numpy as np
import torch

from opinfo.config import MODE, REDUCED_DTYPES


class Unserializable(Exception):
    pass


class TooLarge(Exception):
    pass


def dname(d):
    return str(d).replace("torch.", "")


def err_text(e):
    return str(e).split("\nException raised from ")[0]


def num(v, dtype):
    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        if abs(v) > 2**53:
            raise Unserializable("integer beyond 2**53")
        return v
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if dtype == torch.float32:
        return float(str(np.float32(v)))
    return v


def flat_values(t):
    if t.dtype.is_complex and MODE.complex and not t.is_conj():
        real = torch.view_as_real(t.detach())
        return [num(v, real.dtype) for v in real.reshape(-1).tolist()]
    if t.dtype.is_complex or (t.dtype in REDUCED_DTYPES and not MODE.reduced) or t.is_quantized:
        raise Unserializable(f"dtype {t.dtype}")
    return [num(v, t.dtype) for v in t.detach().reshape(-1).tolist()]


# Aliasing within one error input (see the module docstring): set by enc_call for the duration of one encoding.
def alias_plan(values):
    """Which tensors of a call are passed more than once, and which storages several distinct tensors share."""
    ts = [t for _, t in tensors_of(values, [], []) if t.layout == torch.strided and not t.is_meta]
    count = {}
    for t in ts:
        count[id(t)] = count.get(id(t), 0) + 1
    owners = {}
    for t in ts:
        if t.untyped_storage().nbytes() > 0:
            owners.setdefault(t.untyped_storage().data_ptr(), [])
            if id(t) not in [id(x) for x in owners[t.untyped_storage().data_ptr()]]:
                owners[t.untyped_storage().data_ptr()].append(t)
    shared = [p for p, o in owners.items() if len(o) > 1]
    return {"dups": {i for i, c in count.items() if c > 1}, "ids": {}, "storages": {p: k for k, p in enumerate(shared)}}


def enc_call(inp, args, kwargs):
    """input/args/kwargs of an error input, keeping aliasing ($id/$ref, $storage)."""
    MODE.alias = alias_plan([inp, list(args), dict(kwargs)])
    try:
        return enc(inp), enc(list(args)), {k: enc(kwargs[k]) for k in sorted(kwargs)}
    finally:
        MODE.alias = None


def enc_tensor(t, values=True, storage=True):
    """`storage`: an input, whose storage outside the view matters (results and gradients: values only)."""
    if MODE.alias is not None and t.layout == torch.strided and not t.is_meta:
        if id(t) in MODE.alias["ids"]:
            return {"$ref": MODE.alias["ids"][id(t)]}
        ptr = t.untyped_storage().data_ptr() if t.untyped_storage().nbytes() > 0 else None
        plan = MODE.alias
        if ptr in plan["storages"]:
            out = enc_tensor_storage(t)
            out["$storage"] = plan["storages"][ptr]
        else:
            out = enc_tensor_plain(t, values, storage)
        if id(t) in plan["dups"]:
            plan["ids"][id(t)] = len(plan["ids"])
            out["$id"] = plan["ids"][id(t)]
        return out
    return enc_tensor_plain(t, values, storage)


def enc_tensor_storage(t):
    """A tensor with its whole storage, strides and offset."""
    storage_numel = t.untyped_storage().nbytes() // t.element_size()
    if storage_numel > MODE.max_numel or t.numel() > MODE.max_numel:
        raise TooLarge()
    out = {"$t": dname(t.dtype), "shape": list(t.shape), "strides": list(t.stride()), "offset": t.storage_offset()}
    out["storage"] = flat_values(t.as_strided([storage_numel], [1], 0))
    out["values"] = flat_values(t)
    return out


def enc_tensor_plain(t, values=True, storage=True):
    if t.layout != torch.strided:
        raise Unserializable("layout")
    if t.numel() > MODE.max_numel:
        raise TooLarge()
    if MODE.complex and t.is_conj():
        t = t.resolve_conj()
    if t.is_conj() or t.is_neg():
        raise Unserializable("conj/neg bit")
    out = {"$t": dname(t.dtype), "shape": list(t.shape)}
    if t.is_meta or not values:
        out["strides"] = list(t.stride())
        return out
    storage_numel = t.untyped_storage().nbytes() // t.element_size()
    if not storage or (t.is_contiguous() and t.storage_offset() == 0 and storage_numel == t.numel()):
        out["values"] = flat_values(t)
        return out
    # a view into a larger storage or a non-contiguous tensor: its whole storage, strides and offset (as_strided
    # samples read storage outside the view)
    if storage_numel > MODE.max_numel:
        raise TooLarge()
    out["strides"] = list(t.stride())
    out["offset"] = t.storage_offset()
    out["storage"] = flat_values(t.as_strided([storage_numel], [1], 0))
    out["values"] = flat_values(t)
    return out


def enc(v):
    if isinstance(v, torch.Tensor):
        return enc_tensor(v)
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, int):
        return num(v, None)
    if isinstance(v, float):
        if math.isfinite(v) and v == int(v):
            return {"$f": v}
        return {"$f": num(v, None)} if not math.isfinite(v) else v
    if isinstance(v, torch.dtype):
        return {"$dtype": dname(v)}
    if isinstance(v, torch.device):
        return {"$device": str(v)}
    if isinstance(v, torch.memory_format):
        return {"$memory_format": dname(v)}
    if isinstance(v, (list, tuple)):  # torch.Size is a tuple
        return [enc(x) for x in v]
    if isinstance(v, slice):  # __getitem__'s indices
        return {"$slice": [enc(v.start), enc(v.stop), enc(v.step)]}
    if v is Ellipsis:
        return {"$ellipsis": None}
    raise Unserializable(type(v).__name__)


def enc_result(v, inputs):
    """An op's result: tensors with strides and `view` when sharing storage with an input."""
    if isinstance(v, torch.Tensor):
        out = enc_tensor(v, storage=False)
        out["strides"] = list(v.stride())
        if any(v.untyped_storage().data_ptr() == i.untyped_storage().data_ptr() and v.numel() > 0 for i in inputs):
            out["view"] = True
        return out
    if isinstance(v, (list, tuple)):
        return [enc_result(x, inputs) for x in v]
    return enc(v)


def enc_meta(v):
    if isinstance(v, torch.Tensor):
        return {"$t": dname(v.dtype), "shape": list(v.shape), "strides": list(v.stride())}
    if isinstance(v, (list, tuple)):
        return [enc_meta(x) for x in v]
    return enc(v)


def tensors_of(v, path, out):
    if isinstance(v, torch.Tensor):
        out.append((path, v))
    elif isinstance(v, (list, tuple)):
        for i, x in enumerate(v):
            tensors_of(x, path + [i], out)
    elif isinstance(v, dict):
        for k in sorted(v):
            tensors_of(v[k], path + [k], out)
    return out


def sample_tensors(s):
    return tensors_of([s.input, list(s.args), dict(s.kwargs)], [], [])


def map_tensors(v, f):
    if isinstance(v, torch.Tensor):
        return f(v)
    if isinstance(v, tuple):
        return tuple(map_tensors(x, f) for x in v)
    if isinstance(v, list):
        return [map_tensors(x, f) for x in v]
    if isinstance(v, dict):
        return {k: map_tensors(x, f) for k, x in v.items()}
    return v
