#!/usr/bin/env python3
"""OpInfo fixtures: PyTorch's own test samples (`op_db` of torch.testing._internal.common_methods_invocations)
for every OpInfo entry whose operator aten-ts has, replayed by test/opinfo/opinfo.test.ts.

Run from the repository root (op_db imports `expecttest`, which the wheel does not ship: this script puts a
stub module in its place when it is missing):

    npx tsx tools/opinfo-ops.ts                       # tools/golden/opinfo_ops.json (aten-ts's names)
    $PYTHON tools/golden/gen_opinfo.py --coverage   # op_db entries aten-ts exposes but the sweep skips
    $PYTHON tools/golden/gen_opinfo.py     # test/golden/opinfo/*.json.gz and index.json
    npx tsx tools/opinfo-report.ts                    # test/opinfo/known_failures.json, FEATURES.md section

Which entries: an OpInfo `name` (`nn.functional.X` → `X`) that is a `torch.*` function or a Tensor method of
aten-ts (tools/golden/opinfo_ops.json), or a function of the package's full namespace (`exposed`: torch.complex,
torch.nn.functional.X), with every `variant_test_name`. `--coverage` lists the entries aten-ts exposes (by name or alias)
that this rule skips, and exits 1 if there are any. For each of float32, float64, int64,
int32 and bool that the OpInfo supports on the CPU (and float16/bfloat16: their first REDUCED_SAMPLES plain
samples, values and Meta only):

- `samples`: the first SAMPLES of `sample_inputs(cpu, dtype)` and the first REFERENCE of the extra samples of
  `reference_inputs` (those after the ones it shares with `sample_inputs`); each with its input/args/kwargs,
  the expected output (values, dtype, shape, strides; `view` when it shares storage with an input), the Meta
  result (the call on meta tensors of the same sizes/strides: dtype, shape, strides, or the error), and for
  float64 with `supports_autograd` the first-order gradients of the inputs OpInfo marks as requiring grad
  (`grad_inputs`: paths into the call) for a seeded cotangent (rounded to 2 decimals) per differentiable
  output, and the `grad_fn` name of the first output.
- `errors` (once per entry): the first ERRORS of `error_inputs(cpu)`, with the exception type and message.

Samples with a tensor of more than MAX_NUMEL elements, or with an argument that has no JSON form, are skipped
and counted (`skipped`). Random and uninitialised results (NO_VALUES) record dtype/shape only. Each sample
records the `seed` its call draws from (42 for OpInfo's `wrapper_set_seed` entries; values and gradients):
aten-ts's CPU generator draws PyTorch's numbers, so a random operator (dropout) is compared value for value.

Encoding: a tensor is {"$t": dtype, "shape", "values"} (values flat in logical order; floats "nan"/"inf"/
"-inf" as strings) plus "strides"/"offset"/"storage" for a non-contiguous tensor or a view into a larger
storage (then `storage` holds its whole storage and the tensor is `storage.as_strided(shape, strides, offset)`); a Python float is
a number (integral floats are {"$f": x}, as JS cannot tell 2.0 from 2), a dtype {"$dtype": name}, a
torch.Size/tuple/list a JSON list, None null; an error {"error": message, "type": name}. In error inputs,
aliasing is kept (out= overlap checks): a tensor passed twice is {"$id": k, ...} the first time (in the order
input, args, kwargs by sorted key) and {"$ref": k} after, and distinct tensors over one storage carry their whole
storage with {"$storage": s} (the harness builds one base per s and views it).

Deterministic: torch.manual_seed per entry/dtype from a CRC-32 of its name (never Python's hash()), no set
iteration, gzip with mtime 0.
"""

import argparse
import gzip
import json
import math
import os
import re
import sys
import types
import warnings
import zlib

