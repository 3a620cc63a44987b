#!/usr/bin/env python3
"""OpInfo fixtures: PyTorch's own test samples (`op_db` of torch.testing._internal.common_methods_invocations)
for every OpInfo entry whose operator aten-ts has, replayed by test/opinfo/opinfo.test.ts.

Run from the repository root (op_db imports `expecttest`, which the wheel does not ship: this script puts a
stub module in its place when it is missing):

    npx tsx tools/opinfo-ops.ts                       # tools/golden/opinfo_ops.json (aten-ts's names)
    $PYTHON tools/golden/gen_opinfo.py --coverage   # op_db entries aten-ts exposes but the sweep skips
    $PYTHON tools/golden/gen_opinfo.py     # test/golden/opinfo/*.json.gz and index.json
    npx tsx tools/opinfo-report.ts                    # test/opinfo/known_failures.json, FEATURES.md section

Which entries: an OpInfo `name` (`nn.functional.X` → `X`) that is a `torch.*` function or a Tensor method of
aten-ts (tools/golden/opinfo_ops.json), or a function of the package's full namespace (`exposed`: torch.complex,
torch.nn.functional.X), with every `variant_test_name`. `--coverage` lists the entries aten-ts exposes (by name or alias)
that this rule skips, and exits 1 if there are any. For each of float32, float64, int64,
int32 and bool that the OpInfo supports on the CPU (and float16/bfloat16: their first REDUCED_SAMPLES plain
samples, values and Meta only):

- `samples`: the first SAMPLES of `sample_inputs(cpu, dtype)` and the first REFERENCE of the extra samples of
  `reference_inputs` (those after the ones it shares with `sample_inputs`); each with its input/args/kwargs,
  the expected output (values, dtype, shape, strides; `view` when it shares storage with an input), the Meta
  result (the call on meta tensors of the same sizes/strides: dtype, shape, strides, or the error), and for
  float64 with `supports_autograd` the first-order gradients of the inputs OpInfo marks as requiring grad
  (`grad_inputs`: paths into the call) for a seeded cotangent (rounded to 2 decimals) per differentiable
  output, and the `grad_fn` name of the first output.
- `errors` (once per entry): the first ERRORS of `error_inputs(cpu)`, with the exception type and message.

Samples with a tensor of more than MAX_NUMEL elements, or with an argument that has no JSON form, are skipped
and counted (`skipped`). Random and uninitialised results (NO_VALUES) record dtype/shape only. Each sample
records the `seed` its call draws from (42 for OpInfo's `wrapper_set_seed` entries; values and gradients):
aten-ts's CPU generator draws PyTorch's numbers, so a random operator (dropout) is compared value for value.

Encoding: a tensor is {"$t": dtype, "shape", "values"} (values flat in logical order; floats "nan"/"inf"/
"-inf" as strings) plus "strides"/"offset"/"storage" for a non-contiguous tensor or a view into a larger
storage (then `storage` holds its whole storage and the tensor is `storage.as_strided(shape, strides, offset)`); a Python float is
a number (integral floats are {"$f": x}, as JS cannot tell 2.0 from 2), a dtype {"$dtype": name}, a
torch.Size/tuple/list a JSON list, None null; an error {"error": message, "type": name}. In error inputs,
aliasing is kept (out= overlap checks): a tensor passed twice is {"$id": k, ...} the first time (in the order
input, args, kwargs by sorted key) and {"$ref": k} after, and distinct tensors over one storage carry their whole
storage with {"$storage": s} (the harness builds one base per s and views it).

The parts live in tools/golden/opinfo/: config (counts, dtypes, families, MODE), encode (the JSON encoding),
samples (the recording of one entry).

Deterministic: torch.manual_seed per entry/dtype from a CRC-32 of its name (never Python's hash()), no set
iteration, gzip with mtime 0.
"""

import argparse
import gzip
import json
import os
import re
import sys
import types
import warnings

# Some op_db samples iterate over a set of strings (meshgrid's `indexing` modes), whose order follows Python's
# per-process string hashing: pin it, so that every run writes the same bytes.
if os.environ.get("PYTHONHASHSEED") != "0":
    os.execve(sys.executable, [sys.executable] + sys.argv, {**os.environ, "PYTHONHASHSEED": "0"})

import torch

try:
    import expecttest  # noqa: F401 - imported by op_db's modules; the wheel does not ship it
except ImportError:
    expecttest = types.ModuleType("expecttest")
    expecttest.TestCase = type("TestCase", (), {})
    sys.modules["expecttest"] = expecttest

