#!/usr/bin/env python3
"""Golden fixtures for aten-ts's schema language (src/schema/).

Run with the reference torch build (2.13.0+cpu):

    $PYTHON tools/golden/gen_schemas.py            # writes test/golden/schemas.json
    $PYTHON tools/golden/gen_schemas.py -o OUT.json

Contents (everything read back from the torch binary / the wheel's torchgen):

* ``valid``: every ``func:`` of the wheel's native_functions.yaml (origin "yaml"),
  every other schema registered in the binary (``torch._C._jit_get_all_schemas()``,
  origin "registered") and hand-picked tricky schemas (origin "tricky"). For each:
  the input text, ``str(torch._C.parse_schema(text))`` (``str``, only where it differs from
  the text) and a breakdown (name,
  overload, arguments and returns with name / real type / N / default / kwarg_only /
  alias info, is_vararg, is_varret, is_mutable) plus torchgen's ``kind()`` and
  ``signature(strip_default=True)`` where torchgen can parse the schema.
  A tricky case marked ``fresh`` was parsed in a brand-new interpreter (only
  ``import torch`` before it): its alias set order depends on the ids that the
  binary gives to alias names it has not seen before.
* ``invalid``: schema texts that torch rejects, with the exception type and the first
  line of its message.
* ``mutated``: 600 seeded random mutations of real schemas and torch's verdict on each
  (the printed string, or the error).
* ``alias_symbols``: the interned-symbol ids of the alias names known right after
  ``import torch`` and the id the next new symbol gets (alias sets are
  ``std::unordered_set<Symbol>``, so their printing order depends on these ids).
* ``custom_classes``: the TorchBind classes (``__torch__.torch.classes.ns.Name``)
  registered in the binary.

The output is deterministic (no timestamps, sorted where torch's order is not stable).
"""

import argparse
import ctypes
import json
import os
import random
import re
import subprocess
import sys

import torch
import yaml

from torchgen.model import FunctionSchema as TGSchema

P = torch._C.parse_schema
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
YAML_PATH = os.path.join(
    os.path.dirname(os.path.dirname(torch.__file__)),
    "torchgen", "packaged", "ATen", "native", "native_functions.yaml",
)

# --------------------------------------------------------------------------------------
# Hand-picked schemas. Each is recorded with whatever torch does with it (parse or error);
# the lists below only say where we expect it to end up, and the script checks that.

