#!/usr/bin/env python3
"""Golden fixture for aten-ts's OptimizerInfo replay (test/optim/optim_db.test.ts): every optimiser of PyTorch's
optim_db (torch/testing/_internal/common_optimizers.py) with every `optim_inputs_func(device='cpu')` sample, and
its `optim_error_inputs_func` samples.

Run with the reference torch build (2.13.0+cpu):

    $PYTHON tools/golden/gen_optim_db.py            # writes test/golden/optim_db.json.gz

Trajectory samples: three parameters of fixed seeded values ([3, 4] float64, [2, 5] float32, [5] float64; Muon
takes only 2-d parameters, so its third is [4, 2] float64) and, for every step, seeded gradients (the second
parameter gets none at step 2, so the step skips it). LBFGS, whose `step` needs a closure, minimises a fixed
quadratic instead: loss = sum(0.5 * a * p * p + b * p) over the parameters (summed in float64), the closure setting p.grad = a * p + b.
`STEPS` steps with the sample's options as optim_db gives them (foreach unset: the single-tensor path, PyTorch's
default for CPU tensors). Stored: the initial values, the gradients, the parameters after every step and the final
state_dict (state values: tensors as {dtype, shape, values}, numbers as numbers; param_groups as lists of
[key, value] pairs in PyTorch's order). Values are JSON numbers (Python's repr of a double is exact; float32 values
are exact doubles). Error samples: the constructor's (or first step's) error type and text. Deterministic: fixed
seeds, no timestamps; gzip with mtime 0.
"""

import gzip
import json
import os
import sys
import types

import torch

try:
    import expecttest  # noqa: F401 - imported by common_optimizers' imports; the wheel does not ship it
except ImportError:
    expecttest = types.ModuleType("expecttest")
    expecttest.TestCase = type("TestCase", (), {})
    sys.modules["expecttest"] = expecttest

from torch.testing._internal.common_optimizers import optim_db  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _encode import enc  # noqa: E402

OUT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", "test", "golden", "optim_db.json.gz"))
STEPS = 5
SHAPES = [([3, 4], torch.float64), ([2, 5], torch.float32), ([5], torch.float64)]
SHAPES_2D = [([3, 4], torch.float64), ([2, 5], torch.float32), ([4, 2], torch.float64)]
NO_GRAD = (1, 2)  # (param, step): this parameter gets no gradient at this step


def dtype_name(d):
    return str(d).replace("torch.", "")


def vals(t):
    return [enc(x) for x in t.detach().reshape(-1).tolist()]


def tensor_json(t):
    return {"dtype": dtype_name(t.dtype), "shape": list(t.shape), "values": vals(t)}


def pyjson(v):
    if isinstance(v, torch.Tensor):
        return tensor_json(v)
    if isinstance(v, (tuple, list)):
        return [pyjson(x) for x in v]
    if isinstance(v, float):
        return enc(v)
    return v


def has_tensor(v):
    if isinstance(v, torch.Tensor):
        return True
    if isinstance(v, (tuple, list)):
        return any(has_tensor(x) for x in v)
    if isinstance(v, dict):
        return any(has_tensor(x) for x in v.values())
    return False


def state_dict_json(opt):
    sd = opt.state_dict()
    state = []
    for k in sorted(sd["state"].keys()):
        state.append([k, [[name, pyjson(v)] for name, v in sd["state"][k].items()]])
    groups = [[[name, pyjson(v)] for name, v in g.items()] for g in sd["param_groups"]]
    return {"state": state, "param_groups": groups}


def make_params(name, seed):
    g = torch.Generator().manual_seed(seed)
    shapes = SHAPES_2D if name == "Muon" else SHAPES
    return [torch.randn(s, generator=g, dtype=torch.float64).to(d).requires_grad_() for s, d in shapes]


def run_sample(name, cls, kwargs, seed):
    params = make_params(name, seed)
    init = [tensor_json(p) for p in params]
    opt = cls(params, **kwargs)
    g = torch.Generator().manual_seed(seed + 1)
    traj, grads = [], []
    if name == "LBFGS":
        coef = [(torch.rand(p.shape, generator=g, dtype=torch.float64).to(p.dtype) + 0.5,
                 torch.randn(p.shape, generator=g, dtype=torch.float64).to(p.dtype)) for p in params]
        losses = []

        def closure():
            loss = torch.zeros((), dtype=torch.float64)
            with torch.no_grad():
                for p, (a, b) in zip(params, coef):
                    loss = loss + (0.5 * a * p * p + b * p).to(torch.float64).sum()
                    p.grad = a * p + b
            return loss

        for _ in range(STEPS):
            losses.append(enc(float(opt.step(closure))))
            traj.append([vals(p) for p in params])
        extra = {"coef": [[vals(a), vals(b)] for a, b in coef], "losses": losses}
    else:
        for step in range(STEPS):
            step_grads = []
            for i, p in enumerate(params):
                gr = torch.randn(p.shape, generator=g, dtype=torch.float64).to(p.dtype)
                if (i, step) == NO_GRAD:
                    p.grad = None
                    step_grads.append(None)
                else:
                    p.grad = gr
                    step_grads.append(vals(gr))
            grads.append(step_grads)
            opt.step()
            traj.append([vals(p) for p in params])
        extra = {"grads": grads}
    return {"init": init, **extra, "trajectory": traj, "state_dict": state_dict_json(opt)}


