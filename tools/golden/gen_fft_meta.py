#!/usr/bin/env python3
"""Golden fixtures for the layouts and graph of the native FFT operators beyond OpInfo's samples: the Meta strides
of _fft_r2c / _fft_c2c / _fft_c2r (torch/_meta_registrations.py sends a meta tensor down its CUDA branch: stages
of at most 3 dims, r2c/c2r in one plan unless the dims start with 0, 1) next to the CPU strides, for 3-d and 4-d
inputs and several dim orders; and the grad_fn names and float64 gradients of the transforms that end in a
conjugate (ifft/ihfft of a real input: ConjBackward0; hfft of a complex input, which conjugates it first).
Run with the reference torch build (2.13.0+cpu):
    $PYTHON tools/golden/gen_fft_meta.py      # writes test/golden/fft_meta.json
Format: layouts: [{op, dtype, sizes, dim, arg, meta_strides, cpu_strides}]; graphs: [{fn, input, grad_fn, grad}]
(complex tensors as interleaved [re, im] values). Deterministic (fixed seed).
"""
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _encode import values  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def main():
    torch.manual_seed(0)
    layouts = []
    for sizes in ([5, 6, 7], [2, 3, 4, 5]):
        nd = len(sizes)
        dims_list = [list(range(nd)), list(reversed(range(nd))), [0, 1], [1, nd - 1], [nd - 1, 0, 1], [0, 1, 2]]
        for dims in dims_list:
            for op, dtype, arg in (("_fft_c2c", torch.complex64, True), ("_fft_r2c", torch.float32, True),
                                   ("_fft_r2c", torch.float32, False), ("_fft_c2r", torch.complex64, 2 * (sizes[dims[-1]] - 1))):
                x = torch.randn(sizes, dtype=dtype)
                f = getattr(torch, op)
                layouts.append({"op": op, "dtype": str(dtype).replace("torch.", ""), "sizes": sizes, "dim": dims,
                                "arg": arg, "meta_strides": list(f(x.to("meta"), dims, 0, arg).stride()),
                                "cpu_strides": list(f(x, dims, 0, arg).stride())})
    graphs = []
    real = torch.randn(3, 4, dtype=torch.float64)
    cplx = torch.randn(3, 4, dtype=torch.complex128)
    for fn, x in (("ifft", real), ("ihfft", real), ("ihfft2", real), ("ihfftn", real), ("hfft", cplx),
                  ("hfft2", cplx), ("fft", real)):
        xg = x.clone().requires_grad_()
        r = getattr(torch.fft, fn)(xg)
        cot = torch.ones_like(r) if not r.is_complex() else torch.complex(torch.ones_like(r.real), -torch.ones_like(r.real))
        (g,) = torch.autograd.grad(r, xg, cot)
        graphs.append({"fn": fn, "input": {"dtype": str(x.dtype).replace("torch.", ""), "sizes": list(x.shape),
                                            "values": values(x)},
                       "grad_fn": r.grad_fn.name(), "grad": values(g.resolve_conj())})
    out = {"generated_by": "tools/golden/gen_fft_meta.py", "torch_version": torch.__version__, "layouts": layouts,
           "graphs": graphs}
    with open(os.path.join(ROOT, "test", "golden", "fft_meta.json"), "w") as f:
        json.dump(out, f, separators=(",", ":"), allow_nan=False)
        f.write("\n")
    print(f"{len(layouts)} layouts, {len(graphs)} graphs -> test/golden/fft_meta.json")


if __name__ == "__main__":
    main()
