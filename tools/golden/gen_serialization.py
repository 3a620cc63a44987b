"""Golden files for src/serialization: checkpoints written by torch.save (PyTorch's zip format) and
safetensors files, plus test/golden/serialization.json describing what each holds.

Every .pt file is written by the wheel's own torch.save; the JSON describes the loaded objects as a tree
(see `describe`), so the aten-ts tests compare what they load against what PyTorch put in, and
tools/golden/check_roundtrip.py compares files written by aten-ts against the same tree.

safetensors: the Python `safetensors` package is not installed next to the wheel, so the .safetensors golden
is written by `write_safetensors` below, a transcription of the reference writer (safetensors/src/tensor.rs,
`prepare` and `serialize`): 8-byte little-endian header length, compact JSON header (`__metadata__` first,
then the tensors sorted by dtype descending then name), padded with spaces to 8 bytes, then the raw
little-endian bytes.
"""

import argparse
import collections
import io
import json
import math
import os
import struct

import torch

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "test", "golden")
OUT = os.path.join(ROOT, "serialization")


def fval(x):
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def tensor_values(t):
    flat = t.detach().reshape(-1)
    if t.dtype.is_complex:
        return [[fval(v.real), fval(v.imag)] for v in flat.tolist()]
    if t.dtype.is_floating_point:
        return [fval(v) for v in flat.double().tolist()]
    if t.dtype == torch.bool:
        return [bool(v) for v in flat.tolist()]
    return [str(v) for v in flat.tolist()]  # integers as decimal strings: int64 beyond 2^53 stays exact


def describe(obj, storages):
    """A JSON tree of a loaded object. Tensors name their storage by first-seen order (storage sharing)."""
    if isinstance(obj, torch.Tensor):
        key = obj.untyped_storage().data_ptr()
        if key not in storages:
            storages[key] = len(storages)
        return {
            "tensor": {
                "dtype": str(obj.dtype).replace("torch.", ""),
                "shape": list(obj.shape),
                "stride": list(obj.stride()),
                "storage_offset": obj.storage_offset(),
                "storage": storages[key],
                "storage_numel": obj.untyped_storage().nbytes() // obj.element_size(),
                "requires_grad": obj.requires_grad,
                "parameter": isinstance(obj, torch.nn.Parameter),
                "values": tensor_values(obj),
            }
        }
    if obj is None or isinstance(obj, (bool, str)):
        return obj
    if isinstance(obj, int):
        return {"int": str(obj)}
    if isinstance(obj, float):
        return {"float": fval(obj)}
    if isinstance(obj, tuple):
        return {"tuple": [describe(v, storages) for v in obj]}
    if isinstance(obj, list):
        return {"list": [describe(v, storages) for v in obj]}
    if isinstance(obj, dict):
        out = {
            "dict": [[describe(k, storages), describe(v, storages)] for k, v in obj.items()],
            "ordered": type(obj) is collections.OrderedDict,
        }
        meta = getattr(obj, "_metadata", None)
        if meta is not None:
            out["metadata"] = describe(meta, storages)
        return out
    raise TypeError(f"cannot describe {type(obj)}")


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(2, 3, 3)
        self.bn = torch.nn.BatchNorm2d(3)
        self.fc = torch.nn.Linear(3 * 2 * 2, 4)

    def forward(self, x):
        return self.fc(torch.relu(self.bn(self.conv(x))).flatten(1))


