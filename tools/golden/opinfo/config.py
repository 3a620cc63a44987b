"""What tools/golden/gen_opinfo.py samples (test/golden/opinfo/): the sample counts and size limits, the dtypes
(float, complex and reduced passes), the entries without values, the fixture families of op_db's entries, and
MODE, the counts and flags of the pass under way.
"""
import re
import types

import torch
from torch.testing._internal.opinfo.core import BinaryUfuncInfo, ReductionOpInfo, UnaryUfuncInfo


SAMPLES = 8
REFERENCE = 4
ERRORS = 8
MAX_NUMEL = 1000
# entries every sample of which has a tensor over MAX_NUMEL elements: their first float64 sample only, with
# tensors up to BIG_NUMEL elements (so the entry is replayed at all, and its fixture stays small)
BIG_SAMPLE_OPS = ["slice_scatter", "kron", "_upsample_bilinear2d_aa"]
BIG_NUMEL = 10000
FILE_BYTES = 280_000
DTYPES = [torch.float32, torch.float64, torch.int64, torch.int32, torch.bool]
# complex tensors are encoded (as interleaved [re, im] values) for these families only, and their entries are
# also sampled in these dtypes: the other fixtures stay as they were
COMPLEX_FAMILIES = ["fft"]
COMPLEX_DTYPES = [torch.complex64, torch.complex128]
# entries outside COMPLEX_FAMILIES that aten-ts computes in complex64/complex128 (its complex loops): they are
# also sampled in those dtypes when op_db lists them for the CPU, with COMPLEX_SAMPLES samples per dtype (no
# reference inputs) and complex128 gradients where OpInfo checks them (supports_autograd); their float
# samples encode complex results too
COMPLEX_OPS = [
    "abs", "neg", "exp", "log", "log10", "log2", "log1p", "expm1", "exp2", "sqrt", "rsqrt", "reciprocal", "sin",
    "cos", "tan", "sinh", "cosh", "tanh", "asin", "acos", "atan", "asinh", "acosh", "atanh", "sgn", "sigmoid",
    "square", "angle", "isnan", "isfinite", "isinf", "isreal", "positive", "conj", "conj_physical", "resolve_conj",
    "resolve_neg", "real", "imag", "view_as_real", "view_as_complex", "polar", "add", "sub", "mul",
    "div.no_rounding_mode", "true_divide", "pow", "eq", "ne", "rsub", "__radd__", "__rmul__", "__rsub__", "__rdiv__",
    "where", "sum", "mean", "prod", "mm", "bmm", "dot", "vdot", "matmul", "mv", "addmm", "outer", "reshape", "view",
    "flatten", "transpose", "permute", "clone", "contiguous", "cat", "stack", "flip", "t", "select", "unsqueeze",
    "squeeze", "expand", "narrow", "split", "chunk", "unbind", "roll", "repeat", "tile", "tril", "triu", "diagonal",
    "movedim", "index_select", "masked_select", "cumsum", "cumprod", "trace", "addcmul", "addcdiv"
]
COMPLEX_SAMPLES = 4
# float16 / bfloat16 (PyTorch computes many CPU ops in them): every entry whose CPU dtypes list them is also
# sampled in them, its first REDUCED_SAMPLES plain samples only (values and Meta; no reference inputs, no
# gradients), so the fixtures grow little; reduced tensors are encoded only while those samples are recorded
REDUCED_DTYPES = [torch.float16, torch.bfloat16]
REDUCED_SAMPLES = 2
# results that are random or uninitialised memory: dtype/shape/strides only
NO_VALUES = ["bernoulli", "empty", "empty_like", "empty_permuted", "empty_strided", "new_empty", "new_empty_strided", "rand_like", "randint", "randint_like", "randn", "randn_like"]

# What the sampling and encoding functions read: the default counts and limits, switched for one entry's pass by
# complex_samples / reduced_samples / big_samples, and the aliasing plan of the error input being encoded.
MODE = types.SimpleNamespace(samples=SAMPLES, reference=REFERENCE, max_numel=MAX_NUMEL, complex=False, reduced=False,
                             alias=None)

FAMILIES = [
    ("factories", ["arange", "empty", "empty_like", "empty_strided", "eye", "full", "full_like", "linspace", "ones",
                   "ones_like", "randint", "randn", "zeros", "zeros_like", "bernoulli", "zero_"]),
    ("views", ["as_strided", "chunk", "contiguous", "expand", "flatten", "narrow", "permute", "reshape", "select",
               "slice", "split", "split_with_sizes", "squeeze", "t", "transpose", "unbind", "unflatten", "unsqueeze",
               "view", "clone", "to", "item"]),
    ("indexing", ["cat", "flip", "gather", "index_put", "index_select", "masked_fill", "masked_select", "nonzero",
                  "repeat", "roll", "scatter", "scatter_add", "sort", "argsort", "stack", "tile", "topk", "tril",
                  "triu", "where"]),
    ("linalg", ["addmm", "baddbmm", "bmm", "dot", "matmul", "mm", "mv", "outer", "norm"]),
    ("nn", ["softmax", "log_softmax", "native_layer_norm", "max_pool2d_with_indices_backward"]),
]


def slug(entry):
    """An op's key as a file-name part: `nn.functional.conv2d` -> `conv2d`, `max.binary` -> `max_binary`."""
    key = entry["key"][len("nn.functional."):] if entry["key"].startswith("nn.functional.") else entry["key"]
    return re.sub(r"[^A-Za-z0-9]+", "_", key).strip("_")


def family(op):
    if op.name.startswith("nn.functional."):
        return "nn"
    # op_db's nested namespaces, one fixture file each (linalg.* joins the linalg family)
    for prefix, fam in (("linalg.", "linalg"), ("special.", "special"), ("fft.", "fft"), ("masked.", "masked"),
                        ("signal.windows.", "signal")):
        if op.name.startswith(prefix):
            return fam
    for fam, names in FAMILIES:
        if op.name in names:
            return fam
    if isinstance(op, UnaryUfuncInfo):
        return "unary"
    if isinstance(op, BinaryUfuncInfo):
        return "binary"
    if isinstance(op, ReductionOpInfo):
        return "reductions"
    return "other"
