"""The error tests of PyTorch's test/test_dispatch.py that do not use `commute`, and further Library error
scenarios (fallbacks, namespaces, alias and catch-all blocks, key-name parse errors), for
test/golden/dispatch_test_dispatch.json. Part of tools/golden/gen_dispatch.py.
"""
from dispatch.replay import frag, NS, op_def, op_fallback, op_impl, op_impl_t_t, play, with_lib


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
