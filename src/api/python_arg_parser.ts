// The runtime half of the generated front end (src/generated/functions.ts and methods.ts): argument checks,
// conversions and PyTorch's argument-parser error texts. Mirrors torch/csrc/utils/python_arg_parser.cpp
// (FunctionParameter::check, PythonArgParser::raw_parse, the "invalid combination of arguments" message).
// The generated code does the per-overload matching itself, in straight-line code (see Note [Generated
// argument parsing] in src/codegen/api/python.ts); this module holds what every overload shares. Browser-safe.

import { Device } from '../c10/Device.js';
import { isDtypeLike, toScalarType, type DtypeLike } from '../c10/Dtype.js';
import { ScalarType } from '../c10/ScalarType.js';
import { Generator } from '../random/index.js';
import { TENSOR_BRAND, Tensor } from '../tensor/Tensor.js';
import { wrapScalar } from '../tensor/ScalarOps.js';
import { isKw, normalizeKw, typedKey, unexpectedKw, type Kw } from '../c10/Kwargs.js';

// The option-key rule (snake_case, camelCase accepted, unknown keys rejected) is c10's, Note [Option keys] in
// src/c10/Kwargs.ts, so the floors below the front end (autograd's backward and grad) share it.
export { isKw, normalizeKw, parseKw, snakeCase, typedKey, unexpectedKw, type Kw } from '../c10/Kwargs.js';

/** A dtype option: a `torch.dtype`, its Python name (`'float32'`, `'torch.int64'`) or the ScalarType number. */
export type { DtypeLike };
/** A device option: a Device or its string (`'cpu'`, `'meta'`). */
export type DeviceLike = Device | string;

export function isTensor(v: unknown): v is Tensor {
  // See Note [Tensor brand check].
  return typeof v === 'object' && v !== null && (v as { [TENSOR_BRAND]?: true })[TENSOR_BRAND] === true;
}

/** A Tensor argument of an op that accepts numbers as tensors (`torch.add(x, 2)`). */
export function isTensorOrNumber(v: unknown): boolean {
  return isTensor(v) || typeof v === 'number' || typeof v === 'boolean';
}

export function isScalar(v: unknown): boolean {
  return typeof v === 'number' || typeof v === 'boolean';
}

export function isInt(v: unknown): boolean {
  return typeof v === 'number' && Number.isInteger(v);
}

export function isFloat(v: unknown): boolean {
  return typeof v === 'number';
}

export function isBool(v: unknown): boolean {
  return typeof v === 'boolean';
}

export function isIntList(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (const x of v) if (!isInt(x)) return false;
  return true;
}

/** A `Tensor?[]` argument: a list whose elements are Tensors or null (undefined reads as null). */
export function isOptionalTensorList(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (const x of v) if (!(isTensor(x) || x === null || x === undefined)) return false;
  return true;
}

export function toOptionalTensorList(v: unknown): (Tensor | null)[] {
  return (v as readonly (Tensor | null | undefined)[]).map((x) => x ?? null);
}

/** `x.view(2, 3)`: the `n` leading arguments are all ints (PyTorch's varargs int list). */
export function isIntVarargs(a: readonly unknown[], n: number): boolean {
  for (let i = 0; i < n; i++) if (!isInt(a[i])) return false;
  return true;
}

export function isDtype(v: unknown): boolean {
  return isDtypeLike(v);
}

export function isDevice(v: unknown): boolean {
  return v instanceof Device || typeof v === 'string';
}

export function isGenerator(v: unknown): boolean {
  return v instanceof Generator;
}

export function toTensor(v: unknown): Tensor {
  return isTensor(v) ? v : wrapScalar(v as number | boolean);
}

export function toIntList(v: unknown): number[] {
  return [...(v as readonly number[])];
}

/**
 * The positional arguments of an overload whose parameters are `names`: `a[0..n)` as given, then each later
 * parameter looked up in the options object by name (Note [Every argument by keyword] in
 * src/codegen/api/python.ts). Returns `a` itself when the options object names none of them.
 */
