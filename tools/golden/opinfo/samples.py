"""The recording of tools/golden/gen_opinfo.py: for one op_db entry (PyTorch's
torch/testing/_internal/common_methods_invocations.py) and dtype, the first sample_inputs and reference_inputs
with their results, Meta results and float64 gradients for a seeded cotangent, and the first error_inputs.
"""
import json
import zlib

import torch
from torch.testing._internal.opinfo.core import SampleInput

from opinfo.config import BIG_NUMEL, COMPLEX_OPS, COMPLEX_SAMPLES, ERRORS, MODE, NO_VALUES, REDUCED_SAMPLES
from opinfo.encode import (
    dname,
    enc,
    enc_call,
    enc_meta,
    enc_result,
    enc_tensor,
    err_text,
    flat_values,
    map_tensors,
    sample_tensors,
    tensors_of,
    TooLarge,
    Unserializable,
)


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
        cots = [complex_cotangent(o, g) if MODE.complex and o.dtype.is_complex else
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
    samples = first(op.sample_inputs("cpu", dtype, requires_grad=False), MODE.samples)
    grad_samples = [None] * len(samples)
    if (dtype == torch.float64 or (dtype == torch.complex128 and key in COMPLEX_OPS)) and op.supports_autograd:
        torch.manual_seed(seed)
        gs = safe_first(lambda: op.sample_inputs("cpu", dtype, requires_grad=True), MODE.samples)
        if gs is not None and len(gs) == len(samples):
            grad_samples = gs
    sources = [("sample", s, g) for s, g in zip(samples, grad_samples)]
    if op.reference_inputs_func is not None and MODE.reference > 0:
        torch.manual_seed(seed)
        n_plain = sum(1 for _ in op.sample_inputs("cpu", dtype, requires_grad=False))
        torch.manual_seed(seed)
        refs = first(op.reference_inputs("cpu", dtype, requires_grad=False), MODE.reference, skip=n_plain)
        grefs = [None] * len(refs)
        if dtype == torch.float64 and op.supports_autograd:
            torch.manual_seed(seed)
            gr = safe_first(lambda: op.reference_inputs("cpu", dtype, requires_grad=True), MODE.reference, n_plain)
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
    saved = MODE.samples, MODE.reference
    MODE.samples, MODE.reference = COMPLEX_SAMPLES, 0
    try:
        return gen_samples(op, dtype, key, counts)
    finally:
        MODE.samples, MODE.reference = saved


def reduced_samples(op, dtype, key, counts):
    """REDUCED_DTYPES: the first REDUCED_SAMPLES plain samples, values and Meta only."""
    saved = MODE.samples, MODE.reference
    MODE.samples, MODE.reference, MODE.reduced = REDUCED_SAMPLES, 0, True
    try:
        return gen_samples(op, dtype, key, counts)
    finally:
        (MODE.samples, MODE.reference), MODE.reduced = saved, False


def big_samples(op, dtype, key, counts):
    """BIG_SAMPLE_OPS: the first sample (no reference inputs), tensors up to BIG_NUMEL elements."""
    saved = MODE.max_numel, MODE.samples, MODE.reference
    MODE.max_numel, MODE.samples, MODE.reference = BIG_NUMEL, 1, 0
    try:
        return gen_samples(op, dtype, key, counts)
    finally:
        MODE.max_numel, MODE.samples, MODE.reference = saved


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
