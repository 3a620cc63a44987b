#!/usr/bin/env python3
"""Golden fixtures for aten-ts's c10 core: dispatch keys, key sets, dtypes, devices.

Run with the reference torch build (2.13.0+cpu):

    $PYTHON tools/golden/gen_c10.py            # writes test/golden/c10.json
    $PYTHON tools/golden/gen_c10.py -o OUT.json

Everything in the output is read back from the torch binary; nothing is computed
from our own model of the dispatcher, except two helper sets built from raw bits
(backend_functionality_keys and the legacyExtractDispatchKey mask, see
`legacy_mask`), whose *results* still come from the binary's set algebra.

All 64-bit key-set values are written as DECIMAL STRINGS (they exceed 2^53).
Key names are the C++ toString names (`torch._C._dispatch_key_name`).
The output is deterministic (seeded RNG, no timestamps).
"""

import argparse
import json
import os
import random
import re
import sys
import warnings

import torch

C = torch._C
DK = C.DispatchKey
KS = C.DispatchKeySet

SEED = 20240613
NUM_RANDOM_SETS = 400
NUM_REMOVAL_PAIRS = 100
NUM_KEY_OPS = 150

# Values of the C++ enum (c10/core/DispatchKey.h, 2.13).
END_OF_FUNCTIONALITY = 47
END_OF_RUNTIME = 149  # AutogradMeta
START_OF_ALIAS = 150
END_OF_ALIAS = 155
START_OF_BLOCKS = (48, 65, 82, 99, 116, 133)  # StartOf<F>Backends
ALIAS_KEYS = [
    "Autograd",
    "CompositeImplicitAutograd",
    "FuncTorchBatchedDecomposition",
    "CompositeImplicitAutogradNestedTensor",
    "CompositeExplicitAutograd",
    "CompositeExplicitAutogradNonFunctional",
]


def raw(ks):
    return str(ks.raw_repr())


def dk(v):
    return DK(v)


def name_of(k):
    return C._dispatch_key_name(k)


def ks_of(k):
    return KS(k)


def ks_str(ks):
    return C._dispatch_keyset_to_string(ks)


def from_raw(r):
    return KS.from_raw_repr(int(r))


def highest(ks):
    h = ks.highestPriorityTypeId()
    return name_of(h), int(h.value)


def err(e):
    return str(e)


# ---------------------------------------------------------------------------
# keys

def python_members():
    """Unique-by-value Python enum members, in value order.

    pybind lists aliases (EndOf<F>Backends shares its value with <F>Meta); keep one
    member per value and report the C++ toString name as `name`."""
    by_value = {}
    for enum_name, m in DK.__members__.items():
        v = int(m.value)
        canon = name_of(m)
        cur = by_value.get(v)
        # Prefer the member whose Python name equals the C++ toString name.
        if cur is None or (cur[0] != canon and enum_name == canon):
            by_value[v] = (enum_name, m)
    return [(v, by_value[v][0], by_value[v][1]) for v in sorted(by_value)]


def gen_keys(members):
    out = []
    for v, enum_name, m in members:
        ks = ks_of(m)
        out.append({
            "name": name_of(m),
            "value": v,
            "raw": raw(ks),
            "set_str": ks_str(ks),
            "enum_name": enum_name,
        })
    return out


def gen_all_keys(python_values):
    """Every C++ value 0..155 (Python can construct DispatchKey(v) for any v)."""
    out = []
    for v in range(0, END_OF_ALIAS + 1):
        k = dk(v)
        ks = ks_of(k)
        fk = C._to_functionality_key(k)
        out.append({
            "value": v,
            "name": name_of(k),
            "in_python_enum": v in python_values,
            "raw": raw(ks),
            "set_str": ks_str(ks),
            "is_alias": bool(C._dispatch_is_alias_key(k)),
            "functionality_value": int(fk.value),
            "functionality_name": name_of(fk),
        })
    return out


# ---------------------------------------------------------------------------
# parse

