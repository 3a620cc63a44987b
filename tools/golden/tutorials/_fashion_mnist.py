# Shared by the tutorial twins (not a twin itself: gen_tutorials.py skips names starting with "_"): torchvision's
# datasets.FashionMNIST(root, train, transform=ToTensor()) over the subset the repository ships
# (data/fashion-mnist-subset/), without torchvision (the wheel's venv does not have it). aten-ts's
# utils.data.FashionMNIST gives the same samples.
import gzip
import os

import torch

ROOT = "data/fashion-mnist-subset"


def _idx(name):
    with gzip.open(os.path.join(ROOT, name + ".gz")) as f:
        data = f.read()
    ndim = data[3]
    dims = [int.from_bytes(data[4 + 4 * i: 8 + 4 * i], "big") for i in range(ndim)]
    return torch.frombuffer(bytearray(data[4 + 4 * ndim:]), dtype=torch.uint8).reshape(dims)


class FashionMNIST(torch.utils.data.Dataset):
    def __init__(self, train=True):
        prefix = "train" if train else "t10k"
        self.data = _idx(f"{prefix}-images-idx3-ubyte")
        self.targets = _idx(f"{prefix}-labels-idx1-ubyte").long()

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        # ToTensor(): uint8 [H, W] -> float32 [1, H, W] / 255
        return self.data[i].unsqueeze(0).to(torch.float32).div(255), int(self.targets[i])
