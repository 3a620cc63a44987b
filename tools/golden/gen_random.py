#!/usr/bin/env python3
"""Golden fixture for aten-ts's CPU random number generation (src/random/).

Run with the reference torch build (2.13.0+cpu):

    $PYTHON tools/golden/gen_random.py            # writes test/golden/random.json
    $PYTHON tools/golden/gen_random.py -o OUT.json

Every value is produced by torch on an explicit torch.Generator and stored bit-exactly:
float32 as the uint32 bit pattern (JSON number), float64 as 16 hex digits of the bit pattern,
int64 as a JSON number when |v| <= 2^53 and as a decimal string otherwise, 0/1 outputs of
bernoulli as a string of '0'/'1' characters. See tools/golden/README.md for the layout.

The float normal samplers depend on the CPU kernels PyTorch picks (AVX2 or AVX-512 machines run
the AVX2 normal kernel) and on glibc's libm; the script refuses to run elsewhere and records
both in "platform". Deterministic: no timestamps, fixed seeds.
"""

import argparse
import json
import math
import os
import platform
import random
import struct
import sys

import torch

SEEDS = [0, 1, 42, 2**32 + 5, 123456789]
SIZES = [1, 5, 15, 16, 17, 100, 1000]
OUT_DEFAULT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", "test", "golden", "random.json"))

DTYPES = {"float32": torch.float32, "float64": torch.float64, "int64": torch.int64,
          "int32": torch.int32, "int8": torch.int8}


def enc(t):
    """Encodes a 1-D tensor's values bit-exactly (see module docstring)."""
    t = t.contiguous().flatten()
    if t.dtype == torch.float32:
        return [v & 0xFFFFFFFF for v in t.view(torch.int32).tolist()]
    if t.dtype == torch.float64:
        return [format(v & 0xFFFFFFFFFFFFFFFF, "016x") for v in t.view(torch.int64).tolist()]
    if t.dtype in (torch.int64, torch.int32, torch.int8):
        return [v if abs(v) <= 2**53 else str(v) for v in t.tolist()]
    raise TypeError(t.dtype)


def enc01(t):
    vals = t.flatten().tolist()
    assert all(v in (0.0, 1.0) for v in vals)
    return "".join("1" if v else "0" for v in vals)


def gen(seed):
    return torch.Generator().manual_seed(seed)


def state_hex(g):
    return bytes(g.get_state().tolist()).hex()


def run_op(g, step):
    """Runs one fixture step on generator g and returns its encoded values."""
    op, n = step["op"], step["n"]
    dt = DTYPES[step["dtype"]]
    a = step.get("args", {})
    if op == "rand":
        return enc(torch.rand(n, generator=g, dtype=dt))
    if op == "randn":
        return enc(torch.randn(n, generator=g, dtype=dt))
    if op == "uniform":
        return enc(torch.empty(n, dtype=dt).uniform_(a["from"], a["to"], generator=g))
    if op == "normal":
        return enc(torch.empty(n, dtype=dt).normal_(a["mean"], a["std"], generator=g))
    if op == "randint":
        return enc(torch.randint(int(a["low"]), int(a["high"]), (n,), generator=g, dtype=dt))
    if op == "randperm":
        return enc(torch.randperm(n, generator=g, dtype=dt))
    if op == "random_":
        return enc(torch.empty(n, dtype=dt).random_(generator=g))
    if op == "random_to":
        return enc(torch.empty(n, dtype=dt).random_(a["to"], generator=g))
    if op == "random_from":
        return enc(torch.empty(n, dtype=dt).random_(a["from"], None, generator=g))
    if op == "bernoulli_p":
        return enc01(torch.bernoulli(torch.empty(n, dtype=dt), a["p"], generator=g))
    if op == "bernoulli_tensor":
        probs = probs_for(step)
        return enc01(torch.bernoulli(probs, generator=g))
    raise ValueError(op)


def probs_for(step):
    """The probability tensor of a bernoulli_tensor step: torch.rand on a generator of its own."""
    dt = DTYPES[step["dtype"]]
    return torch.rand(step["n"], generator=gen(step["args"]["probs_seed"]), dtype=dt)