REFERENCE_EXTRA_NAMES = [
    # A.2 names absent from the Python enum (still produced by value below, listed
    # explicitly so the fixture keeps them even if the value->name mapping moves).
    "FPGA", "Vulkan", "Metal", "CustomRNGKeyId", "MkldnnCPU", "Fake", "Tracer",
    "AutocastMTIA", "AutocastMAIA", "AutocastXLA", "BatchedNestedTensor", "Batched",
    "VmapMode", "DeferredInit", "TESTING_ONLY_GenericWrapper",
    "TESTING_ONLY_GenericMode", "EndOfFunctionalityKeys",
    "QuantizedMeta", "SparseXLA", "AutogradHIP", "AutogradVE", "AutogradMTIA",
    # Enum spellings that are not toString names.
    "CatchAll", "CPUTensorId", "CUDATensorId", "Autocast", "DefaultBackend",
    "PrivateUse1_PreAutograd", "PrivateUse2_PreAutograd", "PrivateUse3_PreAutograd",
    "StartOfDenseBackends", "EndOfDenseBackends", "StartOfAliasKeys", "EndOfAliasKeys",
    "EndOfRuntimeBackendKeys", "StartOfAutogradFunctionalityBackends",
]
JUNK = ["cpu", "Math", "CatchAll", "DefaultBackend", "", "CPU ", "Autograd CPU",
        " CPU", "cpu:0", "AUTOGRADCPU", "Autogradcpu", "CPU,CUDA"]


def gen_parse():
    names = []
    seen = set()

    def push(n):
        if n not in seen:
            seen.add(n)
            names.append(n)

    for v in range(0, END_OF_ALIAS + 1):
        push(name_of(dk(v)))
    for _, m in DK.__members__.items():
        push(name_of(m))
    for n in REFERENCE_EXTRA_NAMES + JUNK:
        push(n)
    out = []
    for n in names:
        try:
            k = C._dispatch_key_parse(n)
            out.append({"text": n, "ok": True, "value": int(k.value)})
        except Exception as e:  # noqa: BLE001
            out.append({"text": n, "ok": False, "error": err(e)})
        # cross-check the non-throwing variant
        alt = C._parse_dispatch_key(n)
        assert (alt is None) == (not out[-1]["ok"]), n
        if alt is not None:
            assert int(alt.value) == out[-1]["value"], n
    return out


# ---------------------------------------------------------------------------
# tensors

def backend_functionality_keys():
    # {Dense, Quantized, Sparse, SparseCsr} | 0xFFFF (DispatchKeySet.h)
    s = KS(DK.Dense) | KS(DK.Quantized) | KS(DK.Sparse) | KS(DK.SparseCsr)
    return s | from_raw(0xFFFF)


def legacy_mask():
    # legacyExtractDispatchKey (DispatchKeySet.h, 2.13):
    # s - autograd_dispatch_keyset_with_ADInplaceOrView - autocast_dispatch_keyset
    #   - {Functionalize, PythonTLSSnapshot, FuncTorchGradWrapper, FuncTorchVmapMode,
    #      FuncTorchBatched, Python}
    ks = KS(DK.AutogradFunctionality) | KS(DK.AutogradOther) | KS(DK.AutogradNestedTensor)
    ks = ks | KS(DK.ADInplaceOrView)
    for v in range(24, 34):  # the 10 Autocast keys
        ks = ks | KS(dk(v))
    for k in (DK.Functionalize, DK.PythonTLSSnapshot, DK.FuncTorchGradWrapper,
              DK.FuncTorchVmapMode, DK.FuncTorchBatched, DK.Python):
        ks = ks | KS(k)
    return ks


BFK = None
LEGACY = None


def describe_keyset(ks):
    h, hv = highest(ks)
    b, bv = highest(ks & BFK)
    lg, lgv = highest(ks - LEGACY)
    return {
        "raw": raw(ks),
        "str": ks_str(ks),
        "highest": h,
        "highest_value": hv,
        "backend_highest": b,
        "backend_highest_value": bv,
        "legacy_key": lg,
        "legacy_key_value": lgv,
    }