from torch.testing._internal.common_methods_invocations import op_db  # noqa: E402

# The parts, in tools/golden/opinfo/ (imported after the expecttest stub: they import op_db's modules).
from opinfo.config import (  # noqa: E402
    BIG_SAMPLE_OPS,
    COMPLEX_DTYPES,
    COMPLEX_FAMILIES,
    COMPLEX_OPS,
    DTYPES,
    family,
    FILE_BYTES,
    MODE,
    REDUCED_DTYPES,
    slug,
)
from opinfo.encode import dname  # noqa: E402
from opinfo.samples import big_samples, complex_samples, gen_errors, gen_samples, reduced_samples  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# op_db entries outside aten-ts's scope, each with its reason (the coverage table of FEATURES.md lists them):
# (prefix of the entry's key, reason); an entry matching none that the sweep does not reach is "not yet".
OUT_OF_SCOPE = [
    ("jiterator_", "CUDA's jiterator (runtime-compiled CUDA kernels): no CPU operator"),
    ("torch._scaled_mm", "fp8 scaled matmul (Triton / CUDA fp8 GEMM): no CPU float8 path"),
    ("torch.ops.aten._flash_attention_forward", "CUDA-only attention backend (the CPU flash operator is swept)"),
    ("torch.ops.aten._efficient_attention_forward", "CUDA-only attention backend (memory-efficient attention)"),
    ("sparse.", "sparse layouts (aten-ts has strided tensors only)"),
    ("to_sparse", "sparse layouts (aten-ts has strided tensors only)"),
]


def out_of_scope(key):
    return next((why for prefix, why in OUT_OF_SCOPE if key.startswith(prefix)), None)


def op_db_entry(op, is_swept):
    """One op_db entry for the coverage table: key, family and, when not swept, why."""
    key = op.name + ("." + op.variant_test_name if op.variant_test_name else "")
    entry = {"key": key, "family": family(op), "swept": is_swept}
    if not is_swept:
        entry["reason"] = out_of_scope(key) or "not yet in aten-ts"
    return entry


# op_db entries named after no torch function: their op is `wrapper_set_seed(torch.Tensor.<method>, ...)`, swept
# when aten-ts has that method (the harness's adapters call it)
SEEDED_METHODS = {"cauchy": "cauchy_", "exponential": "exponential_", "geometric": "geometric_",
                  "log_normal": "log_normal_", "uniform": "uniform_", "normal.in_place": "normal_"}


# op_db entries whose torch function aten-ts has under another name: `x[i]` is `x.index([i])`;
# `torch.ops.aten.X.default` (OpInfo's entries that call the aten overload) is torch.X
RENAMED = {"__getitem__": "index"}


def call_name(op):
    """The aten-ts function or method an entry calls: `nn.functional.X` → `X`, `torch.ops.aten.X.default` → `X`."""
    if op.name.startswith("nn.functional."):
        return op.name[len("nn.functional."):]
    m = re.fullmatch(r"torch\.ops\.aten\.(\w+)\.default", op.name)
    return m.group(1) if m else op.name


def swept(op, names, exposed):
    """The sweep's rule: an entry is generated when its name (`nn.functional.X` → `X`) is a torch function or
    method of the core namespace, or its name a function of the package's full one (torch.complex,
    torch.nn.functional.X), or it is one of SEEDED_METHODS whose method aten-ts has."""
    base = call_name(op)
    key = op.name + ("." + op.variant_test_name if op.variant_test_name else "")
    return base in names or op.name in exposed or SEEDED_METHODS.get(key) in names or RENAMED.get(key) in names


