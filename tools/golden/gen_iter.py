#!/usr/bin/env python3
"""Golden fixtures for aten-ts's TensorIterator: type promotion, broadcasting, output allocation
(shapes, strides, resizing, safe casting, in-place checks) and elementwise values.

Run with the reference torch build (2.13.0+cpu):

    $PYTHON tools/golden/gen_iter.py            # writes test/golden/iter.json
    $PYTHON tools/golden/gen_iter.py -o OUT.json

Everything recorded is read back from torch (dtypes, shapes, strides, values, warning and error texts).
Deterministic: a seeded RNG, no timestamps.

Operand specs (shared by the `layouts` and `values` sections), all sizes/strides/offsets in elements:
    {"dtype": "float32", "sizes": [2, 3], "strides": [1, 2], "offset": 0, "storage": [...]}
        a strided view (torch.as_strided) of a 1-D storage holding `storage` (values exact in the dtype)
    {"dtype": "int64", "wrapped": 3}     a Python scalar (int, float or bool) passed to the op
"""

import argparse
import json
import math
import random
import warnings

import torch

SEED = 20240917
DTYPES = [
    torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
    torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.complex64, torch.complex128,
]


def dname(d):
    return str(d).replace("torch.", "")


def err_text(e):
    return str(e).split("\nException raised from ")[0]


def warn_text(w):
    return str(w.message).split(" (Triggered internally at ")[0]


def one(d, dim):
    """A tensor of dtype d: 1-d (dim=True) or 0-dim."""
    return torch.ones(2, dtype=d) if dim else torch.ones((), dtype=d)


# ---------------------------------------------------------------------------------------------------
# Type promotion
# ---------------------------------------------------------------------------------------------------
def promotion():
    warnings.filterwarnings("ignore", message="ComplexHalf support is experimental")
    pairs = {}
    add = {}
    for kind, (da, db) in {
        "dim-dim": (True, True),
        "dim-zerodim": (True, False),
        "zerodim-dim": (False, True),
        "zerodim-zerodim": (False, False),
    }.items():
        pairs[kind] = [[dname(torch.result_type(one(a, da), one(b, db))) for b in DTYPES] for a in DTYPES]
        row = []
        for a in DTYPES:
            cells = []
            for b in DTYPES:
                try:
                    cells.append(dname(torch.add(one(a, da), one(b, db)).dtype))
                except Exception as e:  # noqa: BLE001
                    cells.append("error: " + err_text(e))
            row.append(cells)
        add[kind] = row
    scalars = {"int": 3, "float": 2.5, "bool": True, "complex": 1 + 2j}
    with_scalar = {}
    for sk, sv in scalars.items():
        for dim in (True, False):
            kind = ("dim-" if dim else "zerodim-") + "py" + sk
            with_scalar[kind] = [dname(torch.result_type(one(a, dim), sv)) for a in DTYPES]
            cells = []
            for a in DTYPES:
                try:
                    cells.append(dname(torch.add(one(a, dim), sv).dtype))
                except Exception as e:  # noqa: BLE001
                    cells.append("error: " + err_text(e))
            add["%s" % kind] = cells
    scalar_scalar = {}
    for ka, va in scalars.items():
        for kb, vb in scalars.items():
            scalar_scalar[ka + "-" + kb] = dname(torch.result_type(va, vb))
    # out= dtype checks for add (safe casting): both inputs of dtype a (1-d), out of dtype o.
    out_cast = []
    for a in DTYPES:
        row = []
        for o in DTYPES:
            try:
                torch.add(one(a, True), one(a, True), out=torch.empty(2, dtype=o))
                row.append("ok")
            except Exception as e:  # noqa: BLE001
                row.append("error: " + err_text(e))
        out_cast.append(row)
    # Float ops (promote_integer_inputs_to_float): true_divide and sqrt.
    div = [[dname(torch.true_divide(one(a, True), one(b, True)).dtype) for b in DTYPES] for a in DTYPES]
    sqrt = [dname(torch.sqrt(one(a, True)).dtype) if a != torch.bool else dname(torch.sqrt(one(a, True)).dtype) for a in DTYPES]
    return {
        "dtypes": [dname(d) for d in DTYPES],
        "result_type": pairs,
        "result_type_scalar": with_scalar,
        "result_type_scalar_scalar": scalar_scalar,
        "add_dtype": add,
        "add_out_cast": out_cast,
        "true_divide_dtype": div,
        "sqrt_dtype": sqrt,
    }