# Some op_db samples iterate over a set of strings (meshgrid's `indexing` modes), whose order follows Python's
# per-process string hashing: pin it, so that every run writes the same bytes.
if os.environ.get("PYTHONHASHSEED") != "0":
    os.execve(sys.executable, [sys.executable] + sys.argv, {**os.environ, "PYTHONHASHSEED": "0"})

import numpy as np
import torch

try:
    import expecttest  # noqa: F401 - imported by op_db's modules; the wheel does not ship it
except ImportError:
    expecttest = types.ModuleType("expecttest")
    expecttest.TestCase = type("TestCase", (), {})
    sys.modules["expecttest"] = expecttest

from torch.testing._internal.common_methods_invocations import op_db  # noqa: E402
from torch.testing._internal.opinfo.core import BinaryUfuncInfo, ReductionOpInfo, SampleInput, UnaryUfuncInfo

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLES = 8
REFERENCE = 4
ERRORS = 8
MAX_NUMEL = 1000
# entries every sample of which has a tensor over MAX_NUMEL elements: their first float64 sample only, with
# tensors up to BIG_NUMEL elements (so the entry is replayed at all, and its fixture stays small)
BIG_SAMPLE_OPS = ["slice_scatter", "kron", "_upsample_bilinear2d_aa"]
BIG_NUMEL = 10000
FILE_BYTES = 280_000
DTYPES = [torch.float32, torch.float64, torch.int64, torch.int32, torch.bool]
# complex tensors are encoded (as interleaved [re, im] values) for these families only, and their entries are
# also sampled in these dtypes: the other fixtures stay as they were
COMPLEX_FAMILIES = ["fft"]
COMPLEX_DTYPES = [torch.complex64, torch.complex128]
# entries outside COMPLEX_FAMILIES that aten-ts computes in complex64/complex128 (its complex loops): they are
# also sampled in those dtypes when op_db lists them for the CPU, with COMPLEX_SAMPLES samples per dtype (no
# reference inputs) and complex128 gradients where OpInfo checks them (supports_autograd); their float
# samples encode complex results too
COMPLEX_OPS = [
    "abs", "neg", "exp", "log", "log10", "log2", "log1p", "expm1", "exp2", "sqrt", "rsqrt", "reciprocal", "sin",
    "cos", "tan", "sinh", "cosh", "tanh", "asin", "acos", "atan", "asinh", "acosh", "atanh", "sgn", "sigmoid",
    "square", "angle", "isnan", "isfinite", "isinf", "isreal", "positive", "conj", "conj_physical", "resolve_conj",
    "resolve_neg", "real", "imag", "view_as_real", "view_as_complex", "polar", "add", "sub", "mul",
    "div.no_rounding_mode", "true_divide", "pow", "eq", "ne", "rsub", "__radd__", "__rmul__", "__rsub__", "__rdiv__",
    "where", "sum", "mean", "prod", "mm", "bmm", "dot", "vdot", "matmul", "mv", "addmm", "outer", "reshape", "view",
    "flatten", "transpose", "permute", "clone", "contiguous", "cat", "stack", "flip", "t", "select", "unsqueeze",
    "squeeze", "expand", "narrow", "split", "chunk", "unbind", "roll", "repeat", "tile", "tril", "triu", "diagonal",
    "movedim", "index_select", "masked_select", "cumsum", "cumprod", "trace", "addcmul", "addcdiv"
]
COMPLEX_SAMPLES = 4
_COMPLEX = False
# float16 / bfloat16 (PyTorch computes many CPU ops in them): every entry whose CPU dtypes list them is also
# sampled in them, its first REDUCED_SAMPLES plain samples only (values and Meta; no reference inputs, no
# gradients), so the fixtures grow little; reduced tensors are encoded only while those samples are recorded
REDUCED_DTYPES = [torch.float16, torch.bfloat16]
REDUCED_SAMPLES = 2
_REDUCED = False
# results that are random or uninitialised memory: dtype/shape/strides only
NO_VALUES = ["bernoulli", "empty", "empty_like", "empty_permuted", "empty_strided", "new_empty", "new_empty_strided", "rand_like", "randint", "randint_like", "randn", "randn_like"]

