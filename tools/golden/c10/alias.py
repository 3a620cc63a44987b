"""c10.json's `alias_runtime_keys`: the runtime keys each alias key expands to
(getRuntimeDispatchKeySet in c10/core/DispatchKeySet.cpp), read from a fresh op's computed table. Part of
tools/golden/gen_c10.py.
"""
import re

import torch

from c10.common import (
    ALIAS_KEYS,
    C,
    DK,
    dk,
    END_OF_ALIAS,
    END_OF_FUNCTIONALITY,
    END_OF_RUNTIME,
    name_of,
    START_OF_BLOCKS,
)


# alias keys -> runtime keys (computed table of a fresh op)

TAG_RE = re.compile(r"^(?P<key>[A-Za-z0-9_]+): (?P<body>.*) \[(?P<tag>[^\[\]]+)\]$")


def gen_alias_runtime_keys(name_to_value):
    out = []
    libs = []
    for i, alias in enumerate(ALIAS_KEYS):
        ns = f"_aten_ts_golden_c10_{i}"
        lib = torch.library.Library(ns, "DEF")
        libs.append(lib)
        lib.define("op(Tensor x) -> Tensor")
        lib.impl("op", lambda x: x, alias)
        qual = f"{ns}::op"
        table = C._dispatch_dump_table(qual)
        entries = []
        for line in table.splitlines():
            if not line.strip():
                continue
            m = TAG_RE.match(line)
            assert m, line
            if m.group("tag") == "backend fallback":
                continue
            key = m.group("key")
            entries.append({"key": key, "value": name_to_value[key], "tag": m.group("tag"),
                            "fallthrough": m.group("body").startswith("fallthrough ")})
        # Cross-check with the computed-kernel query for every runtime key 1..149
        # (Undefined is only visible in the dump).
        covered = {e["key"] for e in entries}
        for v in range(1, END_OF_RUNTIME + 1):
            if v == END_OF_FUNCTIONALITY or v in START_OF_BLOCKS:
                continue
            kname = name_of(dk(v))
            has = C._dispatch_has_computed_kernel_for_dispatch_key(qual, kname) \
                if C._parse_dispatch_key(kname) is not None else None
            if has is not None and kname in covered:
                assert has, (alias, kname)
        out.append({
            "alias": alias,
            "value": int(getattr(DK, alias).value),
            "keys": [e["key"] for e in entries],
            "entries": entries,
            "is_included_in_alias": [
                v for v in range(0, END_OF_ALIAS + 1)
                if C._dispatch_is_included_in_alias(dk(v), getattr(DK, alias))
            ],
        })
    for lib in libs:
        lib._destroy()
    return out
