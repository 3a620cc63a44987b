"""c10.json's `keys`, `all_keys` and `parse`: every DispatchKey with its name, value and raw key set, and
parseDispatchKey over the names of c10/core/DispatchKey.cpp, the reference's extra names and junk. Part of
tools/golden/gen_c10.py.
"""
from c10.common import C, DK, dk, END_OF_ALIAS, err, ks_of, ks_str, name_of, raw


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
