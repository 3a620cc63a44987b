"""Generates test/golden/printing.json: PyTorch's repr(tensor) (torch/_tensor_str.py) for a deterministic
set of tensors, dtypes, devices, autograd states, print options and default dtypes.

Run from the repository root with the reference wheel:
    $PYTHON tools/golden/gen_printing.py [--out PATH]

Each case stores everything the TypeScript printer needs to rebuild the tensor (dtype, sizes, flat row-major
values, device, requires_grad, grad_fn name, print options, default dtype) and the exact repr. Values are encoded
so they round-trip exactly: ints and bools as JSON ints/bools, floats as Python's shortest round-trip repr (the
float32/float16/bfloat16 element widened to a double), non-finite floats as "nan"/"inf"/"-inf", complex numbers
as [re, im] pairs. Meta tensors have values null. A threshold of inf is stored as the string "inf".
"""

import argparse
import json
import math
import os
import sys

import torch

OUT = "test/golden/printing.json"
SEED = 20240613

DTYPE_NAMES = {
    torch.float32: "float32",
    torch.float64: "float64",
    torch.float16: "float16",
    torch.bfloat16: "bfloat16",
    torch.int64: "int64",
    torch.int32: "int32",
    torch.int16: "int16",
    torch.int8: "int8",
    torch.uint8: "uint8",
    torch.bool: "bool",
    torch.complex64: "complex64",
    torch.complex128: "complex128",
}

OPTION_KEYS = ("precision", "threshold", "edgeitems", "linewidth", "sci_mode", "profile")

cases = []


def enc_float(x):
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def enc(v):
    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        if abs(v) > 2**53:
            raise ValueError(f"int value {v} is not exactly representable as a JS number")
        return v
    if isinstance(v, float):
        return enc_float(v)
    if isinstance(v, complex):
        return [enc_float(v.real), enc_float(v.imag)]
    raise TypeError(f"unexpected element {v!r}")


def add(name, t, opts=None, default_dtype=torch.float32):
    opts = dict(opts or {})
    for k in opts:
        if k not in OPTION_KEYS:
            raise KeyError(f"unknown print option {k!r} in case {name!r}")
    if any(c["name"] == name for c in cases):
        raise ValueError(f"duplicate case name {name!r}")
    torch.set_printoptions(profile="default")
    torch.set_default_dtype(default_dtype)
    try:
        torch.set_printoptions(**opts)
        text = repr(t)
        assert str(t) == text
    finally:
        torch.set_printoptions(profile="default")
        torch.set_default_dtype(torch.float32)
    if t.device.type == "meta":
        values = None
    else:
        values = [enc(v) for v in t.detach().reshape(-1).tolist()]
    grad_fn = type(t.grad_fn).__name__ if t.grad_fn is not None else None
    stored_opts = {k: ("inf" if isinstance(v, float) and math.isinf(v) else v) for k, v in opts.items()}
    cases.append(
        {
            "name": name,
            "dtype": DTYPE_NAMES[t.dtype],
            "sizes": list(t.shape),
            "device": str(t.device),
            "requires_grad": t.requires_grad,
            "grad_fn": grad_fn,
            "is_leaf": t.is_leaf,
            "default_dtype": DTYPE_NAMES[default_dtype],
            "options": stored_opts,
            "values": values,
            "repr": text,
        }
    )


def T(data, dtype=torch.float32, **kw):
    return torch.tensor(data, dtype=dtype, **kw)


nan, inf = math.nan, math.inf


