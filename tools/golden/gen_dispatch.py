#!/usr/bin/env python3
"""Golden fixtures for aten-ts's operator dispatcher (OperatorEntry / Dispatcher / Library).

Run with the reference torch build (2.13.0+cpu):

    $PYTHON tools/golden/gen_dispatch.py
        # writes test/golden/dispatch_scenarios.json and test/golden/dispatch_test_dispatch.json
    $PYTHON tools/golden/gen_dispatch.py --scenarios A.json --test-dispatch B.json

Every dump text, table line and error message in the output is read back from the
torch binary (`torch._C._dispatch_dump`, `_dispatch_dump_table`, exception text);
nothing is computed from our own model of the dispatcher.  The output is
deterministic (seeded RNG, no timestamps, no addresses).  The JSON formats are
documented in tools/golden/README.md ("gen_dispatch.py").

Output 1 (dispatch_scenarios.json): random registration sets on fresh operators
`test_ns::op<N>(Tensor x) -> Tensor`, each registration a Python kernel or a
fallthrough registered through its own FRAGMENT library whose file is
`reg<N>_<j>` (so its debug string is `registered at reg<N>_<j>:0`), plus scenarios
with user backend fallbacks, plus the built-in fallback table.

Output 2 (dispatch_test_dispatch.json): PyTorch's test/test_dispatch.py
(TestDispatch) replayed as data: every registration-order permutation of every
`commute` test (deregistration in reverse order; the identity order additionally
with every deregistration order), the error tests, and extra Library error
scenarios, with the dispatcher state after every step.
"""

import argparse
import itertools
import json
import os
import random
import re
import sys
import warnings

import torch
from torch.library import fallthrough_kernel

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

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


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


# ---------------------------------------------------------------------------------
# Live-table probe (informational).  The dumps recompute every entry from scratch;
# calls read the incrementally maintained live table.  We redispatch with the
# single-key set {k}, which reads exactly live slot k.  Our kernels/fallbacks are
# Python functions that log (label, keyset); a slot is "ours" if the first logged
# call has exactly the probe key set (a fallback that redispatches would pass a
# different set).
# ---------------------------------------------------------------------------------
CALLS = []


def make_kernel(label):
    def kernel(ks, x):
        CALLS.append((label, str(ks)))
        return x
    return kernel


def make_fallback(label):
    def fallback(ks, op, *args, **kwargs):
        CALLS.append((label, str(ks)))
        return args[0] if args else None
    return fallback


def probe_live(op_name, keys, redispatching_keys):
    handle = C._dispatch_find_schema_or_throw(op_name, "")
    x = torch.zeros(1)
    live = {}
    for k in keys:
        ks = probe_keyset(k)
        CALLS.clear()
        label = "other"
        try:
            handle.redispatch_boxed(ks, x)
            if CALLS and CALLS[0][1] == str(ks):
                label = CALLS[0][0]
        except Exception as e:  # noqa: BLE001 - classification only
            if CALLS and CALLS[0][1] == str(ks):
                label = CALLS[0][0]
            elif not CALLS and "fallthrough_kernel was executed" in str(e):
                # Either slot k itself is a fallthrough, or slot k is a built-in
                # fallback (autograd) that redispatched into a fallthrough slot.
                # The two cannot be told apart from Python: report the latter as
                # "other" (see expected_live / README).
                label = "fallthrough" if k not in redispatching_keys else "other"
        live[k] = label
    CALLS.clear()
    return live


def expected_live(computed, keys, labels_by_debug):
    exp = {}
    for k in keys:
        e = computed.get(k)
        if e is None:
            exp[k] = "other"
        elif e["fallthrough"]:
            exp[k] = "fallthrough"
        else:
            exp[k] = labels_by_debug.get(e["debug"], "other")
    return exp


# ---------------------------------------------------------------------------------
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


# ---------------------------------------------------------------------------------
# Output 2: test_dispatch.py as data
# ---------------------------------------------------------------------------------
NS = "test"            # normalized namespace in the output
NS_COUNTER = [0]


def lib_debug(file, line):
    return "registered at %s:%d" % (file, line)


