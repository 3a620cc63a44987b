# Twin of examples/tutorials/transforms.ts: PyTorch's beginner_source/basics/transforms_tutorial.py on the subset of
# FashionMNIST the repository ships (data/fashion-mnist-subset/) instead of a download. torchvision is not in the
# wheel's venv (nor part of aten-ts): ToTensor() and Lambda(f) are the plain functions they are for this dataset
# (ToTensor: uint8 [H, W] -> float32 [1, H, W] / 255; Lambda(f): f). The tutorial prints nothing; its dataset's
# first samples are printed to check the transforms.
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _fashion_mnist import _idx


def ToTensor():
    return lambda img: img.unsqueeze(0).to(torch.float32).div(255)


def Lambda(f):
    return f


class FashionMNIST(torch.utils.data.Dataset):
    """datasets.FashionMNIST(root="data", train=True, download=True, transform=..., target_transform=...)."""

    def __init__(self, train=True, transform=None, target_transform=None):
        prefix = "train" if train else "t10k"
        self.data = _idx(f"{prefix}-images-idx3-ubyte")
        self.targets = _idx(f"{prefix}-labels-idx1-ubyte").long()
        self.transform = transform
        self.target_transform = target_transform

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        img, target = self.data[i], int(self.targets[i])
        if self.transform is not None:
            img = self.transform(img)
        if self.target_transform is not None:
            target = self.target_transform(target)
        return img, target


ds = FashionMNIST(
    train=True,
    transform=ToTensor(),
    target_transform=Lambda(lambda y: torch.zeros(10, dtype=torch.float).scatter_(0, torch.tensor(y), value=1))
)

target_transform = Lambda(lambda y: torch.zeros(
    10, dtype=torch.float).scatter_(dim=0, index=torch.tensor(y), value=1))

for i in range(3):
    img, one_hot = ds[i]
    print(img.shape, img.dtype, img.min().item(), img.max().item(), img.mean().item())
    print(one_hot)
print(target_transform(7))