# ---------------------------------------------------------------------------------------------------
# Broadcasting
# ---------------------------------------------------------------------------------------------------
def broadcasting(rng):
    cases = []
    picked = [
        ([2, 3], [3]), ([2, 3], [4]), ([2, 3], [2, 4]), ([1], [5]), ([], [5]), ([], []), ([0], [1]), ([0], [3]),
        ([2, 0], [2, 1]), ([2, 0], [0]), ([3, 1, 4], [2, 1]), ([5, 1, 3], [4, 1]), ([1, 0], [4, 1]),
        ([2, 3, 4], [3, 1]), ([2, 3, 4], [2, 1, 1]), ([2, 3, 4], [5, 1, 1]), ([8, 1, 6, 1], [7, 1, 5]),
        ([1, 1, 1], []), ([3], [0]), ([2, 1], [1, 0]),
    ]
    for a, b in picked:
        cases.append([a, b])
    sizes = [0, 1, 1, 2, 3, 4]
    for _ in range(200):
        shapes = []
        for _k in range(rng.choice([2, 2, 2, 3])):
            nd = rng.randint(0, 4)
            shapes.append([rng.choice(sizes) for _ in range(nd)])
        if rng.random() < 0.6:  # make most of them compatible
            base = max(shapes, key=len)
            shapes = [[1 if rng.random() < 0.4 else base[len(base) - len(s) + i] for i in range(len(s))] for s in shapes]
        cases.append(shapes)
    out = []
    for shapes in cases:
        ts = [torch.empty(s) for s in shapes]
        try:
            if len(ts) == 2:
                r = torch.add(ts[0], ts[1])
            else:
                r = torch.addcmul(ts[0], ts[1], ts[2])
            out.append({"shapes": shapes, "result": list(r.shape)})
        except Exception as e:  # noqa: BLE001
            out.append({"shapes": shapes, "error": err_text(e)})
    return out


# ---------------------------------------------------------------------------------------------------
# Operand specs
# ---------------------------------------------------------------------------------------------------
def storage_values(dtype, n, rng, small=True):
    if dtype == torch.bool:
        return [rng.random() < 0.5 for _ in range(n)]
    if dtype in (torch.uint8,):
        return [rng.randint(0, 255 if not small else 20) for _ in range(n)]
    if dtype in (torch.int8,):
        return [rng.randint(-128, 127) if not small else rng.randint(-10, 10) for _ in range(n)]
    if dtype.is_floating_point:
        return [float(rng.randint(-64, 64)) / (1 if small else 4) for _ in range(n)]
    return [rng.randint(-100, 100) for _ in range(n)]


def make_operand(spec):
    if "wrapped" in spec:
        w = spec["wrapped"]
        return complex(w[0], w[1]) if isinstance(w, list) else w
    dtype = getattr(torch, spec["dtype"])
    data = spec["storage"]
    if dtype.is_complex:
        data = [complex(re, im) for re, im in data]
    st = torch.tensor(data, dtype=dtype)
    return torch.as_strided(st, spec["sizes"], spec["strides"], spec["offset"])


