"""Generates test/golden/repr_samplers_prelu_dispatch_log.json: repr/str of the everyday objects, the samplers' draws, PReLU and two losses, a dispatch log; from the PyTorch 2.13 wheel.

Run from the repository root:
    $PYTHON tools/golden/gen_repr_samplers_prelu_dispatch_log.py

Sections (each replayed by the test named beside it):
- printing (test/api/printing_node.test.ts): repr(x) and str(x) of tensors, a Parameter, modules (nested, with
  PReLU, HuberLoss, KLDivLoss), dtypes, devices, torch.Size, a Generator (its address written as 0x...) and
  OpOverload / OpOverloadPacket objects; the Size constructor's errors.
- data (test/utils/data_arrays.test.ts): random_split, RandomSampler and DataLoader over plain lists after a
  manual_seed: the indices and batches PyTorch draws.
- nn (test/nn/prelu_losses_init.test.ts): PReLU (default init, values, grads, grad_fn names), F.prelu's errors,
  HuberLoss, KLDivLoss, nn.init.eye_ and dirac_: values rounded to float32 precision as Python floats.
- dispatch_log (test/modes/accumulate_grad_detach.test.ts): what a TorchDispatchMode sees for
  `(x * y).sum().backward()` run twice (AccumulateGrad's detach the first time, add_ the second), and a
  linear layer's backward (the weight's gradient kept, not copied).
Deterministic: fixed seeds, no addresses.
"""

import json
import os
import re

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, RandomSampler, random_split
from torch.utils._python_dispatch import TorchDispatchMode

OUT = "test/golden/repr_samplers_prelu_dispatch_log.json"


def vals(t):
    return t.detach().reshape(-1).tolist()


def err(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return {"type": type(e).__name__, "message": str(e).split("\nException raised from")[0]}
    raise AssertionError("expected an error")


# ---- printing ------------------------------------------------------------------------------------------
printing = []


def pr(name, obj):
    r, s = repr(obj), str(obj)
    r = re.sub(r" at 0x[0-9a-f]+>", " at 0x...>", r)
    s = re.sub(r" at 0x[0-9a-f]+>", " at 0x...>", s)
    printing.append({"name": name, "repr": r, "str": s})


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3)
        self.act = nn.PReLU(4)
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(16, 3), nn.ReLU())

    def forward(self, x):
        return self.head(self.act(self.conv(x)))


pr("tensor int", torch.tensor([1, 2, 3]))
pr("tensor float 2d", torch.tensor([[1.5, 2.0], [3.25, -4.0]]))
pr("tensor requires_grad", torch.tensor([1.0, 2.0], requires_grad=True))
pr("tensor grad_fn", torch.tensor([1.0, 2.0], requires_grad=True) * 2)
pr("tensor float64", torch.zeros(2, dtype=torch.float64))
pr("tensor bool 0-dim", torch.tensor(True))
pr("parameter", nn.Parameter(torch.ones(2)))
pr("parameter no grad", nn.Parameter(torch.tensor([[1.0, 2.0]]), requires_grad=False))
torch.manual_seed(0)
pr("linear weight", nn.Linear(3, 2).weight)
pr("module linear", nn.Linear(4, 8))
pr("module prelu", nn.PReLU())
pr("module prelu 3", nn.PReLU(3, init=0.1))
pr("module huber", nn.HuberLoss(delta=2.0))
pr("module kldiv", nn.KLDivLoss(reduction="batchmean", log_target=True))
pr("module net", Net())
pr("module sequential", nn.Sequential(nn.Linear(4, 8), nn.PReLU(), nn.Sequential(nn.Conv2d(1, 6, 5), nn.MaxPool2d(2)), nn.HuberLoss()))
pr("dtype float32", torch.float32)
pr("dtype int64", torch.int64)
pr("dtype bool", torch.bool)
pr("device cpu", torch.device("cpu"))
pr("device meta", torch.device("meta"))
pr("tensor device", torch.zeros(1).device)
pr("size", torch.Size([3, 4]))
pr("size empty", torch.Size([]))
pr("size one", torch.Size([3]))
pr("shape", torch.zeros(2, 3, 4).shape)
pr("size()", torch.zeros(2, 3, 4).size())
pr("shape slice", torch.zeros(2, 3, 4).shape[1:])
pr("generator", torch.Generator())
pr("op add.Tensor", torch.ops.aten.add.Tensor)
pr("op sum.default", torch.ops.aten.sum.default)
pr("packet add", torch.ops.aten.add)

