#!/usr/bin/env python3
"""Golden fixtures for torch.masked (torch/masked/_ops.py; aten-ts's src/api/masked/_ops.ts) beyond OpInfo's samples,
which are mostly 0-d: reductions over several dimensions of 2-d and 3-d inputs with broadcast masks, fully
masked-out rows (each operation's identity: -inf for amax, NaN for median and mean, a count clamped to 0 for var),
integer inputs (sum's int64 accumulation, amax/amin's iinfo identities, argmax's dtype), var/std's unbiased and
correction, normalize's eps, logaddexp's two masks, float64 gradients with the grad_fn PyTorch's composite ends
in, and the errors (dims, mean's dtype, a mask of higher rank, median's fully masked integer rows, Python's
argument binding). Run with the reference torch build (2.13.0+cpu):
    $PYTHON tools/golden/gen_masked.py      # writes test/golden/masked.json
Format: cases: [{name, op, input, args, kwargs, result | error, grads?}], a tensor {dtype, sizes, values} (floats
"nan"/"inf"/"-inf"), a dtype {"$dtype": name}; result as _encode.spec (dtype, sizes, values, grad_fn); grads: the
gradient of the input for cotangent ones. Deterministic (fixed seed).
"""
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _encode import enc, spec, values  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
M = torch.masked


def t(x):
    return {"dtype": str(x.dtype).replace("torch.", ""), "sizes": list(x.shape), "values": values(x)}


def arg(v):
    if isinstance(v, torch.Tensor):
        return t(v)
    if isinstance(v, torch.dtype):
        return {"$dtype": str(v).replace("torch.", "")}
    if isinstance(v, tuple):
        return [arg(x) for x in v]
    return enc(v)


def case(name, op, inp, *args, grad=False, **kwargs):
    c = {"name": name, "op": op, "input": t(inp), "args": [arg(a) for a in args],
         "kwargs": {k: arg(v) for k, v in kwargs.items()}}
    x = inp.detach().clone().requires_grad_(grad)
    try:
        r = getattr(M, op)(x, *args, **kwargs)
    except Exception as e:  # noqa: BLE001 - the error text is the fixture
        c["error"] = str(e).split("\n")[0]
        c["type"] = type(e).__name__
        return c
    c["result"] = spec(r)
    if grad:
        (g,) = torch.autograd.grad(r, x, torch.ones_like(r), allow_unused=True)
        c["grads"] = None if g is None else t(g)
    return c


