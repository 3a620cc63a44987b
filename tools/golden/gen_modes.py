"""Golden fixture for dispatch modes: PyTorch's FlopCounterMode counts (per module and per operator) and its
get_table() text for a LeNet-like CNN (forward; forward and backward; forward and backward with the input
requiring grad) and for the matmul family (mm, addmm, bmm, baddbmm, matmul decompositions, linear).

get_table() needs the `tabulate` package (not part of the wheel): install it anywhere on PYTHONPATH, e.g.
`pip install --target /tmp/modes-pylib tabulate==0.10.0` then
`PYTHONPATH=/tmp/modes-pylib $PYTHON tools/golden/gen_modes.py` -> test/golden/modes.json
"""
import json
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.flop_counter import FlopCounterMode

# PyTorch's get_table sets `tabulate.PRESERVE_WHITESPACE = True` to indent submodules; tabulate 0.10 ignores
# that module flag and takes a `preserve_whitespace` argument instead. Pass the flag on, so the table is the
# one PyTorch means to print (and prints with tabulate 0.9).
import functools
import inspect
import sys

try:
    import tabulate as _tabulate
except ImportError:  # not part of the wheel: leave the committed fixture as it is rather than stop run.sh
    print('gen_modes.py: skipped, FlopCounterMode.get_table needs `tabulate` on PYTHONPATH (see the docstring)')
    sys.exit(0)

if 'preserve_whitespace' in inspect.signature(_tabulate.tabulate).parameters:
    _orig_tabulate = _tabulate.tabulate

    @functools.wraps(_orig_tabulate)
    def _tabulate_preserving(*args, **kwargs):
        kwargs.setdefault('preserve_whitespace', getattr(_tabulate, 'PRESERVE_WHITESPACE', False))
        return _orig_tabulate(*args, **kwargs)

    _tabulate.tabulate = _tabulate_preserving

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'golden', 'modes.json')


class LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(256, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = x.flatten(1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


def counts(counter):
    # Sorted keys: the TypeScript side compares dictionaries, not insertion order.
    return {mod: {str(op): n for op, n in sorted(ops.items(), key=lambda kv: str(kv[0]))}
            for mod, ops in sorted(counter.get_flop_counts().items())}


def lenet_case(name, backward, input_grad):
    torch.manual_seed(0)
    model = LeNet()
    x = torch.randn(2, 1, 28, 28, requires_grad=input_grad)
    counter = FlopCounterMode(display=False)
    with counter:
        out = model(x)
        if backward:
            out.sum().backward()
    return {'name': name, 'batch': 2, 'backward': backward, 'input_requires_grad': input_grad,
            'total': counter.get_total_flops(), 'counts': counts(counter),
            'table': counter.get_table(), 'table_depth1': counter.get_table(1)}


def op_case(name, fn):
    counter = FlopCounterMode(display=False)
    with counter:
        fn()
    return {'name': name, 'total': counter.get_total_flops(), 'counts': counts(counter)}


torch.manual_seed(0)
a, b = torch.randn(3, 4), torch.randn(4, 5)
ba, bb = torch.randn(2, 3, 4), torch.randn(2, 4, 5)
c = torch.randn(3, 5)
bc = torch.randn(2, 3, 5)
w, bias = torch.randn(5, 4), torch.randn(5)
x3 = torch.randn(2, 3, 4)
OPS = [
    ('mm', lambda: torch.mm(a, b)),
    ('addmm', lambda: torch.addmm(c, a, b)),
    ('bmm', lambda: torch.bmm(ba, bb)),
    ('baddbmm', lambda: torch.baddbmm(bc, ba, bb)),
    ('matmul 2d@2d', lambda: torch.matmul(a, b)),
    ('matmul 3d@2d', lambda: torch.matmul(ba, b)),
    ('matmul 3d@3d', lambda: torch.matmul(ba, bb)),
    ('linear 2d', lambda: F.linear(a, w, bias)),
    ('linear 3d', lambda: F.linear(x3, w, bias)),
    ('conv2d stride 2 padding 1', lambda: F.conv2d(torch.ones(1, 2, 7, 7), torch.ones(4, 2, 3, 3), stride=2, padding=1)),
    ('convolution transposed', lambda: torch.convolution(torch.ones(1, 2, 4, 4), torch.ones(2, 3, 3, 3), None, [2, 2], [0, 0], [1, 1], True, [0, 0], 1)),
]

def logging_case():
    from torch.testing._internal.logging_tensor import capture_logs_with_logging_tensor_mode
    a, b = torch.ones(2, 3), torch.ones(3)
    with capture_logs_with_logging_tensor_mode() as logs:
        c = torch.add(a, b, alpha=2)
        d = c.mul(c).sum(1, keepdim=True)
        e = torch.cat([a, d], 1)
        e.t().clone()
        e.max(1)
        torch.nn.functional.relu(e).view(-1).clamp(min=0.5)
    return logs


data = {
    'generated_by': 'tools/golden/gen_modes.py',
    'torch_version': torch.__version__,
    'lenet': [lenet_case('forward', False, False), lenet_case('forward+backward', True, False),
              lenet_case('forward+backward, input requires grad', True, True)],
    'ops': [op_case(n, f) for n, f in OPS],
    # LoggingTensorMode's lines (capture_logs_with_logging_tensor_mode) for the calls of test/modes/logging_mode.test.ts.
    'logging': logging_case(),
}
with open(OUT, 'w') as f:
    json.dump(data, f, indent=1, sort_keys=False)
    f.write('\n')
print('wrote', OUT)
