"""PyTorch's side of bench/train_epoch.ts: one warm training epoch of tools/golden/gen_train.py's LeNet on the
shipped Fashion-MNIST subset (batch 64, SGD momentum 0.9), on the given number of threads. Prints JSON.

Run: python bench/train_epoch.py THREADS
"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'tools', 'golden'))
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from torch.utils.data import DataLoader, TensorDataset  # noqa: E402
from gen_train import DATA, LeNet, idx  # noqa: E402


def main():
    torch.set_num_threads(int(sys.argv[1]))
    x = idx(os.path.join(DATA, 'train-images-idx3-ubyte.gz')).unsqueeze(1).float() / 255
    y = idx(os.path.join(DATA, 'train-labels-idx1-ubyte.gz')).long()
    torch.manual_seed(0)
    model = LeNet()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    loader = DataLoader(TensorDataset(x, y), batch_size=64, shuffle=True, generator=torch.Generator().manual_seed(0))
    times = []
    for _ in range(3):
        start = time.perf_counter()
        for xb, yb in loader:
            opt.zero_grad()
            loss = F.cross_entropy(model(xb), yb)
            loss.backward()
            opt.step()
            loss.item()
        times.append(time.perf_counter() - start)
    print(json.dumps({'epoch_s': times, 'images': len(y)}))


if __name__ == '__main__':
    main()