def tensor_cases():
    cases = []

    def add(desc, fn, inference=False):
        cases.append((desc, fn, inference))

    add("cpu float32", lambda: torch.zeros(2))
    add("cpu int64", lambda: torch.zeros(2, dtype=torch.int64))
    add("cpu bool", lambda: torch.zeros(2, dtype=torch.bool))
    add("cpu complex64", lambda: torch.zeros(2, dtype=torch.complex64))
    add("meta float32", lambda: torch.zeros(2, device="meta"))
    add("sparse_coo cpu", lambda: torch.zeros(2, 2).to_sparse())
    add("sparse_csr cpu", lambda: torch.zeros(2, 2).to_sparse_csr())
    add("sparse_csc cpu", lambda: torch.zeros(2, 2).to_sparse_csc())
    add("sparse_bsr cpu", lambda: torch.zeros(2, 2).to_sparse_bsr((1, 1)))
    add("sparse_bsc cpu", lambda: torch.zeros(2, 2).to_sparse_bsc((1, 1)))
    add("requires_grad cpu", lambda: torch.zeros(2, requires_grad=True))
    add("non-leaf grad cpu", lambda: torch.zeros(2, requires_grad=True) * 2)
    add("inference-mode cpu tensor", lambda: torch.zeros(2), inference=True)
    add("meta inference mode", lambda: torch.zeros(2, device="meta"), inference=True)
    add("inference-mode sparse_coo cpu", lambda: torch.zeros(2, 2).to_sparse(), inference=True)
    add("quantized cpu", lambda: torch.quantize_per_tensor(torch.zeros(2), 0.1, 0, torch.quint8))
    add("quantized cpu qint8 per-channel",
        lambda: torch.quantize_per_channel(torch.zeros(2, 2), torch.tensor([0.1, 0.2]),
                                           torch.tensor([0, 0]), 0, torch.qint8))
    add("nested cpu", lambda: torch.nested.nested_tensor([torch.zeros(2), torch.zeros(3)]))
    add("nested jagged cpu",
        lambda: torch.nested.nested_tensor([torch.zeros(2), torch.zeros(3)], layout=torch.jagged))
    add("mkldnn", lambda: torch.zeros(2).to_mkldnn())
    add("a view", lambda: torch.zeros(4)[1:])
    add("view of requires_grad", lambda: torch.zeros(4, requires_grad=True)[1:])
    add("conj of complex", lambda: torch.zeros(2, dtype=torch.complex64).conj())
    add("neg view", lambda: torch._neg_view(torch.zeros(2, dtype=torch.complex64)))
    add("conj neg view", lambda: torch.zeros(2, dtype=torch.complex64).conj()._neg_view())
    add("zero tensor", lambda: torch._efficientzerotensor(2))
    add("meta zero tensor", lambda: torch._efficientzerotensor(2, device="meta"))
    add("empty cpu (numel 0)", lambda: torch.empty(0))
    return cases


def gen_tensor_keysets():
    out = []
    for desc, fn, inference in tensor_cases():
        entry = {"desc": desc}
        try:
            if inference:
                with torch.inference_mode():
                    t = fn()
                    ks = C._dispatch_keys(t)
            else:
                t = fn()
                ks = C._dispatch_keys(t)
            entry.update(describe_keyset(ks))
            entry["layout"] = str(t.layout).replace("torch.", "")
            entry["device"] = str(t.device)
            entry["dtype"] = str(t.dtype).replace("torch.", "")
        except Exception as e:  # noqa: BLE001
            entry["error"] = err(e)
        out.append(entry)
    return out


# ---------------------------------------------------------------------------
# sets


def union_of(values):
    ks = KS.from_raw_repr(0)
    for v in values:
        ks = ks | KS(dk(v))
    return ks


def describe_set(values, or_raw=0):
    ks = union_of(values)
    if or_raw:
        ks = ks | from_raw(or_raw)
    h, hv = highest(ks)
    has = [v for v in range(1, END_OF_RUNTIME + 1) if v != END_OF_FUNCTIONALITY and ks.has(dk(v))]
    entry = {
        "keys": [name_of(dk(v)) for v in values],
        "values": list(values),
    }
    if or_raw:
        entry["or_raw"] = str(or_raw)
    entry.update({
        "raw": raw(ks),
        "str": ks_str(ks),
        "highest": h,
        "highest_value": hv,
        "has_values": has,
    })
    return entry


def val(name):
    """Value of a key by C++ name, falling back to a scan of 0..155."""
    k = C._parse_dispatch_key(name)
    if k is not None:
        return int(k.value)
    for v in range(0, END_OF_ALIAS + 1):
        if name_of(dk(v)) == name:
            return v
    raise KeyError(name)