class Replayer:
    """Executes steps against the real dispatcher in a private namespace."""

    def __init__(self):
        NS_COUNTER[0] += 1
        self.real_ns = "__test%d__" % NS_COUNTER[0]
        self.libs = {}
        self.lib_info = {}

    def ns(self, s):
        return self.real_ns if s == NS else s

    def name(self, s):
        # explicit namespace "test::" in a schema / op name
        if s.startswith(NS + "::"):
            return self.real_ns + s[len(NS):]
        return s

    def norm(self, text):
        return text.replace(self.real_ns, NS)

    def run(self, step):
        a = step["action"]
        if a == "library":
            lib = C._dispatch_library(step["kind"], self.ns(step["ns"]), step["key"],
                                      step["file"], step["line"])
            self.libs[step["lib"]] = lib
            self.lib_info[step["lib"]] = step
            return
        if a == "remove":
            lib = self.libs.pop(step["lib"])
            lib.reset()
            return
        m = self.libs[step["lib"]]
        if a == "def":
            m.def_(self.name(step["schema"]), step.get("alias", ""))
        elif a == "def_legacy":
            m.def_legacy(self.name(step["schema"]))
        elif a == "def_name_t_t":
            m.def_name_t_t(self.name(step["name"]), step["key"], step["kernel_debug"])
        elif a == "impl_t_t":
            m.impl_t_t(self.name(step["name"]), step["key"], step["debug"])
        elif a == "impl":
            key = step["key"] if step["key"] is not None else "Undefined"
            if step["fallthrough"]:
                m.impl(self.name(step["name"]), key, fallthrough_kernel)
            else:
                m.impl(self.name(step["name"]), key, make_kernel("py"), True)
        elif a == "fallback":
            if step["fallthrough"]:
                m.fallback_fallthrough(step["key"])
            else:
                assert step["key"], "a Python fallback needs an explicit key"
                m.fallback(step["key"], make_fallback("fb"), True)
        else:
            raise AssertionError(a)

    def cleanup(self):
        for k in sorted(self.libs, reverse=True):
            self.libs[k].reset()
        self.libs.clear()


class StatePool:
    def __init__(self):
        self.states = []
        self.index = {}

    def add(self, d, t):
        key = (d, t)
        if key not in self.index:
            self.index[key] = len(self.states)
            self.states.append({"dump": d, "dump_table": t})
        return self.index[key]


def annotate(step, libs_by_id):
    """Add informational 'debug' fields (the debug string the registration gets)."""
    s = dict(step)
    a = s["action"]
    if a == "library":
        s["debug"] = lib_debug(s["file"], s["line"])
    if a in ("def", "def_legacy", "impl", "fallback", "def_name_t_t"):
        info = libs_by_id.get(s["lib"])
        if info is not None:
            d = lib_debug(info["file"], info["line"])
            if a == "def_name_t_t":
                s["def_debug"] = d
            elif a != "impl_t_t":
                s["debug"] = d
    return s


def play(name, op, steps, pool):
    """Run steps; return the scenario record.  Errors are recorded, not raised."""
    rp = Replayer()
    real_op = rp.name(op)
    out_steps = []
    libs_by_id = {}
    results = []
    try:
        for st in steps:
            if st["action"] == "library":
                libs_by_id[st["lib"]] = st
            if st["action"] == "remove" and st["lib"] not in rp.libs:
                raise AssertionError("%s: remove of a library that was never created" % name)
            out_steps.append(annotate(st, libs_by_id))
            res = {}
            try:
                rp.run(st)
            except Exception as e:  # noqa: BLE001 - errors are data here
                res["error"] = rp.norm(err_text(e))
                res["error_type"] = type(e).__name__
            res["state"] = pool.add(rp.norm(dump(real_op)), rp.norm(dump_table(real_op)))
            res["invariants_ok"] = invariants_ok(real_op)
            results.append(res)
    finally:
        rp.cleanup()
    assert dump(real_op) == "", "%s: operator survived" % name
    return {"name": name, "op": op, "steps": out_steps, "after_each_step": results}


def frag(lib, file="/dev/null", line=0, kind="FRAGMENT", ns=NS, key=""):
    return {"action": "library", "lib": lib, "kind": kind, "ns": ns, "key": key,
            "file": file, "line": line}