export function kwPositional(a: readonly unknown[], n: number, o: Kw, names: readonly string[]): readonly unknown[] {
  let last = -1;
  for (let i = n; i < names.length; i++) if (o[names[i]!] !== undefined) last = i;
  if (last < 0) return a;
  const p = a.slice(0, n);
  for (let i = n; i <= last; i++) p.push(o[names[i]!]);
  return p;
}

/** True if every key of the keyword object is one an overload accepts (undefined values are not given). */
export function kwFits(o: Kw, allowed: readonly string[]): boolean {
  for (const k of Object.keys(o)) if (o[k] !== undefined && !allowed.includes(k)) return false;
  return true;
}

/** An `int[N]` argument: a list as given, or one int repeated N times (Note [Fixed-size int lists take a single int]). */
export function toIntListN(v: unknown, n: number): number[] {
  return typeof v === 'number' ? new Array<number>(n).fill(v) : [...(v as readonly number[])];
}

/** An `int reduction` argument: at::Reduction's int, or its name as torch.nn.functional takes it (Note [Reduction by name] in src/codegen/api/python.ts). */
export function toReduction(v: unknown): number {
  if (typeof v !== 'string') return v as number;
  switch (v) {
    case 'none':
      return 0;
    case 'mean':
      return 1;
    case 'sum':
      return 2;
    default:
      throw new Error(`${v} is not a valid value for reduction`);
  }
}

export function toDtype(v: unknown): ScalarType {
  return toScalarType(v as DtypeLike);
}

export function toDevice(v: unknown): Device {
  return typeof v === 'string' ? Device.parse(v) : (v as Device);
}

/** Python's type name of a JavaScript value, as PyTorch's messages print argument types. */
export function typeName(v: unknown): string {
  if (v instanceof Tensor) return 'Tensor';
  if (v === null || v === undefined) return 'NoneType';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (typeof v === 'string') return 'str';
  if (Array.isArray(v)) return 'list';
  if (v instanceof Device) return 'torch.device';
  if (v instanceof Generator) return 'torch.Generator';
  return typeof v === 'object' ? ((v as object).constructor?.name ?? 'object') : typeof v;
}

/**
 * Checks a keyword argument's value; throws PyTorch's text (`add(): argument 'alpha' must be Number, not str`).
 */
export function kwArg(name: string, arg: string, expected: string, ok: boolean, v: unknown): void {
  if (!ok) throw new TypeError(`${name}(): argument '${arg}' must be ${expected}, not ${typeName(v)}`);
}

/**
 * The out= tuple of an operator with several outputs (`torch.max(x, 1, { out: [values, indices] })`), with the
 * texts of PyTorch's parser for a TensorList argument: its length, then each element. `position` is the
 * argument's index in the Python signature.
 */
export function checkOutTuple(name: string, v: unknown, n: number, position: number): void {
  if (!Array.isArray(v)) throw new TypeError(`${name}(): argument 'out' must be tuple of Tensors, not ${typeName(v)}`);
  if (v.length !== n) throw new TypeError(`expected tuple of ${n} elements but got ${v.length}`);
  v.forEach((t: unknown, i) => {
    if (!(t instanceof Tensor)) throw new TypeError(`expected Tensor as element ${i} in argument ${position}, but got ${typeName(t)}`);
  });
}

/**
 * Rejects keyword names the overload does not take (`add() got an unexpected keyword argument 'alpah'`) and
 * keywords naming an argument already given positionally (`got multiple values for argument`).
 */
export function checkKw(name: string, o: Kw, allowed: readonly string[], positional: readonly string[], given: number): void {
  for (const k of Object.keys(o)) {
    if (o[k] === undefined) continue;
    if (!allowed.includes(k)) unexpectedKw(name, o, k);
    const i = positional.indexOf(k);
    if (i >= 0 && i < given) throw new TypeError(`${name}() got multiple values for argument '${k}'`);
  }
}

/** A keyword-only argument without a default that the caller left out. */
export function missingKw(name: string, arg: string): never {
  throw new TypeError(`${name}() missing required keyword argument '${arg}'`);
}

/**
 * No overload matched: PyTorch's `received an invalid combination of arguments` text with the Python
 * types of what was given and each signature.
 */