FAMILIES = [
    ("factories", ["arange", "empty", "empty_like", "empty_strided", "eye", "full", "full_like", "linspace", "ones",
                   "ones_like", "randint", "randn", "zeros", "zeros_like", "bernoulli", "zero_"]),
    ("views", ["as_strided", "chunk", "contiguous", "expand", "flatten", "narrow", "permute", "reshape", "select",
               "slice", "split", "split_with_sizes", "squeeze", "t", "transpose", "unbind", "unflatten", "unsqueeze",
               "view", "clone", "to", "item"]),
    ("indexing", ["cat", "flip", "gather", "index_put", "index_select", "masked_fill", "masked_select", "nonzero",
                  "repeat", "roll", "scatter", "scatter_add", "sort", "argsort", "stack", "tile", "topk", "tril",
                  "triu", "where"]),
    ("linalg", ["addmm", "baddbmm", "bmm", "dot", "matmul", "mm", "mv", "outer", "norm"]),
    ("nn", ["softmax", "log_softmax", "native_layer_norm", "max_pool2d_with_indices_backward"]),
]


def slug(entry):
    """An op's key as a file-name part: `nn.functional.conv2d` -> `conv2d`, `max.binary` -> `max_binary`."""
    key = entry["key"][len("nn.functional."):] if entry["key"].startswith("nn.functional.") else entry["key"]
    return re.sub(r"[^A-Za-z0-9]+", "_", key).strip("_")


def family(op):
    if op.name.startswith("nn.functional."):
        return "nn"
    # op_db's nested namespaces, one fixture file each (linalg.* joins the linalg family)
    for prefix, fam in (("linalg.", "linalg"), ("special.", "special"), ("fft.", "fft"), ("masked.", "masked"),
                        ("signal.windows.", "signal")):
        if op.name.startswith(prefix):
            return fam
    for fam, names in FAMILIES:
        if op.name in names:
            return fam
    if isinstance(op, UnaryUfuncInfo):
        return "unary"
    if isinstance(op, BinaryUfuncInfo):
        return "binary"
    if isinstance(op, ReductionOpInfo):
        return "reductions"
    return "other"


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
    if t.dtype.is_complex and _COMPLEX and not t.is_conj():
        real = torch.view_as_real(t.detach())
        return [num(v, real.dtype) for v in real.reshape(-1).tolist()]
    if t.dtype.is_complex or (t.dtype in REDUCED_DTYPES and not _REDUCED) or t.is_quantized:
        raise Unserializable(f"dtype {t.dtype}")
    return [num(v, t.dtype) for v in t.detach().reshape(-1).tolist()]


# Aliasing within one error input (see the module docstring): set by enc_call for the duration of one encoding.
_ALIAS = None


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
    global _ALIAS
    _ALIAS = alias_plan([inp, list(args), dict(kwargs)])
    try:
        return enc(inp), enc(list(args)), {k: enc(kwargs[k]) for k in sorted(kwargs)}
    finally:
        _ALIAS = None


def enc_tensor(t, values=True, storage=True):
    """`storage`: an input, whose storage outside the view matters (results and gradients: values only)."""
    if _ALIAS is not None and t.layout == torch.strided and not t.is_meta:
        if id(t) in _ALIAS["ids"]:
            return {"$ref": _ALIAS["ids"][id(t)]}
        ptr = t.untyped_storage().data_ptr() if t.untyped_storage().nbytes() > 0 else None
        plan = _ALIAS
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
    if storage_numel > MAX_NUMEL or t.numel() > MAX_NUMEL:
        raise TooLarge()
    out = {"$t": dname(t.dtype), "shape": list(t.shape), "strides": list(t.stride()), "offset": t.storage_offset()}
    out["storage"] = flat_values(t.as_strided([storage_numel], [1], 0))
    out["values"] = flat_values(t)
    return out


