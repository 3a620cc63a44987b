"""Loads the files aten-ts writes into the PyTorch 2.13 wheel and checks them.

Usage:
    ATEN_TS_ROUNDTRIP_DIR=/tmp/aten-ts-roundtrip npx vitest run test/serialization/torch_format.test.ts
    $PYTHON tools/golden/check_roundtrip.py /tmp/aten-ts-roundtrip

For every `<name>.pt` there: torch.load(weights_only=True) must succeed and give the tree aten-ts recorded in
`<name>.pt.json` (gen_serialization.describe: values, dtypes, shapes, strides, offsets, storage sharing;
ints and floats compare by value, since JavaScript has one number type). The re-saved model and optimizer
state dicts must also load into the golden's nn.Module and Adam (load_state_dict, strict). Every
`<name>.safetensors` is read with a reader written from the format's specification (the `safetensors`
package is not installed next to the wheel) and compared the same way. Prints one line per file; exits 1 on
any mismatch.
"""

import json
import math
import os
import struct
import sys

import torch

sys.path.insert(0, os.path.dirname(__file__))
from gen_serialization import Net, describe  # noqa: E402


def number(tree):
    """The value of an {"int": "7"} or {"float": 0.5 | "nan"} node, else None."""
    if not isinstance(tree, dict) or len(tree) != 1:
        return None
    if "int" in tree:
        return int(tree["int"])
    if "float" in tree:
        return float(tree["float"])
    return None


def same(a, b, path="$"):
    """None if the trees are equal (an int and a float node are equal when their values are), else where not."""
    if isinstance(a, dict) and isinstance(b, dict):
        x, y = number(a), number(b)
        if x is not None and y is not None:
            if x == y or (isinstance(x, float) and isinstance(y, float) and math.isnan(x) and math.isnan(y)):
                return None
            return f"{path}: {x!r} != {y!r}"
        if set(a) != set(b):
            return f"{path}: keys {sorted(a)} != {sorted(b)}"
        for k in a:
            err = same(a[k], b[k], f"{path}.{k}")
            if err:
                return err
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path}: length {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            err = same(x, y, f"{path}[{i}]")
            if err:
                return err
        return None
    return None if a == b else f"{path}: {a!r} != {b!r}"


CODES = {
    "F64": torch.float64,
    "F32": torch.float32,
    "F16": torch.float16,
    "BF16": torch.bfloat16,
    "I64": torch.int64,
    "I32": torch.int32,
    "I16": torch.int16,
    "I8": torch.int8,
    "U8": torch.uint8,
    "BOOL": torch.bool,
}


def read_safetensors(data):
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + n])
    if n % 8 != 0:
        raise ValueError(f"header length {n} is not a multiple of 8")
    out = {}
    end = 0
    for name, info in sorted(
        ((k, v) for k, v in header.items() if k != "__metadata__"), key=lambda kv: kv[1]["data_offsets"]
    ):
        s, e = info["data_offsets"]
        if s != end:
            raise ValueError(f"{name}: offsets not contiguous")
        end = e
        raw = bytearray(data[8 + n + s : 8 + n + e])
        dtype = CODES[info["dtype"]]
        t = torch.frombuffer(raw, dtype=dtype) if raw else torch.empty(0, dtype=dtype)
        out[name] = t.reshape(info["shape"])
    if 8 + n + end != len(data):
        raise ValueError("data does not end where the last tensor does")
    return out, header.get("__metadata__")


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("ATEN_TS_ROUNDTRIP_DIR", "")
    if not folder or not os.path.isdir(folder):
        sys.exit("usage: check_roundtrip.py DIR (the ATEN_TS_ROUNDTRIP_DIR the aten-ts test wrote to)")
    failures = 0
    names = sorted(f for f in os.listdir(folder) if f.endswith((".pt", ".safetensors")))
    if not names:
        sys.exit(f"no .pt or .safetensors files in {folder}")
    for name in names:
        path = os.path.join(folder, name)
        with open(os.path.join(folder, name + ".json")) as f:
            expected = json.load(f)
        try:
            if name.endswith(".pt"):
                obj = torch.load(path, weights_only=True)
                got = describe(obj, {})
                if name == "model_state_dict.pt":
                    Net().load_state_dict(obj, strict=True)
                if name == "adam_state_dict.pt":
                    net = Net()
                    torch.optim.Adam(net.parameters(), lr=0.01).load_state_dict(obj)
            else:
                with open(path, "rb") as f:
                    tensors, _ = read_safetensors(f.read())
                got = {k: describe(v, {})["tensor"] for k, v in tensors.items()}
                # storage ids are per file in the reader (one buffer each); compare the rest
                for tree in (got, expected):
                    for v in tree.values():
                        v.pop("storage", None)
                        v.pop("storage_numel", None)
            err = same(got, expected)
        except Exception as e:  # noqa: BLE001 - report every file
            err = f"{type(e).__name__}: {e}"
        status = "ok" if err is None else f"MISMATCH {err}"
        failures += err is not None
        print(f"{name}: {status}")
    print(f"{len(names) - failures}/{len(names)} files load in torch {torch.__version__} as aten-ts wrote them")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