TRICKY_VALID = [
    "f(float a=0x1p-1050, complex b=0x1p-1074j, float c=0x0.fffffffffffffp-1022) -> ()",
    "f(foo.bar x, t.u.v y) -> foo.bar",
    "f(Dict(bool, t) a, Dict(Any, t) b, Dict(Device, t) c, Dict(Tensor, t) d, Dict(ScalarType, t) e, Dict(complex, t) f) -> ()",
    "f(SymBool x) -> ()",
    "f(int[2] x) -> int[3]",
    "f(int x) -> int[3](a)? y",
    "f(int x) -> (int x, int[2] y)",
    "f.g(Tensor self) -> ()\n",
    "f(int x) -> int\n\n\n  # c\n",
    "f(\n  Tensor x,\n  Tensor y\n) -> (Tensor x,\n Tensor y)",
    "f(int x='''abc\ndef''') -> ()",
    "f(str x='''abc\ndef''') -> ()",
    "f(Tensor(a) x) -> Tensor[](a)",
    "f(Tensor(a!) x) -> Tensor(a)[2]",
    "f(Tensor(a -> *) x) -> Tensor(a)[]",
    "f(Tensor x) -> None",
    "f(Tensor x) -> NoneType y",
    "f(Scalar? x, Union(int, float, complex, None) y, Union(Tensor, float, complex, int) z) -> ()",
    "f(Union(int, None, str)? x, Union(int, str)?? y, Union(float, int)? z) -> ()",
    "f(Device a=\"cuda:128\", Device b=\"cuda:1000\", Device c=\"cuda:255\") -> ()",
    "f(str a=\"a\rb\", str b=\"a\x00b\", str c=\"\x1f\x7f\", str d=\"\u00ff\u20ac\") -> ()",
    "f(ScalarType[2] a=[float, long], Layout[] b=[strided], MemoryFormat? c=contiguous_format, SymInt[2]? d=1) -> ()",
    "f((ScalarType, Layout) a, Dict(str, ScalarType) b, Union(ScalarType, str) c, Future(SymInt) d) -> ()",
    "f(Tensor(a!)[] a, Tensor(a! -> *)[] b, Tensor(*)[] c, Tensor(a)[]? d) -> Tensor(a)[][]",
    "foo(int64_t x) -> ()",
    "foo(double x) -> ()",
    # printing of types, aliases and returns
    "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
    "aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
    "foo(Tensor(a|b) x) -> Tensor",
    "foo(Tensor(b|a) x) -> Tensor",
    "foo(Tensor(a|b|c) x) -> Tensor",
    "foo(Tensor(c|b|a) x) -> Tensor",
    "foo(Tensor(a|b|c|d|e|f|g|t) x) -> Tensor",
    "foo(Tensor(a! -> a|b) x) -> Tensor",
    "foo(Tensor(a -> *) x) -> Tensor",
    "foo(Tensor(* -> a) x) -> Tensor",
    "foo(Tensor(a|*) x) -> Tensor",
    "foo(Tensor(a)[] x) -> Tensor",
    "foo(Tensor(a)[][] x) -> Tensor",
    "foo(Tensor(a!)[] x) -> ()",
    "foo(Tensor! x) -> Tensor",
    "foo(Tensor! x, Tensor! y) -> Tensor!",
    "foo(Tensor(a)? x) -> Tensor",
    "foo(Tensor(a)?[] x) -> Tensor",
    "foo(Tensor?[](a) x) -> Tensor",
    "foo(int[2](a) x) -> Tensor",
    "foo(Tensor(a)[2](b)? x) -> Tensor",
    "foo(Tensor(a)[]? x) -> Tensor",
    "foo(Tensor(a)[]?? x) -> Tensor",
    "foo(int(a) x) -> ()",
    "foo(int[](a) x) -> ()",
    "foo(Tensor x) -> Tensor(a) y",
    "foo(Tensor x) -> (Tensor(a) y, Tensor z)",
    "foo(Tensor x) -> ()",
    "foo(Tensor x) -> ((str, t)[])",
    "foo(Tensor x) -> ((str, int))",
    "foo(Tensor x) -> (str, int)",
    "foo(Tensor x) -> ...",
    "foo(Tensor x) -> (...)",
    "foo(Tensor x) -> (int, ...)",
    "foo(...) -> int",
    "foo(int x, ...) -> int",
    "foo(*, *) -> ()",
    "foo(*) -> ()",
    "foo(int a, *, int b, *, int c) -> ()",
    "foo(int a=1, int[] b) -> ()",
    "foo(int a=1, *, int b) -> ()",
    "foo(Tensor from, Tensor index, Tensor def_, Tensor is_x) -> int",
    "foo._x(int x) -> int",
    "a: :b(int x) -> ()",
    "foo(Tensor x, Tensor x) -> Tensor x",
    "foo(Tensor x) -> Tensor extra",
    "foo(Tensor? ? x) -> ()",
    "foo(int? ?[] x) -> ()",
    "foo(int[ ] x, int[] [] y, int [2] z, int[ 3 ] w) -> ()",
    "foo(int[2.5] x) -> ()",
    "foo(int[1e3] x) -> ()",
    "foo(int[4294967298] x) -> ()",
    "foo(int[2147483648] x) -> ()",
    "foo(int[0x10] x) -> ()",
    "foo(int[2j] x) -> ()",
    # all base types
    "foo(Tensor a, Scalar b, int c, SymInt d, float e, bool f, str g, ScalarType h, Layout i, Device j, MemoryFormat k, Generator l, Storage m, Stream n, Any o, complex p, QScheme q, Quantizer r, ConstQuantizerPtr s, DeviceIndex t, Capsule u, AnyClassType v, AnyEnumType w, None x, NoneType y) -> ()",
    "foo(Tensor[] a, Scalar[] b, int[] c, SymInt[] d, float[] e, bool[] f, str[] g, ScalarType[] h, Tensor?[] i, int?[] j, Tensor[]? k, SymInt[]? l, Device? m, Generator? n, ScalarType? o, Layout? p, MemoryFormat? q, Scalar? r, str? s, bool? t, float? u, int? v, SymInt? w) -> ()",
    "foo(Dict(str, Tensor) d, Dict(int, Tensor[])(a) e) -> Dict(str, t)",
    "foo(Future(int) d, Await(Tensor) a, RRef(t) r) -> Future(Tensor(a))",
    "foo(t x, t[] y, t? z) -> t",
    "foo((int, str) x, (Tensor, (int, float)[])? y, () z) -> ((int, str) r, Tensor s)",
    "foo((Tensor(a), Tensor) x) -> ()",
    "foo(Union(int, str) a, Union(int, Tensor) b, Union(int, None) c, Union(Tensor, int, str) d) -> Union(int, Tensor, None)",
    "foo(Union(int, Union(str, Tensor)) x, Union(int, int?) y, Union(Tensor[], int[]) z) -> ()",
    "foo(Union(Scalar, int) x, Union(float, complex) y, Union(int?, str?) z, Union(int, str)? w) -> ()",
    "foo(Union(int, None, str) x, Union(t, int) y, Union(int, bool) z, Union(int, str)(a) w) -> ()",
    "foo(Union(int, float, complex) x) -> ()",
    "foo(Union(int, float, complex, str) x) -> ()",
    "foo(Union(int, float, str) x) -> ()",
    "foo(int?? x) -> ()",
    "foo(__torch__.torch.classes.c10d.ProcessGroup pg, __torch__.torch.classes.quantized.LinearPackedParamsBase[] w) -> __torch__.torch.classes.c10d.Work",
    # defaults
    "foo(ScalarType s=float, Layout l=strided, MemoryFormat m=contiguous_format, int r=Mean, ScalarType t=long, ScalarType c=complex) -> ()",
    "foo(ScalarType? s=float, Layout? l=None, MemoryFormat? m=contiguous_format) -> ()",
    "foo(int x=Mean, int y=strided, float z=float, str w=long) -> ()",
    "foo(Tensor x=None, Generator? g=None, Generator h=None, Quantizer q=None, Tensor? y=None, Tensor? z=1) -> ()",
    "foo(int[] x=[], int[]? y=None, int[1] z=1, int[2] a=1, int[2] b=[1,2,3], int[2] c=[1,1], int[3] d=[1,1,1], int[] e=[5], int[0] f=1, int[2]? g=1, int[2]? h=None) -> ()",
    "foo(SymInt[2] a=1, SymInt[1] b=1, SymInt[] c=[1,1], float[2] d=1, float[] e=[1, 2.5], bool[3] f=True, bool[] g=[True, False], int[] h=[-1, -2], float[2] i=-0.5, int[] j=[float]) -> ()",
    "foo(complex[] x=[1j, 2.5j], complex[2] y=3j, complex z=-2j, complex w=1e3j, Scalar v=0j, complex u=12, float t=1.5j, int s=1j, complex r=-0j, complex q=0x1p3j) -> ()",
    "foo(int a=None, int b=True, int c=\"s\", float d=1, float e=-1, float f=- 1, int g=1.5, int h=1., int i=.5, Scalar j=1, Scalar k=1.0, Scalar? l=None, bool m=1, bool n=False, SymInt o=1.5, bool p=None, float? q=1) -> ()",
    "foo(float a=1e-5, float b=1e20, float c=1.5e-7, float d=123456789.123, float e=0.0001, float f=0.00001, float g=1e16, float h=1e17, float i=12345678901234567890.0, float j=0.1) -> ()",
    "foo(float a=1e10, float b=1e15, float c=1e18, float d=1e19, float e=-1e19, float f=9.3e18, float g=-9.3e18, float h=9.2233720368547758e18, float i=-9.2233720368547758e18, float j=-0.0) -> ()",
    "foo(float a=2.2250738585072014e-308, float b=0e-400, float c=1e308, float d=2251799813685246.25, float e=2251799813685247.75, float f=1E5, float g=0x10, float h=0x1p3, float i=0x1.8p1, float j=1.7976931348623157e308) -> ()",
    "foo(int a=1E5, int b=1e5, int c=0x10, int d=0x1.8p1, int e=9223372036854775807, int f=-9223372036854775808, int g=00012, float h=00012, float i=1e+5, float j=1e-5j, int k=0xe, int l=0x1P3) -> ()",
    "foo(float a=4.9406564584124654e-300, float b=123.456e-250, float c=3.14159265358979323846, float d=-2.5e-5, float e=1e-4, float f=9.999999999999999e16, float g=0.3, float h=1e100, float i=5e-5, float j=100.0) -> ()",
    "foo(str a=\"a\\\"b'c\\n\\t\\\\\", str b='a\"b', str? c='a\"b', str d=1, str e=\"\\001\\177\", str f=\"\\101\", str g='''a\"b''', str h=\"\\\n\", str i=\"\\a\\b\\f\\v\", str j=\"\") -> ()",
    "foo(str a=\"\u00e9\", Scalar b=\"abc\", int c=\"s\", str d=\"\u00e9\u4e2d\\\\\", str e=\"tab\there\") -> ()",
    "foo(Device a=\"cpu\", Device b=\"cuda:1\", Device? c=None, Device? d=\"cpu\", Device e=\"meta\", Device f=\"mps:0\", Device g=\"privateuseone\", Device h=\"xla:3\", Device i=\"cpu:0\", Device j=\"hpu:12\") -> ()",
    "foo(int x # comment\n) -> ()",
    "foo(int x) -> () # c",
    "foo(int x) -> ()\n",
    "foo(int x) -> ()\n\n",
    "  foo(int x) -> ()",
    "foo(int x) -> ()\n  ",
    "foo(int\nx) -> ()",
    "foo(int x) -> \\\n()",
    "foo(int x)\t->\t()",
    "foo(int\tx, \r int y) -> ()",
    "foo(int x) -> ()   ",
    "aten::_foo_bar.baz_2(Tensor self) -> Tensor",
    "prim::TupleUnpack(Any tup) -> ...",
    "aten::items.str(Dict(str, t) self) -> ((str, t)[])",
]

