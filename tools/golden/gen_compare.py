#!/usr/bin/env python3
"""Golden fixtures for aten-ts's comparison, logical, bitwise and clamp-family kernels
(src/kernels/CompareOps.ts): eq ne lt le gt ge, logical_and/or/xor/not, bitwise_and/or/xor/not,
maximum, minimum, where, clamp (Scalar and Tensor bounds), remainder, fmod, atan2, lerp (Scalar weight).

Run with the reference torch build (2.13.0+cpu):

    $PYTHON tools/golden/gen_compare.py            # writes test/golden/compare.json
    $PYTHON tools/golden/gen_compare.py -o OUT.json

Every result (dtype, sizes, strides, values) and error text is read back from torch. Deterministic (fixed
seed). Operand specs are those of gen_iter.py:
    {"dtype": "float32", "sizes": [2, 3], "strides": [1, 2], "offset": 0, "storage": [...]}  a strided view
    {"dtype": "int64", "wrapped": 3}   a Python scalar passed to the op (int, float or bool)
    null                               an absent optional Tensor (clamp's min / max)
A case: {op, variant: "fn" | "inplace" | "out", inputs: [spec...], min?, max?, weight?, out?: spec,
meta?: true, result?: {dtype, sizes, strides, values}, error?: text}. Non-finite floats are "nan", "inf",
"-inf"; bool values are JSON booleans. `meta` cases run the same call on meta tensors (wrapped numbers stay
on the CPU) and record no values.
"""

import argparse
import json
import math
import random

import torch

SEED = 20251122
DTYPES = [torch.bool, torch.uint8, torch.int32, torch.int64, torch.float16, torch.float32, torch.float64]

BINARY = ["eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor",
          "bitwise_and", "bitwise_or", "bitwise_xor", "maximum", "minimum", "remainder", "fmod", "atan2"]
UNARY = ["logical_not", "bitwise_not"]
# ops whose integer kernels divide: their integer inputs avoid 0 divisors (tested separately)
DIVIDING = {"remainder", "fmod"}
# ops with a Scalar `other` overload (the others reject Python numbers in Python's argument parser)
SCALAR_OVERLOAD = {"eq", "ne", "lt", "le", "gt", "ge", "bitwise_and", "bitwise_or", "bitwise_xor", "remainder", "fmod"}
# ops without an in-place variant
NO_INPLACE = {"maximum", "minimum"}

rng = random.Random(SEED)


def dname(d):
    return str(d).replace("torch.", "")


def err_text(e):
    return str(e).split("\nException raised from ")[0]


def enc(v):
    if isinstance(v, bool):
        return v
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return v
    return int(v)


def pool(d, nonzero=False, no_neg_zero=False):
    if d == torch.bool:
        vals = [True, False] if not nonzero else [True]
    elif d == torch.uint8:
        vals = [0, 1, 2, 3, 7, 9, 200, 255]
    elif d in (torch.int32, torch.int64):
        vals = [-7, -3, -1, 0, 1, 2, 3, 5, 12, 100]
        if d == torch.int64:
            vals += [2**40 + 3, -(2**33)]
        else:
            vals += [2**30 + 7, -(2**29)]
    else:
        vals = [-2.5, -1.0, -0.75, 0.0, 0.5, 1.0, 1.25, 3.0, 7.0, 100.0, float("nan"), float("inf"), float("-inf")]
        if not no_neg_zero:
            vals.append(-0.0)
    if nonzero:
        vals = [v for v in vals if v != 0]
    return vals


def values(d, n, nonzero=False, no_neg_zero=False):
    p = pool(d, nonzero, no_neg_zero)
    return [rng.choice(p) for _ in range(n)]


def make_spec(d, sizes, layout="contig", nonzero=False, no_neg_zero=False):
    """A spec and the torch tensor it describes."""
    if layout == "transposed" and len(sizes) == 2:
        # a transposed view: logical sizes `sizes`, column-major strides
        storage = values(d, sizes[0] * sizes[1], nonzero, no_neg_zero)
        strides = [1, sizes[0]]
        offset = 0
    elif layout == "strided":
        n = 1
        for s in sizes:
            n *= s
        storage = values(d, 2 * n + 1, nonzero, no_neg_zero)
        strides = []
        acc = 2
        for s in reversed(sizes):
            strides.insert(0, acc)
            acc *= s
        offset = 1
    else:
        n = 1
        for s in sizes:
            n *= s
        storage = values(d, n, nonzero, no_neg_zero)
        strides = []
        acc = 1
        for s in reversed(sizes):
            strides.insert(0, acc)
            acc *= max(s, 1)
        offset = 0
    base = torch.tensor(storage, dtype=d)
    t = torch.as_strided(base, sizes, strides, offset)
    spec = {"dtype": dname(d), "sizes": list(sizes), "strides": strides, "offset": offset,
            "storage": [enc(v) for v in storage]}
    return spec, t


