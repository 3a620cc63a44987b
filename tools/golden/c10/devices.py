"""c10.json's `device_keys` and `device_parse`: the dispatch keys of tensors per device type and layout, and
c10/core/Device.cpp's parsing of device strings. Part of tools/golden/gen_c10.py.
"""
import warnings

import torch

from c10.common import C, err
from c10.tensors import describe_keyset
from c10.dtypes import short


# devices

LAYOUT_MAKERS = {
    "strided": lambda d, dt: torch.zeros(2, 2, device=d, dtype=dt),
    "sparse_coo": lambda d, dt: torch.zeros(2, 2, device=d, dtype=dt).to_sparse(),
    "sparse_csr": lambda d, dt: torch.zeros(2, 2, device=d, dtype=dt).to_sparse_csr(),
    "sparse_csc": lambda d, dt: torch.zeros(2, 2, device=d, dtype=dt).to_sparse_csc(),
    "sparse_bsr": lambda d, dt: torch.zeros(2, 2, device=d, dtype=dt).to_sparse_bsr((1, 1)),
    "sparse_bsc": lambda d, dt: torch.zeros(2, 2, device=d, dtype=dt).to_sparse_bsc((1, 1)),
    "mkldnn": lambda d, dt: torch.zeros(2, 2, device=d, dtype=dt).to_mkldnn(),
    "jagged": lambda d, dt: torch.nested.nested_tensor(
        [torch.zeros(2, dtype=dt), torch.zeros(3, dtype=dt)], layout=torch.jagged, device=d),
    "nested_strided": lambda d, dt: torch.nested.nested_tensor(
        [torch.zeros(2, dtype=dt), torch.zeros(3, dtype=dt)], layout=torch.strided, device=d),
}

DEVICE_TYPES = ["cpu", "cuda", "meta", "xla", "mps", "hpu", "xpu", "privateuseone", "lazy",
                "ipu", "mtia", "maia", "ve", "hip", "fpga", "vulkan", "metal",
                "mkldnn", "opengl", "opencl", "ideep", "cuda:0", "CPU", "", "gpu"]


def gen_device_keys():
    out = []
    for device in ("cpu", "meta"):
        for dt_name in ("float32", "int64"):
            for layout, mk in LAYOUT_MAKERS.items():
                entry = {"kind": "tensor", "device": device, "layout": layout, "dtype": dt_name}
                try:
                    t = mk(device, getattr(torch, dt_name))
                    ks = C._dispatch_keys(t)
                    d = describe_keyset(ks)
                    # contract field: the backend key of the tensor (legacyExtractDispatchKey)
                    entry["key"] = d["legacy_key"]
                    entry["key_value"] = d["legacy_key_value"]
                    entry["backend_highest"] = d["backend_highest"]
                    entry["backend_highest_value"] = d["backend_highest_value"]
                    entry["raw"] = d["raw"]
                    entry["str"] = d["str"]
                    entry["actual_layout"] = short(t.layout)
                except Exception as e:  # noqa: BLE001
                    entry["error"] = err(e)
                out.append(entry)
        for qdt in ("quint8", "qint8", "qint32"):
            entry = {"kind": "tensor", "device": device, "layout": "strided", "dtype": qdt}
            try:
                t = torch._empty_affine_quantized([2], scale=0.1, zero_point=0,
                                                  dtype=getattr(torch, qdt), device=device)
                d = describe_keyset(C._dispatch_keys(t))
                entry["key"] = d["legacy_key"]
                entry["key_value"] = d["legacy_key_value"]
                entry["backend_highest"] = d["backend_highest"]
                entry["backend_highest_value"] = d["backend_highest_value"]
                entry["raw"] = d["raw"]
                entry["str"] = d["str"]
                entry["actual_layout"] = short(t.layout)
            except Exception as e:  # noqa: BLE001
                entry["error"] = err(e)
            out.append(entry)
    for s in DEVICE_TYPES:
        entry = {"kind": "device_type", "device": s}
        try:
            entry["key"] = C._dispatch_key_for_device(s)
        except Exception as e:  # noqa: BLE001
            entry["error"] = err(e)
        out.append(entry)
    return out


DEVICE_STRINGS = ["cpu", "meta", "cuda", "cuda:0", "cuda:1", "privateuseone",
                  "privateuseone:3", "xpu:2", "mps", "cpu:0",
                  "cuda:-1", "cuda:", "gpu", "cuda:1:2", "CUDA", " cpu", "cuda:01",
                  "cuda:a", "meta:x",
                  # extras
                  "", "cpu ", "cuda:0 ", "hip:0", "fpga", "vulkan:0", "mkldnn", "metal",
                  "lazy:5", "cuda:+1", "cuda:1.0", "cuda::1", "cpu:99", "cuda:2147483647",
                  "cuda:128", "Cuda", "privateuseone:0", "ve", "mtia:0", "maia", "hpu:7",
                  "ipu", "xla:1", "opengl", "ideep", "opencl", "meta:0"]


def gen_device_parse():
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for s in DEVICE_STRINGS:
            try:
                d = torch.device(s)
                out.append({"text": s, "type": d.type, "index": d.index})
            except Exception as e:  # noqa: BLE001
                out.append({"text": s, "error": err(e)})
    return out
