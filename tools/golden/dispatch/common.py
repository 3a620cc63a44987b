"""Shared by tools/golden/gen_dispatch.py's parts: the seed and key pools, and readers of the dispatcher's
state (`_dispatch_dump`, `_dispatch_dump_table`, the computed table against the built-in fallbacks, the
invariant check) as PyTorch 2.13's aten/src/ATen/core/dispatch/OperatorEntry.cpp prints them.
"""
import re

import torch


C = torch._C

SEED = 20240614
NUM_RANDOM = 230          # random impl-only scenarios (after the systematic singletons)
NUM_FALLBACK_RANDOM = 14  # random scenarios with user backend fallbacks

KEY_POOL = [
    "CPU", "CUDA", "Meta", "XLA", "Lazy", "SparseCPU", "QuantizedCPU", "NestedTensorCPU",
    "AutogradCPU", "AutogradCUDA", "AutogradOther", "AutogradNestedTensor", "Autograd",
    "CompositeImplicitAutograd", "CompositeExplicitAutograd",
    "CompositeExplicitAutogradNonFunctional", "CompositeImplicitAutogradNestedTensor",
]
# Keys without a built-in backend fallback in this build (checked at run time).
FALLBACK_KEY_POOL = [
    "CUDA", "XLA", "Lazy", "PrivateUse1", "PrivateUse2", "AutogradPrivateUse2",
    "AutogradPrivateUse3", "AutogradNestedTensor", "SparseCPU", "QuantizedCPU",
    "NestedTensorCPU", "FPGA", "MkldnnCPU", "AutocastXLA",
]

BUILTIN = {}  # parsed built-in fallback table, filled by gen_scenarios()
TABLE_LINE = re.compile(r"^(\w+): (fallthrough )?(.*) \[([a-z ]+)\]$")



def key_of(name):
    k = C._parse_dispatch_key(name)  # the Python enum lacks some members (FPGA, ...)
    assert k is not None, name
    return k


PER_BACKEND_PREFIXES = [("SparseCsr", "SparseCsr"), ("Sparse", "Sparse"),
                        ("Quantized", "Quantized"), ("NestedTensor", "NestedTensor"),
                        ("Autograd", "AutogradFunctionality")]


def probe_keyset(name):
    """A key set whose highest key (hence whose table slot) is `name`.  Some runtime
    keys (QuantizedHIP, AutogradVE, ...) are rejected by parseDispatchKey; for those
    use functionality | Dense-backend-key (e.g. {Quantized} | {HIP})."""
    k = C._parse_dispatch_key(name)
    if k is not None:
        return C.DispatchKeySet(k)
    for prefix, functionality in PER_BACKEND_PREFIXES:
        if name.startswith(prefix):
            ks = C.DispatchKeySet(key_of(functionality)) | C.DispatchKeySet(
                key_of(name[len(prefix):]))
            assert C._dispatch_key_name(ks.highestPriorityTypeId()) == name, name
            return ks
    raise AssertionError(name)


def err_text(e):
    """Exception text as test_dispatch.py normalizes it (C++ stack trace cut off)."""
    return str(e).split("\nException raised from ")[0]


def parse_table(table):
    """dump_table text -> {key: {debug, tag, fallthrough}} (one entry per line)."""
    out = {}
    for line in table.splitlines():
        if not line:
            continue
        m = TABLE_LINE.match(line)
        if not m:
            raise AssertionError("unparsable dump_table line: %r" % line)
        key, ft, debug, tag = m.groups()
        assert key not in out, line
        out[key] = {"debug": debug, "tag": tag, "fallthrough": ft is not None}
    return out


def computed_delta(computed):
    """Entries of a parsed dump_table that differ from the built-in fallback table,
    grouped by identical entry: [{keys, debug, tag, fallthrough}], groups ordered by
    their first key in dump_table order, keys in dump_table order."""
    groups = []
    index = {}
    for k, e in computed.items():
        if BUILTIN.get(k) == e:
            continue
        sig = (e["debug"], e["tag"], e["fallthrough"])
        if sig not in index:
            index[sig] = len(groups)
            groups.append({"keys": [], "debug": e["debug"], "tag": e["tag"],
                           "fallthrough": e["fallthrough"]})
        groups[index[sig]]["keys"].append(k)
    # self-check: builtin overlaid with the groups gives back the parsed table
    full = {k: e for k, e in BUILTIN.items()}
    for g in groups:
        for k in g["keys"]:
            full[k] = {"debug": g["debug"], "tag": g["tag"], "fallthrough": g["fallthrough"]}
    assert full == computed
    return groups


def dump(op):
    return C._dispatch_dump(op)


def dump_table(op):
    return C._dispatch_dump_table(op)


def invariants_ok(op):
    try:
        C._dispatch_check_invariants(op)
        return True
    except RuntimeError:
        return False