def enc_tensor_plain(t, values=True, storage=True):
    if t.layout != torch.strided:
        raise Unserializable("layout")
    if t.numel() > MAX_NUMEL:
        raise TooLarge()
    if _COMPLEX and t.is_conj():
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
    if storage_numel > MAX_NUMEL:
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


def seed_of(*parts):
    return zlib.crc32(".".join(parts).encode()) & 0x7FFFFFFF


def call(op, inp, args, kwargs):
    return op(inp, *args, **kwargs)


def result_tensors(v):
    return [t for _, t in tensors_of(v, [], [])]


def rng_seed(op, seed):
    """The generator seed the op's call draws from: OpInfo wraps its random entries (dropout, SDPA, multinomial...)
    in `wrapper_set_seed`, which seeds 42 inside the call; else the sample's own seed, set before it."""
    code = getattr(op.op, "__code__", None)
    return 42 if code is not None and "wrapper_set_seed" in code.co_names else seed


def record_sample(op, s, dtype, grad_sample, seed):
    """One sample: call, result, Meta result and (float64) gradients."""
    rec = {"input": enc(s.input), "args": enc(list(s.args)), "kwargs": {k: enc(s.kwargs[k]) for k in sorted(s.kwargs)},
           "seed": rng_seed(op, seed)}
    if op.name == "__getitem__":
        # `x[i]` and `x[i, j]` as the list of indices aten-ts's `x.index([...])` takes (JSON has no tuples)
        idx = s.args[0]
        rec["args"] = [enc(list(idx) if isinstance(idx, tuple) else [idx])]
    seed = rec["seed"]
    ins = [t for _, t in sample_tensors(s)]
    no_values = op.name in NO_VALUES
    try:
        torch.manual_seed(seed)
        r = call(op, s.input, s.args, s.kwargs)
        if no_values:
            rec["result"] = map_tensors(r, lambda t: enc_tensor(t, values=False)) if isinstance(r, torch.Tensor) else enc_meta(r)
            rec["no_values"] = True
        else:
            rec["result"] = enc_result(r, ins)
    except (Unserializable, TooLarge):
        raise
    except Exception as e:  # noqa: BLE001 - PyTorch's own error for this sample is the expected behaviour
        rec["result"] = {"error": err_text(e), "type": type(e).__name__}
    # Meta: the same call on meta tensors of the same sizes and strides
    def to_meta(t):
        return torch.empty_strided(t.shape, t.stride(), dtype=t.dtype, device="meta")
    try:
        mr = call(op, to_meta(s.input) if isinstance(s.input, torch.Tensor) else map_tensors(s.input, to_meta),
                  map_tensors(list(s.args), to_meta), map_tensors(dict(s.kwargs), to_meta))
        rec["meta"] = enc_meta(mr)
    except (Unserializable, TooLarge):
        raise
    except Exception as e:  # noqa: BLE001
        rec["meta"] = {"error": err_text(e), "type": type(e).__name__}
    if grad_sample is not None and "error" not in rec["result"]:
        rec.update(record_grads(op, grad_sample, seed))
    return rec


def as_leaf(t):
    """OpInfo's noncontiguous samples are views made inside its no_grad generators (make_tensor, then
    .transpose()): they report requires_grad=True and is_leaf=True, but autograd gives them no edge, so their
    gradient is always None. The harness (like a user) has a real leaf with those values and strides there,
    so the gradient is recorded for one: t.detach().requires_grad_() keeps the strides."""
    if isinstance(t, torch.Tensor) and t.requires_grad and t.is_leaf and t._is_view():
        return t.detach().requires_grad_()
    return t


