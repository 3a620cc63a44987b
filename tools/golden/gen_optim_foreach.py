#!/usr/bin/env python3
"""Golden fixture for torch.optim's multi-tensor and fused paths and the `_foreach_*` / `_fused_*` operators.

Run with the reference torch build (2.13.0+cpu):

    .venv-golden/bin/python tools/golden/gen_optim_foreach.py   # writes test/golden/optim_foreach.json

Trajectories: SGD, Adam and AdamW over four parameters ([3, 4], [4], [5, 7], [29]: 29 elements run PyTorch's
vector body, the 256-bit epilogue and the scalar tail of the fused CPU kernels) with per-step gradients from a
seeded generator, 4 steps, for each `impl` (foreach=False, foreach=True, fused=True), float32 and float64.
Stored: initial values, gradients, parameters after every step and the final state tensors. Values are
`_encode.values` (doubles; float32 values are exact in them). Operator cases: values of `_foreach_*` calls and
the error texts of bad lists. Deterministic: fixed seeds, no timestamps.
"""

import json
import os

import torch

from _encode import values

OUT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", "test", "golden", "optim_foreach.json"))
SHAPES = [[3, 4], [4], [5, 7], [29]]
STEPS = 4

CASES = [
    ("SGD", {"lr": 0.1}),
    ("SGD", {"lr": 0.1, "momentum": 0.9}),
    ("SGD", {"lr": 0.1, "momentum": 0.9, "dampening": 0.2, "weight_decay": 0.05}),
    ("SGD", {"lr": 0.03, "momentum": 0.8, "nesterov": True, "weight_decay": 0.02, "maximize": True}),
    ("Adam", {"lr": 0.01}),
    ("Adam", {"lr": 0.01, "amsgrad": True, "weight_decay": 0.1}),
    ("Adam", {"lr": 0.02, "betas": (0.3, 0.99), "eps": 1e-6, "maximize": True}),
    ("AdamW", {"lr": 0.01}),
    ("AdamW", {"lr": 0.02, "weight_decay": 0.1, "amsgrad": True, "maximize": True}),
]
IMPLS = {"single": {"foreach": False}, "foreach": {"foreach": True}, "fused": {"fused": True}}


def trajectory(i, name, options, impl, dtype):
    g = torch.Generator().manual_seed(100 + i)
    params = [torch.randn(s, generator=g, dtype=dtype).requires_grad_() for s in SHAPES]
    init = [values(p) for p in params]
    opt = getattr(torch.optim, name)(params, **options, **IMPLS[impl])
    grads, after = [], []
    for _ in range(STEPS):
        row = []
        for p in params:
            p.grad = torch.randn(p.shape, generator=g, dtype=dtype)
            row.append(values(p.grad))
        grads.append(row)
        opt.step()
        after.append([values(p) for p in params])
    state = []
    for p in params:
        st = opt.state[p]
        state.append({k: (values(v) if torch.is_tensor(v) and v.dim() > 0 else float(v)) for k, v in st.items()})
    return {
        "optimizer": name, "options": {k: list(v) if isinstance(v, tuple) else v for k, v in options.items()},
        "impl": impl, "dtype": str(dtype).replace("torch.", ""), "shapes": SHAPES,
        "init": init, "grads": grads, "after": after, "state": state,
    }


