#!/usr/bin/env python3
"""Golden fixture for float16 / bfloat16 compute on the CPU (issue 30): products (mm, bmm, addmm with beta and
alpha, matmul, linear), softmax / log_softmax along the last and another dim, sum / mean, pointwise ops and a
gradient, each in both reduced dtypes; binary ops with a Python number or 0-dim tensor (scalar_cases); softmax / log_softmax backward. Values are the exact float32 of the half bits (tolist() of the reduced
tensor), inputs and results alike. Also torch.finfo of both dtypes (str and fields).

Run with the reference torch build (2.13.0+cpu):

    $PYTHON tools/golden/gen_reduced_float.py    # writes test/golden/reduced_float.json

Deterministic: a fixed seed, cases in a fixed order.
"""

import argparse
import json

import torch
from _encode import spec

DTYPES = [torch.float16, torch.bfloat16]


def case(op, args, result, **kw):
    return {"op": op, "args": [spec(a, ("dtype", "sizes", "values")) for a in args], "result": spec(result, ("dtype", "sizes", "values")), **kw}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-o", "--out", default="test/golden/reduced_float.json")
    args = ap.parse_args()
    torch.manual_seed(0)
    cases = []
    for d in DTYPES:
        r = lambda *s: (torch.randn(*s) * 2).to(d)  # noqa: E731
        a, b = r(5, 37), r(37, 6)
        cases.append(case("mm", [a, b], torch.mm(a, b)))
        x, y = r(3, 4, 33), r(3, 33, 5)
        cases.append(case("bmm", [x, y], torch.bmm(x, y)))
        c = r(5, 6)
        cases.append(case("addmm", [c, a, b], torch.addmm(c, a, b, beta=0.5, alpha=1.5), beta=0.5, alpha=1.5))
        cases.append(case("addmm", [c, a, b], torch.addmm(c, a, b), beta=1, alpha=1))
        v = r(37)
        cases.append(case("matmul", [a, v], torch.matmul(a, v)))
        w, bias = r(6, 37), r(6)
        cases.append(case("linear", [a, w, bias], torch.nn.functional.linear(a, w, bias)))
        s = r(4, 50) * 3
        for dim in (1, 0):
            cases.append(case("softmax", [s], torch.softmax(s, dim), dim=dim))
            cases.append(case("log_softmax", [s], torch.log_softmax(s, dim), dim=dim))
        big = r(3, 300)
        cases.append(case("sum", [big], big.sum(1), dim=1))
        cases.append(case("mean", [big], big.mean(1), dim=1))
        cases.append(case("sum", [big], big.sum(), dim=None))
        p, q = r(40), r(40)
        for op in ("add", "mul", "div", "sub"):
            cases.append(case(op, [p, q], getattr(torch, op)(p, q)))
        for op in ("exp", "sin", "tanh", "sigmoid", "sqrt"):
            cases.append(case(op, [p.abs()], getattr(torch, op)(p.abs())))
        # gradient of sum((a @ b).tanh()) in the reduced dtype
        ag, bg = a.clone().requires_grad_(), b.clone().requires_grad_()
        torch.mm(ag, bg).tanh().sum().backward()
        cases.append(case("mm_tanh_grad", [a, b], [ag.grad, bg.grad]))
    # addmm's beta·self is fused with the product's sum (fma in the wheel's gemm): Muon's Newton–Schulz step meets
    # an exact bfloat16 tie (0.3720703125) that only the fused form rounds up; and small random ones with beta = 3.4.
    o = torch.tensor([[0.349609375, 0.3125, -0.1552734375, -0.65625], [0.48046875, 0.51171875, 0.443359375, 0.1806640625]])
    gu = torch.tensor([[-2.21875, -0.267578125], [-0.267578125, -2.3125]])
    for d in DTYPES:
        ob, gb = o.to(d), gu.to(d)
        cases.append(case("addmm", [ob, gb, ob], torch.addmm(ob, gb, ob, beta=3.4), beta=3.4, alpha=1))
        c3, a3, b3 = (torch.randn(6, 7) * 2).to(d), (torch.randn(6, 3) * 2).to(d), (torch.randn(3, 7) * 2).to(d)
        cases.append(case("addmm", [c3, a3, b3], torch.addmm(c3, a3, b3, beta=3.4, alpha=2.0315), beta=3.4, alpha=2.0315))
    # A Python number (or a 0-dim / one-element tensor) with a float16 / bfloat16 tensor: mul, div and div's rounding
    # modes read it as float (original_scalar_value<opmath_t>), add / sub in the tensor's dtype, pow rounds the
    # exponent to the tensor's dtype, add / sub's alpha is rounded to it and fused (64 elements: whole vectors
    # of the wheel's AVX512 loop, whose shorter tail rounds alpha * other first); xlogy's log rounds to the dtype.
    scalar_cases = []
    for d in DTYPES:
        p, q = (torch.randn(64) * 3).to(d), (torch.randn(64) * 3).to(d)
        for s in (0.1, 0.3, 1 / 3, 7.3, -2.7, 3.0, -2.0):
            calls = [
                ("add", lambda: torch.add(p, s)), ("sub", lambda: torch.sub(p, s)), ("mul", lambda: torch.mul(p, s)),
                ("div", lambda: torch.div(p, s)), ("div_trunc", lambda: torch.div(p, s, rounding_mode="trunc")),
                ("div_floor", lambda: torch.div(p, s, rounding_mode="floor")), ("floor_divide", lambda: torch.floor_divide(p, s)),
                ("mul_", lambda: p.clone().mul_(s)), ("div_", lambda: p.clone().div_(s)),
                ("mul_0dim_float32", lambda: torch.mul(p, torch.tensor(s))), ("mul_0dim_float64", lambda: torch.mul(p, torch.tensor(s, dtype=torch.float64))),
                ("mul_0dim_first", lambda: torch.mul(torch.tensor(s), p)), ("div_1elem_float32", lambda: torch.div(p, torch.tensor([s]))),
                ("pow", lambda: torch.pow(p.abs(), s)), ("xlogy", lambda: torch.xlogy(p, s)),
                ("add_alpha", lambda: torch.add(p, q, alpha=s)), ("sub_alpha", lambda: torch.sub(p, q, alpha=s)),
                ("add_scalar_alpha", lambda: torch.add(p, s, alpha=s)),
            ]
            for name, f in calls:
                scalar_cases.append({"op": name, "scalar": s, "args": [spec(t, ("dtype", "sizes", "values")) for t in (p, q)],
                                     "result": spec(f(), ("dtype", "sizes", "values"))})
    # _softmax_backward_data / _log_softmax_backward_data: grad and output read as float, the sum and the result
    # computed in float, rounded once; along the last dim, another dim and a 1-d tensor.
    for d in DTYPES:
        for shape, dim in (((4, 50), 1), ((4, 50), 0), ((3, 7, 5), 1), ((2, 100), -1), ((33,), 0)):
            x, g = (torch.randn(*shape) * 3).to(d), torch.randn(*shape).to(d)
            for log in (False, True):
                y = torch.log_softmax(x, dim) if log else torch.softmax(x, dim)
                f = torch.ops.aten._log_softmax_backward_data if log else torch.ops.aten._softmax_backward_data
                cases.append(case("log_softmax_backward" if log else "softmax_backward", [g, y], f(g, y, dim, d), dim=dim))
    finfo = []
    for d in DTYPES:
        f = torch.finfo(d)
        finfo.append({"dtype": str(d).replace("torch.", ""), "str": str(f), "bits": f.bits, "eps": f.eps, "max": f.max, "min": f.min,
                      "tiny": f.tiny, "smallest_normal": f.smallest_normal, "resolution": f.resolution})
    out = {"generated_by": "tools/golden/gen_reduced_float.py", "torch_version": torch.__version__, "cases": cases, "scalar_cases": scalar_cases, "finfo": finfo}
    with open(args.out, "w") as fh:
        json.dump(out, fh, separators=(",", ":"))
        fh.write("\n")


if __name__ == "__main__":
    main()