def op_def(schema, alias=""):
    return {"action": "def", "schema": schema, "alias": alias}


def op_def_legacy(schema):
    return {"action": "def_legacy", "schema": schema}


def op_def_name_t_t(name="foo", key="", debug="default_def_name_t_t"):
    return {"action": "def_name_t_t", "name": name, "key": key, "kernel_debug": debug}


def op_impl_t_t(name="foo", key="", debug="impl_t_t"):
    return {"action": "impl_t_t", "name": name, "key": key, "debug": debug}


def op_impl(name="foo", key="CPU", fallthrough=False):
    return {"action": "impl", "name": name, "key": key, "fallthrough": fallthrough}


def op_fallback(key="", fallthrough=True):
    return {"action": "fallback", "key": key, "fallthrough": fallthrough}


def with_lib(op, lib):
    s = dict(op)
    s["lib"] = lib
    return s


# The TestDispatch commute tests: (name, ops, fixed ctor order or None, expect_raises,
# prelude steps run before / removed after (global libraries of the original test)).
def commute_tests():
    global_autogradcpu = [frag(100, kind="IMPL", ns="_", key="AutogradCPU")]
    T = []
    T.append(("test_def", [
        op_def("foo(Tensor x) -> Tensor"),
        op_impl_t_t("foo"),
        op_impl_t_t("foo", key="CPU"),
        op_impl_t_t("foo", key="Autograd"),
        op_impl_t_t("foo", key="AutogradCPU"),
    ], None, False, []))
    T.append(("test_def_impl_schema_mismatch", [
        op_def("foo(Tensor x, Tensor y) -> Tensor"),
        op_impl_t_t("foo"),
    ], None, True, []))
    T.append(("test_def_with_inference", [
        op_def_name_t_t("foo"),
        op_impl_t_t("foo", "CPU"),
        op_impl_t_t("foo", "Autograd"),
        op_impl_t_t("foo", "AutogradCPU"),
    ], None, False, []))
    T.append(("test_def_only", [
        op_def("foo(Tensor x, Tensor y) -> Tensor"),
    ], None, False, []))
    T.append(("test_impl_only", [
        op_impl_t_t("foo"),
        op_impl_t_t("foo", "CPU"),
        op_impl_t_t("foo", "Autograd"),
        op_impl_t_t("foo", "AutogradCPU"),
    ], None, False, []))
    T.append(("test_computed_table", [
        op_def_name_t_t("foo"),
        op_impl_t_t("foo", "CPU", debug="fn_cpu"),
        op_impl_t_t("foo", "XLA", debug="fn_xla"),
        op_impl_t_t("foo", "Autograd", debug="fn_autograd"),
        op_impl_t_t("foo", "AutogradCPU", debug="fn_autogradcpu"),
    ], None, False, []))
    T.append(("test_computed_table_with_cpu_math_autogradcpu_fallthrough", [
        op_def_name_t_t("foo"),
        op_impl_t_t("foo", "CPU"),
    ], None, False, global_autogradcpu))
    T.append(("test_computed_table_with_math", [
        op_def("foo(Tensor x) -> Tensor"),
        op_impl_t_t("foo", "CompositeImplicitAutograd"),
    ], None, False, global_autogradcpu))
    T.append(("test_computed_table_with_cpu_math", [
        op_def("foo(Tensor x) -> Tensor"),
        op_impl_t_t("foo", "CPU", debug="fn_cpu"),
        op_impl_t_t("foo", "CompositeImplicitAutograd", debug="fn_math"),
    ], None, False, global_autogradcpu))
    T.append(("test_computed_table_with_autograd", [
        op_def("foo(Tensor x) -> Tensor"),
        op_impl_t_t("foo", "Autograd"),
    ], None, False, global_autogradcpu))
    T.append(("test_computed_table_with_cpu_autograd_math", [
        op_def("foo(Tensor x) -> Tensor"),
        op_impl_t_t("foo", "CPU", debug="fn_cpu"),
        op_impl_t_t("foo", "Autograd", debug="fn_autograd"),
        op_impl_t_t("foo", "CompositeImplicitAutograd", debug="fn_math"),
    ], None, False, []))
    T.append(("test_computed_table_with_ambiguous_autogradother", [
        op_def("foo(Tensor x) -> Tensor"),
        op_impl_t_t("foo", "CompositeImplicitAutograd", debug="fn_math"),
        op_impl_t_t("foo", "QuantizedCPU", debug="fn_quantizedcpu"),
    ], None, False, []))
    T.append(("test_computed_table_with_cpu_defaultbackend", [
        op_def("foo(Tensor x) -> Tensor"),
        op_impl_t_t("foo", "CPU", debug="fn_cpu"),
        op_impl_t_t("foo", "CompositeExplicitAutograd", debug="fn_defaultbackend"),
    ], None, False, []))
    T.append(("test_computed_table_with_cpu_autograd_defaultbackend", [
        op_def("foo(Tensor x) -> Tensor"),
        op_impl_t_t("foo", "CPU", debug="fn_cpu"),
        op_impl_t_t("foo", "Autograd", debug="fn_autograd"),
        op_impl_t_t("foo", "CompositeExplicitAutograd", debug="fn_defaultbackend"),
    ], None, False, []))
    T.append(("test_computed_table_with_cpu_autograd_math_defaultbackend", [
        op_def("foo(Tensor x) -> Tensor"),
        op_impl_t_t("foo", "CPU", debug="fn_cpu"),
        op_impl_t_t("foo", "Autograd", debug="fn_autograd"),
        op_impl_t_t("foo", "CompositeImplicitAutograd", debug="fn_math"),
        op_impl_t_t("foo", "CompositeExplicitAutograd", debug="fn_defaultbackend"),
    ], None, False, []))
    T.append(("test_multiple_def_error", [
        op_def("foo(Tensor x, Tensor y) -> Tensor"),
        op_def("foo(Tensor x, Tensor y) -> Tensor"),
    ], None, True, []))
    T.append(("test_def_with_explicit_alias", [
        op_def("foo(Tensor x, Tensor y) -> Tensor", alias="PURE_FUNCTION"),
    ], None, False, []))
    T.append(("test_multiple_def_alias_defaulting", [
        op_def("foo(Tensor x) -> Tensor", alias="PURE_FUNCTION"),
        op_def_legacy("foo(Tensor x) -> Tensor"),
    ], None, True, []))
    T.append(("test_multiple_def_alias_mismatch", [
        op_def("foo(Tensor x) -> Tensor", alias="PURE_FUNCTION"),
        op_def("foo(Tensor x) -> Tensor", alias="CONSERVATIVE"),
    ], None, True, []))
    T.append(("test_overwrite_math", [
        op_impl_t_t("foo", debug="fn1"),
        op_impl_t_t("foo", debug="fn2"),
    ], (0, 1), False, []))
    return T