def op_cases():
    g = torch.Generator().manual_seed(7)
    xs = [torch.randn(s, generator=g) for s in ([3], [2, 2])]
    ys = [torch.randn(x.shape, generator=g) for x in xs]
    zs = [torch.rand(x.shape, generator=g) + 0.5 for x in xs]
    out = {"xs": [values(x) for x in xs], "ys": [values(y) for y in ys], "zs": [values(z) for z in zs], "shapes": [[3], [2, 2]]}
    res = {}

    def inplace(label, fn):
        c = [x.clone() for x in xs]
        fn(c)
        res[label] = [values(t) for t in c]

    res["add.Scalar"] = [values(t) for t in torch._foreach_add(xs, 0.5)]
    res["add.List"] = [values(t) for t in torch._foreach_add(xs, ys, alpha=-2)]
    res["add.ScalarList"] = [values(t) for t in torch._foreach_add(xs, [1.5, -3])]
    res["add.Tensor"] = [values(t) for t in torch._foreach_add(xs, torch.tensor(2.0), alpha=0.5)]
    res["sub.List"] = [values(t) for t in torch._foreach_sub(xs, ys, alpha=3)]
    res["mul.Scalar"] = [values(t) for t in torch._foreach_mul(xs, 0.3)]
    res["mul.List"] = [values(t) for t in torch._foreach_mul(xs, ys)]
    res["div.ScalarList"] = [values(t) for t in torch._foreach_div(xs, [3.0, 7.0])]
    res["div.List"] = [values(t) for t in torch._foreach_div(xs, zs)]
    res["sqrt"] = [values(t) for t in torch._foreach_sqrt(zs)]
    res["neg"] = [values(t) for t in torch._foreach_neg(xs)]
    res["norm"] = [values(t) for t in torch._foreach_norm(xs)]
    res["norm.1"] = [values(t) for t in torch._foreach_norm(xs, 1)]
    inplace("add_.Scalar", lambda c: torch._foreach_add_(c, 1.25))
    inplace("mul_.Tensor", lambda c: torch._foreach_mul_(c, torch.tensor(-0.5)))
    inplace("addcmul_.Scalar", lambda c: torch._foreach_addcmul_(c, ys, zs, 0.5))
    inplace("addcmul_.ScalarList", lambda c: torch._foreach_addcmul_(c, ys, zs, [2.0, -1.0]))
    inplace("addcdiv_.Scalar", lambda c: torch._foreach_addcdiv_(c, ys, zs, -0.25))
    inplace("addcdiv_.Tensor", lambda c: torch._foreach_addcdiv_(c, ys, zs, torch.tensor([0.5, 3.0])))
    inplace("lerp_.Scalar", lambda c: torch._foreach_lerp_(c, ys, 0.1))
    inplace("lerp_.ScalarList", lambda c: torch._foreach_lerp_(c, ys, [0.1, 0.75]))
    inplace("lerp_.List", lambda c: torch._foreach_lerp_(c, ys, zs))
    inplace("maximum_.List", lambda c: torch._foreach_maximum_(c, ys))
    inplace("maximum_.Scalar", lambda c: torch._foreach_maximum_(c, 0.1))
    inplace("zero_", lambda c: torch._foreach_zero_(c))
    inplace("copy_", lambda c: torch._foreach_copy_(c, ys))
    inplace("sqrt_", lambda c: torch._foreach_sqrt_(c))
    out["results"] = res
    return out


def fused_amp():
    """`_fused_adam_` / `_fused_sgd_` with a grad_scale (the gradients are unscaled in place) and found_inf."""
    g = torch.Generator().manual_seed(11)
    out = {}
    for dtype in (torch.float32, torch.float64):
        p, gr, m, v = (torch.randn(21, generator=g, dtype=dtype) for _ in range(4))
        v = v.abs()
        init = {"p": values(p), "g": values(gr), "m": values(m), "v": values(v)}
        for found in (0.0, 1.0):
            P, G, M, V = p.clone(), gr.clone(), m.clone(), v.clone()
            torch._fused_adam_([P], [G], [M], [V], [], [torch.tensor(2.0)], lr=0.01, beta1=0.9, beta2=0.999,
                               weight_decay=0.01, eps=1e-8, amsgrad=False, maximize=False,
                               grad_scale=torch.tensor(4.0), found_inf=torch.tensor(found))
            B = m.clone()
            P2, G2 = p.clone(), gr.clone()
            torch._fused_sgd_([P2], [G2], [B], weight_decay=0.01, momentum=0.9, lr=0.1, dampening=0.0,
                              nesterov=True, maximize=False, is_first_step=False,
                              grad_scale=torch.tensor(8.0), found_inf=torch.tensor(found))
            out[f"{str(dtype).replace('torch.', '')} found_inf={found}"] = {
                "init": init, "adam": {"p": values(P), "g": values(G), "m": values(M), "v": values(V)},
                "sgd": {"p": values(P2), "g": values(G2), "buf": values(B)},
            }
    return out


