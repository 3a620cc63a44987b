// The table-driven half of the generated front end: one parser that interprets each binding's signature table
// (src/generated/functions.ts and methods.ts hold the tables as text). Mirrors torch/csrc/utils/python_arg_parser.cpp
// (PythonArgParser::raw_parse over the FunctionSignatures of a binding). The checks, conversions and error texts
// are python_arg_parser.ts's. Browser-safe.

import { frontEndEnter, hooks } from '../dispatch/debug.js';
import { setFactoryRequiresGrad } from '../autograd/variable.js';
import type { Tensor } from '../tensor/Tensor.js';
import {
  badCall,
  checkKw,
  checkNoKw,
  checkOutTuple,
  isBool,
  isDevice,
  isDtype,
  isFloat,
  isGenerator,
  isInt,
  isIntList,
  isIntVarargs,
  isKw,
  isOptionalTensorList,
  isScalar,
  isTensor,
  isTensorList,
  isTensorOrNumber,
  kwArg,
  kwFits,
  kwPositional,
  missingKw,
  noArgs,
  noMatch,
  normalizeKw,
  toDevice,
  toDtype,
  toIntList,
  toIntListN,
  toOptionalTensorList,
  toReduction,
  toTensor,
  type Kw,
  type PyParam,
} from './python_arg_parser.js';

// Note [Table-driven argument parsing]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The generated front end used to unroll every overload's checks into straight-line code: 1.7 MB of
// TypeScript that V8 had to pre-parse at every import, for a few dozen bindings a program calls. Now each
// binding is a JSON table (the `ArgTable` types below, written by src/codegen/dest/python.ts), kept as a
// string until the binding's first call, when `decode` turns it into checks and conversions; `call` then runs
// the same steps the unrolled code ran, in the same order, so every overload-resolution rule and error text of
// Note [Generated argument parsing] is unchanged: strip trailing `undefined`s, take a trailing plain object as
// the keywords, try each overload (then, for the ops that take them, numbers as tensors), fill positional
// parameters from the keywords (Note [Every argument by keyword]), convert, fill defaults, check the keywords,
// call the operator (its out= form when `out` is given).

/** A parameter in the table: name, check/convert code, Python type name, default (a JS expression), size N. */
interface ArgRow {
  readonly n: string;
  /** `?`* then R (reduction), L (int[N]), il, otl, tl, a (lists), T, N, i, f, b, s, D, V, G, x. */
  readonly t: string;
  readonly y: string;
  readonly d?: string;
  readonly N?: number;
  /** PyParam fields of the error path: has a default, keyword-only, list kind. */
  readonly h: boolean;
  readonly ko: boolean;
  readonly l?: 'int' | 'Tensor' | 'Tensor?';
}

/** An overload in the table. Call references: i >= 0 a parsed value, -1 self, -2 undefined, -3 out, -4-k out[k]. */
interface OverloadRow {
  readonly op: string;
  readonly c: readonly number[];
  readonly out?: string;
  readonly oc?: readonly number[];
  readonly no?: number;
  readonly p: readonly ArgRow[];
  readonly k: readonly ArgRow[];
  readonly mn: number;
  readonly va?: boolean;
  readonly nt?: boolean;
  readonly to?: boolean;
  readonly al: readonly string[];
  readonly pk: readonly string[];
  /** Keyword-only Tensor parameters (a number there selects the next overload). */
  readonly tk: readonly string[];
}

/** A binding's table: name, signatures for the errors, overloads, METH_NOARGS. */
interface BindingRow {
  readonly n: string;
  readonly s: readonly string[];
  readonly o: readonly OverloadRow[];
  readonly na?: boolean;
}

type Check = (v: unknown) => boolean;
type Convert = (v: unknown) => unknown;
type Op = (...args: unknown[]) => unknown;
/** The parse pass: 0 Tensors only, 1 numbers as tensors (Note [Numbers as tensors] in src/codegen/api/python.ts). */
type Pass = 0 | 1;

