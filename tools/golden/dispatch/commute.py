"""The `commute` tests of PyTorch's test/test_dispatch.py (TestDispatch) as data for
test/golden/dispatch_test_dispatch.json: every registration-order permutation, and every deregistration order
of the identity order. Part of tools/golden/gen_dispatch.py.
"""
import itertools

from dispatch.replay import frag, op_def, op_def_legacy, op_def_name_t_t, op_impl_t_t, play, StatePool, with_lib


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
