"""Shared by tools/golden/gen_c10.py's parts (test/golden/c10.json): the 2.13 enum bounds of c10/core/DispatchKey.h,
the alias keys, and key/key-set helpers that read everything back from the torch binary (torch._C).
"""
import torch


C = torch._C
DK = C.DispatchKey
KS = C.DispatchKeySet

SEED = 20240613
NUM_RANDOM_SETS = 400
NUM_REMOVAL_PAIRS = 100
NUM_KEY_OPS = 150

# Values of the C++ enum (c10/core/DispatchKey.h, 2.13).
END_OF_FUNCTIONALITY = 47
END_OF_RUNTIME = 149  # AutogradMeta
START_OF_ALIAS = 150
END_OF_ALIAS = 155
START_OF_BLOCKS = (48, 65, 82, 99, 116, 133)  # StartOf<F>Backends
ALIAS_KEYS = [
    "Autograd",
    "CompositeImplicitAutograd",
    "FuncTorchBatchedDecomposition",
    "CompositeImplicitAutogradNestedTensor",
    "CompositeExplicitAutograd",
    "CompositeExplicitAutogradNonFunctional",
]


def raw(ks):
    return str(ks.raw_repr())


def dk(v):
    return DK(v)


def name_of(k):
    return C._dispatch_key_name(k)


def ks_of(k):
    return KS(k)


def ks_str(ks):
    return C._dispatch_keyset_to_string(ks)


def from_raw(r):
    return KS.from_raw_repr(int(r))


def highest(ks):
    h = ks.highestPriorityTypeId()
    return name_of(h), int(h.value)


def err(e):
    return str(e)