def hand_picked_sets():
    F = lambda *names: [val(x) for x in names]  # noqa: E731
    cases = [
        (F(), 0),
        (F("SparseIPU", "SparseCsrHIP"), 0),
        (F("CPU", "Meta"), 0),
        (F("Meta", "CPU"), 0),
        (F("Dense"), 0),
        (F("Quantized"), 0),
        (F("Sparse"), 0),
        (F("SparseCsr"), 0),
        (F("NestedTensor"), 0),
        (F("AutogradFunctionality"), 0),
        (F("Quantized"), 1 << 1),  # Quantized functionality + CUDA backend bit
        (F("Dense"), 1 << 15),  # Dense + Meta bit
        (F("AutogradFunctionality"), 1 << 2),  # Autograd + HIP bit
        (F("AutogradFunctionality", "Dense"), 1 << 8),  # + VE bit
        (F(), 0xFFFF),  # only backend bits
        (F(), 1 << 0),
        (F(), 1 << 15),
        (F("Dense", "Quantized", "Sparse", "SparseCsr", "NestedTensor",
           "AutogradFunctionality"), 0),
        (F("CPU", "CUDA", "AutogradCPU", "AutogradCUDA"), 0),
        (F("CPU", "ADInplaceOrView", "AutogradCPU", "AutocastCPU"), 0),
        (F("AutogradOther", "AutogradCPU"), 0),
        (F("AutogradOther"), 0),
        (F("AutogradNestedTensor", "NestedTensorCPU"), 0),
        (F("PythonDispatcher"), 0),
        (F("PythonDispatcher", "CPU"), 0),
        (F("PreDispatch", "Python", "PythonTLSSnapshot"), 0),
        (F("FPGA", "Vulkan", "Metal", "CustomRNGKeyId", "MkldnnCPU"), 0),
        (F("Fake", "CPU"), 0),
        (F("Tracer", "AutogradMeta"), 0),
        (F("BackendSelect", "ADInplaceOrView"), 0),
        (F("Conjugate", "Negative", "ZeroTensor", "CPU"), 0),
        (F("CPU", "CompositeImplicitAutograd"), 0),  # alias keys contribute nothing
        (F("Autograd"), 0),
        (F("CompositeExplicitAutograd", "CompositeExplicitAutogradNonFunctional"), 0),
        (F("Undefined"), 0),
        (F("Undefined", "CUDA"), 0),
        (list(START_OF_BLOCKS), 0),  # StartOf<F>Backends: bare functionality bits
        ([48], 0), ([65], 0), ([133], 0),
        ([65], 1 << 3),
        (F("QuantizedMeta", "SparseCPU"), 0),
        (F("NestedTensorPrivateUse3", "AutogradXLA"), 0),
        (F("SparseCsrMAIA", "QuantizedMTIA", "HIP"), 0),
        (F("FuncTorchBatched", "BatchedNestedTensor", "FuncTorchVmapMode", "Batched",
           "VmapMode", "FuncTorchGradWrapper", "DeferredInit"), 0),
        (F("TESTING_ONLY_GenericWrapper", "TESTING_ONLY_GenericMode"), 0),
        (F("FuncTorchDynamicLayerFrontMode", "FuncTorchDynamicLayerBackMode"), 0),
        (F("Functionalize", "AutogradPrivateUse2", "PrivateUse3"), 0),
        (F("AutocastCPU", "AutocastMTIA", "AutocastMAIA", "AutocastXPU", "AutocastIPU",
           "AutocastHPU", "AutocastXLA", "AutocastMPS", "AutocastCUDA",
           "AutocastPrivateUse1"), 0),
        (list(range(1, END_OF_FUNCTIONALITY)), 0),  # every functionality key
        # everything up to AutogradMeta except 47 (bit 62 lies outside FULL)
        ([v for v in range(1, END_OF_RUNTIME + 1) if v != END_OF_FUNCTIONALITY], 0),
        ([], (1 << 62) - 1),  # FULL
    ]
    return cases


def random_key_pool():
    """All keys 0..155 whose singleton set is non-empty, minus:
    47 (EndOfFunctionalityKeys: bit 62, outside FULL; iterating it trips an
    INTERNAL ASSERT) and the StartOf<F>Backends values (their toString names are
    not unique: 48 prints `Undefined`). Those are covered by hand-picked sets."""
    pool = []
    for v in range(0, END_OF_ALIAS + 1):
        if v == END_OF_FUNCTIONALITY or v in START_OF_BLOCKS:
            continue
        if KS(dk(v)).raw_repr() != 0:
            pool.append(v)
    return pool