def record_grads(op, gs, seed):
    gs = SampleInput(map_tensors(gs.input, as_leaf), args=map_tensors(tuple(gs.args), as_leaf),
                     kwargs=map_tensors(dict(gs.kwargs), as_leaf))
    leaves = [(p, t) for p, t in sample_tensors(gs) if t.requires_grad]
    if not leaves:
        return {}
    out = {"grad_inputs": [p for p, _ in leaves]}
    try:
        torch.manual_seed(seed)  # the generator state of the values call: a random op draws the same mask
        r = call(op, gs.input, gs.args, gs.kwargs)
        outs = [t for t in result_tensors(r) if t.requires_grad]
        if not outs:
            return {}
        out["grad_fn"] = outs[0].grad_fn.name() if outs[0].grad_fn is not None else None
        g = torch.Generator().manual_seed(seed)
        cots = [complex_cotangent(o, g) if _COMPLEX and o.dtype.is_complex else
                torch.randn(o.shape, generator=g, dtype=o.dtype).round(decimals=2) for o in outs]
        out["cotangents"] = [flat_values(c) for c in cots]
        out["grad_outputs"] = [i for i, t in enumerate(result_tensors(r)) if t.requires_grad]
        grads = torch.autograd.grad(outs, [t for _, t in leaves], cots, allow_unused=True)
        # an efficient zero tensor (sgn's real gradient) has no storage to read: its values are zeros
        grads = [x if x is None or not x._is_zerotensor() else torch.zeros(x.shape, dtype=x.dtype) for x in grads]
        out["grads"] = [None if x is None else enc_tensor(x, storage=False) for x in grads]
    except (Unserializable, TooLarge):
        raise
    except Exception as e:  # noqa: BLE001
        out["grads"] = {"error": err_text(e), "type": type(e).__name__}
    return out


def complex_cotangent(o, g):
    """A complex output's cotangent (round() has no complex kernel): its real and imaginary parts drawn as randn
    of shape [..., 2] and rounded."""
    real = torch.randn(list(o.shape) + [2], generator=g, dtype=o.real.dtype).round(decimals=2)
    return torch.view_as_complex(real)


def first(gen, n, skip=0):
    out = []
    for i, x in enumerate(gen):
        if i < skip:
            continue
        if len(out) >= n:
            break
        out.append(x)
    return out


def safe_first(make, n, skip=0):
    """`first` of a requires_grad=True generation, or None when OpInfo cannot make one (integral parts)."""
    try:
        return first(make(), n, skip)
    except Exception:  # noqa: BLE001
        return None


def same_sample(s, g):
    try:
        return json.dumps(call_json(s)) == json.dumps(call_json(g))
    except (TooLarge, Unserializable):
        return False


def call_json(s):
    return [enc(map_tensors(s.input, torch.Tensor.detach)), enc(map_tensors(list(s.args), torch.Tensor.detach)),
            {k: enc(map_tensors(s.kwargs[k], torch.Tensor.detach)) for k in sorted(s.kwargs)}]


def gen_samples(op, dtype, key, counts):
    seed = seed_of(key, dname(dtype))
    torch.manual_seed(seed)
    samples = first(op.sample_inputs("cpu", dtype, requires_grad=False), SAMPLES)
    grad_samples = [None] * len(samples)
    if (dtype == torch.float64 or (dtype == torch.complex128 and key in COMPLEX_OPS)) and op.supports_autograd:
        torch.manual_seed(seed)
        gs = safe_first(lambda: op.sample_inputs("cpu", dtype, requires_grad=True), SAMPLES)
        if gs is not None and len(gs) == len(samples):
            grad_samples = gs
    sources = [("sample", s, g) for s, g in zip(samples, grad_samples)]
    if op.reference_inputs_func is not None and REFERENCE > 0:
        torch.manual_seed(seed)
        n_plain = sum(1 for _ in op.sample_inputs("cpu", dtype, requires_grad=False))
        torch.manual_seed(seed)
        refs = first(op.reference_inputs("cpu", dtype, requires_grad=False), REFERENCE, skip=n_plain)
        grefs = [None] * len(refs)
        if dtype == torch.float64 and op.supports_autograd:
            torch.manual_seed(seed)
            gr = safe_first(lambda: op.reference_inputs("cpu", dtype, requires_grad=True), REFERENCE, n_plain)
            if gr is not None and len(gr) == len(refs):
                grefs = gr
        sources += [("reference", s, g) for s, g in zip(refs, grefs)]
    out = []
    for i, (kind, s, g) in enumerate(sources):
        if g is not None and not same_sample(s, g):
            g = None  # the requires_grad=True generation yields other samples: no gradients for this one
        try:
            rec = record_sample(op, s, dtype, g, seed_of(key, dname(dtype), str(i)))
        except TooLarge:
            counts["too_large"] += 1
            continue
        except Unserializable:
            counts["unserializable"] += 1
            continue
        rec["index"] = i
        rec["kind"] = kind
        out.append(rec)
    return out