def main():
    torch.manual_seed(0)
    a = torch.randn(3, 4, dtype=torch.float64)
    b = torch.randn(2, 3, 4, dtype=torch.float64)
    m = torch.tensor([[True, False, True, False], [False, False, False, False], [True, True, False, True]])
    mb = torch.tensor([[True, False, True, True]])  # broadcast over rows
    m3 = torch.rand(2, 3, 4) > 0.4
    mrow = torch.tensor([True, False, True, True])  # rank 1, broadcast to 2-d / 3-d
    i = torch.randint(-9, 9, (3, 4), dtype=torch.int32)
    cases = []
    for op in ["sum", "prod", "amax", "amin", "mean", "logsumexp"]:
        cases.append(case(f"{op} all", op, a, mask=m, grad=True))
        cases.append(case(f"{op} dim 1 fully masked row", op, a, 1, mask=m, grad=True))
        cases.append(case(f"{op} dims (0, 2) keepdim", op, b, (0, 2), keepdim=True, mask=m3, grad=True))
        cases.append(case(f"{op} dim -1 rank-1 mask", op, b, -1, mask=mrow, grad=True))
        cases.append(case(f"{op} no mask dim 0", op, a, 0, grad=True))
        cases.append(case(f"{op} float32", op, a.float(), 1, mask=mb))
    for op in ["sum", "prod", "amax", "amin", "argmax", "argmin"]:
        cases.append(case(f"{op} int32 dim 1", op, i, 1, mask=m))
    cases.append(case("sum int32 dtype float64", "sum", i, 1, dtype=torch.float64, mask=m))
    cases.append(case("sum bool", "sum", m, 0, mask=mb))
    cases.append(case("amax bool identity", "amax", m, 0, mask=mb))
    cases.append(case("argmax float dim 1", "argmax", a, 1, mask=m))
    cases.append(case("argmin float all keepdim", "argmin", a, keepdim=True, mask=m))
    cases.append(case("argmax dtype int64", "argmax", a, 1, dtype=torch.int64, mask=m))
    cases.append(case("mean dtype float32 of int", "mean", i, 1, dtype=torch.float32, mask=m))
    cases.append(case("mean int error", "mean", i, 1, mask=m))
    cases.append(case("mean int dtype error", "mean", a, 1, dtype=torch.int64, mask=m))
    for op in ["cumsum", "cumprod", "softmax", "log_softmax", "softmin"]:
        cases.append(case(f"{op} dim 1", op, a, 1, mask=m, grad=True))
        cases.append(case(f"{op} dim 0 broadcast mask", op, b, 0, mask=mrow, grad=True))
        cases.append(case(f"{op} no mask", op, a, -1, grad=True))
    cases.append(case("cumsum int32 dtype float64", "cumsum", i, 1, dtype=torch.float64, mask=m))
    cases.append(case("cumprod int32", "cumprod", i, 0, mask=m))
    cases.append(case("softmax float32 dtype float64", "softmax", a.float(), 1, dtype=torch.float64, mask=m))
    for name, kw in [("default", {}), ("unbiased False", {"unbiased": False}), ("correction 2", {"correction": 2}),
                     ("keepdim", {"keepdim": True})]:
        for op in ["var", "std"]:
            cases.append(case(f"{op} dim 1 {name}", op, a, 1, mask=m, grad=True, **kw))
    cases.append(case("var dims (0, 1) 3-d", "var", b, (0, 1), mask=m3, grad=True))
    cases.append(case("std no mask", "std", b, 2, grad=True))
    cases.append(case("var int32", "var", i, 1, mask=m))
    cases.append(case("var unbiased positional", "var", a, 1, False, mask=m))
    cases.append(case("var unbiased and correction", "var", a, 1, True, correction=1, mask=m))
    cases.append(case("median dim 1", "median", a, 1, mask=m, grad=True))
    cases.append(case("median default dim keepdim", "median", b, keepdim=True, mask=m3, grad=True))
    cases.append(case("median int32", "median", i, 1, mask=mb))
    cases.append(case("median int32 fully masked", "median", i, 1, mask=m))
    for o in [2.0, 1.0, 3.5, float("inf"), float("-inf"), 0.0]:
        cases.append(case(f"norm ord {o}", "norm", a, o, 1, mask=m, grad=o not in (0.0,)))
    cases.append(case("norm dims keepdim", "norm", b, 2.0, (0, 2), keepdim=True, mask=m3, grad=True))
    cases.append(case("norm ord -inf int error", "norm", i, float("-inf"), 1, mask=m))
    cases.append(case("normalize dim 1", "normalize", a, 2.0, 1, mask=m, grad=True))
    cases.append(case("normalize ord 1 eps", "normalize", a, 1.0, 0, eps=0.5, mask=m, grad=True))
    cases.append(case("normalize no mask", "normalize", b, 2.0, -1, grad=True))
    o = torch.randn(3, 4, dtype=torch.float64)
    for name, kw in [("both masks", {"input_mask": m, "other_mask": mb}), ("input mask", {"input_mask": m}),
                     ("none", {})]:
        cases.append(case(f"logaddexp {name}", "logaddexp", a, o, grad=True, **kw))
    cases.append(case("logaddexp dtype float32", "logaddexp", a, o, dtype=torch.float32, input_mask=m))
    # errors
    cases.append(case("sum dim repeated", "sum", a, (1, 1), mask=m))
    cases.append(case("sum dim out of range", "sum", a, 2, mask=m))
    cases.append(case("amax dim out of range negative", "amax", b, -4))
    cases.append(case("sum mask of higher rank", "sum", a[0], 0, mask=m))
    cases.append(case("softmax dim out of range", "softmax", a, 3, mask=m))
    cases.append(case("sum too many positional", "sum", a, 1, True))
    cases.append(case("softmax too many positional", "softmax", a, 1, torch.float64))
    cases.append(case("normalize missing dim", "normalize", a, 2.0))
    cases.append(case("sum mask not bool", "sum", a, 1, mask=m.to(torch.int64)))
    cases.append(case("sum 0-d dim 0", "sum", torch.tensor(2.5, dtype=torch.float64), 0, mask=torch.tensor(True)))
    out = {"generated_by": "tools/golden/gen_masked.py", "torch_version": torch.__version__, "cases": cases}
    path = os.path.join(ROOT, "test", "golden", "masked.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=None, separators=(",", ":"), allow_nan=False)
        f.write("\n")
    print(f"{len(cases)} cases -> {os.path.relpath(path, ROOT)}")


if __name__ == "__main__":
    main()
