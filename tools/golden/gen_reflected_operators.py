"""Generates test/golden/reflected_operators.json: torch.Tensor's reflected operators (`x.__rsub__(2)` is
`2 - x`, torch/_tensor.py) and the error texts of the pointwise operators fmax, fmin, gcd, lcm, signbit,
isposinf, isneginf, frexp, positive, mvlgamma, the shifts, igamma and floor_divide, from the PyTorch 2.13 wheel.

Run from the repository root:
    $PYTHON tools/golden/gen_reflected_operators.py

Deterministic: fixed operands, no randomness. Replayed by test/api/reflected_operators.test.ts.
"""

import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(__file__))
from _encode import spec  # noqa: E402

OUT = "test/golden/reflected_operators.json"
FIELDS = ("dtype", "sizes", "values")

OPERANDS = {
    "int": torch.tensor([1, 2, 5]),
    "float": torch.tensor([1.5, -2.0, 4.0]),
    "bool": torch.tensor([True, False, True]),
}
OTHERS = [2, 2.5, True]
METHODS = ["__radd__", "__rsub__", "__rmul__", "__rdiv__", "__rtruediv__", "__rmod__", "__rpow__", "__rand__", "__ror__", "__rxor__"]


def err(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return str(e).split("\n")[0]
    return None


reflected = []
for name in METHODS:
    for key, x in OPERANDS.items():
        for other in OTHERS:
            case = {"method": name, "self": key, "other": other}
            try:
                case["result"] = spec(getattr(x, name)(other), FIELDS)
            except Exception as e:  # noqa: BLE001
                case["error"] = str(e).split("\n")[0]
            reflected.append(case)
m = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
e = torch.tensor([[0.0, 1.0], [1.0, 0.0]])
reflected.append({"method": "__rmatmul__", "self": "matrix", "other": "swap", "result": spec(m.__rmatmul__(e), FIELDS)})

c = torch.tensor([1 + 1j])
f = torch.tensor([1.5])
i = torch.tensor([3])
b = torch.tensor([True])
errors = {
    "fmax complex": err(lambda: torch.fmax(c, c)),
    "fmin complex": err(lambda: torch.fmin(c, c)),
    "gcd float": err(lambda: torch.gcd(f, f)),
    "lcm bool": err(lambda: torch.lcm(b, b)),
    "signbit complex": err(lambda: torch.signbit(c)),
    "isposinf complex": err(lambda: torch.isposinf(c)),
    "isneginf float out": err(lambda: torch.isneginf(f, out=torch.empty(1))),
    "frexp int": err(lambda: torch.frexp(i)),
    "frexp mantissa dtype": err(lambda: torch.frexp(f, out=(torch.empty(1, dtype=torch.float64), torch.empty(1, dtype=torch.int32)))),
    "frexp exponent dtype": err(lambda: torch.frexp(f, out=(torch.empty(1), torch.empty(1)))),
    "positive bool": err(lambda: torch.positive(b)),
    "mvlgamma bool": err(lambda: torch.mvlgamma(b, 1)),
    "mvlgamma p": err(lambda: torch.mvlgamma(f, 0)),
    "lshift float": err(lambda: torch.bitwise_left_shift(f, f)),
    "rshift bool": err(lambda: torch.bitwise_right_shift(b, b)),
    "igamma int": err(lambda: torch.igamma(i, i)),
    "floor_divide complex": err(lambda: torch.floor_divide(c, c)),
    "floor_divide by zero": err(lambda: torch.floor_divide(i, torch.tensor([0]))),
    "erfc complex": err(lambda: torch.erfc(c)),
    "igamma input grad": err(lambda: torch.igamma(torch.tensor([1.5], requires_grad=True), torch.tensor([1.0])).sum().backward()),
}
shifts = {
    "int64 << 40": spec(torch.tensor([1, -2]) << 40, FIELDS),
    "uint8 >> 9": spec(torch.tensor([200, 3], dtype=torch.uint8) >> 9, FIELDS),
    "int8 >> 9": spec(torch.tensor([-5, 2], dtype=torch.int8) >> 9, FIELDS),
    "int8 << -1": spec(torch.tensor([-5, 2], dtype=torch.int8) << -1, FIELDS),
    "int8 << 3 wraps": spec(torch.tensor([100, -100], dtype=torch.int8) << 3, FIELDS),
    "int32 >> 3": spec(torch.tensor([-17, 17], dtype=torch.int32) >> 3, FIELDS),
}

with open(OUT, "w") as fh:
    json.dump({"generated_by": "tools/golden/gen_reflected_operators.py", "torch_version": torch.__version__,
               "reflected": reflected, "errors": errors, "shifts": shifts}, fh, indent=1)
    fh.write("\n")
print(f"wrote {OUT} {len(reflected)} reflected, {len(errors)} errors")
