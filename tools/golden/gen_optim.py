#!/usr/bin/env python3
"""Golden fixture for aten-ts's torch.optim (src/optim/): optimiser trajectories and lr schedules.

Run with the reference torch build (2.13.0+cpu):

    $PYTHON tools/golden/gen_optim.py            # writes test/golden/optim.json

Optimiser cases: three float32 parameters ([3, 4], [4] and [5, 7]: 35 elements run both the vectorised loop and
its scalar tail of PyTorch's CPU kernels) and per-step gradients, drawn from a seeded torch.Generator, then 5
steps of the optimiser with `foreach=False` (the single-tensor path, PyTorch's default for CPU tensors). Stored:
the initial values, the gradients (null where a parameter gets no gradient that step), the parameters after
every step and the final state_dict (state tensors and param_groups). float32 values are uint32 bit patterns;
the `step` counters are numbers. Scheduler cases: `get_last_lr()` after construction and after each of 30
`scheduler.step()` calls, as float64 bit patterns (16 hex digits). Deterministic: fixed seeds, no timestamps.
"""

import json
import os
import struct

import torch

OUT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", "test", "golden", "optim.json"))
SHAPES = [[3, 4], [4], [5, 7]]
STEPS = 5


def bits32(t):
    return [struct.unpack("<I", struct.pack("<f", float(v)))[0] for v in t.detach().contiguous().flatten().tolist()]


def hex64(x):
    return struct.pack(">d", float(x)).hex()


def pyjson(v):
    if isinstance(v, tuple):
        return [pyjson(x) for x in v]
    if isinstance(v, list):
        return [pyjson(x) for x in v]
    return v