def commute_scenarios(pool, report):
    out = []
    for name, ops, fixed, expect_raises, prelude in commute_tests():
        n = len(ops)
        ctor_orders = [tuple(fixed)] if fixed is not None else list(itertools.permutations(range(n)))
        runs = []
        for ctor in ctor_orders:
            dtors = [tuple(reversed(ctor))]
            if ctor == tuple(range(n)):
                dtors += [p for p in itertools.permutations(range(n)) if p != dtors[0]]
            for dtor in dtors:
                runs.append((ctor, dtor))
        by_set = {}   # active set -> state index / error text (commutativity check)
        noncommuting = 0
        raised_anywhere = False
        for ctor, dtor in runs:
            steps = []
            for p in prelude:
                steps.append(p)
            for i in ctor:
                steps.append(frag(i))
                steps.append(with_lib(ops[i], i))
            # deregistration: every library that exists, in dtor order
            steps_pre = list(steps)
            sc_name = "%s[order=%s]" % (name, ",".join(map(str, ctor)))
            if dtor != tuple(reversed(ctor)):
                sc_name = "%s[order=%s;dtor=%s]" % (name, ",".join(map(str, ctor)),
                                                    ",".join(map(str, dtor)))
            # Run ctors first to learn where the first error happens (test_dispatch stops
            # running ctors at the first error), then build the real step list.
            probe = play(sc_name, "test::foo", steps_pre, StatePool())
            cut = len(steps_pre)
            for idx, r in enumerate(probe["after_each_step"]):
                if "error" in r and idx >= len(prelude):
                    cut = idx + 1
                    break
            steps = steps_pre[:cut]
            created = [s["lib"] for s in steps if s["action"] == "library" and s["lib"] < 100]
            for i in dtor:
                if i in created:
                    steps.append({"action": "remove", "lib": i})
            for p in reversed(prelude):
                steps.append({"action": "remove", "lib": p["lib"]})
            sc = play(sc_name, "test::foo", steps, pool)
            # commutativity bookkeeping (as TestDispatch.run_ops)
            active = set()
            for st, r in zip(sc["steps"], sc["after_each_step"]):
                if st["action"] in ("library",):
                    continue
                if st["action"] == "remove":
                    active.discard(st["lib"])
                elif "error" in r:
                    raised_anywhere = True
                    continue
                else:
                    active.add(st["lib"])
                key = frozenset(active)
                v = r["state"]
                if by_set.setdefault(key, v) != v:
                    noncommuting += 1
            sc["test"] = name
            sc["ctor_order"] = list(ctor)
            sc["dtor_order"] = [i for i in dtor if i in created]
            out.append(sc)
        report.append("%s: %d scenarios, non-commuting states: %d%s" % (
            name, len(runs), noncommuting,
            "" if raised_anywhere == expect_raises else " (expect_raises mismatch!)"))
    return out


