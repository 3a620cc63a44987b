"""Golden fixture for `npm start`: trains the LeNet-style CNN of src/cli/train.ts on the shipped Fashion-MNIST
subset with the wheel (same seed, same initialisation, same shuffling, same optimiser), on one thread, and records
the loss of every step of the first epoch, the test accuracy after every epoch and the confusion matrix. It
trains a second time on two threads: how far PyTorch's curve moves from itself when only the summation order
changes is the yardstick for how closely another implementation can follow it (training amplifies float32
rounding differences once the loss leaves its plateau).

Run: $PYTHON tools/golden/gen_train.py  ->  test/golden/train.json
"""
import gzip
import json
import os
import struct

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ROOT = os.path.join(os.path.dirname(__file__), '..', '..')
DATA = os.path.join(ROOT, 'data', 'fashion-mnist-subset')
OUT = os.path.join(ROOT, 'test', 'golden', 'train.json')
SEED, BATCH, LR, MOMENTUM, EPOCHS = 0, 64, 0.05, 0.9, 2


def idx(path):
    with gzip.open(path, 'rb') as f:
        data = f.read()
    magic, = struct.unpack('>I', data[:4])
    ndim = magic & 0xFF
    dims = struct.unpack('>' + 'I' * ndim, data[4:4 + 4 * ndim])
    return torch.frombuffer(bytearray(data[4 + 4 * ndim:]), dtype=torch.uint8).reshape(dims)


class LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 4 * 4, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


def run(threads):
    torch.set_num_threads(threads)
    x_train = idx(os.path.join(DATA, 'train-images-idx3-ubyte.gz')).unsqueeze(1).float() / 255
    y_train = idx(os.path.join(DATA, 'train-labels-idx1-ubyte.gz')).long()
    x_test = idx(os.path.join(DATA, 't10k-images-idx3-ubyte.gz')).unsqueeze(1).float() / 255
    y_test = idx(os.path.join(DATA, 't10k-labels-idx1-ubyte.gz')).long()
    torch.manual_seed(SEED)
    model = LeNet()
    opt = torch.optim.SGD(model.parameters(), lr=LR, momentum=MOMENTUM)
    loader = DataLoader(TensorDataset(x_train, y_train), batch_size=BATCH, shuffle=True,
                        generator=torch.Generator().manual_seed(SEED))
    losses, accuracies, confusion = [], [], None
    for epoch in range(EPOCHS):
        model.train()
        for xb, yb in loader:
            opt.zero_grad()
            loss = F.cross_entropy(model(xb), yb)
            loss.backward()
            opt.step()
            if epoch == 0:
                losses.append(loss.item())
        model.eval()
        with torch.no_grad():
            pred = model(x_test).argmax(1)
        accuracies.append((pred == y_test).sum().item() / len(y_test))
        confusion = torch.zeros(10, 10, dtype=torch.int64)
        confusion.index_put_((y_test, pred), torch.ones_like(y_test), accumulate=True)
    return losses, accuracies, confusion, len(y_train), len(y_test)


def main():
    losses, accuracies, confusion, train_size, test_size = run(1)
    losses2, accuracies2, *_ = run(2)
    with open(OUT, 'w') as f:
        json.dump({'generated_by': 'tools/golden/gen_train.py', 'torch_version': torch.__version__,
                   'seed': SEED, 'batch_size': BATCH, 'lr': LR, 'momentum': MOMENTUM, 'epochs': EPOCHS,
                   'train_size': train_size, 'test_size': test_size,
                   'losses_epoch1': losses, 'test_accuracy': accuracies,
                   'confusion': confusion.tolist(),
                   'two_threads': {'losses_epoch1': losses2, 'test_accuracy': accuracies2}}, f)
        f.write('\n')


if __name__ == '__main__':
    main()