def complex_samples(op, dtype, key, counts):
    """COMPLEX_OPS in a complex dtype: the first COMPLEX_SAMPLES samples (no reference inputs)."""
    global SAMPLES, REFERENCE
    saved = SAMPLES, REFERENCE
    SAMPLES, REFERENCE = COMPLEX_SAMPLES, 0
    try:
        return gen_samples(op, dtype, key, counts)
    finally:
        SAMPLES, REFERENCE = saved


def reduced_samples(op, dtype, key, counts):
    """REDUCED_DTYPES: the first REDUCED_SAMPLES plain samples, values and Meta only."""
    global SAMPLES, REFERENCE, _REDUCED
    saved = SAMPLES, REFERENCE
    SAMPLES, REFERENCE, _REDUCED = REDUCED_SAMPLES, 0, True
    try:
        return gen_samples(op, dtype, key, counts)
    finally:
        (SAMPLES, REFERENCE), _REDUCED = saved, False


def big_samples(op, dtype, key, counts):
    """BIG_SAMPLE_OPS: the first sample (no reference inputs), tensors up to BIG_NUMEL elements."""
    global MAX_NUMEL, SAMPLES, REFERENCE
    saved = MAX_NUMEL, SAMPLES, REFERENCE
    MAX_NUMEL, SAMPLES, REFERENCE = BIG_NUMEL, 1, 0
    try:
        return gen_samples(op, dtype, key, counts)
    finally:
        MAX_NUMEL, SAMPLES, REFERENCE = saved


def gen_errors(op, key, counts):
    torch.manual_seed(seed_of(key, "errors"))
    try:
        eis = first(op.error_inputs("cpu"), ERRORS)
    except Exception:  # noqa: BLE001 - no error_inputs for this entry
        return []
    out = []
    for i, ei in enumerate(eis):
        s = ei.sample_input
        try:
            inp, args, kwargs = enc_call(s.input, s.args, s.kwargs)
            rec = {"index": i, "input": inp, "args": args, "kwargs": kwargs}
        except (TooLarge, Unserializable):
            counts["unserializable"] += 1
            continue
        try:
            call(op, s.input, s.args, s.kwargs)
            rec["error"] = None  # OpInfo expects an error PyTorch 2.13 no longer raises
        except Exception as e:  # noqa: BLE001
            rec["error"] = err_text(e)
            rec["type"] = type(e).__name__
        out.append(rec)
    return out


# op_db entries outside aten-ts's scope, each with its reason (the coverage table of FEATURES.md lists them):
# (prefix of the entry's key, reason); an entry matching none that the sweep does not reach is "not yet".
OUT_OF_SCOPE = [
    ("jiterator_", "CUDA's jiterator (runtime-compiled CUDA kernels): no CPU operator"),
    ("torch._scaled_mm", "fp8 scaled matmul (Triton / CUDA fp8 GEMM): no CPU float8 path"),
    ("torch.ops.aten._flash_attention_forward", "CUDA-only attention backend (the CPU flash operator is swept)"),
    ("torch.ops.aten._efficient_attention_forward", "CUDA-only attention backend (memory-efficient attention)"),
    ("sparse.", "sparse layouts (aten-ts has strided tensors only)"),
    ("to_sparse", "sparse layouts (aten-ts has strided tensors only)"),
]


