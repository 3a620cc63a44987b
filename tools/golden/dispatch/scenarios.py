"""Output 1 of tools/golden/gen_dispatch.py, test/golden/dispatch_scenarios.json: the built-in fallback table and
seeded random registration sets (kernels, fallthroughs, user backend fallbacks) on fresh operators, each with
its dump, computed table and live-table probe.
"""
import random
import warnings

import torch
from torch.library import fallthrough_kernel

from dispatch.common import (
    BUILTIN,
    C,
    computed_delta,
    dump,
    dump_table,
    FALLBACK_KEY_POOL,
    invariants_ok,
    key_of,
    KEY_POOL,
    NUM_FALLBACK_RANDOM,
    NUM_RANDOM,
    parse_table,
    SEED,
)
from dispatch.live import expected_live, make_fallback, make_kernel, probe_live


# Output 1
# ---------------------------------------------------------------------------------
def builtin_fallback_table():
    lib = C._dispatch_library("FRAGMENT", "test_ns", "", "def_builtin", 0)
    lib.def_("builtin_probe(Tensor x) -> Tensor")
    text = dump_table("test_ns::builtin_probe")
    lib.reset()
    assert dump("test_ns::builtin_probe") == ""
    return text


def probe_key_list():
    """Undefined + every runtime key a CompositeImplicitAutograd kernel reaches
    (= all keys our kernels can ever occupy), in dump_table order."""
    lib = C._dispatch_library("FRAGMENT", "test_ns", "", "def_keys", 0)
    lib.def_("key_probe(Tensor x) -> Tensor")
    lib.impl("key_probe", "CompositeImplicitAutograd", make_kernel("k"), True)
    table = parse_table(dump_table("test_ns::key_probe"))
    lib.reset()
    keys = [k for k, e in table.items() if e["tag"] == "math kernel"]
    assert keys[0] == "Undefined"
    return keys


def run_scenario(sid, regs, fallbacks, probe_keys):
    """regs: list of (key|None, fallthrough). fallbacks: list of (key, fallthrough, when)."""
    op_short = "op%d" % sid
    op = "test_ns::" + op_short
    labels_by_debug = {}
    fb_libs = []
    fb_records = []

    def add_fallbacks(when):
        for j, (key, ft, w) in enumerate(fallbacks):
            if w != when:
                continue
            f = "fb%d_%d" % (sid, j)
            lib = C._dispatch_library("IMPL", "_", key, f, 0)
            if ft:
                lib.fallback_fallthrough()
            else:
                lib.fallback(key, make_fallback("f%d" % j), True)
            debug = "registered at %s:0" % f
            labels_by_debug[debug] = "f%d" % j
            fb_libs.append(lib)
            fb_records.append({"key": key, "fallthrough": ft, "debug": debug, "when": w})

    add_fallbacks("before_def")
    def_lib = C._dispatch_library("FRAGMENT", "test_ns", "", "def%d" % sid, 0)
    def_lib.def_("%s(Tensor x) -> Tensor" % op_short)
    add_fallbacks("after_def")
    libs = []
    records = []
    for j, (key, ft) in enumerate(regs):
        f = "reg%d_%d" % (sid, j)
        lib = C._dispatch_library("FRAGMENT", "test_ns", "", f, 0)
        pykey = key if key is not None else "Undefined"  # Undefined == catch-all
        if ft:
            lib.impl(op_short, pykey, fallthrough_kernel)
        else:
            lib.impl(op_short, pykey, make_kernel("r%d" % j), True)
        debug = "registered at %s:0" % f
        labels_by_debug[debug] = "r%d" % j
        libs.append(lib)
        records.append({"key": key, "fallthrough": ft, "debug": debug})
    add_fallbacks("after_impls")  # fb_records is in registration order
    d = dump(op)
    t = dump_table(op)
    computed = parse_table(t)
    # keys whose computed entry is a C++ fallback that may redispatch (not ours)
    redispatching = {k for k, e in computed.items()
                     if e["tag"] == "backend fallback" and e["debug"] not in labels_by_debug
                     and not e["fallthrough"]}
    live = probe_live(op, probe_keys, redispatching)
    exp = expected_live(computed, probe_keys, labels_by_debug)
    stale = {}
    for k in probe_keys:
        if live[k] != exp[k]:
            stale[k] = {"live": live[k], "computed": exp[k]}
    inv = invariants_ok(op)
    # teardown: impls in reverse order, def, then fallbacks
    for lib in reversed(libs):
        lib.reset()
    def_lib.reset()
    assert dump(op) == "", "operator %s survived teardown" % op
    for lib in reversed(fb_libs):
        lib.reset()
    sc = {
        "id": sid,
        "op": op,
        "schema": "%s(Tensor x) -> Tensor" % op,
        "def_debug": "registered at def%d:0" % sid,
        "registrations": records,
    }
    if fallbacks:
        sc["fallbacks"] = fb_records
    sc["dump"] = d
    sc["dump_table"] = t
    sc["computed_delta"] = computed_delta(computed)
    sc["live_stale"] = stale
    sc["invariants_ok"] = inv
    return sc


