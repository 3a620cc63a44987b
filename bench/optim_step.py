"""PyTorch's side of bench/optim_step.ts: the same transformer parameter set, an Adam and an AdamW step with
foreach=False / True and fused=True, alternated round by round, 1 thread; per-step medians.
Run: /work/main/.venv-golden/bin/python bench/optim_step.py [rounds=9] [steps=10]"""
import sys
import time

import torch

rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 9
steps = int(sys.argv[2]) if len(sys.argv) > 2 else 10
torch.set_num_threads(1)


def model():
    torch.manual_seed(0)
    mods = [torch.nn.Embedding(1000, 128), torch.nn.TransformerEncoderLayer(128, 4, dim_feedforward=512),
            torch.nn.TransformerEncoderLayer(128, 4, dim_feedforward=512), torch.nn.Linear(128, 1000)]
    return [p for m in mods for p in m.parameters()]


impls = {"single": {"foreach": False}, "foreach": {"foreach": True}, "fused": {"fused": True}}
results = {}
for name in ("Adam", "AdamW"):
    setups = []
    for impl, kw in impls.items():
        params = model()
        for p in params:
            p.grad = torch.randn(p.shape) * 0.01
        opt = getattr(torch.optim, name)(params, lr=1e-3, **kw)
        opt.step()
        setups.append((impl, opt))
    for _ in range(rounds):
        for impl, opt in setups:
            t0 = time.perf_counter()
            for _ in range(steps):
                opt.step()
            results.setdefault(f"{name} {impl}", []).append((time.perf_counter() - t0) / steps * 1000)
for k, v in results.items():
    s = sorted(v)
    print(f"{k:<14} median {s[len(s) // 2]:.2f} ms/step  (min {s[0]:.2f}, max {s[-1]:.2f})")