def out_of_scope(key):
    return next((why for prefix, why in OUT_OF_SCOPE if key.startswith(prefix)), None)


def op_db_entry(op, is_swept):
    """One op_db entry for the coverage table: key, family and, when not swept, why."""
    key = op.name + ("." + op.variant_test_name if op.variant_test_name else "")
    entry = {"key": key, "family": family(op), "swept": is_swept}
    if not is_swept:
        entry["reason"] = out_of_scope(key) or "not yet in aten-ts"
    return entry


# op_db entries named after no torch function: their op is `wrapper_set_seed(torch.Tensor.<method>, ...)`, swept
# when aten-ts has that method (the harness's adapters call it)
SEEDED_METHODS = {"cauchy": "cauchy_", "exponential": "exponential_", "geometric": "geometric_",
                  "log_normal": "log_normal_", "uniform": "uniform_", "normal.in_place": "normal_"}


# op_db entries whose torch function aten-ts has under another name: `x[i]` is `x.index([i])`;
# `torch.ops.aten.X.default` (OpInfo's entries that call the aten overload) is torch.X
RENAMED = {"__getitem__": "index"}


def call_name(op):
    """The aten-ts function or method an entry calls: `nn.functional.X` → `X`, `torch.ops.aten.X.default` → `X`."""
    if op.name.startswith("nn.functional."):
        return op.name[len("nn.functional."):]
    m = re.fullmatch(r"torch\.ops\.aten\.(\w+)\.default", op.name)
    return m.group(1) if m else op.name


def swept(op, names, exposed):
    """The sweep's rule: an entry is generated when its name (`nn.functional.X` → `X`) is a torch function or
    method of the core namespace, or its name a function of the package's full one (torch.complex,
    torch.nn.functional.X), or it is one of SEEDED_METHODS whose method aten-ts has."""
    base = call_name(op)
    key = op.name + ("." + op.variant_test_name if op.variant_test_name else "")
    return base in names or op.name in exposed or SEEDED_METHODS.get(key) in names or RENAMED.get(key) in names