TRICKY_INVALID = [
    "f(float x=0x1.fffffffffffffp-1023) -> ()",
    "f(float x=2.2250738585072011e-308) -> ()",
    "f(float x=0x3p-1075) -> ()",
    "f(Device.x y) -> ()",
    "f(int. step=1) -> ()",
    "f(TeK.$r x) -> ()",
    "f(Dict(Scalar, t) x) -> ()",
    "f(Dict(t, t) x) -> ()",
    "f(Dict(int?, t) x) -> ()",
    "f(Dict(boole, t)t(bool, t) x) -> ()",
    "f(ScalarType[2] a=float) -> ()",
    "f(SymFloat x) -> ()",
    "f(AnyListType x) -> ()",
    "f(List(int) x) -> ()",
    "f(Optional(int) x) -> ()",
    "aa::bb.cc.dd(int x) -> ()",
    "  f(int x) -> int\n bar",
    "f(int x) -> int # type: ignore",
    "f(int x) -> int\n# type: ignore",
    "f(\n  Tensor x,\n  Tensor y=bad\n) -> (Tensor x,\n Tensor y)",
    "f(\n  Tensor x,\n  Tensor y,\n  Tensor z,\n  Tensor w,\n  Tensor v=bad,\n  Tensor a,\n  Tensor b,\n  Tensor c,\n  Tensor d\n) -> ()",
    "f(int x=\"abc\ndef\") -> ()",
    "if(int x) -> ()",
    "f.if(int x) -> ()",
    "True(int x) -> ()",
    "f(int True) -> ()",
    "f(int x=Ellipsis) -> ()",
    "f(Tensor x) -> Ellipsis",
    "f(None? x) -> ()",
    "f(NoneType? x) -> ()",
    "f(Device x=\"cuda:99999999999\") -> ()",
    "f(Device x=\"\") -> ()",
    "f(Device x=\"cuda0\") -> ()",
    "f(Device x=\"PrivateUse1\") -> ()",
    "f(Tensor x) -> Tensor(a|*|b)",
    "f(Tensor(a -> b|*|c) x) -> ()",
    "f(int[] x=[1, 2.5]) -> ()",
    "f(bool[2] x=1) -> ()",
    "f(complex[2] x=1) -> ()",
    "f(float[] x=[True]) -> ()",
    "f(int x='''abc) -> ()",
    "f(int x) -> (int, ...) extra",
    "f(...,) -> ()",
    "f(int x=\"\\777\") -> ()",
    "foo(Tensor(a -> *|b) x) -> Tensor",
    "foo(Tensor(a|*|b) x) -> Tensor",
    "",
    "   ",
    "foo(",
    "foo",
    "aten::foo",
    "aten::add.Tensor",
    "123",
    "foo.default(int x) -> int",
    "foo.__x(int x) -> int",
    "foo(Tensor in) -> int",
    "foo(Tensor x) -> (str, t)[]",
    "foo(..., int x) -> int",
    "foo(int a=1, int b) -> ()",
    "foo(int x=1, ...) -> ()",
    "foo(Tensor x) -> (int, ..., int)",
    "foo(Dimname x) -> Tensor",
    "foo(float x=inf) -> Tensor",
    "foo(float x=-inf) -> Tensor",
    "foo(float x=nan) -> Tensor",
    "foo(float x=5e-324) -> Tensor",
    "foo(float x=1e-310) -> Tensor",
    "foo(float x=1e309) -> Tensor",
    "foo(float x=-1e400) -> Tensor",
    "foo(int x=99999999999999999999) -> Tensor",
    "foo(int x=-9223372036854775809) -> Tensor",
    "foo(complex x=1) -> Tensor",
    "foo(complex[] x=[1, 2j]) -> Tensor",
    "foo(Tensor(*|a) x) -> Tensor",
    "foo(Tensor?(a) x) -> Tensor",
    "foo(Tx x) -> t",
    "foo(int x=foo) -> ()",
    "foo(Tensor x=1) -> ()",
    "foo(Tensor[] x=None) -> ()",
    "foo(Tensor[] x=[]) -> ()",
    "foo(int[] x=None) -> ()",
    "foo(int[] x=abc) -> ()",
    "foo(str[] x=[\"a\"]) -> ()",
    "foo(Scalar[] x=[1]) -> ()",
    "foo(int[-1] x) -> ()",
    "foo(int?[] x=None) -> ()",
    "foo(int?[] x=[1, None]) -> ()",
    "foo(float x=--1) -> ()",
    "foo(Union(int) d) -> ()",
    "foo(Union(NoneType, None) x) -> ()",
    "foo(Union(int, SymInt) x) -> ()",
    "foo(Union(Tensor, Any) x) -> ()",
    "foo(str x=\"\\x41\") -> ()",
    "foo(str x=\"\\u0041\") -> ()",
    "foo(str x=\"\\q\") -> ()",
    "foo(str x=\"\\r\") -> ()",
    "foo(str x=\"a\" \"b\") -> ()",
    "foo(str x=\"abc) -> ()",
    "foo(str x='abc\n') -> ()",
    "foo(int x) -> int\n  bar",
    "foo\n(int x) -> ()",
    "foo(int x) ->\n()",
    "foo(int x) -> () extra",
    "foo(int x) -> int extra more",
    "foo(int x) -> (int a, int b",
    "foo(int x) -> [int]",
    "foo(int x)",
    "foo(int x) - > ()",
    "foo(int x) => ()",
    "foo(int x) -> ()$",
    "foo(int $x) -> ()",
    "foo(int \u00e9) -> ()",
    "foo(int x,) -> ()",
    "foo(,int x) -> ()",
    "foo(int x,, int y) -> ()",
    "foo(int x=) -> ()",
    "foo(int) -> ()",
    "foo(int x) -> (int,)",
    "foo() -> (,)",
    "a::b::c(int x) -> ()",
    "a:b(int x) -> ()",
    "a::(int x) -> ()",
    "::b(int x) -> ()",
    "a.b.c(int x) -> ()",
    "a.(int x) -> ()",
    "a.1(int x) -> ()",
    "1a(int x) -> ()",
    "foo(Tensor(a! x) -> ()",
    "foo(Tensor() x) -> ()",
    "foo(Tensor(!) x) -> ()",
    "foo(Tensor(a!!) x) -> ()",
    "foo(Tensor(a ->) x) -> ()",
    "foo(Tensor(a|) x) -> ()",
    "foo(Tensor(|a) x) -> ()",
    "foo(Tensor(1) x) -> ()",
    "foo(Tensor(a) (b) x) -> ()",
    "foo(float x=j) -> ()",
    "foo(float[] x=[1j]) -> ()",
    "foo(float x=1.5.5) -> ()",
    "foo(float x=1e) -> ()",
    "foo(int x=+1) -> ()",
    "foo(float x=0x) -> ()",
    "foo(int x=0b101) -> ()",
    "foo(int x=1_000) -> ()",
    "foo(Tensor?[] x=None) -> ()",
    "foo(Device x=\"bogus\") -> ()",
    "foo(Device x=\"cuda:-1\") -> ()",
    "foo(Device x=cpu) -> ()",
    "foo(Device x=None) -> ()",
    "foo(Device x=\"CPU\") -> ()",
    "foo(Device x=\"cuda:01\") -> ()",
    "foo(Device x=\"cuda:\") -> ()",
    "foo(Device x=\"cuda:1:2\") -> ()",
    "foo(Generator x=1) -> ()",
    "foo(Storage x=None) -> ()",
    "foo(Stream x=None) -> ()",
    "foo(Any x=None) -> ()",
    "foo(t x=1) -> ()",
    "foo(QScheme x=1) -> ()",
    "foo(Dict(str, int) x=None) -> ()",
    "foo((int, int) x=None) -> ()",
    "foo(NoneType x=None) -> ()",
    "foo(int[] x=[True, False]) -> ()",
    "foo(int[] x=[1.5]) -> ()",
    "foo(bool[] x=[1]) -> ()",
    "foo(int[] x=[None]) -> ()",
    "foo(int[] x=[[1]]) -> ()",
    "foo(int[] x=[1,]) -> ()",
    "foo(int[] x=[1 2]) -> ()",
    "foo(int[2] x=None) -> ()",
    "foo(int[2] x=True) -> ()",
    "foo(int[.5] x) -> ()",
    "foo(Tensor x) -> Tensor(a!",
    "foo(Tensor x) -> Tensor[",
    "foo(Tensor x) -> Tensor x y",
    "foo(__torch__.torch.classes.nope.Nothing x) -> ()",
    "foo(__torch__.torch.bad.c10d.ProcessGroup x) -> ()",
    "foo(Dict(str) x) -> ()",
    "foo(Future(int x) -> ()",
    "foo(int x) -> () -> ()",
    "foo(int x)) -> ()",
    "foo((int x) -> ()",
    "foo(int[2 x) -> ()",
    "foo(int x=[1]) -> ()",
    "foo(int x=1 2) -> ()",
    "foo(int x=-) -> ()",
    "foo(int x=-True) -> ()",
    "foo(str x='''abc) -> ()",
    "foo(int x) -> () \\",
]