interface Arg {
  readonly name: string;
  readonly pyType: string;
  /** Indexed by `numbers` (0: Tensors only, 1: numbers as tensors). */
  readonly check: readonly [Check, Check];
  readonly convert: readonly [Convert, Convert];
  readonly hasDefault: boolean;
  readonly dflt: () => unknown;
  readonly row: ArgRow;
}

interface Overload {
  readonly op: Op;
  readonly refs: readonly number[];
  readonly outOp: Op | null;
  readonly outRefs: readonly number[];
  readonly nOuts: number;
  readonly pos: readonly Arg[];
  readonly kw: readonly Arg[];
  readonly P: number;
  readonly min: number;
  readonly varargs: boolean;
  readonly numbers: boolean;
  readonly tensorOptions: boolean;
  readonly allowed: readonly string[];
  readonly posKw: readonly string[];
  readonly kwTensors: readonly string[];
  readonly row: OverloadRow;
}

interface Decoded {
  readonly name: string;
  readonly overloads: readonly Overload[];
  readonly overloaded: boolean;
  readonly passes: number;
  readonly noArgs: boolean;
  readonly sigs: readonly string[];
}

const same: Convert = (v) => v;
const isString: Check = (v) => typeof v === 'string';
const never: Check = () => false;

/** The check and conversion of a type code (python.ts's argCheck / argConvert), for `numbers` 0 and 1. */
function codeOf(t: string, N: number | undefined): { check: [Check, Check]; convert: [Convert, Convert] } {
  if (t.startsWith('?')) {
    const inner = codeOf(t.slice(1), N);
    const opt =
      (c: Check): Check =>
      (v) =>
        v === null || c(v);
    const optConv =
      (c: Convert): Convert =>
      (v) =>
        v === null ? null : c(v);
    return { check: [opt(inner.check[0]), opt(inner.check[1])], convert: [optConv(inner.convert[0]), optConv(inner.convert[1])] };
  }
  const both = (check: Check, convert: Convert = same): { check: [Check, Check]; convert: [Convert, Convert] } => ({
    check: [check, check],
    convert: [convert, convert],
  });
  switch (t) {
    case 'T':
      return { check: [isTensor, isTensorOrNumber], convert: [same, toTensor] };
    case 'R':
      return both((v) => isInt(v) || typeof v === 'string', toReduction);
    case 'L':
      return both(
        (v) => isInt(v) || isIntList(v),
        (v) => toIntListN(v, N as number),
      );
    case 'il':
      return both(isIntList, toIntList);
    case 'otl':
      return both(isOptionalTensorList, toOptionalTensorList);
    case 'tl':
      return both(isTensorList);
    case 'a':
      return both(Array.isArray);
    case 'N':
      return both(isScalar);
    case 'i':
      return both(isInt);
    case 'f':
      return both(isFloat);
    case 'b':
      return both(isBool);
    case 's':
      return both(isString);
    case 'D':
      return both(isDtype, toDtype);
    case 'V':
      return both(isDevice, toDevice);
    case 'G':
      return both(isGenerator);
    default:
      return both(never);
  }
}

/** A default written as python.ts's defaultExpr writes it; lists are fresh on every use. */
function defaultOf(d: string | undefined): () => unknown {
  if (d === undefined) return () => undefined;
  const atom = (s: string): unknown => (s === 'null' ? null : s === 'true' ? true : s === 'false' ? false : Number(s));
  if (d.startsWith('[')) {
    const items = d === '[]' ? [] : d.slice(1, -1).split(', ').map(atom);
    return () => items.slice();
  }
  const v = d.startsWith('"') ? (JSON.parse(d) as unknown) : atom(d);
  return () => v;
}

function decodeArg(row: ArgRow): Arg {
  const { check, convert } = codeOf(row.t, row.N);
  return { name: row.n, pyType: row.y, check, convert, hasDefault: row.d !== undefined, dflt: defaultOf(row.d), row };
}