def build():
    g = torch.Generator().manual_seed(SEED)

    def randn(*shape, dtype=torch.float32):
        return torch.randn(*shape, generator=g, dtype=torch.float64).to(dtype)

    def randint(lo, hi, *shape, dtype=torch.int64):
        return torch.randint(lo, hi, shape, generator=g, dtype=torch.int64).to(dtype)

    def sixteenths(*shape, scale=100.0, dtype=torch.float32):
        # Short exact reprs keep the big fixtures small: k/16 for random k.
        return (randn(*shape, dtype=torch.float64) * scale).round().div(16).to(dtype)

    # ---- scalars (0-dim) ----
    for i, v in enumerate([0.5, 1.0, -0.0, 0.0, nan, inf, -inf, 1e-5, 1e10, 123.456, 3.14159265, -2.5e-7, 1e8, 1e9]):
        add(f"scalar_f32_{i}", T(v))
    for i, v in enumerate([0.1, -1234.5678, 1e300, 5e-324, 2.0**60]):
        add(f"scalar_f64_{i}", T(v, torch.float64))
    add("scalar_f16", T(0.1, torch.float16))
    add("scalar_bf16", T(3.3, torch.bfloat16))
    for i, (v, dt) in enumerate([(7, torch.int64), (-3, torch.int32), (255, torch.uint8), (-128, torch.int8),
                                 (2**53 - 1, torch.int64), (-(2**31), torch.int32), (1234, torch.int16)]):
        add(f"scalar_int_{i}", T(v, dt))
    add("scalar_bool_true", T(True, torch.bool))
    add("scalar_bool_false", T(False, torch.bool))
    for i, v in enumerate([1 + 2j, -1 - 0j, complex(0.0, -0.0), complex(nan, inf), 1.5 - 2.25j, 1e-5 + 3j]):
        add(f"scalar_c64_{i}", T(v, torch.complex64))
    add("scalar_c128", T(0.1 + 1e10j, torch.complex128))
    add("scalar_grad", T(2.5, requires_grad=True))
    add("scalar_prec2", T(3.14159265), {"precision": 2})
    add("scalar_sci", T(3.14159265), {"sci_mode": True})
    add("scalar_threshold0", T(1.25), {"threshold": 0})

    # ---- empty ----
    add("empty_f32", T([]))
    add("empty_f32_0x3", torch.empty(0, 3))
    add("empty_f32_2x0x3", torch.empty(2, 0, 3))
    add("empty_i64", T([], torch.int64))
    add("empty_i64_0x3", torch.empty(0, 3, dtype=torch.int64))
    add("empty_bool", T([], torch.bool))
    add("empty_c64", T([], torch.complex64))
    add("empty_f64", T([], torch.float64))
    add("empty_i32_3x0", torch.empty(3, 0, dtype=torch.int32))
    add("empty_grad", torch.empty(0, requires_grad=True))
    add("empty_f64_default_f64", T([], torch.float64), default_dtype=torch.float64)
    add("empty_f32_default_f64", torch.empty(0, 2), default_dtype=torch.float64)
    add("empty_edge0", T([]), {"edgeitems": 0})

    # ---- 1-D floats ----
    add("f32_arange5", torch.arange(5, dtype=torch.float32))
    add("f32_half_steps", torch.arange(-3, 3, dtype=torch.float32) / 2)
    add("f32_linspace7", torch.linspace(0, 1, 7))
    add("f32_linspace_neg", torch.linspace(-5, 5, 9))
    add("f32_ratio_gt_1000", T([1.0, 1000.5]))
    add("f32_ratio_eq_1000", T([1.5, 1500.0]))
    add("f32_ratio_int_gt_1000", T([1.0, 1001.0]))
    add("f32_ratio_int_eq_1000", T([1.0, 1000.0]))
    add("f32_max_gt_1e8", T([1.5e8, 2.5e8]))
    add("f32_int_gt_1e8", T([1e9, 2e9]))
    add("f32_min_lt_1e-4", T([5e-5, 6e-5]))
    add("f32_min_eq_1e-4", T([1e-4, 2e-4]))
    add("f32_neg_sci", T([-1e-5, 2.5, -300.0]))
    add("f32_nan_inf_mix", T([nan, inf, -inf, 1.5, -2.25]))
    add("f32_int_nan_inf", T([nan, inf, -inf, 1.0, 20.0]))
    add("f32_all_nan", T([nan, nan]))
    add("f32_nonfinite_only", T([nan, -inf, inf]))
    add("f32_zero_and_nan", T([0.0, nan, -0.0]))
    add("f32_zeros", torch.zeros(4))
    add("f32_neg_zero", T([-0.0, 1.5, 0.0]))
    add("f32_neg_zero_int", T([-0.0, 1.0, 0.0]))
    add("f32_neg_zero_sci", T([-0.0, 1e-6, 1.0]))
    add("f32_big_small", T([3.4e38, 1.2e-38, 1.0]))
    add("f32_subnormal", T([1e-45, 1.0]))
    add("f32_ties_32nds", torch.arange(0, 16, dtype=torch.float32) / 32)
    add("f32_ties_64ths", torch.arange(1, 12, dtype=torch.float32) / 64 + 1)
    add("f32_round_up_carry", T([9.99995, 0.99999, 99.99996]))
    add("f32_sci_carry", T([9.99995e-5, 1.0]))
    add("f32_randn8", randn(8))
    add("f32_randn_scaled", randn(6) * 1e4)
    add("f32_ones_int", torch.ones(3) * torch.tensor([1.0, -10.0, 100.0]))
    add("f32_minus_one", T([-1.0, 0.0, 1.0]))
    add("f32_one_elem", T([42.0]))
    add("f32_one_elem_frac", T([0.001]))
    add("f32_minus_tiny_round", T([-0.00001, 0.5]))

    # ---- 1-D float64 / float16 / bfloat16 ----
    add("f64_linspace", torch.linspace(0, 1, 5, dtype=torch.float64))
    add("f64_thirds", torch.arange(1, 7, dtype=torch.float64) / 3)
    add("f64_huge", T([1e300, -1e-300, 1.0], torch.float64))
    add("f64_subnormal", T([5e-324, 1.0], torch.float64))
    add("f64_pow2_60", T([2.0**60, 1.0], torch.float64))
    add("f64_randn", randn(7, dtype=torch.float64))
    add("f16_linspace", torch.linspace(0, 1, 6, dtype=torch.float16))
    add("f16_max", T([65504.0, -65504.0, 1.0], torch.float16))
    add("f16_subnormal", T([6e-8, 1.0], torch.float16))
    add("f16_randn", randn(9, dtype=torch.float16))
    add("f16_ints", T([1.0, 2.0, 2048.0, -7.0], torch.float16))
    add("f16_ties", torch.arange(0, 10, dtype=torch.float16) / 64)
    add("bf16_linspace", torch.linspace(-1, 1, 7, dtype=torch.bfloat16))
    add("bf16_randn", randn(9, dtype=torch.bfloat16))
    add("bf16_large", T([3e38, 1.0, 1e-30], torch.bfloat16))
    add("bf16_ints", T([256.0, 257.0, -3.0], torch.bfloat16))

    # ---- ints, bool ----
    add("i64_arange", torch.arange(10))
    add("i64_neg", T([-5, 0, 17, -123456], torch.int64))
    add("i64_large", T([2**53 - 1, -(2**53 - 1), 0], torch.int64))
    add("i32_extremes", T([2**31 - 1, -(2**31), 0], torch.int32))
    add("i16_extremes", T([32767, -32768, 5], torch.int16))
    add("i8_extremes", T([127, -128, 0, 5], torch.int8))
    add("u8_values", T([0, 1, 128, 255], torch.uint8))
    add("i64_randint", randint(-1000, 1000, 12))
    add("bool_mix", T([True, False, True], torch.bool))
    add("bool_all_true", T([True, True], torch.bool))
    add("bool_2d", T([[True, False], [False, False]], torch.bool))
    add("i32_2d", torch.arange(12, dtype=torch.int32).reshape(3, 4) - 5)

    # ---- multi-dim ----
    add("f32_2x3", torch.arange(6, dtype=torch.float32).reshape(2, 3))
    add("f32_2x3_frac", torch.arange(6, dtype=torch.float32).reshape(2, 3) / 7)
    add("f32_3x1", T([[1.5], [2.5], [-3.5]]))
    add("f32_1x1", T([[7.0]]))
    add("f32_2x3x4", torch.arange(24, dtype=torch.float32).reshape(2, 3, 4))
    add("f32_randn_3x4", randn(3, 4))
    add("f32_randn_2x2x2x3", randn(2, 2, 2, 3))
    add("i64_2x3x2x2", torch.arange(24).reshape(2, 3, 2, 2))
    add("f32_4d_sci", randn(2, 1, 2, 2) * 1e-5)
    add("f64_3x3", randn(3, 3, dtype=torch.float64))
    add("f32_1x1x1", T([[[0.25]]]))
    add("bf16_2x3", randn(2, 3, dtype=torch.bfloat16))
    add("f16_2x2x2", randn(2, 2, 2, dtype=torch.float16))
    add("i8_3d", randint(-128, 128, 2, 2, 3, dtype=torch.int8))
    add("u8_4d", randint(0, 256, 1, 2, 2, 2, dtype=torch.uint8))
    add("f32_2d_nan", T([[nan, 1.0], [2.5, -inf]]))
    add("f32_5d", torch.arange(32, dtype=torch.float32).reshape(2, 2, 2, 2, 2))

    # ---- line wrapping ----
    add("f32_wrap_50", torch.linspace(-3, 3, 50))
    add("i64_wrap_100", torch.arange(100))
    add("i64_wrap_200_big", torch.arange(200) * 1234567)
    add("f32_wrap_2d", randn(3, 20))
    add("f32_wrap_3d", randn(2, 2, 15))
    add("f32_wrap_sci", randn(30) * 1e-6)
    add("bool_wrap", torch.arange(40) % 3 == 0)
    add("f64_wrap_grad", torch.linspace(0, 1, 13, dtype=torch.float64).requires_grad_())
    add("f32_wrap_exact_line", torch.arange(24, dtype=torch.float32) / 4)

    # ---- summarisation ----
    add("i64_arange_2000", torch.arange(2000))
    add("i64_arange_1001", torch.arange(1001))
    add("i64_arange_1000", torch.arange(1000))
    add("f32_arange_1001", torch.arange(1001, dtype=torch.float32))
    add("f32_sixteenths_1001", sixteenths(1001))
    add("f32_summary_sci", sixteenths(1500) * torch.where(torch.arange(1500) % 2 == 0, 1.0, 1e-6))
    add("f32_summary_hidden_sci", torch.cat([T([1e-6]), torch.arange(1, 1100, dtype=torch.float32), T([2.5])]))
    add("i64_100x100", randint(0, 10, 100, 100))
    add("f32_40x40", sixteenths(40, 40))
    add("i64_12x12x12", torch.arange(1728).reshape(12, 12, 12))
    add("i64_3x400", torch.arange(1200).reshape(3, 400))
    add("i64_400x3", torch.arange(1200).reshape(400, 3))
    add("i64_2x3x20x20", randint(-50, 50, 2, 3, 20, 20))
    add("f32_7x7x7x7", sixteenths(7, 7, 7, 7, scale=10.0))
    add("i64_1x2000", torch.arange(2000).reshape(1, 2000))
    add("i64_2000x1", torch.arange(2000).reshape(2000, 1))
    add("i64_summary_hidden_wide", torch.cat([T([10**9], torch.int64), torch.arange(1500), T([-(10**9)], torch.int64)]))
    add("bool_summary", torch.arange(1200) % 7 == 0)
    add("f16_summary", sixteenths(1100, dtype=torch.float16))
    add("c64_summary", torch.complex(sixteenths(1001), sixteenths(1001)).to(torch.complex64))
    add("c64_summary_2d", torch.complex(sixteenths(40, 30), sixteenths(40, 30)).to(torch.complex64))
    add("f32_summary_grad", torch.arange(2000, dtype=torch.float32).requires_grad_())
    add("f32_summary_nan", torch.cat([torch.full((1000,), nan), T([1.5])]))

    # ---- complex ----
    add("c64_basic", T([1 + 2j, -3.5 - 4j, 0.25j], torch.complex64))
    add("c64_int_mode", T([1 + 2j, 3 - 4j], torch.complex64))
    add("c64_neg_zero_imag", T([complex(1.0, -0.0), complex(-0.0, 0.0), complex(2.0, 0.0)], torch.complex64))
    add("c64_sci", T([1e-6 + 1j, 1e5 - 2j], torch.complex64))
    add("c64_imag_sci_real_fixed", T([1.5 + 1e-7j, 2.5 + 1j], torch.complex64))
    add("c64_nonfinite", T([complex(nan, 1.0), complex(inf, -inf), complex(0.0, nan)], torch.complex64))
    add("c64_2x2", torch.complex(randn(2, 2), randn(2, 2)))
    add("c64_wrap", torch.complex(torch.linspace(0, 1, 20), torch.linspace(-1, 0, 20)))
    add("c128_basic", T([0.1 + 0.2j, -1e-3 + 5j], torch.complex128))
    add("c128_3d", torch.complex(randn(2, 1, 3, dtype=torch.float64), randn(2, 1, 3, dtype=torch.float64)))
    add("c64_prec2", T([1.23456 + 6.54321j], torch.complex64), {"precision": 2})
    add("c64_sci_opt", T([1 + 2j, 3 - 4j], torch.complex64), {"sci_mode": True})

    # ---- meta ----
    add("meta_f32_2x3", torch.empty(2, 3, device="meta"))
    add("meta_i64_5", torch.empty(5, dtype=torch.int64, device="meta"))
    add("meta_scalar", torch.empty((), device="meta"))
    add("meta_f64", torch.empty(4, 1, dtype=torch.float64, device="meta"))
    add("meta_bool", torch.empty(3, dtype=torch.bool, device="meta"))
    add("meta_c64", torch.empty(2, dtype=torch.complex64, device="meta"))
    add("meta_empty", torch.empty(0, 4, device="meta"))
    add("meta_grad", torch.empty(2, 3, device="meta", requires_grad=True))
    add("meta_grad_fn", torch.empty(2, 3, device="meta", requires_grad=True) * 2)
    add("meta_f64_default_f64", torch.empty(2, dtype=torch.float64, device="meta"), default_dtype=torch.float64)
    add("meta_f32_default_f64", torch.empty(2, device="meta"), default_dtype=torch.float64)
    add("meta_big", torch.empty(1000, 1000, 1000, device="meta", dtype=torch.int8))

    # ---- autograd ----
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    add("grad_leaf", x)
    add("grad_mul", x * 2)
    add("grad_sum", x.sum())
    add("grad_add", x + 1)
    add("grad_pow", x.pow(2).view(3, 1))
    add("grad_long_suffix", torch.linspace(-1, 1, 11, dtype=torch.float64).requires_grad_() * 3)
    add("grad_f64_default_f64", torch.arange(3, dtype=torch.float64).requires_grad_(), default_dtype=torch.float64)
    add("grad_2d_wrap", (randn(3, 9).requires_grad_() * 10).exp2())
    add("grad_c64", torch.tensor([1 + 1j], requires_grad=True) * 2)

    # ---- print options ----
    base = randn(6) * 10
    add("opt_prec2", base, {"precision": 2})
    add("opt_prec0", base, {"precision": 0})
    add("opt_prec0_sci", base, {"precision": 0, "sci_mode": True})
    add("opt_prec8", base, {"precision": 8})
    add("opt_prec10_f64", torch.arange(1, 5, dtype=torch.float64) / 7, {"precision": 10})
    add("opt_sci_true", base, {"sci_mode": True})
    add("opt_sci_true_int", torch.arange(4, dtype=torch.float32), {"sci_mode": True})
    add("opt_sci_true_zeros", torch.zeros(3), {"sci_mode": True})
    add("opt_sci_false_small", T([1e-6, 1.0]), {"sci_mode": False})
    add("opt_sci_false_large", T([1e20, 1.5], torch.float64), {"sci_mode": False})
    add("opt_sci_false_large_int", T([1e22, 3.0, 1e300], torch.float64), {"sci_mode": False})
    add("opt_sci_false_prec2", T([123456.789, 1e-5]), {"sci_mode": False, "precision": 2})
    add("opt_threshold5", torch.arange(10), {"threshold": 5})
    add("opt_threshold5_f", torch.arange(10, dtype=torch.float32) / 3, {"threshold": 5})
    add("opt_threshold_2d", torch.arange(64).reshape(8, 8), {"threshold": 10})
    add("opt_threshold_inf", torch.arange(1500), {"threshold": inf})
    add("opt_edge1", torch.arange(1500), {"edgeitems": 1})
    add("opt_edge2_3d", torch.arange(1200).reshape(10, 10, 12), {"edgeitems": 2})
    add("opt_edge5_thr20", torch.arange(30), {"edgeitems": 5, "threshold": 20})
    add("opt_edge10_small", torch.arange(30), {"edgeitems": 10, "threshold": 20})
    add("opt_edge0_1d", torch.arange(1500), {"edgeitems": 0})
    add("opt_edge0_2d", torch.arange(1600, dtype=torch.float32).reshape(40, 40) / 3, {"edgeitems": 0})
    add("opt_edge0_small", torch.arange(4), {"edgeitems": 0})
    add("opt_edge0_f32_scalar", T(1.5), {"edgeitems": 0})
    add("opt_linewidth40", torch.linspace(0, 1, 20), {"linewidth": 40})
    add("opt_linewidth120", torch.arange(100), {"linewidth": 120})
    add("opt_linewidth10", torch.arange(12, dtype=torch.float32) * 1.5, {"linewidth": 10})
    add("opt_linewidth20_suffix", torch.arange(3, dtype=torch.float64).requires_grad_(), {"linewidth": 20})
    add("opt_linewidth1", torch.arange(3).reshape(1, 3), {"linewidth": 1})
    add("opt_profile_short", torch.arange(1500, dtype=torch.float32) / 7, {"profile": "short"})
    add("opt_profile_full", torch.arange(1200), {"profile": "full"})
    add("opt_profile_short_override", torch.linspace(0, 1, 5), {"profile": "short", "precision": 5})
    add("opt_profile_default", torch.linspace(0, 1, 5), {"profile": "default", "linewidth": 30})
    add("opt_prec2_sci_mix", T([1e-5, 1.0, 1e5]), {"precision": 2})
    add("opt_prec6_c128", T([1 / 3 + 2j / 3], torch.complex128), {"precision": 6})

    # ---- default dtype ----
    dd = torch.float64
    add("dd64_f32", T([1.5, 2.0]), default_dtype=dd)
    add("dd64_f64", T([1.5, 2.0], torch.float64), default_dtype=dd)
    add("dd64_c64", T([1 + 2j], torch.complex64), default_dtype=dd)
    add("dd64_c128", T([1 + 2j], torch.complex128), default_dtype=dd)
    add("dd64_i64", T([1, 2], torch.int64), default_dtype=dd)
    add("dd64_bool", T([True], torch.bool), default_dtype=dd)
    add("dd64_f16", T([1.5], torch.float16), default_dtype=dd)
    add("dd64_empty_i64", T([], torch.int64), default_dtype=dd)
    add("dd16_f16", T([1.5, 2.0], torch.float16), default_dtype=torch.float16)
    add("dd16_c64", T([1 + 2j], torch.complex64), default_dtype=torch.float16)
    add("dd16_f32", T([1.5], torch.float32), default_dtype=torch.float16)
    add("ddbf16_bf16", T([1.5], torch.bfloat16), default_dtype=torch.bfloat16)
    add("f32_c128_default", T([1 + 2j], torch.complex128))
    add("f32_dtype_i32", T([1, 2], torch.int32))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=OUT)
    args = ap.parse_args()
    torch.set_printoptions(profile="default")
    torch.set_default_dtype(torch.float32)
    build()
    if len(cases) < 150:
        print(f"only {len(cases)} cases, expected >= 150", file=sys.stderr)
        sys.exit(1)
    header = {
        "generated_by": "tools/golden/gen_printing.py",
        "torch_version": torch.__version__,
        "seed": SEED,
        "count": len(cases),
    }
    head = json.dumps(header)[:-1]
    body = ",\n".join(json.dumps(c, allow_nan=False) for c in cases)
    text = head + ', "cases": [\n' + body + "\n]}\n"
    if len(text.encode()) > 1_000_000:
        print(f"fixture is {len(text.encode())} bytes, over 1 MB", file=sys.stderr)
        sys.exit(1)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {args.out}: {len(cases)} cases, {len(text.encode())} bytes")


if __name__ == "__main__":
    main()
