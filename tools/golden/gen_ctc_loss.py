"""CTC loss goldens: F.ctc_loss values and log_probs gradients from PyTorch 2.13 on small inputs (op_db's
nn.functional.ctc_loss samples are 50 x 16 x 20, over the OpInfo sweep's size limit), every reduction, with
and without zero_infinity, padded and concatenated targets, list and Tensor lengths, an unbatched input, an
impossible alignment (infinite loss) and PyTorch's error texts.

    $PYTHON tools/golden/gen_ctc_loss.py   ->  test/golden/ctc_loss.json
"""
import json
import os

import torch
import torch.nn.functional as F

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def enc(v):
    if v != v:
        return "nan"
    if v in (float("inf"), float("-inf")):
        return "inf" if v > 0 else "-inf"
    return v


def flat(t):
    return [enc(x) for x in t.detach().reshape(-1).tolist()]


def case(name, log_probs, targets, il, tl, **kw):
    lp = log_probs.detach().clone().requires_grad_(True)
    out = F.ctc_loss(lp, targets, il, tl, **kw)
    g = torch.ones_like(out)
    out.backward(g)
    lists = lambda v: v.tolist() if isinstance(v, torch.Tensor) else v
    return {
        "name": name,
        "log_probs": {"shape": list(lp.shape), "values": flat(lp), "dtype": str(lp.dtype)[6:]},
        "targets": {"shape": list(targets.shape), "values": targets.reshape(-1).tolist(), "dtype": str(targets.dtype)[6:]},
        "input_lengths": lists(il),
        "target_lengths": lists(tl),
        "lengths_as_tensors": isinstance(il, torch.Tensor),
        "kwargs": kw,
        "out": {"shape": list(out.shape), "values": flat(out)},
        "grad_fn": type(out.grad_fn).__name__,
        "grad": flat(lp.grad),
    }


def main():
    torch.manual_seed(0)
    cases = []
    for dtype in (torch.float64, torch.float32):
        lp = torch.randn(7, 3, 5, dtype=dtype).log_softmax(2)
        padded = torch.tensor([[1, 2, 2], [3, 1, 0], [4, 4, 4]])
        for red in ("none", "mean", "sum"):
            for zi in (False, True):
                cases.append(case(f"padded {dtype} {red} zi={zi}", lp, padded, [7, 6, 5], [3, 2, 1], reduction=red, zero_infinity=zi))
        cases.append(case(f"tensor lengths {dtype}", lp, padded, torch.tensor([7, 7, 4]), torch.tensor([2, 2, 3]), reduction="mean"))
        concat = torch.tensor([1, 2, 2, 3, 1, 4], dtype=torch.int32)
        cases.append(case(f"concatenated {dtype}", lp, concat, [7, 6, 5], [3, 2, 1], reduction="sum", blank=0))
        # blank=4, an empty target, an input of length 0
        cases.append(case(f"blank 4 {dtype}", lp, torch.tensor([[1, 2], [0, 3], [1, 1]]), [7, 3, 0], [2, 0, 0], blank=4, reduction="none"))
        # three repeated labels need 5 frames: 2 frames cannot align (inf), zero_infinity zeroes it and its gradient
        for zi in (False, True):
            cases.append(case(f"impossible {dtype} zi={zi}", lp, padded, [2, 6, 5], [3, 2, 1], reduction="none", zero_infinity=zi))
        cases.append(case(f"unbatched {dtype}", lp[:, 0], torch.tensor([1, 2, 2]), [7], [3], reduction="none"))
    errors = []
    lp = torch.randn(4, 2, 3).log_softmax(2)
    bad = [
        ("targets float", lambda: F.ctc_loss(lp, torch.ones(2, 2), [4, 4], [2, 2])),
        ("blank out of range", lambda: F.ctc_loss(lp, torch.ones(2, 2, dtype=torch.long), [4, 4], [2, 2], blank=3)),
        ("input_lengths size", lambda: F.ctc_loss(lp, torch.ones(2, 2, dtype=torch.long), [4], [2, 2])),
        ("input length too long", lambda: F.ctc_loss(lp, torch.ones(2, 2, dtype=torch.long), [5, 4], [2, 2])),
        ("target too short", lambda: F.ctc_loss(lp, torch.ones(2, 1, dtype=torch.long), [4, 4], [2, 2])),
        ("concatenated size", lambda: F.ctc_loss(lp, torch.ones(3, dtype=torch.long), [4, 4], [2, 2])),
        ("lengths float", lambda: F.ctc_loss(lp, torch.ones(2, 2, dtype=torch.long), torch.tensor([4.0, 4.0]), torch.tensor([2, 2]))),
    ]
    for name, fn in bad:
        try:
            fn()
            errors.append({"name": name, "error": None})
        except Exception as e:  # noqa: BLE001
            errors.append({"name": name, "error": str(e).split("\n")[0]})
    out = {"generated_by": "tools/golden/gen_ctc_loss.py", "torch_version": torch.__version__, "cases": cases, "errors": errors}
    with open(os.path.join(ROOT, "test/golden/ctc_loss.json"), "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