function decode(text: string, at: Readonly<Record<string, unknown>>): Decoded {
  const b = JSON.parse(text) as BindingRow;
  const overloads = b.o.map((r): Overload => ({
    op: at[r.op] as Op,
    refs: r.c,
    outOp: r.out === undefined ? null : (at[r.out] as Op),
    outRefs: r.oc ?? [],
    nOuts: r.no ?? 0,
    pos: r.p.map(decodeArg),
    kw: r.k.map(decodeArg),
    P: r.p.length,
    min: r.mn,
    varargs: r.va === true,
    numbers: r.nt === true,
    tensorOptions: r.to === true,
    allowed: r.al,
    posKw: r.pk,
    kwTensors: r.tk,
    row: r,
  }));
  return {
    name: b.n,
    overloads,
    overloaded: overloads.length > 1,
    passes: overloads.some((ov) => ov.numbers) ? 2 : 1,
    noArgs: b.na === true,
    sigs: b.s,
  };
}

/** Does `ov` take the positional arguments `p[0..m)` and the keywords `o` (python.ts's conditionExpr)? */
function matches(d: Decoded, ov: Overload, p: readonly unknown[], m: number, o: Kw | undefined, numbers: Pass): boolean {
  if (ov.varargs) {
    if (!(m >= 1 && ((m === 1 && isIntList(p[0])) || isIntVarargs(p, m)))) return false;
  } else {
    if (ov.min === ov.P ? m !== ov.min : m < ov.min || m > ov.P) return false;
    for (let i = 0; i < ov.P; i++) {
      const v = p[i];
      if (i >= ov.min && (m <= i || v === undefined)) continue;
      if (!(ov.pos[i] as Arg).check[numbers](v)) return false;
    }
  }
  if (d.overloaded && o !== undefined) {
    if (!kwFits(o, ov.allowed)) return false;
    if (numbers === 0) {
      for (const k of ov.kwTensors) {
        const v = o[k];
        if (v !== undefined && v !== null && !isTensor(v)) return false;
      }
    }
  }
  return true;
}

/** The error of a call no overload took: METH_NOARGS's, FunctionSignature::parse's, or the "invalid combination" text. */
function fail(d: Decoded, a: readonly unknown[], method: boolean): never {
  if (d.noArgs) return noArgs(d.name, a);
  if (d.overloaded) return noMatch(method ? `Tensor.${d.name}` : d.name, a, d.sigs);
  const ov = d.overloads[0] as Overload;
  const nt: Pass = ov.numbers ? 1 : 0;
  const params: PyParam[] = [...ov.pos, ...ov.kw].map((arg) => {
    const p: PyParam = {
      name: arg.name === 'self' ? 'input' : arg.name,
      type: arg.pyType,
      check: arg.check[nt],
      optional: arg.row.h,
      kwOnly: arg.row.ko,
    };
    return arg.row.l === undefined ? p : { ...p, list: arg.row.l };
  });
  if (ov.outOp !== null) {
    params.push(
      ov.nOuts > 1
        ? { name: 'out', type: 'tuple of Tensors', check: (v) => v === null || Array.isArray(v), optional: true, kwOnly: true }
        : { name: 'out', type: 'Tensor', check: (v) => v === null || isTensor(v), optional: true, kwOnly: true },
    );
  }
  if (ov.tensorOptions) params.push({ name: 'requires_grad', type: 'bool', check: isBool, optional: true, kwOnly: true });
  return badCall(d.name, a, params, ov.varargs, d.sigs);
}

/** A parameter not given positionally: from the keywords, else its default, else an error (python.ts's kwLines). */
function fromKw(d: Decoded, ov: Overload, arg: Arg, o: Kw | undefined, a: readonly unknown[], method: boolean): unknown {
  const v = o === undefined ? undefined : o[arg.name];
  const nt: Pass = ov.numbers ? 1 : 0;
  if (v !== undefined) {
    kwArg(d.name, arg.name, arg.pyType, arg.check[nt](v), v);
    return arg.convert[nt](v);
  }
  if (arg.hasDefault) return arg.dflt();
  if (!d.overloaded) return fail(d, a, method);
  return missingKw(d.name, arg.name);
}