def coverage(have, names):
    """Prints the op_db entries whose torch function (op.name, or one of its aliases) the package exposes
    (`exposed` of opinfo_ops.json: torch.X and torch.nn.functional.X of src/torch.ts, or a core name) but `swept`
    skips, and those swept only through `exposed`; exits 1 if any is skipped."""
    exposed = set(have.get("exposed", []))
    missing, extra = [], []
    for op in op_db:
        key = op.name + ("." + op.variant_test_name if op.variant_test_name else "")
        if swept(op, names, exposed):
            if not swept(op, names, set()):
                extra.append(key)
            continue
        hits = [n for n in [op.name] + [a.name for a in op.aliases] if n in exposed or n in names]
        if hits:
            missing.append(f"{key} (aten-ts: torch.{hits[0]})")
    for m in missing:
        print(f"skipped: {m}")
    for e in extra:
        print(f"swept through the full namespace: {e}")
    print(f"{len(missing)} op_db entries exposed by aten-ts but not swept", file=sys.stderr)
    return 1 if missing else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ops", default=os.path.join(ROOT, "tools/golden/opinfo_ops.json"))
    ap.add_argument("-o", "--out", default=os.path.join(ROOT, "test/golden/opinfo"))
    ap.add_argument("--coverage", action="store_true",
                    help="list the op_db entries whose torch function aten-ts exposes but the sweep skips; write nothing")
    ap.add_argument("--only", default=None,
                    help="comma-separated entry keys: write just their fixtures (to try changes; not committed)")
    args = ap.parse_args()
    with open(args.ops) as f:
        have = json.load(f)
    names = set(have["functions"]) | set(have["methods"])
    if args.coverage:
        return coverage(have, names)
    exposed = set(have.get("exposed", []))
    torch.set_default_dtype(torch.float32)
    warnings.simplefilter("ignore")
    # uninitialised memory (torch.empty in error_inputs' `out=` tensors) is filled with NaN / the largest
    # integer, so that every run writes the same bytes
    torch.use_deterministic_algorithms(True, warn_only=True)
    torch.utils.deterministic.fill_uninitialized_memory = True
    families = {}
    counts = {"too_large": 0, "unserializable": 0}
    entries = [op_db_entry(op, swept(op, names, exposed)) for op in op_db]
    global _COMPLEX
    for op in op_db:
        base = call_name(op)
        if not swept(op, names, exposed):
            continue
        key = op.name + ("." + op.variant_test_name if op.variant_test_name else "")
        if args.only is not None and key not in args.only.split(","):
            continue
        supported = op.supported_dtypes("cpu")
        entry = {"name": op.name, "variant": op.variant_test_name, "key": key, "call": base,
                 "supports_autograd": bool(op.supports_autograd), "dtypes": {}}
        _COMPLEX = family(op) in COMPLEX_FAMILIES or key in COMPLEX_OPS
        big = key in BIG_SAMPLE_OPS
        for dtype in [torch.float64] if big else DTYPES + (COMPLEX_DTYPES if _COMPLEX else []):
            if dtype not in supported:
                continue
            if big:
                entry["dtypes"][dname(dtype)] = big_samples(op, dtype, key, counts)
            elif dtype.is_complex and key in COMPLEX_OPS:
                entry["dtypes"][dname(dtype)] = complex_samples(op, dtype, key, counts)
            else:
                entry["dtypes"][dname(dtype)] = gen_samples(op, dtype, key, counts)
        for dtype in [] if big else REDUCED_DTYPES:
            if dtype in supported:
                entry["dtypes"][dname(dtype)] = reduced_samples(op, dtype, key, counts)
        entry["errors"] = gen_errors(op, key, counts)
        _COMPLEX = False
        families.setdefault(family(op), []).append(entry)
        print(f"{key}: " + ", ".join(f"{d} {len(v)}" for d, v in entry["dtypes"].items()) + f", errors {len(entry['errors'])}",
              file=sys.stderr)
    os.makedirs(args.out, exist_ok=True)
    for name in sorted(os.listdir(args.out)):
        if name.endswith(".json.gz"):
            os.remove(os.path.join(args.out, name))
    files = []
    for fam in sorted(families):
        # files of at most ~FILE_BYTES compressed: ops in op_db order, a new file when the next op would not fit
        chunks, size = [[]], 0
        for entry in families[fam]:
            n = len(gzip.compress(json.dumps(entry, separators=(",", ":")).encode(), mtime=0))
            if chunks[-1] and size + n > FILE_BYTES:
                chunks.append([])
                size = 0
            chunks[-1].append(entry)
            size += n
        for ops in chunks:
            # a family's files are named by the ops they hold (first and last), never by a sequence number
            name = f"{fam}.json.gz" if len(chunks) == 1 else f"{fam}-{slug(ops[0])}-to-{slug(ops[-1])}.json.gz"
            doc = {"generated_by": "tools/golden/gen_opinfo.py", "torch_version": torch.__version__, "family": fam,
                   "ops": ops}
            data = json.dumps(doc, separators=(",", ":"), allow_nan=False).encode()
            with open(os.path.join(args.out, name), "wb") as f:
                f.write(gzip.compress(data, compresslevel=9, mtime=0))
            files.append(name)
    summary = {"generated_by": "tools/golden/gen_opinfo.py", "torch_version": torch.__version__, "files": files,
               "skipped": counts, "op_db": entries}
    with open(os.path.join(args.out, "index.json"), "w") as f:
        json.dump(summary, f, indent=1)
        f.write("\n")
    print(json.dumps(counts), file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
