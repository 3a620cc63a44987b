#!/usr/bin/env python3
"""Golden fixture for aten-ts's torch.dtype objects (src/c10/Dtype.ts): str/repr of every dtype, its
attributes (itemsize, is_floating_point, is_complex, is_signed or its error), to_real()/to_complex() (or the error), the
aliases torch defines (torch.float is torch.float32, ...), the default dtype and torch.promote_types of a few pairs.

Run with the reference torch build (2.13.0+cpu):

    $PYTHON tools/golden/gen_dtype.py            # writes test/golden/dtype.json
    $PYTHON tools/golden/gen_dtype.py -o OUT.json

Deterministic: the dtypes are listed here in ScalarType enum order; no set or dict of unknown order is iterated.
"""

import argparse
import json

import torch

# In c10::ScalarType enum order (the dtypes aten-ts has a ScalarType for).
DTYPE_NAMES = [
    "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64", "complex32", "complex64",
    "complex128", "bool", "qint8", "quint8", "qint32", "bfloat16", "quint4x2", "quint2x4",
]
ALIASES = ["float", "double", "half", "long", "int", "short", "cfloat", "cdouble", "chalf"]


def outcome(fn):
    try:
        v = fn()
        return {"value": v if isinstance(v, bool) else str(v)}
    except Exception as e:  # noqa: BLE001 - recorded as the expected error
        return {"error": str(e), "type": type(e).__name__}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-o", "--out", default="test/golden/dtype.json")
    args = ap.parse_args()
    dtypes = []
    for name in DTYPE_NAMES:
        d = getattr(torch, name)
        dtypes.append({
            "name": name,
            "str": str(d),
            "repr": repr(d),
            "itemsize": d.itemsize,
            "is_floating_point": d.is_floating_point,
            "is_complex": d.is_complex,
            "is_signed": outcome(lambda: d.is_signed),
            "to_real": outcome(d.to_real),
            "to_complex": outcome(d.to_complex),
        })
    aliases = [{"alias": a, "str": str(getattr(torch, a))} for a in ALIASES]
    pairs = [("int64", "float32"), ("uint8", "int8"), ("bool", "int32"), ("float16", "bfloat16"), ("float32", "complex128")]
    promote = [{"a": a, "b": b, "result": str(torch.promote_types(getattr(torch, a), getattr(torch, b)))} for a, b in pairs]
    x = torch.zeros(2, dtype=torch.float64)
    tensor = {
        "str_dtype": str(x.dtype),
        "default_dtype": str(torch.get_default_dtype()),
        "repr": repr(x),
        "int_tensor_repr": repr(torch.arange(3, dtype=torch.int32)),
    }
    out = {
        "generated_by": "tools/golden/gen_dtype.py",
        "torch_version": torch.__version__,
        "dtypes": dtypes,
        "aliases": aliases,
        "promote_types": promote,
        "tensor": tensor,
    }
    with open(args.out, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