CASES = [
    ("SGD", {"lr": 0.1}),
    ("SGD", {"lr": 0.1, "momentum": 0.9}),
    ("SGD", {"lr": 0.1, "momentum": 0.9, "dampening": 0.1}),
    ("SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True}),
    ("SGD", {"lr": 0.1, "weight_decay": 0.01}),
    ("SGD", {"lr": 0.05, "momentum": 0.5, "weight_decay": 0.1, "maximize": True}),
    ("SGD", {"lr": 0.03, "momentum": 0.8, "nesterov": True, "weight_decay": 0.02}),
    ("Adam", {}),
    ("Adam", {"lr": 0.01}),
    ("Adam", {"lr": 0.01, "amsgrad": True}),
    ("Adam", {"lr": 0.01, "weight_decay": 0.1}),
    ("Adam", {"lr": 0.01, "maximize": True}),
    ("Adam", {"lr": 0.02, "betas": (0.8, 0.99), "eps": 1e-6, "amsgrad": True, "weight_decay": 0.05}),
    ("Adam", {"lr": 0.01, "betas": (0.3, 0.9)}),
    ("AdamW", {}),
    ("AdamW", {"lr": 0.01, "weight_decay": 0.1}),
    ("AdamW", {"lr": 0.01, "amsgrad": True}),
    ("AdamW", {"lr": 0.01, "maximize": True, "betas": (0.5, 0.9)}),
    ("RMSprop", {}),
    ("RMSprop", {"lr": 0.01, "centered": True}),
    ("RMSprop", {"lr": 0.01, "momentum": 0.9}),
    ("RMSprop", {"lr": 0.01, "centered": True, "momentum": 0.5, "weight_decay": 0.1}),
    ("RMSprop", {"lr": 0.01, "alpha": 0.4, "eps": 1e-6, "maximize": True, "centered": True}),
    ("Adagrad", {}),
    ("Adagrad", {"lr": 0.1, "lr_decay": 0.01}),
    ("Adagrad", {"lr": 0.1, "initial_accumulator_value": 0.1, "weight_decay": 0.1}),
    ("Adagrad", {"lr": 0.1, "maximize": True, "eps": 1e-6}),
]

# (case index -> (param, step)) pairs where the parameter gets no gradient (p.grad = None): the step skips it.
SKIPS = {1: [(1, 2)], 9: [(1, 2), (0, 3)], 20: [(2, 1)], 24: [(1, 0)]}


def optimizer_case(i, name, options):
    g = torch.Generator().manual_seed(1000 + i)
    params = [torch.randn(s, generator=g).requires_grad_() for s in SHAPES]
    init = [bits32(p) for p in params]
    grads = [[torch.randn(s, generator=g) for s in SHAPES] for _ in range(STEPS)]
    opt = getattr(torch.optim, name)(params, foreach=False, **options)
    after = []
    grads_json = []
    for k in range(STEPS):
        row = []
        for j, p in enumerate(params):
            if (j, k) in SKIPS.get(i, []):
                p.grad = None
                row.append(None)
            else:
                p.grad = grads[k][j].clone()
                row.append(bits32(grads[k][j]))
        grads_json.append(row)
        opt.step()
        after.append([bits32(p) for p in params])
    sd = opt.state_dict()
    state = {}
    for idx in sorted(sd["state"].keys()):
        entry = {}
        for key, v in sd["state"][idx].items():
            if key == "step":
                entry[key] = float(v.item())
            else:
                entry[key] = bits32(v)
        state[str(idx)] = entry
    groups = [{k: pyjson(v) for k, v in grp.items()} for grp in sd["param_groups"]]
    return {
        "optimizer": name,
        "options": {k: pyjson(v) for k, v in options.items()},
        "shapes": SHAPES,
        "init": init,
        "grads": grads_json,
        "after": after,
        "state": state,
        "state_keys": {str(idx): list(sd["state"][idx].keys()) for idx in sorted(sd["state"].keys())},
        "param_groups": groups,
    }


def group_case():
    """Two parameter groups with their own options; the rest from the defaults."""
    g = torch.Generator().manual_seed(77)
    params = [torch.randn(s, generator=g).requires_grad_() for s in SHAPES]
    init = [bits32(p) for p in params]
    opt = torch.optim.SGD([{"params": [params[0]], "lr": 0.1}, {"params": [params[1], params[2]], "momentum": 0.9}], lr=0.01, foreach=False)
    grads, after = [], []
    for _ in range(STEPS):
        row = []
        for p, s in zip(params, SHAPES):
            gr = torch.randn(s, generator=g)
            p.grad = gr.clone()
            row.append(bits32(gr))
        grads.append(row)
        opt.step()
        after.append([bits32(p) for p in params])
    sd = opt.state_dict()
    return {
        "init": init,
        "grads": grads,
        "after": after,
        "param_groups": [{k: pyjson(v) for k, v in grp.items()} for grp in sd["param_groups"]],
        "state_indices": sorted(sd["state"].keys()),
    }


def errors():
    p = torch.zeros(2, requires_grad=True)
    out = []

    def err(label, fn):
        try:
            fn()
            out.append({"case": label, "error": None})
        except Exception as e:  # noqa: BLE001
            out.append({"case": label, "type": type(e).__name__, "error": str(e)})

    err("empty", lambda: torch.optim.SGD([], lr=0.1))
    err("lr", lambda: torch.optim.SGD([p], lr=-1))
    err("momentum", lambda: torch.optim.SGD([p], lr=0.1, momentum=-0.5))
    err("nesterov", lambda: torch.optim.SGD([p], lr=0.1, nesterov=True))
    err("dup_groups", lambda: torch.optim.SGD([{"params": [p]}, {"params": [p]}], lr=0.1))
    err("beta0", lambda: torch.optim.Adam([p], betas=(1.5, 0.9)))
    err("beta1", lambda: torch.optim.Adam([p], betas=(0.9, -0.1)))
    err("eps", lambda: torch.optim.Adam([p], eps=-1e-8))
    err("non_leaf", lambda: torch.optim.SGD([p * 2], lr=0.1))
    err("rms_alpha", lambda: torch.optim.RMSprop([p], alpha=-0.1))
    err("adagrad_lr_decay", lambda: torch.optim.Adagrad([p], lr_decay=-0.1))
    q = torch.zeros(3, requires_grad=True)
    err("load_groups", lambda: torch.optim.SGD([p], lr=0.1).load_state_dict(torch.optim.SGD([{"params": [p]}, {"params": [q]}], lr=0.1).state_dict()))
    err("load_sizes", lambda: torch.optim.SGD([p], lr=0.1).load_state_dict(torch.optim.SGD([p, q], lr=0.1).state_dict()))
    return out


def repr_case():
    p = torch.zeros(2, requires_grad=True)
    return {
        "SGD": repr(torch.optim.SGD([p], lr=0.1, momentum=0.9)),
        "Adam": repr(torch.optim.Adam([p], lr=0.01)),
    }


# ---- lr schedulers -------------------------------------------------------------------------------------

from torch.optim import lr_scheduler as L  # noqa: E402

SCHED_STEPS = 30


def sched(build, opt_name="SGD", opt_options=None, metrics=None, groups=1):
    p = [torch.zeros(2, requires_grad=True) for _ in range(groups)]
    opt_options = opt_options or {"lr": 0.1}
    if groups == 1:
        opt = getattr(torch.optim, opt_name)(p, **opt_options)
    else:
        opt = getattr(torch.optim, opt_name)([{"params": [p[0]]}, {"params": [p[1]], "lr": 0.05}], **opt_options)
    scheds = build(opt)
    if not isinstance(scheds, list):
        scheds = [scheds]
    lrs = [[hex64(x) for x in scheds[-1].get_last_lr()]]
    momenta = []
    for k in range(SCHED_STEPS):
        opt.step()
        for s in scheds:
            if isinstance(s, L.ReduceLROnPlateau):
                s.step(metrics[k])
            else:
                s.step()
        lrs.append([hex64(x) for x in scheds[-1].get_last_lr()])
        if "momentum" in opt.param_groups[0]:
            momenta.append(hex64(opt.param_groups[0]["momentum"]))
        elif "betas" in opt.param_groups[0]:
            momenta.append(hex64(opt.param_groups[0]["betas"][0]))
    group_lrs = [hex64(g["lr"]) for g in opt.param_groups]
    return {"lrs": lrs, "group_lrs": group_lrs, "momenta": momenta}


PLATEAU_METRICS = [1.0, 0.9, 0.91, 0.92, 0.93, 0.94, 0.8, 0.81, 0.82, 0.83, 0.84, 0.85, 0.86, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7,
                   0.6, 0.61, 0.62, 0.63, 0.64, 0.65, 0.66, 0.67, 0.68, 0.69]

SCHEDULERS = {
    "StepLR": lambda: sched(lambda o: L.StepLR(o, step_size=7, gamma=0.5)),
    "StepLR_groups": lambda: sched(lambda o: L.StepLR(o, step_size=3, gamma=0.1), groups=2),
    "MultiStepLR": lambda: sched(lambda o: L.MultiStepLR(o, milestones=[5, 12, 12, 20], gamma=0.3)),
    "ExponentialLR": lambda: sched(lambda o: L.ExponentialLR(o, gamma=0.9)),
    "CosineAnnealingLR": lambda: sched(lambda o: L.CosineAnnealingLR(o, T_max=10, eta_min=0.001)),
    "CosineAnnealingLR_zero_min": lambda: sched(lambda o: L.CosineAnnealingLR(o, T_max=7)),
    "LinearLR": lambda: sched(lambda o: L.LinearLR(o, start_factor=0.25, end_factor=1.0, total_iters=8)),
    "LinearLR_decay": lambda: sched(lambda o: L.LinearLR(o, start_factor=1.0, end_factor=0.1, total_iters=12), groups=2),
    "OneCycleLR_cos": lambda: sched(lambda o: L.OneCycleLR(o, max_lr=0.5, total_steps=31), opt_options={"lr": 0.1, "momentum": 0.9}),
    "OneCycleLR_linear_three": lambda: sched(
        lambda o: L.OneCycleLR(o, max_lr=[0.4], epochs=3, steps_per_epoch=11, pct_start=0.25, anneal_strategy="linear", three_phase=True, div_factor=10.0, final_div_factor=100.0),
        opt_options={"lr": 0.1, "momentum": 0.9}),
    "OneCycleLR_adam": lambda: sched(lambda o: L.OneCycleLR(o, max_lr=0.01, total_steps=40), opt_name="Adam", opt_options={"lr": 0.001}),
    "ReduceLROnPlateau": lambda: sched(lambda o: L.ReduceLROnPlateau(o, factor=0.5, patience=2), metrics=PLATEAU_METRICS),
    "ReduceLROnPlateau_max_cooldown": lambda: sched(
        lambda o: L.ReduceLROnPlateau(o, mode="max", factor=0.2, patience=1, threshold=0.05, threshold_mode="abs", cooldown=2, min_lr=0.002),
        metrics=[-m for m in PLATEAU_METRICS]),
    "chained_Exponential_Step": lambda: sched(lambda o: [L.ExponentialLR(o, gamma=0.95), L.StepLR(o, step_size=4, gamma=0.5)]),
    "chained_Linear_Cosine": lambda: sched(lambda o: [L.LinearLR(o, start_factor=0.5, total_iters=5), L.CosineAnnealingLR(o, T_max=12, eta_min=0.01)]),
    "chained_MultiStep_Exponential": lambda: sched(lambda o: [L.MultiStepLR(o, milestones=[3, 9], gamma=0.5), L.ExponentialLR(o, gamma=0.97)]),
}


def scheduler_state_dicts():
    p = [torch.zeros(2, requires_grad=True)]
    opt = torch.optim.SGD(p, lr=0.1)
    s = L.StepLR(opt, step_size=3, gamma=0.5)
    for _ in range(4):
        opt.step()
        s.step()
    sd = s.state_dict()
    return {"StepLR": {k: (hex64(v) if isinstance(v, float) else [hex64(x) for x in v] if isinstance(v, list) else v) for k, v in sd.items()}}


def main():
    torch.set_default_dtype(torch.float32)
    out = {
        "generated_by": "tools/golden/gen_optim.py",
        "torch_version": torch.__version__,
        "cpu_capability": torch.backends.cpu.get_cpu_capability(),
        "optimizers": [optimizer_case(i, n, o) for i, (n, o) in enumerate(CASES)],
        "groups": group_case(),
        "errors": errors(),
        "repr": repr_case(),
        "schedulers": {k: v() for k, v in SCHEDULERS.items()},
        "scheduler_state_dicts": scheduler_state_dicts(),
    }
    with open(OUT, "w") as f:
        json.dump(out, f, separators=(",", ":"), sort_keys=False)
        f.write("\n")
    print(f"wrote {OUT} ({os.path.getsize(OUT)} bytes)")


if __name__ == "__main__":
    main()