size_facts = {
    "numel": torch.Size([2, 3, 4]).numel(),
    "numel empty": torch.Size([]).numel(),
    "from bools": list(torch.Size([True, 2])),
    "errors": {
        "float": err(lambda: torch.Size([1.5])),
        "str": err(lambda: torch.Size(["a"])),
        "second float": err(lambda: torch.Size([2, 0.5])),
    },
}

# ---- data ------------------------------------------------------------------------------------------------
data = {}
torch.manual_seed(0)
a, b = random_split(range(20), [14, 6])
data["random_split range(20) [14, 6] seed 0"] = [list(a), list(b)]
torch.manual_seed(3)
a, b, c = random_split(list("abcdefghij"), [0.5, 0.3, 0.2])
data["random_split letters [0.5, 0.3, 0.2] seed 3"] = [list(a), list(b), list(c)]
torch.manual_seed(1)
s = RandomSampler(list(range(10)))
data["RandomSampler list(10) seed 1, two passes"] = [list(s), list(s)]
torch.manual_seed(2)
loader = DataLoader(list(range(10)), batch_size=4, shuffle=True)
data["DataLoader list(10) batch 4 shuffle seed 2"] = [vals(x) for x in loader]
torch.manual_seed(4)
pairs = [(float(i) / 2, i % 3) for i in range(7)]
loader = DataLoader(pairs, batch_size=3, shuffle=True)
data["DataLoader pairs batch 3 shuffle seed 4"] = [
    {"x": vals(x), "x_dtype": str(x.dtype), "y": vals(y), "y_dtype": str(y.dtype)} for x, y in loader
]
data["DataLoader errors"] = {"index": err(lambda: random_split(range(3), [2, 2]))}

# ---- nn ----------------------------------------------------------------------------------------------------
nn_cases = {}
torch.manual_seed(0)
m = nn.PReLU()
nn_cases["PReLU() weight"] = vals(m.weight)
x = torch.randn(2, 3, 4, requires_grad=True)
y = m(x)
g = torch.randn(2, 3, 4)
y.backward(g)
nn_cases["PReLU() 1 param"] = {
    "x": vals(x), "g": vals(g), "y": vals(y), "grad_fn": type(y.grad_fn).__name__,
    "x_grad": vals(x.grad), "w_grad": vals(m.weight.grad),
}
m = nn.PReLU(3, init=0.1)
x = torch.randn(2, 3, 4, requires_grad=True)
y = m(x)
g = torch.randn(2, 3, 4)
y.backward(g)
nn_cases["PReLU(3, init=0.1) 3 params"] = {
    "x": vals(x), "g": vals(g), "y": vals(y), "grad_fn": type(y.grad_fn).__name__,
    "next": [type(f[0]).__name__ if f[0] is not None else None for f in y.grad_fn.next_functions],
    "x_grad": vals(x.grad), "w_grad": vals(m.weight.grad),
}
w = torch.tensor([0.2, -0.3])
nn_cases["prelu errors"] = {
    "channels": err(lambda: F.prelu(torch.randn(2, 3), w)),
    "0-dim": err(lambda: F.prelu(torch.tensor(1.0), w)),
    "2-d weight": err(lambda: F.prelu(torch.randn(2, 1), torch.ones(1, 1))),
    "dtype": err(lambda: F.prelu(torch.randn(2, 2, dtype=torch.float64), w)),
    "int": err(lambda: F.prelu(torch.tensor([1, -2]), torch.tensor([2]))),
}
nn_cases["prelu 1-d input"] = vals(F.prelu(torch.tensor([-2.0, 0.0, 3.0]), torch.tensor([0.5])))
nn_cases["prelu 0-d input"] = vals(F.prelu(torch.tensor(-2.0), torch.tensor([0.5])))

