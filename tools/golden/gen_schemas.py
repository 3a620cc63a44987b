#!/usr/bin/env python3
"""Golden fixtures for aten-ts's schema language (src/schema/).

Run with the reference torch build (2.13.0+cpu):

    $PYTHON tools/golden/gen_schemas.py            # writes test/golden/schemas.json
    $PYTHON tools/golden/gen_schemas.py -o OUT.json

Contents (everything read back from the torch binary / the wheel's torchgen):

* ``valid``: every ``func:`` of the wheel's native_functions.yaml (origin "yaml"),
  every other schema registered in the binary (``torch._C._jit_get_all_schemas()``,
  origin "registered") and hand-picked tricky schemas (origin "tricky"). For each:
  the input text, ``str(torch._C.parse_schema(text))`` (``str``, only where it differs from
  the text) and a breakdown (name,
  overload, arguments and returns with name / real type / N / default / kwarg_only /
  alias info, is_vararg, is_varret, is_mutable) plus torchgen's ``kind()`` and
  ``signature(strip_default=True)`` where torchgen can parse the schema.
  A tricky case marked ``fresh`` was parsed in a brand-new interpreter (only
  ``import torch`` before it): its alias set order depends on the ids that the
  binary gives to alias names it has not seen before.
* ``invalid``: schema texts that torch rejects, with the exception type and the first
  line of its message.
* ``mutated``: 600 seeded random mutations of real schemas and torch's verdict on each
  (the printed string, or the error).
* ``alias_symbols``: the interned-symbol ids of the alias names known right after
  ``import torch`` and the id the next new symbol gets (alias sets are
  ``std::unordered_set<Symbol>``, so their printing order depends on these ids).
* ``custom_classes``: the TorchBind classes (``__torch__.torch.classes.ns.Name``)
  registered in the binary.

The output is deterministic (no timestamps, sorted where torch's order is not stable). The hand-picked
schemas live in tools/golden/schemas/cases.py.
"""

import argparse
import ctypes
import json
import os
import random
import re
import subprocess
import sys

import torch
import yaml

from torchgen.model import FunctionSchema as TGSchema

# The hand-picked schemas (parse or error).
from schemas.cases import FRESH_VALID, TRICKY_INVALID, TRICKY_VALID

P = torch._C.parse_schema
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
YAML_PATH = os.path.join(
    os.path.dirname(os.path.dirname(torch.__file__)),
    "torchgen", "packaged", "ATen", "native", "native_functions.yaml",
)


def alias_symbols():
    lib = ctypes.CDLL(os.path.join(os.path.dirname(torch.__file__), "lib", "libtorch_cpu.so"))

    class StdString(ctypes.Structure):
        _fields_ = [("ptr", ctypes.c_char_p), ("len", ctypes.c_size_t), ("buf", ctypes.c_char * 16)]

    to_qual = lib._ZNK3c106Symbol12toQualStringEv
    to_qual.restype = ctypes.c_char_p
    to_qual.argtypes = [ctypes.POINTER(ctypes.c_uint32)]
    from_qual = lib._ZN3c106Symbol14fromQualStringERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE
    from_qual.restype = ctypes.c_uint32
    from_qual.argtypes = [ctypes.POINTER(StdString)]
    # Interning a probe symbol tells how many symbols exist; this runs in a child
    # process so that the parent's symbol table is left as `import torch` made it.
    probe = b"attr::__aten_ts_probe__"
    s = StdString()
    s.ptr = probe
    s.len = len(probe)
    count = from_qual(ctypes.byref(s))
    ids = {}
    for i in range(count):
        v = ctypes.c_uint32(i)
        q = to_qual(ctypes.byref(v)).decode()
        if q.startswith("alias::"):
            ids[q[len("alias::"):]] = i
    return {"next_id": count, "ids": ids}


