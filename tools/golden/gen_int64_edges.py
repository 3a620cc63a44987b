#!/usr/bin/env python3
"""Golden fixture for int64 values at the edge of the range (-2^63, 2^62, 2^63 - 1): bitwise_not, neg, abs, add,
mul, sub, sum, cumsum and float -> int64 conversion of NaN / inf / 1e30, each on a contiguous tensor and on a
strided view of the same values. int64 values are decimal strings (JSON numbers lose digits past 2^53); float
inputs are numbers or 'nan' / 'inf' / '-inf'. aten-ts stores int64 as doubles (Note [Typed storage of each
dtype] in src/tensor/Storage.ts): test/kernels/Int64Edges.test.ts checks that both layouts give one value and
that it is PyTorch's wherever the double store can hold it.

Run with the reference torch build (2.13.0+cpu):

    $PYTHON tools/golden/gen_int64_edges.py    # writes test/golden/int64_edges.json

Deterministic: fixed values, cases in a fixed order.
"""

import argparse
import json

import torch
from _encode import enc

MIN = -(2**63)
EDGE = [MIN, MIN + 1024, -5, 0, 7, 2**53 + 2, 2**62, 2**63 - 1024]


def s(t):
    return [str(v) for v in t.reshape(-1).tolist()]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-o", "--out", default="test/golden/int64_edges.json")
    args = ap.parse_args()
    cases = []
    x = torch.tensor(EDGE, dtype=torch.int64)
    y = torch.tensor([2**62, 2**62], dtype=torch.int64)
    unary = {
        "bitwise_not": lambda t: torch.bitwise_not(t),
        "neg": lambda t: torch.neg(t),
        "abs": lambda t: torch.abs(t),
    }
    for name, f in unary.items():
        cases.append({"op": name, "input": s(x), "result": s(f(x))})
    pair = {"add": lambda t: t + t, "mul": lambda t: t * t, "mul_scalar": lambda t: t * 2, "add_scalar": lambda t: t + 2**62,
            "sum": lambda t: t.sum(), "cumsum": lambda t: t.cumsum(0)}
    for name, f in pair.items():
        cases.append({"op": name, "input": s(y), "result": s(f(y))})
    m = torch.tensor([MIN, 3], dtype=torch.int64)
    cases.append({"op": "sub_scalar", "input": s(m), "result": s(m - 1)})
    fl = torch.tensor([1.5, float("nan"), float("inf"), -float("inf"), 1e30, -2.0**63, 2.0**63], dtype=torch.float64)
    cases.append({"op": "to_int64", "input": [enc(v) for v in fl.tolist()], "result": s(fl.to(torch.int64))})
    out = {"generated_by": "tools/golden/gen_int64_edges.py", "torch_version": torch.__version__, "cases": cases}
    with open(args.out, "w") as fh:
        json.dump(out, fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    main()