export function noMatch(name: string, args: readonly unknown[], signatures: readonly string[]): never {
  const got: string[] = [];
  for (const a of args) {
    if (isKw(a)) {
      for (const k of Object.keys(a)) if (a[k] !== undefined) got.push(`${typedKey(a, k)}=${typeName(a[k])}`);
    } else {
      got.push(typeName(a));
    }
  }
  const positional = args.filter((a) => !isKw(a));
  const kw: Record<string, unknown> = {};
  for (const a of args) if (isKw(a)) for (const k of Object.keys(a)) if (a[k] !== undefined) kw[typedKey(a, k)] = a[k];
  throw new TypeError(
    `${name}() received an invalid combination of arguments - got (${got.join(', ')}), but expected one of:\n` +
      signatures.map((s) => ` * ${s}\n${whyNoMatch(s, positional, kw)}`).join(''),
  );
}

// Note [Why an overload did not match]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// torch/csrc/utils/invalid_arguments.cpp re-parses each printed signature by splitting it at ", ": every
// piece counts as an argument, the `*` marker and `Tensor out = None` included. A signature whose piece
// count equals the number of arguments given gets a second line: "didn't match because some of the keywords
// were incorrect: ..." when a keyword names none of its last pieces, else "didn't match because some of the
// arguments have invalid types: (!int!, Tensor)" with each argument whose Python type is not the piece's type
// between `!`s. So `torch.remainder(2, 3)` explains `(Number self, Tensor other)` only: the other overloads
// print four pieces. The piece's name is what follows its last space (`None` for `Tensor out = None`), as
// PyTorch reads it.

function pieceType(piece: string): { type: string; nullable: boolean; name: string } {
  let p = piece.startsWith('#') ? piece.slice(1) : piece;
  let nullable = false;
  if (p.startsWith('[')) {
    nullable = true;
    p = p.slice(1, p.length - ' or None]'.length);
  }
  const space = p.lastIndexOf(' ');
  const end = p.includes('...') ? space - 4 : space;
  return { type: p.slice(0, Math.max(end, 0)), nullable, name: p.slice(space + 1) };
}

function pyTypeMatches(type: string, v: unknown): boolean {
  const t = typeName(v);
  if (type === 'float') return t === 'float' || t === 'int';
  return t === type;
}

function pyArgDesc(v: unknown): string {
  if (Array.isArray(v)) return `list of [${v.map((x) => typeName(x)).join(', ')}]`;
  return typeName(v);
}

/** The "didn't match because ..." line of one signature (Note [Why an overload did not match]), or ''. */
function whyNoMatch(sig: string, args: readonly unknown[], kw: Record<string, unknown>): string {
  const pieces = sig.slice(1, -1).split(', ').map(pieceType);
  const kwNames = Object.keys(kw);
  const numGot = args.length + kwNames.length;
  const variadic = sig.includes('...');
  if (!(numGot === pieces.length || (variadic && numGot > pieces.length))) return '';
  if (kwNames.length > 0) {
    const start = Math.max(pieces.length - kwNames.length, 0);
    const unmatched = kwNames.filter((k) => !pieces.slice(start).some((p) => p.name === k));
    if (unmatched.length > 0) return `      didn't match because some of the keywords were incorrect: ${unmatched.join(', ')}\n`;
  }
  const items: string[] = [];
  for (let i = 0; i < numGot; i++) {
    const isKwarg = i >= args.length;
    const piece = pieces[Math.min(i, pieces.length - 1)]!;
    const v = isKwarg ? kw[pieces[i]?.name ?? ''] : args[i];
    const matching =
      i < pieces.length || variadic ? (piece.nullable && (v === null || v === undefined)) || pyTypeMatches(piece.type, v) : false;
    const text = `${isKwarg ? `${pieces[i]?.name ?? ''}=` : ''}${pyArgDesc(v)}`;
    items.push(matching ? text : `!${text}!`);
  }
  // (invalid_arguments.cpp trims the last ", " only when positional arguments were given)
  const desc = items.join(', ') + (args.length === 0 && items.length > 0 ? ', ' : '');
  return `      didn't match because some of the arguments have invalid types: (${desc})\n`;
}