def wrapped(v):
    d = torch.bool if isinstance(v, bool) else torch.int64 if isinstance(v, int) else torch.float64
    return {"dtype": dname(d), "wrapped": enc(v)}, v


def rebuild(spec):
    if spec is None:
        return None
    if "wrapped" in spec:
        w = spec["wrapped"]
        return w if not isinstance(w, str) else float(w)
    d = getattr(torch, spec["dtype"])
    st = [float(v) if isinstance(v, str) else v for v in spec["storage"]]
    return torch.as_strided(torch.tensor(st, dtype=d), spec["sizes"], spec["strides"], spec["offset"])


def to_meta(x):
    return x.to("meta") if isinstance(x, torch.Tensor) else x


def result_of(t, meta=False):
    r = {"dtype": dname(t.dtype), "sizes": list(t.shape)}
    if not meta:
        r["strides"] = list(t.stride())
        r["values"] = [enc(v) for v in t.flatten().tolist()]
    return r


def call(op, variant, ins, extra, out):
    f = torch.clamp if op == "clamp_t" else getattr(torch, op)
    if variant == "inplace":
        m = getattr(ins[0], ("clamp" if op == "clamp_t" else op) + "_")
        args = ins[1:]
    else:
        m = f
        args = ins
    kw = {}
    if op in ("clamp",):
        args = list(args) + [extra.get("min"), extra.get("max")]
    if op == "lerp":
        args = list(args) + [extra["weight"]]
    if variant == "out":
        kw["out"] = out
    return m(*args, **kw)


def record(cases, op, variant, specs, extra=None, out_spec=None, meta=False):
    extra = extra or {}
    case = {"op": op, "variant": variant, "inputs": specs}
    for k in ("min", "max", "weight"):
        if k in extra:
            case[k] = enc(extra[k]) if extra[k] is not None else None
    if out_spec is not None:
        case["out"] = out_spec
    if meta:
        case["meta"] = True
    ins = [rebuild(s) for s in specs]
    out = rebuild(out_spec)
    if meta:
        ins = [to_meta(x) for x in ins]
        out = to_meta(out)
    try:
        r = call(op, variant, ins, extra, out)
        if variant == "inplace":
            assert r is ins[0]
        if variant == "out":
            assert r is out
        case["result"] = result_of(r, meta)
    except Exception as e:  # noqa: BLE001
        case["error"] = err_text(e)
    cases.append(case)