def extra_scenarios(pool):
    """Error tests of TestDispatch that do not use commute, plus Library errors."""
    S = []

    def add(name, steps, op="test::foo"):
        S.append(play(name, op, steps, pool))

    # test_multiple_fallback (plus a def so the fallback is visible in dump_table)
    add("test_multiple_fallback", [
        frag(0), with_lib(op_def("foo(Tensor x) -> Tensor"), 0),
        frag(1, kind="IMPL", ns="_", key="XLA"),
        with_lib(op_fallback(), 1),
        with_lib(op_fallback(), 1),
        {"action": "remove", "lib": 1},
        {"action": "remove", "lib": 0},
    ])
    add("error_multiple_fallback_two_libraries", [
        frag(0), with_lib(op_def("foo(Tensor x) -> Tensor"), 0),
        frag(1, kind="IMPL", ns="_", key="XLA", file="fb_a", line=1),
        with_lib(op_fallback("", True), 1),
        frag(2, kind="IMPL", ns="_", key="XLA", file="fb_b", line=2),
        with_lib(op_fallback("XLA", False), 2),
        {"action": "remove", "lib": 2},
        {"action": "remove", "lib": 1},
        {"action": "remove", "lib": 0},
    ])
    add("error_fallback_on_builtin_fallback_key", [
        frag(0), with_lib(op_def("foo(Tensor x) -> Tensor"), 0),
        frag(1, kind="IMPL", ns="_", key="AutogradCPU", file="fb_a", line=1),
        with_lib(op_fallback("", True), 1),
        {"action": "remove", "lib": 1},
        {"action": "remove", "lib": 0},
    ])
    add("fallback_python_then_removed", [
        frag(0), with_lib(op_def("foo(Tensor x) -> Tensor"), 0),
        frag(1, kind="IMPL", ns="_", key="CUDA", file="fb_a", line=1),
        with_lib(op_fallback("CUDA", False), 1),
        frag(2), with_lib(op_impl("foo", "CPU"), 2),
        {"action": "remove", "lib": 1},
        {"action": "remove", "lib": 2},
        {"action": "remove", "lib": 0},
    ])
    add("fallback_explicit_key_differs_from_block_key", [
        frag(0), with_lib(op_def("foo(Tensor x) -> Tensor"), 0),
        frag(1, kind="IMPL", ns="_", key="CUDA", file="fb_a", line=1),
        with_lib(op_fallback("XLA", True), 1),
        {"action": "remove", "lib": 1},
        {"action": "remove", "lib": 0},
    ])
    add("fallback_alias_key_expands", [
        frag(0), with_lib(op_def("foo(Tensor x) -> Tensor"), 0),
        frag(1, kind="IMPL", ns="_", key="CompositeImplicitAutogradNestedTensor",
             file="fb_a", line=1),
        with_lib(op_fallback("", True), 1),
        {"action": "remove", "lib": 1},
        {"action": "remove", "lib": 0},
    ])
    add("fallback_before_operator_exists", [
        frag(1, kind="IMPL", ns="_", key="XLA", file="fb_a", line=1),
        with_lib(op_fallback("", True), 1),
        frag(0), with_lib(op_def("foo(Tensor x) -> Tensor"), 0),
        {"action": "remove", "lib": 1},
        {"action": "remove", "lib": 0},
    ])
    add("error_fallback_catchall_block", [
        frag(0), with_lib(op_def("foo(Tensor x) -> Tensor"), 0),
        frag(1, kind="IMPL", ns="_", key="", file="fb_a", line=1),
        with_lib(op_fallback("", True), 1),
        {"action": "remove", "lib": 1},
        {"action": "remove", "lib": 0},
    ])
    add("error_fallback_in_namespaced_impl_block", [
        frag(0), with_lib(op_def("foo(Tensor x) -> Tensor"), 0),
        frag(1, kind="IMPL", ns=NS, key="CPU", file="lib_b", line=2),
        with_lib(op_fallback("", True), 1),
        {"action": "remove", "lib": 1},
        {"action": "remove", "lib": 0},
    ])
    add("error_fallback_in_fragment_block", [
        frag(0, file="lib_a", line=1),
        with_lib(op_fallback("CPU", True), 0),
        {"action": "remove", "lib": 0},
    ])
    add("error_fallback_in_def_block", [
        frag(0, kind="DEF", file="lib_a", line=1),
        with_lib(op_fallback("CPU", True), 0),
        {"action": "remove", "lib": 0},
    ])
    add("error_torch_library_twice", [
        frag(0, kind="DEF", file="lib_a", line=1),
        with_lib(op_def("foo(Tensor x) -> Tensor"), 0),
        frag(1, kind="DEF", file="lib_b", line=2),
        {"action": "remove", "lib": 0},
        frag(2, kind="DEF", file="lib_c", line=3),
        with_lib(op_def("foo(Tensor x) -> Tensor"), 2),
        {"action": "remove", "lib": 2},
    ])
    add("torch_library_and_fragment_coexist", [
        frag(0, kind="DEF", file="lib_a", line=1),
        with_lib(op_def("foo(Tensor x) -> Tensor"), 0),
        frag(1, kind="FRAGMENT", file="lib_b", line=2),
        with_lib(op_def("bar(Tensor x) -> Tensor"), 1),
        with_lib(op_def("foo(Tensor x) -> Tensor"), 1),
        {"action": "remove", "lib": 1},
        {"action": "remove", "lib": 0},
    ])
    add("error_def_in_impl_block", [
        frag(0, kind="IMPL", key="CPU", file="lib_a", line=1),
        with_lib(op_def("foo(Tensor x) -> Tensor"), 0),
        {"action": "remove", "lib": 0},
    ])
    add("error_namespace_mismatch_def_fragment", [
        frag(0, file="lib_a", line=1),
        with_lib(op_def("other::foo(Tensor x) -> Tensor"), 0),
        {"action": "remove", "lib": 0},
    ])
    add("error_namespace_mismatch_def_library", [
        frag(0, kind="DEF", file="lib_a", line=1),
        with_lib(op_def("other::foo(Tensor x) -> Tensor"), 0),
        {"action": "remove", "lib": 0},
    ])
    add("def_explicit_matching_namespace", [
        frag(0, kind="DEF", file="lib_a", line=1),
        with_lib(op_def("test::foo(Tensor x) -> Tensor"), 0),
        {"action": "remove", "lib": 0},
    ])
    add("error_namespace_mismatch_impl_fragment", [
        frag(0, file="lib_a", line=1),
        with_lib(op_def("foo(Tensor x) -> Tensor"), 0),
        with_lib(op_impl_t_t("other::foo", "CPU"), 0),
        {"action": "remove", "lib": 0},
    ])
    add("error_namespace_mismatch_impl_block", [
        frag(0, file="lib_a", line=1),
        with_lib(op_def("foo(Tensor x) -> Tensor"), 0),
        frag(1, kind="IMPL", key="CPU", file="lib_b", line=2),
        with_lib(op_impl("other::foo", "CPU"), 1),
        with_lib(op_impl("test::foo", "CPU"), 1),
        {"action": "remove", "lib": 1},
        {"action": "remove", "lib": 0},
    ])
    add("error_impl_key_mismatch", [
        frag(0, file="lib_a", line=1),
        with_lib(op_def("foo(Tensor x) -> Tensor"), 0),
        frag(1, kind="IMPL", key="CPU", file="lib_b", line=2),
        with_lib(op_impl_t_t("foo", "CUDA"), 1),
        with_lib(op_impl("foo", "CUDA"), 1),
        with_lib(op_impl_t_t("foo", ""), 1),
        with_lib(op_impl("foo", "CPU", fallthrough=True), 1),
        {"action": "remove", "lib": 1},
        {"action": "remove", "lib": 0},
    ])
    add("impl_block_alias_and_catchall_keys", [
        frag(0, file="lib_a", line=1),
        with_lib(op_def("foo(Tensor x) -> Tensor"), 0),
        frag(1, kind="IMPL", key="Autograd", file="lib_b", line=2),
        with_lib(op_impl_t_t("foo", "", debug="fn_autograd"), 1),
        frag(2, kind="IMPL", key="Undefined", file="lib_c", line=3),
        with_lib(op_impl_t_t("foo", "", debug="fn_catchall"), 2),
        frag(3, kind="IMPL", key="CompositeExplicitAutograd", file="lib_d", line=4),
        with_lib(op_impl("foo", "CompositeExplicitAutograd"), 3),
        {"action": "remove", "lib": 2},
        {"action": "remove", "lib": 3},
        {"action": "remove", "lib": 1},
        {"action": "remove", "lib": 0},
    ])
    add("error_fragment_wildcard_namespace", [
        frag(0, ns="_", file="lib_a", line=1),
    ])
    add("error_def_wildcard_namespace", [
        frag(0, kind="DEF", ns="_", file="lib_a", line=1),
    ])
    add("error_parse_dispatch_key", [
        frag(0, file="lib_a", line=1),
        with_lib(op_def("foo(Tensor x) -> Tensor"), 0),
        frag(1, kind="IMPL", ns="_", key="AutogradHIP", file="lib_b", line=2),
        frag(2, kind="IMPL", ns=NS, key="CatchAll", file="lib_c", line=3),
        frag(3, kind="IMPL", ns=NS, key="Bogus", file="lib_d", line=4),
        with_lib(op_impl_t_t("foo", "AutogradHIP"), 0),
        with_lib(op_impl("foo", "AutogradVE"), 0),
        with_lib(op_impl_t_t("foo", "QuantizedMeta"), 0),
        with_lib(op_impl_t_t("foo", "AutogradMTIA"), 0),
        {"action": "remove", "lib": 0},
    ])
    add("error_library_kind", [
        frag(0, kind="TORCH_LIBRARY", file="lib_a", line=1),
    ])
    add("error_impl_schema_mismatch_at_key", [
        frag(0, file="lib_a", line=1),
        with_lib(op_def("foo(Tensor x, Tensor y) -> Tensor"), 0),
        frag(1, file="lib_b", line=2),
        with_lib(op_impl_t_t("foo", "CPU", debug="fn_cpu"), 1),
        with_lib(op_impl("foo", "CPU"), 1),
        {"action": "remove", "lib": 1},
        {"action": "remove", "lib": 0},
    ])
    add("error_def_after_mismatching_cpp_impls", [
        frag(1, file="lib_b", line=2),
        with_lib(op_impl_t_t("foo", "CPU", debug="fn_cpu"), 1),
        with_lib(op_impl("foo", "CUDA"), 1),
        frag(0, file="lib_a", line=1),
        with_lib(op_def("foo(Tensor x, Tensor y) -> Tensor"), 0),
        with_lib(op_def("foo(Tensor x) -> Tensor"), 0),
        {"action": "remove", "lib": 1},
        {"action": "remove", "lib": 0},
    ])
    add("overload_and_cpp_kernel", [
        frag(0, file="lib_a", line=1),
        with_lib(op_def("foo.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)"), 0),
        with_lib(op_def("foo(Tensor x) -> Tensor"), 0),
        with_lib(op_impl_t_t("foo", "CPU"), 0),
        with_lib(op_impl("foo.out", "CPU"), 0),
        {"action": "remove", "lib": 0},
    ])
    add("python_and_cpp_kernels_same_key_override", [
        frag(0, file="lib_a", line=1),
        with_lib(op_def("foo(Tensor x) -> Tensor"), 0),
        frag(1, file="lib_b", line=2),
        with_lib(op_impl_t_t("foo", "CPU", debug="fn_cpp"), 1),
        frag(2, file="lib_c", line=3),
        with_lib(op_impl("foo", "CPU"), 2),
        frag(3, file="lib_d", line=4),
        with_lib(op_impl("foo", "CPU", fallthrough=True), 3),
        {"action": "remove", "lib": 2},
        {"action": "remove", "lib": 3},
        {"action": "remove", "lib": 1},
        {"action": "remove", "lib": 0},
    ])
    add("catchall_python_and_fallthrough", [
        frag(0, file="lib_a", line=1),
        with_lib(op_def("foo(Tensor x) -> Tensor"), 0),
        frag(1, file="lib_b", line=2),
        with_lib(op_impl("foo", None), 1),
        frag(2, file="lib_c", line=3),
        with_lib(op_impl("foo", None, fallthrough=True), 2),
        {"action": "remove", "lib": 0},
        {"action": "remove", "lib": 1},
        {"action": "remove", "lib": 2},
    ])
    return S


