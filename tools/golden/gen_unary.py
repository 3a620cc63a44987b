#!/usr/bin/env python3
"""Golden fixtures for aten-ts's unary pointwise kernels (src/kernels/UnaryOps.ts).

Run with the reference torch build (2.13.0+cpu):

    $PYTHON tools/golden/gen_unary.py            # writes test/golden/unary.json
    $PYTHON tools/golden/gen_unary.py -o OUT.json

Everything recorded is read back from torch (result dtypes, sizes, values, error texts). Deterministic.

Format:
    inputs: {dtype: [values]}   the input vector of each dtype (values exact in the dtype)
    cases:  [{op, kwargs, dtype, result: {dtype, values}} | {op, kwargs, dtype, error}]
            op(torch.tensor(inputs[dtype], dtype)) for every op and input dtype
    strided: [{op, kwargs, input: spec, result}]   a non-contiguous (transposed, offset) input
    out:    [{op, kwargs, input: spec, out_dtype, result | error}]  op(input, out=torch.empty(0, out_dtype))
    inplace: [{op, kwargs, input: spec, result | error}]   op_(input)
    meta:   [{op, kwargs, dtype, sizes, result: {dtype, sizes} | error}]
Operand specs are {"dtype", "sizes", "strides", "offset", "storage"} as in gen_iter.py. Values: floats as
JSON numbers (float64 repr round-trips), "nan"/"inf"/"-inf", bools as true/false, complex as [re, im].
"""

import argparse
import json
import math

import torch

DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int32, torch.uint8, torch.bool]
COMPLEX_OPS = {"abs", "neg", "exp", "sqrt"}

FLOAT_VALUES = [
    0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3.7, -3.7, 0.1, -0.1, 0.9999, 2.0, 3.0, -3.0,
    0.49999997, 1e-3, -1e-3, 1e-6, 1e-20, 5e-40, 10.0, -10.0, 20.0, -20.0, 88.0, -88.0, 100.0, -100.0,
    123.456, 1234.5678, 65504.0, 70000.0, 1e10, -1e10, 3e38, -3e38, 1e300,
    math.inf, -math.inf, math.nan,
]
INT_VALUES = {
    torch.int64: [0, 1, -1, 2, -2, 3, 7, -7, 100, -100, 255, 256, 65504, 2**31, -(2**31) - 1, 2**40, -(2**40), 2**53, -(2**53)],
    torch.int32: [0, 1, -1, 2, -2, 3, 7, -7, 100, -100, 255, 256, 65504, 2**31 - 1, -(2**31) + 1, 123456789],
    torch.uint8: [0, 1, 2, 3, 7, 100, 127, 128, 200, 255],
    torch.bool: [False, True],
}
COMPLEX_VALUES = [
    complex(0, 0), complex(1, 0), complex(-1, 0), complex(0, 1), complex(3, 4), complex(-3, 4), complex(0.5, -2.5),
    complex(-4, 0), complex(1e-3, 1e3), complex(math.inf, 0), complex(math.nan, 1), complex(2, math.inf),
]

# (name, kwargs, function taking (input, **kwargs[, out=]), in-place method name or None)
OPS = [
    ("neg", {}), ("abs", {}), ("sign", {}), ("exp", {}), ("exp2", {}), ("log", {}), ("log2", {}), ("log1p", {}),
    ("expm1", {}), ("sqrt", {}), ("rsqrt", {}), ("sin", {}), ("cos", {}), ("tan", {}), ("asin", {}),
    ("acos", {}), ("atan", {}), ("sinh", {}), ("cosh", {}), ("tanh", {}), ("sigmoid", {}), ("relu", {}),
    ("gelu", {}), ("gelu", {"approximate": "tanh"}), ("silu", {}), ("erf", {}), ("floor", {}), ("ceil", {}),
    ("round", {}), ("round", {"decimals": 2}), ("round", {"decimals": -1}), ("trunc", {}), ("frac", {}),
    ("reciprocal", {}), ("isnan", {}), ("isinf", {}), ("isfinite", {}), ("nan_to_num", {}),
    ("nan_to_num", {"nan": 1.5, "posinf": 100.0, "neginf": -200.0}),
]
NN = {"gelu": torch.nn.functional.gelu, "silu": torch.nn.functional.silu, "relu": torch.relu}


def dname(d):
    return str(d).replace("torch.", "")


def err_text(e):
    return str(e).split("\nException raised from ")[0]


def fnum(v):
    if isinstance(v, bool):
        return v
    if isinstance(v, complex):
        return [fnum(v.real), fnum(v.imag)]
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
    return v