// Note [Single-signature errors]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// When a Python binding has one signature, PythonArgParser::raw_parse runs FunctionSignature::parse with
// raise_exception=true, which names the first problem instead of printing "invalid combination of
// arguments": too many positional arguments, a missing required one, an argument of the wrong type (by
// position or by keyword), an element of a list of the wrong type, an unknown keyword or one that repeats a
// positional argument, in that order. The generated fast path only tells "matches" from "does not match", so
// when a single-overload binding does not match, the generated code calls `badCall` with a description of the
// signature, built only then, and badCall replays the parse to find PyTorch's text. What aten-ts checks more
// strictly than PyTorch (every element of an int list, not only the first: PyTorch reports the others when
// unpacking, "failed to unpack the object at pos N") is reported the way PyTorch reports it; a call PyTorch
// would accept but aten-ts does not (a required positional argument given by keyword) falls back to the
// "invalid combination" text. Methods without arguments are METH_NOARGS in PyTorch, so CPython's own texts
// apply (`TensorBase.isnan() takes no arguments (1 given)`), see `noArgs`.

/** A parameter of a single-signature binding, as FunctionSignature holds it (built only on the error path). */
export interface PyParam {
  /** The Python name (`input` for a function's `self`); also the keyword that names it. */
  readonly name: string;
  /** FunctionParameter::type_name: `Tensor`, `Number`, `int`, `tuple of ints`, `torch.dtype`, ... */
  readonly type: string;
  /** The generated fast path's check of a value (None included when the type is optional). */
  readonly check: (v: unknown) => boolean;
  /** Has a default (PyTorch's `optional`). */
  readonly optional: boolean;
  readonly kwOnly: boolean;
  /** `int`: an int list (elements checked as PyTorch does); `Tensor`: a Tensor[] list; `Tensor?`: a Tensor?[] list. */
  readonly list?: 'int' | 'Tensor' | 'Tensor?';
}

function extraArgs(name: string, params: readonly PyParam[], nargs: number): never {
  let maxPos = 0;
  let minArgs = 0;
  for (const p of params) {
    if (!p.kwOnly) maxPos++;
    if (!p.optional) minArgs++;
  }
  if (minArgs !== maxPos) throw new TypeError(`${name}() takes from ${minArgs} to ${maxPos} positional arguments but ${nargs} were given`);
  throw new TypeError(
    `${name}() takes ${maxPos} positional argument${maxPos === 1 ? '' : 's'} but ${nargs} ${nargs === 1 ? 'was' : 'were'} given`,
  );
}

function missingArgs(name: string, params: readonly PyParam[], from: number): never {
  const names: string[] = [];
  for (let i = from; i < params.length; i++) if (!params[i]!.optional) names.push(`"${params[i]!.name}"`);
  // python_arg_parser.cpp's missing_args pluralizes backwards ("1 required positional arguments").
  throw new TypeError(
    `${name}() missing ${names.length} required positional argument${names.length === 1 ? 's' : ''}: ${names.join(', ')}`,
  );
}

/** PyTorch's unpack error for an int list whose first element is an int but element `j` is not. */
function unpackError(name: string, p: PyParam, list: readonly unknown[]): string | null {
  for (let j = 1; j < list.length; j++) {
    if (!isInt(list[j])) {
      return `${name}(): argument '${p.name}' failed to unpack the object at pos ${j + 1} with error "type must be tuple of ints,but got ${typeName(list[j])}"`;
    }
  }
  return null;
}

/**
 * A single-signature binding did not match: throws the TypeError PyTorch's FunctionSignature::parse raises
 * (Note [Single-signature errors]); `varargs` when the one positional parameter is an int list that also takes
 * varargs (`x.view(2, 3)`). Falls back to the "invalid combination" text when PyTorch would accept the call.
 */
