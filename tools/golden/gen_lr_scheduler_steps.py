#!/usr/bin/env python3
"""Golden fixture for the lr_schedulers of torch/optim/lr_scheduler.py beyond gen_optim.py's: LambdaLR,
MultiplicativeLR, ConstantLR, PolynomialLR, CyclicLR, CosineAnnealingWarmRestarts, SequentialLR, ChainedScheduler
(test/optim/lr_scheduler_steps.test.ts).

Run with the reference torch build (2.13.0+cpu):

    $PYTHON tools/golden/gen_lr_scheduler_steps.py            # writes test/golden/lr_scheduler_steps.json

Each case: an SGD (or Adam) optimiser over one or two parameter groups, the scheduler, then `get_last_lr()` after
construction and after each of 30 `optimizer.step(); scheduler.step()` rounds, and the momentum (or beta1) of the
first group after each round, as float64 bit patterns (16 hex digits); then the scheduler's state_dict (numbers as
hex64, ints as ints, lists of them, nested state_dicts for SequentialLR/ChainedScheduler). The lambdas are ones
whose arithmetic is exact or correctly rounded in both languages (the test writes the same functions).
Deterministic: no randomness, no timestamps.
"""

import json
import os
import struct

import torch
from torch.optim import lr_scheduler as L

OUT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", "test", "golden", "lr_scheduler_steps.json"))
STEPS = 30


def hex64(x):
    return struct.pack(">d", float(x)).hex()


def enc_value(v):
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return v
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        return {"f": hex64(v)}
    if isinstance(v, (list, tuple)):
        return [enc_value(x) for x in v]
    if isinstance(v, dict):
        return {k: enc_value(x) for k, x in v.items()}
    return {"unencodable": type(v).__name__}


def run(build, opt_name="SGD", opt_options=None, groups=1):
    p = [torch.zeros(2, requires_grad=True) for _ in range(groups)]
    opt_options = opt_options or {"lr": 0.1}
    if groups == 1:
        opt = getattr(torch.optim, opt_name)(p, **opt_options)
    else:
        opt = getattr(torch.optim, opt_name)([{"params": [p[0]]}, {"params": [p[1]], "lr": 0.05}], **opt_options)
    s = build(opt)
    lrs = [[hex64(x) for x in s.get_last_lr()]]
    momenta = []
    for _ in range(STEPS):
        opt.step()
        s.step()
        lrs.append([hex64(x) for x in s.get_last_lr()])
        g = opt.param_groups[0]
        if "momentum" in g:
            momenta.append(hex64(g["momentum"]))
        elif "betas" in g:
            momenta.append(hex64(g["betas"][0]))
    sd = s.state_dict()
    return {
        "opt": opt_name, "opt_options": opt_options, "groups": groups,
        "lrs": lrs, "group_lrs": [hex64(g["lr"]) for g in opt.param_groups], "momenta": momenta,
        "state_dict": {k: enc_value(v) for k, v in sd.items()}, "state_keys": list(sd.keys()),
    }


