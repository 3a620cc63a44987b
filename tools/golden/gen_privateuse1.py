#!/usr/bin/env python3
"""Golden fixture for out-of-tree backends at PrivateUse1: renaming the device and the methods generated for it.

    $PYTHON tools/golden/gen_privateuse1.py     # writes test/golden/privateuse1.json

Renaming is once per process, so the cases run in a fixed order: before the rename, the rename's errors, after
it. Every text is read back from torch (str(device), exception type and message). Deterministic.
"""

import json
import os

import torch


def outcome(fn):
    try:
        value = fn()
        return {"ok": value}
    except Exception as e:  # noqa: BLE001 - every error text is the point
        return {"error": type(e).__name__, "message": str(e)}


def main():
    out = {"generated_by": "tools/golden/gen_privateuse1.py", "torch_version": torch.__version__}
    out["before_rename"] = {
        s: outcome(lambda s=s: str(torch.device(s))) for s in ["privateuseone", "privateuseone:1", "mydev"]
    }
    out["rename_in_tree"] = {
        n: outcome(lambda n=n: torch.utils.rename_privateuse1_backend(n)) for n in ["cpu", "cuda", "hip", "mps", "xpu", "mtia"]
    }
    torch.utils.rename_privateuse1_backend("mydev")
    out["rename_again_same"] = outcome(lambda: torch.utils.rename_privateuse1_backend("mydev"))
    out["rename_again_other"] = outcome(lambda: torch.utils.rename_privateuse1_backend("other"))
    out["after_rename"] = {
        s: outcome(lambda s=s: str(torch.device(s)))
        for s in ["mydev", "mydev:0", "mydev:3", "privateuseone", "privateuseone:1", "mydevx", "cpu"]
    }
    out["get_device_module_missing"] = outcome(lambda: torch.get_device_module("mydev"))
    torch.utils.generate_methods_for_privateuse1_backend()
    out["generate_again"] = outcome(lambda: torch.utils.generate_methods_for_privateuse1_backend())
    out["cpu_is_mydev"] = torch.ones(2).is_mydev
    out["to_wrong_device"] = outcome(lambda: torch.ones(2).mydev("cpu"))
    path = os.path.join(os.path.dirname(__file__), "..", "..", "test", "golden", "privateuse1.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