def random_layout(rng, shape, dtype, allow_expand=True):
    """Sizes/strides/offset for a view with `shape`: permuted, sliced (gaps), expanded (stride 0)."""
    nd = len(shape)
    perm = list(range(nd))
    if rng.random() < 0.5:
        rng.shuffle(perm)
    gaps = [rng.choice([1, 1, 1, 2]) for _ in range(nd)]
    strides = [0] * nd
    s = rng.choice([1, 1, 1, 2])
    for d in reversed(perm):  # perm[-1] is innermost
        strides[d] = s
        s *= max(shape[d], 1) * gaps[d]
    for d in range(nd):
        if allow_expand and shape[d] > 1 and rng.random() < 0.15:
            strides[d] = 0
        if shape[d] == 1 and rng.random() < 0.5:
            strides[d] = rng.choice([1, 7, 100])
    offset = rng.choice([0, 0, 0, 1, 3])
    extent = offset + sum((sz - 1) * st for sz, st in zip(shape, strides)) + 1 if all(x > 0 for x in shape) else offset + 1
    return {"dtype": dname(dtype), "sizes": list(shape), "strides": strides, "offset": offset,
            "storage": storage_values(dtype, extent, rng)}


def tensor_result(t):
    r = {"dtype": dname(t.dtype), "sizes": list(t.shape), "strides": list(t.stride())}
    if t.device.type != "meta":
        vals = t.reshape(-1).tolist()
        if t.dtype == torch.bool:
            vals = [1 if v else 0 for v in vals]
        if t.dtype.is_complex:
            vals = [[v.real, v.imag] for v in vals]
        r["values"] = vals
    return r


OPS = {
    # name: (arity, torch call)
    "add": (2, lambda a, b, **kw: torch.add(a, b, **kw)),
    "sub": (2, lambda a, b, **kw: torch.sub(a, b, **kw)),
    "mul": (2, lambda a, b, **kw: torch.mul(a, b, **kw)),
    "eq": (2, lambda a, b, **kw: torch.eq(a, b, **kw)),
    "lt": (2, lambda a, b, **kw: torch.lt(a, b, **kw)),
    "neg": (1, lambda a, **kw: torch.neg(a, **kw)),
    "sqrt": (1, lambda a, **kw: torch.sqrt(a, **kw)),
    "addcmul": (3, lambda a, b, c, **kw: torch.addcmul(a, b, c, **kw)),
}


def run_case(case):
    """Runs one op case; returns the recorded result (shape/strides/values or error, warnings)."""
    ins = [make_operand(s) for s in case["inputs"]]
    kw = {}
    out_t = None
    if "out" in case:
        out_t = make_operand(case["out"])
        kw["out"] = out_t
    res = {}
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        try:
            if case.get("inplace"):
                r = getattr(ins[0], case["op"] + "_")(*ins[1:])
            else:
                r = OPS[case["op"]][1](*ins, **kw)
            res["result"] = tensor_result(r)
            if out_t is not None:
                res["out_is_result"] = r is out_t
        except Exception as e:  # noqa: BLE001
            res["error"] = err_text(e)
    msgs = [warn_text(w) for w in ws]
    if msgs:
        res["warnings"] = msgs
    return res


def shape_for(rng, nd):
    return [rng.choice([1, 2, 3, 4]) for _ in range(nd)]