def values_of(t):
    t = t.detach()
    if t.dtype in (torch.float16, torch.bfloat16):
        t = t.to(torch.float32)
    return [fnum(v) for v in t.reshape(-1).tolist()]


def result_of(t):
    return {"dtype": dname(t.dtype), "sizes": list(t.shape), "values": values_of(t)}


def spec_of(t):
    """An operand spec of a strided view (storage read back exactly)."""
    storage = torch.as_strided(t, (t.untyped_storage().nbytes() // t.element_size(),), (1,), 0)
    return {"dtype": dname(t.dtype), "sizes": list(t.shape), "strides": list(t.stride()), "offset": t.storage_offset(),
            "storage": values_of(storage)}


def fn(op):
    return NN.get(op) or getattr(torch, op)


def run(op, kwargs, x, **extra):
    return fn(op)(x, **kwargs, **extra)


def inputs():
    res = {}
    for d in DTYPES:
        if d.is_floating_point:
            t = torch.tensor(FLOAT_VALUES, dtype=torch.float64).to(d)
        else:
            t = torch.tensor(INT_VALUES[d], dtype=d)
        res[dname(d)] = t
    res["complex64"] = torch.tensor(COMPLEX_VALUES, dtype=torch.complex64)
    return res


def record(f):
    try:
        return {"result": result_of(f())}
    except Exception as e:  # noqa: BLE001
        return {"error": err_text(e)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-o", default="test/golden/unary.json")
    args = ap.parse_args()
    ins = inputs()
    out = {"generated_by": "tools/golden/gen_unary.py", "torch_version": torch.__version__,
           "inputs": {k: values_of(v) for k, v in ins.items()}, "cases": [], "strided": [], "out": [], "inplace": [],
           "meta": []}
    for op, kw in OPS:
        for dn, x in ins.items():
            if dn == "complex64" and op not in COMPLEX_OPS:
                continue
            out["cases"].append({"op": op, "kwargs": kw, "dtype": dn, **record(lambda: run(op, kw, x))})
        # non-contiguous: a transposed view with a storage offset
        base = torch.tensor(FLOAT_VALUES[:36], dtype=torch.float32)
        v = base[1:].as_strided((3, 4), (1, 3), 1)
        out["strided"].append({"op": op, "kwargs": kw, "input": spec_of(v), **record(lambda: run(op, kw, v))})
        # out= of other dtypes
        if op not in ("relu", "isnan", "isinf", "isfinite"):
            for in_dt, out_dt in [(torch.float32, torch.float64), (torch.float32, torch.int64), (torch.float32, torch.float16),
                                  (torch.int32, torch.float32), (torch.int32, torch.int64), (torch.float64, torch.float32),
                                  (torch.float32, torch.bool), (torch.int64, torch.int64)]:
                src = torch.tensor([-2.5, -1.0, 0.0, 0.5, 2.0, 3.0], dtype=in_dt)

                def f():
                    o = torch.empty(0, dtype=out_dt)
                    f_out = getattr(torch._C._nn, op) if op in NN else fn(op)
                    r = f_out(src, **kw, out=o)
                    assert r is o
                    return o

                out["out"].append({"op": op, "kwargs": kw, "input": spec_of(src), "out_dtype": dname(out_dt), **record(f)})
        # in-place
        if op not in ("isnan", "isinf", "isfinite"):
            for in_dt in [torch.float32, torch.int64, torch.int32, torch.bool, torch.float16]:
                src = torch.tensor([-2.5, -1.0, 0.0, 0.5, 2.0, 3.0], dtype=torch.float64).to(in_dt)
                spec = spec_of(src)

                def g():
                    if op in NN and op != "relu":
                        return NN[op](src, **kw, inplace=True) if op == "silu" else getattr(torch.ops.aten, op + "_")(src, **kw)
                    return getattr(src, op + "_")(**kw)

                rec = record(g)
                out["inplace"].append({"op": op, "kwargs": kw, "input": spec, **rec})
        # meta
        for d in [torch.float32, torch.float16, torch.int64, torch.uint8, torch.bool]:
            m = torch.empty((2, 3), dtype=d, device="meta")

            def h():
                r = run(op, kw, m)
                assert r.device.type == "meta"
                return r

            try:
                r = h()
                rec = {"result": {"dtype": dname(r.dtype), "sizes": list(r.shape)}}
            except Exception as e:  # noqa: BLE001
                rec = {"error": err_text(e)}
            out["meta"].append({"op": op, "kwargs": kw, "dtype": dname(d), "sizes": [2, 3], **rec})
    with open(args.o, "w") as fh:
        json.dump(out, fh, separators=(",", ":"))
        fh.write("\n")


if __name__ == "__main__":
    main()