# Parsed in a fresh interpreter: alias names the binary had not interned before.
FRESH_VALID = [
    "f(Tensor(y|a|b) x) -> ()",
    "f(Tensor(a|b|c|d|e|f|g|t|zz|y|yy) x) -> ()",
    "f(Tensor(a|b|c|d|e|f|g|t|zz|y|yy|q|r|s|u|v) x) -> ()",
    "f(Tensor(p|q|r) x, Tensor(r|q|p) y) -> Tensor(q|p|r)",
    "f(Tensor(a! -> x|y|a) x) -> ()",
]

# --------------------------------------------------------------------------------------


def alias_symbols():
    lib = ctypes.CDLL(os.path.join(os.path.dirname(torch.__file__), "lib", "libtorch_cpu.so"))

    class StdString(ctypes.Structure):
        _fields_ = [("ptr", ctypes.c_char_p), ("len", ctypes.c_size_t), ("buf", ctypes.c_char * 16)]

    to_qual = lib._ZNK3c106Symbol12toQualStringEv
    to_qual.restype = ctypes.c_char_p
    to_qual.argtypes = [ctypes.POINTER(ctypes.c_uint32)]
    from_qual = lib._ZN3c106Symbol14fromQualStringERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE
    from_qual.restype = ctypes.c_uint32
    from_qual.argtypes = [ctypes.POINTER(StdString)]
    # Interning a probe symbol tells how many symbols exist; this runs in a child
    # process so that the parent's symbol table is left as `import torch` made it.
    probe = b"attr::__aten_ts_probe__"
    s = StdString()
    s.ptr = probe
    s.len = len(probe)
    count = from_qual(ctypes.byref(s))
    ids = {}
    for i in range(count):
        v = ctypes.c_uint32(i)
        q = to_qual(ctypes.byref(v)).decode()
        if q.startswith("alias::"):
            ids[q[len("alias::"):]] = i
    return {"next_id": count, "ids": ids}


