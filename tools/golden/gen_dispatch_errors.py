#!/usr/bin/env python3
"""Golden fixture for the dispatcher's error and warning texts.

Run with the reference torch build (2.13.0+cpu):

    $PYTHON tools/golden/gen_dispatch_errors.py   # writes test/golden/dispatch_errors.json

Every text is read back from the torch binary (str(exception) cut at "\\nException raised from ",
warnings.catch_warnings), with the error's Python type.  Registrations go through
`torch._C._dispatch_library(kind, ns, key, file, 0)` so that every debug string is
`registered at <file>:0`, which the TypeScript test reproduces with the same `debug` option.
Deterministic: no seeds, no timestamps, no addresses; lists are built in a fixed order.

Sections:
* `missing_kernel`: "Could not run '<op>' with arguments from the '<key>' backend ..." (NotImplementedError):
  `head` is the text before the appended computed table, `table` the table as `[key, tag, fallthrough]`
  rows (debug strings of PyTorch's own fallbacks name C++ files, so they are left out).
* `no_tensor_args`: the Undefined-key variant, same fields.
* `meta_fallback`: the built-in Meta fallback's NotImplementedError.
* `fallthrough_executed`, `ambiguous_autogradother`: INTERNAL ASSERT RuntimeErrors (`text` before the
  "Canonical state" dump for the latter, `dump` the dump PyTorch appends).
* `override_warning`: the once-per-process warning, run in a fresh interpreter; `text` without Python's
  " (Triggered internally at ...)" suffix.
* `parse_dispatch_key`: rejected key names through `Library.impl`.
* `scalar_type_defaults`: schemas with dtype names as ScalarType defaults, printed by `parse_schema`, or the error.
"""

import json
import os
import subprocess
import sys
import warnings

import torch

C = torch._C
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(ROOT, "test", "golden", "dispatch_errors.json")