def gen_sets(rng):
    out = []
    for values, or_raw in hand_picked_sets():
        e = describe_set(values, or_raw)
        e["hand_picked"] = True
        out.append(e)
    pool = random_key_pool()
    per_backend = [v for v in pool if v > END_OF_FUNCTIONALITY]
    for i in range(NUM_RANDOM_SETS):
        size = rng.randint(1, 6)
        # every 4th set draws only per-backend runtime keys (exercises the cross product)
        src = per_backend if i % 4 == 3 else pool
        values = [rng.choice(src) for _ in range(size)]
        out.append(describe_set(values))
    return out


def gen_removal(rng, sets):
    out = []
    for _ in range(NUM_REMOVAL_PAIRS):
        a = from_raw(rng.choice(sets)["raw"])
        b = from_raw(rng.choice(sets)["raw"])
        out.append({
            "a": raw(a),
            "b": raw(b),
            "minus": raw(a - b),
            "and": raw(a & b),
            "or": raw(a | b),
            "minus_str": ks_str(a - b),
        })
    return out


def gen_key_ops(rng, sets):
    """DispatchKeySet.add(k) / .remove(k) for random (set, key) pairs."""
    pool = [v for v in range(1, END_OF_ALIAS + 1) if v != END_OF_FUNCTIONALITY]
    out = []
    for _ in range(NUM_KEY_OPS):
        a = from_raw(rng.choice(sets)["raw"])
        v = rng.choice(pool)
        k = dk(v)
        out.append({
            "a": raw(a),
            "key": name_of(k),
            "value": v,
            "add": raw(a.add(k)),
            "remove": raw(a.remove(k)),
        })
    return out


# ---------------------------------------------------------------------------
# full / full_after / backend keyset from autograd / named sets


def gen_full_after(members):
    out = []
    for v, enum_name, m in members:
        if not (1 <= v <= END_OF_RUNTIME):
            continue
        ks = C._dispatch_keyset_full_after(m)
        out.append({"key": name_of(m), "value": v, "enum_name": enum_name,
                    "raw": raw(ks), "str": ks_str(ks)})
    return out


def gen_backend_from_autograd(members):
    out = []
    for v, enum_name, m in members:
        ks = C._dispatch_get_backend_keyset_from_autograd(m)
        out.append({"key": name_of(m), "value": v, "enum_name": enum_name,
                    "raw": raw(ks), "str": ks_str(ks)})
    return out


def gen_named_sets():
    d = {
        "after_autograd": raw(C._after_autograd_keyset),
        "after_ADInplaceOrView": raw(C._after_ADInplaceOrView_keyset),
        "tls_included_default": raw(C._dispatch_tls_local_include_set()),
        "tls_excluded_default": raw(C._dispatch_tls_local_exclude_set()),
        "autogradother_backends": raw(C._dispatch_autogradother_backends),
    }
    with torch.inference_mode():
        d["tls_included_inference_mode"] = raw(C._dispatch_tls_local_include_set())
        d["tls_excluded_inference_mode"] = raw(C._dispatch_tls_local_exclude_set())
    with C._AutoDispatchBelowAutograd():
        d["tls_excluded_below_autograd"] = raw(C._dispatch_tls_local_exclude_set())
    with C._AutoDispatchBelowADInplaceOrView():
        d["tls_excluded_below_ADInplaceOrView"] = raw(C._dispatch_tls_local_exclude_set())
    return d


# ---------------------------------------------------------------------------
# alias keys -> runtime keys (computed table of a fresh op)

TAG_RE = re.compile(r"^(?P<key>[A-Za-z0-9_]+): (?P<body>.*) \[(?P<tag>[^\[\]]+)\]$")