def int_arg(v):
    return v if abs(v) <= 2**53 else str(v)


def build_cases():
    cases = []

    def add(seed, op, dtype, n, args=None):
        step = {"op": op, "dtype": dtype, "n": n}
        if args:
            step["args"] = args
        g = gen(seed)
        values = run_op(g, step)
        case = {"seed": int_arg(seed), **step}
        if op == "bernoulli_tensor":
            case["probs"] = enc(probs_for(step))
        case["values"] = values
        cases.append(case)

    for seed in SEEDS:
        for dtype in ("float32", "float64"):
            for n in SIZES:
                add(seed, "rand", dtype, n)
                add(seed, "randn", dtype, n)
            for mean, std in ((1.5, 2.25), (-3.0, 0.5)):
                for n in (5, 16, 17, 100):
                    add(seed, "normal", dtype, n, {"mean": mean, "std": std})
            for lo, hi in ((-3.7, 5.1), (2.0, 2.5)):
                for n in (5, 17, 100):
                    add(seed, "uniform", dtype, n, {"from": lo, "to": hi})
        for lo, hi in ((0, 10), (-5, 5), (-100, 2**31), (0, 2**32), (-2**40, 2**40), (-2**62, 2**62),
                       (-2**63, 2**63 - 1)):
            for n in (1, 17, 100):
                add(seed, "randint", "int64", n, {"low": int_arg(lo), "high": int_arg(hi)})
        # The draw switches from random() to random64() at a range of 2^28, for every dtype.
        for lo, hi in ((0, 2**28 - 1), (0, 2**28), (5, 5 + 2**28)):
            add(seed, "randint", "int64", 17, {"low": lo, "high": hi})
            add(seed, "randint", "int32", 17, {"low": lo, "high": hi})
            add(seed, "randint", "float64", 17, {"low": lo, "high": hi})
        add(seed, "randint", "int32", 50, {"low": 0, "high": 10})
        add(seed, "randint", "int32", 50, {"low": -2**31, "high": 2**31})
        add(seed, "randint", "int8", 50, {"low": -128, "high": 128})
        add(seed, "randint", "float32", 50, {"low": -2**24, "high": 2**24})
        add(seed, "randint", "float64", 50, {"low": 0, "high": 2**40})
        # Tensor.random_'s three overloads (random_.from with to=None, random_.to, random_): the dtype's bounds
        for dtype in ("int32", "int8", "float32", "float64"):
            add(seed, "random_", dtype, 17)
            add(seed, "random_to", dtype, 17, {"to": 100})
        add(seed, "random_to", "int64", 17, {"to": 2**40})
        add(seed, "random_from", "int32", 17, {"from": -7})
        add(seed, "random_from", "int8", 17, {"from": 100})
        for n in (1, 5, 100, 1000):
            add(seed, "randperm", "int64", n)
        add(seed, "randperm", "int32", 100)
        add(seed, "randperm", "float32", 50)
        for p in (0.3, 0.5):
            for n in (5, 17, 100, 1000):
                add(seed, "bernoulli_p", "float32", n, {"p": p})
        for dtype in ("float32", "float64"):
            for n in (17, 100):
                add(seed, "bernoulli_tensor", dtype, n, {"probs_seed": 1000 + n})
    return cases


# Mixed calls on one generator: the state, including the cached double normal, carries over.
SEQUENCE_STEPS = [
    {"op": "randn", "dtype": "float64", "n": 3},       # leaves a cached double normal
    {"op": "rand", "dtype": "float32", "n": 5},
    {"op": "randn", "dtype": "float32", "n": 7},       # starts with the cached normal
    {"op": "randn", "dtype": "float32", "n": 20},      # block path: cache untouched
    {"op": "randint", "dtype": "int64", "n": 4, "args": {"low": 0, "high": 10}},
    {"op": "randn", "dtype": "float64", "n": 1},       # uses the cache left by the n=7 call
    {"op": "normal", "dtype": "float64", "n": 5, "args": {"mean": 1.5, "std": 2.25}},
    {"op": "randperm", "dtype": "int64", "n": 10},
    {"op": "bernoulli_p", "dtype": "float32", "n": 8, "args": {"p": 0.5}},
    {"op": "uniform", "dtype": "float64", "n": 3, "args": {"from": -1.0, "to": 1.0}},
    {"op": "randn", "dtype": "float64", "n": 33},
    {"op": "randint", "dtype": "int64", "n": 3, "args": {"low": -2**40, "high": 2**40}},
    {"op": "randn", "dtype": "float32", "n": 3},       # leaves a cached double normal again
    {"op": "rand", "dtype": "float64", "n": 700},      # crosses a 624-word twist
]