def err(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the type is recorded
        return {"type": type(e).__name__, "text": str(e).split("\nException raised from ")[0]}
    raise AssertionError("expected an error")


def table_rows(text):
    rows = []
    for line in text.splitlines():
        key, rest = line.split(": ", 1)
        tag = rest[rest.rindex("[") + 1 : -1]
        rows.append([key, tag, rest.startswith("fallthrough ")])
    return rows


def split_missing(e):
    head, table = e["text"].split("\n\n", 1)
    return {"type": e["type"], "head": head, "table": table_rows(table)}


def identity(x):
    return x


def missing_kernel_cases():
    out = []
    lib = C._dispatch_library("FRAGMENT", "err_ns", "", "def_err", 0)
    libs = [lib]
    lib.def_("only_meta(Tensor x) -> Tensor")
    lib.def_("only_meta2.Tensor(Tensor x, Tensor y) -> Tensor")
    lib.def_("noargs(int n) -> Tensor")
    for name in ["only_meta", "only_meta2.Tensor"]:
        m = C._dispatch_library("FRAGMENT", "err_ns", "", "impl_" + name, 0)
        m.impl(name.split(".")[0] if "." not in name else name, "Meta", lambda *a: a[0], True)
        libs.append(m)
    m = C._dispatch_library("FRAGMENT", "err_ns", "", "impl_noargs", 0)
    m.impl("noargs", "CPU", lambda n: torch.ones(n), True)
    libs.append(m)
    x = torch.ones(2)
    out.append(dict(op="err_ns::only_meta", call="cpu", **split_missing(err(lambda: torch.ops.err_ns.only_meta(x)))))
    out.append(dict(op="err_ns::only_meta2.Tensor", call="cpu",
                    **split_missing(err(lambda: torch.ops.err_ns.only_meta2.Tensor(x, x)))))
    q = torch.quantize_per_tensor(x, 0.1, 0, torch.qint8)
    out.append(dict(op="err_ns::only_meta", call="quantized",
                    **split_missing(err(lambda: torch.ops.err_ns.only_meta(q)))))
    no_args = split_missing(err(lambda: torch.ops.err_ns.noargs(1)))
    for m in libs:
        m.reset()
    return out, no_args


def meta_fallback_case():
    lib = C._dispatch_library("FRAGMENT", "err_ns", "", "def_meta", 0)
    lib.def_("cpu_only(Tensor x) -> Tensor")
    m = C._dispatch_library("FRAGMENT", "err_ns", "", "impl_cpu_only", 0)
    m.impl("cpu_only", "CPU", identity, True)
    e = dict(op="err_ns::cpu_only", **err(lambda: torch.ops.err_ns.cpu_only(torch.ones(2, device="meta"))))
    m.reset()
    lib.reset()
    return e


def fallthrough_case():
    lib = C._dispatch_library("FRAGMENT", "err_ns", "", "def_ft", 0)
    lib.def_("ft(int x) -> Tensor")
    m = C._dispatch_library("FRAGMENT", "err_ns", "", "impl_ft", 0)
    m.impl("ft", "CompositeExplicitAutograd", torch.library.fallthrough_kernel, True)
    e = dict(op="err_ns::ft", registered_at="CompositeExplicitAutograd", **err(lambda: torch.ops.err_ns.ft(1)))
    m.reset()
    lib.reset()
    return e


def ambiguous_case():
    lib = C._dispatch_library("FRAGMENT", "err_ns", "", "def_amb", 0)
    lib.def_("amb(Tensor x) -> Tensor")
    m1 = C._dispatch_library("FRAGMENT", "err_ns", "", "impl_amb_cia", 0)
    m1.impl("amb", "CompositeImplicitAutograd", identity, True)
    m2 = C._dispatch_library("FRAGMENT", "err_ns", "", "impl_amb_mkldnn", 0)
    m2.impl("amb", "MkldnnCPU", identity, True)
    mk = torch.randn(2, 2).to_mkldnn()
    assert str(C._dispatch_keys(mk)) == "DispatchKeySet(MkldnnCPU, ADInplaceOrView, AutogradOther)"
    e = err(lambda: torch.ops.err_ns.amb(mk))
    text, dump = e["text"].split("\nCanonical state\n~~~~~~~~~~~\n", 1)
    assert dump.endswith("\n\n")
    assert dump[:-2] == C._dispatch_dump("err_ns::amb")
    r = dict(op="err_ns::amb", type=e["type"], text=text, dump=dump[:-2])
    m2.reset()
    m1.reset()
    lib.reset()
    return r


OVERRIDE_SCRIPT = r"""
import json, warnings, torch
C = torch._C
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    lib = C._dispatch_library("FRAGMENT", "err_ns", "", "def_ovr", 0)
    lib.def_("ovr(Tensor x) -> Tensor")
    a = C._dispatch_library("FRAGMENT", "err_ns", "", "impl_ovr_1", 0)
    a.impl("ovr", "CPU", lambda x: x, True)
    b = C._dispatch_library("FRAGMENT", "err_ns", "", "impl_ovr_2", 0)
    b.impl("ovr", "CPU", lambda x: x, True)
    c = C._dispatch_library("FRAGMENT", "err_ns", "", "impl_ovr_3", 0)
    c.impl("ovr", "AutogradCPU", lambda x: x, True)
    d = C._dispatch_library("FRAGMENT", "err_ns", "", "impl_ovr_4", 0)
    d.impl("ovr", "AutogradCPU", lambda x: x, True)
print(json.dumps([[x.category.__name__, str(x.message)] for x in w]))
"""


def override_case():
    res = subprocess.run([sys.executable, "-c", OVERRIDE_SCRIPT], check=True, capture_output=True, text=True)
    ws = json.loads(res.stdout.strip().splitlines()[-1])
    assert len(ws) == 1, ws  # once per process
    cat, text = ws[0]
    i = text.rfind(" (Triggered internally at ")
    assert i > 0
    return {"category": cat, "text": text[:i], "op": "err_ns::ovr", "key": "CPU", "count_after_4_overrides": len(ws)}


def parse_key_cases():
    out = []
    for name in ["Bogus", "AutogradHIP", "cpu", "QuantizedMeta", "CatchAll"]:
        lib = C._dispatch_library("FRAGMENT", "err_ns", "", "def_pk", 0)
        lib.def_("pk(Tensor x) -> Tensor")
        m = C._dispatch_library("FRAGMENT", "err_ns", "", "impl_pk", 0)
        e = err(lambda: m.impl("pk", name, identity, True))
        m.reset()
        lib.reset()
        out.append(dict(name=name, **e))
    return out


def scalar_type_cases():
    names = sorted(n for n in dir(torch) if isinstance(getattr(torch, n), torch.dtype))
    schemas = ["f(ScalarType a=%s) -> ()" % n for n in names]
    schemas += [
        "f(ScalarType h=half) -> ()",
        "f(ScalarType? dtype=float32) -> ()",
        "f(ScalarType? dtype=None) -> ()",
        "f(ScalarType a=6) -> ()",
        "f(ScalarType a=strided) -> ()",
        "f(ScalarType a=contiguous_format) -> ()",
        "f(ScalarType a=Mean) -> ()",
        "f(int a=float) -> ()",
        "f(Layout a=double) -> ()",
        "f(int a=bfloat16, *, ScalarType b=complex64) -> Tensor",
        "f(ScalarType a=torch.float32) -> ()",
        "f(ScalarType a=Float) -> ()",
        "f(ScalarType a=foo) -> ()",
        "f(ScalarType a=float32x) -> ()",
        "f(ScalarType[] a=[float32]) -> ()",
    ]
    out = []
    for s in schemas:
        try:
            out.append({"schema": s, "printed": str(C.parse_schema(s))})
        except Exception as e:  # noqa: BLE001
            out.append({"schema": s, "error": {"type": type(e).__name__, "text": str(e)}})
    return out


def main():
    missing, no_args = missing_kernel_cases()
    data = {
        "generated_by": "tools/golden/gen_dispatch_errors.py",
        "torch_version": torch.__version__,
        "missing_kernel": missing,
        "no_tensor_args": dict(op="err_ns::noargs", **no_args),
        "meta_fallback": meta_fallback_case(),
        "fallthrough_executed": fallthrough_case(),
        "ambiguous_autogradother": ambiguous_case(),
        "override_warning": override_case(),
        "parse_dispatch_key": parse_key_cases(),
        "scalar_type_defaults": scalar_type_cases(),
    }
    with open(OUT, "w") as f:
        json.dump(data, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print("wrote", os.path.relpath(OUT, ROOT))


if __name__ == "__main__":
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        main()