def layouts(rng):
    """Output strides and values of functional, out= and in-place elementwise ops on strided inputs."""
    cases = []
    ops_by_arity = {1: ["neg"], 2: ["add", "add", "mul", "sub"], 3: ["addcmul"]}
    for i in range(260):
        nd = rng.randint(0, 4)
        full = shape_for(rng, nd)
        if rng.random() < 0.05 and nd > 0:
            full[rng.randrange(nd)] = 0
        arity = rng.choice([1, 2, 2, 2, 2, 3])
        op = rng.choice(ops_by_arity[arity])
        dtypes = [torch.float32] * arity
        if rng.random() < 0.2:
            dtypes = [rng.choice([torch.float32, torch.float64, torch.int64, torch.int32]) for _ in range(arity)]
            if op == "neg":
                dtypes = dtypes[:1]
        inputs = []
        for k in range(arity):
            # Broadcast some operands: drop leading dims or set sizes to 1.
            shape = list(full)
            if k > 0 or rng.random() < 0.3:
                if rng.random() < 0.3 and nd > 0:
                    shape = shape[rng.randint(0, nd):]
                shape = [1 if (s > 1 and rng.random() < 0.25) else s for s in shape]
            inputs.append(random_layout(rng, shape, dtypes[k], allow_expand=True))
        case = {"op": op, "inputs": inputs}
        mode = rng.random()
        if mode < 0.2:
            # out= of the right shape with its own layout (kept), or of the wrong shape (resized).
            ref = torch.broadcast_shapes(*[tuple(s["sizes"]) for s in inputs]) if True else None
            ref = list(ref)
            if rng.random() < 0.5:
                case["out"] = random_layout(rng, ref, torch.float32 if dtypes[0] != torch.float64 else torch.float64, allow_expand=False)
            else:
                case["out"] = random_layout(rng, shape_for(rng, rng.randint(0, 2)), torch.float64, allow_expand=False)
        elif mode < 0.3 and op != "addcmul":
            case["inplace"] = True
        cases.append(case)
    # Hand-picked layouts: transposes, channels-last, expanded, same strides non-contiguous.
    def t(sizes, strides, offset=0, dtype=torch.float32):
        extent = offset + sum((a - 1) * b for a, b in zip(sizes, strides)) + 1 if all(x > 0 for x in sizes) else offset + 1
        return {"dtype": dname(dtype), "sizes": sizes, "strides": strides, "offset": offset,
                "storage": storage_values(dtype, extent, rng)}
    picked = [
        {"op": "add", "inputs": [t([3, 4], [1, 3]), t([3, 4], [4, 1])]},
        {"op": "add", "inputs": [t([3, 4], [4, 1]), t([3, 4], [1, 3])]},
        {"op": "add", "inputs": [t([3, 4], [1, 3]), t([3, 4], [1, 3])]},
        {"op": "add", "inputs": [t([3, 4], [1, 3]), t([4], [1])]},
        {"op": "add", "inputs": [t([2, 3, 2, 2], [12, 1, 6, 3]), t([2, 3, 2, 2], [12, 1, 6, 3])]},
        {"op": "add", "inputs": [t([2, 3, 2, 2], [12, 1, 6, 3]), t([3, 1, 1], [1, 1, 1])]},
        {"op": "add", "inputs": [t([2, 3, 2, 2], [12, 4, 2, 1]), t([2, 3, 2, 2], [12, 1, 6, 3])]},
        {"op": "add", "inputs": [t([2, 1, 2, 2], [4, 1, 2, 1]), t([2, 1, 2, 2], [4, 4, 2, 1])]},
        {"op": "add", "inputs": [t([2, 3, 1, 1], [3, 1, 3, 3]), t([2, 3, 1, 1], [3, 1, 3, 3])]},
        {"op": "add", "inputs": [t([3, 2], [2, 1]), t([3, 2], [1, 3])], "out": t([3, 2], [1, 3])},
        {"op": "add", "inputs": [t([3, 2], [1, 3]), t([3, 2], [1, 3])], "out": t([5], [1])},
        {"op": "add", "inputs": [t([3, 2], [1, 3]), t([3, 2], [1, 3])], "out": t([0], [1])},
        {"op": "add", "inputs": [t([2, 4], [4, 1]), t([4], [1])], "out": t([5], [1])},
        {"op": "add", "inputs": [t([2, 4], [1, 2]), t([4], [1])], "out": t([2, 4], [4, 1])},
        {"op": "add", "inputs": [t([4, 3], [3, 1]), t([4, 3], [3, 1])], "out": t([4, 3], [1, 4])},
        {"op": "add", "inputs": [t([3], [1]), t([2, 3], [3, 1])], "inplace": True},
        {"op": "add", "inputs": [t([2, 3], [1, 2]), t([3], [1])], "inplace": True},
        {"op": "add", "inputs": [t([3, 3], [3, 1]), t([3, 3], [3, 1])], "out": t([3, 3], [0, 1])},
        {"op": "add", "inputs": [t([2, 2], [2, 1]), t([2, 2], [2, 1])], "out": t([2, 2], [2, 1], dtype=torch.int64)},
        {"op": "add", "inputs": [t([2, 2], [2, 1], dtype=torch.int64), t([2, 2], [2, 1], dtype=torch.int64)], "out": t([2, 2], [2, 1])},
        {"op": "add", "inputs": [t([2, 2], [2, 1], dtype=torch.int64), t([2, 2], [2, 1], dtype=torch.int64)], "out": t([4], [1], dtype=torch.float16)},
        {"op": "neg", "inputs": [t([3], [1])], "out": t([3], [1], dtype=torch.float64)},
        {"op": "eq", "inputs": [t([2, 3], [3, 1]), t([3], [1])], "out": t([2, 3], [3, 1])},
        {"op": "lt", "inputs": [t([2, 3], [1, 2]), t([3], [1])]},
        {"op": "add", "inputs": [t([0, 3], [3, 1]), t([3], [1])]},
        {"op": "add", "inputs": [t([2, 0, 3], [1, 6, 2]), t([2, 0, 3], [1, 6, 2])]},
        {"op": "add", "inputs": [t([], []), t([], [])]},
        {"op": "add", "inputs": [t([], []), t([2, 3], [1, 2])]},
        {"op": "add", "inputs": [t([1, 1], [5, 9]), t([1, 1], [1, 1])]},
    ]
    cases.extend(picked)
    # Partial and internal overlap.
    st = storage_values(torch.float32, 6, rng)
    cases.append({"op": "add", "inplace": True, "inputs": [
        {"dtype": "float32", "sizes": [5], "strides": [1], "offset": 1, "storage": st},
        {"dtype": "float32", "sizes": [5], "strides": [1], "offset": 0, "storage": st}], "same_storage": True})
    cases.append({"op": "add", "inplace": True, "inputs": [
        {"dtype": "float32", "sizes": [3], "strides": [0], "offset": 0, "storage": [1.0]},
        {"dtype": "float32", "sizes": [3], "strides": [1], "offset": 0, "storage": [1.0, 2.0, 3.0]}]})
    out = []
    for case in cases:
        if case.get("same_storage"):
            # Two views of one storage: build them explicitly.
            dtype = getattr(torch, case["inputs"][0]["dtype"])
            base = torch.tensor(case["inputs"][0]["storage"], dtype=dtype)
            views = [torch.as_strided(base, s["sizes"], s["strides"], s["offset"]) for s in case["inputs"]]
            try:
                views[0].add_(views[1])
                rec = {"result": tensor_result(views[0])}
            except Exception as e:  # noqa: BLE001
                rec = {"error": err_text(e)}
        else:
            rec = run_case(case)
        out.append({**case, **rec})
    return out