def enc_default(v):
    if isinstance(v, bool):
        return {"bool": v}
    if isinstance(v, int):
        return {"int": str(v)}
    if isinstance(v, float):
        return {"float": repr(v)}
    if isinstance(v, complex):
        return {"complex": [repr(v.real), repr(v.imag)]}
    if isinstance(v, str):
        return {"str": v}
    if isinstance(v, list):
        return {"list": [enc_default(x) for x in v]}
    if isinstance(v, torch.device):
        return {"device": str(v)}
    if v is None:
        return {"none": True}
    raise TypeError(f"unexpected default {v!r}")


def enc_alias(ai):
    if ai is None:
        return None
    return {"before": sorted(ai.before_set), "after": sorted(ai.after_set), "write": bool(ai.is_write)}


def enc_arg(a, is_return):
    d = {"name": a.name, "type": str(a.real_type)}
    if str(a.type) != str(a.real_type):
        d["fake"] = str(a.type)
    if a.N is not None:
        d["N"] = a.N
    if not is_return and a.has_default_value():
        d["default"] = enc_default(a.default_value)
    if a.kwarg_only:
        d["kwarg_only"] = True
    al = enc_alias(a.alias_info)
    if al is not None:
        d["alias"] = al
    return d


def breakdown(text, printed, s, with_torchgen=True):
    args = [enc_arg(a, False) for a in s.arguments]
    rets = [enc_arg(a, True) for a in s.returns]
    # FunctionSchema.is_vararg/is_varret are not bound in Python; read them from the printed form.
    has_defaults = any("default" in a for a in args)
    is_vararg = (not has_defaults) and ("...) -> " in printed)
    is_varret = printed.endswith("...") or printed.endswith("...)")
    # boolean flags are written only when true
    d = {"name": s.name, "overload": s.overload_name, "arguments": args, "returns": rets}
    if is_vararg:
        d["is_vararg"] = True
    if is_varret:
        d["is_varret"] = True
    if s.is_mutable:
        d["is_mutable"] = True
    if not with_torchgen:
        return d
    try:
        tg = TGSchema.parse(text)
        d["kind"] = tg.kind().name
        d["signature"] = str(tg.signature(strip_default=True))
    except BaseException:  # torchgen's parser is stricter than torch's
        pass
    return d