def coverage(have, names):
    """Prints the op_db entries whose torch function (op.name, or one of its aliases) the package exposes
    (`exposed` of opinfo_ops.json: torch.X and torch.nn.functional.X of src/torch.ts, or a core name) but `swept`
    skips, and those swept only through `exposed`; exits 1 if any is skipped."""
    exposed = set(have.get("exposed", []))
    missing, extra = [], []
    for op in op_db:
        key = op.name + ("." + op.variant_test_name if op.variant_test_name else "")
        if swept(op, names, exposed):
            if not swept(op, names, set()):
                extra.append(key)
            continue
        hits = [n for n in [op.name] + [a.name for a in op.aliases] if n in exposed or n in names]
        if hits:
            missing.append(f"{key} (aten-ts: torch.{hits[0]})")
    for m in missing:
        print(f"skipped: {m}")
    for e in extra:
        print(f"swept through the full namespace: {e}")
    print(f"{len(missing)} op_db entries exposed by aten-ts but not swept", file=sys.stderr)
    return 1 if missing else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ops", default=os.path.join(ROOT, "tools/golden/opinfo_ops.json"))
    ap.add_argument("-o", "--out", default=os.path.join(ROOT, "test/golden/opinfo"))
    ap.add_argument("--coverage", action="store_true",
                    help="list the op_db entries whose torch function aten-ts exposes but the sweep skips; write nothing")
    ap.add_argument("--only", default=None,
                    help="comma-separated entry keys: write just their fixtures (to try changes; not committed)")
    args = ap.parse_args()
    with open(args.ops) as f:
        have = json.load(f)
    names = set(have["functions"]) | set(have["methods"])
    if args.coverage:
        return coverage(have, names)
    exposed = set(have.get("exposed", []))
    torch.set_default_dtype(torch.float32)
    warnings.simplefilter("ignore")
    # uninitialised memory (torch.empty in error_inputs' `out=` tensors) is filled with NaN / the largest
    # integer, so that every run writes the same bytes
    torch.use_deterministic_algorithms(True, warn_only=True)
    torch.utils.deterministic.fill_uninitialized_memory = True
    families = {}
    counts = {"too_large": 0, "unserializable": 0}
    entries = [op_db_entry(op, swept(op, names, exposed)) for op in op_db]
    for op in op_db:
        base = call_name(op)
        if not swept(op, names, exposed):
            continue
        key = op.name + ("." + op.variant_test_name if op.variant_test_name else "")
        if args.only is not None and key not in args.only.split(","):
            continue
        supported = op.supported_dtypes("cpu")
        entry = {"name": op.name, "variant": op.variant_test_name, "key": key, "call": base,
                 "supports_autograd": bool(op.supports_autograd), "dtypes": {}}
        MODE.complex = family(op) in COMPLEX_FAMILIES or key in COMPLEX_OPS
        big = key in BIG_SAMPLE_OPS
        for dtype in [torch.float64] if big else DTYPES + (COMPLEX_DTYPES if MODE.complex else []):
            if dtype not in supported:
                continue
            if big:
                entry["dtypes"][dname(dtype)] = big_samples(op, dtype, key, counts)
            elif dtype.is_complex and key in COMPLEX_OPS:
                entry["dtypes"][dname(dtype)] = complex_samples(op, dtype, key, counts)
            else:
                entry["dtypes"][dname(dtype)] = gen_samples(op, dtype, key, counts)
        for dtype in [] if big else REDUCED_DTYPES:
            if dtype in supported:
                entry["dtypes"][dname(dtype)] = reduced_samples(op, dtype, key, counts)
        entry["errors"] = gen_errors(op, key, counts)
        MODE.complex = False
        families.setdefault(family(op), []).append(entry)
        print(f"{key}: " + ", ".join(f"{d} {len(v)}" for d, v in entry["dtypes"].items()) + f", errors {len(entry['errors'])}",
              file=sys.stderr)
    os.makedirs(args.out, exist_ok=True)
    for name in sorted(os.listdir(args.out)):
        if name.endswith(".json.gz"):
            os.remove(os.path.join(args.out, name))
    files = []
    for fam in sorted(families):
        # files of at most ~FILE_BYTES compressed: ops in op_db order, a new file when the next op would not fit
        chunks, size = [[]], 0
        for entry in families[fam]:
            n = len(gzip.compress(json.dumps(entry, separators=(",", ":")).encode(), mtime=0))
            if chunks[-1] and size + n > FILE_BYTES:
                chunks.append([])
                size = 0
            chunks[-1].append(entry)
            size += n
        for ops in chunks:
            # a family's files are named by the ops they hold (first and last), never by a sequence number
            name = f"{fam}.json.gz" if len(chunks) == 1 else f"{fam}-{slug(ops[0])}-to-{slug(ops[-1])}.json.gz"
            doc = {"generated_by": "tools/golden/gen_opinfo.py", "torch_version": torch.__version__, "family": fam,
                   "ops": ops}
            data = json.dumps(doc, separators=(",", ":"), allow_nan=False).encode()
            with open(os.path.join(args.out, name), "wb") as f:
                f.write(gzip.compress(data, compresslevel=9, mtime=0))
            files.append(name)
    summary = {"generated_by": "tools/golden/gen_opinfo.py", "torch_version": torch.__version__, "files": files,
               "skipped": counts, "op_db": entries}
    with open(os.path.join(args.out, "index.json"), "w") as f:
        json.dump(summary, f, indent=1)
        f.write("\n")
    print(json.dumps(counts), file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
