"""Runs each Python twin in tools/golden/tutorials/ (PyTorch's tutorials, shrunk and seeded exactly as
their ports in examples/tutorials/) with the torch 2.13 wheel and records the lines it prints.

Writes test/golden/tutorials.json: {"generated_by", "torch_version", "tutorials": {name: [printed lines]}}. Each twin runs in
its own interpreter with one thread (a fresh process: no state leaks from one tutorial to the next), from the
repository root (twins read data/ by relative paths). Deterministic: every twin seeds its generator.
"""
import json
import os
import subprocess
import sys

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DIR = os.path.join(ROOT, "tools", "golden", "tutorials")
OUT = os.path.join(ROOT, "test", "golden", "tutorials.json")


def main():
    names = sorted(f[:-3] for f in os.listdir(DIR) if f.endswith(".py") and not f.startswith("_"))
    if len(sys.argv) > 1:
        names = [n for n in names if n in sys.argv[1:]]
    result = {"generated_by": "tools/golden/gen_tutorials.py", "torch_version": torch.__version__, "tutorials": {}}
    if len(sys.argv) > 1 and os.path.exists(OUT):
        with open(OUT) as f:
            result["tutorials"] = json.load(f)["tutorials"]
    env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONHASHSEED="0")
    for name in names:
        out = subprocess.run(
            [sys.executable, os.path.join(DIR, name + ".py")],
            cwd=ROOT, env=env, check=True, capture_output=True, text=True,
        ).stdout
        result["tutorials"][name] = out.rstrip("\n").split("\n")
    result["tutorials"] = dict(sorted(result["tutorials"].items()))
    with open(OUT, "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