def enc_default(v):
    if isinstance(v, bool):
        return {"bool": v}
    if isinstance(v, int):
        return {"int": str(v)}
    if isinstance(v, float):
        return {"float": repr(v)}
    if isinstance(v, complex):
        return {"complex": [repr(v.real), repr(v.imag)]}
    if isinstance(v, str):
        return {"str": v}
    if isinstance(v, list):
        return {"list": [enc_default(x) for x in v]}
    if isinstance(v, torch.device):
        return {"device": str(v)}
    if v is None:
        return {"none": True}
    raise TypeError(f"unexpected default {v!r}")


def enc_alias(ai):
    if ai is None:
        return None
    return {"before": sorted(ai.before_set), "after": sorted(ai.after_set), "write": bool(ai.is_write)}


def enc_arg(a, is_return):
    d = {"name": a.name, "type": str(a.real_type)}
    if str(a.type) != str(a.real_type):
        d["fake"] = str(a.type)
    if a.N is not None:
        d["N"] = a.N
    if not is_return and a.has_default_value():
        d["default"] = enc_default(a.default_value)
    if a.kwarg_only:
        d["kwarg_only"] = True
    al = enc_alias(a.alias_info)
    if al is not None:
        d["alias"] = al
    return d


def breakdown(text, printed, s, with_torchgen=True):
    args = [enc_arg(a, False) for a in s.arguments]
    rets = [enc_arg(a, True) for a in s.returns]
    # FunctionSchema.is_vararg/is_varret are not bound in Python; read them from the printed form.
    has_defaults = any("default" in a for a in args)
    is_vararg = (not has_defaults) and ("...) -> " in printed)
    is_varret = printed.endswith("...") or printed.endswith("...)")
    # boolean flags are written only when true
    d = {"name": s.name, "overload": s.overload_name, "arguments": args, "returns": rets}
    if is_vararg:
        d["is_vararg"] = True
    if is_varret:
        d["is_varret"] = True
    if s.is_mutable:
        d["is_mutable"] = True
    if not with_torchgen:
        return d
    try:
        tg = TGSchema.parse(text)
        d["kind"] = tg.kind().name
        d["signature"] = str(tg.signature(strip_default=True))
    except BaseException:  # torchgen's parser is stricter than torch's
        pass
    return d


def err_of(e):
    msg = str(e)
    first = msg.strip("\n").split("\n")[0] if msg.strip("\n") else msg
    return {"type": type(e).__name__, "message": first, "full": msg}


