#!/usr/bin/env python3
"""Writes the Fashion-MNIST subset that `npm start` trains on: data/fashion-mnist-subset/.

    python3 tools/data/make_fashion_subset.py [--src /usr/share/datasets/fashion-mnist] [--train 10000] [--test 2000]

Reads the four original IDX files (Debian package dataset-fashion-mnist, or the files from
https://github.com/zalandoresearch/fashion-mnist) and keeps the first N training and first M test images with
their labels, in the same IDX format (the header's count rewritten), gzip-compressed with mtime=0 and level 9
so the output is byte-for-byte reproducible. Needs only the Python standard library.
"""

import argparse
import gzip
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.normpath(os.path.join(HERE, "..", "..", "data", "fashion-mnist-subset"))


def read(path):
    with gzip.open(path, "rb") as f:
        return f.read()


def head(idx, n):
    """The first n entries of an IDX file (any element type of width 1: uint8 images/labels)."""
    if idx[0] != 0 or idx[1] != 0 or idx[2] != 0x08:
        raise SystemExit("expected a uint8 IDX file")
    ndim = idx[3]
    dims = list(struct.unpack(">" + "i" * ndim, idx[4:4 + 4 * ndim]))
    if n > dims[0]:
        raise SystemExit(f"asked for {n} entries, the file has {dims[0]}")
    per = 1
    for d in dims[1:]:
        per *= d
    off = 4 + 4 * ndim
    dims[0] = n
    return idx[:4] + struct.pack(">" + "i" * ndim, *dims) + idx[off:off + n * per]


def write(path, data):
    with open(path, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=raw, mtime=0) as f:
            f.write(data)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", default="/usr/share/datasets/fashion-mnist")
    ap.add_argument("--train", type=int, default=10000)
    ap.add_argument("--test", type=int, default=2000)
    ap.add_argument("--out", default=OUT)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    for prefix, n in (("train", a.train), ("t10k", a.test)):
        for kind, suffix in (("images", "idx3-ubyte"), ("labels", "idx1-ubyte")):
            name = f"{prefix}-{kind}-{suffix}.gz"
            write(os.path.join(a.out, name), head(read(os.path.join(a.src, name)), n))
            print(f"wrote {os.path.join(a.out, name)} ({os.path.getsize(os.path.join(a.out, name))} bytes)")


if __name__ == "__main__":
    main()
