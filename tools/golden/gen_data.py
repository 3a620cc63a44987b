#!/usr/bin/env python3
"""Golden fixture for aten-ts's torch.utils.data (src/utils/data/): DataLoader/sampler orders, random_split,
default_collate, and the Fashion-MNIST subset as torchvision-style parsing reads it.

    $PYTHON tools/golden/gen_data.py            # writes test/golden/data.json

Orders: the index batches of a DataLoader over a 0..n-1 dataset for several epochs, (a) with a seeded
`generator`, (b) with no generator after `torch.manual_seed(s)` (RandomSampler and the loader's base seed
draw from the default generator), (c) replacement sampling, plus what the default generator yields right
after (to check the draws consumed). Fashion-MNIST: per image index, the pixel sum and label, parsed with the
Python standard library from data/fashion-mnist-subset/. Deterministic: fixed seeds.
"""

import gzip
import json
import os
import struct

import torch
from torch.utils.data import DataLoader, RandomSampler, TensorDataset, random_split

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "test", "golden", "data.json")


class Range(torch.utils.data.Dataset):
    def __init__(self, n):
        self.n = n

    def __getitem__(self, i):
        return i

    def __len__(self):
        return self.n


def epochs(loader, k):
    return [[b.tolist() for b in loader] for _ in range(k)]


def loader_cases():
    out = []
    for n, bs, drop_last, seed in [(10, 3, False, 0), (10, 3, True, 1), (37, 8, False, 42), (100, 32, False, 7), (5, 5, False, 123)]:
        g = torch.Generator().manual_seed(seed)
        loader = DataLoader(Range(n), batch_size=bs, shuffle=True, generator=g, drop_last=drop_last)
        out.append({"kind": "generator", "n": n, "batch_size": bs, "drop_last": drop_last, "seed": seed, "len": len(loader),
                    "epochs": epochs(loader, 3), "next_random": torch.randint(0, 1000, (3,), generator=g).tolist()})
    for n, bs, seed in [(10, 4, 0), (64, 16, 2024), (33, 10, 5)]:
        torch.manual_seed(seed)
        loader = DataLoader(Range(n), batch_size=bs, shuffle=True)
        eps = epochs(loader, 3)
        out.append({"kind": "default", "n": n, "batch_size": bs, "drop_last": False, "seed": seed, "len": len(loader),
                    "epochs": eps, "next_random": torch.randint(0, 1000, (3,)).tolist()})
    for n, bs, seed in [(10, 3, 3)]:
        torch.manual_seed(seed)
        loader = DataLoader(Range(n), batch_size=bs, shuffle=False)
        out.append({"kind": "sequential", "n": n, "batch_size": bs, "drop_last": False, "seed": seed, "len": len(loader),
                    "epochs": epochs(loader, 2), "next_random": torch.randint(0, 1000, (3,)).tolist()})
    return out


def sampler_cases():
    out = []
    for n, num_samples, seed in [(10, 25, 9), (7, 40, 11)]:
        g = torch.Generator().manual_seed(seed)
        s = RandomSampler(Range(n), replacement=True, num_samples=num_samples, generator=g)
        out.append({"n": n, "replacement": True, "num_samples": num_samples, "seed": seed, "order": list(s)})
    for n, num_samples, seed in [(6, 15, 4)]:
        g = torch.Generator().manual_seed(seed)
        s = RandomSampler(Range(n), num_samples=num_samples, generator=g)
        out.append({"n": n, "replacement": False, "num_samples": num_samples, "seed": seed, "order": list(s)})
    return out


def split_cases():
    out = []
    for n, lengths, seed in [(10, [3, 7], 42), (30, [0.3, 0.3, 0.4], 42), (11, [0.5, 0.5], 1), (20, [5, 5, 10], 0)]:
        g = torch.Generator().manual_seed(seed)
        parts = random_split(Range(n), lengths, generator=g)
        out.append({"n": n, "lengths": lengths, "seed": seed, "splits": [list(p.indices) for p in parts]})
    return out


def collate_case():
    x = torch.arange(12, dtype=torch.float32).reshape(6, 2)
    y = torch.tensor([0, 1, 2, 0, 1, 2])
    loader = DataLoader(TensorDataset(x, y), batch_size=4)
    batches = [[xb.tolist(), str(xb.dtype), yb.tolist(), str(yb.dtype)] for xb, yb in loader]
    floats = torch.utils.data.default_collate([0.5, 1.5])
    ints = torch.utils.data.default_collate([1, 2])
    return {"tensor_dataset": batches, "floats": [floats.tolist(), str(floats.dtype)], "ints": [ints.tolist(), str(ints.dtype)]}


def fashion():
    d = os.path.join(ROOT, "data", "fashion-mnist-subset")
    out = {}
    for prefix in ("train", "t10k"):
        img = gzip.open(os.path.join(d, f"{prefix}-images-idx3-ubyte.gz")).read()
        lab = gzip.open(os.path.join(d, f"{prefix}-labels-idx1-ubyte.gz")).read()
        magic, n, rows, cols = struct.unpack(">iiii", img[:16])
        magic_l, n_l = struct.unpack(">ii", lab[:8])
        assert magic == 2051 and magic_l == 2049 and n == n_l
        idx = [0, 1, 2, 3, n // 2, n - 1]
        out[prefix] = {
            "n": n, "rows": rows, "cols": cols,
            "index": idx,
            "pixel_sums": [sum(img[16 + i * rows * cols: 16 + (i + 1) * rows * cols]) for i in idx],
            "labels": [lab[8 + i] for i in idx],
            "label_counts": [sum(1 for b in lab[8:] if b == c) for c in range(10)],
            "first_row_13": list(img[16 + 13 * cols: 16 + 14 * cols]),
        }
    return out


def main():
    out = {
        "generated_by": "tools/golden/gen_data.py",
        "torch_version": torch.__version__,
        "loaders": loader_cases(),
        "samplers": sampler_cases(),
        "splits": split_cases(),
        "collate": collate_case(),
        "fashion": fashion(),
    }
    with open(OUT, "w") as f:
        json.dump(out, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {OUT} ({os.path.getsize(OUT)} bytes)")


if __name__ == "__main__":
    main()
