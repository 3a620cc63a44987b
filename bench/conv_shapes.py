"""PyTorch's side of bench/conv_shapes.ts: forward, input gradient and weight gradient of each LeNet and
ResNet-18 convolution, and a ResNet-18 eval forward of 8x3x224x224, on the given number of threads. Time per
call (on one thread CPU time, else or with WALL=1 wall time), median of rounds (each the mean of a few calls). Prints one JSON object.

Run: /work/main/.venv-golden/bin/python bench/conv_shapes.py THREADS [ROUNDS]   (PROFILE=1: the ResNet forward's
operator table on stderr)
"""
import json
import os
import sys
import time

import torch
import torch.nn.functional as F

# name, [n, c, h, w], [o, c/groups, kh, kw], stride, padding (the list in bench/conv_shapes.ts)
SHAPES = [
    ('lenet.conv1', [64, 1, 28, 28], [6, 1, 5, 5], 1, 0),
    ('lenet.conv2', [64, 6, 12, 12], [16, 6, 5, 5], 1, 0),
    ('rn.stem', [8, 3, 224, 224], [64, 3, 7, 7], 2, 3),
    ('rn.l1.3x3', [8, 64, 56, 56], [64, 64, 3, 3], 1, 1),
    ('rn.l2.3x3s2', [8, 64, 56, 56], [128, 64, 3, 3], 2, 1),
    ('rn.l2.3x3', [8, 128, 28, 28], [128, 128, 3, 3], 1, 1),
    ('rn.l2.1x1s2', [8, 64, 56, 56], [128, 64, 1, 1], 2, 0),
    ('rn.l3.3x3s2', [8, 128, 28, 28], [256, 128, 3, 3], 2, 1),
    ('rn.l3.3x3', [8, 256, 14, 14], [256, 256, 3, 3], 1, 1),
    ('rn.l3.1x1s2', [8, 128, 28, 28], [256, 128, 1, 1], 2, 0),
    ('rn.l4.3x3s2', [8, 256, 14, 14], [512, 256, 3, 3], 2, 1),
    ('rn.l4.3x3', [8, 512, 7, 7], [512, 512, 3, 3], 1, 1),
    ('rn.l4.1x1s2', [8, 256, 14, 14], [512, 256, 1, 1], 2, 0),
]


def timed(f, rounds, reps):
    # On one thread CPU time (as bench/conv_shapes.ts: less sensitive to other processes), else wall time.
    clock = time.process_time if torch.get_num_threads() == 1 and os.environ.get('WALL') != '1' else time.perf_counter
    f()
    r = []
    for _ in range(rounds):
        s = clock()
        for _ in range(reps):
            f()
        r.append((clock() - s) / reps * 1e3)
    r.sort()
    return r[len(r) // 2]


def resnet18():
    def bn(c):
        return [torch.randn(c) * 0.1, torch.rand(c) + 0.5, torch.randn(c) * 0.1 + 1, torch.randn(c) * 0.1]

    def block(cin, cout, stride):
        b = {'w1': torch.randn(cout, cin, 3, 3) * 0.05, 'bn1': bn(cout), 'w2': torch.randn(cout, cout, 3, 3) * 0.05,
             'bn2': bn(cout), 'stride': stride}
        if stride != 1 or cin != cout:
            b['wd'] = torch.randn(cout, cin, 1, 1) * 0.05
            b['bnd'] = bn(cout)
        return b

    p = {'stem': torch.randn(64, 3, 7, 7) * 0.05, 'bn': bn(64), 'blocks': [], 'fc': torch.randn(1000, 512) * 0.05}
    cin = 64
    for cout, stride in [(64, 1), (128, 2), (256, 2), (512, 2)]:
        p['blocks'] += [block(cin, cout, stride), block(cout, cout, 1)]
        cin = cout

    def bnf(x, s):
        mean, var, w, b = s
        return F.batch_norm(x, mean, var, w, b, False)

    def forward(x):
        x = F.max_pool2d(F.relu(bnf(F.conv2d(x, p['stem'], None, 2, 3), p['bn'])), 3, 2, 1)
        for b in p['blocks']:
            y = F.relu(bnf(F.conv2d(x, b['w1'], None, b['stride'], 1), b['bn1']))
            y = bnf(F.conv2d(y, b['w2'], None, 1, 1), b['bn2'])
            sc = bnf(F.conv2d(x, b['wd'], None, b['stride'], 0), b['bnd']) if 'wd' in b else x
            x = F.relu(y + sc)
        return F.linear(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1), p['fc'])

    return forward


def main():
    torch.set_num_threads(int(sys.argv[1]))
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    torch.manual_seed(0)
    out = {}
    with torch.no_grad():
        for name, xs, ws, s, pd in SHAPES:
            x, w = torch.randn(xs), torch.randn(ws)
            y = F.conv2d(x, w, None, s, pd)
            g = torch.randn(y.shape)
            reps = max(1, int(2e8 / (y.numel() * ws[1] * ws[2] * ws[3])))
            fwd = timed(lambda: F.conv2d(x, w, None, s, pd), rounds, reps)
            gx = timed(lambda: torch.ops.aten.convolution_backward(g, x, w, None, [s, s], [pd, pd], [1, 1], False,
                                                                   [0, 0], 1, [True, False, False]), rounds, reps)
            gw = timed(lambda: torch.ops.aten.convolution_backward(g, x, w, None, [s, s], [pd, pd], [1, 1], False,
                                                                   [0, 0], 1, [False, True, False]), rounds, reps)
            out[name] = {'fwd': fwd, 'gx': gx, 'gw': gw}
        f = resnet18()
        x = torch.randn(8, 3, 224, 224)
        out['resnet18.eval.8x224'] = {'fwd': timed(lambda: f(x), max(3, rounds // 2), 1)}
        if os.environ.get('PROFILE') == '1':
            with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
                f(x)
            print(prof.key_averages().table(sort_by='self_cpu_time_total', row_limit=12), file=sys.stderr)
    print(json.dumps(out))


if __name__ == '__main__':
    main()
