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

The parts live in tools/golden/dispatch/: common (key pools, dump readers), live (the live-table probe),
scenarios (output 1), replay (the step replayer), commute and extra (output 2's scenarios).
"""

import argparse
import json
import os
import sys
import warnings

import torch

from dispatch.scenarios import gen_scenarios
from dispatch.replay import StatePool
from dispatch.commute import commute_scenarios
from dispatch.extra import extra_scenarios

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


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