def gen_scenarios():
    rng = random.Random(SEED)
    builtin_text = builtin_fallback_table()
    builtin = parse_table(builtin_text)
    BUILTIN.clear()
    BUILTIN.update(builtin)
    assert all(e["tag"] == "backend fallback" for e in builtin.values())
    for k in FALLBACK_KEY_POOL:
        assert k not in builtin, k
        assert C._dispatch_has_backend_fallback(key_of(k)) is False, k
    probe_keys = probe_key_list()

    plans = []  # (regs, fallbacks)
    # 1. systematic singletons: every key (and catch-all) x {kernel, fallthrough}
    for key in KEY_POOL + [None]:
        for ft in (False, True):
            plans.append(([(key, ft)], []))
    # 2. a few hand-picked shapes (known stale / precedence corner cases)
    hand = [
        [("CompositeImplicitAutograd", False), ("CompositeExplicitAutograd", False)],
        [("CompositeExplicitAutograd", False), ("CompositeImplicitAutograd", False)],
        [("CompositeImplicitAutograd", False), ("SparseCPU", False)],
        [("CompositeImplicitAutograd", False), ("QuantizedCPU", False)],
        [("CompositeImplicitAutograd", False), ("NestedTensorCPU", False)],
        [("CompositeImplicitAutograd", False), ("CPU", False)],
        [("CPU", False), ("CompositeImplicitAutograd", False)],
        [("CompositeImplicitAutograd", False), ("CPU", False), (None, False)],
        [(None, False), ("CompositeImplicitAutograd", False)],
        [("CPU", False), ("CPU", False)],
        [("CPU", False), ("CPU", True)],
        [("CPU", True), ("CPU", False), ("CPU", False)],
        [("Meta", False), ("Meta", False)],
        [("CompositeExplicitAutogradNonFunctional", False), ("CompositeExplicitAutograd", False)],
        [("CompositeImplicitAutogradNestedTensor", False), ("CompositeImplicitAutograd", False),
         ("CompositeExplicitAutograd", False)],
        [("Autograd", False), ("AutogradCPU", True), ("CompositeImplicitAutograd", False)],
    ]
    for regs in hand:
        plans.append((regs, []))
    # 3. random sets
    for _ in range(NUM_RANDOM):
        n = rng.choice([1, 2, 2, 3, 3, 3, 4, 4, 5, 6, 7])
        regs = []
        for _j in range(n):
            used = [k for k, _ in regs if k is not None]
            r = rng.random()
            if r < 0.10:
                key = None
            elif used and r < 0.25:
                key = rng.choice(used)  # override at the same key
            else:
                key = rng.choice(KEY_POOL)
            ft = rng.random() < 0.15
            regs.append((key, ft))
        plans.append((regs, []))
    # 4. user backend fallbacks
    fb_plans = [
        ([("CPU", False)], [("CUDA", True, "after_def")]),
        ([("CPU", False)], [("CUDA", False, "after_def")]),
        ([("CompositeImplicitAutograd", False)], [("XLA", True, "after_impls")]),
        ([("CompositeExplicitAutograd", False)], [("PrivateUse1", False, "before_def")]),
        ([("CPU", False)], [("AutogradPrivateUse2", True, "before_def")]),
        ([("Autograd", False)], [("AutogradNestedTensor", False, "after_def")]),
        ([("CompositeImplicitAutograd", False)],
         [("CompositeImplicitAutogradNestedTensor", True, "after_def")]),
    ]
    for _ in range(NUM_FALLBACK_RANDOM):
        n = rng.choice([0, 1, 2, 3, 4])
        regs = []
        for _j in range(n):
            key = None if rng.random() < 0.10 else rng.choice(KEY_POOL)
            regs.append((key, rng.random() < 0.15))
        nfb = rng.choice([1, 1, 2, 3])
        fbkeys = rng.sample(FALLBACK_KEY_POOL, nfb)
        fbs = [(k, rng.random() < 0.5, rng.choice(["before_def", "after_def", "after_impls"]))
               for k in fbkeys]
        fb_plans.append((regs, fbs))
    plans.extend(fb_plans)

    scenarios = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for sid, (regs, fbs) in enumerate(plans):
            scenarios.append(run_scenario(sid, regs, fbs, probe_keys))
    # the global fallback state must be back to the built-in one
    assert builtin_fallback_table() == builtin_text
    return {
        "generated_by": "tools/golden/gen_dispatch.py",
        "torch_version": torch.__version__,
        "seed": SEED,
        "builtin_fallbacks": builtin,
        "builtin_fallbacks_dump_table": builtin_text,
        "live_probe_keys": probe_keys,
        "scenarios": scenarios,
    }