def gen_alias_runtime_keys(name_to_value):
    out = []
    libs = []
    for i, alias in enumerate(ALIAS_KEYS):
        ns = f"_aten_ts_golden_c10_{i}"
        lib = torch.library.Library(ns, "DEF")
        libs.append(lib)
        lib.define("op(Tensor x) -> Tensor")
        lib.impl("op", lambda x: x, alias)
        qual = f"{ns}::op"
        table = C._dispatch_dump_table(qual)
        entries = []
        for line in table.splitlines():
            if not line.strip():
                continue
            m = TAG_RE.match(line)
            assert m, line
            if m.group("tag") == "backend fallback":
                continue
            key = m.group("key")
            entries.append({"key": key, "value": name_to_value[key], "tag": m.group("tag"),
                            "fallthrough": m.group("body").startswith("fallthrough ")})
        # Cross-check with the computed-kernel query for every runtime key 1..149
        # (Undefined is only visible in the dump).
        covered = {e["key"] for e in entries}
        for v in range(1, END_OF_RUNTIME + 1):
            if v == END_OF_FUNCTIONALITY or v in START_OF_BLOCKS:
                continue
            kname = name_of(dk(v))
            has = C._dispatch_has_computed_kernel_for_dispatch_key(qual, kname) \
                if C._parse_dispatch_key(kname) is not None else None
            if has is not None and kname in covered:
                assert has, (alias, kname)
        out.append({
            "alias": alias,
            "value": int(getattr(DK, alias).value),
            "keys": [e["key"] for e in entries],
            "entries": entries,
            "is_included_in_alias": [
                v for v in range(0, END_OF_ALIAS + 1)
                if C._dispatch_is_included_in_alias(dk(v), getattr(DK, alias))
            ],
        })
    for lib in libs:
        lib._destroy()
    return out


# ---------------------------------------------------------------------------
# dtypes

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16",
          "float32", "float64", "complex64", "complex128"]
DTYPES_EXT = DTYPES + ["uint16", "uint32", "uint64", "complex32", "float8_e4m3fn",
                       "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz",
                       "qint8", "quint8", "qint32"]


def short(dt):
    return str(dt).replace("torch.", "")


def promote_table(names):
    table = []
    for a in names:
        row = []
        for b in names:
            try:
                row.append(short(torch.promote_types(getattr(torch, a), getattr(torch, b))))
            except Exception as e:  # noqa: BLE001
                row.append({"error": err(e)})
        table.append(row)
    return table


def dtype_props(names):
    out = []
    for nme in names:
        dt = getattr(torch, nme)
        entry = {"name": nme}
        for field in ("itemsize", "is_floating_point", "is_complex", "is_signed"):
            try:
                entry[field] = getattr(dt, field)
            except Exception as e:  # noqa: BLE001
                entry[field] = {"error": err(e)}
        out.append(entry)
    return out


# ---------------------------------------------------------------------------
# devices

LAYOUT_MAKERS = {
    "strided": lambda d, dt: torch.zeros(2, 2, device=d, dtype=dt),
    "sparse_coo": lambda d, dt: torch.zeros(2, 2, device=d, dtype=dt).to_sparse(),
    "sparse_csr": lambda d, dt: torch.zeros(2, 2, device=d, dtype=dt).to_sparse_csr(),
    "sparse_csc": lambda d, dt: torch.zeros(2, 2, device=d, dtype=dt).to_sparse_csc(),
    "sparse_bsr": lambda d, dt: torch.zeros(2, 2, device=d, dtype=dt).to_sparse_bsr((1, 1)),
    "sparse_bsc": lambda d, dt: torch.zeros(2, 2, device=d, dtype=dt).to_sparse_bsc((1, 1)),
    "mkldnn": lambda d, dt: torch.zeros(2, 2, device=d, dtype=dt).to_mkldnn(),
    "jagged": lambda d, dt: torch.nested.nested_tensor(
        [torch.zeros(2, dtype=dt), torch.zeros(3, dtype=dt)], layout=torch.jagged, device=d),
    "nested_strided": lambda d, dt: torch.nested.nested_tensor(
        [torch.zeros(2, dtype=dt), torch.zeros(3, dtype=dt)], layout=torch.strided, device=d),
}

DEVICE_TYPES = ["cpu", "cuda", "meta", "xla", "mps", "hpu", "xpu", "privateuseone", "lazy",
                "ipu", "mtia", "maia", "ve", "hip", "fpga", "vulkan", "metal",
                "mkldnn", "opengl", "opencl", "ideep", "cuda:0", "CPU", "", "gpu"]


