#!/usr/bin/env python3
"""Golden fixtures for the special functions of src/kernels/Math.ts at their hard points: poles,
negative non-integers, the recurrence boundary x == 10 of digamma, large and tiny arguments, the ends of erfinv's
domain. Run with the reference torch build (2.13.0+cpu):

    $PYTHON tools/golden/gen_special.py      # writes test/golden/special.json

Format: cases: [{op, n?, dtype, input: [values], result: [values]}], floats as JSON numbers (float64 repr
round-trips) or "nan"/"inf"/"-inf". Deterministic.
"""

import argparse
import json
import math
import os

import torch

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

POINTS = {
    "lgamma": [1e-300, 1e-8, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 10.0, 100.5, 1e10, 1e300, -0.5, -1.5, -2.25, -100.5, 0.0, -0.0,
               -1.0, -2.0, math.inf, -math.inf, math.nan],
    "digamma": [1e-8, 0.5, 1.0, 2.5, 9.999, 10.0, 10.001, 1e6, 1e18, -0.5, -2.25, -10.3, 0.0, -0.0, -1.0, -3.0,
                math.inf, math.nan],
    "erfinv": [0.0, -0.0, 1e-10, 0.1, 0.5, 0.7, 0.70001, 0.9, 0.999, 0.999999, -0.999999, 1.0, -1.0, 1.5, math.nan],
    "i0": [0.0, 1e-10, 0.5, 1.0, 7.999, 8.0, 8.001, 20.0, 100.0, 700.0, -3.0, -50.0, math.inf, math.nan],
    "sinc": [0.0, -0.0, 1e-10, 0.5, 1.0, 2.0, 2.5, -3.5, 1e6, math.inf, math.nan],
}
POLYGAMMA = {1: [1e-3, 0.25, 0.5, 1.0, 3.0, 50.0, -0.5, -2.5], 2: [1e-3, 0.5, 2.0, 25.0, -0.5], 3: [0.1, 1.0, 4.5, -1.5],
             5: [0.3, 2.0, 12.0]}


def enc(v):
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def case(op, fn, xs, dtype, n=None):
    t = torch.tensor(xs, dtype=dtype)
    c = {"op": op, "dtype": str(dtype).replace("torch.", ""), "input": [enc(float(v)) for v in t.tolist()],
         "result": [enc(float(v)) for v in fn(t).tolist()]}
    if n is not None:
        c["n"] = n
    return c


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-o", "--out", default=os.path.join(ROOT, "test/golden/special.json"))
    args = ap.parse_args()
    cases = []
    for dtype in (torch.float64, torch.float32):
        for op, xs in POINTS.items():
            cases.append(case(op, getattr(torch, op), xs, dtype))
        for n, xs in POLYGAMMA.items():
            cases.append(case("polygamma", lambda t, n=n: torch.polygamma(n, t), xs, dtype, n))
    doc = {"generated_by": "tools/golden/gen_special.py", "torch_version": torch.__version__, "cases": cases}
    with open(args.out, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
