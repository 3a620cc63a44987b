"""c10.json's dtype blocks: the promotion table (c10/core/ScalarType.h's promoteTypes) and each dtype's
properties. Part of tools/golden/gen_c10.py.
"""
import torch

from c10.common import err


# dtypes

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16",
          "float32", "float64", "complex64", "complex128"]
DTYPES_EXT = DTYPES + ["uint16", "uint32", "uint64", "complex32", "float8_e4m3fn",
                       "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz",
                       "qint8", "quint8", "qint32"]


def short(dt):
    return str(dt).replace("torch.", "")


def promote_table(names):
    table = []
    for a in names:
        row = []
        for b in names:
            try:
                row.append(short(torch.promote_types(getattr(torch, a), getattr(torch, b))))
            except Exception as e:  # noqa: BLE001
                row.append({"error": err(e)})
        table.append(row)
    return table


def dtype_props(names):
    out = []
    for nme in names:
        dt = getattr(torch, nme)
        entry = {"name": nme}
        for field in ("itemsize", "is_floating_point", "is_complex", "is_signed"):
            try:
                entry[field] = getattr(dt, field)
            except Exception as e:  # noqa: BLE001
                entry[field] = {"error": err(e)}
        out.append(entry)
    return out
