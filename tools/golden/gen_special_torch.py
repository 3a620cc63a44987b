#!/usr/bin/env python3
"""Golden fixtures for torch.special's functions of src/kernels/MathBessel.ts, MathErfcx.ts, MathPolynomials.ts and
Math.ts (i0e, i1e) at their branch points: the switch points of each Cephes approximation (Airy's -2.09, 2.09,
8.3203353, 103.892; the Bessel functions' 5; K0/K1's 2; I's 8), erfcx's continued fraction (> 50, > 5e7) and
reflection (-6.1, -26.7), ndtri's tails around exp(-2) and exp(-32), log_ndtr's switch at -1, the polynomials'
closed forms above degree 6/8 and their end values, and the special values. Run with the reference torch build
(2.13.0+cpu):
    $PYTHON tools/golden/gen_special_torch.py      # writes test/golden/special_torch.json
Format: unary: [{op, dtype, input, result}], binary: [{op, dtype, x, n, result}], floats as JSON numbers or
"nan"/"inf"/"-inf". Deterministic.
"""
import argparse
import json
import math
import os

import torch

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
INF, NAN = math.inf, math.nan
UNARY = {
    "i0e": [0.0, 0.5, 7.999, 8.0, 8.5, 50.0, -3.0, 1e5, INF, NAN],
    "i1": [0.0, 1e-10, 0.5, 8.0, 8.5, 30.0, -2.0, NAN],
    "i1e": [0.0, 0.5, 8.0, 8.5, 50.0, -9.0, 1e5, NAN],
    "ndtri": [0.0, 1.0, 0.5, 0.1, 0.13533528, 0.8646648, 0.9, 1e-10, 1e-20, 1 - 1e-12, -0.1, 1.1, NAN],
    "log_ndtr": [-40.0, -5.0, -1.0001, -1.0, 0.0, 3.0, 10.0, INF, -INF, NAN],
    "erfcx": [0.0, 0.5, 3.0, 49.9, 50.5, 1e6, 6e7, -1.0, -6.0, -6.2, -26.0, -27.0, INF, -INF, NAN],
    "entr": [0.0, 0.5, 1.0, 3.0, -1.0, INF, NAN],
    "airy_ai": [-30.0, -2.1, -2.09, -1.0, 0.0, 1.0, 2.08, 2.09, 5.0, 8.3, 8.4, 50.0, 103.8, 104.0, INF, -INF, NAN],
    "bessel_j0": [0.0, 1e-6, 1.0, 4.99, 5.0, 5.01, 10.0, 100.0, -3.0, INF, NAN],
    "bessel_j1": [0.0, 1.0, 4.99, 5.0, 5.01, 12.0, 100.0, -3.0, NAN],
    "bessel_y0": [0.0, 1e-3, 1.0, 4.99, 5.0, 5.01, 12.0, 100.0, -1.0, NAN],
    "bessel_y1": [0.0, 1e-3, 1.0, 4.99, 5.0, 5.01, 12.0, 100.0, -1.0, NAN],
    "modified_bessel_i0": [0.0, 1.0, 8.0, 8.5, 50.0, -3.0, NAN],
    "modified_bessel_i1": [0.0, 1.0, 8.0, 8.5, 50.0, -3.0, NAN],
    "modified_bessel_k0": [0.0, 1e-3, 1.0, 2.0, 2.01, 10.0, 100.0, -1.0, NAN],
    "modified_bessel_k1": [0.0, 1e-3, 1.0, 2.0, 2.01, 10.0, 100.0, -1.0, NAN],
    "scaled_modified_bessel_k0": [0.0, 1e-3, 1.0, 2.0, 2.01, 10.0, 1000.0, -1.0, NAN],
    "scaled_modified_bessel_k1": [0.0, 1e-3, 1.0, 2.0, 2.01, 10.0, 1000.0, -1.0, NAN],
    "spherical_bessel_j0": [0.0, 0.1, 0.49, 0.5, 3.0, -7.0, INF, -INF, NAN],
}
POLY_X = [-1.0, -0.6, 0.0, 0.3, 0.5, 0.97, 1.0, 1.3, -2.5]
POLY_N = [-1.0, 0.0, 1.0, 2.0, 5.0, 7.0, 9.0, 12.0, 2.7, NAN]
POLY = ["chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v", "chebyshev_polynomial_w",
        "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
        "shifted_chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he", "laguerre_polynomial_l",
        "legendre_polynomial_p"]


def enc(v):
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def encs(t):
    return [enc(float(v)) for v in t.tolist()]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-o", "--out", default=os.path.join(ROOT, "test/golden/special_torch.json"))
    args = ap.parse_args()
    unary, binary = [], []
    for dtype in (torch.float64, torch.float32):
        name = str(dtype).replace("torch.", "")
        for op, xs in UNARY.items():
            t = torch.tensor(xs, dtype=dtype)
            unary.append({"op": op, "dtype": name, "input": encs(t), "result": encs(getattr(torch.special, op)(t))})
        x = torch.tensor(POLY_X, dtype=dtype).repeat_interleave(len(POLY_N))
        n = torch.tensor(POLY_N, dtype=dtype).repeat(len(POLY_X))
        for op in POLY:
            binary.append({"op": op, "dtype": name, "x": encs(x), "n": encs(n), "result": encs(getattr(torch.special, op)(x, n))})
    doc = {"generated_by": "tools/golden/gen_special_torch.py", "torch_version": torch.__version__, "unary": unary,
           "binary": binary}
    with open(args.out, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
