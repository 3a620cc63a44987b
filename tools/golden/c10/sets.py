"""c10.json's `sets`, `removal`, `key_ops`, `full_after`, `backend_keyset_from_autograd` and `named_sets`: the
DispatchKeySet algebra of c10/core/DispatchKeySet.h on hand-picked and seeded random sets. Part of
tools/golden/gen_c10.py.
"""
import torch

from c10.common import (
    C,
    dk,
    END_OF_ALIAS,
    END_OF_FUNCTIONALITY,
    END_OF_RUNTIME,
    from_raw,
    highest,
    KS,
    ks_str,
    name_of,
    NUM_KEY_OPS,
    NUM_RANDOM_SETS,
    NUM_REMOVAL_PAIRS,
    raw,
    START_OF_BLOCKS,
)


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