# ---------------------------------------------------------------------------------------------------
# Values across dtypes: conversions, wrapping, promotion with scalars
# ---------------------------------------------------------------------------------------------------
def exact_values(dtype, rng, n):
    if dtype == torch.bool:
        return [rng.random() < 0.5 for _ in range(n)]
    if dtype == torch.uint8:
        return [rng.randint(0, 255) for _ in range(n)]
    if dtype == torch.int8:
        return [rng.randint(-128, 127) for _ in range(n)]
    if dtype == torch.int16:
        return [rng.randint(-32768, 32767) for _ in range(n)]
    if dtype == torch.int32:
        return [rng.randint(-(2 ** 31), 2 ** 31 - 1) for _ in range(n)]
    if dtype == torch.int64:
        return [rng.randint(-(2 ** 40), 2 ** 40) for _ in range(n)]
    if dtype == torch.float16:
        return [float(torch.tensor(rng.uniform(-60000, 60000) * rng.choice([1, 1e-3, 1e-6]), dtype=torch.float16)) for _ in range(n)]
    if dtype == torch.bfloat16:
        return [float(torch.tensor(rng.uniform(-1e6, 1e6) * rng.choice([1, 1e-3, 1e-30, 1e30]), dtype=torch.bfloat16)) for _ in range(n)]
    if dtype == torch.float32:
        return [float(torch.tensor(rng.uniform(-1e6, 1e6) * rng.choice([1, 1e-3, 1e-30, 1e30]), dtype=torch.float32)) for _ in range(n)]
    return [rng.uniform(-1e6, 1e6) * rng.choice([1, 1e-3, 1e-300, 1e300]) for _ in range(n)]