function invoke(op: Op, refs: readonly number[], vals: readonly unknown[], self: unknown, out: unknown): unknown {
  const args = new Array<unknown>(refs.length);
  for (let i = 0; i < refs.length; i++) {
    const r = refs[i] as number;
    args[i] = r >= 0 ? vals[r] : r === -1 ? self : r === -2 ? undefined : r === -3 ? out : (out as Tensor[])[-4 - r];
  }
  return op(...args);
}

/** Parses the arguments of one overload that matched and calls its operator (python.ts's bodyLines). */
function run(
  d: Decoded,
  ov: Overload,
  self: unknown,
  a: readonly unknown[],
  p: readonly unknown[],
  m: number,
  n: number,
  o: Kw | undefined,
  numbers: Pass,
  method: boolean,
): unknown {
  const P = ov.P;
  const vals = new Array<unknown>(P + ov.kw.length);
  for (let i = 0; i < P; i++) {
    if (ov.varargs) {
      vals[i] = m === 1 && Array.isArray(p[0]) ? toIntList(p[0]) : p.slice(0, m);
      continue;
    }
    const arg = ov.pos[i] as Arg;
    if (i < ov.min || (m > i && p[i] !== undefined)) vals[i] = arg.convert[numbers](p[i]);
    else vals[i] = fromKw(d, ov, arg, o, a, method);
  }
  for (let j = 0; j < ov.kw.length; j++) vals[P + j] = fromKw(d, ov, ov.kw[j] as Arg, o, a, method);
  if (o !== undefined) {
    if (d.noArgs) checkNoKw(d.name, o);
    else checkKw(d.name, o, ov.allowed, ov.posKw, n);
  }
  if (ov.outOp !== null) {
    const out = o === undefined ? undefined : o.out;
    if (out !== undefined && out !== null) {
      if (ov.nOuts === 1) kwArg(d.name, 'out', 'Tensor', isTensor(out), out);
      else checkOutTuple(d.name, out, ov.nOuts, P + ov.kw.length);
      return invoke(ov.outOp, ov.outRefs, vals, self, out);
    }
  }
  const r = invoke(ov.op, ov.refs, vals, self, undefined);
  if (ov.tensorOptions && o !== undefined && o.requires_grad === true) setFactoryRequiresGrad(r as Tensor);
  return r;
}

/** One binding of the front end: its table as text until the first call (Note [Table-driven argument parsing]). */
export class ArgTable {
  private decoded: Decoded | null = null;

  constructor(
    private readonly text: string,
    private readonly at: object,
    private readonly method: boolean,
  ) {}

  /** Parses `a` (the arguments after self, for a method) as PyTorch's parser would and calls the operator. */
  call(self: unknown, a: unknown[]): unknown {
    const d = this.decoded ?? (this.decoded = decode(this.text, this.at as Readonly<Record<string, unknown>>));
    if (hooks.active) frontEndEnter();
    let n = a.length;
    while (n > 0 && a[n - 1] === undefined) n--;
    let o: Kw | undefined;
    if (n > 0 && isKw(a[n - 1])) o = normalizeKw(d.name, a[--n] as Kw);
    for (let pass = 0; pass < d.passes; pass++) {
      const numbers = pass as Pass;
      for (const ov of d.overloads) {
        if (numbers === 1 && !ov.numbers) continue;
        let p: readonly unknown[] = a;
        let m = n;
        if (ov.P > 0 && o !== undefined && n < ov.P) {
          p = kwPositional(a, n, o, ov.posKw);
          m = p === a ? n : p.length;
        }
        if (matches(d, ov, p, m, o, numbers)) return run(d, ov, self, a, p, m, n, o, numbers, this.method);
      }
    }
    return fail(d, a, this.method);
  }
}