def gen_test_dispatch():
    pool = StatePool()
    report = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scen = commute_scenarios(pool, report)
        extra = extra_scenarios(pool)
    return {
        "generated_by": "tools/golden/gen_dispatch.py",
        "torch_version": torch.__version__,
        "commute_report": report,
        "states": pool.states,
        "scenarios": scen + extra,
    }, report


# ---------------------------------------------------------------------------------
def write_json(path, obj, list_key):
    """Top-level object; the big list `list_key` is written one element per line."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    parts = []
    for k, v in obj.items():
        if isinstance(v, list) and k in list_key:
            body = ",\n".join(json.dumps(x, ensure_ascii=False, separators=(",", ":"))
                              for x in v)
            parts.append("%s: [\n%s\n]" % (json.dumps(k), body))
        else:
            parts.append("%s: %s" % (json.dumps(k),
                                     json.dumps(v, ensure_ascii=False, separators=(",", ":"))))
    with open(path, "w", encoding="utf-8") as f:
        f.write("{\n" + ",\n".join(parts) + "\n}\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scenarios", default=os.path.join(ROOT, "test/golden/dispatch_scenarios.json"))
    ap.add_argument("--test-dispatch",
                    default=os.path.join(ROOT, "test/golden/dispatch_test_dispatch.json"))
    args = ap.parse_args()
    if not torch.__version__.startswith("2.13.0"):
        print("warning: reference build is 2.13.0+cpu, running %s" % torch.__version__,
              file=sys.stderr)

    out1 = gen_scenarios()
    write_json(args.scenarios, out1, ("scenarios",))
    out2, report = gen_test_dispatch()
    write_json(args.test_dispatch, out2, ("scenarios", "states"))

    sc = out1["scenarios"]
    print("%s: %d scenarios (%d with fallbacks), %d with stale live entries, %d failing "
          "check_invariants, %d bytes" % (
              args.scenarios, len(sc), sum(1 for s in sc if "fallbacks" in s),
              sum(1 for s in sc if s["live_stale"]), sum(1 for s in sc if not s["invariants_ok"]),
              os.path.getsize(args.scenarios)))
    print("%s: %d scenarios, %d distinct states, %d bytes" % (
        args.test_dispatch, len(out2["scenarios"]), len(out2["states"]),
        os.path.getsize(args.test_dispatch)))
    for line in report:
        print("  " + line)


if __name__ == "__main__":
    main()