CASES = {
    "LambdaLR": lambda: run(lambda o: L.LambdaLR(o, lr_lambda=lambda e: 1.0 / (e + 1))),
    "LambdaLR_groups": lambda: run(lambda o: L.LambdaLR(o, lr_lambda=[lambda e: 1.0 / (e + 1), lambda e: 0.5 * e]), groups=2),
    "MultiplicativeLR": lambda: run(lambda o: L.MultiplicativeLR(o, lr_lambda=lambda e: 0.9)),
    "ConstantLR": lambda: run(lambda o: L.ConstantLR(o, factor=0.5, total_iters=4)),
    "ConstantLR_default": lambda: run(lambda o: L.ConstantLR(o), groups=2),
    "PolynomialLR": lambda: run(lambda o: L.PolynomialLR(o, total_iters=10, power=2.0)),
    "PolynomialLR_default": lambda: run(lambda o: L.PolynomialLR(o)),
    "CyclicLR_triangular": lambda: run(lambda o: L.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=4),
                                       opt_options={"lr": 0.1, "momentum": 0.9}),
    "CyclicLR_triangular2": lambda: run(lambda o: L.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=3, step_size_down=5,
                                                              mode="triangular2", cycle_momentum=False)),
    "CyclicLR_exp_range_adam": lambda: run(lambda o: L.CyclicLR(o, base_lr=0.001, max_lr=0.01, step_size_up=5, mode="exp_range",
                                                                 gamma=0.9, base_momentum=0.85, max_momentum=0.95),
                                           opt_name="Adam", opt_options={"lr": 0.001}),
    "CosineAnnealingWarmRestarts": lambda: run(lambda o: L.CosineAnnealingWarmRestarts(o, T_0=5)),
    "CosineAnnealingWarmRestarts_mult": lambda: run(lambda o: L.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.01), groups=2),
    "SequentialLR": lambda: run(lambda o: L.SequentialLR(o, schedulers=[L.ConstantLR(o, factor=0.5, total_iters=3),
                                                                         L.ExponentialLR(o, gamma=0.9)], milestones=[4])),
    "SequentialLR_three": lambda: run(lambda o: L.SequentialLR(o, schedulers=[L.LinearLR(o, start_factor=0.1, total_iters=5),
                                                                               L.CosineAnnealingLR(o, T_max=7, eta_min=0.001),
                                                                               L.StepLR(o, step_size=3, gamma=0.5)],
                                                               milestones=[5, 12])),
    "ChainedScheduler": lambda: run(lambda o: L.ChainedScheduler([L.ConstantLR(o, factor=0.1, total_iters=2),
                                                                   L.ExponentialLR(o, gamma=0.9)])),
    "ChainedScheduler_poly_multistep": lambda: run(lambda o: L.ChainedScheduler([L.PolynomialLR(o, total_iters=8, power=0.5),
                                                                                  L.MultiStepLR(o, milestones=[3, 6], gamma=0.5)]), groups=2),
}


def errors():
    p = [torch.zeros(2, requires_grad=True)]
    opt = torch.optim.SGD(p, lr=0.1)
    out = {}
    attempts = {
        "ConstantLR_factor": lambda: L.ConstantLR(opt, factor=1.5),
        "LambdaLR_count": lambda: L.LambdaLR(opt, lr_lambda=[lambda e: 1.0, lambda e: 1.0]),
        "CyclicLR_mode": lambda: L.CyclicLR(opt, base_lr=0.01, max_lr=0.1, mode="bogus"),
        "CyclicLR_base_lr_count": lambda: L.CyclicLR(opt, base_lr=[0.01, 0.02], max_lr=0.1),
        "CosineAnnealingWarmRestarts_T0": lambda: L.CosineAnnealingWarmRestarts(opt, T_0=0),
        "CosineAnnealingWarmRestarts_Tmult": lambda: L.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=0),
        "SequentialLR_milestones": lambda: L.SequentialLR(opt, schedulers=[L.ConstantLR(opt), L.ConstantLR(opt)], milestones=[]),
        "SequentialLR_empty": lambda: L.SequentialLR(opt, schedulers=[], milestones=[]),
        "ChainedScheduler_empty": lambda: L.ChainedScheduler([]),
        "ChainedScheduler_plateau": lambda: L.ChainedScheduler([L.ConstantLR(opt), L.ReduceLROnPlateau(opt)]),
    }
    for name, f in attempts.items():
        try:
            f()
            out[name] = None
        except Exception as e:  # noqa: BLE001 - the text is the point
            out[name] = {"type": type(e).__name__, "text": str(e)}
    return out


def main():
    torch.set_default_dtype(torch.float32)
    out = {
        "generated_by": "tools/golden/gen_lr_scheduler_steps.py",
        "torch_version": torch.__version__,
        "steps": STEPS,
        "cases": {k: v() for k, v in CASES.items()},
        "errors": errors(),
    }
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1, sort_keys=False)
        f.write("\n")
    print(f"wrote {OUT}: {os.path.getsize(OUT)} bytes")


if __name__ == "__main__":
    main()