def gen_device_keys():
    out = []
    for device in ("cpu", "meta"):
        for dt_name in ("float32", "int64"):
            for layout, mk in LAYOUT_MAKERS.items():
                entry = {"kind": "tensor", "device": device, "layout": layout, "dtype": dt_name}
                try:
                    t = mk(device, getattr(torch, dt_name))
                    ks = C._dispatch_keys(t)
                    d = describe_keyset(ks)
                    # contract field: the backend key of the tensor (legacyExtractDispatchKey)
                    entry["key"] = d["legacy_key"]
                    entry["key_value"] = d["legacy_key_value"]
                    entry["backend_highest"] = d["backend_highest"]
                    entry["backend_highest_value"] = d["backend_highest_value"]
                    entry["raw"] = d["raw"]
                    entry["str"] = d["str"]
                    entry["actual_layout"] = short(t.layout)
                except Exception as e:  # noqa: BLE001
                    entry["error"] = err(e)
                out.append(entry)
        for qdt in ("quint8", "qint8", "qint32"):
            entry = {"kind": "tensor", "device": device, "layout": "strided", "dtype": qdt}
            try:
                t = torch._empty_affine_quantized([2], scale=0.1, zero_point=0,
                                                  dtype=getattr(torch, qdt), device=device)
                d = describe_keyset(C._dispatch_keys(t))
                entry["key"] = d["legacy_key"]
                entry["key_value"] = d["legacy_key_value"]
                entry["backend_highest"] = d["backend_highest"]
                entry["backend_highest_value"] = d["backend_highest_value"]
                entry["raw"] = d["raw"]
                entry["str"] = d["str"]
                entry["actual_layout"] = short(t.layout)
            except Exception as e:  # noqa: BLE001
                entry["error"] = err(e)
            out.append(entry)
    for s in DEVICE_TYPES:
        entry = {"kind": "device_type", "device": s}
        try:
            entry["key"] = C._dispatch_key_for_device(s)
        except Exception as e:  # noqa: BLE001
            entry["error"] = err(e)
        out.append(entry)
    return out


DEVICE_STRINGS = ["cpu", "meta", "cuda", "cuda:0", "cuda:1", "privateuseone",
                  "privateuseone:3", "xpu:2", "mps", "cpu:0",
                  "cuda:-1", "cuda:", "gpu", "cuda:1:2", "CUDA", " cpu", "cuda:01",
                  "cuda:a", "meta:x",
                  # extras
                  "", "cpu ", "cuda:0 ", "hip:0", "fpga", "vulkan:0", "mkldnn", "metal",
                  "lazy:5", "cuda:+1", "cuda:1.0", "cuda::1", "cpu:99", "cuda:2147483647",
                  "cuda:128", "Cuda", "privateuseone:0", "ve", "mtia:0", "maia", "hpu:7",
                  "ipu", "xla:1", "opengl", "ideep", "opencl", "meta:0"]


def gen_device_parse():
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for s in DEVICE_STRINGS:
            try:
                d = torch.device(s)
                out.append({"text": s, "type": d.type, "index": d.index})
            except Exception as e:  # noqa: BLE001
                out.append({"text": s, "error": err(e)})
    return out


# ---------------------------------------------------------------------------


