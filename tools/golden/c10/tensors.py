"""c10.json's `tensor_keysets` and `helper_sets`: the key sets of tensors of every layout, dtype and device with
their highest, backend and legacyExtractDispatchKey keys (c10/core/DispatchKeySet.h). Part of
tools/golden/gen_c10.py.
"""
import torch

from c10.common import C, DK, dk, err, from_raw, highest, KS, ks_str, raw


# tensors

def backend_functionality_keys():
    # {Dense, Quantized, Sparse, SparseCsr} | 0xFFFF (DispatchKeySet.h)
    s = KS(DK.Dense) | KS(DK.Quantized) | KS(DK.Sparse) | KS(DK.SparseCsr)
    return s | from_raw(0xFFFF)


def legacy_mask():
    # legacyExtractDispatchKey (DispatchKeySet.h, 2.13):
    # s - autograd_dispatch_keyset_with_ADInplaceOrView - autocast_dispatch_keyset
    #   - {Functionalize, PythonTLSSnapshot, FuncTorchGradWrapper, FuncTorchVmapMode,
    #      FuncTorchBatched, Python}
    ks = KS(DK.AutogradFunctionality) | KS(DK.AutogradOther) | KS(DK.AutogradNestedTensor)
    ks = ks | KS(DK.ADInplaceOrView)
    for v in range(24, 34):  # the 10 Autocast keys
        ks = ks | KS(dk(v))
    for k in (DK.Functionalize, DK.PythonTLSSnapshot, DK.FuncTorchGradWrapper,
              DK.FuncTorchVmapMode, DK.FuncTorchBatched, DK.Python):
        ks = ks | KS(k)
    return ks


# {Dense, Quantized, Sparse, SparseCsr} | backend bits, and the keys legacyExtractDispatchKey drops.
BFK = backend_functionality_keys()
LEGACY = legacy_mask()


def describe_keyset(ks):
    h, hv = highest(ks)
    b, bv = highest(ks & BFK)
    lg, lgv = highest(ks - LEGACY)
    return {
        "raw": raw(ks),
        "str": ks_str(ks),
        "highest": h,
        "highest_value": hv,
        "backend_highest": b,
        "backend_highest_value": bv,
        "legacy_key": lg,
        "legacy_key_value": lgv,
    }


def tensor_cases():
    cases = []

    def add(desc, fn, inference=False):
        cases.append((desc, fn, inference))

    add("cpu float32", lambda: torch.zeros(2))
    add("cpu int64", lambda: torch.zeros(2, dtype=torch.int64))
    add("cpu bool", lambda: torch.zeros(2, dtype=torch.bool))
    add("cpu complex64", lambda: torch.zeros(2, dtype=torch.complex64))
    add("meta float32", lambda: torch.zeros(2, device="meta"))
    add("sparse_coo cpu", lambda: torch.zeros(2, 2).to_sparse())
    add("sparse_csr cpu", lambda: torch.zeros(2, 2).to_sparse_csr())
    add("sparse_csc cpu", lambda: torch.zeros(2, 2).to_sparse_csc())
    add("sparse_bsr cpu", lambda: torch.zeros(2, 2).to_sparse_bsr((1, 1)))
    add("sparse_bsc cpu", lambda: torch.zeros(2, 2).to_sparse_bsc((1, 1)))
    add("requires_grad cpu", lambda: torch.zeros(2, requires_grad=True))
    add("non-leaf grad cpu", lambda: torch.zeros(2, requires_grad=True) * 2)
    add("inference-mode cpu tensor", lambda: torch.zeros(2), inference=True)
    add("meta inference mode", lambda: torch.zeros(2, device="meta"), inference=True)
    add("inference-mode sparse_coo cpu", lambda: torch.zeros(2, 2).to_sparse(), inference=True)
    add("quantized cpu", lambda: torch.quantize_per_tensor(torch.zeros(2), 0.1, 0, torch.quint8))
    add("quantized cpu qint8 per-channel",
        lambda: torch.quantize_per_channel(torch.zeros(2, 2), torch.tensor([0.1, 0.2]),
                                           torch.tensor([0, 0]), 0, torch.qint8))
    add("nested cpu", lambda: torch.nested.nested_tensor([torch.zeros(2), torch.zeros(3)]))
    add("nested jagged cpu",
        lambda: torch.nested.nested_tensor([torch.zeros(2), torch.zeros(3)], layout=torch.jagged))
    add("mkldnn", lambda: torch.zeros(2).to_mkldnn())
    add("a view", lambda: torch.zeros(4)[1:])
    add("view of requires_grad", lambda: torch.zeros(4, requires_grad=True)[1:])
    add("conj of complex", lambda: torch.zeros(2, dtype=torch.complex64).conj())
    add("neg view", lambda: torch._neg_view(torch.zeros(2, dtype=torch.complex64)))
    add("conj neg view", lambda: torch.zeros(2, dtype=torch.complex64).conj()._neg_view())
    add("zero tensor", lambda: torch._efficientzerotensor(2))
    add("meta zero tensor", lambda: torch._efficientzerotensor(2, device="meta"))
    add("empty cpu (numel 0)", lambda: torch.empty(0))
    return cases


def gen_tensor_keysets():
    out = []
    for desc, fn, inference in tensor_cases():
        entry = {"desc": desc}
        try:
            if inference:
                with torch.inference_mode():
                    t = fn()
                    ks = C._dispatch_keys(t)
            else:
                t = fn()
                ks = C._dispatch_keys(t)
            entry.update(describe_keyset(ks))
            entry["layout"] = str(t.layout).replace("torch.", "")
            entry["device"] = str(t.device)
            entry["dtype"] = str(t.dtype).replace("torch.", "")
        except Exception as e:  # noqa: BLE001
            entry["error"] = err(e)
        out.append(entry)
    return out