def nums_for(op, d, role):
    return dict(nonzero=(op in DIVIDING and role == "other" and not d.is_floating_point),
                no_neg_zero=op in ("maximum", "minimum", "clamp", "clamp_t"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-o", "--output", default="test/golden/compare.json")
    args = ap.parse_args()
    cases = []

    # 1. every binary op over every dtype pair: [2, 3] against a broadcast [3]
    for op in BINARY:
        for da in DTYPES:
            for db in DTYPES:
                sa, _ = make_spec(da, [2, 3], **nums_for(op, da, "self"))
                sb, _ = make_spec(db, [3], **nums_for(op, db, "other"))
                record(cases, op, "fn", [sa, sb])

    # 2. layouts (transposed, strided, [2, 1] x [1, 3], 0-dim), Python scalars, in-place, out=, meta
    layouts = [("transposed", [3, 4], "contig", [3, 4]), ("contig", [2, 1], "contig", [1, 3]),
               ("strided", [5], "transposed", [1]), ("contig", [2, 2], "contig", []),
               ("contig", [], "contig", [4]), ("contig", [0, 3], "contig", [3])]
    scalars = [3, -2, 0, 2.5, -0.5, True, False, float("nan"), float("inf"), 300, -1]
    for op in BINARY:
        for (la, za, lb, zb) in layouts:
            for da, db in ((torch.float32, torch.float32), (torch.int64, torch.int32), (torch.float16, torch.float64),
                           (torch.bool, torch.bool), (torch.uint8, torch.uint8)):
                sa, _ = make_spec(da, za, la, **nums_for(op, da, "self"))
                sb, _ = make_spec(db, zb, lb, **nums_for(op, db, "other"))
                record(cases, op, "fn", [sa, sb])
        for d in DTYPES:
            for v in scalars:
                if op in DIVIDING and v in (0, False) and not isinstance(v, float) and not d.is_floating_point:
                    continue
                if op not in SCALAR_OVERLOAD:
                    continue  # Python rejects a number where the schema has no Scalar overload
                sa, _ = make_spec(d, [4], **nums_for(op, d, "self"))
                record(cases, op, "fn", [sa, wrapped(v)[0]])
        for da, db in ((torch.float32, torch.float32), (torch.int32, torch.int64), (torch.float32, torch.int64),
                       (torch.int64, torch.float32), (torch.uint8, torch.bool), (torch.bool, torch.bool),
                       (torch.float16, torch.float16), (torch.int64, torch.int64)):
            sa, _ = make_spec(da, [2, 3], **nums_for(op, da, "self"))
            sb, _ = make_spec(db, [3], **nums_for(op, db, "other"))
            if op not in NO_INPLACE:
                record(cases, op, "inplace", [sa, sb])
                bad, _ = make_spec(da, [3], **nums_for(op, da, "self"))
                sb2, _ = make_spec(db, [2, 3], **nums_for(op, db, "other"))
                record(cases, op, "inplace", [bad, sb2])
            for do in (torch.bool, torch.float32, torch.int64, torch.float64):
                so, _ = make_spec(do, [0])
                record(cases, op, "out", [sa, sb], out_spec=so)
            so, _ = make_spec(torch.float32, [3, 2], "transposed")
            record(cases, op, "out", [sa, sb], out_spec=so)
            record(cases, op, "fn", [sa, sb], meta=True)
            if op not in NO_INPLACE:
                record(cases, op, "inplace", [sa, sb], meta=True)
        if op in SCALAR_OVERLOAD:
            sa, _ = make_spec(torch.float32, [2, 3])
            record(cases, op, "fn", [sa, wrapped(2)[0]], meta=True)

    # integer division by zero
    for op in DIVIDING:
        for d in (torch.int32, torch.int64, torch.uint8):
            sa, _ = make_spec(d, [3])
            sb = {"dtype": dname(d), "sizes": [3], "strides": [1], "offset": 0, "storage": [1, 0, 2]}
            record(cases, op, "fn", [sa, sb])
            record(cases, op, "fn", [sa, wrapped(0)[0]])

    # 3. unary ops
    for op in UNARY:
        for d in DTYPES:
            for layout, sizes in (("contig", [2, 3]), ("transposed", [3, 2]), ("contig", []), ("strided", [4])):
                sa, _ = make_spec(d, sizes, layout)
                record(cases, op, "fn", [sa])
            sa, _ = make_spec(d, [5])
            record(cases, op, "inplace", [sa])
            for do in (torch.bool, torch.float32, torch.int64, torch.uint8):
                so, _ = make_spec(do, [0])
                record(cases, op, "out", [sa], out_spec=so)
            record(cases, op, "fn", [sa], meta=True)

    # 4. where
    for dc in (torch.bool, torch.uint8, torch.float32):
        for da in DTYPES:
            for db in DTYPES:
                if dc != torch.bool and (da, db) != (torch.float32, torch.float32):
                    continue
                sc, _ = make_spec(dc, [2, 1])
                sa, _ = make_spec(da, [2, 3], "transposed")
                sb, _ = make_spec(db, [3])
                record(cases, "where", "fn", [sc, sa, sb])
    for d in DTYPES:
        for v in (2, 2.5, True, float("nan")):
            sc, _ = make_spec(torch.bool, [4])
            sa, _ = make_spec(d, [4])
            record(cases, "where", "fn", [sc, sa, wrapped(v)[0]])
            record(cases, "where", "fn", [sc, wrapped(v)[0], sa])
    for v, w in ((1, 0), (1.5, 0), (True, False), (1, 2.5)):
        sc, _ = make_spec(torch.bool, [2, 2])
        record(cases, "where", "fn", [sc, wrapped(v)[0], wrapped(w)[0]])
    for da, db, do in ((torch.float32, torch.float32, torch.float32), (torch.int64, torch.float32, torch.float32),
                       (torch.int64, torch.int32, torch.int32), (torch.int64, torch.int32, torch.int64),
                       (torch.float32, torch.float64, torch.float64)):
        sc, _ = make_spec(torch.bool, [2, 3])
        sa, _ = make_spec(da, [2, 3])
        sb, _ = make_spec(db, [3])
        so, _ = make_spec(do, [0])
        record(cases, "where", "out", [sc, sa, sb], out_spec=so)
        record(cases, "where", "fn", [sc, sa, sb], meta=True)

    # 5. clamp with Scalar bounds
    bounds = [(0, 5), (None, 2), (-1, None), (0.5, 2.5), (2, 1), (None, None), (-1.5, None), (float("nan"), 1),
              (True, None)]
    for d in DTYPES:
        for lo, hi in bounds:
            for layout, sizes in (("contig", [2, 3]), ("transposed", [3, 2])):
                sa, _ = make_spec(d, sizes, layout, no_neg_zero=True)
                record(cases, "clamp", "fn", [sa], {"min": lo, "max": hi})
            sa, _ = make_spec(d, [4], no_neg_zero=True)
            record(cases, "clamp", "inplace", [sa], {"min": lo, "max": hi})
            for do in (torch.float32, torch.int64):
                so, _ = make_spec(do, [0])
                record(cases, "clamp", "out", [sa], {"min": lo, "max": hi}, out_spec=so)
        sa, _ = make_spec(d, [4])
        record(cases, "clamp", "fn", [sa], {"min": 0, "max": 1}, meta=True)

    # 6. clamp with Tensor bounds
    for d in DTYPES:
        for dm in (torch.float32, torch.int64, torch.float64, torch.uint8):
            for which in ("both", "min", "max"):
                sa, _ = make_spec(d, [2, 3], no_neg_zero=True)
                smin = make_spec(dm, [3], no_neg_zero=True)[0] if which != "max" else None
                smax = make_spec(dm, [2, 1], no_neg_zero=True)[0] if which != "min" else None
                record(cases, "clamp_t", "fn", [sa, smin, smax])
        sa, _ = make_spec(d, [2, 3], no_neg_zero=True)
        record(cases, "clamp_t", "fn", [sa, None, None])
        sa, _ = make_spec(d, [4], no_neg_zero=True)
        smin, _ = make_spec(d, [4], no_neg_zero=True)
        record(cases, "clamp_t", "inplace", [sa, smin, None])
        smin2, _ = make_spec(torch.float64, [4], no_neg_zero=True)
        record(cases, "clamp_t", "inplace", [sa, smin2, smin])
        so, _ = make_spec(torch.float32, [0])
        record(cases, "clamp_t", "out", [sa, smin, None], out_spec=so)
        record(cases, "clamp_t", "fn", [sa, smin, smin], meta=True)

    # 7. lerp with a Scalar weight
    for d in DTYPES:
        for w in (0.25, 0.5, 0.75, -1.0, 2.0, 0):
            sa, _ = make_spec(d, [2, 3])
            sb, _ = make_spec(d, [3])
            record(cases, "lerp", "fn", [sa, sb], {"weight": w})
            sa2, _ = make_spec(d, [3, 2], "transposed")
            sb2, _ = make_spec(d, [2])
            record(cases, "lerp", "fn", [sa2, sb2], {"weight": w})
        sa, _ = make_spec(d, [4])
        sb, _ = make_spec(torch.float32 if d != torch.float32 else torch.float64, [4])
        record(cases, "lerp", "fn", [sa, sb], {"weight": 0.5})
        record(cases, "lerp", "inplace", [sa, make_spec(d, [4])[0]], {"weight": 0.3})
        so, _ = make_spec(torch.float64, [0])
        record(cases, "lerp", "out", [sa, make_spec(d, [4])[0]], {"weight": 0.3}, out_spec=so)
        record(cases, "lerp", "fn", [sa, make_spec(d, [4])[0]], {"weight": 0.3}, meta=True)

    doc = {"generated_by": "tools/golden/gen_compare.py", "torch_version": torch.__version__, "cases": cases}
    with open(args.output, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {args.output}: {len(cases)} cases")


if __name__ == "__main__":
    main()
