"""Golden fixture: PyTorch's ModuleInfo database (torch.testing._internal.common_modules.module_db) replayed.

For every module_db entry and a capped, evenly spread choice of its CPU samples in float64 and float32 (both
training modes where `train_and_eval_differ`), the way test/test_modules.py builds them:
  torch.manual_seed(0); m = cls(*args, **kwargs); m.to(dtype); m.train(training)
records repr(m), the state_dict keys in order and values (the default initialisation: aten-ts's generator
draws as PyTorch's CPU generator does, so the values are bit for bit), then
  torch.manual_seed(1); out = m(*inputs, **kwargs)
the output (nested tuples kept), the buffers after the forward (running stats; for a Lazy* module every
parameter, materialised by the first forward), and the gradients of the parameters and of the inputs that
require grad for a seeded upstream gradient of every floating output (recorded too).

A constructor argument that is itself a module (TransformerEncoder's encoder_layer) is recorded as the call
that built it ({"$module": name, "args", "kwargs"}) and rebuilt after the seed, so both sides draw its
parameters from the same generator state; a built-in function (activation=F.gelu) is {"$fn": name}.

Entries or samples left out are listed under "skipped" with the reason. test/nn/module_db.test.ts replays the
fixture; tools/module-db-report.ts writes FEATURES.md's module_db table from a replay.

Run: $PYTHON tools/golden/gen_module_db.py  ->  test/golden/module_db.json.gz
"""
import dataclasses
import functools
import gzip
import inspect
import json
import os
import sys
import types
import zlib

import numpy as np
import torch

try:
    import expecttest  # noqa: F401 - imported by common_modules; the wheel does not ship it
except ImportError:
    expecttest = types.ModuleType("expecttest")
    expecttest.TestCase = type("TestCase", (), {})
    sys.modules["expecttest"] = expecttest

from torch.testing._internal.common_modules import module_db  # noqa: E402

from _encode import enc  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "test", "golden", "module_db.json.gz")
CAP = {torch.float64: 3, torch.float32: 2}
MAX_NUMEL = 2600
DTYPES = (torch.float64, torch.float32)

# Constructor arguments that are modules: remember the call that built each, to record it (see the docstring).
_BUILT = {}
for _cls in (torch.nn.TransformerEncoderLayer, torch.nn.TransformerDecoderLayer):
    _orig = _cls.__init__

    @functools.wraps(_orig)  # keeps the signature: see positional()
    def _init(self, *args, __orig=_orig, **kwargs):
        _BUILT[id(self)] = (type(self).__name__, args, kwargs)
        __orig(self, *args, **kwargs)

    _cls.__init__ = _init


class Unencodable(Exception):
    pass


def dt(d):
    return str(d).replace("torch.", "")


def tensor(t):
    t = t.detach()
    if t.numel() > MAX_NUMEL:
        raise Unencodable(f"a tensor of {t.numel()} elements (> {MAX_NUMEL})")
    if t.is_complex() or t.layout != torch.strided:
        raise Unencodable(f"a {t.dtype} {t.layout} tensor")
    vals = [enc(x) for x in t.reshape(-1).tolist()]
    if t.dtype == torch.float32:  # the shortest decimal that reads back as the same float32: a smaller fixture
        vals = [v if isinstance(v, str) else float(str(np.float32(v))) for v in vals]
    return {"$t": dt(t.dtype), "shape": list(t.shape), "values": vals}


def arg(v):
    if isinstance(v, torch.Tensor):
        out = tensor(v)
        if v.requires_grad:
            out["rg"] = True
        return out
    if isinstance(v, (tuple, list)):
        return [arg(x) for x in v]
    if isinstance(v, dict):
        return {k: arg(x) for k, x in v.items()}
    if isinstance(v, torch.dtype):
        return {"$dtype": dt(v)}
    if isinstance(v, torch.device):
        return {"$device": v.type}
    if isinstance(v, torch.nn.Module):
        if id(v) not in _BUILT:
            raise Unencodable(f"a {type(v).__name__} argument")
        name, a, kw = _BUILT[id(v)]
        a, kw = positional(getattr(torch.nn, name).__init__, a, kw)
        return {"$module": name, "args": arg(a), "kwargs": arg(kw)}
    if isinstance(v, types.BuiltinFunctionType) or callable(v) and not isinstance(v, type):
        if getattr(torch.nn.functional, getattr(v, "__name__", ""), None) is v:
            return {"$fn": v.__name__}
        raise Unencodable(f"a callable argument {v!r}")
    if dataclasses.is_dataclass(v):
        return {"$dataclass": type(v).__name__, "fields": arg(dataclasses.asdict(v))}
    if isinstance(v, float):
        return {"$f": enc(v)}  # kept apart from ints: a float's repr is '1.0'
    if v is None or isinstance(v, (bool, int, str)):
        return v
    raise Unencodable(f"a {type(v).__name__} argument")


def rebuild(v, dtype):
    """The sample's constructor arguments with each recorded module built anew (after the seed)."""
    if isinstance(v, (tuple, list)):
        return type(v)(rebuild(x, dtype) for x in v)
    if isinstance(v, dict):
        return {k: rebuild(x, dtype) for k, x in v.items()}
    if isinstance(v, torch.nn.Module) and id(v) in _BUILT:
        name, a, kw = _BUILT[id(v)]
        return getattr(torch.nn, name)(*a, **kw)
    return v


