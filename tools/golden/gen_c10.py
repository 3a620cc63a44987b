#!/usr/bin/env python3
"""Golden fixtures for aten-ts's c10 core: dispatch keys, key sets, dtypes, devices.

Run with the reference torch build (2.13.0+cpu):

    $PYTHON tools/golden/gen_c10.py            # writes test/golden/c10.json
    $PYTHON tools/golden/gen_c10.py -o OUT.json

Everything in the output is read back from the torch binary; nothing is computed
from our own model of the dispatcher, except two helper sets built from raw bits
(backend_functionality_keys and the legacyExtractDispatchKey mask, see
`legacy_mask`), whose *results* still come from the binary's set algebra.

All 64-bit key-set values are written as DECIMAL STRINGS (they exceed 2^53).
Key names are the C++ toString names (`torch._C._dispatch_key_name`).
The output is deterministic (seeded RNG, no timestamps).

The blocks are computed by the modules of tools/golden/c10/ (common helpers, keys, tensors, sets, alias,
dtypes, devices); this script assembles them, checks them against the reference and writes the file.
"""

import argparse
import json
import os
import random
import sys
import warnings

import torch

from c10.common import C, DK, dk, END_OF_ALIAS, name_of, raw, SEED
from c10.keys import gen_all_keys, gen_keys, gen_parse, python_members
from c10.tensors import BFK, gen_tensor_keysets, LEGACY
from c10.sets import gen_backend_from_autograd, gen_full_after, gen_key_ops, gen_named_sets, gen_removal, gen_sets
from c10.alias import gen_alias_runtime_keys
from c10.dtypes import dtype_props, DTYPES, DTYPES_EXT, promote_table
from c10.devices import gen_device_keys, gen_device_parse


def checks(doc):
    """Facts stated in /work/shared/reference/pytorch-dispatcher.md."""
    problems = []

    def expect(what, got, want):
        if got != want:
            problems.append(f"{what}: got {got!r}, reference says {want!r}")

    tk = {e["desc"]: e for e in doc["tensor_keysets"]}
    expect("cpu float32 raw", tk["cpu float32"]["raw"], "635655225345")
    expect("cpu float32 str", tk["cpu float32"]["str"],
           "DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU, AutocastCPU)")
    expect("FULL", doc["full"], str((1 << 62) - 1))
    expect("after_autograd", doc["named_sets"]["after_autograd"], "2305843043573432319")
    keys = {e["name"]: e for e in doc["keys"]}
    expect("CPU raw", keys["CPU"]["raw"], "65537")
    expect("AutogradCPU raw", keys["AutogradCPU"]["raw"], str((1 << 36) + 1))
    expect("QuantizedMeta raw", keys["QuantizedMeta"]["raw"], str((1 << 20) + (1 << 15)))
    expect("Dense raw", keys["Dense"]["raw"], "65536")
    expect("PythonDispatcher raw", keys["PythonDispatcher"]["raw"], str(1 << 61))
    expect("python enum size", len(DK.__members__), 145)
    sets = {tuple(e["keys"]): e for e in doc["sets"] if e.get("hand_picked")}
    expect("{SparseIPU} | {SparseCsrHIP}", sets[("SparseIPU", "SparseCsrHIP")]["str"],
           "DispatchKeySet(SparseHIP, SparseIPU, SparseCsrHIP, SparseCsrIPU)")
    parse = {e["text"]: e for e in doc["parse"]}
    for bad in ["AutogradHIP", "AutogradVE", "AutogradMTIA", "QuantizedMeta", "SparseXLA",
                "Math", "CatchAll", "DefaultBackend", "cpu"]:
        expect(f"parse {bad} ok", parse[bad]["ok"], False)
    for good in ["Dense", "AutogradFunctionality", "Fake", "FPGA", "Vulkan", "Metal",
                 "CustomRNGKeyId", "MkldnnCPU", "Tracer"]:
        expect(f"parse {good} ok", parse[good]["ok"], True)
    return problems


def dump(doc, path):
    """One top-level field per block; each array element on its own line."""
    lines = ["{"]
    items = list(doc.items())
    for i, (k, v) in enumerate(items):
        comma = "," if i + 1 < len(items) else ""
        if isinstance(v, list) and v:
            lines.append(f"  {json.dumps(k)}: [")
            for j, e in enumerate(v):
                c = "," if j + 1 < len(v) else ""
                lines.append(f"    {json.dumps(e, ensure_ascii=False)}{c}")
            lines.append(f"  ]{comma}")
        else:
            lines.append(f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}{comma}")
    lines.append("}")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("-o", "--out",
                    default=os.path.join(here, "..", "..", "test", "golden", "c10.json"))
    args = ap.parse_args()

    warnings.simplefilter("ignore")

    rng = random.Random(SEED)
    members = python_members()
    python_values = {v for v, _, _ in members}
    name_to_value = {}
    for v in range(0, END_OF_ALIAS + 1):
        name_to_value.setdefault(name_of(dk(v)), v)

    doc = {}
    doc["generated_by"] = "tools/golden/gen_c10.py"
    doc["torch_version"] = torch.__version__
    doc["seed"] = SEED
    doc["keys"] = gen_keys(members)
    doc["all_keys"] = gen_all_keys(python_values)
    doc["parse"] = gen_parse()
    doc["tensor_keysets"] = gen_tensor_keysets()
    doc["sets"] = gen_sets(rng)
    doc["full"] = raw(C._dispatch_keyset_full())
    doc["full_after"] = gen_full_after(members)
    doc["removal"] = gen_removal(rng, doc["sets"])
    doc["key_ops"] = gen_key_ops(rng, doc["sets"])
    doc["backend_keyset_from_autograd"] = gen_backend_from_autograd(members)
    doc["alias_runtime_keys"] = gen_alias_runtime_keys(name_to_value)
    doc["named_sets"] = gen_named_sets()
    doc["helper_sets"] = {
        "backend_functionality_keys": raw(BFK),
        "legacy_extract_mask": raw(LEGACY),
    }
    doc["dtypes"] = DTYPES
    doc["promote"] = promote_table(DTYPES)
    doc["dtype_props"] = dtype_props(DTYPES)
    doc["dtypes_ext"] = DTYPES_EXT
    doc["promote_ext"] = promote_table(DTYPES_EXT)
    doc["dtype_props_ext"] = dtype_props(DTYPES_EXT)
    doc["device_keys"] = gen_device_keys()
    doc["device_parse"] = gen_device_parse()

    problems = checks(doc)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    dump(doc, args.out)
    print(f"wrote {os.path.relpath(args.out)}: {len(doc['keys'])} keys, "
          f"{len(doc['parse'])} parse cases, {len(doc['sets'])} sets")
    if problems:
        print("DISAGREEMENTS WITH THE REFERENCE:", file=sys.stderr)
        for p in problems:
            print("  " + p, file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