def describe_params(p):
    """The error sample's params as the test rebuilds them, or None when they cannot be expressed."""
    if p is None:
        return {"kind": "default"}
    if isinstance(p, torch.Tensor):
        return {"kind": "tensor", "shape": list(p.shape), "dtype": dtype_name(p.dtype)}
    if isinstance(p, (list, tuple)):
        if all(isinstance(x, torch.Tensor) for x in p):
            ids = [id(x) for x in p]
            return {"kind": "list", "tensors": [[list(x.shape), dtype_name(x.dtype), ids.index(id(x))] for x in p]}
        if all(isinstance(x, dict) for x in p):
            seen = []
            groups = []
            for grp in p:
                ps = grp["params"]
                ps = [ps] if isinstance(ps, torch.Tensor) else list(ps)
                if not all(isinstance(x, torch.Tensor) for x in ps):
                    return None
                idx = []
                for x in ps:
                    if id(x) not in seen:
                        seen.append(id(x))
                    idx.append(seen.index(id(x)))
                opts = {k: pyjson(v) for k, v in grp.items() if k != "params"}
                groups.append({"params": idx, "options": opts})
            return {"kind": "groups", "count": len(seen), "groups": groups}
    return None


def main():
    torch.set_default_dtype(torch.float32)
    out = {"generated_by": "tools/golden/gen_optim_db.py", "torch_version": torch.__version__, "steps": STEPS, "optimizers": []}
    for oi, info in enumerate(optim_db):
        cls = info.optim_cls
        name = cls.__name__
        entry = {"name": name, "samples": [], "errors": [], "skipped": []}
        if info.only_supports_sparse_grads:
            entry["skipped"].append({"what": "every sample", "reason": "needs sparse gradients (aten-ts has no sparse layouts)"})
            out["optimizers"].append(entry)
            continue
        for si, inp in enumerate(info.optim_inputs_func(device="cpu")):
            kwargs = dict(inp.kwargs)
            if inp.params is not None:
                entry["skipped"].append({"what": inp.desc, "reason": "custom params"})
                continue
            if has_tensor(kwargs):
                entry["skipped"].append({"what": inp.desc, "reason": "a Tensor lr (aten-ts takes numbers)"})
                continue
            seed = 100 * oi + si
            sample = {"desc": inp.desc, "kwargs": pyjson(kwargs), "seed": seed}
            sample.update(run_sample(name, cls, kwargs, seed))
            entry["samples"].append(sample)
        for err in info.optim_error_inputs_func(device="cpu", dtype=torch.float32):
            ei = err.optimizer_error_input
            desc = ei.desc
            if err.error_type is UserWarning:
                entry["skipped"].append({"what": f"error: {desc}", "reason": "a warning, not an error"})
                continue
            if has_tensor(ei.kwargs):
                entry["skipped"].append({"what": f"error: {desc}", "reason": "a Tensor option (aten-ts takes numbers)"})
                continue
            params = describe_params(ei.params)
            if params is None:
                entry["skipped"].append({"what": f"error: {desc}", "reason": "named parameters (aten-ts has none)"})
                continue
            # Run it for the actual text (error_regex is a pattern).
            ps = ei.params if ei.params is not None else [torch.nn.Parameter(torch.randn(2, 3))]
            text = None
            typ = None
            try:
                opt = cls(ps, **ei.kwargs)
                if err.error_on.name == "STEP_ERROR":
                    plist = [p for g in opt.param_groups for p in g["params"]]
                    for p in plist:
                        p.grad = torch.ones_like(p)
                    opt.step((lambda: torch.tensor(0.0)) if name == "LBFGS" else None)
            except Exception as e:  # noqa: BLE001 - the text is the point
                text, typ = str(e), type(e).__name__
            if text is None:
                raise AssertionError(f"{name}: {desc} raised nothing")
            if params["kind"] == "groups" or params["kind"] == "list":
                pass
            ps_complex = isinstance(ei.params, (list, tuple)) and any(
                isinstance(x, torch.Tensor) and x.is_complex() for x in ei.params)
            entry["errors"].append({
                "desc": desc, "on": err.error_on.name.lower(), "params": params, "kwargs": pyjson(ei.kwargs),
                "type": typ, "text": text, "complex": ps_complex,
            })
        out["optimizers"].append(entry)
    data = json.dumps(out, separators=(",", ":"), sort_keys=False).encode()
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "wb") as f:
        with gzip.GzipFile(fileobj=f, mode="wb", mtime=0, filename="") as gz:
            gz.write(data)
    print(f"wrote {OUT}: {len(data)} bytes JSON, {os.path.getsize(OUT)} gzipped, "
          f"{sum(len(o['samples']) for o in out['optimizers'])} samples, "
          f"{sum(len(o['errors']) for o in out['optimizers'])} error samples")


if __name__ == "__main__":
    main()