def err_of(e):
    msg = str(e)
    first = msg.strip("\n").split("\n")[0] if msg.strip("\n") else msg
    return {"type": type(e).__name__, "message": first, "full": msg}


def run_fresh(text):
    code = (
        "import sys, json, torch\n"
        "s = torch._C.parse_schema(json.loads(sys.stdin.read()))\n"
        "print(json.dumps(str(s)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], input=json.dumps(text), capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def yaml_funcs():
    with open(YAML_PATH) as f:
        data = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    return [e["func"] for e in data if isinstance(e, dict) and "func" in e]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-o", "--output", default=os.path.join(ROOT, "test", "golden", "schemas.json"))
    args = ap.parse_args()

    # alias symbol ids: read in a child so this process's table is untouched
    child = subprocess.run(
        [sys.executable, "-c", "import json, sys; sys.path.insert(0, %r); import gen_schemas as g; print(json.dumps(g.alias_symbols()))" % HERE],
        capture_output=True, text=True, check=True,
    )
    symbols = json.loads(child.stdout)

    valid = []
    seen = set()

    def add_valid(text, origin, fresh=False):
        if text in seen:
            return
        seen.add(text)
        s = P(text)
        printed = str(s)
        entry = {"text": text, "origin": origin}
        if fresh:
            entry["fresh"] = True
            printed_here = run_fresh(text)
        else:
            printed_here = printed
        if printed_here != text:
            entry["str"] = printed_here  # omitted when the schema prints as written
        # torchgen reads schemas textually; give it only well-formed ones (hand-picked oddities
        # such as `a: :b(...)` or `int??` would be taken literally)
        entry.update(breakdown(text, printed, s, with_torchgen=(origin != "tricky" or printed == text)))
        # every printed form must parse back to an equal schema that prints the same
        reparsed = None
        try:
            reparsed = P(printed)
        except Exception:
            pass
        if not (reparsed is not None and str(reparsed) == printed):
            entry["reparses"] = False  # printed form does not round-trip (alias set order, `Tensor!`, ...)
        valid.append(entry)

    funcs = yaml_funcs()
    for f in funcs:
        add_valid(f, "yaml")

    # registered schemas, minus the aten:: copies of the YAML functions above
    yaml_printed = {v.get("str", v["text"]) for v in valid}
    registered = sorted(str(s) for s in torch._C._jit_get_all_schemas())
    for r in registered:
        if r.startswith("aten::") and r[len("aten::"):] in yaml_printed:
            continue
        add_valid(r, "registered")

    invalid = []
    for t in TRICKY_VALID:
        try:
            add_valid(t, "tricky")
        except Exception as e:
            raise SystemExit(f"tricky schema expected to parse but did not: {t!r}: {e}")
    for t in FRESH_VALID:
        add_valid(t, "tricky", fresh=True)
    for t in TRICKY_INVALID:
        try:
            P(t)
        except BaseException as e:
            invalid.append({"text": t, "error": err_of(e)})
            continue
        raise SystemExit(f"tricky schema expected to fail but parsed: {t!r}")

    # deterministic random mutations of real schemas, with torch's verdict on each
    rng = random.Random(20240613)
    pool = funcs + registered
    pieces = list("()[]?!*,=-.:>\"'#\\\n \t0123456789aTNxje") + [
        "->", "...", "None", "Tensor", "(a!)", "[2]", "1e400", "0x1p3", "'''", "?", "[]", "Union(int, str)",
        "(int, float)", "Dict(str, t)", "=1", "=[1, 2]", "=1.5", "=True", '="cpu"', "=None", ", *", "Scalar",
        "SymInt", "int[3]", "str", "(a -> *)", "(*)", "float", "complex", "=2j", "=-1", "=contiguous_format",
        "=long", "='x\\n'", "=0x10", "=1e-5", "=[]", "Device", "Layout", "MemoryFormat",
    ]
    mutated = []
    seen_mut = set()
    while len(mutated) < 600:
        t = rng.choice(pool)
        for _ in range(rng.randint(1, 3)):
            at = rng.randint(0, len(t))
            op = rng.randrange(4)
            if op == 0:
                t = t[:at] + rng.choice(pieces) + t[at:]
            elif op == 1:
                t = t[:at] + t[at + rng.randint(1, 6):]
            elif op == 2:
                r = rng.choice(pieces)
                t = t[:at] + r + t[at + len(r):]
            else:
                t = t[:at] + t[at:at + rng.randint(1, 12)] + t[at:]
        if t in seen_mut or "|" in t:
            continue  # alias set order would depend on this process's symbol history
        seen_mut.add(t)
        try:
            mutated.append({"text": t, "str": str(P(t))})
        except BaseException as e:
            mutated.append({"text": t, "error": err_of(e)})

    classes = set()
    for s in list(torch._C._jit_get_all_schemas()) + list(torch._C._jit_get_custom_class_schemas()):
        classes.update(re.findall(r"__torch__\.torch\.classes\.\w+\.\w+", str(s)))

    out = {
        "generated_by": "tools/golden/gen_schemas.py",
        "torch_version": torch.__version__,
        "native_functions_yaml": "torchgen/packaged/ATen/native/native_functions.yaml",
        "counts": {
            "yaml": sum(1 for v in valid if v["origin"] == "yaml"),
            "registered": sum(1 for v in valid if v["origin"] == "registered"),
            "tricky": sum(1 for v in valid if v["origin"] == "tricky"),
            "invalid": len(invalid),
            "mutated": len(mutated),
            "print_differs_from_text": sum(1 for v in valid if "str" in v),
        },
        "alias_symbols": symbols,
        "custom_classes": sorted(classes),
        "valid": valid,
        "invalid": invalid,
        "mutated": mutated,
    }
    os.makedirs(os.path.dirname(args.output), exist_ok=True)
    with open(args.output, "w") as f:
        json.dump(out, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {args.output}: {out['counts']}")


if __name__ == "__main__":
    main()
