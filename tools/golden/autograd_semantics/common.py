"""Shared helpers of the autograd semantics golden (tools/golden/gen_autograd_semantics.py): the scenario registry
and the encoders of tensors, graph nodes and errors. Mirrors nothing in PyTorch; the encodings are the ones
test/autograd/semantics/harness.ts reads back.
"""
import warnings

import torch

warnings.simplefilter('ignore')

SCENARIOS = {}


def scenario(fn):
    SCENARIOS[fn.__name__] = fn
    return fn


def T(t):
    """A tensor as {dtype, sizes, values}, or None."""
    if t is None:
        return None
    t = t.detach()
    return {'dtype': str(t.dtype).replace('torch.', ''), 'sizes': list(t.shape), 'values': t.reshape(-1).tolist()}


def name(node):
    return None if node is None else node.name()


def nf(node):
    """next_functions as [[name, input_nr], ...]."""
    return [[name(n), nr] for n, nr in node.next_functions]


def err(fn):
    """Runs fn: {"error": PyTorch's text} if it raises, else {"ok": its result}."""
    try:
        r = fn()
    except Exception as e:  # noqa: BLE001
        return {'error': str(e).split('\nException raised from')[0]}
    return {'ok': T(r) if isinstance(r, torch.Tensor) else r}


def leaf(values, dtype=torch.float32):
    return torch.tensor(values, dtype=dtype, requires_grad=True)