def run_fresh(text):
    code = (
        "import sys, json, torch\n"
        "s = torch._C.parse_schema(json.loads(sys.stdin.read()))\n"
        "print(json.dumps(str(s)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], input=json.dumps(text), capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def yaml_funcs():
    with open(YAML_PATH) as f:
        data = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    return [e["func"] for e in data if isinstance(e, dict) and "func" in e]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-o", "--output", default=os.path.join(ROOT, "test", "golden", "schemas.json"))
    args = ap.parse_args()

    # alias symbol ids: read in a child so this process's table is untouched
    child = subprocess.run(
        [sys.executable, "-c", "import json, sys; sys.path.insert(0, %r); import gen_schemas as g; print(json.dumps(g.alias_symbols()))" % HERE],
        capture_output=True, text=True, check=True,
    )
    symbols = json.loads(child.stdout)

    valid = []
    seen = set()

    def add_valid(text, origin, fresh=False):
        if text in seen:
            return
        seen.add(text)
        s = P(text)
        printed = str(s)
        entry = {"text": text, "origin": origin}
        if fresh:
            entry["fresh"] = True
            printed_here = run_fresh(text)
        else:
            printed_here = printed
        if printed_here != text:
            entry["str"] = printed_here  # omitted when the schema prints as written
        # torchgen reads schemas textually; give it only well-formed ones (hand-picked oddities
        # such as `a: :b(...)` or `int??` would be taken literally)
        entry.update(breakdown(text, printed, s, with_torchgen=(origin != "tricky" or printed == text)))
        # every printed form must parse back to an equal schema that prints the same
        reparsed = None
        try:
            reparsed = P(printed)
        except Exception:
            pass
        if not (reparsed is not None and str(reparsed) == printed):
            entry["reparses"] = False  # printed form does not round-trip (alias set order, `Tensor!`, ...)
        valid.append(entry)

    funcs = yaml_funcs()
    for f in funcs:
        add_valid(f, "yaml")

    # registered schemas, minus the aten:: copies of the YAML functions above
    yaml_printed = {v.get("str", v["text"]) for v in valid}
    registered = sorted(str(s) for s in torch._C._jit_get_all_schemas())
    for r in registered:
        if r.startswith("aten::") and r[len("aten::"):] in yaml_printed:
            continue
        add_valid(r, "registered")

    invalid = []
    for t in TRICKY_VALID:
        try:
            add_valid(t, "tricky")
        except Exception as e:
            raise SystemExit(f"tricky schema expected to parse but did not: {t!r}: {e}")
    for t in FRESH_VALID:
        add_valid(t, "tricky", fresh=True)
    for t in TRICKY_INVALID:
        try:
            P(t)
        except BaseException as e:
            invalid.append({"text": t, "error": err_of(e)})
            continue
        raise SystemExit(f"tricky schema expected to fail but parsed: {t!r}")

    # deterministic random mutations of real schemas, with torch's verdict on each
    rng = random.Random(20240613)
    pool = funcs + registered
    pieces = list("()[]?!*,=-.:>\"'#\\\n \t0123456789aTNxje") + [
        "->", "...", "None", "Tensor", "(a!)", "[2]", "1e400", "0x1p3", "'''", "?", "[]", "Union(int, str)",
        "(int, float)", "Dict(str, t)", "=1", "=[1, 2]", "=1.5", "=True", '="cpu"', "=None", ", *", "Scalar",
        "SymInt", "int[3]", "str", "(a -> *)", "(*)", "float", "complex", "=2j", "=-1", "=contiguous_format",
        "=long", "='x\\n'", "=0x10", "=1e-5", "=[]", "Device", "Layout", "MemoryFormat",
    ]
    mutated = []
    seen_mut = set()
    while len(mutated) < 600:
        t = rng.choice(pool)
        for _ in range(rng.randint(1, 3)):
            at = rng.randint(0, len(t))
            op = rng.randrange(4)
            if op == 0:
                t = t[:at] + rng.choice(pieces) + t[at:]
            elif op == 1:
                t = t[:at] + t[at + rng.randint(1, 6):]
            elif op == 2:
                r = rng.choice(pieces)
                t = t[:at] + r + t[at + len(r):]
            else:
                t = t[:at] + t[at:at + rng.randint(1, 12)] + t[at:]
        if t in seen_mut or "|" in t:
            continue  # alias set order would depend on this process's symbol history
        seen_mut.add(t)
        try:
            mutated.append({"text": t, "str": str(P(t))})
        except BaseException as e:
            mutated.append({"text": t, "error": err_of(e)})

    classes = set()
    for s in list(torch._C._jit_get_all_schemas()) + list(torch._C._jit_get_custom_class_schemas()):
        classes.update(re.findall(r"__torch__\.torch\.classes\.\w+\.\w+", str(s)))

    out = {
        "generated_by": "tools/golden/gen_schemas.py",
        "torch_version": torch.__version__,
        "native_functions_yaml": "torchgen/packaged/ATen/native/native_functions.yaml",
        "counts": {
            "yaml": sum(1 for v in valid if v["origin"] == "yaml"),
            "registered": sum(1 for v in valid if v["origin"] == "registered"),
            "tricky": sum(1 for v in valid if v["origin"] == "tricky"),
            "invalid": len(invalid),
            "mutated": len(mutated),
            "print_differs_from_text": sum(1 for v in valid if "str" in v),
        },
        "alias_symbols": symbols,
        "custom_classes": sorted(classes),
        "valid": valid,
        "invalid": invalid,
        "mutated": mutated,
    }
    os.makedirs(os.path.dirname(args.output), exist_ok=True)
    with open(args.output, "w") as f:
        json.dump(out, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {args.output}: {out['counts']}")


if __name__ == "__main__":
    main()
