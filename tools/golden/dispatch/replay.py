"""The step replayer of tools/golden/gen_dispatch.py's output 2 (test/golden/dispatch_test_dispatch.json): runs
PyTorch's test/test_dispatch.py steps (def, impl, fallback, remove) against the real dispatcher in a private
namespace, records the state after each, and the step builders the tests are written with.
"""
from torch.library import fallthrough_kernel

from dispatch.common import C, dump, dump_table, err_text, invariants_ok
from dispatch.live import make_fallback, make_kernel


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