def build_sequences():
    seqs = []
    for seed in (0, 42, 2**32 + 5):
        g = gen(seed)
        steps = []
        for step in SEQUENCE_STEPS:
            steps.append({**step, "values": run_op(g, step)})
        state = state_hex(g)
        continuation = enc(torch.randn(5, generator=g, dtype=torch.float64))
        # Loading the saved state into a fresh generator must continue the same way.
        g2 = torch.Generator()
        g2.set_state(torch.tensor(list(bytes.fromhex(state)), dtype=torch.uint8))
        assert enc(torch.randn(5, generator=g2, dtype=torch.float64)) == continuation
        seqs.append({"seed": int_arg(seed), "steps": steps, "state_after": state,
                     "continuation_randn_float64_5": continuation})
    return seqs


def build_seed_cases():
    out = []
    for seed in (0, 5, 2**32 + 5, -1, 2**64 - 1, -2**63, 123456789):
        g = gen(seed)
        out.append({
            "seed": str(seed),
            "initial_seed": str(g.initial_seed()),
            "rand_float64_5": enc(torch.rand(5, generator=g, dtype=torch.float64)),
        })
    return out


def build_states():
    fresh = torch.Generator()
    return {
        "default_constructed": {"initial_seed": str(fresh.initial_seed()), "state": state_hex(fresh)},
        "seed_0": state_hex(gen(0)),
    }


def f64hex(x):
    return format(struct.unpack("<Q", struct.pack("<d", x))[0], "016x")


def check_claims():
    """Facts the TypeScript side relies on, asserted here rather than stored."""
    for dt in (torch.float32, torch.float64):
        for shape in ((3, 6), (4, 4, 2), (2, 50)):
            n = 1
            for s in shape:
                n *= s
            for fn in (torch.rand, torch.randn):
                a = fn(*shape, generator=gen(7), dtype=dt).flatten()
                b = fn(n, generator=gen(7), dtype=dt)
                assert torch.equal(a, b), (fn, shape, dt)
    # torch.manual_seed seeds the default generator like Generator.manual_seed.
    torch.manual_seed(42)
    assert torch.equal(torch.randn(20), torch.randn(20, generator=gen(42)))
    # Seeds agreeing mod 2^32 give the same stream.
    assert torch.equal(torch.rand(50, generator=gen(2**32 + 5)), torch.rand(50, generator=gen(5)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-o", "--output", default=OUT_DEFAULT)
    args = ap.parse_args()

    cap = torch.backends.cpu.get_cpu_capability()
    libc = platform.libc_ver()
    if platform.machine() != "x86_64" or cap not in ("AVX2", "AVX512") or libc[0] != "glibc":
        sys.exit(f"gen_random.py needs x86-64 Linux with glibc and AVX2/AVX512 kernels; got "
                 f"{platform.machine()}, {cap}, {libc}")
    check_claims()
    data = {
        "generated_by": "tools/golden/gen_random.py",
        "torch_version": torch.__version__,
        "platform": {"machine": platform.machine(), "cpu_capability": cap, "libc": " ".join(libc)},
        "seed_cases": build_seed_cases(),
        "states": build_states(),
        "cases": build_cases(),
        "sequences": build_sequences(),
    }
    text = json.dumps(data, separators=(",", ":"))
    with open(args.output, "w") as f:
        f.write(text + "\n")
    print(f"wrote {args.output}: {len(data['cases'])} cases, {len(data['sequences'])} sequences, "
          f"{len(text) / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