def build():
    torch.manual_seed(0)
    net = Net()
    x = torch.randn(2, 2, 4, 4)
    net.train()
    opt = torch.optim.Adam(net.parameters(), lr=0.01)
    loss = net(x).square().mean()
    loss.backward()
    opt.step()

    base = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    views = collections.OrderedDict(
        base=base,
        transposed=base.t(),  # non-contiguous, same storage
        row=base[1],  # storage offset 4, same storage
        every_other=base[:, 1::2],  # offset 1, strides (4, 2)
        other=torch.tensor([7.0, 8.0]),
    )

    dtypes = collections.OrderedDict()
    dtypes["float32"] = torch.tensor([1.5, -2.25, float("inf"), float("-inf"), float("nan"), 3.4e38, 1e-45])
    dtypes["float64"] = torch.tensor([1 / 3, -1e300, float("nan"), 5e-324], dtype=torch.float64)
    dtypes["float16"] = torch.tensor([1.0, -0.5, 65504.0, 6e-8, float("inf")], dtype=torch.float16)
    dtypes["bfloat16"] = torch.tensor([1.0, -3.0, 1e38, float("-inf")], dtype=torch.bfloat16)
    dtypes["int8"] = torch.tensor([-128, 0, 127], dtype=torch.int8)
    dtypes["int16"] = torch.tensor([-32768, 1, 32767], dtype=torch.int16)
    dtypes["int32"] = torch.tensor([-(2**31), 5, 2**31 - 1], dtype=torch.int32)
    dtypes["int64"] = torch.tensor([-(2**53), -1, 0, 2**53], dtype=torch.int64)
    dtypes["uint8"] = torch.tensor([0, 200, 255], dtype=torch.uint8)
    dtypes["bool"] = torch.tensor([True, False, True])
    dtypes["complex64"] = torch.tensor([1 + 2j, -0.5j], dtype=torch.complex64)
    dtypes["complex128"] = torch.tensor([3 - 4j], dtype=torch.complex128)
    dtypes["scalar"] = torch.tensor(2.5)
    dtypes["empty"] = torch.zeros(0, 3)

    shared = torch.tensor([1.0, 2.0])
    nested = {
        "list": [1, 2.5, "a", None, True, False, (1, 2)],
        "tuple": (torch.tensor([1, 2]), 3),
        "big": 2**40,
        "huge": 2**70,
        "negative": -5,
        "neg_big": -(2**40),
        "int_keys": {0: "a", 10: "b", -3: "c"},
        "index_like_keys": {"2": 1, "1": 2},
        "nested": {"a": [torch.ones(2)], "b": {"c": ()}},
        "parameter": torch.nn.Parameter(torch.tensor([0.5, -0.5])),
        "grad_leaf": torch.tensor([1.0, 2.0], requires_grad=True),
        "tied_a": shared,
        "tied_b": shared,
        "unicode": "çå∑ 🙂",
        "float_int": 1.0,
    }

    return {
        "model_state_dict": net.state_dict(),
        "adam_state_dict": opt.state_dict(),
        "views": views,
        "dtypes": dtypes,
        "nested": nested,
    }