x = torch.randn(3, 4, requires_grad=True)
t = torch.randn(3, 4)
loss = nn.HuberLoss(delta=0.5)(x, t)
loss.backward()
nn_cases["HuberLoss(delta=0.5)"] = {"x": vals(x), "t": vals(t), "loss": loss.item(), "grad_fn": type(loss.grad_fn).__name__, "x_grad": vals(x.grad)}
x = torch.randn(3, 4, requires_grad=True)
t = torch.randn(3, 4)
loss = nn.HuberLoss(reduction="sum")(x, t)
nn_cases["HuberLoss(reduction='sum')"] = {"x": vals(x), "t": vals(t), "loss": loss.item()}
inp = F.log_softmax(torch.randn(3, 5), dim=1).detach().requires_grad_()
tgt = F.softmax(torch.randn(3, 5), dim=1)
loss = nn.KLDivLoss(reduction="batchmean")(inp, tgt)
loss.backward()
nn_cases["KLDivLoss(reduction='batchmean')"] = {
    "x": vals(inp), "t": vals(tgt), "loss": loss.item(), "grad_fn": type(loss.grad_fn).__name__, "x_grad": vals(inp.grad)
}
tgt_log = F.log_softmax(torch.randn(3, 5), dim=1)
loss = nn.KLDivLoss(reduction="sum", log_target=True)(inp, tgt_log)
nn_cases["KLDivLoss(reduction='sum', log_target=True)"] = {"x": vals(inp), "t": vals(tgt_log), "loss": loss.item()}
loss = nn.KLDivLoss(reduce=False)(inp, tgt)
nn_cases["KLDivLoss(reduce=False)"] = {"x": vals(inp), "t": vals(tgt), "loss": vals(loss), "reduction": nn.KLDivLoss(reduce=False).reduction}

nn_cases["eye_(3, 5)"] = vals(nn.init.eye_(torch.empty(3, 5)))
nn_cases["eye_(4, 2)"] = vals(nn.init.eye_(torch.empty(4, 2)))
nn_cases["dirac_(4, 2, 3)"] = vals(nn.init.dirac_(torch.empty(4, 2, 3)))
nn_cases["dirac_(4, 3, 3, 3) groups=2"] = vals(nn.init.dirac_(torch.empty(4, 3, 3, 3), groups=2))
nn_cases["dirac_(2, 2, 2, 3, 3)"] = vals(nn.init.dirac_(torch.empty(2, 2, 2, 3, 3)))
nn_cases["init errors"] = {
    "eye_ 1-d": err(lambda: nn.init.eye_(torch.empty(3))),
    "dirac_ 2-d": err(lambda: nn.init.dirac_(torch.empty(3, 3))),
    "dirac_ groups": err(lambda: nn.init.dirac_(torch.empty(3, 2, 3), groups=2)),
}

# ---- dispatch log ------------------------------------------------------------------------------------------
log = []


class Logging(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        log.append(str(func))
        return func(*args, **(kwargs or {}))


x = torch.randn(3, requires_grad=True)
y = torch.randn(3)
with Logging():
    (x * y).sum().backward()
first = list(log)
log.clear()
with Logging():
    (x * y).sum().backward()
second = list(log)
# A linear layer's backward: the weight's gradient is computed laid out as the weight (mm_mat2_backward's
# column-major case), so AccumulateGrad keeps it (detach) instead of copying it.
xl = torch.randn(4, 5, requires_grad=True)
wl = torch.randn(3, 5, requires_grad=True)
bl = torch.randn(3, requires_grad=True)
yl = torch.nn.functional.linear(xl, wl, bl)
log.clear()
with Logging():
    yl.sum().backward()
dispatch_log = {"first backward": first, "second backward": second, "linear backward": list(log), "linear weight grad strides": list(wl.grad.stride())}

with open(OUT, "w") as f:
    json.dump(
        {
            "generated_by": "tools/golden/gen_repr_samplers_prelu_dispatch_log.py",
            "torch_version": torch.__version__,
            "printing": printing,
            "size": size_facts,
            "data": data,
            "nn": nn_cases,
            "dispatch_log": dispatch_log,
        },
        f,
        indent=1,
    )
    f.write("\n")
print("wrote", OUT, os.path.getsize(OUT))