def checks(doc):
    """Facts stated in /work/shared/reference/pytorch-dispatcher.md."""
    problems = []

    def expect(what, got, want):
        if got != want:
            problems.append(f"{what}: got {got!r}, reference says {want!r}")

    tk = {e["desc"]: e for e in doc["tensor_keysets"]}
    expect("cpu float32 raw", tk["cpu float32"]["raw"], "635655225345")
    expect("cpu float32 str", tk["cpu float32"]["str"],
           "DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU, AutocastCPU)")
    expect("FULL", doc["full"], str((1 << 62) - 1))
    expect("after_autograd", doc["named_sets"]["after_autograd"], "2305843043573432319")
    keys = {e["name"]: e for e in doc["keys"]}
    expect("CPU raw", keys["CPU"]["raw"], "65537")
    expect("AutogradCPU raw", keys["AutogradCPU"]["raw"], str((1 << 36) + 1))
    expect("QuantizedMeta raw", keys["QuantizedMeta"]["raw"], str((1 << 20) + (1 << 15)))
    expect("Dense raw", keys["Dense"]["raw"], "65536")
    expect("PythonDispatcher raw", keys["PythonDispatcher"]["raw"], str(1 << 61))
    expect("python enum size", len(DK.__members__), 145)
    sets = {tuple(e["keys"]): e for e in doc["sets"] if e.get("hand_picked")}
    expect("{SparseIPU} | {SparseCsrHIP}", sets[("SparseIPU", "SparseCsrHIP")]["str"],
           "DispatchKeySet(SparseHIP, SparseIPU, SparseCsrHIP, SparseCsrIPU)")
    parse = {e["text"]: e for e in doc["parse"]}
    for bad in ["AutogradHIP", "AutogradVE", "AutogradMTIA", "QuantizedMeta", "SparseXLA",
                "Math", "CatchAll", "DefaultBackend", "cpu"]:
        expect(f"parse {bad} ok", parse[bad]["ok"], False)
    for good in ["Dense", "AutogradFunctionality", "Fake", "FPGA", "Vulkan", "Metal",
                 "CustomRNGKeyId", "MkldnnCPU", "Tracer"]:
        expect(f"parse {good} ok", parse[good]["ok"], True)
    return problems


def dump(doc, path):
    """One top-level field per block; each array element on its own line."""
    lines = ["{"]
    items = list(doc.items())
    for i, (k, v) in enumerate(items):
        comma = "," if i + 1 < len(items) else ""
        if isinstance(v, list) and v:
            lines.append(f"  {json.dumps(k)}: [")
            for j, e in enumerate(v):
                c = "," if j + 1 < len(v) else ""
                lines.append(f"    {json.dumps(e, ensure_ascii=False)}{c}")
            lines.append(f"  ]{comma}")
        else:
            lines.append(f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}{comma}")
    lines.append("}")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("-o", "--out",
                    default=os.path.join(here, "..", "..", "test", "golden", "c10.json"))
    args = ap.parse_args()

    warnings.simplefilter("ignore")
    global BFK, LEGACY
    BFK = backend_functionality_keys()
    LEGACY = legacy_mask()

    rng = random.Random(SEED)
    members = python_members()
    python_values = {v for v, _, _ in members}
    name_to_value = {}
    for v in range(0, END_OF_ALIAS + 1):
        name_to_value.setdefault(name_of(dk(v)), v)

    doc = {}
    doc["generated_by"] = "tools/golden/gen_c10.py"
    doc["torch_version"] = torch.__version__
    doc["seed"] = SEED
    doc["keys"] = gen_keys(members)
    doc["all_keys"] = gen_all_keys(python_values)
    doc["parse"] = gen_parse()
    doc["tensor_keysets"] = gen_tensor_keysets()
    doc["sets"] = gen_sets(rng)
    doc["full"] = raw(C._dispatch_keyset_full())
    doc["full_after"] = gen_full_after(members)
    doc["removal"] = gen_removal(rng, doc["sets"])
    doc["key_ops"] = gen_key_ops(rng, doc["sets"])
    doc["backend_keyset_from_autograd"] = gen_backend_from_autograd(members)
    doc["alias_runtime_keys"] = gen_alias_runtime_keys(name_to_value)
    doc["named_sets"] = gen_named_sets()
    doc["helper_sets"] = {
        "backend_functionality_keys": raw(BFK),
        "legacy_extract_mask": raw(LEGACY),
    }
    doc["dtypes"] = DTYPES
    doc["promote"] = promote_table(DTYPES)
    doc["dtype_props"] = dtype_props(DTYPES)
    doc["dtypes_ext"] = DTYPES_EXT
    doc["promote_ext"] = promote_table(DTYPES_EXT)
    doc["dtype_props_ext"] = dtype_props(DTYPES_EXT)
    doc["device_keys"] = gen_device_keys()
    doc["device_parse"] = gen_device_parse()

    problems = checks(doc)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    dump(doc, args.out)
    print(f"wrote {os.path.relpath(args.out)}: {len(doc['keys'])} keys, "
          f"{len(doc['parse'])} parse cases, {len(doc['sets'])} sets")
    if problems:
        print("DISAGREEMENTS WITH THE REFERENCE:", file=sys.stderr)
        for p in problems:
            print("  " + p, file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