def write_safetensors(tensors, metadata):
    """The safetensors format (https://github.com/huggingface/safetensors#format), as the reference writer
    lays it out: tensors sorted by its Dtype enum (declared in increasing alignment: BOOL, U8, I8, I16, F16,
    BF16, I32, F32, F64, I64) descending, then by name; data contiguous."""
    codes = {
        torch.float64: "F64",
        torch.float32: "F32",
        torch.float16: "F16",
        torch.bfloat16: "BF16",
        torch.int64: "I64",
        torch.int32: "I32",
        torch.int16: "I16",
        torch.int8: "I8",
        torch.uint8: "U8",
        torch.bool: "BOOL",
    }
    rank = ["BOOL", "U8", "I8", "I16", "F16", "BF16", "I32", "F32", "F64", "I64"]
    order = sorted(tensors.items(), key=lambda kv: (-rank.index(codes[kv[1].dtype]), kv[0]))
    header = {}
    blobs = []
    offset = 0
    for name, t in order:
        data = t.contiguous().reshape(-1).view(torch.uint8).numpy().tobytes() if t.numel() else b""
        header[name] = {"dtype": codes[t.dtype], "shape": list(t.shape), "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    full = {"__metadata__": metadata} if metadata else {}
    full.update(header)
    text = json.dumps(full, separators=(",", ":")).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    return struct.pack("<Q", len(text)) + text + b"".join(blobs)


def main():
    os.makedirs(OUT, exist_ok=True)
    objects = build()
    files = {}
    for name, obj in objects.items():
        buf = io.BytesIO()
        torch.save(obj, buf)  # a buffer: the archive's folder is "archive", as aten-ts's torch.save(obj)
        data = buf.getvalue()
        with open(os.path.join(OUT, f"{name}.pt"), "wb") as f:
            f.write(data)
        loaded = torch.load(io.BytesIO(data), weights_only=True)
        files[f"{name}.pt"] = describe(loaded, {})

    # Newer pickle protocols (FRAME, SHORT_BINUNICODE, MEMOIZE, ...): torch.save(pickle_protocol=N) writes
    # them; aten-ts reads them. The tree comes from the object itself (weights_only=True warns on them).
    for protocol in (4, 5):
        obj = collections.OrderedDict(
            w=torch.tensor([[1.0, 2.0], [3.0, 4.0]]), n=torch.tensor(5), meta={"lr": 0.5, "ids": [1, 2**40]}
        )
        obj["w_t"] = obj["w"].t()
        buf = io.BytesIO()
        torch.save(obj, buf, pickle_protocol=protocol)
        name = f"protocol{protocol}.pt"
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(buf.getvalue())
        files[name] = describe(torch.load(io.BytesIO(buf.getvalue()), weights_only=False), {})

    # Saved through a path: the archive's folder is the file's stem.
    path = os.path.join(OUT, "stem_named.pt")
    torch.save({"w": torch.tensor([1.0, 2.0])}, path)
    files["stem_named.pt"] = describe(torch.load(path, weights_only=True), {})

    # A checkpoint that weights_only=True refuses: a global outside the allowlist.
    buf = io.BytesIO()
    torch.save({"args": argparse.Namespace(lr=0.1)}, buf)
    with open(os.path.join(OUT, "refused.pt"), "wb") as f:
        f.write(buf.getvalue())
    try:
        torch.load(io.BytesIO(buf.getvalue()), weights_only=True)
        raise AssertionError("expected weights_only to refuse argparse.Namespace")
    except Exception as e:  # noqa: BLE001 - record PyTorch's message
        refused_error = str(e)

    st = collections.OrderedDict()
    st["weight"] = torch.arange(6, dtype=torch.float32).reshape(2, 3) / 4
    st["bias"] = torch.tensor([1.0, -1.0], dtype=torch.float64)
    st["half"] = torch.tensor([0.5, 2.0, -4.0], dtype=torch.float16)
    st["bf"] = torch.tensor([1.5, -2.0], dtype=torch.bfloat16)
    st["steps"] = torch.tensor([3, -(2**40)], dtype=torch.int64)
    st["idx"] = torch.tensor([[1, 2], [3, 4]], dtype=torch.int32)
    st["short"] = torch.tensor([-7], dtype=torch.int16)
    st["tiny"] = torch.tensor([-1, 1], dtype=torch.int8)
    st["bytes"] = torch.tensor([0, 255], dtype=torch.uint8)
    st["mask"] = torch.tensor([True, False, True])
    st["scalar"] = torch.tensor(7.0)
    st["nothing"] = torch.zeros(0, 2)
    with open(os.path.join(OUT, "tensors.safetensors"), "wb") as f:
        f.write(write_safetensors(st, {"format": "pt", "note": "aten-ts golden"}))
    safetensors = {
        "metadata": {"format": "pt", "note": "aten-ts golden"},
        "tensors": {k: describe(v, {})["tensor"] for k, v in st.items()},
    }

    golden = {
        "generated_by": "tools/golden/gen_serialization.py",
        "torch_version": torch.__version__,
        "files": files,
        "refused_error": refused_error,
        "safetensors": safetensors,
    }
    with open(os.path.join(ROOT, "serialization.json"), "w") as f:
        json.dump(golden, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
