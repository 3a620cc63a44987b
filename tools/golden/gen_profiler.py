#!/usr/bin/env python3
"""Golden fixture for torch.profiler's tables: test/golden/profiler.json.

    $PYTHON tools/golden/gen_profiler.py

Profiled times are never reproducible, so the fixture fixes them: a tree of events with given start/end times
(microseconds), names, input shapes and parents is built as torch.autograd.profiler_util.FunctionEvent objects,
and PyTorch's own EventList.key_averages(...).table(...) prints it for several option sets. The TypeScript test
builds the same events with src/profiler/profiler_util.ts and compares the text. Deterministic (fixed data).
"""

import json
import os

import torch
from torch.autograd.profiler_util import EventList, FunctionEvent

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(os.path.dirname(os.path.dirname(HERE)), "test", "golden", "profiler.json")

# [name, start_us, end_us, input_shapes, parent index or -1, is_user_annotation]
EVENTS = [
    ["my_block", 0.0, 17644.25, [], -1, True],
    ["aten::matmul", 10.5, 1742.0, [[4, 4], [4, 4]], 0, False],
    ["aten::mm", 20.0, 1720.125, [[4, 4], [4, 4]], 1, False],
    ["aten::relu", 1800.0, 1900.5, [[4, 4]], 0, False],
    ["aten::sum", 2000.0, 6989.0, [[4, 4], []], 0, False],
    ["aten::add", 20000.0, 20000.75, [[1], [1], []], -1, False],
    ["aten::add", 20010.0, 20011.5, [[1], [1], []], -1, False],
    ["aten::add", 20020.0, 20030.0, [[2, 3], [2, 3], []], -1, False],
    ["aten::mm", 21000.0, 1021000.0, [[512, 512], [512, 512]], -1, False],
    ["autograd::engine::evaluate_function: ThresholdBackward0", 1030000.0, 1030050.0, [], -1, False],
    ["a_name_that_is_certainly_longer_than_the_fifty_five_character_limit_of_the_name_column", 1040000.0, 1040001.0, [], -1, True],
]

OPTIONS = [
    {"group_by_input_shape": False, "sort_by": None, "row_limit": 100},
    {"group_by_input_shape": False, "sort_by": "cpu_time_total", "row_limit": 5},
    {"group_by_input_shape": False, "sort_by": "self_cpu_time_total", "row_limit": 100},
    {"group_by_input_shape": True, "sort_by": "self_cpu_time_total", "row_limit": 4},
    {"group_by_input_shape": True, "sort_by": "count", "row_limit": 100},
    {"group_by_input_shape": False, "sort_by": "cpu_time", "row_limit": 3},
]


def build():
    evs = []
    for i, (name, s, e, shapes, parent, user) in enumerate(EVENTS):
        ev = FunctionEvent(id=i, name=name, thread=0, start_us=s, end_us=e, input_shapes=shapes, stack=[],
                           is_user_annotation=user)
        evs.append(ev)
        if parent >= 0:
            evs[parent].append_cpu_child(ev)
            ev.set_cpu_parent(evs[parent])
    el = EventList(evs)
    el._tree_built = True  # parents linked above, as _build_tree would from the nested intervals
    return el


def main():
    cases = []
    for o in OPTIONS:
        avg = build().key_averages(group_by_input_shapes=o["group_by_input_shape"])
        cases.append(dict(o, table=avg.table(sort_by=o["sort_by"], row_limit=o["row_limit"])))
    data = {"generated_by": "tools/golden/gen_profiler.py", "torch_version": torch.__version__,
            "events": EVENTS, "cases": cases}
    with open(OUT, "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    print("wrote", OUT)


if __name__ == "__main__":
    main()