def errors():
    t = lambda: torch.ones(3)
    cases = {
        "empty": lambda: torch._foreach_add([], 1),
        "empty_": lambda: torch._foreach_zero_([]),
        "length": lambda: torch._foreach_add([t()], [t(), t()]),
        "length_addcmul": lambda: torch._foreach_addcmul_([t()], [t()], [t(), t()]),
        "scalars": lambda: torch._foreach_add_([t()], [1.0, 2.0]),
        "tensor_dim": lambda: torch._foreach_add_([t()], torch.ones(2)),
        "size": lambda: torch._foreach_add_([torch.ones(2)], [torch.ones(3)]),
        "fused_grads": lambda: torch._fused_adam_([t()], [t(), t()], [t()], [t()], [], [torch.tensor(1.0)], lr=0.1, beta1=0.9, beta2=0.9, weight_decay=0.0, eps=1e-8, amsgrad=False, maximize=False),
        "fused_amsgrad": lambda: torch._fused_adam_([t()], [t()], [t()], [t()], [], [torch.tensor(1.0)], lr=0.1, beta1=0.9, beta2=0.9, weight_decay=0.0, eps=1e-8, amsgrad=True, maximize=False),
        "fused_sgd_buf": lambda: torch._fused_sgd_([t()], [t()], [], weight_decay=0.0, momentum=0.9, lr=0.1, dampening=0.0, nesterov=False, maximize=False, is_first_step=False),
        "adam_fused_differentiable": lambda: torch.optim.Adam([t().requires_grad_()], fused=True, differentiable=True),
        "adam_fused_foreach": lambda: torch.optim.Adam([t().requires_grad_()], fused=True, foreach=True),
        "adamw_fused_foreach": lambda: torch.optim.AdamW([t().requires_grad_()], fused=True, foreach=True),
        "sgd_fused_foreach": lambda: torch.optim.SGD([t().requires_grad_()], fused=True, foreach=True),
        "sgd_fused_differentiable": lambda: torch.optim.SGD([t().requires_grad_()], fused=True, differentiable=True),
    }

    def fused_int():
        p = torch.ones(3, dtype=torch.int64)
        opt = torch.optim.Adam([torch.ones(3, requires_grad=True)], fused=True)
        opt.param_groups[0]["params"] = [p]
        p.grad = torch.ones(3, dtype=torch.int64)
        opt.step()

    cases["fused_int"] = fused_int
    out = {}
    for k, fn in cases.items():
        try:
            fn()
            out[k] = None
        except Exception as e:  # noqa: BLE001
            out[k] = {"type": type(e).__name__, "error": str(e)}
    return out


def main():
    assert torch.__version__.startswith("2.13"), torch.__version__
    torch.set_num_threads(1)
    traj = []
    for i, (name, options) in enumerate(CASES):
        for dtype in (torch.float32, torch.float64):
            for impl in IMPLS:
                traj.append(trajectory(i, name, options, impl, dtype))
    out = {
        "generated_by": "tools/golden/gen_optim_foreach.py",
        "torch_version": torch.__version__,
        "cpu_capability": torch.backends.cpu.get_cpu_capability(),
        "trajectories": traj,
        "ops": op_cases(),
        "fused_amp": fused_amp(),
        "errors": errors(),
    }
    with open(OUT, "w") as f:
        json.dump(out, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {OUT} ({os.path.getsize(OUT)} bytes)")


if __name__ == "__main__":
    main()