export function badCall(
  name: string,
  a: readonly unknown[],
  params: readonly PyParam[],
  varargs: boolean,
  signatures: readonly string[],
): never {
  let nargs = a.length;
  while (nargs > 0 && a[nargs - 1] === undefined) nargs--;
  let o: Kw | undefined;
  if (nargs > 0 && isKw(a[nargs - 1])) o = normalizeKw(name, a[--nargs] as Kw);
  let maxPos = 0;
  for (const p of params) if (!p.kwOnly) maxPos++;
  if (nargs > maxPos && !varargs) extraArgs(name, params, nargs);
  const used = new Set<string>();
  let unpack: string | null = null;
  let pos = 0;
  for (let i = 0; i < params.length; i++) {
    const p = params[i]!;
    let v: unknown;
    let isKwd = false;
    if (pos < nargs) {
      if (p.kwOnly) extraArgs(name, params, nargs);
      v = a[pos];
    } else if (o !== undefined) {
      v = o[p.name];
      if (v !== undefined) used.add(p.name);
      isKwd = true;
    }
    if (v === undefined) {
      if (!p.optional) missingArgs(name, params, i);
    } else if (p.check(v)) {
      // accepted as the fast path accepts it
    } else if (p.list === 'int' && Array.isArray(v) && (v.length === 0 || isInt(v[0]))) {
      // PyTorch's check looks at the first element only; the others fail when unpacked.
      unpack ??= unpackError(name, p, v);
    } else if (varargs && pos === 0 && !isKwd && isInt(v)) {
      // varargs: every positional argument is an element of this list
      unpack ??= unpackError(name, p, a.slice(0, nargs));
      pos = nargs;
      continue;
    } else if (varargs && !isKwd && nargs > maxPos) {
      extraArgs(name, params, nargs);
    } else if ((p.list === 'Tensor' || p.list === 'Tensor?') && Array.isArray(v)) {
      // aten-ts lets a Tensor?[] element be null (a full slice); the element PyTorch names is the first other one
      const j = v.findIndex((x) => !(x instanceof Tensor || (p.list === 'Tensor?' && (x === null || x === undefined))));
      throw new TypeError(`expected Tensor as element ${j} in argument ${i}, but got ${typeName(v[j])}`);
    } else if (p.list === 'int' && Array.isArray(v) && !isKwd) {
      throw new TypeError(
        `${name}(): argument '${p.name}' (position ${pos + 1}) must be ${p.type}, but found element of type ${typeName(v[0])} at pos 0`,
      );
    } else {
      typeError(name, p, pos, isKwd, v);
    }
    if (!isKwd) pos++;
  }
  if (o !== undefined) {
    for (const k of Object.keys(o)) {
      if (o[k] === undefined || used.has(k)) continue;
      const i = params.findIndex((p) => p.name === k);
      if (i < 0) unexpectedKw(name, o, k);
      if (i < nargs) throw new TypeError(`${name}() got multiple values for argument '${k}'`);
    }
  }
  if (unpack !== null) throw new TypeError(unpack);
  return noMatch(name, a, signatures);
}

function typeError(name: string, p: PyParam, pos: number, isKwd: boolean, v: unknown): never {
  if (isKwd) throw new TypeError(`${name}(): argument '${p.name}' must be ${p.type}, not ${typeName(v)}`);
  throw new TypeError(`${name}(): argument '${p.name}' (position ${pos + 1}) must be ${p.type}, not ${typeName(v)}`);
}

/**
 * A method without arguments given some: PyTorch binds it METH_NOARGS, so CPython's texts apply
 * (`TensorBase.t() takes no keyword arguments`, `TensorBase.t() takes no arguments (1 given)`).
 */
export function noArgs(name: string, a: readonly unknown[]): never {
  let n = a.length;
  while (n > 0 && a[n - 1] === undefined) n--;
  if (n > 0 && isKw(a[n - 1])) {
    const o = a[--n] as Kw;
    if (Object.keys(o).some((k) => o[k] !== undefined)) throw new TypeError(`TensorBase.${name}() takes no keyword arguments`);
  }
  throw new TypeError(`TensorBase.${name}() takes no arguments (${n} given)`);
}

/** The options object of a method without arguments must be empty (CPython's METH_NOARGS text otherwise). */
export function checkNoKw(name: string, o: Kw): void {
  for (const k of Object.keys(o)) if (o[k] !== undefined) throw new TypeError(`TensorBase.${name}() takes no keyword arguments`);
}

/** A Tensor[] argument: a list of Tensors. */
export function isTensorList(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (const x of v) if (!isTensor(x)) return false;
  return true;
}