REAL = [d for d in DTYPES if not d.is_complex]
REDUCED = (torch.float16, torch.bfloat16)


def nonneg(dtype, x):
    """|x|, kept in range for the signed integer types."""
    if isinstance(x, bool):
        return x
    return min(abs(x), torch.iinfo(dtype).max) if not dtype.is_floating_point else abs(x)


def values(rng):
    cases = []

    def contig(dtype, n, vals=None):
        return {"dtype": dname(dtype), "sizes": [n], "strides": [1], "offset": 0,
                "storage": vals if vals is not None else exact_values(dtype, rng, n)}

    def zerodim(dtype, v):
        return {"dtype": dname(dtype), "sizes": [], "strides": [], "offset": 0, "storage": [v]}

    # Every pair of real dtypes for add/mul/eq on 1-d tensors (conversions to the common dtype).
    for a in REAL:
        for b in REAL:
            for op in ("add", "mul", "lt"):
                if op == "mul" and (a == torch.int64 or b == torch.int64):
                    continue  # int64 products overflow 2^53 (see Note [Typed storage of each dtype])
                if op == "mul" and (a == torch.int32 and b == torch.int32):
                    continue  # int32 products need Math.imul, a kernel concern
                cases.append({"op": op, "inputs": [contig(a, 6), contig(b, 6)]})
    # 1-d tensor with a 0-dim tensor and with Python scalars (category rules, scalar casting).
    specials = {
        "int": [3, 1000, -129, 2 ** 33, 0],
        "float": [2.5, 0.1, -1e10, 1e300, 70000.0],
        "bool": [True, False],
    }
    for a in REAL:
        for op in ("add", "mul", "lt", "eq"):
            for kind, vs in specials.items():
                for v in vs:
                    if op == "mul" and a in (torch.int64, torch.int32) and kind == "int" and abs(v) > 1000:
                        continue
                    if a in (torch.float16, torch.bfloat16) and kind == "float" and op in ("add", "mul"):
                        continue  # reduced-float kernels use the scalar in float (opmath); see README
                    cases.append({"op": op, "inputs": [contig(a, 5), {"dtype": "scalar", "wrapped": v}]})
        for b in REAL:
            if a in REDUCED and b not in (torch.bool, torch.uint8, torch.int8, a):
                continue  # reduced-float kernels read a scalar operand in float (opmath); see README
            v = exact_values(b, rng, 1)[0]
            cases.append({"op": "add", "inputs": [contig(a, 4), zerodim(b, v)]})
            cases.append({"op": "add", "inputs": [zerodim(b, v), contig(a, 4)]})
    # Unary ops: neg (same dtype), sqrt (integers to float).
    for a in REAL:
        if a != torch.bool:
            cases.append({"op": "neg", "inputs": [contig(a, 6)]})
        cases.append({"op": "sqrt", "inputs": [contig(a, 6, [nonneg(a, x) for x in exact_values(a, rng, 6)])]})
    # out= of other dtypes (cast_common_dtype_to_outputs), including float -> int errors.
    for a in REAL:
        for o in REAL:
            cases.append({"op": "add", "inputs": [contig(a, 4), contig(a, 4)], "out": contig(o, 4)})
    out = []
    for case in cases:
        for s in case["inputs"]:
            if s["dtype"] == "scalar":
                s["dtype"] = "bool" if isinstance(s["wrapped"], bool) else ("int64" if isinstance(s["wrapped"], int) else "float64")
        out.append({**case, **run_case(case)})
    return out