def output(v):
    if isinstance(v, torch.Tensor):
        return tensor(v)
    if isinstance(v, (tuple, list)):
        return [output(x) for x in v]
    if v is None:
        return None
    raise Unencodable(f"a {type(v).__name__} output")


def flat_tensors(v):
    if isinstance(v, torch.Tensor):
        return [v]
    if isinstance(v, (tuple, list)):
        return [t for x in v for t in flat_tensors(x)]
    return []


def pick(n, cap):
    if n <= cap:
        return list(range(n))
    return sorted({round(i * (n - 1) / (cap - 1)) for i in range(cap)}) if cap > 1 else [0]


def positional(fn, args, kwargs):
    """The call as aten-ts spells it: a required parameter given by keyword (`Linear(in_features=4, ...)`,
    `m(input=x)`) moves to its position, as a Python caller may write it either way; the rest stay keywords."""
    params = [p for p in inspect.signature(fn).parameters.values() if p.name != "self"]
    args, kwargs = list(args), dict(kwargs)
    for p in params[len(args):]:
        if p.kind != p.POSITIONAL_OR_KEYWORD or p.default is not p.empty or p.name not in kwargs:
            break
        args.append(kwargs.pop(p.name))
    return args, kwargs


def run_sample(mi, dtype, training, idx, sample):
    ci, fi = sample.constructor_input, sample.forward_input
    if fi is None:
        raise Unencodable("no forward input")
    cargs, ckw = positional(mi.module_cls.__init__, ci.args, ci.kwargs)
    fargs, fkw = positional(mi.module_cls.forward, fi.args, fi.kwargs)
    rec = {"dtype": dt(dtype), "training": training, "index": idx, "desc": sample.desc,
           "args": arg(cargs), "kwargs": arg(ckw), "forward_args": arg(fargs), "forward_kwargs": arg(fkw)}
    torch.manual_seed(0)
    m = mi.module_cls(*rebuild(ci.args, dtype), **rebuild(ci.kwargs, dtype))
    m.to(dtype)
    m.train(training)
    rec["repr"] = repr(m)
    sd = m.state_dict()
    rec["state_keys"] = list(sd.keys())
    if not mi.is_lazy:
        rec["state"] = {k: tensor(v) for k, v in sd.items()}
    xs = [x.detach().clone().requires_grad_(x.requires_grad) if isinstance(x, torch.Tensor) else x for x in fargs]
    kws = {k: (x.detach().clone().requires_grad_(x.requires_grad) if isinstance(x, torch.Tensor) else x)
           for k, x in fkw.items()}
    torch.manual_seed(1)
    out = m(*xs, **kws)
    rec["output"] = output(out)
    after = m.state_dict()
    rec["state_after"] = {k: tensor(v) for k, v in after.items() if mi.is_lazy or k not in dict(m.named_parameters())}
    outs = [t for t in flat_tensors(out) if t.requires_grad and t.is_floating_point()]
    gen = torch.Generator().manual_seed(99)
    gos = [torch.randn(t.shape, generator=gen, dtype=t.dtype) for t in outs]
    rec["grad_outputs"] = [tensor(g) for g in gos]
    if outs:
        torch.autograd.backward(outs, gos)
    rec["param_grads"] = {k: tensor(p.grad) for k, p in m.named_parameters() if p.grad is not None}
    ins = [x for x in list(xs) + list(kws.values()) if isinstance(x, torch.Tensor)]
    rec["input_grads"] = [None if x.grad is None else tensor(x.grad) for x in ins]
    return rec


def main():
    entries, skipped = [], []
    for mi in module_db:
        name = mi.name
        samples = []
        reasons = {}
        for dtype in DTYPES:
            modes = [True, False] if mi.train_and_eval_differ else [True]
            pool = []
            for training in modes:
                got = mi.module_inputs_func(mi, device="cpu", dtype=dtype, requires_grad=True, training=training)
                pool.append([(training, i, s) for i, s in enumerate(got)])
            # interleave the modes, then an even spread of the capped count
            merged = [x for group in zip(*pool) for x in group] + [x for g in pool for x in g[min(map(len, pool)):]]
            # an even spread of the capped count first, then the rest in order (when one cannot be recorded)
            spread = pick(len(merged), CAP[dtype])
            order = spread + [j for j in range(len(merged)) if j not in spread]
            kept = 0
            for j in order:
                if kept >= CAP[dtype]:
                    break
                training, i, s = merged[j]
                try:
                    samples.append(run_sample(mi, dtype, training, i, s))
                    kept += 1
                except Unencodable as e:
                    reasons[str(e)] = reasons.get(str(e), 0) + 1
        for r, n in sorted(reasons.items()):
            skipped.append({"module": name, "samples": n, "reason": r})
        entries.append({"name": name, "cls": mi.module_cls.__name__, "is_lazy": mi.is_lazy, "samples": samples})
        print(name, len(samples), file=sys.stderr)
    data = {"generated_by": "tools/golden/gen_module_db.py", "torch_version": torch.__version__,
            "total": len(module_db), "entries": entries, "skipped": skipped}
    raw = json.dumps(data, separators=(",", ":")).encode()
    with open(OUT, "wb") as f:
        f.write(gzip.compress(raw, compresslevel=9, mtime=0))
    print("wrote", OUT, os.path.getsize(OUT), "bytes;", len(raw), "raw", file=sys.stderr)


if __name__ == "__main__":
    main()