def complex_values(rng):
    """Complex elementwise results: add/mul/eq of complex64/complex128 with real tensors, complex scalars, out=."""
    def cvals(dtype, n):
        if dtype.is_complex:
            vals = [[float(rng.randint(-8, 8)) / 2, float(rng.randint(-8, 8)) / 4] for _ in range(n)]
            return vals
        return storage_values(dtype, n, rng)

    def contig(dtype, n):
        return {"dtype": dname(dtype), "sizes": [n], "strides": [1], "offset": 0, "storage": cvals(dtype, n)}

    cases = []
    cdt = [torch.complex64, torch.complex128]
    others = [torch.complex64, torch.complex128, torch.float32, torch.float64, torch.int64, torch.bool, torch.float16]
    for a in cdt:
        for b in others:
            for op in ("add", "mul", "sub", "eq"):
                if op == "sub" and b == torch.bool:
                    continue
                cases.append({"op": op, "inputs": [contig(a, 4), contig(b, 4)]})
                cases.append({"op": op, "inputs": [contig(b, 4), contig(a, 4)]})
        for w in ([1.5, -2.0], [0.0, 1.0]):
            cases.append({"op": "mul", "inputs": [contig(a, 3), {"dtype": "complex128", "wrapped": w}]})
        cases.append({"op": "add", "inputs": [contig(a, 3), contig(a, 3)], "out": contig(torch.complex128, 3)})
        cases.append({"op": "add", "inputs": [contig(a, 3), contig(a, 3)], "out": contig(torch.float32, 3)})
        cases.append({"op": "neg", "inputs": [contig(a, 3)]})
        cases.append({"op": "sqrt", "inputs": [contig(a, 3)]})
    for b in (torch.float32, torch.int64):
        cases.append({"op": "mul", "inputs": [contig(b, 3), {"dtype": "complex128", "wrapped": [0.5, 2.0]}]})
        cases.append({"op": "add", "inputs": [contig(b, 3), contig(b, 3)], "out": contig(torch.complex64, 3)})
    # Strided complex: a transposed complex view plus a broadcast row.
    cases.append({"op": "mul", "inputs": [
        {"dtype": "complex64", "sizes": [2, 3], "strides": [1, 2], "offset": 1, "storage": cvals(torch.complex64, 7)},
        {"dtype": "complex64", "sizes": [3], "strides": [2], "offset": 0, "storage": cvals(torch.complex64, 5)}]})
    return [{**c, **run_case(c)} for c in cases]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-o", "--output", default="test/golden/iter.json")
    args = ap.parse_args()
    rng = random.Random(SEED)
    torch.manual_seed(SEED)
    data = {
        "generated_by": "tools/golden/gen_iter.py",
        "torch_version": torch.__version__,
        "seed": SEED,
        "promotion": promotion(),
        "broadcast": broadcasting(rng),
        "layouts": layouts(rng),
        "values": values(rng),
        "complex": complex_values(rng),
    }

    def clean(x):
        if isinstance(x, float) and (math.isnan(x) or math.isinf(x)):
            return "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")
        if isinstance(x, dict):
            return {k: clean(v) for k, v in x.items()}
        if isinstance(x, list):
            return [clean(v) for v in x]
        return x

    with open(args.output, "w") as f:
        json.dump(clean(data), f, separators=(",", ":"), allow_nan=False)
        f.write("\n")


if __name__ == "__main__":
    main()
